"""Interfaces for libraries that extend jaxtyped (JAX's ``jax.extend``)."""

from jaxtyped.extend import random as random

__all__ = ["random"]
