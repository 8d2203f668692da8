"""Typed PRNG key arrays and the key API of ``jaxtyped.random`` (layer L5).

Note [key arrays are pytree nodes]: a typed key array (:class:`KeyArray`,
dtype ``key<fry>``) is an ``Array`` subclass that wraps a ``uint32[*shape,
2]`` data array (concrete or a tracer) and is registered as a pytree node
whose only child is that data. Every transformation therefore sees plain
``uint32`` arrays: jit, vmap, scan, cond, while_loop and tree_map carry
keys without knowing about them. Axis arguments of vmap count over the key
shape for non-negative axes; a negative axis would count from the data's
trailing word axis (JAX counts from the key shape's end), so a key array
rebuilt without that axis of 2 raises a clear error (an axis of 2 keys at
that place is not caught). ``tree_leaves`` of a key array is its data
(JAX's key arrays are leaves).

Numbers come from ``threefry2x32`` exactly as JAX 0.10 computes them (see
``jaxlib-0.10-facts.md`` section 14); the internals are jitted with static
shapes, as JAX's are, so eager, jit and JAX agree bit for bit.
"""

import builtins
import functools
import math
import operator
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, NoReturn, Protocol, TypeAlias, cast, final, overload, runtime_checkable

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.api_jit import jit
from jaxtyped._src.config import config
from jaxtyped._src.core.array import Array, ArrayLike, Conversion, Index, ShapeLike, late_bound_array_methods
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedOverflowError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.comparison import bitwise_or, bitwise_xor, eq, shift_left, shift_right_logical
from jaxtyped._src.lax.elementwise_base import convert_element_type
from jaxtyped._src.lax.reductions import reduce_and
from jaxtyped._src.lax.structural import broadcast_in_dim, broadcasted_iota, concatenate, reshape
from jaxtyped._src.lax.threefry import threefry2x32, threefry_2x32
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.index_functions import take
from jaxtyped._src.tree_util import register_pytree_node

__all__ = [
    "KeyArray",
    "KeyArrayLike",
    "KeyDType",
    "CustomPRNGImpl",
    "ImplSpec",
    "PRNGKey",
    "bits",
    "canonical_shape",
    "check_single_key",
    "clone",
    "fold_in",
    "key",
    "key_data",
    "key_impl",
    "key_dtype",
    "random_bits",
    "split",
    "wrap_key_data",
]

_UINT32: Final = np.dtype(np.uint32)
_IMPL_NAME: Final = "threefry2x32"
# The implementations JAX knows but jaxtyped does not provide.
_UNSUPPORTED_IMPLS: Final = ("philox2x32", "philox4x32", "rbg", "unsafe_rbg", "threefry4x32")


@runtime_checkable
class CustomPRNGImpl(Protocol):
    """What a PRNG implementation defined with
    ``jaxtyped.extend.random.define_prng_impl`` provides (extend family,
    issue 18): key data is ``uint32[*shape, *key_shape]`` with ``key_shape``
    of one axis; the functions work on the data of one key."""

    @property
    def name(self) -> str:
        """The implementation's name (``key_impl`` reports it)."""
        ...

    @property
    def tag(self) -> str:
        """The short name in the key dtype (``key<tag>``)."""
        ...

    @property
    def key_shape(self) -> tuple[int, ...]:
        """The shape of one key's data."""
        ...

    def seed(self, seed: Array, /) -> Array:
        """One key's data from an integer seed."""
        ...

    def split(self, key: Array, shape: tuple[int, ...], /) -> Array:
        """The data of ``shape`` new keys from one key's data."""
        ...

    def random_bits(self, key: Array, bit_width: int, shape: tuple[int, ...], /) -> Array:
        """Unsigned integers of ``bit_width`` bits and ``shape``."""
        ...

    def fold_in(self, key: Array, data: Array, /) -> Array:
        """One key's data from a key's data and a uint32 word."""
        ...


@final
class KeyDType:
    """The dtype of typed key arrays: ``key<fry>`` (JAX's
    ``jax.dtypes.prng_key`` family), or ``key<tag>`` for a custom
    implementation. Not a NumPy dtype: keys hold no numbers."""

    __slots__ = ("_custom",)
    kind: Final = "V"

    _custom: CustomPRNGImpl | None

    def __init__(self, custom: CustomPRNGImpl | None = None) -> None:
        self._custom = custom

    @property
    def name(self) -> str:
        """``key<fry>`` (``key<tag>`` for a custom implementation)."""
        return "key<fry>" if self._custom is None else f"key<{self._custom.tag}>"

    @property
    def itemsize(self) -> int:
        """Bytes per key: two uint32 words for threefry, as in JAX."""
        return 8 if self._custom is None else 4 * math.prod(self._custom.key_shape)

    @property
    def type(self) -> builtins.type[dtypes.prng_key]:
        """``prng_key``: places key dtypes in ``issubdtype``'s hierarchy
        (``issubdtype(k.dtype, prng_key)``), as JAX's."""
        return dtypes.prng_key

    @property
    def impl(self) -> str:
        """The PRNG implementation's name."""
        return _IMPL_NAME if self._custom is None else self._custom.name

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name

    def __eq__(self, other: object) -> bool:
        if isinstance(other, KeyDType):
            return other._custom is self._custom
        return other == self.name

    def __hash__(self) -> int:
        return hash(self.name)


