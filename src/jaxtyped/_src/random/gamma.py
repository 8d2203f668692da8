"""The gamma family of ``jaxtyped.random``: ``gamma``, ``loggamma``,
``beta``, ``dirichlet``, ``chisquare``, ``t`` and ``f``.

Every sample is bit-exact with JAX 0.10.2 for the same key: the gamma
sampler is Marsaglia and Tsang's rejection method run per element, each
element with its own key (the key split into one key per element of the
broadcast ``a``), with JAX's key schedule inside the loops and JAX's
operation order (XLA contracts the same multiply-adds into FMAs for both).
The samplers run under ``jit`` (static shape and dtype) even when called
eagerly, as JAX's do, so eager, jitted and vmapped results agree.

The reparameterised gradient with respect to ``a`` is the implicit
derivative of the gamma CDF, ``lax.random_gamma_grad``, as in JAX.
"""

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.api import vmap
from jaxtyped._src.api_jit import jit
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.custom_derivatives import custom_jvp
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import special as ls
from jaxtyped._src.lax import transcendental as lt
from jaxtyped._src.lax.control_flow.loops import while_loop
from jaxtyped._src.lax.convenience import full_like, select
from jaxtyped._src.lax.elementwise_base import convert_element_type
from jaxtyped._src.lax.linalg.base import BatchedOverLeadingDims, DeviceEvaluated
from jaxtyped._src.lax.util import check_arity, short_types, strong_constant_like
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.promotion import broadcast_shapes
from jaxtyped._src.numpy.shape_ops import broadcast_to, reshape
from jaxtyped._src.random.continuous import normal_impl, sampler_float_dtype, shape_of, uniform_impl
from jaxtyped._src.random.keys import (
    KeyArray,
    KeyArrayLike,
    canonical_shape,
    check_single_key,
    key_data,
    split,
    wrap_key_data,
)
from jaxtyped._src.scipy.special import softmax

__all__ = [
    "gamma", "loggamma", "beta", "dirichlet", "chisquare", "t", "f",
    "check_shape", "result_shape", "check_safe_to_cast", "optional_shape", "nth_key",
]  # fmt: skip


# === argument checks shared by the family (and by counts.py) ===


def _joint_shape(fun_name: str, *shapes: tuple[int, ...]) -> tuple[int, ...]:
    try:
        return broadcast_shapes(fun_name, *shapes)
    except JaxtypedTypeError:
        # JAX's broadcast_shapes raises a ValueError here.
        raise JaxtypedValueError(f"{fun_name}: incompatible shapes for broadcasting: {shapes}") from None


def check_shape(fun_name: str, shape: tuple[int, ...], *param_shapes: tuple[int, ...]) -> None:
    """The parameter shapes broadcast to exactly ``shape`` (JAX's
    ValueError otherwise)."""
    if param_shapes:
        joint = _joint_shape(fun_name, shape, *param_shapes)
        if joint != shape:
            raise JaxtypedValueError(
                f"{fun_name} parameter shapes must be broadcast-compatible with shape argument, and the result of "
                f"broadcasting the shapes must equal the shape argument, but got result {joint} for shape "
                f"argument {shape}."
            )


def result_shape(fun_name: str, shape: ShapeLike | None, *params: ArrayLike) -> tuple[int, ...]:
    """A sampler's output shape: ``shape`` checked against the parameters'
    shapes, or their broadcast shape (JAX's ``_check_broadcast_shapes``)."""
    param_shapes = [shape_of(p) for p in params]
    if shape is None:
        return _joint_shape(fun_name, *param_shapes) if param_shapes else ()
    out = canonical_shape(fun_name, shape)
    check_shape(fun_name, out, *param_shapes)
    return out


def optional_shape(fun_name: str, shape: ShapeLike | None) -> tuple[int, ...] | None:
    """``shape`` as a tuple of ints, ``None`` kept."""
    return None if shape is None else canonical_shape(fun_name, shape)


def check_safe_to_cast(fun_name: str, dtype: np.dtype[Any], *params: ArrayLike) -> None:
    """Each parameter converts to ``dtype`` without narrowing its type (JAX's
    TypePromotionError, a ValueError, otherwise)."""
    for param in params:
        arr = asarray(param)
        joint, _ = dtypes.result_dtype((arr.dtype, arr.weak_type), (dtype, False))
        if arr.dtype != dtype and joint != dtype:
            raise JaxtypedValueError(
                f"In arguments to {fun_name}, cannot safely cast argument of type {arr.dtype} to {dtype}"
            )


def nth_key(keys: Array, index: int) -> KeyArray:
    """Key ``index`` of a 1-d array of typed keys (``split``'s result)."""
    return check_single_key("split", keys[index])


# === the per-element Marsaglia-Tsang sampler ===


