"""Sampling with jt.random: keys split in a loop, categorical, permutation, dropout."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def dropout(key, x, rate):
    keep = jt.random.bernoulli(key, 1.0 - rate, x.shape)
    return jnp.where(keep, x / (1.0 - rate), 0.0)


key = jt.random.PRNGKey(123)
key, sub = jt.random.split(key)
x = jt.random.uniform(sub, (4, 5), minval=-1.0, maxval=1.0)
key, sub = jt.random.split(key)
dropped = dropout(sub, x, 0.5)
assert dropped.shape == x.shape
logits = jnp.log(jnp.array([0.1, 0.2, 0.7]))
samples = jt.random.categorical(key, logits, shape=(16,))
assert samples.shape == (16,)
perm = jt.random.permutation(key, 6)
assert jnp.all(jnp.sort(perm) == jnp.arange(6))
choice = jt.random.choice(key, jnp.arange(5), (3,), replace=False)
keys = jt.random.split(key, 3)
normals = jt.vmap(lambda k: jt.random.normal(k, (2,)))(keys)
assert normals.shape == (3, 2)
ints = jt.random.randint(key, (6,), 0, 4)
gumbel = jt.random.gumbel(key, (2,))
reveal_type(x)
reveal_type(samples)
reveal_type(normals)
reveal_type(ints)
