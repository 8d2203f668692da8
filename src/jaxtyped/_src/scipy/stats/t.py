"""Student's t distribution with ``df`` degrees of freedom (JAX's
``jax.scipy.stats.t``)."""

import math

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import gammaln

__all__ = ["logpdf", "pdf"]


def logpdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """``gammaln((df+1)/2) - gammaln(df/2) - log(pi df scale**2)/2
    - (df+1)/2 log1p(z**2/df)``."""
    v, nu, mu, s = promote_args_inexact("t.logpdf", x, df, loc, scale)
    z = ju.divide(ju.subtract(v, mu), s)
    half_nu = ju.divide(nu, 2.0)
    half_nu_plus = ju.add(half_nu, 0.5)
    log_norm = ju.divide(ju.log(ju.multiply(ju.multiply(ju.multiply(s, s), math.pi), nu)), 2.0)
    normalizer = ju.subtract(ju.add(gammaln(half_nu), log_norm), gammaln(half_nu_plus))
    return ju.negative(ju.add(normalizer, ju.multiply(half_nu_plus, ju.log1p(ju.divide(ju.multiply(z, z), nu)))))


def pdf(x: ArrayLike, df: ArrayLike, loc: ArrayLike = 0, scale: ArrayLike = 1) -> Array:
    """The density."""
    return ju.exp(logpdf(x, df, loc, scale))
