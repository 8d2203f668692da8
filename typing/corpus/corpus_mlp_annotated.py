"""The MLP again, written by a user who annotates helpers but not lambdas."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array

Params = dict[str, Array]


def init(key: Array, n_in: int, n_hidden: int) -> Params:
    k1, k2 = jt.random.split(key)
    return {
        "w1": jt.random.normal(k1, (n_in, n_hidden)) * 0.1,
        "b1": jnp.zeros(n_hidden),
        "w2": jt.random.normal(k2, (n_hidden,)) * 0.1,
    }


def forward(p: Params, x: Array) -> Array:
    h = jt.nn.relu(x @ p["w1"] + p["b1"])
    return h @ p["w2"]


def mse(p: Params, x: Array, y: Array) -> Array:
    return jnp.mean((forward(p, x) - y) ** 2)


@jt.jit
def step(p: Params, x: Array, y: Array) -> tuple[Params, Array]:
    value, grads = jt.value_and_grad(mse)(p, x, y)
    new = jt.tree_util.tree_map(lambda a, g: a - 0.05 * g, p, grads)
    return new, value


params = init(jt.random.PRNGKey(0), 4, 16)
x = jnp.linspace(-1.0, 1.0, 32).reshape(8, 4)
y = jnp.sin(x).sum(axis=1)
losses = []
for _ in range(4):
    params, value = step(params, x, y)
    losses.append(float(value))
assert losses[-1] <= losses[0]
reveal_type(params)
reveal_type(step(params, x, y)[1])
reveal_type(forward(params, x))
