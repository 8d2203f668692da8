"""A tiny optax-style optimizer library: init/update pairs over parameter pytrees, chained."""
from typing import NamedTuple, reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


class AdamState(NamedTuple):
    step: jt.Array
    mu: dict[str, jt.Array]
    nu: dict[str, jt.Array]


def adam(lr=1e-2, b1=0.9, b2=0.999, eps=1e-8):
    def init(params):
        zeros = jt.tree.map(jnp.zeros_like, params)
        return AdamState(jnp.zeros([], jnp.int32), zeros, jt.tree.map(jnp.zeros_like, params))

    def update(grads, state):
        step = state.step + 1
        mu = jt.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, grads)
        nu = jt.tree.map(lambda v, g: b2 * v + (1 - b2) * g**2, state.nu, grads)
        mu_hat = jt.tree.map(lambda m: m / (1 - b1**step), mu)
        nu_hat = jt.tree.map(lambda v: v / (1 - b2**step), nu)
        updates = jt.tree.map(lambda m, v: -lr * m / (jnp.sqrt(v) + eps), mu_hat, nu_hat)
        return updates, AdamState(step, mu, nu)

    return init, update


def global_norm(tree):
    return jnp.sqrt(sum(jnp.sum(x**2) for x in jt.tree.leaves(tree)))


def clip_by_global_norm(updates, max_norm):
    norm = global_norm(updates)
    scale = jnp.where(norm > max_norm, max_norm / norm, 1.0)
    return jt.tree.map(lambda u: u * scale, updates)


def apply_updates(params, updates):
    return jt.tree.map(lambda p, u: (p + u).astype(p.dtype), params, updates)


def loss_fn(params, x, y):
    pred = x @ params["w"] + params["b"]
    return jnp.mean((pred - y) ** 2)


init, update = adam(lr=0.1)
x = jnp.linspace(-1.0, 1.0, 32).reshape(16, 2)
y = x @ jnp.array([2.0, -1.0]) + 0.5
params = {"w": jnp.zeros(2), "b": jnp.zeros(())}
state = init(params)
first = loss_fn(params, x, y)


@jt.jit
def train_step(params, state):
    loss, grads = jt.value_and_grad(loss_fn)(params, x, y)
    updates, state = update(clip_by_global_norm(grads, 1.0), state)
    return apply_updates(params, updates), state, loss


for _ in range(50):
    params, state, last = train_step(params, state)
assert loss_fn(params, x, y) < first
assert int(state.step) == 50
reveal_type(state)
reveal_type(global_norm(params))
reveal_type(apply_updates(params, params))
