"""Result types of jaxtyped.lax.composite: the returned function keeps the
decomposition's signature (operands positional, attributes keyword-only),
so a call has the decomposition's result type."""

from functools import partial

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array


def tangent(x: Array) -> Array:
    return lax.sin(x) / lax.cos(x)


def scaled(x: Array, /, *, scale: float, name: str = "s") -> Array:
    return x * scale


def two(x: Array, n: Array) -> tuple[Array, Array]:
    return x * n, n * 2


def tree(d: dict[str, Array]) -> dict[str, Array]:
    return {"out": d["a"] * d["b"]}


@partial(lax.composite, name="my.softmax")
def softmax(x: Array, /, *, axis: int) -> Array:
    return jt.nn.softmax(x, axis)


def check(x: Array) -> None:
    assert_type(lax.composite(tangent, "my.tangent")(x), Array)
    assert_type(lax.composite(tangent, name="my.tangent", version=2)(x), Array)
    assert_type(lax.composite(scaled, "my.scaled")(x, scale=2.0), Array)
    assert_type(lax.composite(two, "my.two")(x, x), tuple[Array, Array])
    assert_type(lax.composite(tree, "my.tree")({"a": x, "b": x}), dict[str, Array])
    assert_type(jt.jit(lax.composite(tangent, "my.tangent"))(x), Array)
    assert_type(jt.grad(loss)(x), Array)
    assert_type(softmax(x, axis=0), Array)


def loss(x: Array) -> Array:
    return jnp.sum(lax.composite(tangent, "my.tangent")(x))
