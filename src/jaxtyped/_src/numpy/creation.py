"""Array creation for ``jaxtyped.numpy`` (layer L5): ``array``,
``asarray``, ``zeros``/``ones``/``full`` (and ``*_like``), ``arange``,
``linspace``, ``eye``, ``identity``; and the scalar types (``jnp.float32``)
that are both dtype arguments and constructors."""

import operator
from collections.abc import Sequence
from typing import Any, Final, Literal, final, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.core.array_impl import array_from_numpy, array_from_scalar, is_numpy_value, is_python_scalar
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, ShapeMismatchError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import broadcast_in_dim, broadcasted_iota, concatenate, expand_dims, full_like_aval
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.util import is_int, is_list_or_tuple
from jaxtyped._src.numpy.promotion import broadcast_shapes, broadcast_to_shape, promote_dtypes, result_dtype_of

__all__ = [
    "ScalarType", "array", "asarray", "zeros", "ones", "full", "empty", "zeros_like",
    "ones_like", "full_like", "empty_like", "arange", "linspace", "eye", "identity",
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "float0",
]



@final
class ScalarType:
    """A dtype object such as ``jnp.float32``: usable as a ``dtype=``
    argument (it has a ``.dtype``) and callable to make a 0-d array, as in
    JAX (``jnp.float32(3)`` is ``Array(3., dtype=float32)``)."""

    __slots__ = ("_dtype",)

    def __init__(self, dtype: np.dtype[Any]) -> None:
        self._dtype = dtype

    @property
    def dtype(self) -> np.dtype[Any]:
        """The NumPy dtype this stands for."""
        return self._dtype

    def __call__(self, x: ArrayLike | Sequence[object]) -> Array:
        return asarray(x, dtype=self._dtype)

    def __repr__(self) -> str:
        return f"jaxtyped.numpy.{self._dtype.name}"

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ScalarType):
            return self._dtype == other._dtype
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self._dtype)


bool_: Final[ScalarType] = ScalarType(np.dtype(np.bool_))
int8: Final[ScalarType] = ScalarType(np.dtype(np.int8))
int16: Final[ScalarType] = ScalarType(np.dtype(np.int16))
int32: Final[ScalarType] = ScalarType(np.dtype(np.int32))
int64: Final[ScalarType] = ScalarType(np.dtype(np.int64))
uint8: Final[ScalarType] = ScalarType(np.dtype(np.uint8))
uint16: Final[ScalarType] = ScalarType(np.dtype(np.uint16))
uint32: Final[ScalarType] = ScalarType(np.dtype(np.uint32))
uint64: Final[ScalarType] = ScalarType(np.dtype(np.uint64))
float16: Final[ScalarType] = ScalarType(np.dtype(np.float16))
bfloat16: Final[ScalarType] = ScalarType(np.dtype(dtypes.bfloat16))
float32: Final[ScalarType] = ScalarType(np.dtype(np.float32))
float64: Final[ScalarType] = ScalarType(np.dtype(np.float64))
complex64: Final[ScalarType] = ScalarType(np.dtype(np.complex64))
complex128: Final[ScalarType] = ScalarType(np.dtype(np.complex128))
float0: Final[np.dtype[np.void]] = dtypes.float0


def _dtype_arg(dtype: "dtypes.DTypeLike | None") -> np.dtype[Any] | None:
    return None if dtype is None else dtypes.canonicalize_dtype(dtypes.dtype(dtype))


def _contains_array(x: object) -> bool:
    if isinstance(x, Array):
        return True
    if is_list_or_tuple(x):
        return any(_contains_array(item) for item in x)
    return False


def array(object: object, dtype: "dtypes.DTypeLike | None" = None, copy: bool = True, ndmin: int = 0) -> Array:  # noqa: A002 - NumPy's name
    """An array from an array, a scalar, or nested lists/tuples of them
    (JAX's ``jnp.array``); Python scalars give weakly typed arrays."""
    target = _dtype_arg(dtype)
    result: Array
    if target is not None and is_python_scalar(object):
        # Straight to the target dtype, so out-of-range values raise (jnp.int8(300)).
        result = scalar_like(object, target, "jnp.array", weak_type=False)
    elif isinstance(object, Array):
        result = object
    elif is_list_or_tuple(object) and _contains_array(object):
        result = _stack_nested(object)
    elif is_python_scalar(object):
        result = array_from_scalar(object, where="jnp.array")
    elif is_numpy_value(object) or is_list_or_tuple(object):
        result = _from_host(object)
    else:
        raise JaxtypedTypeError(f"jnp.array: cannot convert {type(object).__name__} to an array")
    if target is not None:
        result = convert_to(result, target, weak_type=False)
    if ndmin > result.ndim:
        result = expand_dims(result, tuple(range(ndmin - result.ndim)))
    return result


def _from_host(value: object) -> Array:
    host = np.asarray(value)
    if host.dtype == np.object_:
        raise JaxtypedTypeError("jnp.array: ragged or non-numeric nested sequences are not supported")
    return array_from_numpy(host, where="jnp.array")


