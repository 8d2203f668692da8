"""Result types of jaxtyped.custom_batching: a custom_vmap function keeps
the signature of the function it wraps (arguments checked, result type
kept, also under vmap and jvp), def_vmap returns the rule unchanged, and
sequential_vmap is a custom_vmap of the same signature."""

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.custom_batching import custom_vmap, sequential_vmap
from jaxtyped.typing import Array


@custom_vmap
def scaled(x: Array, k: float) -> Array:
    return jnp.sin(x) * k


@scaled.def_vmap
def scaled_rule(axis_size: int, in_batched: list[bool], xs: Array, k: float) -> tuple[Array, bool]:
    return jnp.sin(xs) * k, in_batched[0]


def pair(x: Array) -> tuple[Array, Array]:
    return x, x * 2


def check(x: Array) -> None:
    assert_type(scaled(x, 2.0), Array)
    assert_type(jt.vmap(scaled, in_axes=(0, None))(x, 2.0), Array)
    assert_type(sequential_vmap(pair)(x), tuple[Array, Array])
    assert_type(jt.jvp(scaled, (x, 2.0), (x, 1.0)), tuple[Array, Array])
