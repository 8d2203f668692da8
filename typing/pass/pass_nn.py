"""jaxtyped.nn and the einsum family as a training script uses them:
activations on arrays, NumPy arrays and Python scalars, softmax with a
mask, one_hot labels, standardize, einsum in both call forms and its path,
and gradients through them; every result is an Array, checked against
NumPy."""

import numpy as np

import jaxtyped as jt
import jaxtyped.nn as nn
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike


def same(a: ArrayLike, b: ArrayLike) -> bool:
    return bool(np.allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6))


host = np.linspace(-2.0, 2.0, 6, dtype=np.float32).reshape(2, 3)
x = jnp.asarray(host)

# --- activations: arrays, NumPy arrays and Python scalars ---
activations: list[Array] = [
    nn.relu(x), nn.relu6(host), nn.gelu(x), nn.gelu(x, approximate=False), nn.silu(x), nn.swish(x),
    nn.sigmoid(x), nn.log_sigmoid(x), nn.softplus(x), nn.soft_sign(x), nn.sparse_plus(x),
    nn.sparse_sigmoid(x), nn.elu(x), nn.elu(x, alpha=2.0), nn.selu(x), nn.celu(x, 0.5),
    nn.leaky_relu(x, negative_slope=0.1), nn.hard_tanh(x), nn.hard_sigmoid(x), nn.hard_silu(x),
    nn.hard_swish(x), nn.mish(x), nn.squareplus(x, b=4), nn.tanh(x), nn.identity(x),
    nn.log1mexp(x + 3.0), nn.relu(1.5),
]  # fmt: skip
assert all(a.shape == (2, 3) for a in activations[:-1]) and activations[-1].shape == ()
assert same(activations[0], np.maximum(host, 0)) and same(activations[6], 1 / (1 + np.exp(-host)))

# --- normalisation, encodings, gating ---
probs: Array = nn.softmax(x, axis=-1)
masked: Array = nn.softmax(x, where=host > -1.5)
log_probs: Array = nn.log_softmax(x, axis=0)
total: Array = nn.logsumexp(x)
gated: Array = nn.glu(jnp.concatenate([x, x], axis=1))
labels: Array = nn.one_hot(jnp.asarray([0, 2, 1]), 3)
labels_int: Array = nn.one_hot(np.array([1, 0]), 2, dtype=jnp.int32, axis=0)
normalised: Array = nn.standardize(x, axis=1, epsilon=1e-6)
assert same(jnp.sum(probs, axis=-1), np.ones(2)) and same(total, np.log(np.exp(host).sum()))
assert gated.shape == (2, 3) and labels.shape == (3, 3) and labels_int.dtype == np.int32
assert masked.shape == log_probs.shape == normalised.shape == (2, 3)

# --- attention and log-mean-exp ---
queries, keys = jnp.ones((2, 5, 4, 8)), np.ones((2, 6, 2, 8), np.float32)
attended: Array = nn.dot_product_attention(queries, keys, keys, is_causal=True)
attended_and_lse: tuple[Array, Array] = nn.dot_product_attention(queries, keys, keys, return_residual=True)
mean_exp: Array = nn.logmeanexp(x, axis=1)
assert attended.shape == (2, 5, 4, 8) and attended_and_lse[1].shape == (2, 5, 4)
assert same(mean_exp, np.log(np.exp(host).mean(axis=1)))

# --- gradients: JAX's rules at the kinks ---
assert float(np.asarray(jt.grad(nn.relu)(0.0))) == 0.0


def softplus_by_logaddexp(z: ArrayLike) -> Array:
    return jnp.logaddexp(0.0, z)


assert float(np.asarray(jt.grad(softplus_by_logaddexp)(0.0))) == 0.5
assert float(np.asarray(jt.grad(jnp.sinc)(0.0))) == 0.0

# --- einsum, both call forms, and the contraction path ---
w = jnp.ones((3, 4))
product: Array = jnp.einsum("ij,jk->ik", x, w)
chained: Array = jnp.einsum("ij,jk,kl", x, w, np.ones((4, 2), np.float32), optimize="greedy")
trace: Array = jnp.einsum("ii", jnp.eye(3))
interleaved: Array = jnp.einsum(x, [0, 1], w, [1, 2], [0, 2])
widened: Array = jnp.einsum("ij,jk", x, w, preferred_element_type=jnp.bfloat16)
path, info = jnp.einsum_path("ij,jk,kl", x, w, np.ones((4, 2)))
assert same(product, host @ np.ones((3, 4))) and chained.shape == (2, 2) and same(trace, 3.0)
assert same(interleaved, product) and widened.dtype == jnp.bfloat16 and path == [(1, 2), (0, 1)]
assert "Complete contraction" in str(info)
extra: list[Array] = [jnp.logaddexp2(x, 1.0), jnp.sinc(x), jnp.hypot(x, 2.0)]
assert same(extra[2], np.hypot(host, 2.0))
