"""The discrete and multivariate distributions of jaxtyped.random as JAX
users write them: integers, permutations, choices and categorical samples
from typed and legacy keys, under jit and vmap, and multivariate samplers."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.random as jrandom
from jaxtyped.typing import Array, KeyArray


def shuffled_batch(key: KeyArray, x: Array) -> Array:
    return jrandom.permutation(key, x, axis=0)


def sample_tokens(key: KeyArray, logits: Array) -> Array:
    return jrandom.categorical(key, logits, axis=-1)


key = jrandom.key(0)
k1, k2 = jrandom.split(key)
legacy = jrandom.PRNGKey(3)
ints: Array = jrandom.randint(k1, (3, 4), 0, 10)
bytes_: Array = jrandom.randint(legacy, (8,), 0, 256, dtype=jnp.uint8)
bounded: Array = jrandom.randint(k2, (2, 3), jnp.array([[0], [5]]), jnp.array([10, 20, 30]), "int32")
order: Array = jrandom.permutation(k1, 10)
rows: Array = jt.jit(shuffled_batch)(k2, jnp.arange(12.0).reshape(4, 3))
each: Array = jrandom.permutation(k1, jnp.ones((2, 5)), axis=1, independent=True)
picked: Array = jrandom.choice(k1, 5, (3,), replace=False)
weighted: Array = jrandom.choice(k2, jnp.arange(4.0), (2, 2), p=jnp.array([0.1, 0.2, 0.3, 0.4]), mode="high")
tokens: Array = jt.vmap(sample_tokens, in_axes=(0, None))(jrandom.split(key, 3), jnp.zeros((2, 5)))
top: Array = jrandom.categorical(k1, jnp.zeros(6), shape=(3,), replace=False)
counts: Array = jrandom.multinomial(k2, 10.0, jnp.array([0.5, 0.5]), shape=(4, 2), dtype=jnp.int32, unroll=2)
gauss: Array = jrandom.multivariate_normal(k1, jnp.zeros(2), jnp.eye(2), (5,), method="eigh")
points: Array = jrandom.ball(k2, 3, p=1.5, shape=(4,), dtype=np.float32)
rotations: Array = jrandom.orthogonal(k1, 3, (2,), m=4)
assert ints.shape == (3, 4) and bytes_.dtype == np.uint8 and bounded.shape == (2, 3)
assert sorted(np.asarray(order).tolist()) == list(range(10)) and rows.shape == (4, 3)
assert each.shape == (2, 5) and picked.shape == (3,) and weighted.shape == (2, 2)
assert tokens.shape == (3, 2) and top.shape == (3,) and counts.shape == (4, 2)
assert gauss.shape == (5, 2) and points.shape == (4, 3) and rotations.shape == (2, 3, 4)
