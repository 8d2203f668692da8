"""Array creation for ``jaxtyped.numpy`` (layer L5): ``array``,
``asarray``, ``zeros``/``ones``/``full`` (and ``*_like``), ``arange``,
``linspace``, ``eye``, ``identity``; and the scalar types (``jnp.float32``)
that are both dtype arguments and constructors."""

import os
from collections.abc import Callable, Sequence
from typing import Any, Final, Literal, TypeVar, final, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.core.array_impl import (
    ArrayImpl,
    array_from_numpy,
    array_from_scalar,
    copy_array,
    is_numpy_value,
    is_python_scalar,
)
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.interpreter import EvalInterpreter, current_interpreter
from jaxtyped._src.errors import (
    JaxtypedNotImplementedError,
    JaxtypedOverflowError,
    JaxtypedTypeError,
    JaxtypedValueError,
    OutOfMemoryError,
    ShapeMismatchError,
)
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import transcendental as lt
from jaxtyped._src.lax.special import bessel_i0e
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import broadcast_in_dim, broadcasted_iota, concatenate, expand_dims, full_like_aval
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.util import index_arg, is_int, is_list_or_tuple, prod
from jaxtyped._src.numpy.promotion import broadcast_shapes, broadcast_to_shape, promote_dtypes, result_dtype_of
from jaxtyped._src.numpy.ufuncs import log10_of_inexact
from jaxtyped._src.runtime import xla

__all__ = [
    "ScalarType", "array", "asarray", "zeros", "ones", "full", "empty", "zeros_like",
    "ones_like", "full_like", "empty_like", "arange", "linspace", "eye", "identity",
    "bool_", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float16", "bfloat16", "float32", "float64", "complex64", "complex128", "float0",
    # array manipulation family
    "tri", "logspace", "geomspace", "fromfunction", "frombuffer", "fromstring", "fromfile", "fromiter", "from_dlpack",
    "bartlett", "blackman", "hamming", "hanning", "kaiser", "check_allocation", "check_eager_size",
]

T = TypeVar("T")



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


def dtype_arg(dtype: "dtypes.DTypeLike | None") -> np.dtype[Any] | None:
    """A ``dtype=`` argument canonicalized (None stays None)."""
    return None if dtype is None else dtypes.canonicalize_dtype(dtypes.dtype(dtype))


def _contains_array(x: object) -> bool:
    if isinstance(x, Array):
        return True
    if is_list_or_tuple(x):
        return any(_contains_array(item) for item in x)
    return False


def array(  # noqa: A002 - NumPy's name
    object: object, dtype: "dtypes.DTypeLike | None" = None, copy: bool = True, ndmin: int = 0, *, device: "xla.DeviceOrSharding | None" = None
) -> Array:
    """An array from an array, a scalar, or nested lists/tuples of them
    (JAX's ``jnp.array``); Python scalars give weakly typed arrays. On
    ``device`` (a device or a sharding) when one is given. An array given
    is copied unless ``copy=False`` (a new array object: donating it leaves
    the original alive)."""
    result = _array(object, dtype, ndmin)
    if copy and result is object and isinstance(result, ArrayImpl):
        result = copy_array(result)
    return on_device(result, device)


def _array(object: object, dtype: "dtypes.DTypeLike | None", ndmin: int) -> Array:  # noqa: A002 - NumPy's name
    target = dtype_arg(dtype)
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
    elif is_list_or_tuple(object):
        result = _from_list(object, target)
    elif is_numpy_value(object):
        result = _from_host(object)
    elif object is None:
        raise JaxtypedValueError("jnp.array: None is not a valid value")  # ValueError, as JAX
    else:
        raise JaxtypedTypeError(f"jnp.array: cannot convert {type(object).__name__} to an array")
    if target is not None:
        result = convert_to(result, target, weak_type=False)
    if ndmin > result.ndim:
        result = expand_dims(result, tuple(range(ndmin - result.ndim)))
    return result


