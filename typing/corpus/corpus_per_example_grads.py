"""Per-example gradients with vmap(grad(...)), as in the JAX tutorial."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def loss(w, x, y):
    pred = jnp.dot(x, w)
    return (pred - y) ** 2


w = jnp.array([0.5, -0.25, 1.0])
xs = jnp.arange(12.0).reshape(4, 3)
ys = jnp.array([1.0, 2.0, 3.0, 4.0])

per_example = jt.vmap(jt.grad(loss), in_axes=(None, 0, 0))(w, xs, ys)
assert per_example.shape == (4, 3)
mean_grad = jt.grad(lambda w: jnp.mean(jt.vmap(loss, in_axes=(None, 0, 0))(w, xs, ys)))(w)
assert jnp.allclose(per_example.mean(axis=0), mean_grad, rtol=1e-5)

fast = jt.jit(jt.vmap(jt.grad(loss), in_axes=(None, 0, 0)))
assert jnp.allclose(fast(w, xs, ys), per_example)
norms = jnp.linalg.norm(per_example, axis=1)
clipped = per_example / jnp.maximum(1.0, norms)[:, None]
assert clipped.shape == (4, 3)
reveal_type(per_example)
reveal_type(mean_grad)
reveal_type(norms)