KEY_DTYPE: Final = KeyDType()


def _key_type_error(operation: str) -> JaxtypedTypeError:
    return JaxtypedTypeError(
        f"{operation} does not accept dtype {KEY_DTYPE.name}: typed PRNG keys hold no numbers; "
        "use jaxtyped.random.key_data(key) to get the underlying uint32 array"
    )


class KeyArray(Array):
    """An array of typed PRNG keys (dtype ``key<fry>``), as made by
    :func:`key`, :func:`split`, :func:`wrap_key_data`.

    ``shape``, ``ndim``, ``size`` and ``len`` are the key shape's; indexing,
    ``reshape``, ``T``, iteration and equality work; arithmetic is rejected.
    It is a pytree node (its child is the ``uint32[*shape, 2]`` data), so
    keys pass through ``jit``, ``vmap``, ``scan`` and ``tree_map``.

    Example:
        >>> import jaxtyped as jt
        >>> k = jt.random.key(0)
        >>> k.shape, k.dtype
        ((), key<fry>)
    """

    __slots__ = ("_data", "_impl")
    _data: Array
    # None: threefry2x32; else a custom implementation (extend family).
    _impl: CustomPRNGImpl | None

    def __init__(self, data: Array, impl: CustomPRNGImpl | None = None) -> None:
        if data.dtype != _UINT32 or data.ndim < 1 or data.shape[-1] != _words(impl):
            raise _invalid_key_data(data, impl)
        self._data = data
        self._impl = impl

    @classmethod
    def _unchecked(cls, data: Any, impl: CustomPRNGImpl | None = None) -> "KeyArray":  # noqa: ANN401 - pytree children may be any leaf
        """Wrap ``data`` without checks (pytree unflattening passes
        placeholders such as axis specs or None)."""
        if isinstance(data, Array) and not isinstance(data, KeyArray) and (data.ndim == 0 or data.shape[-1] != _words(impl)):
            raise JaxtypedValueError(
                f"a key array's data must end with its axis of {_words(impl)} words, got shape {data.shape}; under vmap, a "
                "negative in_axes/out_axes for key arrays counts from that word axis: use a non-negative axis"
            )
        out = cls.__new__(cls)
        out._data = data
        out._impl = impl
        return out

    def _like(self, data: Array) -> "KeyArray":
        """Keys of this array's implementation over ``data``."""
        return KeyArray(data, self._impl)

    # --- what the Array ABC asks for ------------------------------------------

    @property
    @override
    def aval(self) -> ShapedArray:
        """Keys have no numeric abstract value; this always raises."""
        raise _key_type_error("this operation")

    @override
    def _require_concrete(self, conversion: Conversion) -> np.ndarray[Any, np.dtype[Any]]:
        raise JaxtypedTypeError(
            f"a key array cannot be converted to a Python value ({conversion}); "
            "use jaxtyped.random.key_data(key)"
        )

    # --- metadata: the key shape --------------------------------------------------

    @property
    @override
    def shape(self) -> tuple[int, ...]:
        """The key shape (the data's shape without its trailing 2)."""
        return tuple(self._data.shape[:-1])

    @property
    @override
    def dtype(self) -> KeyDType:  # type: ignore[override]  # pyright: ignore[reportIncompatibleMethodOverride]  # an extended dtype, as JAX's key<fry>
        """``key<fry>``."""
        return KEY_DTYPE if self._impl is None else KeyDType(self._impl)

    @property
    @override
    def ndim(self) -> int:
        """Number of key dimensions."""
        return self._data.ndim - 1

    @property
    @override
    def size(self) -> int:
        """Number of keys."""
        return math.prod(self.shape)

    @property
    @override
    def weak_type(self) -> bool:
        """Keys are never weakly typed."""
        return False

    @property
    @override
    def itemsize(self) -> int:
        """8 bytes per key (two uint32 words)."""
        return self.dtype.itemsize

    @property
    @override
    def nbytes(self) -> int:
        """Bytes of key data."""
        return self.size * self.dtype.itemsize

    # --- printing -----------------------------------------------------------------

    def __repr__(self) -> str:
        data = cast(object, self._data)  # pytree unflattening may leave a placeholder (tree_map results, axis specs)
        if not isinstance(data, Array):
            return f"KeyArray({data!r})"
        if isinstance(self._data, ArrayImpl):
            return f"Array({self.shape}, dtype={self.dtype.name}) overlaying:\n{np.asarray(self._data)}"
        return f"KeyArray({self.shape}, dtype={self.dtype.name}) overlaying:\n{self._data!r}"

    def __str__(self) -> str:
        return repr(self)

    def __format__(self, format_spec: str) -> str:
        return repr(self)

    # --- conversions JAX refuses ------------------------------------------------------

    def __array__(self, dtype: object = None, copy: object = None) -> NoReturn:
        """NumPy conversion is refused, as in JAX."""
        raise JaxtypedTypeError(
            "JAX array with PRNGKey dtype cannot be converted to a NumPy array. Use "
            "jaxtyped.random.key_data(arr) if you wish to extract the underlying integer array."
        )

    @override
    def __bool__(self) -> bool:
        raise JaxtypedTypeError("key array cannot be converted to boolean.")

    @override
    def __int__(self) -> int:
        raise _key_type_error("int()")

    @override
    def __float__(self) -> float:
        raise _key_type_error("float()")

    @override
    def __complex__(self) -> complex:
        raise _key_type_error("complex()")

    @override
    def __index__(self) -> int:
        raise _key_type_error("__index__")

    # Compared elementwise, so unhashable, as JAX's key arrays.
    __hash__ = None

    # --- shape operations (act on the key shape) -------------------------------

    @override
    def __len__(self) -> int:
        if not self.shape:
            raise JaxtypedTypeError("len() of unsized object")
        return self.shape[0]

    @override
    def __iter__(self) -> Iterator["KeyArray"]:
        if not self.shape:
            raise JaxtypedTypeError("iteration over a 0-d key array")
        return (self[i] for i in range(self.shape[0]))

    @override
    def __getitem__(self, index: Index) -> "KeyArray":
        items = index if isinstance(index, tuple) else (index,)
        if any(item is Ellipsis for item in items):
            return self._like(self._data[(*items, slice(None))])
        return self._like(self._data[(*items, Ellipsis, slice(None))])

    @override
    def __eq__(self, other: object) -> Array:  # type: ignore[override]  # elementwise over keys, as in JAX
        if not isinstance(other, KeyArray):
            raise _key_type_error("eq")
        return reduce_and(eq(self._data, other._data), (self._data.ndim - 1,))

    @override
    def __ne__(self, other: object) -> Array:  # type: ignore[override]  # elementwise over keys, as in JAX
        if not isinstance(other, KeyArray):
            raise _key_type_error("ne")
        return ~(self == other)

    @property
    @override
    def T(self) -> "KeyArray":  # noqa: N802 - NumPy's name
        """The transposed key array."""
        return self.transpose()

    @property
    @override
    def mT(self) -> "KeyArray":  # noqa: N802 - the array API's name
        """The key array with its last two key axes swapped."""
        return self.swapaxes(-2, -1)

    @overload
    def reshape(self, shape: Sequence[int], /, *, order: str = "C") -> "KeyArray": ...
    @overload
    def reshape(self, *shape: int, order: str = "C") -> "KeyArray": ...
    @override
    def reshape(self, *shape: int | Sequence[int], order: str = "C") -> "KeyArray":
        """The keys in a new key shape (``-1`` infers one dimension)."""
        dims: Sequence[int | Sequence[int]] = shape
        if len(shape) == 1 and not isinstance(shape[0], int):
            dims = shape[0]
        flat = [operator.index(d) for d in dims]  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # checked at run time
        return self._like(self._data.reshape((*flat, _words(self._impl)), order=order))

    @overload
    def transpose(self, axes: Sequence[int] | None, /) -> "KeyArray": ...
    @overload
    def transpose(self, *axes: int) -> "KeyArray": ...
    @override
    def transpose(self, *axes: int | Sequence[int] | None) -> "KeyArray":
        """The key axes permuted (reversed by default)."""
        order: Sequence[int]
        if not axes or (len(axes) == 1 and axes[0] is None):
            order = tuple(reversed(range(self.ndim)))
        elif len(axes) == 1 and not isinstance(axes[0], int):
            order = tuple(axes[0])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # a sequence here
        else:
            order = tuple(operator.index(a) for a in axes)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # ints here
        normalized = [a % self.ndim if self.ndim else a for a in order]
        return self._like(self._data.transpose((*normalized, self.ndim)))

    @override
    def swapaxes(self, axis1: int, axis2: int) -> "KeyArray":
        """Two key axes exchanged."""
        order = list(range(self.ndim))
        a, b = axis1 % self.ndim, axis2 % self.ndim
        order[a], order[b] = order[b], order[a]
        return self.transpose(order)

    @override
    def squeeze(self, axis: int | Sequence[int] | None = None) -> "KeyArray":
        """Key axes of length 1 removed."""
        if axis is None:
            return self.reshape([d for d in self.shape if d != 1])
        axes = (axis,) if isinstance(axis, int) else tuple(axis)
        normalized = {a % self.ndim for a in axes}
        return self._like(self._data.squeeze(tuple(sorted(normalized))))

    @override
    def flatten(self) -> "KeyArray":
        """The keys as a 1-d key array."""
        return self.reshape(self.size)

    @override
    def ravel(self) -> "KeyArray":
        """The keys as a 1-d key array."""
        return self.reshape(self.size)

    @override
    def copy(self) -> "KeyArray":
        """A copy of the keys."""
        return self._like(self._data.copy())

    @property
    @override
    def at(self) -> "KeyIndexUpdateHelper":  # type: ignore[override]  # pyright: ignore[reportIncompatibleMethodOverride]  # keys take keys: get and set only
        """``keys.at[index].set(other_keys)`` and ``.get()``, as for arrays."""
        return KeyIndexUpdateHelper(self)

    @classmethod
    def map_key_layout(cls, fn: Callable[..., Array], operands: Sequence[object]) -> "KeyArray":
        """``fn`` (a jaxtyped.numpy function that only moves elements) applied
        to key arrays: it runs on the keys' integer positions, and the keys
        are gathered from where the positions went (see
        ``jaxtyped._src.numpy.key_layout``)."""
        positions: list[Array] = []
        rows: list[Array] = []
        start = 0
        for operand in operands:
            if not isinstance(operand, KeyArray):
                raise JaxtypedTypeError(
                    f"cannot combine key arrays ({KEY_DTYPE.name}) with arrays of numbers in one operation"
                )
            if operand._impl is not operands_impl(operands):
                raise JaxtypedTypeError("cannot combine key arrays of different PRNG implementations in one operation")
            size = operand.size
            positions.append(asarray(np.arange(start, start + size, dtype=np.int32).reshape(operand.shape)))
            rows.append(reshape(operand._data, (size, _words(operand._impl))))
            start += size
        where = fn(*positions)
        table = rows[0] if len(rows) == 1 else concatenate(rows, 0)
        picked = take(table, reshape(where, (where.size,)), axis=0)
        impl = operands_impl(operands)
        return KeyArray(reshape(picked, (*where.shape, _words(impl))), impl)

    def block_until_ready(self) -> "KeyArray":
        """Wait until the key data is computed."""
        if isinstance(self._data, ArrayImpl):
            self._data.block_until_ready()
        return self


