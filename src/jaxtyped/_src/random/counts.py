"""Counting distributions of ``jaxtyped.random``: ``poisson``,
``binomial`` and ``geometric``, bit-exact with JAX 0.10.2.

The samplers are JAX's algorithms with JAX's key schedule and operation
order: Poisson by Knuth's product of uniforms for ``lam < 10`` and
Hormann's transformed rejection above; binomial by the geometric-gaps
inversion for ``n * min(p, 1 - p) <= 10`` and the BTRS transformed
rejection above. Both branches are computed for every element from the same
key and the right one selected, as JAX does, so each element's value does
not depend on its neighbours' branch. The expressions keep JAX's operand
order (Python operators, weakly typed constants) so that XLA contracts the
same multiply-adds.
"""

from typing import Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api_jit import jit
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import special as ls
from jaxtyped._src.lax.control_flow.loops import while_loop
from jaxtyped._src.lax.convenience import full_like, select
from jaxtyped._src.lax.elementwise_base import convert_element_type
from jaxtyped._src.lax.elementwise_extra import clamp
from jaxtyped._src.lax.util import strong_constant_like
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.creation import asarray, full, zeros_like
from jaxtyped._src.numpy.creation import full_like as jnp_full_like
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.numpy.shape_ops import broadcast_to
from jaxtyped._src.random.continuous import sampler_float_dtype, shape_of, uniform_impl
from jaxtyped._src.random.gamma import check_shape, nth_key, optional_shape, result_shape
from jaxtyped._src.random.keys import KeyArray, KeyArrayLike, canonical_shape, check_single_key, split

__all__ = ["poisson", "binomial", "geometric"]

_FLOAT32 = np.dtype(np.float32)


def _check_arraylike(fun_name: str, *args: object) -> None:
    for position, arg in enumerate(args):
        if not isinstance(arg, (Array, np.ndarray, np.generic, bool, int, float, complex)):
            raise JaxtypedTypeError(
                f"{fun_name} requires ndarray or scalar arguments, got {type(arg).__name__} at position {position}."
            )


# === poisson ===


def _poisson_knuth(key: KeyArray, lam: Array, shape: tuple[int, ...], dtype: np.dtype[Any], max_iters: np.generic) -> Array:
    """Count uniforms until their product falls below exp(-lam)."""

    def body(carry: tuple[Array, Array, KeyArray, Array]) -> tuple[Array, Array, KeyArray, Array]:
        i, k, rng, log_prod = carry
        keys = split(rng)
        k = select(log_prod > -lam, k + 1, k)
        u = uniform_impl(nth_key(keys, 1), shape, _FLOAT32, 0.0, 1.0)
        return i + 1, k, nth_key(keys, 0), log_prod + ju.log(u)

    def going(carry: tuple[Array, Array, KeyArray, Array]) -> Array:
        i, log_prod = carry[0], carry[3]
        return jr.any(log_prod > -lam) & (i < max_iters)

    k_init = full_like(lam, 0, dtype, shape)
    log_prod_init = full_like(lam, 0, np.float32, shape)
    k = while_loop(going, body, (asarray(0), k_init, key, log_prod_init))[1]
    return (k - 1).astype(dtype)


def _poisson_rejection(
    key: KeyArray, lam: Array, shape: tuple[int, ...], dtype: np.dtype[Any], max_iters: np.generic
) -> Array:
    """Hormann's transformed rejection (PTRS)."""
    log_lam = ju.log(lam)
    b = 0.931 + 2.53 * ju.sqrt(lam)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)

    def body(carry: tuple[Array, Array, Array, KeyArray]) -> tuple[Array, Array, Array, KeyArray]:
        i, k_out, accepted, rng = carry
        keys = split(rng, 3)
        u = uniform_impl(nth_key(keys, 1), shape, lam.dtype, 0.0, 1.0) - 0.5
        v = uniform_impl(nth_key(keys, 2), shape, lam.dtype, 0.0, 1.0)
        u_shifted = 0.5 - abs(u)
        k = ju.floor((2 * a / u_shifted + b) * u + lam + 0.43)
        s = ju.log(v * inv_alpha / (a / (u_shifted * u_shifted) + b))
        t = -lam + k * log_lam - ls.lgamma(k + 1)
        accept1 = (u_shifted >= 0.07) & (v <= v_r)
        reject = (k < 0) | ((u_shifted < 0.013) & (v > u_shifted))
        accept = accept1 | (~reject & (s <= t))
        return i + 1, select(accept, k, k_out), accepted | accept, nth_key(keys, 0)

    def going(carry: tuple[Array, Array, Array, KeyArray]) -> Array:
        i, accepted = carry[0], carry[2]
        return jr.any(~accepted) & (i < max_iters)

    k_init = full_like(lam, -1, lam.dtype, shape)
    accepted = full_like(lam, False, np.bool_, shape)
    k = while_loop(going, body, (asarray(0), k_init, accepted, key))[1]
    return k.astype(dtype)