def _from_list(items: Sequence[object], target: np.dtype[Any] | None) -> Array:
    """Nested lists of scalars (and NumPy arrays): the dtype is JAX's
    promotion of the leaves (Python scalars weak, so ``[np.int8(1), 2]`` is
    int8), and Python ints must fit it, as a Python scalar must (JAX raises
    OverflowError where NumPy would wrap). The result is strongly typed."""
    leaves = _leaves(items)
    if any(leaf is None for leaf in leaves):
        raise JaxtypedValueError("jnp.array: None is not a valid value (in a list)")  # ValueError, as JAX
    numeric = all(is_python_scalar(leaf) or is_numpy_value(leaf) for leaf in leaves)
    if not numeric:
        return _from_host(items)  # strings and other objects: its error names them
    dtype = target if target is not None else _leaf_dtype(leaves)
    if dtypes.is_integer(dtype):
        low, high = dtypes.integer_bounds(dtype)  # ml_dtypes-aware (int4 & co.)
        for value in leaves:
            if type(value) is int and not low <= value <= high:
                raise JaxtypedOverflowError(f"jnp.array: Python integer {value} out of bounds for {dtype.name}")
    host = np.asarray(items)
    if host.dtype == np.object_ and not dtypes.is_integer(dtype):
        # Python ints beyond int64 among floats: NumPy keeps them as objects.
        host = np.asarray(items, dtype=np.complex128 if dtypes.is_complex(dtype) else np.float64)
    if host.dtype == np.object_:
        raise JaxtypedTypeError("jnp.array: ragged or non-numeric nested sequences are not supported")
    return array_from_numpy(host.astype(dtype) if target is None else host, where="jnp.array")


def _leaf_dtype(leaves: Sequence[object]) -> np.dtype[Any]:
    if not leaves:
        return dtypes.default_float_dtype()  # jnp.array([]) is float, as NumPy's
    operands: list[tuple[np.dtype[Any], bool]] = []
    for leaf in leaves:
        if is_python_scalar(leaf):
            operands.append((dtypes.python_scalar_dtype(leaf), type(leaf) is not bool))
        elif is_numpy_value(leaf):
            operands.append((dtypes.canonicalize_dtype(leaf.dtype), False))
    return dtypes.result_dtype(*operands)[0]


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


def asarray(a: object, dtype: "dtypes.DTypeLike | None" = None, *, copy: bool | None = None, device: "xla.DeviceOrSharding | None" = None) -> Array:
    """``jnp.array`` without a copy unless ``copy=True`` asks for one."""
    return array(a, dtype, copy=copy is True, device=device)


def on_device(out: Array, device: "xla.DeviceOrSharding | None", *, strong: bool = False) -> Array:
    """``out`` placed on ``device`` (a device or a sharding), as the
    ``device=`` keyword of JAX's creation functions does; None leaves it.
    ``strong``: placed, the result is not weakly typed (JAX's ``full`` and
    ``*_like`` functions build it so when given a device)."""
    if device is None:
        return out
    from jaxtyped._src.api_device import device_put  # noqa: PLC0415 - same layer, imported late

    if strong and out.weak_type:
        out = convert_to(out, out.dtype, weak_type=False)
    return device_put(out, device)


def _shape_arg(name: str, shape: ShapeLike) -> tuple[int, ...]:
    items: tuple[object, ...] = tuple(shape) if isinstance(shape, Sequence) else (shape,)
    dims: list[int] = []
    for d in items:
        dims.append(index_arg(d, f"jnp.{name}: each entry of shape"))
    if any(d < 0 for d in dims):
        raise JaxtypedValueError(f"jnp.{name}: negative dimensions are not allowed, got {shape!r}")
    return tuple(dims)


def _physical_memory() -> int:
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):  # no sysconf: assume a large machine
        return 1 << 40


# Arrays that need more bytes than this cannot be allocated here (XLA's CPU
# client allocates from the same physical memory).
_MEMORY_LIMIT: Final[int] = _physical_memory()


