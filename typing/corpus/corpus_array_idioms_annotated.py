"""Fully annotated array code: normalisation with finfo, dynamic slices
under vmap, top-k masks with .at, padding, host copies, a Ref accumulated
in fori_loop, stop_gradient, bfloat16 casts, boolean indexing, random keys."""
from __future__ import annotations

from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array, lax, random
from jaxtyped.typing import ArrayLike, DTypeLike


def normalize(x: ArrayLike, dtype: DTypeLike = jnp.float32) -> Array:
    arr = jnp.asarray(x, dtype=dtype)
    eps = jnp.finfo(arr.dtype).eps
    return (arr - arr.mean()) / (arr.std() + eps)


def windows(x: Array, size: int) -> Array:
    def one(i: Array) -> Array:
        return lax.dynamic_slice(x, (i,), (size,))

    return jt.vmap(one)(jnp.arange(x.shape[0] - size + 1))


def topk_mask(x: Array, k: int) -> Array:
    idx = jnp.argsort(-x)[:k]
    return jnp.zeros_like(x, dtype=bool).at[idx].set(True)


def masked_mean(x: Array, mask: Array) -> Array:
    return jnp.sum(jnp.where(mask, x, 0.0)) / jnp.maximum(mask.sum(), 1)


def pad_batch(seqs: list[Array], length: int) -> Array:
    return jnp.stack([jnp.pad(s, (0, length - s.shape[0])) for s in seqs])


def to_host(x: Array) -> np.ndarray:
    return np.asarray(x)


def accumulate(xs: Array) -> Array:
    total = jt.new_ref(jnp.zeros(()))

    def body(i: Array, carry: None) -> None:
        total[...] += xs[i]

    lax.fori_loop(0, xs.shape[0], body, None)
    return total[...]


def stopped_loss(w: Array, target: Array) -> Array:
    return jnp.sum((w - lax.stop_gradient(target)) ** 2)


def cast_half(x: Array) -> Array:
    y = x.astype(jnp.bfloat16)
    assert y.dtype == jnp.bfloat16
    return y.astype(jnp.float32)


x = jnp.arange(10.0)
norm = normalize(np.array([1.0, 2.0, 3.0]))
w5 = windows(x, 3)
mask = topk_mask(x, 3)
mm = masked_mean(x, mask)
batch = pad_batch([jnp.ones(2), jnp.ones(4)], 5)
host = to_host(batch)
acc = accumulate(x)
g = jt.grad(stopped_loss)(jnp.ones(3), jnp.zeros(3))
half = cast_half(x)
first: float = float(x[0])
as_list = x.tolist()
item = x.sum().item()
nz = jnp.nonzero(mask, size=3)[0]
evens = x[x % 2 == 0]
gathered = x.at[jnp.array([0, 2])].get(mode="clip")
key = random.key(1)
perm = random.permutation(key, 5)
choice = random.choice(key, x, (2,), replace=False)
ready = jt.block_until_ready(jt.device_put(x))
assert w5.shape == (8, 3) and int(mask.sum()) == 3 and batch.shape == (2, 5)
assert host.shape == (2, 5) and float(acc) == 45.0 and g.shape == (3,)
assert nz.shape == (3,) and evens.shape == (5,) and gathered.shape == (2,) and perm.shape == (5,)
assert choice.shape == (2,) and ready.shape == (10,) and isinstance(as_list, list) and item == 45.0
assert half.dtype == jnp.float32 and first == 0.0 and norm.shape == (3,) and float(mm) == 8.0
reveal_type(norm)
reveal_type(w5)
reveal_type(host)
reveal_type(acc)
reveal_type(item)
