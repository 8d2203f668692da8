"""JAX's ``jax.custom_derivatives`` module: the custom-derivative API under
the module path older programs import it from (``from
jax.custom_derivatives import custom_jvp``), with the ``symbolic_zeros=True``
helpers (``SymbolicZero``, ``CustomVJPPrimal``) and ``linear_call``. The
decorators are also at the top level (``jaxtyped.custom_jvp``, ...)."""

from jaxtyped._src.api_misc import closure_convert, custom_gradient
from jaxtyped._src.custom_derivatives import (
    CustomVJPPrimal,
    SymbolicZero,
    custom_jvp,
    custom_vjp,
    custom_vjp_primal_tree_values,
    zero_from_primal,
)
from jaxtyped._src.linear_call import linear_call

__all__ = [
    "CustomVJPPrimal",
    "SymbolicZero",
    "closure_convert",
    "custom_gradient",
    "custom_jvp",
    "custom_vjp",
    "custom_vjp_primal_tree_values",
    "linear_call",
    "zero_from_primal",
]
