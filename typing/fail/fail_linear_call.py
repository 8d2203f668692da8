"""Misuse of jaxtyped.custom_derivatives.linear_call that both checkers
reject: arguments that ``fun`` does not take, a transpose that does not
take ``fun``'s output, and the result used at another type than ``fun``'s."""

import jaxtyped.numpy as jnp
from jaxtyped.custom_derivatives import linear_call
from jaxtyped.typing import Array


def scale(r: float, x: Array) -> Array:
    return x * r


def scale_t(r: float, ct: Array) -> Array:
    return ct * r


def takes_str(r: float, ct: str) -> Array:
    return jnp.ones(3)


x = jnp.ones(3)
linear_call(scale, scale_t, "two", x)  # expect: mypy[arg-type] pyright[reportArgumentType]
linear_call(scale, scale_t, 2.0, "x")  # expect: mypy[arg-type] pyright[reportArgumentType]
linear_call(scale, takes_str, 2.0, x)  # expect: mypy[misc] pyright[reportArgumentType]
n: float = linear_call(scale, scale_t, 2.0, x)  # expect: mypy[assignment] pyright[reportAssignmentType]
linear_call(scale, scale_t, 2.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
