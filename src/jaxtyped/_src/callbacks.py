"""Calling Python from traced code: ``pure_callback``, ``io_callback`` and
the machinery ``debug.print``/``debug.callback`` share (layer L5; issue 16).

Every callback primitive derives from :class:`HostCallPrimitive`: eagerly
it calls the Python function at once on the concrete arrays; under ``jit``
it lowers to a host callback of the compiled program (see Note [host
callbacks and tokens] in :mod:`jaxtyped._src.lowering` and
:mod:`jaxtyped._src.runtime.host_callbacks`), where the function receives
arrays made from the operands' host buffers. Its results are checked
against the declared shapes and dtypes (jaxlib would accept anything).

Effects (JEP 10657): ``io_callback`` and the debug callbacks carry an IO
effect (ordered or not), so they are never dropped as dead code and keep
their order when ``ordered=True``; ``pure_callback`` has none, so its
results may be computed once, many times, or not at all, as in JAX.
"""

import re
from abc import abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Literal, Protocol, TypeAlias, final, get_args, overload

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.util import AnyOnly
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, to_array
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.effects import ORDERED_IO, UNORDERED_IO, Effects, no_effects
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import HostValue, NDArray, Primitive, Tangent
from jaxtyped._src.errors import CallbackError, JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.control_flow.scan import map as lax_map
from jaxtyped._src.lax.structural import bdim_to_front, broadcast_in_dim, expand_dims
from jaxtyped._src.lowering import HostCallback, emit_host_callback
from jaxtyped._src.runtime import host_callbacks
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten

__all__ = [
    "HostCallPrimitive",
    "FlatCallback",
    "PureCallback",
    "IoCallback",
    "ShapeDtypeLike",
    "VmapMethod",
    "pure_callback",
    "io_callback",
    "effects_barrier",
    "format_aval",
    "unroll_batch",
]

_ADDRESS: Final = re.compile(r" at 0x[0-9a-fA-F]+")
VmapMethod: TypeAlias = Literal["sequential", "sequential_unrolled", "expand_dims", "broadcast_all", "legacy_vectorized"]
_VMAP_METHODS: Final[tuple[str, ...]] = get_args(VmapMethod)


class ShapeDtypeLike(Protocol):
    """What a result description needs (``jt.ShapeDtypeStruct``, or an array)."""

    @property
    def shape(self) -> tuple[int, ...]: ...

    @property
    def dtype(self) -> np.dtype[Any]: ...


def format_aval(aval: ShapedArray) -> str:
    """JAX's printed form of an aval in a parameter: ``ShapedArray(float32[3])``."""
    weak = ", weak_type=True" if aval.weak_type else ""
    return f"ShapedArray({aval.dtype.name}[{','.join(str(d) for d in aval.shape)}]{weak})"


@final
class FlatCallback:
    """A user callback on flat arguments: it rebuilds the arguments'
    pytree, calls the function and returns the flat leaves of its result.
    Equal when the function and the tree are (so retracing the same code
    reuses compiled programs)."""

    __slots__ = ("callback_func", "in_tree")

    def __init__(self, callback_func: Callable[..., object], in_tree: PyTreeDef) -> None:
        self.callback_func = callback_func
        self.in_tree = in_tree

    def __call__(self, leaves: Sequence[object]) -> list[object]:
        args, kwargs = tree_unflatten(self.in_tree, leaves)
        out, _ = tree_flatten(self.callback_func(*args, **kwargs))
        return out

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, FlatCallback)
            and self.callback_func is other.callback_func
            and self.in_tree == other.in_tree
        )

    def __hash__(self) -> int:
        return hash((id(self.callback_func), self.in_tree))

    def __repr__(self) -> str:
        return f"_FlatCallback(callback_func={self.callback_func!r}, in_tree={self.in_tree})"


