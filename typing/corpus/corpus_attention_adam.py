"""A fully annotated attention block trained with a hand-written Adam: the
updates return tree_map of lambdas under their declared types."""
from __future__ import annotations

import functools
from typing import NamedTuple, reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array, lax, random

Params = dict[str, Array]


class AdamState(NamedTuple):
    step: Array
    mu: Params
    nu: Params


def init_params(key: Array, d_model: int, n_heads: int) -> Params:
    k1, k2, k3 = random.split(key, 3)
    scale = 1.0 / jnp.sqrt(d_model)
    return {
        "wq": random.normal(k1, (d_model, d_model)) * scale,
        "wk": random.normal(k2, (d_model, d_model)) * scale,
        "wv": random.normal(k3, (d_model, d_model)) * scale,
        "ln_g": jnp.ones(d_model),
        "ln_b": jnp.zeros(d_model),
    }


def layer_norm(x: Array, g: Array, b: Array, eps: float = 1e-5) -> Array:
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.var(x, axis=-1, keepdims=True)
    return (x - mean) / jnp.sqrt(var + eps) * g + b


def attention(params: Params, x: Array, mask: Array | None = None) -> Array:
    q = x @ params["wq"]
    k = x @ params["wk"]
    v = x @ params["wv"]
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    if mask is not None:
        scores = jnp.where(mask, scores, -jnp.inf)
    weights = jt.nn.softmax(scores, axis=-1)
    return layer_norm(x + weights @ v, params["ln_g"], params["ln_b"])


def loss_fn(params: Params, xs: Array, ys: Array) -> Array:
    preds = jt.vmap(attention, in_axes=(None, 0))(params, xs)
    return jnp.mean((preds - ys) ** 2)


def adam_init(params: Params) -> AdamState:
    zeros = jt.tree_util.tree_map(jnp.zeros_like, params)
    return AdamState(jnp.zeros((), jnp.int32), zeros, zeros)


def adam_update(
    grads: Params, state: AdamState, params: Params, lr: float = 1e-3, b1: float = 0.9, b2: float = 0.999
) -> tuple[Params, AdamState]:
    step = state.step + 1
    mu = jt.tree_util.tree_map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, grads)
    nu = jt.tree_util.tree_map(lambda v, g: b2 * v + (1 - b2) * g**2, state.nu, grads)
    mu_hat = jt.tree_util.tree_map(lambda m: m / (1 - b1**step), mu)
    nu_hat = jt.tree_util.tree_map(lambda v: v / (1 - b2**step), nu)
    new_params = jt.tree_util.tree_map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + 1e-8), params, mu_hat, nu_hat)
    return new_params, AdamState(step, mu, nu)


@functools.partial(jt.jit, static_argnames=("lr",))
def train_step(params: Params, state: AdamState, xs: Array, ys: Array, lr: float) -> tuple[Params, AdamState, Array]:
    loss, grads = jt.value_and_grad(loss_fn)(params, xs, ys)
    params, state = adam_update(grads, state, params, lr=lr)
    return params, state, loss


def causal_mask(n: int) -> Array:
    return jnp.tril(jnp.ones((n, n), dtype=bool))


def global_norm(tree: Params) -> Array:
    return jnp.sqrt(sum(jnp.sum(leaf**2) for leaf in jt.tree_util.tree_leaves(tree)))


def clip_by_global_norm(tree: Params, max_norm: float) -> Params:
    norm = global_norm(tree)
    factor = jnp.minimum(1.0, max_norm / (norm + 1e-6))
    return jt.tree_util.tree_map(lambda t: t * factor, tree)


def scan_rnn(w: Array, xs: Array) -> tuple[Array, Array]:
    def step(h: Array, x: Array) -> tuple[Array, Array]:
        h = jnp.tanh(w @ h + x)
        return h, h

    return lax.scan(step, jnp.zeros(w.shape[0]), xs)


def piecewise(x: Array) -> Array:
    return lax.cond(jnp.sum(x) > 0, lambda v: v * 2.0, lambda v: -v, x)


def count_positive(xs: Array) -> Array:
    def body(i: int | Array, acc: Array) -> Array:
        return acc + (xs[i] > 0).astype(jnp.int32)

    return lax.fori_loop(0, xs.shape[0], body, jnp.zeros((), jnp.int32))


key = random.PRNGKey(0)
pkey, dkey = random.split(key)
params = init_params(pkey, 4, 2)
state = adam_init(params)
xs = random.normal(dkey, (8, 3, 4))
ys = jnp.zeros((8, 3, 4))
losses: list[Array] = []
for _ in range(2):
    params, state, loss = train_step(params, state, xs, ys, lr=1e-2)
    losses.append(loss)
assert float(losses[1]) < float(losses[0])
clipped = clip_by_global_norm(params, 1.0)
hs, seq = scan_rnn(jnp.eye(4) * 0.5, jnp.ones((5, 4)))
masked = attention(params, xs[0], causal_mask(3))
n_pos: Array = count_positive(jnp.array([1.0, -2.0, 3.0]))
pw = piecewise(jnp.ones(3))
per_ex = jt.vmap(jt.grad(loss_fn), in_axes=(None, 0, 0))(params, xs[:, None], ys[:, None])
assert float(global_norm(clipped)) <= 1.0 + 1e-5
assert hs.shape == (4,) and seq.shape == (5, 4) and masked.shape == (3, 4)
assert int(n_pos) == 2 and per_ex["wq"].shape == (8, 4, 4)
assert jnp.allclose(pw, 2.0)
updated = xs.at[0, 0].set(1.0).at[1].add(2.0)
idx = jnp.argmax(updated, axis=-1)
taken = jnp.take_along_axis(updated, idx[..., None], axis=-1)
one_hot = jt.nn.one_hot(idx, 4)
logits = jnp.einsum("bij,jk->bik", updated, params["wq"])
logp = jt.nn.log_softmax(logits)
nll = -jnp.mean(jnp.sum(one_hot * logp, axis=-1))
assert taken.shape == (8, 3, 1) and bool(jnp.isfinite(nll))
reveal_type(params)
reveal_type(state)
reveal_type(clipped)
reveal_type(seq)
reveal_type(per_ex)