def _leaves(items: object) -> list[object]:
    if is_list_or_tuple(items):
        return [leaf for item in items for leaf in _leaves(item)]
    return [items]


def _stack_nested(items: Sequence[object]) -> Array:
    """Nested lists holding arrays (possibly traced): one dtype for all
    leaves (Python scalars weakly typed, as in JAX), then stacked. The result
    is strongly typed, as every array built from a list is."""
    leaves = promote_dtypes("array", _leaves(items))
    return _build(items, leaves[0].dtype)


def _build(item: object, dtype: np.dtype[Any]) -> Array:
    if not is_list_or_tuple(item):
        if is_python_scalar(item):
            return scalar_like(item, dtype, "jnp.array", weak_type=False)
        return convert_to(asarray(item), dtype, weak_type=False)
    parts = [_build(sub, dtype) for sub in item]
    shapes = {p.shape for p in parts}
    if len(shapes) > 1:
        raise JaxtypedValueError(f"jnp.array: nested sequences have inconsistent shapes {sorted(shapes)}")
    if not parts:
        return array_from_numpy(np.zeros((0,), dtype))
    return concatenate([expand_dims(p, (0,)) for p in parts], 0)


def asarray(a: object, dtype: "dtypes.DTypeLike | None" = None, copy: bool | None = None) -> Array:
    """``jnp.array`` without a forced copy (arrays are immutable anyway)."""
    return array(a, dtype)


def _shape_arg(name: str, shape: ShapeLike) -> tuple[int, ...]:
    items: tuple[object, ...] = tuple(shape) if isinstance(shape, Sequence) else (shape,)
    dims: list[int] = []
    for d in items:
        if not is_int(d):
            raise JaxtypedTypeError(f"jnp.{name}: shape must be ints, got {shape!r}")
        dims.append(operator.index(d))
    if any(d < 0 for d in dims):
        raise JaxtypedValueError(f"jnp.{name}: negative dimensions are not allowed, got {shape!r}")
    return tuple(dims)


def full(shape: ShapeLike, fill_value: ArrayLike, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """An array of ``shape`` filled with ``fill_value`` (which may be an
    array broadcastable to ``shape``)."""
    dims = _shape_arg("full", shape)
    value = array(fill_value, dtype)
    if value.ndim:
        return _broadcast_value(value, dims)
    return broadcast_in_dim(value, dims, ()) if dims else value


def _broadcast_value(value: Array, dims: tuple[int, ...]) -> Array:
    try:
        fits = broadcast_shapes("full", value.shape, dims) == dims
    except ShapeMismatchError:
        fits = False
    if not fits:
        raise JaxtypedValueError(f"jnp.full: fill_value {value.aval.str_short()} does not broadcast to shape {dims}")
    return broadcast_to_shape(value, dims)


def zeros(shape: ShapeLike, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """An array of zeros (default dtype: float)."""
    target = _dtype_arg(dtype) or dtypes.default_float_dtype()
    return full_like_aval(ShapedArray(_shape_arg("zeros", shape), target), 0)


def ones(shape: ShapeLike, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """An array of ones (default dtype: float)."""
    target = _dtype_arg(dtype) or dtypes.default_float_dtype()
    return full_like_aval(ShapedArray(_shape_arg("ones", shape), target), 1)


empty = zeros


def _like_aval(name: str, a: ArrayLike, dtype: "dtypes.DTypeLike | None", shape: ShapeLike | None) -> ShapedArray:
    x = asarray(a)
    target = _dtype_arg(dtype) or x.dtype
    dims = x.shape if shape is None else _shape_arg(name, shape)
    return ShapedArray(dims, target, x.weak_type and dtype is None)


def zeros_like(a: ArrayLike, dtype: "dtypes.DTypeLike | None" = None, shape: ShapeLike | None = None) -> Array:
    """Zeros with ``a``'s shape and dtype."""
    return full_like_aval(_like_aval("zeros_like", a, dtype, shape), 0)


def ones_like(a: ArrayLike, dtype: "dtypes.DTypeLike | None" = None, shape: ShapeLike | None = None) -> Array:
    """Ones with ``a``'s shape and dtype."""
    return full_like_aval(_like_aval("ones_like", a, dtype, shape), 1)


def full_like(a: ArrayLike, fill_value: ArrayLike, dtype: "dtypes.DTypeLike | None" = None, shape: ShapeLike | None = None) -> Array:
    """``fill_value`` with ``a``'s shape and dtype."""
    aval = _like_aval("full_like", a, dtype, shape)
    return full(aval.shape, convert_to(array(fill_value), aval.dtype, weak_type=aval.weak_type))


def empty_like(prototype: ArrayLike, dtype: "dtypes.DTypeLike | None" = None, shape: ShapeLike | None = None) -> Array:
    """An array with ``prototype``'s shape and dtype (zeros: arrays are immutable)."""
    return zeros_like(prototype, dtype, shape)


def _concrete_number(name: str, value: ArrayLike | None, what: str) -> float | int | None:
    if value is None:
        return None
    number: object
    if isinstance(value, Array):
        try:
            number = value.item()
        except JaxtypedTypeError:
            raise JaxtypedTypeError(f"jnp.{name}: {what} must be a concrete value, got a traced array") from None
    elif is_numpy_value(value):
        number = value.item()
    else:
        number = value
    if isinstance(number, (int, float)):
        return number
    raise JaxtypedTypeError(f"jnp.{name}: {what} must be a real number, got {number!r}")


def arange(
    start: ArrayLike,
    stop: ArrayLike | None = None,
    step: ArrayLike | None = None,
    dtype: "dtypes.DTypeLike | None" = None,
) -> Array:
    """Evenly spaced values in ``[start, stop)`` (static bounds, as in JAX)."""
    first = _concrete_number("arange", start, "start")
    last = _concrete_number("arange", stop, "stop")
    given_step = _concrete_number("arange", step, "step")
    assert first is not None  # start is required
    begin, end = (0, first) if last is None else (first, last)
    stride = 1 if given_step is None else given_step
    target = _dtype_arg(dtype)
    if target is None:
        operands = [array(v) for v in (begin, end, stride)]
        target = result_dtype_of(*operands)[0]
    if begin == 0 and stride == 1 and isinstance(end, int):
        return broadcasted_iota(target, (max(end, 0),), 0)
    host: np.ndarray[Any, np.dtype[Any]]
    if dtype is not None:
        # NumPy's semantics for an explicit dtype (JAX defers to np.arange).
        host = np.arange(begin, end, stride, dtype=target)
    elif all(isinstance(v, int) for v in (begin, end, stride)):
        host = np.arange(int(begin), int(end), int(stride))
    else:
        host = np.arange(float(begin), float(end), float(stride))
    return array_from_numpy(host.astype(target))


@overload
def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    retstep: Literal[False] = False,
    dtype: "dtypes.DTypeLike | None" = None,
    axis: int = 0,
) -> Array: ...
@overload
def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    *,
    retstep: Literal[True],
    dtype: "dtypes.DTypeLike | None" = None,
    axis: int = 0,
) -> tuple[Array, Array]: ...
def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: "dtypes.DTypeLike | None" = None,
    axis: int = 0,
) -> Array | tuple[Array, Array]:
    """``num`` evenly spaced samples from ``start`` to ``stop`` (scalars,
    possibly traced); with ``retstep``, also the spacing."""
    if axis not in (0, -1):
        raise JaxtypedValueError(f"jnp.linspace: axis must be 0 or -1 for scalar bounds, got {axis}")
    values, step = _linspace(start, stop, num, endpoint, dtype)
    return (values, step) if retstep else values