class HostCallPrimitive(Primitive):
    """Family base of the primitives that call a Python function (see the
    module docstring). Subclasses say what the call does on concrete
    arrays (:meth:`call_host`), whether it is ordered, and whether XLA may
    drop it."""

    __slots__ = ()
    memoize_abstract_eval: ClassVar[bool] = False  # callbacks hash by identity; nothing to gain
    # Whether the compiled call must stay even when its results are unused.
    has_side_effect: ClassVar[bool] = True
    # Lowering: an ordered call takes and returns the block's token itself.
    threads_token: ClassVar[bool] = True

    @property
    @abstractmethod
    def is_ordered(self) -> bool:
        """Whether the call keeps program order (an ordered IO effect)."""

    @property
    @abstractmethod
    def result_avals(self) -> tuple[ShapedArray, ...]:
        """The results' types."""

    @abstractmethod
    def call_host(self, args: tuple[ArrayImpl, ...]) -> tuple[HostValue, ...]:
        """Call the Python function on concrete arrays; host buffers of the
        results' types (checked) out."""

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        return self.result_avals

    @override
    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        if not self.has_side_effect:
            return no_effects
        return frozenset({ORDERED_IO if self.is_ordered else UNORDERED_IO})

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        if self.is_ordered:
            host_callbacks.effects_barrier()  # earlier ordered programs' effects come first
        outs = self.call_host(args)
        results: list[ArrayImpl] = []
        for out, aval in zip(outs, out_avals, strict=True):
            value = np.asarray(out)
            value.flags.writeable = False
            results.append(ArrayImpl(value, aval))
        return tuple(results)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return self._on_host_buffers(args)

    def _on_host_buffers(self, args: tuple[NDArray, ...]) -> tuple[NDArray, ...]:
        arrays: list[ArrayImpl] = []
        for value in args:
            value.flags.writeable = False
            arrays.append(ArrayImpl(value, ShapedArray(value.shape, value.dtype)))
        return tuple(np.asarray(out) for out in self.call_host(tuple(arrays)))

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        callback = HostCallback(self.name, self._on_host_buffers, self.is_ordered)
        return emit_host_callback(ctx, callback, args, out_avals, has_side_effect=self.has_side_effect)

    @override
    def format_param(self, name: str, value: object) -> str:
        if name == "callback":
            # Addresses masked as JAX prints them (jaxprs print the same every run).
            return _ADDRESS.sub(" at 0xXXXXXXXXXXXX", repr(value))
        if name == "result_avals" and isinstance(value, tuple):
            avals = [format_aval(a) for a in value if isinstance(a, ShapedArray)]  # pyright: ignore[reportUnknownVariableType]  # a tuple of avals
            return f"({', '.join(avals)},)" if len(avals) == 1 else f"({', '.join(avals)})"
        return super().format_param(name, value)


def check_results(name: str, outs: Sequence[object], result_avals: tuple[ShapedArray, ...]) -> tuple[NDArray, ...]:
    """The callback's flat results as host buffers of ``result_avals``.

    Raises:
        CallbackError: the number of results, a shape or a dtype is wrong
            (a dtype that canonicalizes to the declared one is converted:
            float64 for float32 without x64, as in JAX).
    """
    if len(outs) != len(result_avals):
        raise CallbackError(
            f"{name}: the callback returned {len(outs)} arrays, but result_shape_dtypes declares {len(result_avals)}"
        )
    results: list[NDArray] = []
    for i, (out, aval) in enumerate(zip(outs, result_avals)):
        value = np.asarray(out)
        if value.shape != aval.shape:
            raise CallbackError(
                f"{name}: incorrect output shape for return value #{i}: expected {aval.shape}, got {value.shape}"
            )
        if value.dtype != aval.dtype:
            if value.dtype.kind in "OSUV" or dtypes.canonicalize_dtype(value.dtype) != aval.dtype:
                raise CallbackError(
                    f"{name}: incorrect output dtype for return value #{i}: expected {aval.dtype}, got {value.dtype}"
                )
            value = value.astype(aval.dtype)
        results.append(value)
    return tuple(results)


