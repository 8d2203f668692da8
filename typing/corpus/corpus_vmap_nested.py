"""Nested vmap of lambdas: pairwise distances, batched matrix products, in_axes/out_axes."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


xs = jnp.arange(6.0).reshape(3, 2)
ys = jnp.arange(8.0).reshape(4, 2)
pairwise = jt.vmap(lambda x: jt.vmap(lambda y: jnp.linalg.norm(x - y))(ys))(xs)
assert pairwise.shape == (3, 4)
mats = jnp.ones((5, 2, 3))
vecs = jnp.ones((5, 3))
mv = jt.vmap(jnp.matmul)(mats, vecs)
assert mv.shape == (5, 2)
shared = jt.vmap(lambda m, v: m @ v, in_axes=(0, None))(mats, jnp.ones(3))
assert shared.shape == (5, 2)
transposed = jt.vmap(lambda v: v * 2, in_axes=1, out_axes=1)(jnp.ones((2, 7)))
assert transposed.shape == (2, 7)
outer = jt.vmap(jt.vmap(lambda a, b: a * b, (None, 0)), (0, None))(jnp.arange(3.0), jnp.arange(4.0))
assert outer.shape == (3, 4)
dict_batch = jt.vmap(lambda d: d["a"] + d["b"])({"a": jnp.ones(3), "b": jnp.zeros(3)})
tupled = jt.vmap(lambda x: (x, x**2))(jnp.arange(3.0))
assert tupled[1].shape == (3,)
reveal_type(pairwise)
reveal_type(mv)
reveal_type(outer)
reveal_type(dict_batch)
reveal_type(tupled)