def check_allocation(where: str, result: Array) -> Array:
    """``result``, unless it is a concrete array too large to materialise:
    then an OutOfMemoryError naming ``where``, the shape and the bytes.

    Concrete broadcasts are lazy views, so without this ``jnp.zeros`` of
    terabytes succeeds and fails later (or a reduction over it runs for
    minutes); traced results are left alone (``eval_shape`` of a large
    array is fine, and XLA may fuse it away).
    """
    if isinstance(result, ArrayImpl):
        _refuse_oversized(where, result.shape, result.dtype)
    return result


def check_eager_size(where: str, shape: Sequence[int], dtype: np.dtype[Any]) -> None:
    """Before computing a result of ``shape`` eagerly: the OutOfMemoryError
    of :func:`check_allocation` if it cannot fit (traced code is left alone)."""
    if isinstance(current_interpreter(), EvalInterpreter):
        _refuse_oversized(where, tuple(shape), dtype)


def _refuse_oversized(where: str, shape: tuple[int, ...], dtype: np.dtype[Any]) -> None:
    needed = prod(shape) * dtype.itemsize
    if needed > _MEMORY_LIMIT:
        raise OutOfMemoryError(
            f"{where}: RESOURCE_EXHAUSTED: an array of shape {shape} and dtype {dtype.name} "
            f"needs {needed} bytes, more than this machine's {_MEMORY_LIMIT} bytes of memory"
        )


def full(shape: ShapeLike, fill_value: ArrayLike, dtype: "dtypes.DTypeLike | None" = None, *, device: "xla.DeviceOrSharding | None" = None) -> Array:
    """An array of ``shape`` filled with ``fill_value`` (which may be an
    array broadcastable to ``shape``)."""
    return on_device(_full(shape, fill_value, dtype), device, strong=True)


def _full(shape: ShapeLike, fill_value: ArrayLike, dtype: "dtypes.DTypeLike | None") -> Array:
    dims = _shape_arg("full", shape)
    value = array(fill_value, dtype)
    if value.ndim:
        return check_allocation("jnp.full", _broadcast_value(value, dims))
    return check_allocation("jnp.full", broadcast_in_dim(value, dims, ()) if dims else value)


def _broadcast_value(value: Array, dims: tuple[int, ...]) -> Array:
    try:
        fits = broadcast_shapes("full", value.shape, dims) == dims
    except ShapeMismatchError:
        fits = False
    if not fits:
        raise JaxtypedValueError(f"jnp.full: fill_value {value.aval.str_short()} does not broadcast to shape {dims}")
    return broadcast_to_shape(value, dims)


def _filled(name: str, shape: ShapeLike, dtype: "dtypes.DTypeLike | None", value: int) -> Array:
    target = dtype_arg(dtype) or dtypes.default_float_dtype()
    return check_allocation(f"jnp.{name}", full_like_aval(ShapedArray(_shape_arg(name, shape), target), value))


def zeros(shape: ShapeLike, dtype: "dtypes.DTypeLike | None" = None, *, device: "xla.DeviceOrSharding | None" = None) -> Array:
    """An array of zeros (default dtype: float)."""
    return on_device(_filled("zeros", shape, dtype, 0), device)


def ones(shape: ShapeLike, dtype: "dtypes.DTypeLike | None" = None, *, device: "xla.DeviceOrSharding | None" = None) -> Array:
    """An array of ones (default dtype: float)."""
    return on_device(_filled("ones", shape, dtype, 1), device)


def empty(shape: ShapeLike, dtype: "dtypes.DTypeLike | None" = None, *, device: "xla.DeviceOrSharding | None" = None) -> Array:
    """An array of ``shape`` (zeros: arrays are immutable, as in JAX)."""
    return on_device(_filled("empty", shape, dtype, 0), device)