def unroll_batch(prim: Primitive, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> None:
    """Apply an output-less ``prim`` once per batch element, in order (how
    JAX batches its debug callbacks: each element is printed)."""
    fronted = [bdim_to_front(a, d, axis.size) if d is not None else a for a, d in zip(args, dims)]
    for i in range(axis.size):
        bind(prim, *(a[i] if d is not None else a for a, d in zip(fronted, dims)))


def _sequential(
    prim: HostCallPrimitive, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]
) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
    """One call per batch element in a loop (``lax.map``), results stacked."""
    batched = [bdim_to_front(a, d, axis.size) for a, d in zip(args, dims) if d is not None]

    def one(xs: list[Array]) -> tuple[Array, ...]:
        slices = iter(xs)
        return bind(prim, *(next(slices) if d is not None else a for a, d in zip(args, dims)))

    outs = lax_map(one, batched)
    return tuple(outs), (0,) * len(outs)


@final
@dataclass(frozen=True, slots=True)
class PureCallback(HostCallPrimitive):
    """A call of a pure Python function (JAX's ``pure_callback``): no
    effect, so it may be dropped when its results are unused."""

    name: ClassVar[str] = "pure_callback"
    several_results = True
    has_side_effect: ClassVar[bool] = False
    callback: FlatCallback
    results: tuple[ShapedArray, ...]
    vmap_method: VmapMethod | None

    @property
    @override
    def is_ordered(self) -> bool:
        return False

    @property
    @override
    def result_avals(self) -> tuple[ShapedArray, ...]:
        return self.results

    @override
    def call_host(self, args: tuple[ArrayImpl, ...]) -> tuple[HostValue, ...]:
        return check_results("pure_callback", _call_user(self.callback, args, "pure_callback"), self.results)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        raise JaxtypedValueError(
            "Pure callbacks do not support JVP. Please use `jaxtyped.custom_jvp` to use callbacks while taking gradients."
        )

    @override
    def batch(
        self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]
    ) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        method = self.vmap_method
        if method in ("sequential", "sequential_unrolled"):
            return _sequential(self, axis, args, dims)
        if method is None:
            raise JaxtypedNotImplementedError(
                "vmap is only supported for the pure_callback primitive when vmap_method is one of "
                f"{', '.join(repr(m) for m in _VMAP_METHODS)}. Got vmap_method=None."
            )
        n = axis.size
        operands: list[Array] = []
        for a, d in zip(args, dims):
            if d is not None:
                operands.append(bdim_to_front(a, d, n))
            elif method == "expand_dims":
                operands.append(expand_dims(a, (0,)))
            elif method == "broadcast_all":
                operands.append(broadcast_in_dim(a, (n, *a.shape), tuple(range(1, a.ndim + 1))))
            else:  # legacy_vectorized: unbatched operands as they are
                operands.append(a)
        batched = PureCallback(
            self.callback, tuple(ShapedArray((n, *r.shape), r.dtype, r.weak_type) for r in self.results), method
        )
        outs = bind(batched, *operands)
        return outs, (0,) * len(outs)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("callback", self.callback), ("result_avals", self.results), ("sharding", None), ("vmap_method", self.vmap_method))


@final
@dataclass(frozen=True, slots=True)
class IoCallback(HostCallPrimitive):
    """A call of a Python function with side effects (JAX's
    ``io_callback``): an IO effect, ordered when asked."""

    name: ClassVar[str] = "io_callback"
    several_results = True
    callback: FlatCallback
    results: tuple[ShapedArray, ...]
    ordered: bool

    @property
    @override
    def is_ordered(self) -> bool:
        return self.ordered

    @property
    @override
    def result_avals(self) -> tuple[ShapedArray, ...]:
        return self.results

    @override
    def call_host(self, args: tuple[ArrayImpl, ...]) -> tuple[HostValue, ...]:
        return check_results("io_callback", _call_user(self.callback, args, "io_callback"), self.results)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        raise JaxtypedValueError("IO callbacks do not support JVP.")

    @override
    def batch(
        self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]
    ) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        if self.ordered:
            raise JaxtypedValueError("Cannot `vmap` ordered IO callback.")
        return _sequential(self, axis, args, dims)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("callback", self.callback), ("ordered", self.ordered), ("result_avals", self.results), ("sharding", None))