def _poisson_impl(key: KeyArray, lam: Array, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Array:
    use_knuth = (lam != lam) | (lam < 10)
    lam_knuth = select(use_knuth, lam, full_like(lam, 0.0))
    # Rejection's acceptance rate tends to 89% as lam grows: any large value
    # keeps the unused branch cheap.
    lam_rejection = select(use_knuth, full_like(lam, 1e5), lam)
    max_iters = dtype.type(dtypes.iinfo(dtype).max)
    result = select(
        use_knuth,
        _poisson_knuth(key, lam_knuth, shape, dtype, max_iters),
        _poisson_rejection(key, lam_rejection, shape, dtype, max_iters),
    )
    return select(lam == 0, zeros_like(result), result)


_poisson_jit = jit(_poisson_impl, static_argnums=(2, 3))


def poisson(key: KeyArrayLike, lam: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None) -> Array:
    """Poisson(``lam``) counts (``jax.random.poisson``) of integer ``dtype``
    (default int), of ``shape`` (default ``lam``'s); threefry keys only, as
    in JAX."""
    typed_key = check_single_key("poisson", key)
    chosen = dtypes.canonicalize_dtype(int if dtype is None else dtype)
    out_shape = shape_of(lam) if shape is None else canonical_shape("poisson", shape)
    rate = convert_element_type(broadcast_to(lam, out_shape), np.float32)
    return _poisson_jit(typed_key, rate, out_shape, chosen)


# === binomial ===


_STIRLING_TAIL = np.array(
    [
        0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509, 0.0166446911898211,
        0.0138761288230707, 0.0118967099458917, 0.0104112652619720, 0.00925546218271273, 0.00833056343336287,
    ]
)  # fmt: skip
"""log(k!) minus its Stirling approximation, for k = 0..9."""


def _stirling_approx_tail(k: Array) -> Array:
    """The Stirling series' error term of log(k!): tabulated below 10."""
    table = asarray(_STIRLING_TAIL, dtype=k.dtype)
    use_table = k <= 9
    k = clamp(strong_constant_like(k, 0.0), k, strong_constant_like(k, 9.0))
    kp1sq = (k + 1) * (k + 1)
    approx = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)
    k = ju.floor(k)
    return select(use_table, table[asarray(k, dtype="int32")], approx)


def _binomial_inversion(
    key: KeyArray, count: Array, prob: Array, shape: tuple[int, ...], dtype: np.dtype[Any], max_iters: np.generic
) -> Array:
    """Count geometric gaps between successes until they pass ``count``."""
    log1minusprob = ju.log1p(-prob)

    def body(carry: tuple[Array, Array, Array, KeyArray]) -> tuple[Array, Array, Array, KeyArray]:
        i, num_geom, geom_sum, rng = carry
        keys = split(rng)
        num_geom_out = select(geom_sum <= count, num_geom + 1, num_geom)
        u = uniform_impl(nth_key(keys, 0), shape, prob.dtype, 0.0, 1.0)
        geom = ju.ceil(ju.log(u) / log1minusprob)
        return i + 1, num_geom_out, geom_sum + geom, nth_key(keys, 1)

    def going(carry: tuple[Array, Array, Array, KeyArray]) -> Array:
        i, geom_sum = carry[0], carry[2]
        return jr.any(geom_sum <= count) & (i < max_iters)

    num_geom_init = full_like(prob, 0, prob.dtype, shape)
    geom_sum_init = full_like(prob, 0, prob.dtype, shape)
    k = while_loop(going, body, (asarray(0), num_geom_init, geom_sum_init, key))[1]
    return (k - 1).astype(dtype)


def _btrs(
    key: KeyArray, count: Array, prob: Array, shape: tuple[int, ...], dtype: np.dtype[Any], max_iters: np.generic
) -> Array:
    """Hormann's transformed rejection with squeeze (BTRS)."""
    stddev = ju.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = ju.floor((count + 1) * prob)

    def body(carry: tuple[Array, Array, Array, KeyArray]) -> tuple[Array, Array, Array, KeyArray]:
        i, k_out, accepted, rng = carry
        keys = split(rng, 3)
        u = uniform_impl(nth_key(keys, 1), shape, prob.dtype, 0.0, 1.0)
        v = uniform_impl(nth_key(keys, 2), shape, prob.dtype, 0.0, 1.0)
        u = u - 0.5
        us = 0.5 - ju.abs(u)
        accept1 = (us >= 0.07) & (v <= v_r)
        k = ju.floor((2 * a / us + b) * u + c)
        reject = (k < 0) | (k > count)
        v = ju.log(v * alpha / (a / (us * us) + b))
        upper = (
            (m + 0.5) * ju.log((m + 1) / (r * (count - m + 1)))
            + (count + 1) * ju.log((count - m + 1) / (count - k + 1))
            + (k + 0.5) * ju.log(r * (count - k + 1) / (k + 1))
            + _stirling_approx_tail(m)
            + _stirling_approx_tail(count - m)
            - _stirling_approx_tail(k)
            - _stirling_approx_tail(count - k)
        )
        accept = accept1 | (~reject & (v <= upper))
        return i + 1, select(accept, k, k_out), accepted | accept, nth_key(keys, 0)

    def going(carry: tuple[Array, Array, Array, KeyArray]) -> Array:
        i, accepted = carry[0], carry[2]
        return jr.any(~accepted) & (i < max_iters)

    k_init = full_like(prob, -1, prob.dtype, shape)
    carry = (asarray(0), k_init, full(shape, False, np.bool_), key)
    return while_loop(going, body, carry)[1].astype(dtype)


