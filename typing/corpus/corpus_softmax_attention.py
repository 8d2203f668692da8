"""Scaled dot-product attention with a causal mask, batched over heads with vmap."""
import math
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def attention(q, k, v, causal=True):
    scores = q @ k.T / math.sqrt(q.shape[-1])
    if causal:
        n = scores.shape[0]
        mask = jnp.tril(jnp.ones((n, n), dtype=bool))
        scores = jnp.where(mask, scores, -jnp.inf)
    weights = jt.nn.softmax(scores, axis=-1)
    return weights @ v


def multi_head(params, x):
    q = jnp.einsum("td,hde->hte", x, params["wq"])
    k = jnp.einsum("td,hde->hte", x, params["wk"])
    v = jnp.einsum("td,hde->hte", x, params["wv"])
    heads = jt.vmap(attention)(q, k, v)
    return jnp.concatenate(list(heads), axis=-1)


key = jt.random.PRNGKey(1)
kq, kk, kv, kx = jt.random.split(key, 4)
params = {
    "wq": jt.random.normal(kq, (2, 4, 3)),
    "wk": jt.random.normal(kk, (2, 4, 3)),
    "wv": jt.random.normal(kv, (2, 4, 3)),
}
x = jt.random.normal(kx, (5, 4))
out = jt.jit(multi_head)(params, x)
assert out.shape == (5, 6)
g = jt.grad(lambda p: jnp.sum(multi_head(p, x) ** 2))(params)
assert g["wq"].shape == (2, 4, 3)
reveal_type(out)
reveal_type(g)
