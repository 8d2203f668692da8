"""The uniform distribution on ``[loc, loc + scale]`` (JAX's
``jax.scipy.stats.uniform``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact

__all__ = ["logpdf", "pdf", "cdf", "ppf"]


def logpdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-log(scale)`` inside the support, ``-inf`` outside."""
    v, lo, width = promote_args_inexact("uniform.logpdf", x, loc, scale)
    outside = ju.logical_or(ju.less(v, lo), ju.greater(v, ju.add(lo, width)))
    return ju.where(outside, -float("inf"), ju.negative(ju.log(width)))


def pdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density: ``1/scale`` inside the support, ``0`` outside."""
    return ju.exp(logpdf(x, loc, scale))


def cdf(x: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``0`` below the support (and at NaN, as JAX's), ``1`` above, linear in between."""
    v, lo, width = promote_args_inexact("uniform.cdf", x, loc, scale)
    hi = ju.add(lo, width)
    inside = ju.where(ju.logical_and(ju.greater_equal(v, lo), ju.less_equal(v, hi)), ju.divide(ju.subtract(v, lo), width), 0.0)
    # NaN matches no branch and gives 0; the result is never weakly typed (as JAX's select of typed constants).
    value = ju.where(ju.less(v, lo), 0.0, ju.where(ju.greater(v, hi), 1.0, inside))
    return convert_to(value, value.dtype, weak_type=False)


def ppf(q: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The quantile ``loc + scale * q``; NaN for ``q`` outside ``[0, 1]``."""
    p, lo, width = promote_args_inexact("uniform.ppf", q, loc, scale)
    invalid = ju.logical_or(ju.isnan(p), ju.logical_or(ju.less(p, 0), ju.greater(p, 1)))
    return ju.where(invalid, float("nan"), ju.add(lo, ju.multiply(width, p)))
