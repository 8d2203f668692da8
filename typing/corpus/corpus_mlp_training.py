"""A small MLP trained by hand-written SGD on a parameter pytree (a list of dicts)."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def init_params(key, sizes):
    params = []
    keys = jt.random.split(key, len(sizes) - 1)
    for k, (n_in, n_out) in zip(keys, zip(sizes[:-1], sizes[1:])):
        w = jt.random.normal(k, (n_in, n_out)) / jnp.sqrt(n_in)
        params.append({"w": w, "b": jnp.zeros(n_out)})
    return params


def predict(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    last = params[-1]
    return x @ last["w"] + last["b"]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


@jt.jit
def update(params, x, y):
    grads = jt.grad(loss)(params, x, y)
    return jt.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)


key = jt.random.PRNGKey(0)
params = init_params(key, [3, 8, 1])
xs = jt.random.normal(jt.random.PRNGKey(1), (16, 3))
ys = jnp.sum(xs, axis=1, keepdims=True)
before = loss(params, xs, ys)
for _ in range(5):
    params = update(params, xs, ys)
after = loss(params, xs, ys)
assert after < before
reveal_type(before)
reveal_type(xs)
