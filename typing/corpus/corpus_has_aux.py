"""grad and value_and_grad with has_aux: batch-norm statistics returned beside the loss."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def batch_norm(x, eps=1e-5):
    mean = x.mean(axis=0)
    var = x.var(axis=0)
    return (x - mean) / jnp.sqrt(var + eps), {"mean": mean, "var": var}


def loss_with_stats(w, x, y):
    h, stats = batch_norm(x @ w)
    loss = jnp.mean((h.sum(axis=1) - y) ** 2)
    return loss, stats


w = jnp.ones((3, 2)) * 0.5
x = jnp.arange(12.0).reshape(4, 3) / 10
y = jnp.array([0.0, 1.0, 0.0, 1.0])
grads, stats = jt.grad(loss_with_stats, has_aux=True)(w, x, y)
assert grads.shape == (3, 2) and stats["mean"].shape == (2,)
(value, stats2), grads2 = jt.value_and_grad(loss_with_stats, has_aux=True)(w, x, y)
assert jnp.allclose(grads, grads2)
running = jt.tree_util.tree_map(lambda old, new: 0.9 * old + 0.1 * new, stats, stats2)
jac, aux = jt.jacrev(lambda w: (jnp.tanh(x @ w), w.sum()), has_aux=True)(w)
assert jac.shape == (4, 2, 3, 2)
reveal_type(grads)
reveal_type(stats)
reveal_type(value)
reveal_type(running)
