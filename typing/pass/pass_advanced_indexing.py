"""Advanced indexing, ``x.at[...]`` and the index functions as JAX users
write them: integer arrays, lists inside a tuple, NumPy masks and slices as
indices; every ``.at`` operation with its keywords; the index functions
with the loose ArrayLike inputs. Each result is annotated with its strict
type and checked against NumPy."""

from collections.abc import Callable

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike

host = np.arange(12, dtype=np.float32).reshape(3, 4)
x = jnp.asarray(host)
rows = jnp.array([0, 2])


def same(a: ArrayLike, b: ArrayLike) -> bool:
    return bool(np.allclose(np.asarray(a), np.asarray(b)))


# --- x[idx] ---
picked: list[Array] = [
    x[rows], x[rows, 1:], x[:, np.array([3, 0])], x[[0, 1], [1, 2]], x[host > 5], x[None, rows, ...],
]  # fmt: skip
assert same(picked[0], host[[0, 2]]) and same(picked[3], host[[0, 1], [1, 2]]) and same(picked[4], host[host > 5])

# --- x.at[idx] ---
updated: list[Array] = [
    x.at[0].set(1.0), x.at[rows].add(1), x.at[rows, 1:].subtract(2.0), x.at[1].multiply(3),
    x.at[1].mul(3), x.at[1].divide(2.0), x.at[1].power(2), x.at[rows].min(0.0), x.at[rows].max(9.0),
    x.at[rows].apply(jnp.sin), x.at[np.array([5])].set(0.0, mode="drop"),
    x.at[rows].add(1.0, indices_are_sorted=True, unique_indices=True, mode="clip"),
]  # fmt: skip
got: Array = x.at[np.array([0, 9])].get(mode="fill", fill_value=-1.0)
assert same(updated[0][0], np.ones(4)) and same(got[1], -np.ones(4))


def bump(a: Array) -> Array:
    return a.at[0].add(1.0)


add_one: Callable[[Array], Array] = jt.jit(bump)
assert same(add_one(x)[0], host[0] + 1)

# --- index functions ---
values: list[Array] = [
    jnp.take(x, rows, axis=1), jnp.take_along_axis(x, jnp.array([[0], [1], [2]]), axis=1),
    jnp.put(x, rows, 5.0, inplace=False), jnp.put_along_axis(x, jnp.array([[0], [1], [2]]), 0.0, axis=1, inplace=False),
    jnp.choose(jnp.array([0, 1, 0, 1]), [x, -x], mode="clip"), jnp.compress(np.array([True, False, True]), x, axis=0),
    jnp.extract(host > 5, x), jnp.place(x, host > 5, 0.0, inplace=False), jnp.flatnonzero(host > 5),
    jnp.argwhere(host > 5), jnp.select([x > 5], [x], 0.0), jnp.piecewise(x, [x > 5], [jnp.cos, 1.0]),
    jnp.indices((2, 3)), jnp.ravel_multi_index((rows, rows), (3, 4), mode="clip"), jnp.fill_diagonal(x, 0.0, inplace=False),
    jnp.mgrid[0:3, 0:2], jnp.r_[rows, 5], jnp.c_[rows, rows], x[jnp.s_[1:]], x[jnp.index_exp[:, 0]],
]  # fmt: skip
assert same(values[0], host[:, [0, 2]]) and same(values[8], np.flatnonzero(host > 5))
pairs: list[tuple[Array, ...]] = [
    jnp.nonzero(host > 5), jnp.nonzero(x, size=3, fill_value=0), jnp.where(host > 5), jnp.ix_(rows, rows),
    jnp.unravel_index(rows, (3, 4)), jnp.diag_indices(3), jnp.diag_indices_from(jnp.zeros((3, 3))),
    jnp.tril_indices(3), jnp.triu_indices(3, 1), jnp.tril_indices_from(x), jnp.triu_indices_from(x),
    jnp.mask_indices(3, jnp.triu), jnp.indices((2, 3), sparse=True), (x.take(rows),), x.nonzero(size=2),
    (x.compress(np.array([True, False, True])),), (jnp.array([0, 1]).choose([x[0, :2], x[1, :2]]),),
]  # fmt: skip
assert same(pairs[0][1], np.nonzero(host > 5)[1])
grids: list[Array] = jnp.ogrid[0:2, 0:3]
assert [g.shape for g in grids] == [(2, 1), (1, 3)]
