"""Seed 003's ref examples type-check and run: creating refs, indexed
reads and writes, jt.ref.get/swap/addupdate, freeze, refs passed to and
closed over by jitted functions, vmap over ref arguments, foreach."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

x_ref: jt.Ref[Array] = jt.new_ref(jnp.zeros(3))


@jt.jit
def f() -> None:
    x_ref[1] += 1.0


f()
row: Array = x_ref[...]
x_ref[...] = jnp.sin(row)

grid = jt.new_ref(jnp.arange(12.0).reshape(3, 4))
grid[1] = grid[0]
grid[2, 3] = grid[1, 2]
grid[0, :3] = grid[:, 1]
grid[jnp.array([1, 2, 1]), jnp.array([0, 0, 1])] = grid[jnp.array([0, 0, 1]), jnp.array([1, 2, 3])]
old: Array = jt.ref.swap(grid, 0, jnp.zeros(4))
first: Array = jt.ref.get(grid, (0, slice(None)))
jt.ref.addupdate(grid, ..., 1.0)


@jt.jit
def sin_inplace(ref: jt.Ref[Array]) -> None:
    ref[...] = jnp.sin(ref[...])


sin_inplace(grid)
pointer: int = grid.unsafe_buffer_pointer()


def g(x: Array) -> Array:
    ref = jt.new_ref(0.0)
    ref[...] = jnp.sin(x)
    return ref[...]


slope: Array = jt.grad(g)(jnp.float32(1.0))


def dist(x: Array, y: Array, out_ref: jt.Ref[Array]) -> None:
    out_ref[...] = jnp.sum((x - y) ** 2)


vecs = jnp.arange(12.0).reshape(3, 4)
out_ref = jt.new_ref(jnp.zeros((3, 3)))
jt.vmap(jt.vmap(dist, (0, None, 0)), (None, 0, 0))(vecs, vecs, out_ref)

total = jt.new_ref(0)


def body(_: None, x: Array) -> tuple[None, Array]:
    total[...] += x
    return None, x * 2


_, ys = jt.lax.scan(body, None, jnp.arange(10))
final: Array = jt.freeze(jt.new_ref(ys))
shape: tuple[int, ...] = out_ref.shape
