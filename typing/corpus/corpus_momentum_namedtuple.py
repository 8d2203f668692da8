"""A momentum optimizer whose state is a NamedTuple of pytrees, updated with tree_map."""
from typing import NamedTuple, reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array


class OptState(NamedTuple):
    step: Array
    velocity: dict[str, Array]


def init(params):
    return OptState(jnp.array(0), jt.tree_util.tree_map(jnp.zeros_like, params))


def update(params, grads, state, lr=0.1, beta=0.9):
    velocity = jt.tree_util.tree_map(lambda v, g: beta * v + g, state.velocity, grads)
    new_params = jt.tree_util.tree_map(lambda p, v: p - lr * v, params, velocity)
    return new_params, OptState(state.step + 1, velocity)


def loss(params):
    return jnp.sum((params["a"] - 1.0) ** 2) + jnp.sum(params["b"] ** 2)


params = {"a": jnp.zeros(2), "b": jnp.ones(3)}
state = init(params)
step = jt.jit(lambda p, s: update(p, jt.grad(loss)(p), s))
for _ in range(10):
    params, state = step(params, state)
assert int(state.step) == 10
assert loss(params) < 1.0
halved = jt.tree_util.tree_map(lambda v: v / 2, state)
assert isinstance(halved, OptState)
reveal_type(state)
reveal_type(halved)
reveal_type(params)
