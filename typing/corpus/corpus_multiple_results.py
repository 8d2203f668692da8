"""Functions with several results in annotated code: decompositions, unique
with counts, meshgrid, split, nonzero with a size, logsumexp with a sign,
Cholesky factors, random keys old and new."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy as jsp
from jaxtyped import Array


def whiten(cov: Array, x: Array) -> Array:
    eigenvalues, eigenvectors = jnp.linalg.eigh(cov)
    return (x @ eigenvectors) / jnp.sqrt(eigenvalues)


def low_rank(a: Array, k: int) -> Array:
    u, s, vt = jnp.linalg.svd(a, full_matrices=False)
    return (u[:, :k] * s[:k]) @ vt[:k]


def orthonormalize(a: Array) -> Array:
    q, r = jnp.linalg.qr(a)
    return q * jnp.sign(jnp.diag(r))


def log_det(a: Array) -> Array:
    sign, logdet = jnp.linalg.slogdet(a)
    return jnp.where(sign > 0, logdet, -jnp.inf)


def gaussian_logpdf(x: Array, mean: Array, cov: Array) -> Array:
    factor = jsp.linalg.cho_factor(cov, lower=True)
    diff = x - mean
    maha = diff @ jsp.linalg.cho_solve(factor, diff)
    chol = jnp.linalg.cholesky(cov)
    return -0.5 * (maha + 2 * jnp.sum(jnp.log(jnp.diag(chol))) + x.shape[0] * jnp.log(2 * jnp.pi))


def histogram_of(labels: Array, n: int) -> tuple[Array, Array]:
    values, counts = jnp.unique(labels, return_counts=True, size=n, fill_value=-1)
    return values, counts


def grid(n: int) -> Array:
    xs, ys = jnp.meshgrid(jnp.linspace(0, 1, n), jnp.linspace(0, 1, n), indexing="ij")
    return jnp.stack([xs, ys], axis=-1)


def halves(x: Array) -> tuple[Array, Array]:
    left, right = jnp.split(x, 2)
    return left, right


def first_positive(x: Array) -> Array:
    (idx,) = jnp.nonzero(x > 0, size=1, fill_value=-1)
    return idx[0]


def signed_logsumexp(a: Array, b: Array) -> tuple[Array, Array]:
    value, sign = jsp.special.logsumexp(a, b=b, return_sign=True)
    return value, sign


def sample(seed: int, logits: Array) -> tuple[Array, Array, Array]:
    legacy = jt.random.PRNGKey(seed)
    key = jt.random.key(seed)
    k1, k2 = jt.random.split(key)
    choice = jt.random.choice(k1, jnp.arange(5), (3,), replace=False, p=jax_softmax(logits))
    perm = jt.random.permutation(k2, 5)
    cat = jt.random.categorical(jt.random.fold_in(legacy, 1), logits, shape=(4,))
    return choice, perm, cat


def jax_softmax(logits: Array) -> Array:
    return jt.nn.softmax(logits)


cov = jnp.array([[2.0, 0.3], [0.3, 1.0]])
x = jnp.array([0.5, -0.2])
assert whiten(cov, x).shape == (2,)
assert low_rank(jnp.eye(3), 2).shape == (3, 3)
assert orthonormalize(jnp.eye(2)).shape == (2, 2)
assert float(log_det(cov)) < 1.0
assert gaussian_logpdf(x, jnp.zeros(2), cov).shape == ()
values, counts = histogram_of(jnp.array([1, 1, 2]), 3)
assert [int(c) for c in counts] == [2, 1, 0]
assert grid(3).shape == (3, 3, 2)
assert halves(jnp.arange(4))[1].shape == (2,)
assert int(first_positive(jnp.array([-1.0, 2.0]))) == 1
assert signed_logsumexp(jnp.zeros(2), jnp.array([1.0, -0.5]))[1].shape == ()
choice, perm, cat = sample(0, jnp.zeros(5))
assert choice.shape == (3,) and perm.shape == (5,) and cat.shape == (4,)
reveal_type(jnp.linalg.eigh(cov))
reveal_type(jnp.linalg.svd(cov))
reveal_type(jnp.unique(values, return_counts=True))
reveal_type(jsp.linalg.cho_factor(cov))
reveal_type(jt.random.split(jt.random.key(0)))
