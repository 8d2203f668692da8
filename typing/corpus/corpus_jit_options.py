"""jit's options as users write them: the decorator-factory form, static and donated arguments."""
from functools import partial
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


@jt.jit(static_argnames="k")
def top_k_sum(x, k):
    return jnp.sum(jnp.sort(x)[-k:])


@partial(jt.jit, donate_argnums=0)
def sgd(params, grads):
    return jt.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)


@partial(jt.jit, static_argnames=("activation",))
def layer(x, w, activation="relu"):
    h = x @ w
    return jt.nn.relu(h) if activation == "relu" else jnp.tanh(h)


x = jnp.array([3.0, 1.0, 2.0, 5.0])
assert jnp.allclose(top_k_sum(x, k=2), 8.0)
params = {"w": jnp.ones(3)}
params = sgd(params, {"w": jnp.ones(3)})
assert jnp.allclose(params["w"], 0.9)
h1 = layer(jnp.ones((2, 3)), jnp.ones((3, 4)))
h2 = layer(jnp.ones((2, 3)), -jnp.ones((3, 4)), activation="tanh")
assert h1.shape == h2.shape == (2, 4)
lowered = jt.jit(lambda a: a * 2).lower(jnp.ones(2))
text = lowered.as_text()
assert "stablehlo" in text or "mhlo" in text
compiled = lowered.compile()
assert jnp.allclose(compiled(jnp.ones(2)), 2.0)
reveal_type(top_k_sum(x, k=2))
reveal_type(params)
reveal_type(h2)
