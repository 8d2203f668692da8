"""JAX's ``jax.experimental.jet``: Taylor-mode automatic differentiation.

``jet(fun, primals, series)`` propagates a truncated Taylor polynomial of the
inputs through ``fun`` and returns ``(primals_out, series_out)``: the output
and its Taylor terms to the same order (derivatives by default; plain
Taylor coefficients with ``factorial_scaled=False``)."""

from jaxtyped._src.jet import jet

__all__ = ["jet"]
