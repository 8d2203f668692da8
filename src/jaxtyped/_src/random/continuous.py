"""The basic continuous distributions of ``jaxtyped.random`` (and the coin
flips built on ``uniform``): ``uniform``, ``normal``, ``truncated_normal``,
``exponential``, ``laplace``, ``logistic``, ``gumbel``, ``cauchy``,
``bernoulli`` and ``rademacher``.

Every sample is bit-exact with JAX 0.10.2 for the same key. The samplers
follow JAX's documented algorithms operation by operation (a uniform
``[1, 2)`` float built from the key's random bits, then inverse-CDF
transforms), and each runs under ``jit`` with static shape and dtype even
when called eagerly, as JAX's do: XLA then computes the transcendental
functions and contracts ``u * (maxval - minval) + minval`` into one fused
multiply-add for both libraries, so eager, jitted and vmapped results agree
bit for bit.
"""

import math
from typing import Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api_jit import jit
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, ShapeMismatchError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import special as ls
from jaxtyped._src.lax import transcendental as lt
from jaxtyped._src.lax.bitwise_misc import bitcast_convert_type
from jaxtyped._src.lax.convenience import broadcast_to_rank, index_in_dim
from jaxtyped._src.lax.elementwise_base import convert_element_type
from jaxtyped._src.lax.elementwise_extra import nextafter
from jaxtyped._src.lax.structural import select_n
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.promotion import broadcast_shapes
from jaxtyped._src.random.keys import KeyArray, KeyArrayLike, canonical_shape, check_single_key, random_bits, split

__all__ = [
    "uniform", "normal", "truncated_normal", "exponential", "laplace", "logistic", "gumbel", "cauchy",
    "bernoulli", "rademacher",
    "sampler_float_dtype", "check_no_sharding", "param_as", "result_shape", "shape_of", "constant", "split_in_two",
    "uniform_impl", "normal_impl", "normal_real_impl", "exponential_impl", "bernoulli_impl", "rademacher_impl",
]  # fmt: skip

DType = np.dtype[Any]
Shape = tuple[int, ...]

# The unsigned integer of each float width: the uniform's bit pattern.
_UINT_OF_WIDTH: dict[int, DType] = {
    8: np.dtype(np.uint8), 16: np.dtype(np.uint16), 32: np.dtype(np.uint32), 64: np.dtype(np.uint64),
}  # fmt: skip


# === argument checks shared by the continuous samplers ===


def sampler_float_dtype(fun_name: str, dtype: dtypes.DTypeLike | None, *, complex_ok: bool = False) -> DType:
    """The canonical dtype a sampler returns (the default float for
    ``None``), or JAX's ValueError for a dtype the sampler cannot draw."""
    chosen = dtypes.canonicalize_dtype(float if dtype is None else dtype)
    if dtypes.is_floating(chosen) or (complex_ok and dtypes.is_complex(chosen)):
        return chosen
    kind = "a float or complex dtype" if complex_ok else "a float dtype"
    raise JaxtypedValueError(f"dtype argument to `{fun_name}` must be {kind}, got {chosen}")


def check_no_sharding(fun_name: str, out_sharding: None) -> None:
    """``out_sharding`` is in JAX's signatures; one device: only ``None``
    (a TypeError otherwise, JAX's kind for a value that is no sharding)."""
    if out_sharding is not None:
        raise JaxtypedTypeError(f"random.{fun_name}: out_sharding is not supported (one device); pass None")


def shape_of(x: ArrayLike) -> Shape:
    """The shape of an array-like parameter (``()`` for a Python scalar)."""
    return tuple(x.shape) if isinstance(x, (Array, np.ndarray, np.generic)) else ()


def _broadcast_or_value_error(fun_name: str, shapes: list[Shape]) -> Shape:
    # JAX reports incompatible parameter shapes as a ValueError.
    try:
        return broadcast_shapes(fun_name, *shapes)
    except ShapeMismatchError:
        raise JaxtypedValueError(f"{fun_name}: incompatible shapes for broadcasting: {shapes}") from None


