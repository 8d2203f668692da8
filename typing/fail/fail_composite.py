"""Misuse of jaxtyped.lax.composite that both checkers reject: a name or a
version of the wrong type, operands or attributes the decomposition does
not take, and the result used at another type than the decomposition's."""

import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array


def tangent(x: Array) -> Array:
    return lax.sin(x) / lax.cos(x)


def scaled(x: Array, /, *, scale: float) -> Array:
    return x * scale


x = jnp.ones(3)
lax.composite(tangent, 3)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.composite(tangent, "my.tangent", version="1")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.composite(tangent, "my.tangent")("s")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.composite(tangent, "my.tangent")(x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.composite(scaled, "my.scaled")(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.composite(scaled, "my.scaled")(x, scale="2")  # expect: mypy[arg-type] pyright[reportArgumentType]
n: int = lax.composite(tangent, "my.tangent")(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
