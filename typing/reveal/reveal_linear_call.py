"""Result types of jaxtyped.custom_derivatives.linear_call: the call has
``fun``'s result type, whatever the residual and linear pytrees are, and
unannotated lambdas get their parameter types from the arguments (their
result type is the lambda's: Any in mypy for an operator such as ``x / r``
on a lambda's parameters, as for other transformations)."""

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.custom_derivatives import linear_call
from jaxtyped.typing import Array


def scale(r: float, x: Array) -> Array:
    return x * r


def scale_t(r: float, ct: Array) -> Array:
    return ct * r


def split(r: dict[str, Array], xs: tuple[Array, Array]) -> tuple[Array, Array]:
    return xs[0] * r["a"], xs[1]


def split_t(r: dict[str, Array], cts: tuple[Array, Array]) -> tuple[Array, Array]:
    return cts[0] * r["a"], cts[1]


def check(x: Array, a: Array) -> None:
    assert_type(linear_call(scale, scale_t, 2.0, x), Array)
    assert_type(linear_call(split, split_t, {"a": a}, (x, x)), tuple[Array, Array])
    assert_type(linear_call(lambda r, x: jnp.multiply(x, r), lambda r, t: jnp.multiply(t, r), a, x), Array)
    assert_type(jt.grad(loss)(x), Array)


def loss(x: Array) -> Array:
    return jnp.sum(linear_call(scale, scale_t, 3.0, x))