def _like_aval(name: str, a: ArrayLike, dtype: "dtypes.DTypeLike | None", shape: ShapeLike | None) -> ShapedArray:
    x = asarray(a)
    target = dtype_arg(dtype) or x.dtype
    dims = x.shape if shape is None else _shape_arg(name, shape)
    return ShapedArray(dims, target, x.weak_type and dtype is None)


def zeros_like(
    a: ArrayLike, dtype: "dtypes.DTypeLike | None" = None, shape: ShapeLike | None = None, *, device: "xla.DeviceOrSharding | None" = None
) -> Array:
    """Zeros with ``a``'s shape and dtype."""
    return on_device(check_allocation("jnp.zeros_like", full_like_aval(_like_aval("zeros_like", a, dtype, shape), 0)), device, strong=True)


def ones_like(
    a: ArrayLike, dtype: "dtypes.DTypeLike | None" = None, shape: ShapeLike | None = None, *, device: "xla.DeviceOrSharding | None" = None
) -> Array:
    """Ones with ``a``'s shape and dtype."""
    return on_device(check_allocation("jnp.ones_like", full_like_aval(_like_aval("ones_like", a, dtype, shape), 1)), device, strong=True)


def full_like(
    a: ArrayLike,
    fill_value: ArrayLike,
    dtype: "dtypes.DTypeLike | None" = None,
    shape: ShapeLike | None = None,
    *,
    device: "xla.DeviceOrSharding | None" = None,
) -> Array:
    """``fill_value`` with ``a``'s shape and dtype."""
    aval = _like_aval("full_like", a, dtype, shape)
    return full(aval.shape, convert_to(array(fill_value), aval.dtype, weak_type=aval.weak_type), device=device)


def empty_like(
    prototype: ArrayLike, dtype: "dtypes.DTypeLike | None" = None, shape: ShapeLike | None = None, *, device: "xla.DeviceOrSharding | None" = None
) -> Array:
    """An array with ``prototype``'s shape and dtype (zeros: arrays are immutable)."""
    return on_device(
        check_allocation("jnp.empty_like", full_like_aval(_like_aval("empty_like", prototype, dtype, shape), 0)), device, strong=True
    )


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
    *,
    device: "xla.DeviceOrSharding | None" = None,
) -> Array:
    """Evenly spaced values in ``[start, stop)`` (static bounds, as in JAX)."""
    return on_device(_arange(start, stop, step, dtype), device)


def _arange(start: ArrayLike, stop: ArrayLike | None, step: ArrayLike | None, dtype: "dtypes.DTypeLike | None") -> Array:
    first = _concrete_number("arange", start, "start")
    last = _concrete_number("arange", stop, "stop")
    given_step = _concrete_number("arange", step, "step")
    assert first is not None  # start is required
    begin, end = (0, first) if last is None else (first, last)
    stride = 1 if given_step is None else given_step
    target = dtype_arg(dtype)
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
    *,
    device: "xla.DeviceOrSharding | None" = None,
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
    device: "xla.DeviceOrSharding | None" = None,
) -> tuple[Array, Array]: ...
def linspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    retstep: bool = False,
    dtype: "dtypes.DTypeLike | None" = None,
    axis: int = 0,
    *,
    device: "xla.DeviceOrSharding | None" = None,
) -> Array | tuple[Array, Array]:
    """``num`` evenly spaced samples from ``start`` to ``stop``, along a
    new ``axis`` of their broadcast shape (arrays of bounds give one
    sequence per element); with ``retstep``, also the spacing."""
    values, step = _linspace(start, stop, num, endpoint, dtype, axis)
    values = on_device(values, device)
    return (values, step) if retstep else values


