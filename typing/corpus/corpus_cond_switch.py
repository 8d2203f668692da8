"""Branching inside jit: lax.cond and lax.switch with lambdas and operands, lax.select, stop_gradient."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def huber(r, delta=1.0):
    return lax.cond(
        jnp.abs(r) <= delta,
        lambda r: 0.5 * r**2,
        lambda r: delta * (jnp.abs(r) - 0.5 * delta),
        r,
    )


def activation(kind, x):
    branches = [jnp.tanh, jt.nn.relu, lambda v: v * jt.nn.sigmoid(v)]
    return lax.switch(kind, branches, x)


def safe_log(x):
    # both branches run under vmap; where keeps the NaN out of the gradient
    return jnp.where(x > 0, jnp.log(jnp.where(x > 0, x, 1.0)), -1e3)


@jt.jit
def clipped_step(w, g, max_step):
    step = lax.cond(jnp.linalg.norm(g) > max_step, lambda g: g * (max_step / jnp.linalg.norm(g)), lambda g: g, g)
    return w - step


def target_loss(w, x):
    target = lax.stop_gradient(jnp.tanh(x @ w))
    return jnp.sum((x @ w - target) ** 2)


def pick(pred, a, b):
    return lax.select(pred, a, b)


residuals = jnp.array([-3.0, -0.5, 0.0, 0.25, 2.0])
losses = jt.vmap(huber)(residuals)
assert jnp.allclose(losses, jnp.array([2.5, 0.125, 0.0, 0.03125, 1.5]))
slopes = jt.vmap(jt.grad(huber))(residuals)
assert jnp.allclose(slopes, jnp.array([-1.0, -0.5, 0.0, 0.25, 1.0]))

x = jnp.linspace(-2.0, 2.0, 5)
outs = [activation(k, x) for k in range(3)]
assert jnp.allclose(outs[1], jnp.maximum(x, 0.0))
assert jnp.allclose(jt.jit(activation)(jnp.int32(5), x), outs[2])  # switch clamps the index

assert jnp.all(jnp.isfinite(jt.grad(lambda v: jnp.sum(safe_log(v)))(jnp.array([0.0, 2.0]))))
w = clipped_step(jnp.ones(3), jnp.array([3.0, 4.0, 0.0]), 1.0)
assert jnp.allclose(w, jnp.array([0.4, 0.2, 1.0]))

xs = jnp.eye(3)
g = jt.grad(target_loss)(jnp.full(3, 0.5), xs)
assert jnp.allclose(g, 2 * (0.5 - jnp.tanh(0.5)) * jnp.ones(3))
chosen = pick(x > 0, x, -x)
assert jnp.allclose(chosen, jnp.abs(x))
reveal_type(losses)
reveal_type(outs)
reveal_type(w)
reveal_type(chosen)
