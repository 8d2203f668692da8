"""Gaussian mixture log-likelihood with logsumexp, fitted by gradient ascent on a pytree."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.scipy.special import logsumexp
from jaxtyped.scipy.stats import norm


def log_likelihood(params, xs):
    log_w = jt.nn.log_softmax(params["logits"])
    comp = norm.logpdf(xs[:, None], params["means"], jnp.exp(params["log_scales"]))
    return jnp.sum(logsumexp(comp + log_w, axis=1))


xs = jnp.concatenate([jnp.linspace(-3.0, -1.0, 10), jnp.linspace(1.0, 3.0, 10)])
params = {"logits": jnp.zeros(2), "means": jnp.array([-0.5, 0.5]), "log_scales": jnp.zeros(2)}
start = log_likelihood(params, xs)
ascend = jt.jit(lambda p: jt.tree_util.tree_map(lambda a, g: a + 0.01 * g, p, jt.grad(log_likelihood)(p, xs)))
for _ in range(10):
    params = ascend(params)
assert log_likelihood(params, xs) > start
responsibilities = jt.nn.softmax(norm.logpdf(xs[:, None], params["means"], 1.0), axis=1)
assert responsibilities.shape == (20, 2)
reveal_type(start)
reveal_type(params)
reveal_type(responsibilities)
