"""vmap with in_axes dicts and None, out_axes, and axis_name collectives (a batch norm across the mapped axis)."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def affine(params, x):
    return params["w"] @ x + params["b"]


def batch_norm(x, eps=1e-5):
    mean = lax.pmean(x, axis_name="batch")
    var = lax.pmean((x - mean) ** 2, axis_name="batch")
    return (x - mean) * lax.rsqrt(var + eps)


def normalize_by_total(x):
    return x / lax.psum(jnp.sum(x), axis_name="rows")


params = {"w": jnp.arange(6.0).reshape(2, 3), "b": jnp.ones(2)}
xs = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)

# the same parameters for every example; examples along axis 0
batched = jt.vmap(affine, in_axes=(None, 0))(params, xs)
assert batched.shape == (4, 2)

# a batch of weight matrices but one shared bias: an in_axes dict mirrors the params
stacked = {"w": jnp.stack([params["w"], 2 * params["w"]]), "b": params["b"]}
per_model = jt.vmap(affine, in_axes=({"w": 0, "b": None}, None))(stacked, xs[0])
assert per_model.shape == (2, 2)

# examples along axis 1, results with the batch last
cols = jt.vmap(affine, in_axes=(None, 1), out_axes=1)(params, xs.T)
assert jnp.allclose(cols, batched.T)

normed = jt.vmap(batch_norm, axis_name="batch")(xs)
assert jnp.allclose(jnp.mean(normed, axis=0), 0.0, atol=1e-5)

shares = jt.vmap(normalize_by_total, axis_name="rows")(jnp.ones((2, 3)))
assert jnp.allclose(shares, jnp.full((2, 3), 1 / 6))

pair_sums = jt.vmap(lambda a, b: (a + b, a - b), in_axes=(0, None), out_axes=(0, 1))(xs, xs[0])
assert pair_sums[0].shape == (4, 3) and pair_sums[1].shape == (3, 4)

expanded = jnp.broadcast_to(jnp.expand_dims(xs[0], 0), (4, 3))
moved = jnp.moveaxis(jt.vmap(jnp.outer)(xs, expanded), 0, -1)
assert moved.shape == (3, 3, 4)
reveal_type(batched)
reveal_type(per_model)
reveal_type(normed)
reveal_type(pair_sums)
reveal_type(moved)
