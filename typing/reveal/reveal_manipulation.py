"""Result types of jaxtyped.numpy's manipulation and creation functions:
arrays are Array, splits are lists, unstack a tuple, broadcast_shapes a
tuple of ints, atleast_* one Array for one input and a list for several,
fromfunction whatever the function returns."""

import numpy as np
from typing_extensions import assert_type

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike


def first(i: Array, j: Array) -> Array:
    return i


def check(x: Array, a: ArrayLike, v: Array, n: "np.ndarray[tuple[int, ...], np.dtype[np.float32]]") -> None:
    assert_type(jnp.tile(a, 2), Array)
    assert_type(jnp.repeat(x, 2, axis=0), Array)
    assert_type(jnp.pad(n, ((1, 1), (2, 0)), mode="edge"), Array)
    assert_type(jnp.split(x, 2), list[Array])
    assert_type(jnp.array_split(x, [1, 2]), list[Array])
    assert_type(jnp.hsplit(x, 2), list[Array])
    assert_type(jnp.vsplit(x, 2), list[Array])
    assert_type(jnp.dsplit(x, 2), list[Array])
    assert_type(jnp.flip(x, (0, 1)), Array)
    assert_type(jnp.fliplr(x), Array)
    assert_type(jnp.flipud(x), Array)
    assert_type(jnp.roll(x, 1, axis=0), Array)
    assert_type(jnp.rot90(x, 2), Array)
    assert_type(jnp.rollaxis(x, 1), Array)
    assert_type(jnp.permute_dims(x, (1, 0)), Array)
    assert_type(jnp.matrix_transpose(x), Array)
    assert_type(jnp.tril(x), Array)
    assert_type(jnp.triu(x, -1), Array)
    assert_type(jnp.tri(3), Array)
    assert_type(jnp.diag(v), Array)
    assert_type(jnp.diagonal(x, 1, 0, 1), Array)
    assert_type(jnp.diagflat(v), Array)
    assert_type(jnp.trace(x), Array)
    assert_type(jnp.vstack([x, x]), Array)
    assert_type(jnp.hstack([x, a]), Array)
    assert_type(jnp.dstack([x, x]), Array)
    assert_type(jnp.column_stack([v, v]), Array)
    assert_type(jnp.block([[x, x]]), Array)
    assert_type(jnp.append(x, a), Array)
    assert_type(jnp.concat([x, x]), Array)
    assert_type(jnp.unstack(x), tuple[Array, ...])
    assert_type(jnp.atleast_1d(a), Array)
    assert_type(jnp.atleast_1d(a, x), list[Array])
    assert_type(jnp.atleast_2d(a), Array)
    assert_type(jnp.atleast_2d(a, x, v), list[Array])
    assert_type(jnp.atleast_3d(x), Array)
    assert_type(jnp.atleast_3d(x, x), list[Array])
    assert_type(jnp.meshgrid(v, v), list[Array])
    assert_type(jnp.broadcast_arrays(x, a), list[Array])
    assert_type(jnp.broadcast_shapes((2, 1), (3,)), tuple[int, ...])
    assert_type(jnp.copy(x), Array)
    assert_type(jnp.astype(x, jnp.float32), Array)
    assert_type(jnp.delete(x, 0), Array)
    assert_type(jnp.insert(x, 0, a), Array)
    assert_type(jnp.resize(x, (2, 2)), Array)
    assert_type(jnp.trim_zeros(v), Array)
    assert_type(jnp.apply_along_axis(jnp.sum, 0, x), Array)
    assert_type(jnp.apply_over_axes(jnp.sum, x, [0]), Array)
    assert_type(jnp.logspace(0.0, 1.0), Array)
    assert_type(jnp.geomspace(1.0, 2.0), Array)
    assert_type(jnp.fromfunction(first, (2, 2)), Array)
    assert_type(jnp.frombuffer(b"\x00\x00\x80\x3f", dtype=jnp.float32), Array)
    assert_type(jnp.fromiter([1.0], jnp.float32), Array)
    assert_type(jnp.fromstring("1 2", sep=" "), Array)
    assert_type(jnp.from_dlpack(n), Array)
    assert_type(jnp.vander(v), Array)
    assert_type(jnp.kron(x, a), Array)
    assert_type(jnp.cross(v, v), Array)
    assert_type(jnp.matvec(x, v), Array)
    assert_type(jnp.vecmat(v, x), Array)
    assert_type(jnp.vecdot(x, x), Array)
    assert_type(jnp.packbits(x), Array)
    assert_type(jnp.unpackbits(x, count=3), Array)
    assert_type(jnp.bartlett(4), Array)
    assert_type(jnp.blackman(4), Array)
    assert_type(jnp.hamming(4), Array)
    assert_type(jnp.hanning(4), Array)
    assert_type(jnp.kaiser(4, 1.5), Array)
    # Methods.
    assert_type(x.repeat(2), Array)
    assert_type(x.diagonal(), Array)
    assert_type(x.trace(), Array)
    assert_type(x.swapaxes(0, 1), Array)
    assert_type(x.copy(), Array)
    assert_type(x.mT, Array)
    assert_type(x.itemsize, int)
    assert_type(x.nbytes, int)
