"""Weight initializers of ``jaxtyped.nn.initializers`` (layer L5), JAX's
``jax.nn.initializers``: the same draws from ``jaxtyped.random`` followed by
the same arithmetic in the same order, so that for one key, shape and dtype
the weights are JAX's bit for bit.

Every builder returns an :class:`Initializer`, a function
``init(key, shape, dtype=..., out_sharding=None) -> Array``; ``zeros`` and
``ones`` are initializers themselves. Errors are raised when the initializer
is called, as in JAX (a bad ``mode`` included).
"""

import math
from collections.abc import Sequence
from typing import Any, Literal, Protocol, runtime_checkable

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api_jit import jit
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.errors import JaxtypedIndexError, JaxtypedTypeError, JaxtypedValueError, JaxtypedZeroDivisionError
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import array, full, zeros as jnp_zeros, ones as jnp_ones
from jaxtyped._src.numpy.shape_ops import moveaxis, reshape
from jaxtyped._src.random.continuous import normal as random_normal
from jaxtyped._src.random.continuous import truncated_normal as random_truncated_normal
from jaxtyped._src.random.continuous import uniform as random_uniform
from jaxtyped._src.random.keys import KeyArrayLike, canonical_shape, split
from jaxtyped._src.random.multivariate import orthogonal as random_orthogonal

__all__ = [
    "Initializer", "constant", "zeros", "ones", "uniform", "normal", "truncated_normal", "variance_scaling",
    "glorot_uniform", "glorot_normal", "xavier_uniform", "xavier_normal", "lecun_uniform", "lecun_normal",
    "he_uniform", "he_normal", "kaiming_uniform", "kaiming_normal", "orthogonal", "delta_orthogonal",
]  # fmt: skip

Axes = int | Sequence[int]
FanMode = Literal["fan_in", "fan_out", "fan_avg", "fan_geo_avg"]
Distribution = Literal["truncated_normal", "normal", "uniform"]

# Standard deviations of a unit normal truncated to (-2, 2), and of a unit
# complex normal whose modulus is truncated to 2: dividing by them makes the
# truncated draws have the requested variance.
_TRUNCATED_STDDEV = 0.87962566103423978
_COMPLEX_TRUNCATED_STDDEV = 0.95311164380491208

# Complex log/exp/sqrt through XLA one operation at a time, as JAX runs them
# eagerly: NumPy's complex log rounds differently from XLA's. Under a trace
# these are nested jits that XLA inlines.
_xla_log = jit(ju.log)
_xla_exp = jit(ju.exp)
_xla_sqrt = jit(ju.sqrt)


@runtime_checkable
class Initializer(Protocol):
    """What the builders of :mod:`jaxtyped.nn.initializers` return:
    ``init(key, shape, dtype=None, out_sharding=None) -> Array``."""

    def __call__(
        self, key: KeyArrayLike, shape: ShapeLike, dtype: dtypes.DTypeLike | None = None, out_sharding: None = None
    ) -> Array:
        """Weights of ``shape`` and ``dtype`` drawn with ``key``."""
        ...


def _resolved(dtype: dtypes.DTypeLike | None) -> dtypes.DTypeLike:
    return dtypes.default_float_dtype() if dtype is None else dtype


def _no_sharding(name: str, out_sharding: None) -> None:
    if out_sharding is not None:
        raise JaxtypedValueError(f"nn.initializers.{name}: out_sharding is not supported (one device); pass None")


def zeros(key: KeyArrayLike, shape: ShapeLike, dtype: dtypes.DTypeLike | None = None, out_sharding: None = None) -> Array:
    """An initializer of zeros (``key`` is ignored; default dtype: float)."""
    _no_sharding("zeros", out_sharding)
    return jnp_zeros(shape, _resolved(dtype))


def ones(key: KeyArrayLike, shape: ShapeLike, dtype: dtypes.DTypeLike | None = None, out_sharding: None = None) -> Array:
    """An initializer of ones (``key`` is ignored; default dtype: float)."""
    _no_sharding("ones", out_sharding)
    return jnp_ones(shape, _resolved(dtype))


def constant(value: ArrayLike, dtype: dtypes.DTypeLike | None = None) -> Initializer:
    """An initializer of arrays full of ``value`` (broadcast to the shape)."""

    def init(
        key: KeyArrayLike, shape: ShapeLike, dtype: dtypes.DTypeLike | None = dtype, out_sharding: None = None
    ) -> Array:
        _no_sharding("constant", out_sharding)
        return full(shape, value, _resolved(dtype))

    return init


