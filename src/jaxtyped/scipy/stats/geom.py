"""The geometric distribution (trials up to the first success, support
``1, 2, ...``) with success probability ``p`` (JAX's ``jax.scipy.stats.geom``).

Example:
    >>> import jaxtyped.scipy.stats.geom as geom
    >>> geom.pmf(2, 0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.geom import logpmf, pmf

__all__ = ["logpmf", "pmf"]
