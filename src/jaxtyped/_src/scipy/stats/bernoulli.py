"""The Bernoulli distribution with success probability ``p`` (JAX's
``jax.scipy.stats.bernoulli``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import xlog1py, xlogy

__all__ = ["logpmf", "pmf", "cdf", "ppf"]


def logpmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``x log p + (1 - x) log(1 - p)`` for ``x = k - loc`` in ``[0, 1]``,
    ``-inf`` outside."""
    n, prob, lo = promote_args_inexact("bernoulli.logpmf", k, p, loc)
    x = ju.subtract(n, lo)
    value = ju.add(xlogy(x, prob), xlog1py(ju.subtract(1.0, x), ju.negative(prob)))
    return ju.where(ju.logical_or(ju.less(x, 0), ju.greater(x, 1)), -float("inf"), value)


def pmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return ju.exp(logpmf(k, p, loc))


def _bad_p(prob: Array) -> Array:
    return ju.logical_or(ju.isnan(prob), ju.logical_or(ju.less(prob, 0), ju.greater(prob, 1)))


def cdf(k: ArrayLike, p: ArrayLike) -> Array:
    """``0`` below 0, ``1 - p`` on ``[0, 1)``, ``1`` from 1; NaN for NaN
    inputs or ``p`` outside ``[0, 1]``."""
    n, prob = promote_args_inexact("bernoulli.cdf", k, p)
    value = ju.where(ju.less(n, 0), 0.0, ju.where(ju.less(n, 1), ju.subtract(1.0, prob), 1.0))
    value = ju.where(ju.logical_or(ju.isnan(n), _bad_p(prob)), float("nan"), value)
    return convert_to(value, value.dtype, weak_type=False)


def ppf(q: ArrayLike, p: ArrayLike) -> Array:
    """``0`` for ``q <= 1 - p``, ``1`` above; NaN for invalid inputs."""
    quantile, prob = promote_args_inexact("bernoulli.ppf", q, p)
    invalid = ju.logical_or(
        ju.logical_or(ju.isnan(quantile), _bad_p(prob)), ju.logical_or(ju.less(quantile, 0), ju.greater(quantile, 1))
    )
    value = ju.where(invalid, float("nan"), ju.where(ju.less_equal(quantile, ju.subtract(1.0, prob)), 0.0, 1.0))
    return convert_to(value, value.dtype, weak_type=False)
