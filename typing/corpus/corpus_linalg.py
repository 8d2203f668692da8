"""Linear algebra: least squares, Cholesky solves, eigen-decompositions, gradients through them."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def make_spd(a):
    return a @ a.T + 3.0 * jnp.eye(a.shape[0])


a = jnp.array([[1.0, 0.5, 0.0], [0.2, 1.0, 0.3], [0.0, 0.4, 1.0]])
spd = make_spd(a)
b = jnp.array([1.0, 2.0, 3.0])
x = jnp.linalg.solve(spd, b)
assert jnp.allclose(spd @ x, b, atol=1e-4)
chol = jnp.linalg.cholesky(spd)
assert jnp.allclose(chol @ chol.T, spd, atol=1e-4)
w, v = jnp.linalg.eigh(spd)
assert jnp.all(w > 0)
u, s, vt = jnp.linalg.svd(a)
logdet = jnp.linalg.slogdet(spd)[1]


def quad(a):
    m = make_spd(a)
    return b @ jnp.linalg.solve(m, b) + jnp.linalg.slogdet(m)[1]


g = jt.grad(quad)(a)
assert g.shape == (3, 3)
q, r = jnp.linalg.qr(a)
assert jnp.allclose(q @ r, a, atol=1e-5)
inv = jnp.linalg.inv(spd)
reveal_type(x)
reveal_type(w)
reveal_type(s)
reveal_type(g)
reveal_type(inv)
