"""The multivariate normal distribution (JAX's
``jax.scipy.stats.multivariate_normal``): ``x`` and ``mean`` have the event
dimension last; ``cov`` is a scalar (isotropic) or an ``(n, n)`` matrix."""

import math

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedValueError
from jaxtyped._src.lax.linalg.cholesky import cholesky, triangular_solve
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_dtypes
from jaxtyped._src.numpy.manipulation import diagonal
from jaxtyped._src.numpy.shape_ops import reshape

__all__ = ["logpdf", "pdf"]

_LOG_TWO_PI = math.log(2 * math.pi)


def logpdf(x: ArrayLike, mean: ArrayLike, cov: ArrayLike, allow_singular: None = None) -> Array:
    """The log density: ``-|L^{-1}(x - mean)|^2/2 - n log(2 pi)/2 -
    sum(log diag L)`` with ``L`` the Cholesky factor of ``cov``.

    Raises:
        JaxtypedNotImplementedError: ``allow_singular`` is given, or ``cov``
            is a batch of matrices.
        JaxtypedValueError: ``cov`` is not ``(n, n)`` for ``n`` the last
            dimension of ``mean``.
    """
    if allow_singular is not None:
        raise JaxtypedNotImplementedError("allow_singular argument of multivariate_normal.logpdf")
    v, mu, sigma = promote_dtypes("multivariate_normal.logpdf", (x, mean, cov), inexact=True)
    if mu.ndim == 0:
        centred = ju.subtract(v, mu)
        return ju.subtract(ju.multiply(-0.5, ju.divide(ju.square(centred), sigma)), ju.multiply(0.5, ju.add(_LOG_TWO_PI, ju.log(sigma))))
    n = mu.shape[-1]
    centred = ju.subtract(v, mu)
    if sigma.ndim == 0:
        quadratic = jr.sum(ju.square(centred), axis=-1)
        return ju.subtract(ju.multiply(-0.5, ju.divide(quadratic, sigma)), ju.multiply(n / 2, ju.add(_LOG_TWO_PI, ju.log(sigma))))
    if sigma.ndim < 2 or sigma.shape[-2:] != (n, n):
        raise JaxtypedValueError("multivariate_normal.logpdf got incompatible shapes")
    if sigma.ndim > 2:
        raise JaxtypedNotImplementedError("multivariate_normal.logpdf: a batch of covariance matrices is not supported yet")
    factor = cholesky(sigma)
    batch = centred.shape[:-1]
    # y @ L^T = x - mean, row by row: |y|^2 = (x - mean)^T cov^{-1} (x - mean).
    solved = triangular_solve(factor, reshape(centred, (-1, n)), lower=True, transpose_a=True)
    quadratic = reshape(jr.sum(ju.square(solved), axis=-1), batch)
    log_det_half = jr.sum(ju.log(diagonal(factor)))
    return ju.subtract(ju.subtract(ju.multiply(-0.5, quadratic), n / 2 * _LOG_TWO_PI), log_det_half)


def pdf(x: ArrayLike, mean: ArrayLike, cov: ArrayLike) -> Array:
    """The density."""
    return ju.exp(logpdf(x, mean, cov))
