"""The multivariate normal distribution (JAX's
``jax.scipy.stats.multivariate_normal``): ``x`` and ``mean`` have the event
dimension last; ``cov`` is a scalar (isotropic) or an ``(n, n)`` matrix.

Example:
    >>> import jaxtyped.numpy as jnp, jaxtyped.scipy.stats.multivariate_normal as mvn
    >>> mvn.logpdf(jnp.zeros(2), jnp.zeros(2), jnp.eye(2)).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.multivariate_normal import logpdf, pdf

__all__ = ["logpdf", "pdf"]
