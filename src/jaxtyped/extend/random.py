"""PRNG internals for extensions (JEP 15856's ``jax.extend.random``):
the threefry hash, custom PRNG implementations, and wrapping key data."""

from jaxtyped._src.extend.random import PRNGImpl as PRNGImpl
from jaxtyped._src.extend.random import define_prng_impl as define_prng_impl
from jaxtyped._src.extend.random import random_unwrap as random_unwrap
from jaxtyped._src.extend.random import random_wrap as random_wrap
from jaxtyped._src.lax.threefry import threefry_2x32 as threefry_2x32

__all__ = ["threefry_2x32", "PRNGImpl", "define_prng_impl", "random_wrap", "random_unwrap"]
