"""The von Mises distribution on the circle with concentration ``kappa``
(JAX's ``jax.scipy.stats.vonmises``; no ``loc``: centred at 0)."""

import math

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import i0e
from jaxtyped._src.scipy.stats._util import invalid

__all__ = ["logpdf", "pdf"]


def logpdf(x: ArrayLike, kappa: ArrayLike) -> Array:
    """``kappa (cos x - 1) - log(2 pi i0e(kappa))`` (the exponentially
    scaled Bessel function keeps large ``kappa`` finite); NaN unless
    ``kappa > 0``."""
    v, k = promote_args_inexact("vonmises.logpdf", x, kappa)
    value = ju.subtract(ju.multiply(k, ju.subtract(ju.cos(v), 1.0)), ju.log(ju.multiply(2 * math.pi, i0e(k))))
    return invalid(ju.logical_not(ju.greater(k, 0)), value)


def pdf(x: ArrayLike, kappa: ArrayLike) -> Array:
    """The density."""
    return ju.exp(logpdf(x, kappa))
