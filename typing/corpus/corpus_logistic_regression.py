"""Logistic regression with value_and_grad and an Adam optimizer written by hand."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def nll(w, b, x, y):
    logits = x @ w + b
    return jnp.mean(jt.nn.softplus(logits) - y * logits)


def adam_init(params):
    zeros = jt.tree_util.tree_map(jnp.zeros_like, params)
    return {"m": zeros, "v": zeros, "t": 0}


def adam_update(params, grads, state, lr=0.1, b1=0.9, b2=0.999, eps=1e-8):
    t = state["t"] + 1
    m = jt.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
    v = jt.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g**2, state["v"], grads)
    mhat = jt.tree_util.tree_map(lambda m: m / (1 - b1**t), m)
    vhat = jt.tree_util.tree_map(lambda v: v / (1 - b2**t), v)
    new = jt.tree_util.tree_map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + eps), params, mhat, vhat)
    return new, {"m": m, "v": v, "t": t}


key = jt.random.PRNGKey(0)
x = jt.random.normal(key, (20, 2))
y = (x[:, 0] + x[:, 1] > 0).astype(jnp.float32)
params = (jnp.zeros(2), jnp.array(0.0))
state = adam_init(params)
grad_fn = jt.jit(jt.value_and_grad(nll, argnums=(0, 1)))
first = nll(params[0], params[1], x, y)
value, grads = grad_fn(params[0], params[1], x, y)
for _ in range(5):
    w, b = params
    value, grads = grad_fn(w, b, x, y)
    params, state = adam_update(params, grads, state)
assert nll(params[0], params[1], x, y) < first
reveal_type(value)
reveal_type(grads)
reveal_type(params)
