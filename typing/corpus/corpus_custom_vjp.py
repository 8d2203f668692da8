"""custom_vjp helpers: gradient clipping and a straight-through rounding."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


@jt.custom_vjp
def clip_gradient(x):
    return x


def clip_fwd(x):
    return x, None


def clip_bwd(_, g):
    return (jnp.clip(g, -1.0, 1.0),)


clip_gradient.defvjp(clip_fwd, clip_bwd)


@jt.custom_vjp
def straight_through_round(x):
    return jnp.round(x)


def st_fwd(x):
    return jnp.round(x), None


def st_bwd(res, g):
    return (g,)


straight_through_round.defvjp(st_fwd, st_bwd)

g = jt.grad(lambda x: 10.0 * clip_gradient(x))(3.0)
assert jnp.allclose(g, 1.0)
w = jnp.array([0.2, 1.7, -0.6])
gq = jt.grad(lambda w: jnp.sum(straight_through_round(w) * w))(w)
assert gq.shape == (3,)
batched = jt.vmap(jt.grad(lambda x: clip_gradient(x) ** 3))(jnp.array([0.1, 2.0]))
assert jnp.allclose(batched, jnp.array([0.03, 1.0]), atol=1e-5)
reveal_type(g)
reveal_type(gq)
reveal_type(straight_through_round(w))