def uniform(scale: ArrayLike = 1e-2, dtype: dtypes.DTypeLike | None = None) -> Initializer:
    """An initializer of values uniform in ``[0, scale)``."""

    def init(
        key: KeyArrayLike, shape: ShapeLike, dtype: dtypes.DTypeLike | None = dtype, out_sharding: None = None
    ) -> Array:
        _no_sharding("uniform", out_sharding)
        target = _resolved(dtype)
        return ju.multiply(random_uniform(key, shape, target), array(scale, target))

    return init


def normal(stddev: ArrayLike = 1e-2, dtype: dtypes.DTypeLike | None = None) -> Initializer:
    """An initializer of normal values with mean 0 and standard deviation ``stddev``."""

    def init(
        key: KeyArrayLike, shape: ShapeLike, dtype: dtypes.DTypeLike | None = dtype, out_sharding: None = None
    ) -> Array:
        _no_sharding("normal", out_sharding)
        target = _resolved(dtype)
        return ju.multiply(random_normal(key, shape, target), array(stddev, target))

    return init


def truncated_normal(
    stddev: ArrayLike = 1e-2, dtype: dtypes.DTypeLike | None = None, lower: ArrayLike = -2.0, upper: ArrayLike = 2.0
) -> Initializer:
    """An initializer of normal values truncated to ``(lower, upper)`` and
    then scaled by ``stddev`` (no variance correction, as in JAX)."""

    def init(
        key: KeyArrayLike, shape: ShapeLike, dtype: dtypes.DTypeLike | None = dtype, out_sharding: None = None
    ) -> Array:
        _no_sharding("truncated_normal", out_sharding)
        target = _resolved(dtype)
        return ju.multiply(random_truncated_normal(key, lower, upper, shape, target), array(stddev, target))

    return init


# === variance scaling and its named special cases ===


def _axis_size(name: str, shape: tuple[int, ...], axes: Axes) -> int:
    """The size of one axis, or the product over several, with an IndexError
    naming the argument when an axis is out of range (JAX's tuple indexing)."""
    picked = (axes,) if isinstance(axes, int) else tuple(axes)
    for axis in picked:
        if not -len(shape) <= axis < len(shape):
            raise JaxtypedIndexError(f"nn.initializers.variance_scaling: {name}={axes!r} is out of range for a weights shape {shape}")
    return math.prod(shape[axis] for axis in picked)


def compute_fans(shape: tuple[int, ...], in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = ()) -> tuple[float, float]:
    """``(fan_in, fan_out)`` of a weights shape: the input and output sizes
    times the receptive field (the axes in none of the three arguments)."""
    if isinstance(in_axis, int) and in_axis == -2 and len(shape) <= 1:
        raise JaxtypedValueError(
            f"nn.initializers.variance_scaling: can't compute input and output sizes of a {len(shape)}-dimensional weights "
            "tensor with the default in_axis; it must be at least 2D, or pass in_axis explicitly"
        )
    in_size = _axis_size("in_axis", shape, in_axis)
    out_size = _axis_size("out_axis", shape, out_axis)
    batch_size = _axis_size("batch_axis", shape, batch_axis)
    if 0 in (in_size, out_size, batch_size):
        raise JaxtypedZeroDivisionError(
            f"nn.initializers.variance_scaling: the fans of a weights shape {shape} with a zero-sized in, out or batch axis "
            "divide by zero"
        )
    # Float divisions in this order, as JAX's, so the fans round alike.
    receptive_field = math.prod(shape) / in_size / out_size / batch_size
    return in_size * receptive_field, out_size * receptive_field


def _fan_denominator(mode: str, fan_in: float, fan_out: float) -> float:
    if mode == "fan_in":
        return fan_in
    if mode == "fan_out":
        return fan_out
    if mode == "fan_avg":
        return (fan_in + fan_out) / 2
    if mode == "fan_geo_avg":
        return float((fan_in * fan_out) ** 0.5)
    raise JaxtypedValueError(
        f"nn.initializers.variance_scaling: invalid mode {mode!r}; expected 'fan_in', 'fan_out', 'fan_avg' or 'fan_geo_avg'"
    )


def _scale_over(scale: ArrayLike, denominator: float) -> ArrayLike:
    # A Python or NumPy scale divides in double precision before the cast
    # to the weights' dtype, as in JAX; an array scale divides as an array.
    if isinstance(scale, Array):
        return ju.divide(scale, denominator)
    quotient: ArrayLike = np.true_divide(scale, denominator)
    return quotient


def _complex_parts(dtype: dtypes.DTypeLike) -> tuple[np.dtype[Any], np.dtype[Any]]:
    """The real dtype whose draws build a complex sample, and that complex dtype."""
    requested = dtypes.dtype(dtype)
    real = np.finfo(requested).dtype if dtypes.is_complex(requested) else requested
    return real, np.dtype(np.complex128 if real == np.float64 else np.complex64)


