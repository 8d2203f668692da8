"""Experimental APIs (JAX's ``jax.experimental``): ``io_callback``, and the
submodules ``jaxtyped.experimental.pjit`` (``pjit``, which is ``jit``) and
``jaxtyped.experimental.mesh_utils`` (``create_device_mesh``)."""

from jaxtyped._src.callbacks import io_callback
from jaxtyped.experimental import mesh_utils as mesh_utils, pjit as pjit

__all__ = ["io_callback"]
