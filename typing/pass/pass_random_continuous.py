"""The continuous distributions of jaxtyped.random (and bernoulli,
rademacher) as users write them: typed or legacy keys, shapes as ints,
tuples or lists, dtypes as objects or names, parameters as Python scalars,
NumPy or jaxtyped arrays; every result is an Array."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.random as jrandom
from jaxtyped.typing import Array, KeyArray

key: KeyArray = jrandom.key(0)
legacy: Array = jrandom.PRNGKey(1)
scales = jnp.asarray([0.5, 2.0, 7.0])

samples: list[Array] = [
    jrandom.uniform(key),
    jrandom.uniform(legacy, (2, 3), jnp.float16, minval=-1.0, maxval=scales[:1]),
    jrandom.uniform(key, 3, "bfloat16"),
    jrandom.normal(key, [2, 2]),
    jrandom.normal(key, (3,), jnp.complex64),
    jrandom.truncated_normal(key, -1.0, 2.0, (3,)),
    jrandom.truncated_normal(key, np.float32(0.0), scales),
    jrandom.exponential(key, (3,)),
    jrandom.laplace(key, (3,), dtype=jnp.float32),
    jrandom.logistic(key, (3,)),
    jrandom.gumbel(key, (3,), mode="high"),
    jrandom.cauchy(key, (3,)),
    jrandom.bernoulli(key, 0.3, (3,)),
    jrandom.bernoulli(key, scales / 10.0, mode="high"),
    jrandom.rademacher(key, (3,), jnp.int8),
    jrandom.pareto(key, scales),
    jrandom.lognormal(key, 0.5, (3,)),
    jrandom.maxwell(key, (3,)),
    jrandom.double_sided_maxwell(key, 0.0, 1.0, (3,)),
    jrandom.weibull_min(key, 1.0, scales),
    jrandom.rayleigh(key, 2.0, (3,)),
    jrandom.wald(key, scales),
    jrandom.triangular(key, 0.0, 0.5, 1.0, (3,)),
    jrandom.generalized_normal(key, 1.5, (3,)),
]
assert all(isinstance(s, jt.Array) for s in samples)
assert samples[1].shape == (2, 3) and samples[1].dtype == jnp.float16
assert samples[4].dtype == jnp.complex64
assert samples[12].dtype == jnp.bool_


@jt.jit
def noisy(k: KeyArray, x: Array) -> Array:
    return x + 0.1 * jrandom.normal(k, x.shape)


assert noisy(key, scales).shape == (3,)