def _linspace(
    start: ArrayLike, stop: ArrayLike, num: int, endpoint: bool, dtype: "dtypes.DTypeLike | None"
) -> tuple[Array, Array]:
    if num < 0:
        raise JaxtypedValueError(f"jnp.linspace: num must be non-negative, got {num}")
    lo, hi = promote_dtypes("linspace", (start, stop), inexact=True)
    if lo.ndim or hi.ndim:
        raise JaxtypedValueError("jnp.linspace: start and stop must be scalars")
    target = _dtype_arg(dtype) or lo.dtype
    compute = lo.dtype  # inexact: promote_dtypes made it so
    intervals = (num - 1) if endpoint else num
    step = la.div(la.sub(hi, lo), scalar_like(max(intervals, 1), compute, "jnp.linspace"))
    count = num - 1 if endpoint and num > 0 else num
    steps = la.mul(broadcasted_iota(compute, (count,), 0), step) if count else zeros((0,), compute)
    values = la.add(steps, lo) if count else steps
    if endpoint and num == 1:
        values = broadcast_in_dim(lo, (1,), ())  # one sample: the start
    elif endpoint and num > 1:
        values = concatenate([values, broadcast_in_dim(hi, (1,), ())], 0)
    if dtypes.is_integer(target):
        values = la.floor(values)
    return convert_to(values, target, weak_type=False), step


def eye(N: int, M: int | None = None, k: int = 0, dtype: "dtypes.DTypeLike | None" = None) -> Array:  # noqa: N803 - NumPy's names
    """A 2-d array with ones on the ``k``-th diagonal."""
    rows, cols = int(N), int(N if M is None else M)
    if rows < 0 or cols < 0:
        raise JaxtypedValueError(f"jnp.eye: N and M must be non-negative, got {N}, {M}")
    target = _dtype_arg(dtype) or dtypes.default_float_dtype()
    row = broadcasted_iota(np.dtype(np.int32), (rows, cols), 0)
    col = broadcasted_iota(np.dtype(np.int32), (rows, cols), 1)
    on_diagonal = lcmp.eq(la.add(row, scalar_like(k, np.dtype(np.int32), "jnp.eye")), col)
    return convert_to(on_diagonal, target, weak_type=False)


def identity(n: int, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """The ``n`` by ``n`` identity matrix."""
    return eye(n, dtype=dtype)