def result_shape(fun_name: str, shape: ShapeLike | None, *params: ArrayLike) -> Shape:
    """A sampler's output shape: ``shape`` when given (the parameters must
    broadcast to exactly it, JAX's ValueError otherwise), else the
    parameters' broadcast shape."""
    param_shapes = [shape_of(p) for p in params]
    if shape is None:
        return _broadcast_or_value_error(fun_name, param_shapes)
    result = canonical_shape(fun_name, shape)
    if param_shapes:
        joint = _broadcast_or_value_error(fun_name, [result, *param_shapes])
        if joint != result:
            raise JaxtypedValueError(
                f"{fun_name}: parameter shapes {param_shapes} broadcast with the shape argument {result} to "
                f"{joint}, which is not the shape argument"
            )
    return result


def param_as(x: ArrayLike, dtype: DType) -> Array:
    """A distribution parameter converted to the sample dtype."""
    return convert_element_type(x, dtype)


def constant(value: float, dtype: DType) -> Array:
    """A strongly typed scalar of ``dtype``."""
    return scalar_like(value, dtype, "jaxtyped.random", weak_type=False)


def split_in_two(key: KeyArray) -> tuple[KeyArray, KeyArray]:
    """Two typed keys from one (JAX's ``split(key)`` then unpacking)."""
    keys = split(key)
    return check_single_key("split", keys[0]), check_single_key("split", keys[1])


# === uniform ===


def _unit_floats(key: KeyArray, shape: Shape, dtype: DType) -> Array:
    """Uniform floats in ``[0, 1)``: random mantissa bits under the exponent
    of 1.0 give a float in ``[1, 2)``, minus one. Types with fewer than 8
    mantissa bits (bfloat16) draw 8 random bits, widened."""
    info = dtypes.finfo(dtype)
    nbits, nmant = int(info.bits), int(info.nmant)
    uint_dtype = _UINT_OF_WIDTH[nbits]
    drawn_bits = 8 if nmant < 8 else nbits
    bits = random_bits(key, drawn_bits, shape)
    if drawn_bits != nbits:
        bits = convert_element_type(bits, uint_dtype)
    one_bits = np.array(1.0, dtype).view(uint_dtype)
    # Keep the top ``nmant`` of the drawn bits as the mantissa.
    shift = scalar_like(drawn_bits - nmant, uint_dtype, "uniform", weak_type=False)
    shifted = lcmp.shift_right_logical(bits, shift)
    mantissa = lcmp.bitwise_or(shifted, scalar_like(int(one_bits), uint_dtype, "uniform", weak_type=False))
    return la.sub(bitcast_convert_type(mantissa, dtype), constant(1.0, dtype))


def uniform_impl(key: KeyArray, shape: Shape, dtype: DType, minval: ArrayLike, maxval: ArrayLike) -> Array:
    """``uniform``'s samples (unjitted: for use inside other samplers)."""
    low = broadcast_to_rank(param_as(minval, dtype), len(shape))
    high = broadcast_to_rank(param_as(maxval, dtype), len(shape))
    floats = _unit_floats(key, shape, dtype)
    # ``max`` keeps rounding from taking a sample below ``minval``.
    return ju.maximum(low, ju.add(ju.multiply(floats, ju.subtract(high, low)), low))


_uniform = jit(uniform_impl, static_argnums=(1, 2))


def _check_bounds_shape(shape: Shape, *bounds: ArrayLike) -> None:
    for bound in bounds:
        bound_shape = shape_of(bound)
        if len(bound_shape) > len(shape) or broadcast_shapes("uniform", shape, bound_shape) != shape:
            raise JaxtypedTypeError(
                f"uniform: minval/maxval of shape {bound_shape} do not broadcast to the shape argument {shape}"
            )


