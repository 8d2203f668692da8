"""Gaussian-process regression: RBF kernel by vmap, marginal likelihood by Cholesky, fit by grad."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.scipy.linalg import cho_factor, cho_solve


def rbf(x1, x2, log_ls):
    return jnp.exp(-0.5 * jnp.sum((x1 - x2) ** 2) / jnp.exp(2 * log_ls))


def gram(xs, ys, log_ls):
    return jt.vmap(lambda a: jt.vmap(lambda b: rbf(a, b, log_ls))(ys))(xs)


def neg_log_marginal(log_ls, xs, ys, noise=0.1):
    k = gram(xs, xs, log_ls) + noise * jnp.eye(xs.shape[0])
    c = cho_factor(k, lower=True)
    alpha = cho_solve(c, ys)
    return 0.5 * ys @ alpha + jnp.sum(jnp.log(jnp.diag(c[0])))


xs = jnp.linspace(0.0, 3.0, 8)[:, None]
ys = jnp.sin(xs[:, 0])
log_ls = jnp.array(0.0)
for _ in range(3):
    log_ls = log_ls - 0.05 * jt.grad(neg_log_marginal)(log_ls, xs, ys)
k = gram(xs, xs, log_ls)
assert k.shape == (8, 8)
test = jnp.array([[1.5]])
mean = gram(test, xs, log_ls) @ jnp.linalg.solve(k + 0.1 * jnp.eye(8), ys)
assert mean.shape == (1,)
reveal_type(log_ls)
reveal_type(k)
reveal_type(mean)
