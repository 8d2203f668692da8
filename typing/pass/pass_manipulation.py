"""Array manipulation and creation functions of jaxtyped.numpy as NumPy
users write them: loose array-like inputs, static counts and widths as
ints and tuples, results annotated with their strict types and compared
with NumPy."""

import numpy as np

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike

host = np.arange(12, dtype=np.float32).reshape(3, 4)
m = jnp.asarray(host)
v = jnp.arange(1.0, 6.0)


def same(a: ArrayLike, b: ArrayLike) -> bool:
    return bool(np.allclose(np.asarray(a), np.asarray(b)))


# --- tiling, repeating, padding ---
tiled: Array = jnp.tile(m, (2, 1))
repeated: Array = jnp.repeat(m, 2, axis=1)
repeated_by: Array = jnp.repeat(v, jnp.array([1, 0, 2, 1, 1]), total_repeat_length=5)
padded: Array = jnp.pad(m, ((1, 2), (0, 1)), constant_values=-1.0)
reflected: Array = jnp.pad(v, 3, mode="reflect", reflect_type="odd")
averaged: Array = jnp.pad(host, 1, mode="mean", stat_length=2)
assert same(tiled, np.tile(host, (2, 1))) and same(repeated, np.repeat(host, 2, axis=1))
assert same(padded, np.pad(host, ((1, 2), (0, 1)), constant_values=-1.0))
assert same(reflected, np.pad(np.arange(1.0, 6.0), 3, mode="reflect", reflect_type="odd"))
assert averaged.shape == (5, 6) and repeated_by.shape == (5,)

# --- splitting ---
halves: list[Array] = jnp.split(m, 2, axis=1)
thirds: list[Array] = jnp.array_split(v, 3)
parts: list[Array] = [*jnp.hsplit(m, [1]), *jnp.vsplit(m, 3), *jnp.dsplit(jnp.ones((1, 1, 4)), 2)]
assert [h.shape for h in halves] == [(3, 2), (3, 2)] and [t.shape for t in thirds] == [(2,), (2,), (1,)]
assert len(parts) == 7

# --- flips, rolls, permutations ---
moved: list[Array] = [
    jnp.flip(m), jnp.flip(m, 1), jnp.fliplr(m), jnp.flipud(m), jnp.roll(m, 1), jnp.roll(m, (1, -1), axis=(0, 1)),
    jnp.rot90(m), jnp.rot90(m, k=3, axes=(1, 0)), jnp.rollaxis(m, 1), jnp.permute_dims(m, (1, 0)),
    jnp.matrix_transpose(m),
]  # fmt: skip
assert same(moved[5], np.roll(host, (1, -1), axis=(0, 1))) and same(moved[6], np.rot90(host))

# --- triangles and diagonals ---
tri_parts: list[Array] = [
    jnp.tril(m), jnp.triu(m, 1), jnp.tri(3, 4, -1), jnp.diag(v, 1), jnp.diag(m), jnp.diagonal(m, 1),
    jnp.diagflat(v), jnp.trace(m), jnp.trace(m, dtype=jnp.int32),
]  # fmt: skip
assert same(tri_parts[1], np.triu(host, 1)) and same(tri_parts[5], np.diagonal(host, 1))
assert same(tri_parts[7], np.trace(host))

# --- stacking and joining ---
stacked: list[Array] = [
    jnp.vstack([v, v]), jnp.hstack((v, v)), jnp.dstack([m, m]), jnp.column_stack([v, v]),
    jnp.block([[m, m], [m, m]]), jnp.append(m, 1.0), jnp.concat([m, m], axis=1),
]  # fmt: skip
rows: tuple[Array, ...] = jnp.unstack(m)
one: Array = jnp.atleast_1d(2.0)
several: list[Array] = jnp.atleast_2d(v, m)
three: Array = jnp.atleast_3d(m)
assert stacked[4].shape == (6, 8) and len(rows) == 3 and one.shape == (1,)
assert [s.shape for s in several] == [(1, 5), (3, 4)] and three.shape == (3, 4, 1)

# --- grids and broadcasting ---
grid: list[Array] = jnp.meshgrid(v, jnp.arange(3), indexing="ij")
spread: list[Array] = jnp.broadcast_arrays(m, v[:4])
shape: tuple[int, ...] = jnp.broadcast_shapes((3, 1), (4,))
assert grid[0].shape == (5, 3) and spread[1].shape == (3, 4) and shape == (3, 4)

# --- copies, insertion, deletion ---
changed: list[Array] = [
    jnp.copy(m), jnp.astype(m, jnp.int32), jnp.delete(m, 1, axis=0), jnp.delete(v, slice(0, 2)),
    jnp.insert(v, 2, 9.0), jnp.resize(v, (2, 4)), jnp.trim_zeros(jnp.array([0.0, 1.0, 0.0])),
]  # fmt: skip
assert same(changed[4], np.insert(np.arange(1.0, 6.0), 2, 9.0)) and changed[5].shape == (2, 4)


# --- applying functions ---
def doubled(x: Array) -> Array:
    return x * 2


applied: Array = jnp.apply_along_axis(doubled, 1, m)
over: Array = jnp.apply_over_axes(jnp.sum, m, [0, 1])
assert same(applied, host * 2) and over.shape == (1, 1)

# --- creation ---
created: list[Array] = [
    jnp.logspace(0.0, 2.0, 3), jnp.geomspace(1.0, 100.0, 3), jnp.frombuffer(b"\x01\x02", dtype=jnp.uint8),
    jnp.fromstring("1 2", sep=" "), jnp.from_dlpack(host), jnp.vander(v, 3),
    jnp.bartlett(5), jnp.blackman(5), jnp.hamming(5), jnp.hanning(5), jnp.kaiser(5, 2.0),
]  # fmt: skip


def plus(i: Array, j: Array) -> Array:
    return i + j


indexed: Array = jnp.fromfunction(plus, (2, 3))
assert same(created[0], np.array([1.0, 10.0, 100.0])) and same(created[9], np.hanning(5)) and indexed.shape == (2, 3)
try:
    jnp.fromiter(iter([1.0]), jnp.float32)
except NotImplementedError:
    pass

# --- products and bits ---
products: list[Array] = [
    jnp.kron(m, jnp.eye(2)), jnp.cross(v[:3], v[1:4]), jnp.matvec(m, v[:4]), jnp.vecmat(v[:3], m),
    jnp.vecdot(m, m), jnp.packbits(jnp.array([True, False, True])), jnp.unpackbits(jnp.array([5], jnp.uint8)),
]  # fmt: skip
assert products[0].shape == (6, 8) and same(products[1], np.cross([1.0, 2.0, 3.0], [2.0, 3.0, 4.0]))
assert int(products[5][0]) == 160

# --- methods ---
methods: list[Array] = [m.repeat(2), m.diagonal(), m.trace(), m.swapaxes(0, 1), m.copy(), m.mT]
sizes: tuple[int, int] = (m.itemsize, m.nbytes)
assert sizes == (4, 48) and methods[5].shape == (4, 3)