def _binomial_impl(key: KeyArray, n: ArrayLike, p: ArrayLike, shape: tuple[int, ...] | None, dtype: np.dtype[Any]) -> Array:
    if shape is None:
        shape = result_shape("binomial", None, n, p)
    else:
        check_shape("binomial", shape, shape_of(n), shape_of(p))
    (prob,) = promote_args_inexact("binomial", p)
    count = broadcast_to(convert_element_type(n, prob.dtype), shape)
    prob = broadcast_to(prob, shape)
    p_lt_half = prob < 0.5
    q = select(p_lt_half, prob, 1.0 - prob)
    count_nan_or_neg = (count != count) | (count < 0.0)
    count_inf = ju.isinf(count)
    q_is_nan = q != q
    q_l_0 = q < 0.0
    q = select(q_is_nan | q_l_0, full_like(q, 0.01), q)
    use_inversion = count_nan_or_neg | (count * q <= 10.0)
    # np.random.binomial's behaviour for a fractional count.
    count = ju.floor(count)
    count_inv = select(use_inversion, count, full_like(count, 0.0))
    count_btrs = select(use_inversion, full_like(count, 1e4), count)
    q_btrs = select(use_inversion, full_like(q, 0.5), q)
    max_iters = dtype.type(dtypes.finfo(dtype).max)
    samples = select(
        use_inversion,
        _binomial_inversion(key, count_inv, q, shape, dtype, max_iters),
        _btrs(key, count_btrs, q_btrs, shape, dtype, max_iters),
    )
    # NaN for a NaN or negative p or n, inf for an infinite n.
    invalid = q_l_0 | q_is_nan | count_nan_or_neg
    samples = select(invalid, jnp_full_like(samples, np.nan, dtype), samples)
    samples = select(count_inf & (~invalid), jnp_full_like(samples, np.inf, dtype), samples)
    return select(p_lt_half | count_nan_or_neg | q_is_nan | count_inf, samples, count.astype(dtype) - samples)


_binomial_jit = jit(_binomial_impl, static_argnums=(3, 4))


def binomial(
    key: KeyArrayLike, n: ArrayLike, p: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None
) -> Array:
    """Binomial(``n``, ``p``) counts as floats (``jax.random.binomial``), of
    ``shape`` (default: the broadcast shape of ``n`` and ``p``); NaN for a
    NaN or negative ``n`` or ``p``, inf for an infinite ``n``."""
    typed_key = check_single_key("binomial", key)
    _check_arraylike("binomial", n, p)
    chosen = sampler_float_dtype("binomial", dtype)
    return _binomial_jit(typed_key, n, p, optional_shape("binomial", shape), chosen)


# === geometric ===


def _geometric_impl(key: KeyArray, p: ArrayLike, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Array:
    (prob,) = promote_args_inexact("geometric", p)
    u = uniform_impl(key, shape, prob.dtype, 0.0, 1.0)
    # u = 0 would give log(0): JAX maps it to 1 (keeping the other samples).
    u = ju.where(u == 0, 1, u)
    log_one_minus_p = broadcast_to(ju.log1p(-prob), shape)
    g = ju.floor(ju.log(u) / log_one_minus_p) + 1
    return g.astype(dtype)


_geometric_jit = jit(_geometric_impl, static_argnums=(2, 3))


def geometric(key: KeyArrayLike, p: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None) -> Array:
    """The number of Bernoulli(``p``) trials up to the first success
    (``jax.random.geometric``), integers of ``dtype`` (default int), of
    ``shape`` (default ``p``'s)."""
    typed_key = check_single_key("geometric", key)
    chosen = dtypes.canonicalize_dtype(int if dtype is None else dtype)
    if not dtypes.is_integer(chosen):
        raise JaxtypedValueError(f"dtype argument to `geometric` must be an int dtype, got {chosen}")
    out_shape = result_shape("geometric", shape, p)
    _check_arraylike("geometric", p)
    return _geometric_jit(typed_key, p, out_shape, chosen)
