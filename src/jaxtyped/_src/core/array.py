"""``Array``: the one array type users see (layer L1).

Note [one Array class] (JEP 12049, Option 4): ``Array`` is a real abstract
base class. The concrete array (``ArrayImpl``) and every array tracer are
subclasses, so ``isinstance``, ``issubclass`` and ``functools.singledispatch``
agree with static types. Non-array values that flow through transformations
(tokens, refs) are not ``Array`` instances. Device-only methods
(``block_until_ready``) live on the concrete class, not here, so a type
checker rejects them on values that may be traced.

Note [late-bound array methods]: ``Array`` declares every operator and method
with its full signature, but their implementations are the
``jaxtyped.numpy`` functions, which live in a higher layer. That layer calls
:func:`install_array_methods` once, at import; this is the only sanctioned
late binding in the package. Conversions to Python values (``bool``,
``int``, ...) are implemented here because they need no array operations.
"""

# pyright: reportPrivateUsage=false
# (require_concrete below is the sanctioned accessor of Array._require_concrete)
import operator
from abc import ABC, abstractmethod
from dataclasses import dataclass
from collections.abc import Callable, Iterator, Mapping, Sequence
from types import EllipsisType
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, Literal, Protocol, SupportsIndex, TypeAlias, Union, cast, overload, runtime_checkable

import numpy as np
from typing_extensions import CapsuleType

from jaxtyped._src import dtypes
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.errors import (
    ConcretizationTypeError,
    JaxtypedIndexError,
    JaxtypedNotImplementedError,
    JaxtypedTypeError,
    JaxtypedValueError,
    TracerIntegerConversionError,
)
from jaxtyped._src.tree_util import leaves_are_instances, register_pytree_node_class
from jaxtyped._src.util import predicate_class

if TYPE_CHECKING:
    from typing_extensions import Self

    from jaxtyped._src.core.array_impl import Shard
    from jaxtyped._src.sharding import Device, Sharding

__all__ = [
    "Array",
    "ArrayLike",
    "Conversion",
    "DimSize",
    "PyTree",
    "ScalarLike",
    "ShapeLike",
    "install_array_methods",
    "IndexUpdate",  # advanced indexing family
    "IndexUpdateHelper",
    "IndexUpdateRef",
    "late_bound_array_methods",
    "require_concrete",
    "Slice",
    "SliceBound",
    "ds",
    "ds_size",
]

# DLPack's device type code of host memory (kDLCPU).
_DLPACK_CPU = 1

# The kinds of conversion to a concrete Python/NumPy value; errors name them.
Conversion = Literal["bool", "int", "index", "float", "complex", "item", "tolist", "tobytes", "dlpack"]


def _not_installed(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"Array.{name} is implemented by jaxtyped.numpy; import jaxtyped first"
    )