def _linspace(
    start: ArrayLike, stop: ArrayLike, num: int, endpoint: bool, dtype: "dtypes.DTypeLike | None", axis: int
) -> tuple[Array, Array]:
    num = index_arg(num, "jnp.linspace: num")
    if num < 0:
        raise JaxtypedValueError(f"jnp.linspace: num must be non-negative, got {num}")
    lo, hi = promote_dtypes("linspace", (start, stop), inexact=True)
    bounds = broadcast_shapes("jnp.linspace", lo.shape, hi.shape)
    ndim = len(bounds) + 1
    if not is_int(axis) or not -ndim <= axis < ndim:
        raise JaxtypedValueError(
            f"jnp.linspace: axis {axis!r} is out of bounds for a result of {ndim} dimensions (bounds of shape {bounds})"
        )
    axis = int(axis) % ndim
    target = dtype_arg(dtype) or lo.dtype
    compute = lo.dtype  # inexact: promote_dtypes made it so
    check_eager_size("jnp.linspace", (*bounds[:axis], num, *bounds[axis:]), compute)
    lo, hi = broadcast_to_shape(lo, bounds), broadcast_to_shape(hi, bounds)
    others = tuple(d for d in range(ndim) if d != axis)
    intervals = num - 1 if endpoint else num
    nan = scalar_like(float("nan"), compute, "jnp.linspace")
    if num > 1:
        # JAX's formula, start * (1 - t) + stop * t with t = i / intervals:
        # the end points come out exact, and the samples round as JAX's do.
        shape = (*bounds[:axis], intervals, *bounds[axis:])
        real = np.finfo(compute).dtype if dtypes.is_complex(compute) else compute
        fraction = la.div(broadcasted_iota(real, (intervals,), 0), scalar_like(intervals, real, "jnp.linspace"))
        t = broadcast_in_dim(convert_to(fraction, compute, weak_type=False), shape, (axis,))
        one = broadcast_in_dim(scalar_like(1, compute, "jnp.linspace"), shape, ())
        values = la.add(
            la.mul(broadcast_in_dim(lo, shape, others), la.sub(one, t)), la.mul(broadcast_in_dim(hi, shape, others), t)
        )
        if endpoint:
            values = concatenate([values, expand_dims(hi, (axis,))], axis)
        step = la.div(la.sub(hi, lo), broadcast_in_dim(scalar_like(intervals, compute, "jnp.linspace"), bounds, ()))
    elif num == 1:
        values = expand_dims(lo, (axis,))
        step = nan if endpoint else la.sub(hi, lo)
    else:  # no samples, as NumPy
        values = broadcast_in_dim(scalar_like(0, compute, "jnp.linspace"), (*bounds[:axis], 0, *bounds[axis:]), ())
        step = nan
    if dtypes.is_integer(target):
        values = la.floor(values)
    return convert_to(values, target, weak_type=False), convert_to(step, compute, weak_type=False)


def eye(  # noqa: N803 - NumPy's names
    N: int, M: int | None = None, k: int = 0, dtype: "dtypes.DTypeLike | None" = None, *, device: "xla.DeviceOrSharding | None" = None
) -> Array:
    """A 2-d array with ones on the ``k``-th diagonal."""
    return on_device(_eye(N, M, k, dtype), device)


def _eye(N: int, M: int | None, k: int, dtype: "dtypes.DTypeLike | None") -> Array:  # noqa: N803 - NumPy's names
    rows = index_arg(N, "jnp.eye: N")
    cols = rows if M is None else index_arg(M, "jnp.eye: M")
    if not is_int(k):
        raise JaxtypedValueError(f"jnp.eye: k must be a scalar integer, got {k!r}")  # ValueError, as JAX
    if rows < 0 or cols < 0:
        raise JaxtypedValueError(f"jnp.eye: N and M must be non-negative, got {N}, {M}")
    target = dtype_arg(dtype) or dtypes.default_float_dtype()
    check_eager_size("jnp.eye", (rows, cols), np.dtype(np.int32))
    row = broadcasted_iota(np.dtype(np.int32), (rows, cols), 0)
    col = broadcasted_iota(np.dtype(np.int32), (rows, cols), 1)
    on_diagonal = lcmp.eq(la.add(row, scalar_like(int(k), np.dtype(np.int32), "jnp.eye")), col)
    return convert_to(on_diagonal, target, weak_type=False)


