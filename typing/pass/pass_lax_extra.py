"""The lax extras family as users write it: convenience functions,
logical and general reductions, bitcasts, the optimization barrier,
precision arguments, associative scans, implicit-derivative solvers and
the new Array attributes; each result annotated with its strict type and
checked."""

from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array

x = jnp.arange(6.0).reshape(2, 3)
ints = jnp.array([[3, 5, 12], [6, 7, 9]], dtype=jnp.int32)

chosen: Array = lax.select(x > 1.0, x, jnp.zeros_like(x))
filled: Array = lax.full((2, 2), 1.5, jnp.float32)
like: Array = lax.full_like(x, 3, shape=(4,))
shape: tuple[int, ...] = lax.broadcast_shapes((2, 1), (3,))
ranked: Array = lax.broadcast_to_rank(x, 4)
broad: Array = lax.broadcast_like(x[0], x)
merged: Array = lax.collapse(jnp.ones((2, 3, 4)), 1)
row: Array = lax.index_in_dim(x, 1, 0, keepdims=False)
updated: Array = lax.dynamic_update_index_in_dim(x, jnp.ones(3), 0, 0)
sliced: Array = lax.dynamic_update_slice_in_dim(x, jnp.ones((2, 1)), -1, 1, allow_negative_indices=True)
taken: Array = lax.index_take(x, (jnp.array([0, 1]), jnp.array([2, 0])), (0, 1))
products: Array = lax.batch_matmul(jnp.ones((2, 3, 4)), jnp.ones((2, 4, 5)), precision=lax.Precision.HIGHEST)
pieces: list[Array] = lax.split(x, (1, 2), axis=1)
tiled: Array = lax.tile(x, (2, 1))
stacked: Array = lax.stack([x, x], axis=1)
rows: tuple[Array, ...] = lax.unstack(x)
blank: Array = lax.empty((2,), jnp.int8)
kind: np.dtype[Any] = lax.dtype(1.0)
assert chosen.shape == filled.shape[:1] + (3,) and like.shape == (4,) and shape == (2, 3)
assert ranked.shape == (1, 1, 2, 3) and broad.shape == (2, 3) and merged.shape == (2, 12) and row.shape == (3,)
assert updated.shape == sliced.shape == (2, 3) and taken.shape == (2,) and products.shape == (2, 3, 5)
assert [p.shape for p in pieces] == [(2, 1), (2, 2)] and tiled.shape == (4, 3) and stacked.shape == (2, 2, 3)
assert len(rows) == 2 and blank.dtype == np.int8 and kind == np.float32

precise: Array = lax.dot(x, x.T, precision="highest")
paired: Array = lax.dot_general(x, x, (((1,), (1,)), ((), ())), precision=(lax.Precision.HIGH, lax.Precision.DEFAULT))
setting: lax.PrecisionLike = "float32"
numbers: lax.DotDimensionNumbers = (([1], [0]), ((), ()))
contracted: Array = lax.dot_general(x, x.T, numbers)
assert precise.shape == paired.shape == (2, 2) and lax.Precision(setting) is lax.Precision.HIGHEST and numbers[1] == ((), ()) and contracted.shape == (2, 2)

all_bits: Array = lax.reduce_and(ints, (0,))
any_bits: Array = lax.reduce_or(ints, (1,))
parity: Array = lax.reduce_xor(ints, (0, 1))
total: Array = lax.reduce(x, 0.0, lax.add, (0,))
squares: Array = lax.reduce(x, 0.0, lambda acc, v: acc + v * v, (1,))
best: tuple[Array, ...] = lax.reduce(
    (x, ints), (-np.inf, np.int32(0)), lambda a, b: (lax.max(a[0], b[0]), lax.max(a[1], b[1])), (1,)
)


def add_named(a: dict[str, Array], b: dict[str, Array]) -> dict[str, Array]:
    return {"v": a["v"] + b["v"]}


named = lax.reduce({"v": x}, {"v": 0.0}, add_named, (0,))
assert isinstance(named, dict)
assert all_bits.shape == (3,) and any_bits.shape == (2,) and int(parity) == 3 ^ 5 ^ 12 ^ 6 ^ 7 ^ 9
assert total.shape == (3,) and squares.shape == (2,) and len(best) == 2

top_values, top_indices = lax.approx_max_k(x, 2, recall_target=0.9)
low: tuple[Array, Array] = lax.approx_min_k(x, 1, reduction_dimension=0)
high_half: Array = lax.mulhi(ints, ints)
assert top_values.shape == top_indices.shape == (2, 2) and low[0].shape == (1, 3) and int(high_half[0, 0]) == 0

bits: Array = lax.bitcast_convert_type(x, jnp.int32)
halves: Array = lax.bitcast_convert_type(x, jnp.float16)
kept: tuple[Array, Array] = lax.optimization_barrier((x, ints))
assert bits.dtype == np.int32 and halves.shape == (2, 3, 2) and kept[0].shape == (2, 3)

running: Array = lax.associative_scan(lax.add, x, axis=1)
composed: tuple[Array, Array] = lax.associative_scan(
    lambda a, b: (a[0] * b[0], a[1] * b[0] + b[1]), (jnp.ones(4), jnp.arange(4.0)), reverse=True
)
assert np.allclose(np.asarray(running), np.cumsum(np.asarray(x), axis=1)) and composed[1].shape == (4,)


def newton(f: Callable[[Array], Array], guess: Array) -> Array:
    def step(i: int | Array, y: Array) -> Array:
        return y - f(y) / (2 * y)

    return lax.fori_loop(0, 20, step, guess)


def root_of(a: Array) -> Array:
    return lax.custom_root(lambda y: y * y - a, jnp.ones_like(a), newton, lambda g, y: y / g(jnp.ones_like(y)))


root: Array = root_of(jnp.array([4.0, 9.0]))


def total_root(a: Array) -> Array:
    return root_of(a).sum()


slope: Array = jt.grad(total_root)(jnp.array([4.0, 9.0]))
solution: Array = lax.custom_linear_solve(lambda v: 2.0 * v, jnp.ones(3), lambda mv, b: b / 2.0, symmetric=True)
assert np.allclose(np.asarray(root), [2.0, 3.0]) and np.allclose(np.asarray(slope), [0.25, 1 / 6])
assert np.allclose(np.asarray(solution), 0.5)

seen: Array = x.view(jnp.int32)
swapped: Array = x.byteswap()
raw: bytes = x.tobytes()
assert seen.dtype == np.int32 and swapped.shape == (2, 3) and len(raw) == 24