def uniform(
    key: KeyArrayLike,
    shape: ShapeLike = (),
    dtype: dtypes.DTypeLike | None = None,
    minval: ArrayLike = 0.0,
    maxval: ArrayLike = 1.0,
    *,
    out_sharding: None = None,
) -> Array:
    """Uniform samples in ``[minval, maxval)`` (JAX's ``jax.random.uniform``);
    ``minval > maxval`` is not checked, as in JAX."""
    check_no_sharding("uniform", out_sharding)
    typed_key = check_single_key("uniform", key)
    out_dtype = sampler_float_dtype("uniform", dtype)
    out_shape = canonical_shape("uniform", shape)
    _check_bounds_shape(out_shape, minval, maxval)
    return _uniform(typed_key, out_shape, out_dtype, minval, maxval)


# === normal ===


def normal_real_impl(key: KeyArray, shape: Shape, dtype: DType) -> Array:
    """Standard normal floats: ``sqrt(2) * erf_inv(u)`` for ``u`` uniform in
    ``(-1, 1)`` (the lower end nudged up one ulp, off ``erf_inv(-1)``)."""
    low = np.nextafter(np.array(-1.0, dtype), np.array(0.0, dtype))
    u = uniform_impl(key, shape, dtype, constant(float(low), dtype), constant(1.0, dtype))
    return la.mul(constant(math.sqrt(2), dtype), ls.erf_inv(u))


def normal_impl(key: KeyArray, shape: Shape, dtype: DType) -> Array:
    """``normal``'s samples; complex ones have independent real and
    imaginary parts of variance 1/2 each."""
    if not dtypes.is_complex(dtype):
        return normal_real_impl(key, shape, dtype)
    real_dtype = dtypes.finfo(dtype).dtype
    re_key, im_key = split_in_two(key)
    re = convert_element_type(normal_real_impl(re_key, shape, real_dtype), dtype)
    im = convert_element_type(normal_real_impl(im_key, shape, real_dtype), dtype)
    rotated = la.mul(scalar_like(1j, dtype, "normal", weak_type=False), im)
    return la.div(la.add(re, rotated), scalar_like(complex(math.sqrt(2)), dtype, "normal", weak_type=False))


_normal = jit(normal_impl, static_argnums=(1, 2))


