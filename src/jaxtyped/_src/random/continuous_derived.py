"""Continuous distributions of ``jaxtyped.random`` derived from the basic
samplers of :mod:`.continuous`: ``pareto``, ``lognormal``, ``maxwell``,
``double_sided_maxwell``, ``weibull_min``, ``rayleigh``, ``wald``,
``triangular`` and ``generalized_normal``.

Bit-exact with JAX 0.10.2 for the same key: each is JAX's transform of the
same uniform/normal/exponential/gamma draws, written with the same
operations in the same order (XLA fuses them the same way), run under
``jit`` with static shape and dtype even when called eagerly. Parameters
follow JAX's rules: most are converted to the sample dtype (refusing a
narrowing cast, JAX's TypePromotionError); ``double_sided_maxwell``,
``weibull_min`` and ``generalized_normal`` combine them with NumPy-style
promotion, so a strongly typed float32 parameter widens a float16 sample.
All are differentiable in their parameters (reparameterised samples).
"""

from typing import Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api_jit import jit
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import transcendental as lt
from jaxtyped._src.lax.reductions import reduce_sum
from jaxtyped._src.lax.structural import select_n
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import broadcast_shapes, broadcast_to_shape
from jaxtyped._src.random.continuous import (
    check_no_sharding,
    constant,
    exponential_impl,
    normal_impl,
    param_as,
    rademacher_impl,
    result_shape,
    sampler_float_dtype,
    shape_of,
    split_in_two,
    uniform_impl,
)
from jaxtyped._src.random.gamma import check_safe_to_cast, gamma
from jaxtyped._src.random.keys import KeyArray, KeyArrayLike, canonical_shape, check_single_key

__all__ = [
    "pareto", "lognormal", "maxwell", "double_sided_maxwell", "weibull_min", "rayleigh", "wald", "triangular",
    "generalized_normal",
]  # fmt: skip

DType = np.dtype[Any]
Shape = tuple[int, ...]


def _unit_uniform(key: KeyArray, shape: Shape, dtype: DType) -> Array:
    return uniform_impl(key, shape, dtype, constant(0.0, dtype), constant(1.0, dtype))


def _param_of_shape(x: ArrayLike, dtype: DType, shape: Shape) -> Array:
    return broadcast_to_shape(param_as(x, dtype), shape)


# === pareto, lognormal ===


def _pareto_impl(key: KeyArray, b: ArrayLike, shape: Shape, dtype: DType) -> Array:
    return lt.exp(ju.divide(exponential_impl(key, shape, dtype), param_as(b, dtype)))


_pareto = jit(_pareto_impl, static_argnums=(2, 3))