def identity(n: int, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """The ``n`` by ``n`` identity matrix."""
    return eye(n, dtype=dtype)


# --- array manipulation family: more creation functions ---


def tri(N: int, M: int | None = None, k: int = 0, dtype: "dtypes.DTypeLike | None" = None) -> Array:  # noqa: N803 - NumPy's names
    """An ``N`` by ``M`` array with ones on and below the ``k``-th diagonal
    (float32 unless ``dtype`` is given, as in JAX)."""
    rows = index_arg(N, "jnp.tri: N")
    cols = rows if M is None else index_arg(M, "jnp.tri: M")
    offset = index_arg(k, "jnp.tri: k")
    if rows < 0 or cols < 0:
        raise JaxtypedValueError(f"jnp.tri: N and M must be non-negative, got {N}, {M}")
    # float32 by default even under x64, as JAX's tri (unlike eye).
    target = dtype_arg(dtype) or np.dtype(np.float32)
    int32 = np.dtype(np.int32)
    check_eager_size("jnp.tri", (rows, cols), int32)
    row = broadcasted_iota(int32, (rows, cols), 0)
    col = broadcasted_iota(int32, (rows, cols), 1)
    below = lcmp.le(col, la.add(row, scalar_like(offset, int32, "jnp.tri", weak_type=False)))
    return convert_to(below, target, weak_type=False)


def logspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    base: ArrayLike = 10.0,
    dtype: "dtypes.DTypeLike | None" = None,
    axis: int = 0,
) -> Array:
    """``base ** linspace(start, stop, num)``."""
    target = dtype_arg(dtype)
    exponents = linspace(start, stop, num, endpoint, axis=axis)
    compute = exponents.dtype
    powers = lt.pow(convert_to(array(base), compute, weak_type=False), exponents) if num else exponents
    return _floored_into(powers, target)


def geomspace(
    start: ArrayLike,
    stop: ArrayLike,
    num: int = 50,
    endpoint: bool = True,
    dtype: "dtypes.DTypeLike | None" = None,
    axis: int = 0,
) -> Array:
    """``num`` samples from ``start`` to ``stop`` evenly spaced on a log
    scale (both of one sign, neither zero)."""
    lo, hi = promote_dtypes("geomspace", (start, stop), inexact=True)
    for value in (lo, hi):
        if isinstance(value, ArrayImpl) and bool(np.any(np.asarray(value) == 0)):
            raise JaxtypedValueError("jnp.geomspace: start and stop must be non-zero")
    bounds = broadcast_shapes("jnp.geomspace", lo.shape, hi.shape)
    lo, hi = broadcast_to_shape(lo, bounds), broadcast_to_shape(hi, bounds)
    # JAX's formula: sign * 10 ** linspace(log10 |start|, log10 |stop|).
    sign = la.sign(lo)
    exponents = linspace(log10_of_inexact(la.div(lo, sign)), log10_of_inexact(la.div(hi, sign)), num, endpoint, axis=axis)
    if not num:
        return _floored_into(exponents, dtype_arg(dtype))
    new_axis = axis % exponents.ndim
    others = tuple(d for d in range(exponents.ndim) if d != new_axis)
    ten = broadcast_in_dim(scalar_like(10.0, lo.dtype, "jnp.geomspace"), exponents.shape, ())
    powers = lt.pow(ten, exponents)
    return _floored_into(la.mul(broadcast_in_dim(sign, exponents.shape, others), powers), dtype_arg(dtype))


def _floored_into(values: Array, target: np.dtype[Any] | None) -> Array:
    """``values`` in ``target`` (their own dtype if None), rounded down
    first for an integer target, as JAX's logspace and geomspace do."""
    result_dtype = target or values.dtype
    if dtypes.is_integer(result_dtype):
        values = la.floor(values)
    return convert_to(values, result_dtype, weak_type=False)