class Array(ABC):
    """An n-dimensional array: a concrete array, or a tracer standing for one
    inside a transformation.

    Arrays are immutable. Arithmetic operators, comparisons, indexing and
    the NumPy-style methods below follow ``jaxtyped.numpy`` (and therefore
    JAX) semantics, including dtype promotion and broadcasting.

    Example:
        >>> import jaxtyped.numpy as jnp
        >>> x = jnp.arange(3.0)
        >>> isinstance(x, Array), x.shape, x.dtype
        (True, (3,), dtype('float32'))
    """

    __slots__ = ()
    # Make NumPy defer binary operators (``ndarray + Array``) to us.
    __array_priority__: ClassVar[int] = 100

    # --- what every subclass provides -----------------------------------

    @property
    @abstractmethod
    def aval(self) -> ShapedArray:
        """The abstract value: shape, dtype and weak type."""

    @abstractmethod
    def _require_concrete(self, conversion: Conversion) -> np.ndarray[Any, np.dtype[Any]]:
        """The concrete value, or a concretization error naming the
        transformation and the user's function."""

    # --- metadata ---------------------------------------------------------

    @property
    def shape(self) -> tuple[int, ...]:
        """The array's shape."""
        return self.aval.shape

    @property
    def dtype(self) -> np.dtype[Any]:
        """The array's dtype."""
        return self.aval.dtype

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.aval.shape)

    @property
    def size(self) -> int:
        """Number of elements."""
        return self.aval.size

    @property
    def weak_type(self) -> bool:
        """Whether the value is weakly typed (came from a Python scalar)."""
        return self.aval.weak_type

    # --- conversions to Python values ---------------------------------------

    def _require_scalar(self, conversion: Conversion) -> np.ndarray[Any, np.dtype[Any]]:
        """The value of an array that converts to one Python scalar: any
        size-1 array for ``bool()`` and ``item()``, only 0-d arrays for
        ``int()``, ``float()``, ``complex()`` and indexing (JAX's rules)."""
        value = self._require_concrete(conversion)
        if conversion in ("bool", "item"):
            if value.size != 1 and conversion == "bool":
                raise JaxtypedValueError(
                    "The truth value of an array with more than one element is ambiguous "
                    f"({self.aval.str_short()}); use a.any() or a.all()"
                )
            if value.size != 1:
                raise JaxtypedValueError(f"item() needs an array with one element, got {self.aval.str_short()}")
        elif value.ndim != 0:
            raise JaxtypedTypeError(
                f"only 0-dimensional arrays can be converted to Python scalars by {conversion}(); "
                f"got {self.aval.str_short()}"
            )
        return value.reshape(())

    @abstractmethod
    def __array__(
        self, dtype: np.dtype[Any] | None = None, copy: bool | None = None
    ) -> np.ndarray[Any, np.dtype[Any]]:
        """The value as a NumPy array: NumPy's conversion protocol, so that
        ``np.asarray(x)`` and NumPy functions (``np.testing.assert_allclose``)
        take an ``Array``. A tracer raises ``TracerArrayConversionError`` and
        an array of PRNG keys a ``JaxtypedTypeError``, as in JAX."""

    def __bool__(self) -> bool:
        return bool(self._require_scalar("bool"))

    def __int__(self) -> int:
        return int(self._require_scalar("int"))

    def __float__(self) -> float:
        return float(self._require_scalar("float"))

    def __complex__(self) -> complex:
        return complex(self._require_scalar("complex"))

    def __index__(self) -> int:
        if not dtypes.is_integer(self.dtype):
            raise JaxtypedTypeError(
                f"only integer arrays can be used as an index; got {self.aval.str_short()}"
            )
        return int(self._require_scalar("index"))

    def item(self, *args: SupportsIndex | tuple[SupportsIndex, ...]) -> bool | int | float | complex:
        """One element as a Python scalar (NumPy's and JAX's ``item``): with
        no argument the only element of a size-1 array; with one int the
        element at that flat (C-order) index, negative from the end; with one
        int per dimension (or one tuple of them) the element there.

        Raises:
            JaxtypedTypeError: an index is not an integer.
            JaxtypedValueError: there are neither one nor ``ndim`` indices.
            JaxtypedIndexError: an index is out of bounds.
        """
        if not args:
            value = self._require_scalar("item").item()
        else:
            value = self._require_concrete("item").item(*self._item_index(args))
        if isinstance(value, (bool, int, float, complex)):
            return value
        return float(value)  # ml_dtypes scalars (bfloat16) have no Python twin

    def _item_index(self, args: tuple[object, ...]) -> tuple[int, ...]:
        """``item``'s arguments checked against the shape, as a tuple of
        non-negative ints: one flat index, or one per dimension."""
        what = self.aval.str_short()
        first = args[0] if args else None
        given = cast("tuple[object, ...]", first) if len(args) == 1 and isinstance(first, tuple) else args
        index: list[int] = []
        for i in given:
            try:
                if isinstance(i, (bool, np.bool_)):
                    raise TypeError  # NumPy refuses booleans here too
                index.append(operator.index(cast("SupportsIndex", i)))  # anything with __index__, as NumPy
            except TypeError:
                raise JaxtypedTypeError(f"Array.item: indices must be integers, got {i!r} for {what}") from None
        if len(index) == 1:
            bounds: tuple[int, ...] = (self.size,)
        elif len(index) == self.ndim:
            bounds = self.shape
        else:
            raise JaxtypedValueError(
                f"Array.item: takes one flat index or one index per dimension ({self.ndim}), "
                f"got {len(index)} for {what}"
            )
        for axis, (i, n) in enumerate(zip(index, bounds, strict=True)):
            if not -n <= i < n:
                where = f"flat index {i}" if len(index) == 1 else f"index {i} on axis {axis}"
                raise JaxtypedIndexError(f"Array.item: {where} is out of bounds for size {n} of {what}")
        return tuple(i % n for i, n in zip(index, bounds, strict=True))

    def tolist(self) -> object:
        """The value as (nested) Python lists of scalars."""
        result: object = self._require_concrete("tolist").tolist()
        return result

    def __dlpack__(
        self,
        *,
        stream: object = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> CapsuleType:
        """The value as a DLPack capsule on the host, for
        ``np.from_dlpack(x)`` or another library's ``from_dlpack``: a
        read-only view where the consumer understands read-only tensors
        (DLPack 1.0), else a copy (unless ``copy=False``).

        Raises:
            BufferError: ``dl_device`` is not the CPU, the dtype has no
                DLPack code in NumPy (bfloat16, float8, int4), or a view
                was required of a consumer that cannot take it read-only.
            TracerArrayConversionError: the array is traced.
        """
        if dl_device is not None and tuple(dl_device) != (_DLPACK_CPU, 0):
            raise BufferError(f"Array.__dlpack__: arrays live on the CPU (device {(_DLPACK_CPU, 0)}), not {dl_device}")
        host = self._require_concrete("dlpack")
        if copy:
            host = host.copy()
        try:
            return host.__dlpack__(stream=stream, max_version=max_version, copy=False)
        except BufferError as err:
            # A legacy (pre-1.0) consumer cannot be told the view is read-only: hand it a copy.
            if copy is False or host.flags.writeable:
                raise BufferError(f"Array.__dlpack__ of {self.aval.str_short()}: {err}") from None
        try:
            return host.copy().__dlpack__(stream=stream, max_version=max_version)
        except BufferError as err:
            raise BufferError(f"Array.__dlpack__ of {self.aval.str_short()}: {err}") from None

    def __dlpack_device__(self) -> tuple[int, int]:
        """``(kDLCPU, 0)``: where the DLPack export lives."""
        return (_DLPACK_CPU, 0)

    def __len__(self) -> int:
        if not self.aval.shape:
            raise JaxtypedTypeError("len() of a 0-d array")
        return self.aval.shape[0]

    def __iter__(self) -> Iterator["Array"]:
        if not self.aval.shape:
            raise JaxtypedTypeError("iteration over a 0-d array")
        for index in range(self.aval.shape[0]):
            yield self[index]

    # --- placement: declared for the checkers only ------------------------
    # jax.Array declares these, so code typed with Array (x.block_until_ready()
    # in a timing loop, x.sharding) type-checks as with JAX. At run time only
    # a concrete array (ArrayImpl) has them: a traced one is on no device and
    # raises AttributeError, as JAX's tracers do (hasattr stays False).
    if TYPE_CHECKING:

        def block_until_ready(self) -> Self:
            """Wait until the value is computed (dispatch is asynchronous); returns the array."""
            ...

        def devices(self) -> set[Device]:
            """The devices holding the array."""
            ...

        def to_device(self, device: Device | Sharding, *, stream: None = None) -> "Array":
            """The array on ``device``, or laid out over a sharding (a new array)."""
            ...

        def copy_to_host_async(self) -> None:
            """Start copying the value to the host (a later read finds it there)."""
            ...

        @property
        def device(self) -> Device | Sharding:
            """The device holding the array, or its sharding when several
            devices hold it (the Array API's attribute, as JAX's)."""
            ...

        @property
        def sharding(self) -> Sharding:
            """How the array is laid out over devices."""
            ...

        @property
        def is_fully_replicated(self) -> bool:
            """Whether every device holding the array holds all of it."""
            ...

        @property
        def is_fully_addressable(self) -> bool:
            """Whether this process holds every shard of the array."""
            ...

        def addressable_data(self, index: int) -> "Array":
            """The data of the ``index``-th shard this process holds."""
            ...

        def is_deleted(self) -> bool:
            """Whether the array's buffers were freed (``delete``, or donated to a jitted function)."""
            ...

        def delete(self) -> None:
            """Free the array's buffers now; using the array afterwards raises."""
            ...

        @property
        def addressable_shards(self) -> "list[Shard]":
            """Per device of this process, its slice of the array."""
            ...

        @property
        def global_shards(self) -> "list[Shard]":
            """Per device, its slice of the array."""
            ...

    # Arrays compare elementwise, so they cannot be hashed (as in JAX).
    __hash__: ClassVar[None]  # type: ignore[assignment]  # pyright: ignore[reportIncompatibleMethodOverride]  # unhashable on purpose

    # --- late-bound operators and methods (see Note [late-bound array methods]) ---

    def __getitem__(self, index: "Index") -> "Array":
        raise _not_installed("__getitem__")

    def __neg__(self) -> "Array":
        raise _not_installed("__neg__")

    def __pos__(self) -> "Array":
        raise _not_installed("__pos__")

    def __abs__(self) -> "Array":
        raise _not_installed("__abs__")

    def __invert__(self) -> "Array":
        raise _not_installed("__invert__")

    def __round__(self, ndigits: int | None = None) -> "Array":
        raise _not_installed("__round__")

    def __add__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__add__")

    def __radd__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__radd__")

    def __iadd__(self, other: "ArrayLike") -> "Array":
        """``x += y``: ``x`` is rebound to ``x + y`` (arrays are immutable);
        ``ref[idx] += y`` of a staged ref becomes one ``addupdate`` (refs
        family, issue 16: see Note [ref += is an accumulation])."""
        raise _not_installed("__iadd__")

    def __sub__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__sub__")

    def __rsub__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rsub__")

    def __mul__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__mul__")

    def __rmul__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rmul__")

    def __truediv__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__truediv__")

    def __rtruediv__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rtruediv__")

    def __floordiv__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__floordiv__")

    def __rfloordiv__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rfloordiv__")

    def __mod__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__mod__")

    def __rmod__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rmod__")

    def __divmod__(self, other: "ArrayLike") -> tuple["Array", "Array"]:
        raise _not_installed("__divmod__")

    def __rdivmod__(self, other: "ArrayLike") -> tuple["Array", "Array"]:
        raise _not_installed("__rdivmod__")

    def __pow__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__pow__")

    def __rpow__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rpow__")

    def __matmul__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__matmul__")

    def __rmatmul__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rmatmul__")

    def __and__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__and__")

    def __rand__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rand__")

    def __or__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__or__")

    def __ror__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__ror__")

    def __xor__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__xor__")

    def __rxor__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rxor__")

    def __lshift__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__lshift__")

    def __rlshift__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rlshift__")

    def __rshift__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rshift__")

    def __rrshift__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__rrshift__")

    def __lt__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__lt__")

    def __le__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__le__")

    def __gt__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__gt__")

    def __ge__(self, other: "ArrayLike") -> "Array":
        raise _not_installed("__ge__")

    def __eq__(self, other: object) -> "Array":  # type: ignore[override]  # pyright: ignore[reportIncompatibleMethodOverride]  # elementwise, as in NumPy and JAX
        raise _not_installed("__eq__")

    def __ne__(self, other: object) -> "Array":  # type: ignore[override]  # pyright: ignore[reportIncompatibleMethodOverride]  # elementwise, as in NumPy and JAX
        raise _not_installed("__ne__")

    @property
    def T(self) -> "Array":
        """The transpose (axes reversed)."""
        raise _not_installed("T")

    @property
    def real(self) -> "Array":
        """The real part."""
        raise _not_installed("real")

    @property
    def imag(self) -> "Array":
        """The imaginary part."""
        raise _not_installed("imag")

    def conj(self) -> "Array":
        """The complex conjugate."""
        raise _not_installed("conj")

    def conjugate(self) -> "Array":
        """The complex conjugate."""
        raise _not_installed("conjugate")

    @overload
    def reshape(self, shape: Sequence[int], /, *, order: str = "C") -> "Array": ...
    @overload
    def reshape(self, *shape: int, order: str = "C") -> "Array": ...
    def reshape(self, *shape: int | Sequence[int], order: str = "C") -> "Array":
        """Same as ``jaxtyped.numpy.reshape(self, shape)``; ``-1`` infers one size."""
        raise _not_installed("reshape")

    @overload
    def transpose(self, axes: Sequence[int] | None, /) -> "Array": ...
    @overload
    def transpose(self, *axes: int) -> "Array": ...
    def transpose(self, *axes: int | Sequence[int] | None) -> "Array":
        """Same as ``jaxtyped.numpy.transpose``; no axes reverses them."""
        raise _not_installed("transpose")

    def astype(
        self, dtype: "dtypes.DTypeLike", copy: bool = False, device: "Device | Sharding | None" = None
    ) -> "Array":
        """A copy converted to ``dtype`` (on ``device``, a device or a
        sharding, when one is given)."""
        raise _not_installed("astype")

    def sum(
        self,
        axis: "Axis" = None,
        dtype: "dtypes.DTypeLike | None" = None,
        out: None = None,
        keepdims: bool = False,
        initial: "ArrayLike | None" = None,
        where: "ArrayLike | None" = None,
        promote_integers: bool = True,
    ) -> "Array":
        """Sum over ``axis`` (all axes by default)."""
        raise _not_installed("sum")

    def prod(
        self,
        axis: "Axis" = None,
        dtype: "dtypes.DTypeLike | None" = None,
        out: None = None,
        keepdims: bool = False,
        initial: "ArrayLike | None" = None,
        where: "ArrayLike | None" = None,
        promote_integers: bool = True,
    ) -> "Array":
        """Product over ``axis`` (all axes by default)."""
        raise _not_installed("prod")

    def mean(
        self,
        axis: "Axis" = None,
        dtype: "dtypes.DTypeLike | None" = None,
        out: None = None,
        keepdims: bool = False,
        where: "ArrayLike | None" = None,
    ) -> "Array":
        """Arithmetic mean over ``axis`` (all axes by default)."""
        raise _not_installed("mean")

    def max(
        self,
        axis: "Axis" = None,
        out: None = None,
        keepdims: bool = False,
        initial: "ArrayLike | None" = None,
        where: "ArrayLike | None" = None,
    ) -> "Array":
        """Maximum over ``axis`` (all axes by default)."""
        raise _not_installed("max")

    def min(
        self,
        axis: "Axis" = None,
        out: None = None,
        keepdims: bool = False,
        initial: "ArrayLike | None" = None,
        where: "ArrayLike | None" = None,
    ) -> "Array":
        """Minimum over ``axis`` (all axes by default)."""
        raise _not_installed("min")

    def all(
        self, axis: "Axis" = None, out: None = None, keepdims: bool = False, *, where: "ArrayLike | None" = None
    ) -> "Array":
        """Whether all elements are true, over ``axis``."""
        raise _not_installed("all")

    def any(
        self, axis: "Axis" = None, out: None = None, keepdims: bool = False, *, where: "ArrayLike | None" = None
    ) -> "Array":
        """Whether any element is true, over ``axis``."""
        raise _not_installed("any")

    def argmax(self, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> "Array":
        """Index of the maximum along ``axis`` (of the flattened array by default)."""
        raise _not_installed("argmax")

    def argmin(self, axis: int | None = None, out: None = None, keepdims: bool | None = None) -> "Array":
        """Index of the minimum along ``axis`` (of the flattened array by default)."""
        raise _not_installed("argmin")

    def squeeze(self, axis: int | Sequence[int] | None = None) -> "Array":
        """Remove axes of size 1 (all of them by default)."""
        raise _not_installed("squeeze")

    def flatten(self) -> "Array":
        """The elements as a 1-d array."""
        raise _not_installed("flatten")

    def ravel(self) -> "Array":
        """The elements as a 1-d array."""
        raise _not_installed("ravel")

    def dot(
        self,
        other: "ArrayLike",
        *,
        precision: "None | str | Enum | tuple[str, str] | tuple[Enum, Enum]" = None,
        preferred_element_type: "dtypes.DTypeLike | None" = None,
    ) -> "Array":
        """Same as ``jaxtyped.numpy.dot(self, other, ...)``. (``precision`` is
        ``lax.PrecisionLike``, whose ``lax.Precision`` this layer cannot name:
        any ``Enum`` passes the checkers, and the run time checks it.)"""
        raise _not_installed("dot")

    # --- array manipulation family ---

    def repeat(self, repeats: "ArrayLike", axis: int | None = None, *, total_repeat_length: int | None = None) -> "Array":
        """Same as ``jaxtyped.numpy.repeat(self, repeats, axis)``."""
        raise _not_installed("repeat")

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> "Array":
        """Same as ``jaxtyped.numpy.diagonal(self, offset, axis1, axis2)``."""
        raise _not_installed("diagonal")

    def trace(
        self, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: "dtypes.DTypeLike | None" = None, out: None = None
    ) -> "Array":
        """Same as ``jaxtyped.numpy.trace(self, ...)``: the sum along a diagonal."""
        raise _not_installed("trace")

    def swapaxes(self, axis1: int, axis2: int) -> "Array":
        """Same as ``jaxtyped.numpy.swapaxes(self, axis1, axis2)``."""
        raise _not_installed("swapaxes")

    def copy(self) -> "Array":
        """A copy (the same values: arrays are immutable)."""
        raise _not_installed("copy")

    @property
    def mT(self) -> "Array":  # noqa: N802 - the array API's name
        """The last two axes swapped (a stack of matrices transposed)."""
        raise _not_installed("mT")

    # --- math and statistics family ---

    def var(
        self,
        axis: "Axis" = None,
        dtype: "dtypes.DTypeLike | None" = None,
        out: None = None,
        ddof: int = 0,
        keepdims: bool = False,
        *,
        where: "ArrayLike | None" = None,
        correction: int | float | None = None,
    ) -> "Array":
        """Same as ``jaxtyped.numpy.var(self, ...)``: the variance over ``axis``."""
        raise _not_installed("var")

    def std(
        self,
        axis: "Axis" = None,
        dtype: "dtypes.DTypeLike | None" = None,
        out: None = None,
        ddof: int = 0,
        keepdims: bool = False,
        *,
        where: "ArrayLike | None" = None,
        correction: int | float | None = None,
    ) -> "Array":
        """Same as ``jaxtyped.numpy.std(self, ...)``: the standard deviation over ``axis``."""
        raise _not_installed("std")

    def ptp(self, axis: "Axis" = None, out: None = None, keepdims: bool = False) -> "Array":
        """Same as ``jaxtyped.numpy.ptp(self, ...)``: maximum minus minimum over ``axis``."""
        raise _not_installed("ptp")

    def round(self, decimals: int = 0, out: None = None) -> "Array":
        """Same as ``jaxtyped.numpy.round(self, decimals)``."""
        raise _not_installed("round")

    def clip(self, min: "ArrayLike | None" = None, max: "ArrayLike | None" = None) -> "Array":  # noqa: A002 - JAX's names
        """Same as ``jaxtyped.numpy.clip(self, min, max)``."""
        raise _not_installed("clip")

    @property
    def itemsize(self) -> int:
        """The size of one element in bytes."""
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        """The size of the elements in bytes."""
        return self.size * self.dtype.itemsize

    # --- sorting family ---

    def sort(
        self, axis: int | None = -1, *, kind: None = None, order: None = None, stable: bool = True, descending: bool = False
    ) -> "Array":
        """Same as ``jaxtyped.numpy.sort(self, ...)``."""
        raise _not_installed("sort")

    def argsort(
        self, axis: int | None = -1, *, kind: None = None, order: None = None, stable: bool = True, descending: bool = False
    ) -> "Array":
        """Same as ``jaxtyped.numpy.argsort(self, ...)``."""
        raise _not_installed("argsort")

    def cumsum(self, axis: int | None = None, dtype: "dtypes.DTypeLike | None" = None, out: None = None) -> "Array":
        """Same as ``jaxtyped.numpy.cumsum(self, ...)``."""
        raise _not_installed("cumsum")

    def cumprod(self, axis: int | None = None, dtype: "dtypes.DTypeLike | None" = None, out: None = None) -> "Array":
        """Same as ``jaxtyped.numpy.cumprod(self, ...)``."""
        raise _not_installed("cumprod")

    def searchsorted(
        self, v: "ArrayLike", side: str = "left", sorter: "ArrayLike | None" = None, *, method: str = "scan"
    ) -> "Array":
        """Same as ``jaxtyped.numpy.searchsorted(self, v, ...)``."""
        raise _not_installed("searchsorted")

    def argpartition(self, kth: int, axis: int = -1) -> "Array":
        """Same as ``jaxtyped.numpy.argpartition(self, kth, axis)``."""
        raise _not_installed("argpartition")

    # --- advanced indexing family ---

    @property
    def at(self) -> "IndexUpdateHelper":
        """Functional index updates: ``x.at[idx].set(v)``, ``.add``,
        ``.subtract``, ``.multiply``, ``.divide``, ``.power``, ``.min``,
        ``.max``, ``.apply``, ``.get`` (JAX's ``Array.at``)."""
        raise _not_installed("at")

    def take(
        self, indices: "ArrayLike", axis: int | None = None, out: None = None, mode: str | None = None,
        unique_indices: bool = False, indices_are_sorted: bool = False, fill_value: "ScalarLike | None" = None,
    ) -> "Array":
        """Same as ``jaxtyped.numpy.take(self, indices, ...)``."""
        raise _not_installed("take")

    def nonzero(
        self, *, size: int | None = None, fill_value: "ArrayLike | tuple[ArrayLike, ...] | None" = None
    ) -> tuple["Array", ...]:
        """Same as ``jaxtyped.numpy.nonzero(self, ...)``."""
        raise _not_installed("nonzero")

    def choose(self, choices: "Array | Sequence[ArrayLike]", out: None = None, mode: str = "raise") -> "Array":
        """Same as ``jaxtyped.numpy.choose(self, choices, ...)``."""
        raise _not_installed("choose")

    def compress(
        self, condition: "ArrayLike", axis: int | None = None, *, size: int | None = None,
        fill_value: "ArrayLike" = 0, out: None = None,
    ) -> "Array":
        """Same as ``jaxtyped.numpy.compress(condition, self, axis, ...)``."""
        raise _not_installed("compress")

    # --- lax extras family: bits, bytes and copies ---

    def view(self, dtype: "dtypes.DTypeLike | None" = None, type: None = None) -> "Array":  # noqa: A002 - NumPy's name
        """The same bits seen as ``dtype`` (JAX's ``Array.view``): a dtype of
        another width changes the last axis's length; bool and complex
        dtypes are allowed."""
        raise _not_installed("view")

    def byteswap(self) -> "Array":
        """The elements with their bytes in reverse order (big- and
        little-endian swapped)."""
        raise _not_installed("byteswap")

    def tobytes(self, order: Literal["C", "F", "A", "K"] = "C") -> bytes:
        """The raw bytes of the concrete value, in ``order`` (NumPy's
        ``tobytes``); raises a concretization error on a traced value."""
        return self._require_concrete("tobytes").tobytes(order=order)

    @property
    def flat(self) -> "Array":
        """Not supported, as in JAX: use ``flatten()``."""
        raise JaxtypedNotImplementedError("JAX Arrays do not implement the arr.flat property: consider arr.flatten() instead.")


# Values accepted where an array is expected (JEP 12049): loosely typed inputs.
# np.generic (not only np.number) so that ml_dtypes scalars (bfloat16) fit.
ArrayLike = Array | np.ndarray[Any, np.dtype[Any]] | np.generic | bool | int | float | complex

# A Python or NumPy scalar: what may stand for a 0-d array.
ScalarLike = bool | int | float | complex | np.generic

# A pytree as users write one: array-like leaves (or None) in nested tuples,
# lists and dicts. Sequence and Mapping (not list and dict) because they are
# covariant, so a ``list[Array]`` or ``dict[str, Array]`` is a PyTree.
# Known hole: mypy also accepts a ``str`` (a Sequence of str); pyright does not.
# At run time (beartype, isinstance) it is a class whose isinstance check
# flattens the value and checks every leaf: beartype cannot resolve the
# recursive alias's forward references from other modules.
if TYPE_CHECKING:
    # An old-style alias: pyright resolves a string-valued recursive
    # TypeAliasType to Unknown in modules that do not import it.
    PyTree: TypeAlias = Union[ArrayLike, None, Sequence["PyTree"], Mapping[Any, "PyTree"]]
else:
    _ARRAY_LIKE_TYPES = (Array, np.ndarray, np.generic, bool, int, float, complex)

    def _is_pytree(instance: object) -> bool:
        return leaves_are_instances(instance, _ARRAY_LIKE_TYPES)

    PyTree = predicate_class(
        "PyTree",
        "Nested tuples, lists, dicts (and registered pytree nodes) whose leaves "
        "are array-like; ``isinstance`` checks every leaf.",
        _is_pytree,
    )

# What jaxtyped accepts as one dimension, and as a shape: anything with
# __index__ (Python and NumPy integers), or a sequence of them.
DimSize = SupportsIndex
ShapeLike = SupportsIndex | Sequence[SupportsIndex]

# An axis argument of a reduction: one axis, several, or all (None).
Axis = int | Sequence[int] | None

# A start or size of a ``ds`` slice: static (a Python or NumPy integer) or an
# integer scalar array (a traced start is what ``ds`` is for).
SliceBound = int | np.integer[Any] | Array


def _is_static_bound(bound: object) -> bool:
    return isinstance(bound, (int, np.integer)) and not isinstance(bound, (bool, np.bool_))


@register_pytree_node_class
@dataclass(slots=True)
class Slice:
    """``size`` entries from ``start`` every ``stride`` (JAX's
    ``jax._src.indexing.Slice``), made by :func:`ds`; ``start`` may be a
    traced integer. A pytree: static bounds are aux data, array ones
    children. Not frozen and compared by value, as JAX's."""

    start: SliceBound
    size: SliceBound
    stride: int = 1

    def __post_init__(self) -> None:
        if self.stride < 0:
            raise JaxtypedValueError(f"ds: `stride` must be >= 0, got {self.stride}")

    @property
    def is_dynamic_start(self) -> bool:
        """Whether the start is an array (not a static integer)."""
        return not _is_static_bound(self.start)

    @property
    def is_dynamic_size(self) -> bool:
        """Whether the size is an array (not a static integer)."""
        return not _is_static_bound(self.size)

    def tree_flatten(self) -> tuple[tuple[SliceBound | None, SliceBound | None], tuple[SliceBound | None, SliceBound | None, int]]:
        """Children: the array bounds (``None`` for static ones); aux: the
        static bounds and the stride (JAX's layout)."""
        start = self.start if self.is_dynamic_start else None
        size = self.size if self.is_dynamic_size else None
        static_start = None if self.is_dynamic_start else self.start
        static_size = None if self.is_dynamic_size else self.size
        return (start, size), (static_start, static_size, self.stride)

    @classmethod
    def tree_unflatten(
        cls, aux_data: tuple[SliceBound | None, SliceBound | None, int], children: tuple[SliceBound | None, SliceBound | None]
    ) -> "Slice":
        """The slice of :meth:`tree_flatten`'s parts."""
        start, size = (child if child is not None else static for child, static in zip(children, aux_data[:2]))
        assert start is not None and size is not None
        return cls(start, size, aux_data[2])


@overload
def ds(start: None, size: SliceBound | None = None, stride: int | None = None) -> slice: ...
@overload
def ds(start: SliceBound, size: SliceBound | None = None, stride: int | None = None) -> Slice: ...
def ds(start: SliceBound | None, size: SliceBound | None = None, stride: int | None = None) -> slice | Slice:
    """A slice whose start may be traced (JAX's ``jax.ds``, ``dslice``):
    ``ds(None)`` is ``:``, ``ds(j)`` is ``:j``, ``ds(i, n)`` is
    ``i:i+n`` and ``ds(i, n, s)`` is ``i:i+n*s:s``. The size and stride are
    static. Indexing an array, an out-of-range start is clamped as
    ``lax.dynamic_slice`` clamps it; indexing a ``Ref``, see the refs page.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> x = jnp.arange(10)
        >>> jt.jit(lambda x, i: x[jt.ds(i, 2)])(x, 4)
        Array([4, 5], dtype=int32)
    """
    if start is None:
        return slice(None)
    if stride is None:
        stride = 1
    if not isinstance(cast(object, stride), int) or isinstance(stride, bool):
        raise JaxtypedValueError(f"ds: the stride must be a static Python int, got {stride!r} (non-static stride in `dslice`)")
    if size is None:
        start, size = 0, start
    return Slice(start, size, stride)


def ds_size(size: object, where: str) -> int:
    """A ``ds`` size as a static int (a concrete integer scalar array is
    read); a traced size is a ``ConcretizationTypeError`` (a ``TypeError``,
    as JAX's: shapes must be static)."""
    if isinstance(size, (int, np.integer)) and not isinstance(size, (bool, np.bool_)):
        return int(cast(SupportsIndex, size))
    if isinstance(size, Array) and size.ndim == 0 and dtypes.is_integer(size.dtype) and not dtypes.is_bool(size.dtype):
        try:
            return int(size)
        except (ConcretizationTypeError, TracerIntegerConversionError):
            raise ConcretizationTypeError(
                f"{where}: the size must be static, got a traced {size.aval.str_short()} (shapes must be "
                "concrete; pass the size as a static argument)"
            ) from None
    raise JaxtypedTypeError(f"{where}: the size must be a static integer, got {size!r}")


# What basic indexing accepts: ints, slices, ``ds`` slices, None, Ellipsis,
# integer arrays (scalar ones), or a tuple of those.
IndexItem = int | slice | Slice | None | EllipsisType | Array | np.integer[Any]
# Advanced indexing family: NumPy index arrays and boolean masks, and lists
# of integers inside a tuple (a bare list is rejected at run time, as in JAX).
AdvancedIndexItem = IndexItem | np.ndarray[Any, np.dtype[Any]] | np.bool_ | Sequence[int] | Sequence[Sequence[int]]
Index = AdvancedIndexItem | tuple[AdvancedIndexItem, ...]


def require_concrete(x: Array, conversion: Conversion) -> np.ndarray[Any, np.dtype[Any]]:
    """The concrete NumPy value of ``x``, or the concretization error that
    explains why a traced value has none (for interpreters' use)."""
    return x._require_concrete(conversion)


_LATE_BOUND_NAMES: frozenset[str] = frozenset(
    {f"__{op}__" for op in (
        "getitem neg pos abs invert lt le gt ge eq ne divmod rdivmod".split()
    )}
    | {f"__{prefix}{op}__" for prefix in ("", "r") for op in (
        "add sub mul truediv floordiv mod pow matmul and or xor lshift rshift".split()
    )}
    | set(
        "T real imag reshape transpose astype sum prod mean max min all any argmax argmin squeeze "
        "flatten ravel dot conj conjugate".split()
    )
    # sorting family
    | set("sort argsort cumsum cumprod searchsorted argpartition".split())
    | {"at", "take", "nonzero", "choose", "compress"}  # advanced indexing family
    | set("repeat diagonal trace swapaxes copy mT".split())  # array manipulation family
    | set("var std ptp round clip".split())  # math and statistics family
    | {"view", "byteswap"}  # lax extras family
    | {"__iadd__"}  # refs family (issue 16): ref[idx] += v is an addupdate
    | {"__round__"}  # round(x), round(x, n): jnp.round (issue 20, second corpus round)
)


_PROPERTIES = frozenset({"T", "real", "imag", "at", "mT"})  # mT: array manipulation family


def late_bound_array_methods() -> frozenset[str]:
    """The names :func:`install_array_methods` must supply (each is declared,
    with its signature, in the body of :class:`Array`)."""
    return _LATE_BOUND_NAMES


def install_array_methods(implementations: Mapping[str, Callable[..., object]]) -> None:
    """Install the numpy layer's implementations of Array's operators and
    methods (called once by ``jaxtyped.numpy`` at import).

    Raises:
        ValueError: a name is missing or is not one of Array's declared
            late-bound methods.
    """
    expected = _LATE_BOUND_NAMES
    given = frozenset(implementations)
    if given != expected:
        raise ValueError(
            "install_array_methods: missing "
            f"{sorted(expected - given)}, unexpected {sorted(given - expected)}"
        )
    for name, implementation in implementations.items():
        attribute: object = property(implementation) if name in _PROPERTIES else implementation
        setattr(Array, name, attribute)


# --- advanced indexing family: the typed pair behind ``x.at[idx].op(...)`` ---

# What ``mode`` accepts: 'promise_in_bounds', 'clip', 'drop', 'fill', a
# ``lax.GatherScatterMode`` (an Enum; that class lives in a higher layer), None.
IndexMode = str | Enum | None


@runtime_checkable  # beartype checks the helper's constructor argument in debug mode
class IndexUpdate(Protocol):
    """The numpy layer's implementation of every ``x.at[idx]`` operation."""

    def __call__(
        self,
        op: Literal["get", "set", "add", "subtract", "multiply", "divide", "power", "min", "max", "apply"],
        array: Array,
        index: object,
        values: ArrayLike | None = None,
        func: Callable[[Array], Array] | None = None,
        *,
        indices_are_sorted: bool = False,
        unique_indices: bool = False,
        mode: IndexMode = None,
        fill_value: ScalarLike | None = None,
    ) -> Array: ...


class IndexUpdateHelper:
    """``x.at``: index it (``x.at[idx]``) to get an :class:`IndexUpdateRef`."""

    __slots__ = ("_array", "_update")

    def __init__(self, array: Array, update: IndexUpdate) -> None:
        self._array = array
        self._update = update

    def __getitem__(self, index: Index) -> "IndexUpdateRef":
        return IndexUpdateRef(self._array, index, self._update)

    def __repr__(self) -> str:
        return f"_IndexUpdateHelper({self._array!r})"


class IndexUpdateRef:
    """``x.at[idx]``: each method returns a new array, ``x`` with the
    indexed elements updated (out-of-bounds updates are dropped by default;
    ``get`` clamps by default, ``mode='fill'`` fills with ``fill_value``)."""

    __slots__ = ("_array", "_index", "_update")

    def __init__(self, array: Array, index: Index, update: IndexUpdate) -> None:
        self._array = array
        self._index = index
        self._update = update

    def __repr__(self) -> str:
        return f"_IndexUpdateRef({self._array!r}, {self._index!r})"

    def get(
        self, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: IndexMode = None,
        fill_value: ScalarLike | None = None,
    ) -> Array:
        """``x[idx]``, with ``mode`` and ``fill_value`` for out-of-bounds indices."""
        return self._update(
            "get", self._array, self._index, indices_are_sorted=indices_are_sorted,
            unique_indices=unique_indices, mode=mode, fill_value=fill_value,
        )

    def _op(self, op: Literal["set", "add", "subtract", "multiply", "divide", "power", "min", "max"],
            values: ArrayLike, indices_are_sorted: bool, unique_indices: bool, mode: IndexMode) -> Array:
        return self._update(
            op, self._array, self._index, values, indices_are_sorted=indices_are_sorted,
            unique_indices=unique_indices, mode=mode,
        )

    def set(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False,
            mode: IndexMode = None) -> Array:
        """``x[idx] = values``, functionally (repeated indices: one of them wins)."""
        return self._op("set", values, indices_are_sorted, unique_indices, mode)

    def add(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False,
            mode: IndexMode = None) -> Array:
        """``x[idx] += values``, functionally (repeated indices accumulate)."""
        return self._op("add", values, indices_are_sorted, unique_indices, mode)

    def subtract(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False,
                 mode: IndexMode = None) -> Array:
        """``x[idx] -= values``, functionally (repeated indices accumulate)."""
        return self._op("subtract", values, indices_are_sorted, unique_indices, mode)

    def multiply(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False,
                 mode: IndexMode = None) -> Array:
        """``x[idx] *= values``, functionally (repeated indices accumulate)."""
        return self._op("multiply", values, indices_are_sorted, unique_indices, mode)

    mul = multiply

    def divide(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False,
               mode: IndexMode = None) -> Array:
        """``x[idx] /= values``, functionally."""
        return self._op("divide", values, indices_are_sorted, unique_indices, mode)

    def power(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False,
              mode: IndexMode = None) -> Array:
        """``x[idx] **= values``, functionally."""
        return self._op("power", values, indices_are_sorted, unique_indices, mode)

    def min(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False,
            mode: IndexMode = None) -> Array:
        """``x[idx] = minimum(x[idx], values)``, functionally."""
        return self._op("min", values, indices_are_sorted, unique_indices, mode)

    def max(self, values: ArrayLike, *, indices_are_sorted: bool = False, unique_indices: bool = False,
            mode: IndexMode = None) -> Array:
        """``x[idx] = maximum(x[idx], values)``, functionally."""
        return self._op("max", values, indices_are_sorted, unique_indices, mode)

    def apply(self, func: Callable[[Array], Array], *, indices_are_sorted: bool = False,
              unique_indices: bool = False, mode: IndexMode = None) -> Array:
        """``x[idx] = func(x[idx])``, functionally (``func`` elementwise)."""
        return self._update(
            "apply", self._array, self._index, None, func, indices_are_sorted=indices_are_sorted,
            unique_indices=unique_indices, mode=mode,
        )
