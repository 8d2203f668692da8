"""Experimental APIs (JAX's ``jax.experimental``): ``io_callback``, and the
submodules ``jaxtyped.experimental.pjit`` (``pjit``, which is ``jit``),
``jaxtyped.experimental.mesh_utils`` (``create_device_mesh``),
``jaxtyped.experimental.ode`` (``odeint``),
``jaxtyped.experimental.checkify`` (functionalized runtime checks:
``checkify``, ``check``, automatic NaN, division and index checks),
``jaxtyped.experimental.jet`` (Taylor-mode automatic differentiation: ``jet``),
``jaxtyped.experimental.multihost_utils`` (broadcasting, gathering and
checking host values across processes; host-local and global arrays) and
``jaxtyped.experimental.compilation_cache.compilation_cache``
(``set_cache_dir``, ``reset_cache``)."""

from jaxtyped._src.callbacks import io_callback
from jaxtyped.experimental import (
    checkify as checkify,
    compilation_cache as compilation_cache,
    jet as jet,
    mesh_utils as mesh_utils,
    multihost_utils as multihost_utils,
    ode as ode,
    pjit as pjit,
)

__all__ = ["io_callback"]
