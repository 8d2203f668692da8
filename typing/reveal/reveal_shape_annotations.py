"""A shape annotation is ``Array`` for both checkers, through ``jit``,
``typechecked`` and ``grad``."""

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, Float, Int, typechecked


def norm(x: Float[Array, "n"]) -> Float[Array, ""]:
    return jnp.sqrt((x * x).sum())


def count(x: Int[Array, "b n"]) -> tuple[Int[Array, "b"], Float[Array, "b n"]]:
    return x.sum(axis=1), x.astype(jnp.float32)


x = jnp.ones(3)
assert_type(norm(x), Array)
assert_type(jt.jit(norm)(x), Array)
assert_type(typechecked(norm)(x), Array)
assert_type(jt.grad(norm)(x), Array)
assert_type(count(jnp.ones((2, 3), jnp.int32)), tuple[Array, Array])
