"""Unadjusted Langevin sampling of a 2-D density: grad of the log density inside fori_loop."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def log_density(x):
    return -0.5 * jnp.sum(x**2) - 0.1 * jnp.sum(x**4)


score = jt.grad(log_density)


def sample(key, x0, steps=50, eps=0.05):
    def body(i, state):
        x, key = state
        key, sub = jt.random.split(key)
        noise = jt.random.normal(sub, x.shape)
        return x + eps * score(x) + jnp.sqrt(2 * eps) * noise, key

    x, _ = lax.fori_loop(0, steps, body, (x0, key))
    return x


keys = jt.random.split(jt.random.PRNGKey(0), 16)
chains = jt.jit(jt.vmap(sample, in_axes=(0, None)))(keys, jnp.zeros(2))
assert chains.shape == (16, 2)
mean = chains.mean(axis=0)
assert jnp.all(jnp.abs(mean) < 1.5)
reveal_type(chains)
reveal_type(score(jnp.ones(2)))
