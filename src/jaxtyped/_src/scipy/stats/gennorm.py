"""The generalized normal distribution with shape ``beta`` (JAX's
``jax.scipy.stats.gennorm``): density ``beta/(2 Gamma(1/beta)) exp(-|x|^beta)``."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import gammainc, gammaln

__all__ = ["logpdf", "pdf", "cdf"]


def logpdf(x: ArrayLike, beta: ArrayLike) -> Array:
    """``log(beta/2) - gammaln(1/beta) - |x|**beta``."""
    v, shape = promote_args_inexact("gennorm.logpdf", x, beta)
    normalizer = ju.subtract(ju.log(ju.multiply(0.5, shape)), gammaln(ju.divide(1.0, shape)))
    return ju.subtract(normalizer, ju.power(ju.abs(v), shape))


def pdf(x: ArrayLike, beta: ArrayLike) -> Array:
    """The density."""
    return ju.exp(logpdf(x, beta))


def cdf(x: ArrayLike, beta: ArrayLike) -> Array:
    """``(1 + sign(x) P(1/beta, |x|**beta))/2`` with ``P`` the regularized
    lower incomplete gamma function."""
    v, shape = promote_args_inexact("gennorm.cdf", x, beta)
    lower = gammainc(ju.divide(1.0, shape), ju.power(ju.abs(v), shape))
    return ju.multiply(0.5, ju.add(1.0, ju.multiply(ju.sign(v), lower)))