@final
class KeyIndexUpdateHelper:
    """``keys.at``: index it to get a :class:`KeyIndexUpdateRef`."""

    __slots__ = ("_keys",)

    def __init__(self, keys: KeyArray) -> None:
        self._keys = keys

    def __getitem__(self, index: Index) -> "KeyIndexUpdateRef":
        return KeyIndexUpdateRef(self._keys, index)


@final
class KeyIndexUpdateRef:
    """``keys.at[index]``: ``set`` other keys there, or ``get`` them."""

    __slots__ = ("_keys", "_index")

    def __init__(self, keys: KeyArray, index: Index) -> None:
        self._keys = keys
        self._index = index

    def get(self, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None) -> KeyArray:
        """The keys at the index (as ``keys[index]``, with ``mode``)."""
        index = self._index

        def get(positions: Array) -> Array:
            return positions.at[index].get(indices_are_sorted=indices_are_sorted, unique_indices=unique_indices, mode=mode)

        return KeyArray.map_key_layout(get, (self._keys,))

    def set(
        self, values: KeyArray, *, indices_are_sorted: bool = False, unique_indices: bool = False, mode: str | None = None
    ) -> KeyArray:
        """A copy of the keys with ``values`` (typed keys) written at the index."""
        index = self._index

        def put(positions: Array, new: Array) -> Array:
            return positions.at[index].set(new, indices_are_sorted=indices_are_sorted, unique_indices=unique_indices, mode=mode)

        return KeyArray.map_key_layout(put, (self._keys, values))


