"""Mixed precision: bfloat16 compute with float32 master weights, loss scaling, finite checks, dtype queries."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def cast_tree(tree, dtype):
    return jt.tree.map(lambda x: x.astype(dtype) if jnp.issubdtype(x.dtype, jnp.floating) else x, tree)


def forward(params, x):
    h = jnp.tanh(x @ params["w1"])
    return h @ params["w2"]


def scaled_loss(params, x, y, scale):
    half = cast_tree(params, jnp.bfloat16)
    pred = forward(half, x.astype(jnp.bfloat16))
    loss = jnp.mean((pred.astype(jnp.float32) - y) ** 2)
    return loss * scale


@jt.jit
def train_step(params, x, y, scale):
    grads = jt.grad(scaled_loss)(params, x, y, scale)
    grads = jt.tree.map(lambda g: lax.convert_element_type(g, jnp.float32) / scale, grads)
    finite = jnp.all(jnp.array([jnp.all(jnp.isfinite(g)) for g in jt.tree.leaves(grads)]))
    new = jt.tree.map(lambda p, g: jnp.where(finite, p - 0.05 * g, p), params, grads)
    new_scale = jnp.where(finite, scale, scale / 2)
    return new, new_scale


def eps_for(x):
    return jnp.finfo(x.dtype).eps


key = jt.random.key(3)
k1, k2, kx = jt.random.split(key, 3)
params = {"w1": jt.random.normal(k1, (4, 8)) * 0.3, "w2": jt.random.normal(k2, (8, 1)) * 0.3}
x = jt.random.normal(kx, (32, 4))
y = jnp.sum(x, axis=1, keepdims=True) * 0.1
scale = jnp.float32(2.0**10)
start = scaled_loss(params, x, y, 1.0)
for _ in range(20):
    params, scale = train_step(params, x, y, scale)
assert all(p.dtype == jnp.float32 for p in jt.tree.leaves(params))
assert scaled_loss(params, x, y, 1.0) < start

half = cast_tree(params, jnp.bfloat16)
assert half["w1"].dtype == jnp.bfloat16
assert jnp.result_type(half["w1"], params["w1"]) == jnp.float32
assert eps_for(half["w1"]) > eps_for(params["w1"])
assert jnp.iinfo(jnp.int8).max == 127
counts = jnp.arange(5, dtype=jnp.int32)
assert (counts / 2).dtype == jnp.float32 and (counts // 2).dtype == jnp.int32
reveal_type(half)
reveal_type(scale)
reveal_type(eps_for(x))
reveal_type(jnp.result_type(half["w1"], params["w1"]))
