"""The wrapped Cauchy distribution on ``[0, 2 pi]`` with shape ``c`` in
``(0, 1)`` (JAX's ``jax.scipy.stats.wrapcauchy``).

Example:
    >>> import jaxtyped.scipy.stats.wrapcauchy as wrapcauchy
    >>> wrapcauchy.pdf(0.5, 0.5).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.wrapcauchy import logpdf, pdf

__all__ = ["logpdf", "pdf"]
