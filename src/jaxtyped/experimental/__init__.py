"""Experimental APIs (JAX's ``jax.experimental``): ``io_callback``."""

from jaxtyped._src.callbacks import io_callback

__all__ = ["io_callback"]
