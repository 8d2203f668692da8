"""Maximum-likelihood fit with jt.scipy.stats, stopped by a while_loop on a tuple carry, timed with block_until_ready."""
import time
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def neg_log_likelihood(theta, data):
    mu, log_sigma = theta[0], theta[1]
    return -jnp.sum(jt.scipy.stats.norm.logpdf(data, mu, jnp.exp(log_sigma)))


def fit(data, lr=0.05, tol=1e-5, max_steps=500):
    grad_fn = jt.grad(neg_log_likelihood)

    def keep_going(carry):
        step, _, change = carry
        return (step < max_steps) & (change > tol)

    def update(carry):
        step, theta, _ = carry
        new = theta - lr * grad_fn(theta, data) / data.shape[0]
        return step + 1, new, jnp.max(jnp.abs(new - theta))

    return lax.while_loop(keep_going, update, (0, jnp.zeros(2), jnp.inf))


def gram(features):
    return jnp.einsum("nd,ne->de", features, features, precision="highest") / features.shape[0]


key = jt.random.key(11)
data = 2.0 + 0.5 * jt.random.normal(key, (400,))
jitted_fit = jt.jit(fit)
jitted_fit(data)[1].block_until_ready()  # compile once, outside the timing

start = time.perf_counter()
steps, theta, change = jitted_fit(data)
theta.block_until_ready()
elapsed = time.perf_counter() - start
assert elapsed >= 0.0
assert jnp.allclose(theta[0], jnp.mean(data), atol=1e-2)
assert jnp.allclose(jnp.exp(theta[1]), jnp.std(data), atol=1e-2)
assert int(steps) < 500

features = jnp.stack([data, data**2], axis=1)
g = gram(features)
assert jnp.allclose(g, jnp.dot(features.T, features, precision=lax.Precision.HIGHEST) / 400, rtol=1e-4)
log_p = jt.scipy.special.logsumexp(jt.scipy.stats.norm.logpdf(data, theta[0], jnp.exp(theta[1])))
assert len(theta.devices()) == 1 and theta.sharding.is_fully_replicated
reveal_type(theta)
reveal_type(g)
reveal_type(log_p)
reveal_type(theta.sharding)
