"""Result types of ``jaxtyped.ops``: every segment reduction gives an
``Array``, for array, NumPy and Python-scalar data, with each keyword
(num_segments, the flags, bucket_size, mode as a string or the enum)."""

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax, ops
from jaxtyped.typing import Array


def check(x: Array, ids: Array) -> None:
    assert_type(ops.segment_sum(x, ids), Array)
    assert_type(ops.segment_sum(np.ones(3), np.array([0, 1, 1]), 2), Array)
    assert_type(ops.segment_max(x, ids, num_segments=4, indices_are_sorted=True, unique_indices=False), Array)
    assert_type(ops.segment_min(2.5, ids, np.int64(3), mode="clip"), Array)
    assert_type(ops.segment_prod(x, ids, 4, bucket_size=2, mode=lax.GatherScatterMode.FILL_OR_DROP), Array)
    assert_type(jt.ops.segment_sum(jnp.ones((3, 2)), ids, 4, out_sharding=None), Array)
    assert_type(jt.jit(ops.segment_sum, static_argnums=2)(x, ids, 4), Array)
