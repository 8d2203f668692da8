"""PRNG internals for extensions (JEP 15856's ``jax.extend.random``)."""

from jaxtyped._src.lax.threefry import threefry_2x32 as threefry_2x32

__all__ = ["threefry_2x32"]