def _reject(name: str) -> Callable[..., NoReturn]:
    operation = name.strip("_").removeprefix("r") if name.startswith("__r") else name.strip("_")
    operation = "add" if name == "__iadd__" else operation  # key += x is an add (refs family)

    def rejected(self: KeyArray, *args: object, **kwargs: object) -> NoReturn:
        raise _key_type_error(operation)

    rejected.__name__ = name
    rejected.__doc__ = f"Rejected: keys hold no numbers ({operation})."
    return rejected


# Everything numeric that Array declares is refused on keys, by name.
_KEY_SUPPORTED: Final = frozenset(
    {"__getitem__", "__eq__", "__ne__", "T", "mT", "reshape", "transpose", "swapaxes", "squeeze",
     "flatten", "ravel", "copy", "at"}
)
for _name in sorted(late_bound_array_methods() - _KEY_SUPPORTED):
    if _name in ("real", "imag"):
        setattr(KeyArray, _name, property(_reject(_name)))
    else:
        setattr(KeyArray, _name, _reject(_name))


register_pytree_node(
    KeyArray,
    lambda k: ((k._data,), k._impl),  # pyright: ignore[reportPrivateUsage]  # the node's own child; its implementation as aux data
    lambda aux, children: KeyArray._unchecked(next(iter(children)), aux),  # pyright: ignore[reportPrivateUsage]
)