def _unit_phase(key: KeyArrayLike, shape: tuple[int, ...], real: np.dtype[Any], complex_dtype: np.dtype[Any]) -> Array:
    theta = ju.multiply(2 * np.pi, random_uniform(key, shape, real).astype(complex_dtype))
    return _xla_exp(ju.multiply(1j, theta))


def _complex_uniform(key: KeyArrayLike, shape: tuple[int, ...], dtype: dtypes.DTypeLike) -> Array:
    """Uniform on the disk of radius sqrt(2): mean 0, variance 1."""
    key_r, key_theta = split(key)
    real, complex_dtype = _complex_parts(dtype)
    radius = ju.sqrt(ju.multiply(2, random_uniform(key_r, shape, real))).astype(complex_dtype)
    return ju.multiply(radius, _unit_phase(key_theta, shape, real, complex_dtype))


def _complex_truncated_normal(key: KeyArrayLike, upper: float, shape: tuple[int, ...], dtype: dtypes.DTypeLike) -> Array:
    """A centred complex normal of variance 1 whose modulus is truncated to
    ``upper``, by inverting the modulus' CDF."""
    key_r, key_theta = split(key)
    real, complex_dtype = _complex_parts(dtype)
    tail = ju.subtract(1, _xla_exp(array(-(upper**2), complex_dtype)))
    t = ju.multiply(tail, random_uniform(key_r, shape, real).astype(complex_dtype))
    radius = _xla_sqrt(ju.negative(_xla_log(ju.subtract(1, t))))
    return ju.multiply(radius, _unit_phase(key_theta, shape, real, complex_dtype))


def _variance_scaled(
    key: KeyArrayLike, shape: tuple[int, ...], dtype: dtypes.DTypeLike, variance: Array, distribution: str
) -> Array:
    floating = dtypes.issubdtype(dtype, np.floating)
    # A complex variance takes XLA's complex square root.
    root = ju.sqrt if floating else _xla_sqrt
    if distribution == "truncated_normal":
        if floating:
            stddev = ju.divide(root(variance), array(_TRUNCATED_STDDEV, dtype))
            return ju.multiply(random_truncated_normal(key, -2, 2, shape, dtype), stddev)
        stddev = ju.divide(root(variance), array(_COMPLEX_TRUNCATED_STDDEV, dtype))
        return ju.multiply(_complex_truncated_normal(key, 2.0, shape, dtype), stddev)
    if distribution == "normal":
        return ju.multiply(random_normal(key, shape, dtype), root(variance))
    if distribution == "uniform":
        if floating:
            return ju.multiply(random_uniform(key, shape, dtype, -1), ju.sqrt(ju.multiply(3, variance)))
        return ju.multiply(_complex_uniform(key, shape, dtype), root(variance))
    raise JaxtypedValueError(
        f"nn.initializers.variance_scaling: invalid distribution {distribution!r}; "
        "expected 'truncated_normal', 'normal' or 'uniform'"
    )


def variance_scaling(
    scale: ArrayLike,
    mode: FanMode,
    distribution: Distribution,
    in_axis: Axes = -2,
    out_axis: Axes = -1,
    batch_axis: Axes = (),
    dtype: dtypes.DTypeLike | None = None,
) -> Initializer:
    """An initializer whose draws have variance ``scale / n``, ``n`` the
    fan picked by ``mode`` (inputs, outputs, their mean or geometric mean);
    axes in none of ``in_axis``/``out_axis``/``batch_axis`` are a receptive
    field. ``truncated_normal`` truncates at two standard deviations before
    scaling; complex dtypes draw from a disk (``uniform``) or a truncated
    complex normal."""

    def init(
        key: KeyArrayLike, shape: ShapeLike, dtype: dtypes.DTypeLike | None = dtype, out_sharding: None = None
    ) -> Array:
        _no_sharding("variance_scaling", out_sharding)
        dims = canonical_shape("nn.initializers.variance_scaling", shape)
        target = _resolved(dtype)
        fan_in, fan_out = compute_fans(dims, in_axis, out_axis, batch_axis)
        denominator = _fan_denominator(mode, fan_in, fan_out)
        variance = array(_scale_over(scale, denominator), target)
        return _variance_scaled(key, dims, target, variance, distribution)

    return init


