"""Rematerialization (JAX's ``jax.ad_checkpoint``): ``checkpoint``,
``checkpoint_name`` and the policies."""

from jaxtyped import checkpoint_policies
from jaxtyped._src.remat import checkpoint, checkpoint_name, remat

__all__ = ["checkpoint", "checkpoint_name", "checkpoint_policies", "remat"]