# A typed key, or a legacy ``uint32[..., 2]`` key (any array-like).
KeyArrayLike: TypeAlias = ArrayLike


def _words(impl: CustomPRNGImpl | None) -> int:
    """The length of one key's data."""
    return 2 if impl is None else impl.key_shape[-1]


def operands_impl(operands: Sequence[object]) -> CustomPRNGImpl | None:
    """The implementation of the first key array among ``operands``."""
    for operand in operands:
        if isinstance(operand, KeyArray):
            return operand._impl  # pyright: ignore[reportPrivateUsage]  # same module
    return None


def _invalid_key_data(data: Array, impl: CustomPRNGImpl | None = None) -> JaxtypedTypeError:
    if data.dtype != _UINT32:
        return JaxtypedTypeError(
            f"invalid PRNG key data: expected key_data.dtype = uint32; got dtype={data.dtype}"
        )
    if data.ndim < 1:
        return JaxtypedTypeError(f"invalid PRNG key data: expected key_data.ndim >= 1; got ndim={data.ndim}")
    name = _IMPL_NAME if impl is None else impl.name
    return JaxtypedTypeError(
        f"invalid PRNG key data: expected key_data.shape to end with ({_words(impl)},); got shape={data.shape} "
        f"for impl={name}"
    )


# An implementation argument: a name, or a custom implementation.
ImplSpec: TypeAlias = str | CustomPRNGImpl | None


def _check_impl(impl: ImplSpec, fun_name: str) -> CustomPRNGImpl | None:
    """The custom implementation ``impl`` names (None: threefry)."""
    if impl is None or impl == _IMPL_NAME:
        return None
    if not isinstance(impl, str):
        return impl
    if impl in _UNSUPPORTED_IMPLS:
        raise JaxtypedNotImplementedError(
            f"random.{fun_name}: PRNG implementation {impl!r} is not provided by jaxtyped; "
            f"only {_IMPL_NAME!r} is"
        )
    known = ", ".join(f'"{name}"' for name in (_IMPL_NAME, *_UNSUPPORTED_IMPLS))
    raise JaxtypedValueError(f'unrecognized PRNG implementation "{impl}". Did you mean one of: {known}?')


