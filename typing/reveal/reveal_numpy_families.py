"""Return types of the main jaxtyped.numpy families: every array function
returns Array whatever array-like it is given; shape queries return Python
ints and tuples; dtype objects construct Arrays and dtype helpers return
NumPy dtypes and finfo/iinfo."""

from typing import Any

import numpy as np
from typing_extensions import assert_type

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike


def check(x: Array, a: ArrayLike, n: "np.ndarray[Any, np.dtype[np.float32]]") -> None:
    # Creation.
    assert_type(jnp.zeros((2, 3)), Array)
    assert_type(jnp.ones(3, dtype=jnp.int32), Array)
    assert_type(jnp.full((2,), 7.0), Array)
    assert_type(jnp.empty(2), Array)
    assert_type(jnp.arange(5), Array)
    assert_type(jnp.linspace(0.0, 1.0, 5), Array)
    assert_type(jnp.array([[1, 2], [3, 4]]), Array)
    assert_type(jnp.asarray(n), Array)
    assert_type(jnp.eye(3), Array)
    assert_type(jnp.identity(2), Array)
    assert_type(jnp.zeros_like(a), Array)
    assert_type(jnp.ones_like(n), Array)
    assert_type(jnp.full_like(x, 2.0), Array)

    # Elementwise.
    assert_type(jnp.cos(a), Array)
    assert_type(jnp.tanh(x), Array)
    assert_type(jnp.exp(n), Array)
    assert_type(jnp.log(2.0), Array)
    assert_type(jnp.sqrt(x), Array)
    assert_type(jnp.abs(a), Array)
    assert_type(jnp.sign(x), Array)
    assert_type(jnp.floor(x), Array)
    assert_type(jnp.round(x, 1), Array)
    assert_type(jnp.isnan(x), Array)
    assert_type(jnp.add(x, 1), Array)
    assert_type(jnp.subtract(n, x), Array)
    assert_type(jnp.multiply(2.0, x), Array)
    assert_type(jnp.divide(x, n), Array)
    assert_type(jnp.power(x, 2), Array)
    assert_type(jnp.maximum(x, 0.0), Array)
    assert_type(jnp.minimum(a, x), Array)
    assert_type(jnp.clip(x, 0.0, 1.0), Array)
    assert_type(jnp.equal(x, a), Array)
    assert_type(jnp.greater(x, 0), Array)
    assert_type(jnp.logical_and(x > 0, x < 1), Array)

    # Reductions.
    assert_type(jnp.sum(x), Array)
    assert_type(jnp.sum(n, axis=0), Array)
    assert_type(jnp.prod(x, axis=(0, 1)), Array)
    assert_type(jnp.mean(a), Array)
    assert_type(jnp.max(x, keepdims=True), Array)
    assert_type(jnp.min(x, axis=0), Array)
    assert_type(jnp.amax(x), Array)
    assert_type(jnp.argmax(x), Array)
    assert_type(jnp.argmin(x, axis=1), Array)
    assert_type(jnp.all(x > 0), Array)
    assert_type(jnp.any(x > 0, axis=0), Array)

    # Shape manipulation and queries.
    assert_type(jnp.reshape(x, (3, -1)), Array)
    assert_type(jnp.transpose(x), Array)
    assert_type(jnp.concatenate([x, n]), Array)
    assert_type(jnp.stack((x, x), axis=1), Array)
    assert_type(jnp.expand_dims(x, 0), Array)
    assert_type(jnp.squeeze(x), Array)
    assert_type(jnp.moveaxis(x, 0, -1), Array)
    assert_type(jnp.ravel(n), Array)
    assert_type(jnp.broadcast_to(x, (2, 3)), Array)
    assert_type(jnp.swapaxes(x, 0, 1), Array)
    assert_type(jnp.shape(a), tuple[int, ...])
    assert_type(jnp.ndim(x), int)
    assert_type(jnp.size(x), int)

    # where and linear algebra.
    assert_type(jnp.where(x > 0, x, 0.0), Array)
    assert_type(jnp.dot(x, n), Array)
    assert_type(jnp.matmul(x, x), Array)
    assert_type(jnp.tensordot(x, x, axes=1), Array)
    assert_type(jnp.inner(x, x), Array)
    assert_type(jnp.outer(x, a), Array)
    assert_type(jnp.vdot(x, x), Array)

    # dtype objects and helpers.
    assert_type(jnp.int32(3), Array)
    assert_type(jnp.bool_([True, False]), Array)
    assert_type(jnp.bfloat16(1.0), Array)
    assert_type(jnp.dtype(jnp.float32), np.dtype[Any])
    assert_type(jnp.dtype("float32"), np.dtype[np.float32])  # NumPy's own stubs
    assert_type(jnp.promote_types(jnp.int8, jnp.float32), np.dtype[Any])
    assert_type(jnp.result_type(x, 1.0), np.dtype[Any])
    assert_type(jnp.issubdtype(x.dtype, jnp.floating), bool)
    assert_type(jnp.finfo(jnp.float32), np.finfo[np.floating[Any]])
    assert_type(jnp.finfo(x.dtype).eps, np.floating[Any])
    assert_type(x + jnp.finfo(x.dtype).eps, Array)  # a common idiom: precise, not Any
    assert_type(jnp.iinfo(jnp.int32), np.iinfo[Any])
