"""Differentially private SGD: per-example clipped gradients plus Gaussian noise."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def loss(params, x, y):
    pred = x @ params["w"] + params["b"]
    return (pred - y) ** 2


def clip(g, max_norm):
    norm = jnp.sqrt(sum(jnp.sum(l**2) for l in jt.tree_util.tree_leaves(g)))
    scale = jnp.minimum(1.0, max_norm / (norm + 1e-12))
    return jt.tree_util.tree_map(lambda l: l * scale, g)


@jt.jit
def private_step(params, key, xs, ys):
    grads = jt.vmap(jt.grad(loss), in_axes=(None, 0, 0))(params, xs, ys)
    clipped = jt.vmap(clip, in_axes=(0, None))(grads, 1.0)
    summed = jt.tree_util.tree_map(lambda g: g.sum(axis=0), clipped)
    keys = jt.random.split(key, 2)
    noisy = {
        "w": summed["w"] + 0.1 * jt.random.normal(keys[0], summed["w"].shape),
        "b": summed["b"] + 0.1 * jt.random.normal(keys[1], summed["b"].shape),
    }
    return jt.tree_util.tree_map(lambda p, g: p - 0.05 * g / xs.shape[0], params, noisy)


params = {"w": jnp.zeros(3), "b": jnp.array(0.0)}
xs = jnp.arange(24.0).reshape(8, 3) / 24.0
ys = xs.sum(axis=1)
key = jt.random.PRNGKey(0)
for i in range(3):
    key, sub = jt.random.split(key)
    params = private_step(params, sub, xs, ys)
assert params["w"].shape == (3,)
reveal_type(params)
reveal_type(private_step(params, key, xs, ys)["w"])