def _call_user(callback: FlatCallback, args: tuple[ArrayImpl, ...], name: str) -> list[object]:
    try:
        return callback(args)
    except CallbackError:
        raise
    except Exception as err:
        raise CallbackError(f"{name}: the callback raised {type(err).__name__}: {err}") from err


def flatten_call_args(name: str, args: tuple[object, ...], kwargs: dict[str, object]) -> tuple[list[Array], PyTreeDef]:
    """The array leaves of ``(args, kwargs)`` and their tree.

    Raises:
        JaxtypedTypeError: a leaf is not an array or a number.
    """
    leaves, tree = tree_flatten((args, kwargs))
    arrays: list[Array] = []
    for leaf in leaves:
        try:
            arrays.append(to_array(leaf, name))
        except TypeError:
            raise JaxtypedTypeError(
                f"{name}: arguments must be arrays or numbers (pytrees of them), got {type(leaf).__name__} {leaf!r}"
            ) from None
    return arrays, tree


def _result_avals(name: str, result_shape_dtypes: object) -> tuple[tuple[ShapedArray, ...], PyTreeDef]:
    leaves, tree = tree_flatten(result_shape_dtypes)
    avals: list[ShapedArray] = []
    for leaf in leaves:
        shape = getattr(leaf, "shape", None)
        dtype = getattr(leaf, "dtype", None)
        if shape is None or dtype is None:
            raise JaxtypedTypeError(
                f"{name}: result_shape_dtypes must be a pytree of objects with a shape and a dtype "
                f"(jaxtyped.ShapeDtypeStruct), got {type(leaf).__name__}"
            )
        avals.append(ShapedArray(tuple(int(d) for d in shape), dtypes.canonicalize_dtype(dtype)))
    return tuple(avals), tree


@overload
def pure_callback(  # results described by an Any value: Any (Note [Any in, Any out] in api_tree)
    callback: Callable[..., object], result_shape_dtypes: AnyOnly, *args: object,
    sharding: None = None, vmap_method: VmapMethod | None = None, **kwargs: object,
) -> AnyOnly: ...
@overload
def pure_callback(
    callback: Callable[..., object], result_shape_dtypes: ShapeDtypeLike, *args: object,
    sharding: None = None, vmap_method: VmapMethod | None = None, **kwargs: object,
) -> Array: ...
@overload
def pure_callback(
    callback: Callable[..., object], result_shape_dtypes: tuple[ShapeDtypeLike, ...], *args: object,
    sharding: None = None, vmap_method: VmapMethod | None = None, **kwargs: object,
) -> tuple[Array, ...]: ...
@overload
def pure_callback(
    callback: Callable[..., object], result_shape_dtypes: list[ShapeDtypeLike], *args: object,
    sharding: None = None, vmap_method: VmapMethod | None = None, **kwargs: object,
) -> list[Array]: ...
@overload
def pure_callback(
    callback: Callable[..., object], result_shape_dtypes: Mapping[str, ShapeDtypeLike], *args: object,
    sharding: None = None, vmap_method: VmapMethod | None = None, **kwargs: object,
) -> dict[str, Array]: ...
@overload
def pure_callback(
    callback: Callable[..., object], result_shape_dtypes: None, *args: object,
    sharding: None = None, vmap_method: VmapMethod | None = None, **kwargs: object,
) -> None: ...
@overload
def pure_callback(
    callback: Callable[..., object], result_shape_dtypes: object, *args: object,
    sharding: None = None, vmap_method: VmapMethod | None = None, **kwargs: object,
) -> object: ...
def pure_callback(
    callback: Callable[..., object],
    result_shape_dtypes: object,
    *args: object,
    sharding: None = None,
    vmap_method: VmapMethod | None = None,
    **kwargs: object,
) -> object:
    """Call the pure Python function ``callback`` on ``args`` from traced
    code (JAX's ``jax.pure_callback``).

    ``callback`` receives arrays and returns a pytree of arrays matching
    ``result_shape_dtypes`` (a pytree of :class:`jaxtyped.ShapeDtypeStruct`);
    the call has no effect, so it may be dropped when its results are
    unused. ``vmap_method`` says how ``vmap`` calls it: ``"sequential"``
    (once per element), ``"expand_dims"`` (unbatched arguments get a
    leading axis of size 1), ``"broadcast_all"`` (they are broadcast to
    the batch size) or ``"legacy_vectorized"`` (left as they are).
    ``sharding`` is JAX's parameter; one device: only ``None``.

    Example:
        >>> import numpy as np, jaxtyped as jt, jaxtyped.numpy as jnp
        >>> f = lambda x: jt.pure_callback(np.sin, jt.ShapeDtypeStruct((3,), jnp.float32), x)
        >>> jt.jit(f)(jnp.zeros(3))
        Array([0., 0., 0.], dtype=float32)
    """
    if vmap_method is not None and vmap_method not in _VMAP_METHODS:
        raise JaxtypedValueError(
            f"pure_callback: vmap_method must be one of {[*_VMAP_METHODS, None]}, but got: {vmap_method!r}"
        )
    arrays, in_tree = flatten_call_args("pure_callback", args, kwargs)
    avals, out_tree = _result_avals("pure_callback", result_shape_dtypes)
    outs = bind(PureCallback(FlatCallback(callback, in_tree), avals, vmap_method), *arrays)
    result: object = tree_unflatten(out_tree, outs)
    return result