def glorot_uniform(in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: dtypes.DTypeLike | None = None) -> Initializer:
    """Glorot (Xavier) uniform: ``variance_scaling(1.0, "fan_avg", "uniform")``."""
    return variance_scaling(1.0, "fan_avg", "uniform", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


def glorot_normal(in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: dtypes.DTypeLike | None = None) -> Initializer:
    """Glorot (Xavier) normal: ``variance_scaling(1.0, "fan_avg", "truncated_normal")``."""
    return variance_scaling(
        1.0, "fan_avg", "truncated_normal", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype
    )


def lecun_uniform(in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: dtypes.DTypeLike | None = None) -> Initializer:
    """LeCun uniform: ``variance_scaling(1.0, "fan_in", "uniform")``."""
    return variance_scaling(1.0, "fan_in", "uniform", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


def lecun_normal(in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: dtypes.DTypeLike | None = None) -> Initializer:
    """LeCun normal: ``variance_scaling(1.0, "fan_in", "truncated_normal")``."""
    return variance_scaling(
        1.0, "fan_in", "truncated_normal", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype
    )


def he_uniform(in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: dtypes.DTypeLike | None = None) -> Initializer:
    """He (Kaiming) uniform: ``variance_scaling(2.0, "fan_in", "uniform")``."""
    return variance_scaling(2.0, "fan_in", "uniform", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype)


def he_normal(in_axis: Axes = -2, out_axis: Axes = -1, batch_axis: Axes = (), dtype: dtypes.DTypeLike | None = None) -> Initializer:
    """He (Kaiming) normal: ``variance_scaling(2.0, "fan_in", "truncated_normal")``."""
    return variance_scaling(
        2.0, "fan_in", "truncated_normal", in_axis=in_axis, out_axis=out_axis, batch_axis=batch_axis, dtype=dtype
    )


xavier_uniform = glorot_uniform
xavier_normal = glorot_normal
kaiming_uniform = he_uniform
kaiming_normal = he_normal


# === orthogonal weights ===


def _sequence_shape(name: str, shape: ShapeLike) -> tuple[int, ...]:
    # JAX's orthogonal initializers take len() of the shape: a bare int is a TypeError there.
    if not hasattr(shape, "__len__"):
        raise JaxtypedTypeError(f"nn.initializers.{name}: shape must be a sequence of ints, got {shape!r}")
    return canonical_shape(f"nn.initializers.{name}", shape)


def orthogonal(scale: ArrayLike = 1.0, column_axis: int = -1, dtype: dtypes.DTypeLike | None = None) -> Initializer:
    """An initializer of (scaled) uniformly distributed orthogonal matrices:
    the axis ``column_axis`` against all the others flattened; a non-square
    shape gets orthonormal rows or columns, whichever side is smaller."""

    def init(
        key: KeyArrayLike, shape: ShapeLike, dtype: dtypes.DTypeLike | None = dtype, out_sharding: None = None
    ) -> Array:
        _no_sharding("orthogonal", out_sharding)
        target = _resolved(dtype)
        dims = _sequence_shape("orthogonal", shape)
        if len(dims) < 2:
            raise JaxtypedValueError(f"nn.initializers.orthogonal: requires at least a 2D shape, got {dims}")
        if 0 in dims:  # before column_axis is looked at, as in JAX
            return jnp_zeros(dims, target)
        if not -len(dims) <= column_axis < len(dims):
            raise JaxtypedIndexError(f"nn.initializers.orthogonal: column_axis={column_axis} is out of range for shape {dims}")
        n_cols = dims[column_axis]
        n_rows = math.prod(dims) // n_cols
        rest = tuple(d for i, d in enumerate(dims) if i != column_axis % len(dims))
        q = random_orthogonal(key, n_rows, (), target, n_cols)
        q = moveaxis(reshape(q, (*rest, n_cols)), -1, column_axis)
        return ju.multiply(array(scale, target), q)

    return init


def delta_orthogonal(scale: ArrayLike = 1.0, column_axis: int = -1, dtype: dtypes.DTypeLike | None = None) -> Initializer:
    """An initializer of delta-orthogonal convolution kernels (3D, 4D or 5D
    shapes): zero except an orthogonal matrix at the spatial centre."""

    def init(
        key: KeyArrayLike, shape: ShapeLike, dtype: dtypes.DTypeLike | None = dtype, out_sharding: None = None
    ) -> Array:
        _no_sharding("delta_orthogonal", out_sharding)
        target = _resolved(dtype)
        dims = _sequence_shape("delta_orthogonal", shape)
        if len(dims) not in (3, 4, 5):
            raise JaxtypedValueError(f"nn.initializers.delta_orthogonal: requires a 3D, 4D or 5D shape, got {dims}")
        if dims[-1] < dims[-2]:
            raise JaxtypedValueError(
                f"nn.initializers.delta_orthogonal: fan_in ({dims[-2]}) must be less than or equal to fan_out ({dims[-1]})"
            )
        matrix = orthogonal(scale=scale, column_axis=column_axis, dtype=target)(key, dims[-2:])
        centre = tuple((k - 1) // 2 for k in dims[:-2])
        return jnp_zeros(dims, target).at[centre].set(matrix)

    return init
