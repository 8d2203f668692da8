"""A script that passes JAX's arguments by keyword and by position, as code
copied from JAX's documentation and libraries does: lax functions with
operand=, device queries with a backend, make_jaxpr with an axis_env for a
collective, checkpoint with static_argnames, device_put with donation, and
the newer keywords (dimension_numbers, allow_negative_indices, a key's
dtype)."""
from functools import partial
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax

cpu = jt.devices("cpu")[0]
assert jt.device_count(backend="cpu") == len(jt.devices(backend="cpu"))
assert jt.local_devices(process_index=0)[0].process_index == 0


def window_sums(x, size):
    # lax's array-first functions, each argument by name
    padded = lax.pad(operand=x, padding_value=0.0, padding_config=[(size - 1, 0, 0)])
    sums = lax.cumsum(operand=padded, axis=0)
    head = lax.slice_in_dim(operand=sums, start_index=size - 1, limit_index=sums.shape[0])
    tail = lax.dynamic_slice(operand=sums, start_indices=(0,), slice_sizes=(head.shape[0],))
    shifted = lax.concatenate([jnp.zeros(1), tail[:-1]], dimension=0)
    return lax.convert_element_type(operand=head - shifted, new_dtype=jnp.float32)


xs = jnp.arange(6.0)
sums = window_sums(xs, 2)
assert np.allclose(sums, [0.0, 1.0, 3.0, 5.0, 7.0, 9.0])
reveal_type(sums)


def batched_bilinear(a, b):
    # a batched product written with lax.dot's dimension_numbers
    return lax.dot(a, b, dimension_numbers=(((2,), (1,)), ((0,), (0,))), precision=lax.Precision.HIGHEST)


a = jnp.ones((4, 2, 3))
b = jnp.ones((4, 3, 5))
product = batched_bilinear(a, b)
assert product.shape == (4, 2, 5)
last = lax.dynamic_index_in_dim(product, -1, axis=0, keepdims=False)
assert last.shape == (2, 5)


def normalized(x):
    return x / lax.psum(x, axis_name="batch")


jaxpr = jt.make_jaxpr(normalized, axis_env=[("batch", 8)])(jnp.ones(3))
assert "psum" in str(jaxpr)
assert np.allclose(jt.vmap(normalized, axis_name="batch")(jnp.ones((8, 3))), 0.125)


@partial(jt.checkpoint, static_argnames=("depth",))
def deep_tanh(x, depth):
    for _ in range(depth):
        x = jnp.tanh(x)
    return x


gradient = jt.grad(lambda x: deep_tanh(x, depth=3).sum())(jnp.ones(4))
assert gradient.shape == (4,)
reveal_type(gradient)

buffer = jnp.zeros((256,))
moved = jt.device_put(buffer, cpu, donate=True, may_alias=False)
assert moved.shape == (256,)

stacked = jnp.stack([xs, xs * 2], 1, None, jnp.float16)
assert stacked.dtype == jnp.float16 and stacked.shape == (6, 2)
assert jnp.reshape(stacked, (12,), copy=True).shape == (12,)

key = jt.random.key(0)
same = jt.random.key(0, dtype=key.dtype)
assert np.array_equal(jt.random.key_data(key), jt.random.key_data(same))
assert jt.dtypes.issubdtype(a=stacked.dtype, b=jnp.floating)
