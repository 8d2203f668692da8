"""The Dirichlet distribution with concentrations ``alpha`` (JAX's
``jax.scipy.stats.dirichlet``): ``x`` has the ``K`` components on its
*first* axis, or ``K - 1`` of them (the last is then ``1 - sum``)."""

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_dtypes
from jaxtyped._src.numpy.shape_ops import concatenate, reshape
from jaxtyped._src.scipy.special import gammaln, xlogy
from jaxtyped._src.scipy.stats._util import outside

__all__ = ["logpdf", "pdf"]

_SIMPLEX_TOLERANCE = 1e-6


def logpdf(x: ArrayLike, alpha: ArrayLike) -> Array:
    """``sum((alpha - 1) log x) - sum(gammaln(alpha)) + gammaln(sum(alpha))``
    over the first axis; ``-inf`` off the simplex (a non-positive component,
    or components summing to 1 only within ``1e-6``).

    Raises:
        JaxtypedValueError: ``alpha`` is not one-dimensional, or ``x`` has
            neither ``K`` nor ``K - 1`` entries on its first axis.
    """
    v, concentration = promote_dtypes("dirichlet.logpdf", (x, alpha), inexact=True)
    if concentration.ndim != 1:
        raise JaxtypedValueError(f"dirichlet.logpdf: alpha must be one-dimensional; got alpha.shape={concentration.shape}")
    size = concentration.shape[0]
    if v.ndim == 0 or v.shape[0] not in (size, size - 1):
        raise JaxtypedValueError(
            "dirichlet.logpdf: x must have either the same number of entries as alpha or one entry fewer "
            f"on its first axis; got x.shape={v.shape}, alpha.shape={concentration.shape}"
        )
    if v.shape[0] != size:
        v = concatenate([v, ju.subtract(1.0, jr.sum(v, axis=0, keepdims=True))], axis=0)
    log_beta = ju.subtract(jr.sum(gammaln(concentration)), gammaln(jr.sum(concentration)))
    column = reshape(concentration, (size,) + (1,) * (v.ndim - 1))
    value = ju.subtract(jr.sum(xlogy(ju.subtract(column, 1.0), v), axis=0), log_beta)
    on_simplex = ju.logical_and(
        jr.all(ju.greater(v, 0), axis=0), ju.less(ju.abs(ju.subtract(jr.sum(v, axis=0), 1.0)), _SIMPLEX_TOLERANCE)
    )
    return outside(ju.logical_not(on_simplex), value)


def pdf(x: ArrayLike, alpha: ArrayLike) -> Array:
    """The density."""
    return ju.exp(logpdf(x, alpha))
