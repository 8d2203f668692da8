"""Bilinear models and tensor contractions with einsum, tensordot and batched outer products."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def bilinear(w, x, y):
    return jnp.einsum("i,ijk,j->k", x, w, y)


def batched_bilinear(w, xs, ys):
    return jnp.einsum("bi,ijk,bj->bk", xs, w, ys)


key = jt.random.PRNGKey(9)
k1, k2, k3 = jt.random.split(key, 3)
w = jt.random.normal(k1, (3, 4, 2))
xs = jt.random.normal(k2, (5, 3))
ys = jt.random.normal(k3, (5, 4))
single = jt.vmap(bilinear, in_axes=(None, 0, 0))(w, xs, ys)
batched = batched_bilinear(w, xs, ys)
assert jnp.allclose(single, batched, atol=1e-5)
gw = jt.grad(lambda w: jnp.sum(batched_bilinear(w, xs, ys) ** 2))(w)
assert gw.shape == w.shape
td = jnp.tensordot(xs, w, axes=([1], [0]))
assert td.shape == (5, 4, 2)
outer = jnp.einsum("bi,bj->bij", xs, ys)
trace = jnp.einsum("ii->", jnp.eye(4))
reveal_type(single)
reveal_type(gw)
reveal_type(td)
reveal_type(trace)