def _impl_or_dtype(impl: ImplSpec, dtype: "KeyDType | str | None", fun_name: str) -> CustomPRNGImpl | None:
    """The implementation ``impl`` or a key ``dtype`` names (JAX's newer
    spelling: ``key(0, dtype=k.dtype)``); naming both is JAX's error."""
    if dtype is None:
        return _check_impl(impl, fun_name)
    if impl is not None:
        raise JaxtypedValueError(f"Cannot specify both `impl` and `dtype` arguments to random.{fun_name}")
    if isinstance(dtype, KeyDType):
        return dtype._custom  # pyright: ignore[reportPrivateUsage]  # the implementation behind the dtype
    if isinstance(dtype, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        return _check_impl(dtype, fun_name)
    raise JaxtypedTypeError(f"random.{fun_name}: unrecognized type {type(dtype).__name__} for specifying PRNG implementation")


def _as_key(fun_name: str, key: KeyArrayLike) -> KeyArray:
    """A typed key array from a typed key or a legacy ``uint32[..., 2]`` key."""
    if isinstance(key, KeyArray):
        return key
    data = asarray(key)
    if data.dtype != _UINT32 or data.ndim < 1 or data.shape[-1] != 2:
        error = _invalid_key_data(data)
        raise JaxtypedTypeError(f"random.{fun_name}: {error}")
    return KeyArray(data)


def check_single_key(fun_name: str, key: KeyArrayLike) -> KeyArray:
    """The typed key of shape ``()`` that ``key`` stands for (legacy
    ``uint32[2]`` keys are wrapped); clear errors for non-keys and for
    arrays of keys (JAX's ``_check_prng_key`` and scalar-key check)."""
    typed = _as_key(fun_name, key)
    if typed.shape:
        # As JAX, a legacy key is described by its raw shape (with the word axis).
        shown = typed.shape if isinstance(key, KeyArray) else typed._data.shape  # pyright: ignore[reportPrivateUsage]  # same module
        raise JaxtypedValueError(
            f"{fun_name} accepts a single key, but was given a key array of shape {shown} != (). "
            "Use jaxtyped.vmap for batching."
        )
    return typed


def _return_like(original: KeyArrayLike, typed: KeyArray) -> Array:
    """A typed result for a typed input, the raw data for a legacy key."""
    return typed if isinstance(original, KeyArray) else typed._data  # pyright: ignore[reportPrivateUsage]


def canonical_shape(fun_name: str, shape: ShapeLike) -> tuple[int, ...]:
    """``shape`` as a tuple of non-negative ints (an int is a 1-d shape)."""
    try:
        dims = (operator.index(shape),) if not isinstance(shape, Sequence) else tuple(operator.index(d) for d in shape)
    except TypeError:
        raise JaxtypedTypeError(
            f"{fun_name}: shape must be an int or a sequence of ints, got {shape!r}"
        ) from None
    if any(d < 0 for d in dims):
        raise JaxtypedValueError(f"{fun_name}: shape {dims} has a negative dimension")
    return dims


# --- seeds -----------------------------------------------------------------------


def _seed_array(fun_name: str, seed: ArrayLike) -> Array:
    if isinstance(seed, KeyArray):
        raise JaxtypedTypeError(f"{fun_name} accepts a scalar seed, but was given a PRNG key.")
    if isinstance(seed, int) and not isinstance(seed, bool):
        if not -(2**63) <= seed < 2**63:
            raise JaxtypedOverflowError(f"{fun_name}: seed {seed} does not fit in a 64-bit integer")
        # A 64-bit seed; with x64 off it is first narrowed to int32, as JAX does.
        return asarray(np.int64(seed)) if config.jax_enable_x64 else asarray(np.int64(seed).astype(np.int32))
    array = asarray(seed)
    if not (dtypes.is_integer(array.dtype) or dtypes.is_bool(array.dtype)):
        raise JaxtypedTypeError(f"PRNG key seed must be an integer; got {array.dtype.name}")
    if array.shape:
        raise JaxtypedTypeError(
            f"{fun_name} accepts a scalar seed, but was given an array of shape {array.shape} != (). "
            "Use jaxtyped.vmap for batching"
        )
    return array


def _seed_data(seed: Array) -> Array:
    low = reshape(convert_element_type(seed, _UINT32), (1,))
    if seed.dtype.itemsize == 8:
        high = reshape(convert_element_type(shift_right_logical(seed, np.array(32, seed.dtype)), _UINT32), (1,))
    else:
        high = reshape(convert_element_type(np.uint32(0), _UINT32), (1,))
    return concatenate((high, low), 0)


_seed_data_jit: Final = jit(_seed_data)


def key(seed: ArrayLike, *, impl: ImplSpec = None, dtype: "KeyDType | str | None" = None) -> KeyArray:
    """A typed PRNG key (dtype ``key<fry>``, shape ``()``) from an integer
    seed (JAX's ``jax.random.key``). 64-bit seeds use both words; with
    ``jax_enable_x64`` off the seed is first narrowed to int32, as in JAX.

    Example:
        >>> import jaxtyped as jt
        >>> jt.random.key_data(jt.random.key(42))
        Array([ 0, 42], dtype=uint32)

    ``impl`` or ``dtype`` (a key dtype, or its implementation's name)
    choose the PRNG implementation.
    """
    custom = _impl_or_dtype(impl, dtype, "key")
    if custom is not None:
        return KeyArray(custom.seed(_seed_array("key", seed)), custom)
    return KeyArray(_seed_data_jit(_seed_array("key", seed)))


def PRNGKey(seed: ArrayLike, *, impl: str | None = None) -> Array:  # noqa: N802 - JAX's name
    """A legacy PRNG key: the ``uint32[2]`` data of ``key(seed)`` (JAX's
    ``jax.random.PRNGKey``)."""
    _check_impl(impl, "PRNGKey")
    return _seed_data_jit(_seed_array("PRNGKey", seed))


# --- key data ----------------------------------------------------------------------


def key_data(keys: KeyArrayLike) -> Array:
    """The ``uint32[*shape, 2]`` data of a typed key array (a legacy key is
    returned as it is)."""
    return _as_key("key_data", keys)._data  # pyright: ignore[reportPrivateUsage]


def wrap_key_data(key_bits_array: ArrayLike, *, impl: ImplSpec = None, dtype: "KeyDType | str | None" = None) -> KeyArray:
    """A typed key array over ``uint32[*shape, 2]`` data (JAX's
    ``jax.random.wrap_key_data``; ``impl`` or ``dtype`` as for ``key``)."""
    custom = _impl_or_dtype(impl, dtype, "wrap_key_data")
    if isinstance(key_bits_array, KeyArray):
        raise JaxtypedTypeError("invalid PRNG key data: expected key_data.ndim >= 1; got ndim=0")
    if not isinstance(key_bits_array, (Array, np.ndarray)):
        raise JaxtypedTypeError(
            "invalid PRNG key data: expected key_data to have ndim, shape, and dtype attributes. "
            f"Got {key_bits_array!r}"
        )
    data = asarray(key_bits_array)
    if data.dtype != _UINT32 or data.ndim < 1 or data.shape[-1] != _words(custom):
        raise _invalid_key_data(data, custom)
    return KeyArray(data, custom)


def key_dtype(impl_spec: ImplSpec = None) -> KeyDType:
    """The dtype of key arrays of PRNG implementation ``impl_spec`` (JAX's
    ``jax.random.key_dtype``): ``key<fry>``, the only one jaxtyped provides."""
    custom = _check_impl(impl_spec, "key_dtype")
    return KEY_DTYPE if custom is None else KeyDType(custom)


def key_impl(keys: KeyArrayLike) -> str:
    """The PRNG implementation's name (``'threefry2x32'``)."""
    return _as_key("key_impl", keys).dtype.impl


@overload
def clone(key: KeyArray) -> KeyArray: ...
@overload
def clone(key: ArrayLike) -> Array: ...
def clone(key: KeyArrayLike) -> Array:
    """The key itself (JAX's ``jax.random.clone``: a no-op without key reuse checking)."""
    return key if isinstance(key, Array) else asarray(key)


# --- split / fold_in / bits ----------------------------------------------------------


def _counters(shape: tuple[int, ...]) -> tuple[Array, Array]:
    """The row-major flat index of every element of ``shape`` as two
    uint32 words (high, low)."""
    size = math.prod(shape)
    if size > 2**32:
        raise JaxtypedNotImplementedError(f"random: more than 2**32 elements ({size}) are not supported")
    flat = broadcasted_iota(_UINT32, (size,), 0)
    # Only arrays of more than 2**32 elements need a non-zero high word.
    return broadcast_in_dim(np.uint32(0), shape, ()), reshape(flat, shape)


def _hash_counters(data: Array, shape: tuple[int, ...]) -> tuple[Array, Array]:
    k0 = reshape(slice_in_dim(data, 0, 1), ())
    k1 = reshape(slice_in_dim(data, 1, 2), ())
    high, low = _counters(shape)
    return threefry2x32(k0, k1, high, low)


def _split_data(data: Array, shape: tuple[int, ...], partitionable: bool) -> Array:
    if partitionable:
        y0, y1 = _hash_counters(data, shape)
        return concatenate((reshape(y0, (*shape, 1)), reshape(y1, (*shape, 1))), len(shape))
    count = math.prod(shape)
    return reshape(threefry_2x32(data, broadcasted_iota(_UINT32, (2 * count,), 0)), (*shape, 2))


# Dispatch with static arguments takes jit's slow path; one jitted function
# per static configuration keeps eager calls on its fast path (eager split
# is as cheap as JAX's).
_StaticArgs: TypeAlias = tuple[int | bool | tuple[int, ...], ...]
_JITTED: Final[dict[tuple[Callable[..., Array], _StaticArgs], Callable[..., Array]]] = {}


def _jitted(fun: Callable[..., Array], *static: int | bool | tuple[int, ...]) -> Callable[..., Array]:
    """``fun`` with its trailing static arguments bound, jitted (cached)."""
    cache_key = (fun, static)
    compiled = _JITTED.get(cache_key)
    if compiled is None:
        compiled = jit(functools.partial(_call_with_static, fun, static))
        if len(_JITTED) < 4096:
            _JITTED[cache_key] = compiled
    return compiled


def _call_with_static(fun: Callable[..., Array], static: _StaticArgs, *args: Array) -> Array:
    return fun(*args, *static)


def _fold_in_data(data: Array, word: Array) -> Array:
    counts = concatenate((reshape(convert_element_type(np.uint32(0), _UINT32), (1,)), reshape(word, (1,))), 0)
    return threefry_2x32(data, counts)


_fold_in_jit: Final = jit(_fold_in_data)


@overload
def split(key: KeyArray, num: int | Sequence[int] = 2) -> KeyArray: ...
@overload
def split(key: ArrayLike, num: int | Sequence[int] = 2) -> Array: ...
def split(key: KeyArrayLike, num: int | Sequence[int] = 2) -> Array:
    """``num`` new keys from one key (``num`` an int or a shape); a typed
    key gives typed keys, a legacy key a ``uint32[*num, 2]`` array."""
    typed = check_single_key("split", key)
    shape = tuple(operator.index(n) for n in num) if isinstance(num, Sequence) else (operator.index(num),)
    if any(n < 0 for n in shape):
        raise JaxtypedValueError(f"split: num must be non-negative, got {num}")
    if typed._impl is not None:  # pyright: ignore[reportPrivateUsage]
        return KeyArray(typed._impl.split(typed._data, shape), typed._impl)  # pyright: ignore[reportPrivateUsage]
    data = _jitted(_split_data, shape, config.jax_threefry_partitionable)(typed._data)  # pyright: ignore[reportPrivateUsage]
    return _return_like(key, KeyArray(data))


@overload
def fold_in(key: KeyArray, data: ArrayLike) -> KeyArray: ...
@overload
def fold_in(key: ArrayLike, data: ArrayLike) -> Array: ...
def fold_in(key: KeyArrayLike, data: ArrayLike) -> Array:
    """A new key from a key and a 32-bit integer ``data`` (JAX's
    ``jax.random.fold_in``)."""
    typed = check_single_key("fold_in", key)
    if isinstance(data, int) and not isinstance(data, bool):
        if not 0 <= data < 2**32:
            raise JaxtypedOverflowError(f"Python integer {data} out of bounds for uint32")
        data = np.uint32(data)
    value = asarray(data)
    if value.shape:
        raise JaxtypedTypeError(
            f"fold_in accepts a scalar, but was given an array ofshape {value.shape} != (). "
            "Use jaxtyped.vmap for batching."
        )
    word = convert_element_type(value, _UINT32)
    if typed._impl is not None:  # pyright: ignore[reportPrivateUsage]
        return KeyArray(typed._impl.fold_in(typed._data, word), typed._impl)  # pyright: ignore[reportPrivateUsage]
    return _return_like(key, KeyArray(_fold_in_jit(typed._data, word)))  # pyright: ignore[reportPrivateUsage]


def _random_bits_data(data: Array, bit_width: int, shape: tuple[int, ...], partitionable: bool) -> Array:
    out_dtype = np.dtype(f"uint{bit_width}")
    if partitionable:
        y0, y1 = _hash_counters(data, shape)
        if bit_width == 64:
            high = shift_left(convert_element_type(y0, out_dtype), np.array(32, out_dtype))
            return bitwise_or(high, convert_element_type(y1, out_dtype))
        mixed = bitwise_xor(y0, y1)
        return mixed if bit_width == 32 else convert_element_type(mixed, out_dtype)
    size = math.prod(shape)
    words = -(-bit_width * size // 32)
    raw = threefry_2x32(data, broadcasted_iota(_UINT32, (words,), 0))
    if bit_width == 64:
        high = shift_left(convert_element_type(slice_in_dim(raw, 0, size), out_dtype), np.array(32, out_dtype))
        return reshape(bitwise_or(high, convert_element_type(slice_in_dim(raw, size, 2 * size), out_dtype)), shape)
    if bit_width == 32:
        return reshape(raw, shape)
    # 8 and 16 bits: the words' bytes in little-endian order.
    per_word = 32 // bit_width
    shifts = broadcast_in_dim(np.arange(per_word, dtype=np.uint32) * np.uint32(bit_width), (words, per_word), (1,))
    spread = shift_right_logical(broadcast_in_dim(raw, (words, per_word), (0,)), shifts)
    narrow = convert_element_type(reshape(spread, (words * per_word,)), out_dtype)
    return reshape(slice_in_dim(narrow, 0, size), shape)




def random_bits(key: KeyArray, bit_width: int, shape: tuple[int, ...]) -> Array:
    """Unsigned integers of ``bit_width`` (8, 16, 32, 64) bits and ``shape``
    from one typed key (JAX's ``_random_bits``); 64 needs x64."""
    if bit_width not in (8, 16, 32, 64):
        raise JaxtypedValueError(f"random_bits: bit_width must be 8, 16, 32 or 64, got {bit_width}")
    if key._impl is not None:  # pyright: ignore[reportPrivateUsage]
        return key._impl.random_bits(key._data, bit_width, shape)  # pyright: ignore[reportPrivateUsage]
    return _jitted(_random_bits_data, bit_width, shape, config.jax_threefry_partitionable)(key._data)  # pyright: ignore[reportPrivateUsage]


def bits(key: KeyArrayLike, shape: ShapeLike = (), dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """Uniform random bits as unsigned integers of ``dtype`` (default
    uint32; uint64 becomes uint32 without x64), JAX's ``jax.random.bits``."""
    typed = check_single_key("bits", key)
    wanted = np.dtype(np.uint32) if dtype is None else dtypes.dtype(dtype)
    if not dtypes.is_unsigned_integer(wanted):
        raise JaxtypedValueError(f"dtype argument to `bits` must be an unsigned int dtype, got {wanted.name}")
    wanted = dtypes.canonicalize_dtype(wanted)
    return random_bits(typed, 8 * wanted.itemsize, canonical_shape("bits", shape))
