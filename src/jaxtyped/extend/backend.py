"""The XLA backend for extensions (JAX's ``jax.extend.backend``)."""

from jaxtyped._src.extend.backend import Backend as Backend
from jaxtyped._src.extend.backend import clear_backends as clear_backends
from jaxtyped._src.extend.backend import get_backend as get_backend

__all__ = ["Backend", "get_backend", "clear_backends"]
