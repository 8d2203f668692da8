"""A softmax classifier with jt.nn: one_hot targets, cross-entropy two ways, label smoothing, top-k accuracy."""
from functools import partial
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.scipy.special import logsumexp


def init(key, n_in, n_hidden, n_classes):
    k1, k2 = jt.random.split(key)
    return {
        "hidden": {"w": jt.random.normal(k1, (n_in, n_hidden)) * 0.5, "b": jnp.zeros(n_hidden)},
        "out": {"w": jt.random.normal(k2, (n_hidden, n_classes)) * 0.5, "b": jnp.zeros(n_classes)},
    }


def logits_fn(params, x):
    h = jt.nn.gelu(x @ params["hidden"]["w"] + params["hidden"]["b"])
    return h @ params["out"]["w"] + params["out"]["b"]


def cross_entropy(logits, labels, smoothing=0.0):
    n = logits.shape[-1]
    targets = jt.nn.one_hot(labels, n) * (1 - smoothing) + smoothing / n
    return -jnp.mean(jnp.sum(targets * jt.nn.log_softmax(logits), axis=-1))


def nll_by_gather(logits, labels):
    picked = jnp.take_along_axis(logits, labels[:, None], axis=-1)[:, 0]
    return jnp.mean(logsumexp(logits, axis=-1) - picked)


def topk_accuracy(logits, labels, k=2):
    _, idx = lax.top_k(logits, k)
    return jnp.mean(jnp.any(idx == labels[:, None], axis=-1))


@partial(jt.jit, static_argnames=("lr",))
def sgd_step(params, x, labels, lr=0.5):
    grads = jt.grad(lambda p: cross_entropy(logits_fn(p, x), labels, 0.1))(params)
    return jt.tree.map(lambda p, g: p - lr * g, params, grads)


key = jt.random.key(0)
kx, kp = jt.random.split(key)
x = jt.random.normal(kx, (24, 4))
labels = jnp.argmax(x[:, :3], axis=-1)
params = init(kp, 4, 16, 3)
logits = logits_fn(params, x)
assert jnp.allclose(cross_entropy(logits, labels), nll_by_gather(logits, labels), atol=1e-5)
before = cross_entropy(logits, labels)
for _ in range(30):
    params = sgd_step(params, x, labels)
after = cross_entropy(logits_fn(params, x), labels)
assert after < before
acc = topk_accuracy(logits_fn(params, x), labels)
probs = jt.nn.softmax(logits_fn(params, x))
assert jnp.allclose(probs.sum(axis=-1), 1.0, atol=1e-5)
assert 0.0 <= float(acc) <= 1.0
assert jnp.allclose(jt.nn.log_sigmoid(jnp.zeros(2)), -jnp.log(2.0))
reveal_type(params)
reveal_type(after)
reveal_type(acc)
reveal_type(probs)
