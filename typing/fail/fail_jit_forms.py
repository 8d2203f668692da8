"""A wrong call of a function jitted in any form is rejected by both
checkers (issue 20): the decorator-factory form ``@jit(**options)`` keeps
the signature in mypy as in pyright, so its calls are checked exactly like
``jit(f)``'s; the factory's own misuses are rejected too."""

import functools

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


@jt.jit(static_argnames="n")
def times(x: Array, n: int) -> Array:
    return x * n


@jt.jit()
def identity(x: Array) -> Array:
    return x


@functools.partial(jt.jit, static_argnums=1)
def shifted(x: Array, k: int) -> Array:
    return x + k


class Model:
    @jt.jit(static_argnames="n")
    def scale(self, x: Array, n: int) -> Array:
        return x * n


times("x", 2)  # expect: mypy[arg-type] pyright[reportArgumentType]
times(jnp.ones(2), 2, 3)  # expect: mypy[call-arg] pyright[reportCallIssue]
times(jnp.ones(2), m=2)  # expect: mypy[call-arg] pyright[reportCallIssue]
identity(jnp.ones(2), jnp.ones(2))  # expect: mypy[call-arg] pyright[reportCallIssue]
shifted(jnp.ones(2), "k")  # expect: mypy[arg-type] pyright[reportArgumentType]
Model().scale("x", 2)  # expect: mypy[arg-type] pyright[reportArgumentType]
Model().scale(jnp.ones(2))  # expect: mypy[call-arg] pyright[reportCallIssue]
times.lower("x", 2)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
wrong_result: int = times(jnp.ones(2), 2)  # expect: mypy[assignment] pyright[reportAssignmentType]
jt.jit(static_argnames=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(keep_unused="no")(identity)  # expect: mypy[arg-type] pyright[reportArgumentType]
