"""The geometric distribution (trials up to the first success, support
``1, 2, ...``) with success probability ``p`` (JAX's ``jax.scipy.stats.geom``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import xlog1py
from jaxtyped._src.scipy.stats._util import outside

__all__ = ["logpmf", "pmf"]


def logpmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """``(y - 1) log(1 - p) + log p`` for ``y = k - loc > 0`` (continuous
    in ``k``, as in JAX), ``-inf`` for ``y <= 0``."""
    kk, prob, lo = promote_args_inexact("geom.logpmf", k, p, loc)
    y = ju.subtract(kk, lo)
    value = ju.add(xlog1py(ju.subtract(y, 1.0), ju.negative(prob)), ju.log(prob))
    return outside(ju.less_equal(y, 0), value)


def pmf(k: ArrayLike, p: ArrayLike, loc: ArrayLike = 0) -> Array:
    """The probability mass."""
    return ju.exp(logpmf(k, p, loc))
