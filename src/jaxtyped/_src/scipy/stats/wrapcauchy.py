"""The wrapped Cauchy distribution on ``[0, 2 pi]`` with shape ``c`` in
``(0, 1)`` (JAX's ``jax.scipy.stats.wrapcauchy``)."""

import math

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.stats._util import invalid, outside

__all__ = ["logpdf", "pdf"]


def logpdf(x: ArrayLike, c: ArrayLike) -> Array:
    """``log(1 - c**2) - log(2 pi) - log(1 + c**2 - 2 c cos x)`` for ``x`` in
    ``[0, 2 pi]``, ``-inf`` outside; NaN unless ``0 < c < 1``."""
    v, shape = promote_args_inexact("wrapcauchy.logpdf", x, c)
    square = ju.multiply(shape, shape)
    denominator = ju.subtract(ju.add(1.0, square), ju.multiply(ju.multiply(2.0, shape), ju.cos(v)))
    value = ju.subtract(ju.subtract(ju.log(ju.subtract(1.0, square)), ju.log(2 * math.pi)), ju.log(denominator))
    value = outside(ju.logical_not(ju.logical_and(ju.greater_equal(v, 0), ju.less_equal(v, 2 * math.pi))), value)
    return invalid(ju.logical_not(ju.logical_and(ju.greater(shape, 0), ju.less(shape, 1))), value)


def pdf(x: ArrayLike, c: ArrayLike) -> Array:
    """The density."""
    return ju.exp(logpdf(x, c))
