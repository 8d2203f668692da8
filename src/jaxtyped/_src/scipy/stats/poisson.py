"""The Poisson distribution with mean ``mu`` (JAX's
``jax.scipy.stats.poisson``; ``entropy`` is not implemented)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import gammaincc, gammaln, xlogy

__all__ = ["logpmf", "pmf", "cdf"]


def logpmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``x log mu - gammaln(x + 1) - mu`` for ``x = k - loc``; ``-inf`` for
    negative ``x`` or non-integer ``k``."""
    n, m, lo = promote_args_inexact("poisson.logpmf", k, mu, loc)
    x = ju.subtract(n, lo)
    value = ju.subtract(ju.subtract(xlogy(x, m), gammaln(ju.add(x, 1.0))), m)
    outside = ju.logical_or(ju.less(x, 0), ju.not_equal(ju.round(n), n))
    return ju.where(outside, -float("inf"), value)


def pmf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return ju.exp(logpmf(k, mu, loc))


def cdf(k: ArrayLike, mu: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``gammaincc(floor(k - loc) + 1, mu)``; ``0`` below ``loc``."""
    n, m, lo = promote_args_inexact("poisson.logpmf", k, mu, loc)
    x = ju.subtract(n, lo)
    return ju.where(ju.less(x, 0), 0.0, gammaincc(ju.floor(ju.add(x, 1.0)), m))
