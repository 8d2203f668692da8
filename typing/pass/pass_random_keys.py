"""Keys of jaxtyped.random as JAX users write them: typed keys split,
folded and passed through jit and vmap, legacy uint32[2] keys accepted
where JAX accepts them, and functions annotated with KeyArray."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.random as jrandom
from jaxtyped.typing import Array, KeyArray, KeyArrayLike


def noise(key: KeyArray, n: int) -> Array:
    return jrandom.bits(key, (n,))


def any_key(key: KeyArrayLike) -> Array:
    return jrandom.split(key)


root: KeyArray = jrandom.key(0)
first, second = jrandom.split(root)
many: KeyArray = jrandom.split(root, (2, 3))
folded: KeyArray = jrandom.fold_in(first, 7)
legacy: Array = jrandom.PRNGKey(np.int32(1))
legacy_children: Array = jrandom.split(legacy, 4)
data: Array = jrandom.key_data(many)
wrapped: KeyArray = jrandom.wrap_key_data(data, impl="threefry2x32")
cloned: KeyArray = jrandom.clone(root)
name: str = jrandom.key_impl(root)
words: Array = noise(folded, 3)
small: Array = jrandom.bits(second, (2, 2), jnp.uint8)
jitted: KeyArray = jt.jit(jrandom.split)(root)
batched: Array = jt.vmap(noise, in_axes=(0, None))(many[0], 2)
row: KeyArray = many[1]
reshaped: KeyArray = many.reshape(6)
same: Array = many == many
assert any_key(legacy).shape == (2, 2) and any_key(root).shape == (2,)
assert words.shape == (3,) and small.dtype == np.uint8 and name == "threefry2x32"
assert data.shape == (2, 3, 2) and reshaped.shape == (6,) and row.shape == (3,)
assert batched.shape == (3, 2) and jitted.shape == (2,) and cloned.shape == ()
assert bool(jnp.all(same)) and wrapped.shape == (2, 3) and legacy_children.shape == (4, 2)
