"""JAX's ``jax.custom_derivatives`` module: the custom-derivative API under
the module path older programs import it from (``from
jax.custom_derivatives import custom_jvp``). The same objects are at the top
level (``jaxtyped.custom_jvp``, ...)."""

from jaxtyped._src.api_misc import closure_convert, custom_gradient
from jaxtyped._src.custom_derivatives import custom_jvp, custom_vjp

__all__ = ["closure_convert", "custom_gradient", "custom_jvp", "custom_vjp"]
