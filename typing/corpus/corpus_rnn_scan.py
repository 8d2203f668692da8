"""An Elman RNN unrolled with lax.scan, trained for a couple of steps."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def rnn(params, xs, h0):
    def cell(h, x):
        h = jnp.tanh(params["wh"] @ h + params["wx"] @ x + params["b"])
        return h, params["wo"] @ h

    h_last, ys = lax.scan(cell, h0, xs)
    return h_last, ys


def loss(params, xs, targets):
    _, ys = rnn(params, xs, jnp.zeros(4))
    return jnp.mean((ys - targets) ** 2)


key = jt.random.PRNGKey(3)
ks = jt.random.split(key, 4)
params = {
    "wh": jt.random.normal(ks[0], (4, 4)) * 0.3,
    "wx": jt.random.normal(ks[1], (4, 2)) * 0.3,
    "b": jnp.zeros(4),
    "wo": jt.random.normal(ks[2], (1, 4)) * 0.3,
}
xs = jt.random.normal(ks[3], (10, 2))
targets = jnp.cumsum(xs[:, :1], axis=0) * 0.1

grad_fn = jt.jit(jt.grad(loss))
before = loss(params, xs, targets)
for _ in range(3):
    g = grad_fn(params, xs, targets)
    params = {k: params[k] - 0.1 * g[k] for k in params}
assert loss(params, xs, targets) < before
h, ys = rnn(params, xs, jnp.zeros(4))
assert ys.shape == (10, 1)
reveal_type(h)
reveal_type(ys)
