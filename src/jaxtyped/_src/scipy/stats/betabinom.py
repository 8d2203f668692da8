"""The beta-binomial distribution with ``n`` trials and shapes ``a``, ``b``
(JAX's ``jax.scipy.stats.betabinom``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import betaln
from jaxtyped._src.scipy.stats._util import either, invalid, outside

__all__ = ["logpmf", "pmf"]


def logpmf(k: ArrayLike, n: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``log C(n, y) + betaln(y + a, n - y + b) - betaln(a, b)`` for
    ``y = floor(k) - loc`` in ``[0, n]`` (a non-integer ``k`` counts as its
    floor), ``-inf`` outside; NaN for ``n < 0`` or non-positive ``a``, ``b``."""
    kk, trials, p, q, lo = promote_args_inexact("betabinom.logpmf", k, n, a, b, loc)
    y = ju.subtract(ju.floor(kk), lo)
    # log C(n, y) = -log(n + 1) - betaln(n - y + 1, y + 1)
    log_comb = ju.negative(ju.add(ju.log1p(trials), betaln(ju.add(ju.subtract(trials, y), 1.0), ju.add(y, 1.0))))
    log_ratio = ju.subtract(betaln(ju.add(y, p), ju.add(ju.subtract(trials, y), q)), betaln(p, q))
    value = ju.add(log_comb, log_ratio)
    value = ju.where(ju.logical_and(ju.equal(y, 0), ju.equal(trials, 0)), 0.0, value)
    value = outside(either(ju.less(y, 0), ju.greater(y, trials), ju.less_equal(ju.add(y, p), 0)), value)
    return invalid(either(ju.less(trials, 0), ju.less_equal(p, 0), ju.less_equal(q, 0)), value)


def pmf(k: ArrayLike, n: ArrayLike, a: ArrayLike, b: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return ju.exp(logpmf(k, n, a, b, loc))
