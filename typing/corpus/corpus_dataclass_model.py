"""A frozen dataclass model registered as a pytree and trained with tree_map."""
from dataclasses import dataclass
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array


@jt.tree_util.register_dataclass
@dataclass(frozen=True)
class Linear:
    weight: Array
    bias: Array

    def __call__(self, x):
        return x @ self.weight + self.bias


def loss(model, x, y):
    return jnp.mean((model(x) - y) ** 2)


model = Linear(weight=jnp.zeros((3, 1)), bias=jnp.zeros(1))
x = jnp.arange(6.0).reshape(2, 3)
y = jnp.array([[1.0], [2.0]])
grads = model
for _ in range(3):
    grads = jt.grad(loss)(model, x, y)
    model = jt.tree_util.tree_map(lambda p, g: p - 0.01 * g, model, grads)
assert isinstance(model, Linear)
assert loss(model, x, y) < loss(Linear(jnp.zeros((3, 1)), jnp.zeros(1)), x, y)
leaves = jt.tree_util.tree_leaves(model)
assert len(leaves) == 2
reveal_type(model)
reveal_type(grads)
reveal_type(model(x))
