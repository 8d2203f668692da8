"""The von Mises distribution on the circle with concentration ``kappa``
(JAX's ``jax.scipy.stats.vonmises``; no ``loc``: centred at 0).

Example:
    >>> import jaxtyped.scipy.stats.vonmises as vonmises
    >>> vonmises.pdf(0.5, 2.0).dtype
    dtype('float32')
"""

from jaxtyped._src.scipy.stats.vonmises import logpdf, pdf

__all__ = ["logpdf", "pdf"]