def pareto(
    key: KeyArrayLike, b: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Pareto samples of shape parameter ``b`` and scale 1 (JAX's
    ``jax.random.pareto``): ``exp(E / b)`` for a unit exponential ``E``."""
    check_no_sharding("pareto", out_sharding)
    typed_key = check_single_key("pareto", key)
    out_dtype = sampler_float_dtype("pareto", dtype)
    check_safe_to_cast("pareto", out_dtype, b)
    return _pareto(typed_key, b, result_shape("pareto", shape, b), out_dtype)


def _lognormal_impl(key: KeyArray, sigma: ArrayLike, shape: Shape, dtype: DType) -> Array:
    return lt.exp(ju.multiply(normal_impl(key, shape, dtype), param_as(sigma, dtype)))


_lognormal = jit(_lognormal_impl, static_argnums=(2, 3))


def lognormal(
    key: KeyArrayLike,
    sigma: ArrayLike = np.float32(1.0),
    shape: ShapeLike | None = None,
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Log-normal samples, ``exp(sigma * N(0, 1))`` (JAX's
    ``jax.random.lognormal``)."""
    check_no_sharding("lognormal", out_sharding)
    typed_key = check_single_key("lognormal", key)
    out_dtype = sampler_float_dtype("lognormal", dtype)
    check_safe_to_cast("lognormal", out_dtype, sigma)
    return _lognormal(typed_key, sigma, result_shape("lognormal", shape, sigma), out_dtype)


# === maxwell, double_sided_maxwell ===


def _maxwell_impl(key: KeyArray, shape: Shape, dtype: DType) -> Array:
    # The length of a standard normal 3-vector.
    vectors = normal_impl(key, (*shape, 3), dtype)
    return lt.sqrt(reduce_sum(la.mul(vectors, vectors), (len(shape),)))


_maxwell = jit(_maxwell_impl, static_argnums=(1, 2))


def maxwell(
    key: KeyArrayLike,
    shape: ShapeLike = (),
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Maxwell-Boltzmann samples (JAX's ``jax.random.maxwell``): the norm of
    a standard normal 3-vector."""
    check_no_sharding("maxwell", out_sharding)
    typed_key = check_single_key("maxwell", key)
    out_dtype = sampler_float_dtype("maxwell", dtype)
    return _maxwell(typed_key, canonical_shape("maxwell", shape), out_dtype)


def _double_sided_maxwell_impl(key: KeyArray, loc: ArrayLike, scale: ArrayLike, shape: Shape, dtype: DType) -> Array:
    maxwell_key, sign_key = split_in_two(key)
    magnitudes = _maxwell_impl(maxwell_key, shape, dtype)
    signs = rademacher_impl(sign_key, shape, dtype)
    return ju.add(ju.multiply(ju.multiply(signs, magnitudes), scale), loc)


_double_sided_maxwell = jit(_double_sided_maxwell_impl, static_argnums=(3, 4))


def double_sided_maxwell(
    key: KeyArrayLike, loc: ArrayLike, scale: ArrayLike, shape: ShapeLike = (), dtype: dtypes.DTypeLike | None = None
) -> Array:
    """Double-sided Maxwell samples of location ``loc`` and scale ``scale``
    (JAX's ``jax.random.double_sided_maxwell``). As in JAX, the parameters'
    broadcast shape is appended to ``shape`` (and ``shape=()`` means that
    shape, so array parameters give ``params_shape * 2``)."""
    typed_key = check_single_key("double_sided_maxwell", key)
    out_dtype = sampler_float_dtype("double_sided_maxwell", dtype)
    params_shape = broadcast_shapes("double_sided_maxwell", shape_of(loc), shape_of(scale))
    base = canonical_shape("double_sided_maxwell", shape) or params_shape
    return _double_sided_maxwell(typed_key, loc, scale, (*base, *params_shape), out_dtype)


# === weibull_min, rayleigh ===


def _weibull_min_impl(key: KeyArray, scale: ArrayLike, concentration: ArrayLike, shape: Shape, dtype: DType) -> Array:
    u = _unit_uniform(key, shape, dtype)
    exponentials = la.neg(lt.log1p(la.neg(u)))
    return ju.multiply(ju.power(exponentials, ju.divide(1.0, concentration)), scale)


_weibull_min = jit(_weibull_min_impl, static_argnums=(3, 4))


def weibull_min(
    key: KeyArrayLike,
    scale: ArrayLike,
    concentration: ArrayLike,
    shape: ShapeLike = (),
    dtype: dtypes.DTypeLike | None = None,
) -> Array:
    """Weibull samples (JAX's ``jax.random.weibull_min``):
    ``scale * E ** (1 / concentration)`` for a unit exponential ``E``; the
    parameters broadcast with ``shape`` as NumPy arrays do."""
    typed_key = check_single_key("weibull_min", key)
    out_dtype = sampler_float_dtype("weibull_min", dtype)
    return _weibull_min(typed_key, scale, concentration, canonical_shape("weibull_min", shape), out_dtype)


def _rayleigh_impl(key: KeyArray, scale: ArrayLike, shape: Shape, dtype: DType) -> Array:
    u = _unit_uniform(key, shape, dtype)
    sigma = _param_of_shape(scale, dtype, shape)
    return la.mul(sigma, lt.sqrt(la.mul(lt.log(u), constant(-2.0, dtype))))


_rayleigh = jit(_rayleigh_impl, static_argnums=(2, 3))


def rayleigh(
    key: KeyArrayLike, scale: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Rayleigh samples of scale ``scale`` (JAX's ``jax.random.rayleigh``):
    ``scale * sqrt(-2 log u)``."""
    check_no_sharding("rayleigh", out_sharding)
    typed_key = check_single_key("rayleigh", key)
    out_dtype = sampler_float_dtype("rayleigh", dtype)
    check_safe_to_cast("rayleigh", out_dtype, scale)
    return _rayleigh(typed_key, scale, result_shape("rayleigh", shape, scale), out_dtype)


# === wald, triangular ===


def _wald_impl(key: KeyArray, mean: ArrayLike, shape: Shape, dtype: DType) -> Array:
    normal_key, accept_key = split_in_two(key)
    mu = _param_of_shape(mean, dtype, shape)
    v = normal_impl(normal_key, shape, dtype)
    z = _unit_uniform(accept_key, shape, dtype)
    # Michael, Schucany and Haas: the smaller root of the chi-square
    # transform, or mu^2 / root, chosen with probability mu / (mu + root).
    y = la.integer_pow(v, 2)
    y_sq = la.integer_pow(y, 2)
    mu_sq = la.integer_pow(mu, 2)
    sqrt_term = lt.sqrt(la.add(la.mul(la.mul(constant(4.0, dtype), mu), y), la.mul(mu_sq, y_sq)))
    two = constant(2.0, dtype)
    root = la.sub(la.add(mu, la.div(la.mul(mu_sq, y), two)), la.mul(la.div(mu, two), sqrt_term))
    accept = lcmp.le(z, la.div(mu, la.add(mu, root)))
    return select_n(accept, la.div(mu_sq, root), root)


_wald = jit(_wald_impl, static_argnums=(2, 3))


def wald(
    key: KeyArrayLike, mean: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Wald (inverse Gaussian) samples of mean ``mean`` and unit shape (JAX's
    ``jax.random.wald``)."""
    check_no_sharding("wald", out_sharding)
    typed_key = check_single_key("wald", key)
    out_dtype = sampler_float_dtype("wald", dtype)
    check_safe_to_cast("wald", out_dtype, mean)
    return _wald(typed_key, mean, result_shape("wald", shape, mean), out_dtype)


def _triangular_impl(
    key: KeyArray, left: ArrayLike, mode: ArrayLike, right: ArrayLike, shape: Shape, dtype: DType
) -> Array:
    a = _param_of_shape(left, dtype, shape)
    c = _param_of_shape(mode, dtype, shape)
    b = _param_of_shape(right, dtype, shape)
    # Inverse CDF, one branch on each side of the mode's CDF value.
    mode_cdf = la.div(la.sub(c, a), la.sub(b, a))
    u = _unit_uniform(key, shape, dtype)
    below = la.add(a, lt.sqrt(la.mul(la.mul(u, la.sub(b, a)), la.sub(c, a))))
    above = la.sub(b, lt.sqrt(la.mul(la.mul(la.sub(constant(1.0, dtype), u), la.sub(b, a)), la.sub(b, c))))
    return select_n(lcmp.lt(u, mode_cdf), above, below)


_triangular = jit(_triangular_impl, static_argnums=(4, 5))


def triangular(
    key: KeyArrayLike,
    left: ArrayLike,
    mode: ArrayLike,
    right: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Triangular samples on ``[left, right]`` peaking at ``mode`` (JAX's
    ``jax.random.triangular``)."""
    check_no_sharding("triangular", out_sharding)
    typed_key = check_single_key("triangular", key)
    out_dtype = sampler_float_dtype("triangular", dtype)
    check_safe_to_cast("triangular", out_dtype, left, mode, right)
    out_shape = result_shape("triangular", shape, left, mode, right)
    return _triangular(typed_key, left, mode, right, out_shape, out_dtype)


# === generalized_normal ===


def _generalized_normal_impl(key: KeyArray, p: ArrayLike, shape: Shape, dtype: DType) -> Array:
    gamma_key, sign_key = split_in_two(key)
    inverse_p = ju.divide(1.0, p)
    magnitudes = gamma(gamma_key, inverse_p, shape, dtype)
    signs = rademacher_impl(sign_key, shape, dtype)
    return ju.multiply(signs, ju.power(magnitudes, inverse_p))


_generalized_normal = jit(_generalized_normal_impl, static_argnums=(2, 3))


def generalized_normal(
    key: KeyArrayLike, p: ArrayLike, shape: ShapeLike = (), dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Generalized normal samples of shape parameter ``p`` (JAX's
    ``jax.random.generalized_normal``): density proportional to
    ``exp(-|x|**p)``; ``p=2`` is a normal of variance 1/2."""
    check_no_sharding("generalized_normal", out_sharding)
    typed_key = check_single_key("generalized_normal", key)
    out_dtype = sampler_float_dtype("generalized_normal", dtype)
    return _generalized_normal(typed_key, p, canonical_shape("generalized_normal", shape), out_dtype)