@overload
def io_callback(
    callback: Callable[..., object], result_shape_dtypes: ShapeDtypeLike, *args: object,
    sharding: None = None, ordered: bool = False, **kwargs: object,
) -> Array: ...
@overload
def io_callback(
    callback: Callable[..., object], result_shape_dtypes: tuple[ShapeDtypeLike, ...], *args: object,
    sharding: None = None, ordered: bool = False, **kwargs: object,
) -> tuple[Array, ...]: ...
@overload
def io_callback(
    callback: Callable[..., object], result_shape_dtypes: list[ShapeDtypeLike], *args: object,
    sharding: None = None, ordered: bool = False, **kwargs: object,
) -> list[Array]: ...
@overload
def io_callback(
    callback: Callable[..., object], result_shape_dtypes: Mapping[str, ShapeDtypeLike], *args: object,
    sharding: None = None, ordered: bool = False, **kwargs: object,
) -> dict[str, Array]: ...
@overload
def io_callback(
    callback: Callable[..., object], result_shape_dtypes: None, *args: object,
    sharding: None = None, ordered: bool = False, **kwargs: object,
) -> None: ...
@overload
def io_callback(
    callback: Callable[..., object], result_shape_dtypes: object, *args: object,
    sharding: None = None, ordered: bool = False, **kwargs: object,
) -> object: ...
def io_callback(
    callback: Callable[..., object],
    result_shape_dtypes: object,
    *args: object,
    sharding: None = None,
    ordered: bool = False,
    **kwargs: object,
) -> object:
    """Call the Python function ``callback``, which may have side effects,
    on ``args`` from traced code (JAX's ``jax.experimental.io_callback``).

    The call is never dropped; with ``ordered=True`` calls happen in
    program order, across ``jit`` calls too (and cannot be ``vmap``-ed).
    ``callback`` returns a pytree matching ``result_shape_dtypes``
    (:class:`jaxtyped.ShapeDtypeStruct` leaves, or ``None`` for no result).
    ``sharding`` is JAX's parameter; one device: only ``None``.
    """
    arrays, in_tree = flatten_call_args("io_callback", args, kwargs)
    avals, out_tree = _result_avals("io_callback", result_shape_dtypes)
    outs = bind(IoCallback(FlatCallback(callback, in_tree), avals, bool(ordered)), *arrays)
    result: object = tree_unflatten(out_tree, outs)
    return result


def effects_barrier() -> None:
    """Wait until the effects of every computation dispatched so far have
    happened (JAX's ``jax.effects_barrier``): prints from compiled code
    are then all written."""
    host_callbacks.effects_barrier()
