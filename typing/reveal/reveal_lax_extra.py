"""Result types of the lax extras family: arrays for every array function,
tuples and lists where several arrays come back, the operands' types for
pytree-preserving functions, NumPy dtypes and Python shapes."""

from typing import Any

import numpy as np
from typing_extensions import assert_type

from jaxtyped import lax
from jaxtyped.typing import Array


def pairwise(a: tuple[Array, ...], b: tuple[Array, ...]) -> tuple[Array, ...]:
    return (a[0] + b[0], a[1] + b[1])


def check(x: Array, y: Array) -> None:
    assert_type(lax.select(x > 0, x, y), Array)
    assert_type(lax.full((2,), 1.0), Array)
    assert_type(lax.full_like(x, 0), Array)
    assert_type(lax.broadcast_shapes((2, 1), (3,)), tuple[int, ...])
    assert_type(lax.broadcast_to_rank(x, 3), Array)
    assert_type(lax.broadcast_like(x, y), Array)
    assert_type(lax.collapse(x, 0), Array)
    assert_type(lax.index_in_dim(x, 0), Array)
    assert_type(lax.dynamic_update_index_in_dim(x, y, 0, 0), Array)
    assert_type(lax.dynamic_update_slice_in_dim(x, y, 0, 0), Array)
    assert_type(lax.index_take(x, (y,), (0,)), Array)
    assert_type(lax.batch_matmul(x, y), Array)
    assert_type(lax.split(x, (1, 1)), list[Array])
    assert_type(lax.tile(x, (2,)), Array)
    assert_type(lax.stack([x, y]), Array)
    assert_type(lax.unstack(x), tuple[Array, ...])
    assert_type(lax.empty((2,), np.float32), Array)
    assert_type(lax.dtype(x), np.dtype[Any])
    assert_type(lax.reduce_and(x, (0,)), Array)
    assert_type(lax.reduce_or(x, (0,)), Array)
    assert_type(lax.reduce_xor(x, (0,)), Array)
    assert_type(lax.reduce(x, 0.0, lax.add, (0,)), Array)
    assert_type(lax.reduce((x, y), (0.0, 0.0), pairwise, (0,)), tuple[Array, ...])
    assert_type(lax.reduce(x, 0.0, lambda a, b: a + b * b, (0,)), Array)
    assert_type(lax.reduce((x, y), (0.0, 0.0), lambda a, b: (a[0] + b[0], a[1] * b[1]), (1,)), tuple[Array, ...])
    assert_type(lax.bitcast_convert_type(x, np.int32), Array)
    assert_type(lax.approx_max_k(x, 2), tuple[Array, Array])
    assert_type(lax.approx_min_k(x, 2, reduction_dimension=0), tuple[Array, Array])
    assert_type(lax.mulhi(x, y), Array)
    assert_type(lax.optimization_barrier((x, y)), tuple[Array, Array])
    assert_type(lax.optimization_barrier(x), Array)
    assert_type(lax.associative_scan(lax.add, x), Array)
    assert_type(lax.associative_scan(lambda a, b: (a[0] + b[0], a[1]), (x, y)), tuple[Array, Array])
    assert_type(lax.Precision("high"), lax.Precision)
    assert_type(lax.custom_root(lambda v: v - x, y, lambda f, g: g, lambda f, g: g), Array)
    assert_type(lax.custom_linear_solve(lambda v: v, x, lambda f, b: b, symmetric=True), Array)
    assert_type(x.view(np.int32), Array)
    assert_type(x.byteswap(), Array)
    assert_type(x.tobytes(), bytes)
    assert_type(lax.rng_bit_generator(y.astype(np.uint32), (2, 3)), tuple[Array, Array])
    assert_type(lax.rng_bit_generator(y.astype(np.uint32), [4], np.uint8, lax.RandomAlgorithm.RNG_PHILOX)[1], Array)