def fromfunction(function: "Callable[..., T]", shape: ShapeLike, *, dtype: "dtypes.DTypeLike" = float, **kwargs: object) -> "T":
    """``function(*indices)`` where ``indices[i]`` holds each element's
    coordinate along axis ``i`` (in ``dtype``)."""
    dims = _shape_arg("fromfunction", shape)
    target = dtype_arg(dtype) or dtypes.default_float_dtype()
    return function(*(broadcasted_iota(target, dims, i) for i in range(len(dims))), **kwargs)


def frombuffer(buffer: bytes | bytearray | memoryview, dtype: "dtypes.DTypeLike" = float, count: int = -1, offset: int = 0) -> Array:
    """A 1-d array from the raw bytes of ``buffer`` (NumPy's ``frombuffer``)."""
    try:
        host = np.frombuffer(buffer, dtype=dtypes.dtype(dtype), count=index_arg(count, "jnp.frombuffer: count"),
                             offset=index_arg(offset, "jnp.frombuffer: offset"))
    except ValueError as err:
        raise JaxtypedValueError(f"jnp.frombuffer: {err}") from None
    return array_from_numpy(host, where="jnp.frombuffer")


def fromstring(string: str, dtype: "dtypes.DTypeLike" = float, count: int = -1, *, sep: str) -> Array:
    """A 1-d array from numbers in text separated by ``sep``."""
    try:
        host = np.fromstring(string, dtype=dtypes.dtype(dtype), count=index_arg(count, "jnp.fromstring: count"), sep=sep)
    except ValueError as err:
        raise JaxtypedValueError(f"jnp.fromstring: {err}") from None
    return array_from_numpy(host, where="jnp.fromstring")


def fromiter(iterable: object, dtype: "dtypes.DTypeLike", count: int = -1) -> Array:
    """Not supported, as in JAX: an iterator may be impure; use
    ``jnp.array(list(iterable))``."""
    raise JaxtypedNotImplementedError(
        "jnp.fromiter() is not implemented because it may be non-pure and thus unsafe for use with JIT "
        "and other JAX transformations. Consider using jnp.asarray(np.fromiter(...)) instead."
    )


def fromfile(*args: object, **kwargs: object) -> Array:
    """Not supported, as in JAX: reading a file is not a pure array
    operation; use ``jnp.asarray(np.fromfile(...))``."""
    del args, kwargs
    raise JaxtypedNotImplementedError(
        "jnp.fromfile() is not implemented because it may be non-pure and thus unsafe for use with JIT "
        "and other JAX transformations. Consider using jnp.asarray(np.fromfile(...)) instead."
    )


def from_dlpack(x: object, /, *, device: "xla.DeviceOrSharding | None" = None, copy: bool | None = None) -> Array:
    """An array from an object implementing the DLPack protocol on the host
    (a NumPy array, a CPU tensor of another library), copied, and placed on
    ``device`` (a device or a sharding) when one is given."""
    if isinstance(x, ArrayImpl):
        out = array_from_numpy(np.asarray(x), weak_type=x.weak_type, where="jnp.from_dlpack")  # our own arrays: a copy
    elif not hasattr(x, "__dlpack__"):
        raise JaxtypedTypeError(f"jnp.from_dlpack: {type(x).__name__} does not implement the DLPack protocol (__dlpack__)")
    else:
        try:
            host = np.from_dlpack(x)  # pyright: ignore[reportArgumentType]  # checked above: x has __dlpack__
        except (BufferError, RuntimeError, TypeError) as err:
            raise JaxtypedNotImplementedError(f"jnp.from_dlpack: only host (CPU) DLPack tensors are supported: {err}") from None
        out = array_from_numpy(host, where="jnp.from_dlpack")
    return on_device(out, device)


def _window_arg(name: str, M: int) -> int:  # noqa: N803 - NumPy's name
    return index_arg(M, f"jnp.{name}: M")