def _gamma_one(element_key: Array, alpha: Array, log_space: bool) -> Array:
    """One Gamma(``alpha``) sample (its log with ``log_space``) from a key."""
    key = check_single_key("gamma", element_key)
    zero = strong_constant_like(alpha, 0)
    one = strong_constant_like(alpha, 1)
    two = strong_constant_like(alpha, 2)
    minus_one = strong_constant_like(alpha, -1)
    half = strong_constant_like(alpha, 0.5)
    third = strong_constant_like(alpha, 1.0 / 3.0)
    squeeze = strong_constant_like(alpha, 0.0331)
    dtype = alpha.dtype

    # alpha < 1 samples Gamma(alpha + 1) and scales by U ** (1 / alpha).
    boost_mask = lcmp.ge(alpha, one)
    alpha_orig = alpha
    alpha = select(boost_mask, alpha, la.add(alpha, one))
    d = la.sub(alpha, third)
    c = la.div(third, lt.sqrt(d))

    def keep_drawing(state: tuple[KeyArray, Array, Array, Array]) -> Array:
        _, x_sq, v, u = state
        squeeze_fails = lcmp.ge(u, la.sub(one, la.mul(squeeze, la.mul(x_sq, x_sq))))
        log_test_fails = lcmp.ge(
            lt.log(u), la.add(la.mul(x_sq, half), la.mul(d, la.add(la.sub(one, v), lt.log(v))))
        )
        return lcmp.bitwise_and(squeeze_fails, log_test_fails)

    def draw(state: tuple[KeyArray, Array, Array, Array]) -> tuple[KeyArray, Array, Array, Array]:
        def next_normal(inner: tuple[KeyArray, Array, Array]) -> tuple[KeyArray, Array, Array]:
            inner_keys = split(inner[0])
            x = normal_impl(nth_key(inner_keys, 1), (), dtype)
            return nth_key(inner_keys, 0), x, la.add(one, la.mul(x, c))

        keys = split(state[0], 3)
        start = (nth_key(keys, 1), zero, minus_one)
        _, x, v = while_loop(lambda inner: lcmp.le(inner[2], zero), next_normal, start)
        u = uniform_impl(nth_key(keys, 2), (), dtype, 0.0, 1.0)
        return nth_key(keys, 0), la.mul(x, x), la.mul(la.mul(v, v), v), u

    keys = split(key)
    # The first state fails both tests, so the loop draws at least once.
    _, _, v, _ = while_loop(keep_drawing, draw, (nth_key(keys, 0), zero, one, two))
    last_uniform = uniform_impl(nth_key(keys, 1), (), dtype, 0.0, 1.0)
    if log_space:
        # -Exponential() is log(1 - U): the same uniform as the linear branch.
        log_u = la.neg(la.neg(lt.log1p(la.neg(last_uniform))))
        no_boost = lcmp.bitwise_or(boost_mask, lcmp.eq(log_u, zero))
        log_boost = select(no_boost, zero, la.mul(log_u, la.div(one, alpha_orig)))
        return la.add(la.add(lt.log(d), lt.log(v)), log_boost)
    samples = la.sub(strong_constant_like(last_uniform, 1), last_uniform)
    boost = select(boost_mask, one, lt.pow(samples, la.div(one, alpha_orig)))
    return la.mul(la.mul(d, v), boost)


def _gamma_composition(key_data_: Array, a: Array, log_space: bool) -> Array:
    """Every sample of ``a`` (whose leading dimensions are those of the keys
    in ``key_data_``): each key split into one key per element of its part
    of ``a``, then ONE vmap over all elements (as JAX's rule does, so that
    XLA vectorises a 1-d loop whether or not the caller vmapped)."""
    keys = wrap_key_data(key_data_).reshape(-1)
    count = math.prod(a.shape[key_data_.ndim - 1 :])

    def split_one(k: Array) -> Array:
        return split(k, count)

    per_element = vmap(split_one)(keys).reshape(-1)
    samples = vmap(partial(_gamma_one, log_space=log_space))(per_element, reshape(a, (-1,)))
    return reshape(samples, a.shape)


