"""Student's t distribution with ``df`` degrees of freedom (JAX's
``jax.scipy.stats.t``).

Example:
    >>> import jaxtyped.scipy.stats.t as t
    >>> t.pdf(0.5, 3.0).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.t import logpdf, pdf

__all__ = ["logpdf", "pdf"]
