"""The Dirichlet distribution with concentrations ``alpha`` (JAX's
``jax.scipy.stats.dirichlet``): ``x`` has the ``K`` components on its
*first* axis, or ``K - 1`` of them (the last is then ``1 - sum``).

Example:
    >>> import jaxtyped.scipy.stats.dirichlet as dirichlet
    >>> import jaxtyped.numpy as jnp
    >>> dirichlet.pdf(jnp.array([0.2, 0.8]), jnp.array([1.5, 2.0])).shape
    ()
"""

from jaxtyped._src.scipy.stats.dirichlet import logpdf, pdf

__all__ = ["logpdf", "pdf"]
