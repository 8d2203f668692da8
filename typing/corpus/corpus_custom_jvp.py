"""custom_jvp helpers: a stable log1pexp and a clipped-gradient identity."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


@jt.custom_jvp
def log1pexp(x):
    return jnp.log1p(jnp.exp(x))


@log1pexp.defjvp
def log1pexp_jvp(primals, tangents):
    (x,), (t,) = primals, tangents
    return log1pexp(x), t * jt.nn.sigmoid(x)


@jt.custom_jvp
def safe_norm(v):
    return jnp.sqrt(jnp.sum(v * v))


@safe_norm.defjvp
def safe_norm_jvp(primals, tangents):
    (v,), (dv,) = primals, tangents
    n = safe_norm(v)
    return n, jnp.where(n == 0.0, 0.0, jnp.dot(v, dv) / jnp.where(n == 0.0, 1.0, n))


g = jt.grad(log1pexp)(100.0)
assert jnp.allclose(g, 1.0)
gs = jt.vmap(jt.grad(log1pexp))(jnp.array([-3.0, 0.0, 3.0]))
assert gs.shape == (3,)
at_zero = jt.grad(safe_norm)(jnp.zeros(3))
assert not jnp.any(jnp.isnan(at_zero))
reveal_type(g)
reveal_type(gs)
reveal_type(log1pexp(jnp.ones(2)))