def _window(name: str, M: int, points: Callable[[int, np.dtype[Any]], Array]) -> Array:  # noqa: N803
    """An ``M``-point window in the default float dtype: empty for ``M < 1``,
    ``[1.]`` for ``M == 1``, else ``points(M, dtype)``."""
    size = _window_arg(name, M)
    target = dtypes.default_float_dtype()
    if size < 1:
        return array_from_numpy(np.zeros((0,), target))
    if size == 1:
        return full_like_aval(ShapedArray((1,), target), 1)
    return points(size, target)


def _odd_offsets(name: str, size: int, target: np.dtype[Any]) -> Array:
    """``1 - M, 3 - M, ..., M - 1``: twice each point's offset from the
    window's centre."""
    iota = broadcasted_iota(target, (size,), 0)
    return la.add(la.mul(iota, scalar_like(2.0, target, name)), scalar_like(1.0 - size, target, name))


def _cosine_window(name: str, M: int, coefficients: Sequence[float]) -> Array:  # noqa: N803
    """``sum_k c_k cos(k pi n / (M - 1))`` for ``n = 1 - M, 3 - M, ..., M - 1``."""

    def points(size: int, target: np.dtype[Any]) -> Array:
        angle = la.mul(_odd_offsets(name, size, target), scalar_like(np.pi / (size - 1), target, name))
        result = full_like_aval(ShapedArray((size,), target), coefficients[0])
        for k, c in enumerate(coefficients[1:], start=1):
            term = la.mul(scalar_like(c, target, name), lt.cos(la.mul(angle, scalar_like(float(k), target, name))))
            result = la.add(result, term)
        return result

    return _window(name, M, points)


def bartlett(M: int) -> Array:  # noqa: N803 - NumPy's name
    """The Bartlett (triangular) window of ``M`` points."""

    def points(size: int, target: np.dtype[Any]) -> Array:
        ratio = la.div(la.abs(_odd_offsets("bartlett", size, target)), scalar_like(float(size - 1), target, "bartlett"))
        return la.sub(scalar_like(1.0, target, "bartlett"), ratio)

    return _window("bartlett", M, points)


def blackman(M: int) -> Array:  # noqa: N803 - NumPy's name
    """The Blackman window of ``M`` points."""
    return _cosine_window("blackman", M, (0.42, 0.5, 0.08))


def hamming(M: int) -> Array:  # noqa: N803 - NumPy's name
    """The Hamming window of ``M`` points."""
    return _cosine_window("hamming", M, (0.54, 0.46))


def hanning(M: int) -> Array:  # noqa: N803 - NumPy's name
    """The Hann window of ``M`` points."""
    return _cosine_window("hanning", M, (0.5, 0.5))


def _scaled_i0_ratio(x: Array, b: Array) -> Array:
    """``I0(x) / I0(b)`` from the exponentially scaled ``I0e`` primitive
    (``I0(x) = exp(|x|) I0e(x)``), so large ``beta`` neither overflows nor
    loses precision."""
    exponent = lt.exp(la.sub(la.abs(x), la.abs(b)))
    return la.mul(exponent, la.div(bessel_i0e(x), bessel_i0e(b)))


def kaiser(M: int, beta: ArrayLike) -> Array:  # noqa: N803 - NumPy's name
    """The Kaiser window of ``M`` points with shape parameter ``beta``."""

    def points(size: int, target: np.dtype[Any]) -> Array:
        b = convert_to(array(beta), target, weak_type=False)
        alpha = (size - 1) / 2.0
        n = la.div(la.sub(broadcasted_iota(target, (size,), 0), scalar_like(alpha, target, "kaiser")), scalar_like(alpha, target, "kaiser"))
        radial = lt.sqrt(la.max(la.sub(scalar_like(1.0, target, "kaiser"), la.mul(n, n)), scalar_like(0.0, target, "kaiser")))
        argument = la.mul(broadcast_in_dim(b, (size,), ()), radial)
        return _scaled_i0_ratio(argument, broadcast_in_dim(b, (size,), ()))

    return _window("kaiser", M, points)
