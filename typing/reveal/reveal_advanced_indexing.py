"""Return types of advanced indexing, ``x.at[...]`` and the index
functions: every update returns Array, ``x.at`` and ``x.at[i]`` are the
typed helper pair, tuple-returning functions return tuples of Arrays."""

import numpy as np
from typing_extensions import assert_type

import jaxtyped.numpy as jnp
from jaxtyped._src.core.array import IndexUpdateHelper, IndexUpdateRef
from jaxtyped.typing import Array, ArrayLike


def check(x: Array, i: Array, a: ArrayLike) -> None:
    assert_type(x[i], Array)
    assert_type(x[i, 1:, None], Array)
    assert_type(x[[0, 1], [1, 2]], Array)
    assert_type(x[np.array([True, False])], Array)
    assert_type(x.at, IndexUpdateHelper)
    assert_type(x.at[i], IndexUpdateRef)
    assert_type(x.at[0].set(1.0), Array)
    assert_type(x.at[i].add(a), Array)
    assert_type(x.at[i].subtract(1), Array)
    assert_type(x.at[i].multiply(2.0), Array)
    assert_type(x.at[i].mul(2.0), Array)
    assert_type(x.at[i].divide(2.0), Array)
    assert_type(x.at[i].power(2), Array)
    assert_type(x.at[i].min(0.0, mode="clip"), Array)
    assert_type(x.at[i].max(0.0, unique_indices=True), Array)
    assert_type(x.at[i].apply(jnp.sin), Array)
    assert_type(x.at[i].get(mode="fill", fill_value=0.0), Array)
    assert_type(x.take(i), Array)
    assert_type(x.nonzero(size=2), tuple[Array, ...])
    assert_type(x.choose([x, x]), Array)
    assert_type(x.compress(i), Array)
    assert_type(jnp.take(a, i), Array)
    assert_type(jnp.take_along_axis(x, i, axis=0), Array)
    assert_type(jnp.put(x, i, a, inplace=False), Array)
    assert_type(jnp.put_along_axis(x, i, a, axis=0, inplace=False), Array)
    assert_type(jnp.choose(i, [x, a]), Array)
    assert_type(jnp.compress(i, x), Array)
    assert_type(jnp.extract(i, x), Array)
    assert_type(jnp.place(x, i, a, inplace=False), Array)
    assert_type(jnp.nonzero(a), tuple[Array, ...])
    assert_type(jnp.flatnonzero(a, size=3), Array)
    assert_type(jnp.argwhere(a), Array)
    assert_type(jnp.where(a), tuple[Array, ...])
    assert_type(jnp.where(a, x, 0.0), Array)
    assert_type(jnp.select([x > 0], [x]), Array)
    assert_type(jnp.piecewise(x, [x > 0], [jnp.sin, 0.0]), Array)
    assert_type(jnp.ix_(i, i), tuple[Array, ...])
    assert_type(jnp.indices((2, 3)), Array)
    assert_type(jnp.indices((2, 3), sparse=True), tuple[Array, ...])
    assert_type(jnp.ravel_multi_index((i, i), (3, 4)), Array)
    assert_type(jnp.unravel_index(i, (3, 4)), tuple[Array, ...])
    assert_type(jnp.diag_indices(3), tuple[Array, ...])
    assert_type(jnp.diag_indices_from(x), tuple[Array, ...])
    assert_type(jnp.tril_indices(3), tuple[Array, Array])
    assert_type(jnp.triu_indices(3), tuple[Array, Array])
    assert_type(jnp.tril_indices_from(x), tuple[Array, Array])
    assert_type(jnp.triu_indices_from(x), tuple[Array, Array])
    assert_type(jnp.mask_indices(3, jnp.triu), tuple[Array, Array])
    assert_type(jnp.fill_diagonal(x, 0.0, inplace=False), Array)
    assert_type(jnp.mgrid[0:3], Array)
    assert_type(jnp.ogrid[0:3, 0:2], list[Array])
    assert_type(jnp.r_[x, 1], Array)
    assert_type(jnp.c_[x, x], Array)
