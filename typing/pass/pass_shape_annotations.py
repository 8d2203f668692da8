"""Shape-and-dtype annotations are plain ``Array`` for type checkers: a
function annotated ``Float[Array, "m n"]`` takes and returns arrays, works
under ``jt.jit`` and ``jt.vmap``, inside containers and ``Optional``, and
``typechecked`` keeps the function's type. Running this file checks the
shapes too (jit traces them)."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike, Bool, Float, Float32, Int, Shaped, typechecked


@jt.jit
def matvec(a: Float[Array, "m n"], x: Float[Array, "n"]) -> Float[Array, "m"]:
    return a @ x


@typechecked
def scale(x: Float[ArrayLike, "*batch"], factor: float) -> Float[Array, "*batch"]:
    return jnp.asarray(x) * factor


def first_true(mask: Bool[Array, "n"], values: Int[Array, "n"]) -> Int[Array, ""]:
    return jnp.where(mask, values, 0).max()


def layer(params: dict[str, Float32[Array, "..."]], x: Shaped[Array, "b n"] | None = None) -> Array:
    out = params["w"]
    return out if x is None else out + x.sum()


y: Array = matvec(jnp.ones((2, 3)), jnp.ones(3))
z: Array = scale(jnp.ones((4, 2)), 2.0)
w: Array = scale(3.0, 2.0)
m: Array = first_true(jnp.array([True, False]), jnp.array([3, 4]))
per_row: Array = jt.vmap(matvec, in_axes=(None, 0))(jnp.ones((2, 3)), jnp.ones((5, 3)))
p: Array = jt.jit(layer)({"w": jnp.ones(2)}, jnp.ones((1, 2)))
assert y.shape == (2,) and z.shape == (4, 2) and per_row.shape == (5, 2) and p.shape == (2,)
