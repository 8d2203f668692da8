"""Rematerialised residual blocks with jt.checkpoint."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def block(w, x):
    return x + jnp.sin(x @ w)


checkpointed = jt.checkpoint(block)


def deep(ws, x):
    for w in ws:
        x = checkpointed(w, x)
    return jnp.sum(x**2)


@jt.checkpoint
def mlp_block(params, x):
    return jt.nn.gelu(x @ params["w"] + params["b"])


key = jt.random.PRNGKey(7)
ws = [jt.random.normal(k, (4, 4)) * 0.2 for k in jt.random.split(key, 3)]
x = jnp.ones((2, 4))
g = jt.grad(deep)(ws, x)
assert len(g) == 3 and g[0].shape == (4, 4)
plain = jt.grad(lambda ws, x: jnp.sum(block(ws[0], x) ** 2))(ws, x)
remat = jt.grad(lambda ws, x: jnp.sum(checkpointed(ws[0], x) ** 2))(ws, x)
assert jnp.allclose(plain[0], remat[0], rtol=1e-5)
params = {"w": ws[0], "b": jnp.zeros(4)}
out = jt.jit(mlp_block)(params, x)
policy_block = jt.checkpoint(block, policy=jt.checkpoint_policies.nothing_saveable)
assert jnp.allclose(policy_block(ws[1], x), block(ws[1], x))
reveal_type(g)
reveal_type(out)
reveal_type(checkpointed(ws[0], x))
