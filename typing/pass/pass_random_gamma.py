"""The gamma family and counting distributions of jaxtyped.random as users
write them: typed or legacy keys, parameters as Python scalars, NumPy or
jaxtyped arrays, optional shapes and dtypes; every result is an Array."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.random as jrandom
from jaxtyped.typing import Array, KeyArray

key: KeyArray = jrandom.key(0)
legacy: Array = jrandom.PRNGKey(1)
alphas = jnp.asarray([0.5, 2.0, 7.0])

samples: list[Array] = [
    jrandom.gamma(key, alphas),
    jrandom.gamma(legacy, 2.0, (3,)),
    jrandom.gamma(key, np.float32(0.3), shape=(2, 3), dtype=jnp.float16),
    jrandom.loggamma(key, 1e-3, (4,)),
    jrandom.beta(key, 0.5, alphas),
    jrandom.beta(key, a=2.0, b=3.0, shape=[2]),
    jrandom.dirichlet(key, alphas, (2,)),
    jrandom.chisquare(key, 3, (2,)),
    jrandom.t(key, alphas, dtype="float32"),
    jrandom.f(key, 2.0, alphas),
    jrandom.poisson(key, 3.0, (5,)),
    jrandom.poisson(key, alphas, dtype=jnp.int16),
    jrandom.binomial(key, 10, 0.3, (2,)),
    jrandom.binomial(key, alphas, jnp.asarray(0.5)),
    jrandom.geometric(key, 0.25, (3,), dtype=jnp.int8),
]
assert [s.shape for s in samples] == [
    (3,), (3,), (2, 3), (4,), (3,), (2,), (2, 3), (2,), (3,), (3,), (5,), (3,), (2,), (3,), (3,),
]  # fmt: skip


def total(a: Array) -> Array:
    return jnp.sum(jrandom.gamma(key, a))


def counts(k: Array) -> Array:
    return jrandom.poisson(k, 4.0, (2,))


slope: Array = jt.grad(total)(alphas)
batch: Array = jt.vmap(counts)(jrandom.split(key, 3))
assert slope.shape == (3,) and batch.shape == (3, 2)
