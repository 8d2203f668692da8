"""A tiny CNN with lax.conv_general_dilated and a pooling by reshape."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def conv(x, w):
    return lax.conv_general_dilated(x, w, window_strides=(1, 1), padding="SAME")


def model(params, images):
    h = jt.nn.relu(conv(images, params["conv"]))
    n, c, hh, ww = h.shape
    pooled = h.reshape(n, c, hh // 2, 2, ww // 2, 2).max(axis=(3, 5))
    flat = pooled.reshape(n, -1)
    return flat @ params["dense"]


def cross_entropy(params, images, labels):
    logits = model(params, images)
    logp = jt.nn.log_softmax(logits)
    return -jnp.mean(jnp.sum(logp * jt.nn.one_hot(labels, 3), axis=-1))


key = jt.random.PRNGKey(42)
k1, k2, k3 = jt.random.split(key, 3)
params = {
    "conv": jt.random.normal(k1, (4, 1, 3, 3)) * 0.3,
    "dense": jt.random.normal(k2, (4 * 4 * 4, 3)) * 0.1,
}
images = jt.random.normal(k3, (2, 1, 8, 8))
labels = jnp.array([0, 2])

train_step = jt.jit(lambda p, x, y: jt.tree_util.tree_map(lambda a, g: a - 0.01 * g, p, jt.grad(cross_entropy)(p, x, y)))
l0 = cross_entropy(params, images, labels)
params = train_step(params, images, labels)
l1 = cross_entropy(params, images, labels)
assert l1 < l0
reveal_type(l1)
reveal_type(model(params, images))
