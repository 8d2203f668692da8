"""Interfaces for libraries that extend jaxtyped (JAX's ``jax.extend``,
JEP 15856): ``core`` (primitives and jaxprs), ``interpreters`` (rule
registries in JAX's form), ``random`` (PRNG internals), ``sharding`` (XLA's
sharding protos) and ``backend``."""

from jaxtyped.extend import backend as backend
from jaxtyped.extend import core as core
from jaxtyped.extend import interpreters as interpreters
from jaxtyped.extend import random as random
from jaxtyped.extend import sharding as sharding

__all__ = ["backend", "core", "interpreters", "random", "sharding"]
