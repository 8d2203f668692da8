"""Rematerialization (JAX's ``jax.ad_checkpoint``): ``checkpoint``,
``checkpoint_name``, the policies, and ``saved_residuals`` /
``print_saved_residuals`` to see what differentiation keeps."""

from jaxtyped import checkpoint_policies
from jaxtyped._src.remat import checkpoint, checkpoint_name, print_saved_residuals, remat, saved_residuals

__all__ = ["checkpoint", "checkpoint_name", "checkpoint_policies", "print_saved_residuals", "remat", "saved_residuals"]
