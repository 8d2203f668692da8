"""Jacobians and Hessians of a vector field: jacfwd, jacrev, hessian, jvp, vjp."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def field(v):
    x, y = v[0], v[1]
    return jnp.stack([x * y, jnp.sin(x) + y**2, jnp.exp(-x)])


v = jnp.array([0.3, -0.7])
jf = jt.jacfwd(field)(v)
jr = jt.jacrev(field)(v)
assert jf.shape == (3, 2) and jnp.allclose(jf, jr, atol=1e-6)
hess = jt.hessian(lambda v: jnp.sum(field(v) ** 2))(v)
assert hess.shape == (2, 2)
out, tangent = jt.jvp(field, (v,), (jnp.array([1.0, 0.0]),))
assert jnp.allclose(tangent, jf[:, 0])
out2, pullback = jt.vjp(field, v)
(cot,) = pullback(jnp.ones(3))
assert jnp.allclose(cot, jf.sum(axis=0), atol=1e-6)
y, f_jvp = jt.linearize(field, v)
assert jnp.allclose(f_jvp(jnp.array([0.0, 1.0])), jf[:, 1], atol=1e-6)
hvp = lambda f, x, t: jt.jvp(jt.grad(f), (x,), (t,))[1]
hv = hvp(lambda v: jnp.sum(field(v) ** 2), v, jnp.array([1.0, 0.0]))
assert jnp.allclose(hv, hess[:, 0], atol=1e-5)
reveal_type(jf)
reveal_type(hess)
reveal_type(tangent)
reveal_type(cot)
reveal_type(hv)
