"""New-style keys: jt.random.key, split unpacking, fold_in per step and per device, truncated_normal init."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def init_layer(key, n_in, n_out, scale=None):
    wkey, bkey = jt.random.split(key)
    std = scale if scale is not None else 1.0 / jnp.sqrt(n_in)
    w = std * jt.random.truncated_normal(wkey, -2.0, 2.0, (n_in, n_out))
    b = jt.random.uniform(bkey, (n_out,), minval=-0.1, maxval=0.1)
    return w, b


def dropout(key, x, rate):
    keep = jt.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


def noisy_forward(params, x, key, step):
    step_key = jt.random.fold_in(key, step)
    for i, (w, b) in enumerate(params):
        x = jnp.tanh(x @ w + b)
        x = dropout(jt.random.fold_in(step_key, i), x, 0.25)
    return x


def sample_batch(key, data, batch_size):
    idx = jt.random.randint(key, (batch_size,), 0, data.shape[0])
    return data[idx]


root = jt.random.key(42)
k_init, k_data, k_drop = jt.random.split(root, 3)
layer_keys = jt.random.split(k_init, 2)
params = [init_layer(layer_keys[0], 3, 5), init_layer(layer_keys[1], 5, 2)]
assert params[0][0].shape == (3, 5) and params[1][1].shape == (2,)
assert float(jnp.max(jnp.abs(params[0][0]))) <= 2.0 / jnp.sqrt(3.0) + 1e-6

data = jt.random.normal(k_data, (100, 3))
batch = sample_batch(jt.random.fold_in(k_data, 7), data, 8)
forward = jt.jit(noisy_forward)
out0 = forward(params, batch, k_drop, 0)
out1 = forward(params, batch, k_drop, 1)
assert out0.shape == (8, 2)
assert not jnp.allclose(out0, out1)
assert jnp.allclose(forward(params, batch, k_drop, 0), out0)

raw = jt.random.key_data(root)
assert raw.dtype == jnp.uint32
per_example = jt.vmap(lambda k: jt.random.normal(k, (2,)))(jt.random.split(root, 4))
assert per_example.shape == (4, 2)
reveal_type(k_init)
reveal_type(layer_keys)
reveal_type(params)
reveal_type(out0)
reveal_type(raw)
