"""The Pareto distribution with shape ``b`` on ``[loc + scale, inf)`` (JAX's
``jax.scipy.stats.pareto``): survival function ``y**-b``, ``y = (x - loc)/scale``."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.stats._util import either, invalid, outside, standardize

__all__ = ["logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf"]


def _scaled(name: str, x: ArrayLike, b: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> tuple[Array, Array, Array]:
    """``y``, ``b`` and whether ``x`` is below the support."""
    v, shape, lo, s = promote_args_inexact(name, x, b, loc, scale)
    return standardize(v, lo, s), shape, ju.less(v, ju.add(lo, s))


def logpdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log(b/scale) - (b + 1) log y``; ``-inf`` below ``loc + scale``."""
    v, shape, lo, s = promote_args_inexact("pareto.logpdf", x, b, loc, scale)
    y = standardize(v, lo, s)
    value = ju.negative(ju.add(ju.log(ju.divide(s, shape)), ju.multiply(ju.add(shape, 1.0), ju.log(y))))
    return outside(ju.less(v, ju.add(lo, s)), value)


def pdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, b, loc, scale))


def cdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``1 - y**-b``; ``0`` below the support."""
    y, shape, below = _scaled("pareto.cdf", x, b, loc, scale)
    return ju.where(below, 0.0, ju.subtract(1.0, ju.power(y, ju.negative(shape))))


def logcdf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``log1p(-y**-b)``; ``-inf`` below the support."""
    y, shape, below = _scaled("pareto.logcdf", x, b, loc, scale)
    return outside(below, ju.log1p(ju.negative(ju.power(y, ju.negative(shape)))))


def logsf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``-b log y``; ``0`` below the support."""
    y, shape, below = _scaled("pareto.logsf", x, b, loc, scale)
    return ju.where(below, 0.0, ju.negative(ju.multiply(shape, ju.log(y))))


def sf(x: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The survival function."""
    return ju.exp(logsf(x, b, loc, scale))


def ppf(q: ArrayLike, b: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``loc + scale (1 - q)**(-1/b)``; NaN for ``q`` outside ``[0, 1]`` or NaN."""
    p, shape, lo, s = promote_args_inexact("pareto.ppf", q, b, loc, scale)
    value = ju.add(lo, ju.multiply(s, ju.power(ju.subtract(1.0, p), ju.negative(ju.divide(1.0, shape)))))
    return invalid(either(ju.isnan(p), ju.less(p, 0), ju.greater(p, 1)), value)
