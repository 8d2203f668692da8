"""The binomial distribution with ``n`` trials of success probability ``p``
(JAX's ``jax.scipy.stats.binom``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import gammaln, xlog1py, xlogy
from jaxtyped._src.scipy.stats._util import either, outside

__all__ = ["logpmf", "pmf"]


def logpmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``log C(n, y) + y log p + (n - y) log(1 - p)`` for ``y = k - loc``
    (through ``gammaln``, so a non-integer ``k`` gets the continuous
    extension, as in JAX); ``-inf`` unless ``loc <= k < loc + n + 1``."""
    kk, trials, prob, lo = promote_args_inexact("binom.logpmf", k, n, p, loc)
    y = ju.subtract(kk, lo)
    rest = ju.subtract(trials, y)
    log_comb = ju.subtract(gammaln(ju.add(trials, 1.0)), ju.add(gammaln(ju.add(y, 1.0)), gammaln(ju.add(rest, 1.0))))
    kernel = ju.add(xlogy(y, prob), xlog1py(rest, ju.negative(prob)))
    value = ju.add(log_comb, kernel)
    # A certain outcome (n = 0, or p at 0 or 1) is exactly log 1.
    value = ju.where(either(ju.logical_and(ju.equal(y, 0), ju.equal(trials, 0)), ju.equal(kernel, 0)), 0.0, value)
    inside = ju.logical_and(ju.greater_equal(kk, lo), ju.less(kk, ju.add(ju.add(lo, trials), 1.0)))
    return outside(ju.logical_not(inside), value)


def pmf(k: ArrayLike, n: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return ju.exp(logpmf(k, n, p, loc))