def normal(
    key: KeyArrayLike,
    shape: ShapeLike = (),
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Standard normal samples (JAX's ``jax.random.normal``); complex dtypes
    give circularly-symmetric complex normals."""
    check_no_sharding("normal", out_sharding)
    typed_key = check_single_key("normal", key)
    out_dtype = sampler_float_dtype("normal", dtype, complex_ok=True)
    return _normal(typed_key, canonical_shape("normal", shape), out_dtype)


# === truncated_normal ===


def _truncated_normal_impl(key: KeyArray, lower: ArrayLike, upper: ArrayLike, shape: Shape, dtype: DType) -> Array:
    sqrt2 = constant(math.sqrt(2), dtype)
    low, high = param_as(lower, dtype), param_as(upper, dtype)
    # Inverse CDF of the normal restricted to the erf image of the bounds.
    a = lt.erf(ju.divide(low, sqrt2))
    b = lt.erf(ju.divide(high, sqrt2))
    u = uniform_impl(key, shape, dtype, a, b)
    out = la.mul(sqrt2, ls.erf_inv(u))
    # Rounding can land on a bound: clip to the open interval.
    floor = nextafter(la.stop_gradient(low), constant(math.inf, dtype))
    ceiling = nextafter(la.stop_gradient(high), constant(-math.inf, dtype))
    return ju.minimum(ceiling, ju.maximum(floor, out))


_truncated_normal = jit(_truncated_normal_impl, static_argnums=(3, 4))


def truncated_normal(
    key: KeyArrayLike,
    lower: ArrayLike,
    upper: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Standard normal samples truncated to ``(lower, upper)`` (JAX's
    ``jax.random.truncated_normal``); differentiable in the bounds."""
    check_no_sharding("truncated_normal", out_sharding)
    typed_key = check_single_key("truncated_normal", key)
    out_dtype = sampler_float_dtype("truncated_normal", dtype)
    out_shape = result_shape("truncated_normal", shape, lower, upper)
    return _truncated_normal(typed_key, lower, upper, out_shape, out_dtype)


# === exponential, laplace, logistic, cauchy ===


def exponential_impl(key: KeyArray, shape: Shape, dtype: DType) -> Array:
    """Unit-rate exponential samples: ``-log1p(-u)``."""
    u = uniform_impl(key, shape, dtype, constant(0.0, dtype), constant(1.0, dtype))
    return la.neg(lt.log1p(la.neg(u)))


_exponential = jit(exponential_impl, static_argnums=(1, 2))


def exponential(
    key: KeyArrayLike,
    shape: ShapeLike = (),
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Unit-rate exponential samples (JAX's ``jax.random.exponential``)."""
    check_no_sharding("exponential", out_sharding)
    typed_key = check_single_key("exponential", key)
    out_dtype = sampler_float_dtype("exponential", dtype)
    return _exponential(typed_key, canonical_shape("exponential", shape), out_dtype)


def _laplace_impl(key: KeyArray, shape: Shape, dtype: DType) -> Array:
    low = np.nextafter(np.array(-1.0, dtype), np.array(0.0, dtype))
    u = uniform_impl(key, shape, dtype, constant(float(low), dtype), constant(1.0, dtype))
    return la.mul(la.sign(u), lt.log1p(la.neg(la.abs(u))))


_laplace = jit(_laplace_impl, static_argnums=(1, 2))


def laplace(
    key: KeyArrayLike,
    shape: ShapeLike = (),
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Standard Laplace samples (JAX's ``jax.random.laplace``)."""
    check_no_sharding("laplace", out_sharding)
    typed_key = check_single_key("laplace", key)
    out_dtype = sampler_float_dtype("laplace", dtype)
    return _laplace(typed_key, canonical_shape("laplace", shape), out_dtype)


def _logistic_impl(key: KeyArray, shape: Shape, dtype: DType) -> Array:
    tiny = float(dtypes.finfo(dtype).tiny)
    u = uniform_impl(key, shape, dtype, constant(tiny, dtype), constant(1.0, dtype))
    return la.sub(lt.log(u), lt.log1p(la.neg(u)))


_logistic = jit(_logistic_impl, static_argnums=(1, 2))


def logistic(
    key: KeyArrayLike,
    shape: ShapeLike = (),
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Standard logistic samples (JAX's ``jax.random.logistic``)."""
    check_no_sharding("logistic", out_sharding)
    typed_key = check_single_key("logistic", key)
    out_dtype = sampler_float_dtype("logistic", dtype)
    return _logistic(typed_key, canonical_shape("logistic", shape), out_dtype)


def _cauchy_impl(key: KeyArray, shape: Shape, dtype: DType) -> Array:
    eps = float(dtypes.finfo(dtype).eps)
    u = uniform_impl(key, shape, dtype, constant(eps, dtype), constant(1.0, dtype))
    return lt.tan(la.mul(constant(math.pi, dtype), la.sub(u, constant(0.5, dtype))))


_cauchy = jit(_cauchy_impl, static_argnums=(1, 2))


def cauchy(
    key: KeyArrayLike,
    shape: ShapeLike = (),
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Standard Cauchy samples (JAX's ``jax.random.cauchy``)."""
    check_no_sharding("cauchy", out_sharding)
    typed_key = check_single_key("cauchy", key)
    out_dtype = sampler_float_dtype("cauchy", dtype)
    return _cauchy(typed_key, canonical_shape("cauchy", shape), out_dtype)


# === gumbel ===

def _gumbel_impl(key: KeyArray, shape: Shape, dtype: DType, mode: str) -> Array:
    info = dtypes.finfo(dtype)
    tiny, eps = float(info.tiny), float(info.eps)
    if mode == "high":
        # Two uniforms: the second fills in the low bits of small first
        # draws, so the far tail (u near 0) is resolved finely.
        pair = uniform_impl(key, (2, *shape), dtype, constant(0.0, dtype), constant(1.0, dtype))
        u1 = index_in_dim(pair, 0, keepdims=False)
        u2 = index_in_dim(pair, 1, keepdims=False)
        refined = la.add(la.add(u1, la.mul(constant(eps, dtype), u2)), constant(tiny, dtype))
        u = select_n(lcmp.ge(u1, constant(0.5, dtype)), refined, u1)
        return la.neg(lt.log(la.neg(lt.log1p(la.neg(u)))))
    u = uniform_impl(key, shape, dtype, constant(tiny, dtype), constant(1.0, dtype))
    return la.neg(lt.log(la.neg(lt.log(u))))


_gumbel = jit(_gumbel_impl, static_argnums=(1, 2, 3))


def gumbel(
    key: KeyArrayLike, shape: ShapeLike = (), dtype: dtypes.DTypeLike | None = None, mode: str | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Standard Gumbel samples (JAX's ``jax.random.gumbel``); ``mode="high"``
    draws twice the bits for accuracy in the tail."""
    check_no_sharding("gumbel", out_sharding)
    typed_key = check_single_key("gumbel", key)
    if mode is None:
        mode = "low"
    if mode not in ("low", "high"):
        raise JaxtypedValueError(f"Must provide valid mode for gumbel got: {mode}")
    out_dtype = sampler_float_dtype("gumbel", dtype)
    return _gumbel(typed_key, canonical_shape("gumbel", shape), out_dtype, mode)


# === bernoulli, rademacher ===


def bernoulli_impl(key: KeyArray, p: Array, shape: Shape, mode: str) -> Array:
    """Booleans true with probability ``p`` (``u < p`` for ``u`` uniform in
    ``p``'s dtype; ``mode="high"`` compares ``eps * u2 < p - u1``, which
    resolves probabilities below one ulp of 1.0)."""
    dtype = p.dtype
    if mode == "high":
        pair = uniform_impl(key, (2, *shape), dtype, constant(0.0, dtype), constant(1.0, dtype))
        u1 = index_in_dim(pair, 0, keepdims=False)
        u2 = index_in_dim(pair, 1, keepdims=False)
        eps = float(dtypes.finfo(dtype).eps)
        return ju.less(la.mul(u2, constant(eps, dtype)), ju.subtract(p, u1))
    u = uniform_impl(key, shape, dtype, constant(0.0, dtype), constant(1.0, dtype))
    return ju.less(u, p)


_bernoulli = jit(bernoulli_impl, static_argnums=(2, 3))


def bernoulli(
    key: KeyArrayLike,
    p: ArrayLike = 0.5,
    shape: ShapeLike | None = None,
    mode: str = "low",
    *,
    out_sharding: None = None,
) -> Array:
    """Booleans that are true with probability ``p`` (JAX's
    ``jax.random.bernoulli``); ``p`` must be a float, its dtype is the
    uniforms' dtype."""
    check_no_sharding("bernoulli", out_sharding)
    typed_key = check_single_key("bernoulli", key)
    if mode not in ("low", "high"):
        raise JaxtypedValueError(f"got mode={mode!r}, expected 'high' or 'low'")
    prob = asarray(p)
    if not dtypes.is_floating(prob.dtype):
        raise JaxtypedTypeError(f"bernoulli probability `p` must have a floating dtype, got {prob.dtype}.")
    out_shape = result_shape("bernoulli", shape, prob)
    return _bernoulli(typed_key, prob, out_shape, mode)


def rademacher_impl(key: KeyArray, shape: Shape, dtype: DType) -> Array:
    """``rademacher``'s samples: fair coin flips as ``2 * flip - 1`` in ``dtype``."""
    half = constant(0.5, dtypes.default_float_dtype())
    flips = convert_element_type(bernoulli_impl(key, half, shape, "low"), dtype)
    return convert_element_type(ju.subtract(ju.multiply(2, flips), 1), dtype)


_rademacher = jit(rademacher_impl, static_argnums=(1, 2))


def rademacher(
    key: KeyArrayLike,
    shape: ShapeLike = (),
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Samples of -1 or +1 with equal probability (JAX's
    ``jax.random.rademacher``; integers by default)."""
    check_no_sharding("rademacher", out_sharding)
    typed_key = check_single_key("rademacher", key)
    out_dtype = dtypes.canonicalize_dtype(int if dtype is None else dtype)
    return _rademacher(typed_key, canonical_shape("rademacher", shape), out_dtype)
