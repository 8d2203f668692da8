"""eval_shape and make_jaxpr to inspect a model before running it."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def init(key, n_in, n_out):
    return {"w": jt.random.normal(key, (n_in, n_out)), "b": jnp.zeros(n_out)}


def apply(params, x):
    return jnp.tanh(x @ params["w"] + params["b"])


shapes = jt.eval_shape(lambda k: init(k, 3, 5), jt.random.PRNGKey(0))
assert shapes["w"].shape == (3, 5)
params = init(jt.random.PRNGKey(0), 3, 5)
spec = jt.ShapeDtypeStruct((7, 3), jnp.float32)
out_shape = jt.eval_shape(apply, params, spec)
assert out_shape.shape == (7, 5)
jaxpr = jt.make_jaxpr(apply)(params, jnp.ones((2, 3)))
assert "tanh" in str(jaxpr)
grad_jaxpr = jt.make_jaxpr(jt.grad(lambda p, x: jnp.sum(apply(p, x))))(params, jnp.ones((2, 3)))
assert len(str(grad_jaxpr)) > 0
reveal_type(out_shape)
reveal_type(jaxpr)
