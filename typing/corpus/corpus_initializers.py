"""Building a network with jt.nn.initializers and activation functions."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp

glorot = jt.nn.initializers.glorot_normal()
he = jt.nn.initializers.he_normal()
zeros = jt.nn.initializers.zeros


def init_mlp(key, sizes):
    layers = []
    for k, (a, b) in zip(jt.random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        layers.append((he(k, (a, b)), zeros(k, (b,))))
    return layers


def apply(layers, x):
    *hidden, (w, b) = layers
    for hw, hb in hidden:
        x = jt.nn.silu(x @ hw + hb)
    return jt.nn.log_softmax(x @ w + b)


layers = init_mlp(jt.random.PRNGKey(0), [4, 8, 8, 3])
logp = apply(layers, jnp.ones((2, 4)))
assert logp.shape == (2, 3)
assert jnp.allclose(jnp.exp(logp).sum(axis=-1), 1.0, atol=1e-5)
w = glorot(jt.random.PRNGKey(1), (4, 4))
acts = [jt.nn.relu(w), jt.nn.gelu(w), jt.nn.elu(w), jt.nn.leaky_relu(w), jt.nn.softplus(w)]
assert all(a.shape == (4, 4) for a in acts)
reveal_type(layers)
reveal_type(logp)
reveal_type(w)
