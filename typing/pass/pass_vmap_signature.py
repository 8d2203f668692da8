"""jt.vmap keeps the function's signature (ParamSpec): the vectorised
function is called with the same arguments, positional or keyword, and
returns the same type. Also as a decorator and through functools.partial.
"""

import functools

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


def affine(x: Array, scale: float, shift: Array) -> Array:
    return x * scale + shift


def blend(x: Array, y: Array, weight: Array) -> Array:
    return x * (1 - weight) + y * weight


def pair(x: Array) -> tuple[Array, Array]:
    return x.sum(), x * 2


@jt.vmap
def row_norm(row: Array) -> Array:
    return jnp.sqrt(jnp.sum(row * row))


@functools.partial(jt.vmap, in_axes=(0, None))
def shift_rows(row: Array, by: Array) -> Array:
    return row + by


xs = jnp.reshape(jnp.arange(6.0), (3, 2))

batched = jt.vmap(affine, in_axes=(0, None, None))
out: Array = batched(xs, 2.0, jnp.ones(2))
assert out.shape == (3, 2)

# Keyword arguments keep their names (they are mapped over axis 0, as in JAX).
blended: Array = jt.vmap(blend)(xs, weight=jnp.full((3, 2), 0.5), y=xs + 2)
assert np.allclose(np.asarray(blended), np.asarray(xs + 1))

sums, doubled = jt.vmap(pair)(xs)
assert sums.shape == (3,) and doubled.shape == (3, 2)

norms: Array = row_norm(xs)
assert norms.shape == (3,)
assert np.allclose(np.asarray(norms), np.linalg.norm(np.asarray(xs), axis=1))

shifted: Array = shift_rows(xs, jnp.array([10.0, 20.0]))
assert float(shifted[2, 1]) == 25.0



# Nested vmap keeps the signature too.
def times(a: Array, b: Array) -> Array:
    return a * b


outer = jt.vmap(jt.vmap(times, in_axes=(0, None)), in_axes=(None, 0))
table: Array = outer(jnp.arange(3.0), jnp.arange(4.0))
assert table.shape == (4, 3)
