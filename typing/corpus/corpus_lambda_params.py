"""Gradients, Hessians and Jacobians through lambdas over typed functions of
a dict of parameters or a float, and
per-example gradients of an unannotated loss through vmap, jit and
checkpoint: the ways users close over a batch."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array

Params = dict[str, Array]


def typed_loss(params: Params, x: Array, y: Array) -> Array:
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def loss(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


def predict(params: Params, x: Array) -> Array:
    return x @ params["w"] + params["b"]


def scaled(v: float) -> float:
    return 3.0 * v


key = jt.random.key(0)
params = {"w": jt.random.normal(key, (3, 2)), "b": jnp.zeros(2)}
xs = jnp.ones((8, 3))
ys = jnp.zeros((8, 2))

grads = jt.grad(lambda p: typed_loss(p, xs, ys))(params)
value, grads2 = jt.value_and_grad(lambda p: typed_loss(p, xs, ys))(params)
grads3 = jt.jit(jt.grad(lambda p: typed_loss(p, xs, ys)))(params)
new_params = {k: params[k] - 0.1 * grads[k] for k in params}
assert set(grads) == {"w", "b"} and grads["w"].shape == (3, 2)
assert jnp.allclose(grads2["b"], grads3["b"]) and value >= 0
assert new_params["w"].shape == (3, 2)

per_example = jt.jit(jt.vmap(jt.grad(loss), in_axes=(None, 0, 0)))(params, xs, ys)
assert per_example["w"].shape == (8, 3, 2)
remat_grads = jt.jit(jt.checkpoint(jt.grad(loss)))(params, xs, ys)
assert jnp.allclose(remat_grads["w"], grads["w"], atol=1e-6)
both = jt.grad(lambda p, x: typed_loss(p, x, ys[0]), argnums=(0, 1))(params, xs[0])
assert both[0]["w"].shape == (3, 2) and both[1].shape == (3,)

slope = jt.grad(lambda v: jnp.asarray(scaled(v)))(2.0)
assert jnp.allclose(slope, 3.0)
curvature = jt.hessian(lambda v: jnp.asarray(scaled(v) * v))(2.0)
assert jnp.allclose(curvature, 6.0)
jac = jt.jacrev(lambda p: predict(p, xs[0]))(params)
assert jac["w"].shape == (2, 3, 2) and jac["b"].shape == (2, 2)
jac_fwd = jt.jacfwd(lambda v: jnp.asarray(scaled(v)))(1.0)
assert jnp.allclose(jac_fwd, 3.0)
reveal_type(grads)
reveal_type(value)
reveal_type(per_example)
reveal_type(slope)
