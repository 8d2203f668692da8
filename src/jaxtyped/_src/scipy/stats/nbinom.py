"""The negative binomial distribution (failures before the ``n``-th
success of probability ``p``; JAX's ``jax.scipy.stats.nbinom``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import gammaln, xlogy
from jaxtyped._src.scipy.stats._util import outside

__all__ = ["logpmf", "pmf"]


def logpmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``gammaln(y + n) - gammaln(n) - gammaln(y + 1) + n log p + y log(1 - p)``
    for ``y = k - loc >= 0`` (continuous in ``k``, as in JAX), ``-inf`` below."""
    kk, successes, prob, lo = promote_args_inexact("nbinom.logpmf", k, n, p, loc)
    y = ju.subtract(kk, lo)
    log_comb = ju.subtract(ju.subtract(gammaln(ju.add(y, successes)), gammaln(successes)), gammaln(ju.add(y, 1.0)))
    kernel = ju.add(xlogy(successes, prob), xlogy(y, ju.subtract(1.0, prob)))
    return outside(ju.less(kk, lo), ju.add(log_comb, kernel))


def pmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return ju.exp(logpmf(k, n, p, loc))