@final
@dataclass(frozen=True, slots=True)
class RandomGamma(DeviceEvaluated, BatchedOverLeadingDims):
    """Gamma(``a``) samples (their logs with ``log_space``) from
    ``uint32[*k, 2]`` key data and ``a`` of shape ``(*k, ...)`` (JAX's
    ``random_gamma_p``). A primitive so that ``vmap`` folds its axis into
    the keys' leading dimensions instead of nesting a second vmap, which
    would change XLA's vectorisation of the loops (and so the last bit)."""

    log_space: bool
    name = "random_gamma"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 2)
        key_aval, a_aval = avals
        leading = key_aval.shape[:-1]
        if (
            key_aval.dtype != np.uint32
            or key_aval.shape[-1:] != (2,)
            or a_aval.shape[: len(leading)] != leading
            or not dtypes.is_floating(a_aval.dtype)
        ):
            raise JaxtypedTypeError(
                f"random_gamma takes uint32[*k, 2] key data and floats of shape (*k, ...), got {short_types(avals)}"
            )
        return (a_aval.strip_weak_type(),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        def composition(data: Array, a: Array) -> tuple[Array]:
            return (_gamma_composition(data, a, self.log_space),)

        return ctx.lower_fun(composition, args)


def _gamma_samples(key: KeyArray, a: Array, log_space: bool) -> Array:
    """One sample per element of ``a``, each from its own split of ``key``."""
    return bind1(RandomGamma(log_space), key_data(key), a)


def _gamma_slope(a: Array, sample: Array, log_space: bool) -> Array:
    """d sample / d a at fixed key (d log(sample) / d a with ``log_space``)."""
    if not log_space:
        return ls.random_gamma_grad(a, sample)
    # exp of a very negative log-sample underflows: use the tiniest normal.
    linear = lt.exp(sample)
    tiny = full_like(linear, float(dtypes.finfo(linear.dtype).tiny))
    linear = select(lcmp.eq(linear, strong_constant_like(linear, 0)), tiny, linear)
    return la.div(ls.random_gamma_grad(a, linear), linear)


def _make_sampler(log_space: bool) -> Callable[[KeyArray, Array], Array]:
    def sample(key: KeyArray, a: Array) -> Array:
        return _gamma_samples(key, a, log_space)

    def sample_jvp(key: KeyArray, primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
        (a,), (da,) = primals, tangents
        out = _gamma_samples(key, a, log_space)
        return out, la.mul(da, _gamma_slope(a, out, log_space))

    rule = custom_jvp(sample, nondiff_argnums=(0,))
    rule.defjvp(sample_jvp)
    return rule


_GAMMA = _make_sampler(log_space=False)
_LOG_GAMMA = _make_sampler(log_space=True)


def _gamma_impl(key: KeyArray, a: ArrayLike, shape: tuple[int, ...] | None, dtype: np.dtype[Any], log_space: bool) -> Array:
    if shape is None:
        shape = shape_of(a)
    else:
        check_shape("gamma", shape, shape_of(a))
    alpha = convert_element_type(a, dtype)
    if alpha.shape != shape:
        alpha = broadcast_to(alpha, shape)
    return (_LOG_GAMMA if log_space else _GAMMA)(key, alpha)


_gamma_jit = jit(_gamma_impl, static_argnums=(2, 3, 4))


def gamma(key: KeyArrayLike, a: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None) -> Array:
    """Gamma(``a``) samples of unit scale (``jax.random.gamma``), of
    ``shape`` (default: ``a``'s shape) and float ``dtype``; differentiable
    in ``a`` (reparameterised, through the gamma CDF's implicit derivative)."""
    typed_key = check_single_key("gamma", key)
    chosen = sampler_float_dtype("gamma", dtype)
    return _gamma_jit(typed_key, a, optional_shape("gamma", shape), chosen, False)


def loggamma(key: KeyArrayLike, a: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None) -> Array:
    """The logs of Gamma(``a``) samples (``jax.random.loggamma``), accurate
    where ``a`` is small and the samples underflow; ``exp`` of it is
    ``gamma``'s sample for the same key."""
    typed_key = check_single_key("loggamma", key)
    chosen = sampler_float_dtype("gamma", dtype)
    return _gamma_jit(typed_key, a, optional_shape("loggamma", shape), chosen, True)


# === distributions built on gamma ===


def _beta_impl(key: KeyArray, a: ArrayLike, b: ArrayLike, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Array:
    alpha = broadcast_to(convert_element_type(a, dtype), shape)
    beta_ = broadcast_to(convert_element_type(b, dtype), shape)
    keys = split(key)
    log_a = _gamma_impl(nth_key(keys, 0), alpha, shape, dtype, True)
    log_b = _gamma_impl(nth_key(keys, 1), beta_, shape, dtype, True)
    # a / (a + b) from the logs, scaled by the larger so nothing underflows.
    log_max = la.max(log_a, log_b)
    scaled_a = lt.exp(la.sub(log_a, log_max))
    scaled_b = lt.exp(la.sub(log_b, log_max))
    return la.div(scaled_a, la.add(scaled_a, scaled_b))


_beta_jit = jit(_beta_impl, static_argnums=(3, 4))


def beta(
    key: KeyArrayLike, a: ArrayLike, b: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None
) -> Array:
    """Beta(``a``, ``b``) samples in [0, 1] (``jax.random.beta``), of
    ``shape`` (default: the broadcast shape of ``a`` and ``b``)."""
    typed_key = check_single_key("beta", key)
    chosen = sampler_float_dtype("beta", dtype)
    check_safe_to_cast("beta", chosen, a, b)
    out_shape = result_shape("beta", shape, a, b)
    return _beta_jit(typed_key, a, b, out_shape, chosen)


def _dirichlet_impl(key: KeyArray, alpha: ArrayLike, shape: tuple[int, ...] | None, dtype: np.dtype[Any]) -> Array:
    alpha_shape = shape_of(alpha)
    if len(alpha_shape) < 1:
        raise JaxtypedValueError(f"dirichlet requires alpha.ndim >= 1, got alpha.ndim == {len(alpha_shape)}")
    if shape is None:
        shape = alpha_shape[:-1]
    else:
        check_shape("dirichlet", shape, alpha_shape[:-1])
    concentration = convert_element_type(alpha, dtype)
    # In log space: small alphas give gamma samples that underflow to 0.
    log_samples = _gamma_impl(key, concentration, (*shape, alpha_shape[-1]), dtype, True)
    return softmax(log_samples, -1)


_dirichlet_jit = jit(_dirichlet_impl, static_argnums=(2, 3))


def dirichlet(
    key: KeyArrayLike, alpha: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None
) -> Array:
    """Dirichlet(``alpha``) samples (``jax.random.dirichlet``): ``alpha``
    has the categories on its last axis; the result has shape
    ``shape + alpha.shape[-1:]`` (default ``alpha.shape``)."""
    typed_key = check_single_key("dirichlet", key)
    chosen = sampler_float_dtype("dirichlet", dtype)
    return _dirichlet_jit(typed_key, alpha, optional_shape("dirichlet", shape), chosen)


def _chisquare_impl(key: KeyArray, df: ArrayLike, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Array:
    dof = convert_element_type(df, dtype)
    two = strong_constant_like(dof, 2)
    log_g = _gamma_impl(key, la.div(dof, two), shape, dtype, True)
    return la.mul(lt.exp(log_g), two)


_chisquare_jit = jit(_chisquare_impl, static_argnums=(2, 3))


def chisquare(
    key: KeyArrayLike, df: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None
) -> Array:
    """Chi-square samples with ``df`` degrees of freedom
    (``jax.random.chisquare``), of ``shape`` (default ``df``'s)."""
    typed_key = check_single_key("chisquare", key)
    chosen = sampler_float_dtype("chisquare", dtype)
    out_shape = result_shape("chisquare", shape, df)
    check_safe_to_cast("chisquare", chosen, df)
    return _chisquare_jit(typed_key, df, out_shape, chosen)


def _t_impl(key: KeyArray, df: ArrayLike, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Array:
    dof = convert_element_type(df, dtype)
    keys = split(key)
    n = normal_impl(nth_key(keys, 0), shape, dtype)
    half_df = la.div(dof, strong_constant_like(n, 2))
    g = _gamma_impl(nth_key(keys, 1), half_df, shape, dtype, False)
    return n * lt.sqrt(half_df / g)


_t_jit = jit(_t_impl, static_argnums=(2, 3))


def t(key: KeyArrayLike, df: ArrayLike, shape: ShapeLike | None = None, dtype: dtypes.DTypeLike | None = None) -> Array:
    """Student's t samples with ``df`` degrees of freedom
    (``jax.random.t``), of ``shape`` (default ``df``'s)."""
    typed_key = check_single_key("t", key)
    chosen = sampler_float_dtype("t", dtype)
    out_shape = result_shape("t", shape, df)
    check_safe_to_cast("t", chosen, df)
    return _t_jit(typed_key, df, out_shape, chosen)


def _f_impl(key: KeyArray, dfnum: ArrayLike, dfden: ArrayLike, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Array:
    den_dof = convert_element_type(dfden, dtype)
    num_dof = convert_element_type(dfnum, dtype)
    keys = split(key)
    chi2_num = _chisquare_impl(nth_key(keys, 1), num_dof, shape, dtype)
    chi2_den = _chisquare_impl(nth_key(keys, 0), den_dof, shape, dtype)
    return la.div(la.div(chi2_num, num_dof), la.div(chi2_den, den_dof))


_f_jit = jit(_f_impl, static_argnums=(3, 4))


def f(
    key: KeyArrayLike,
    dfnum: ArrayLike,
    dfden: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: dtypes.DTypeLike | None = None,
) -> Array:
    """F-distribution samples with ``dfnum`` and ``dfden`` degrees of
    freedom (``jax.random.f``), of ``shape`` (default: their broadcast shape)."""
    typed_key = check_single_key("f", key)
    chosen = sampler_float_dtype("f", dtype)
    out_shape = result_shape("f", shape, dfnum, dfden)
    check_safe_to_cast("f", chosen, dfnum, dfden)
    return _f_jit(typed_key, dfnum, dfden, out_shape, chosen)
