"""JAX's ``jax.experimental.compilation_cache.compilation_cache``: turn the
persistent compilation cache on (``set_cache_dir``) and back to its state at
start-up (``reset_cache``).

The cache itself is described in :doc:`/performance` and configured with
``jt.config.update("jax_compilation_cache_dir", path)``, which
``set_cache_dir`` calls."""

from jaxtyped._src.api_config import reset_cache, set_cache_dir

__all__ = ["reset_cache", "set_cache_dir"]
