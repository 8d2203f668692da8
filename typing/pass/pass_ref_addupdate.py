"""``ref[idx] += v`` (issue 16 item 1: one addupdate when staged)
type-checks and runs with every kind of value and indexer, eagerly, under
jit and inside a loop body; ``+=`` on a plain array still rebinds."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

acc: jt.Ref[Array] = jt.new_ref(jnp.zeros((4, 3)))


@jt.jit
def accumulate(v: Array, i: Array) -> None:
    acc[1] += 1.0
    acc[i] += v
    acc[:, 0] += jnp.ones(4)
    acc[np.array([0, 2])] += v
    acc[...] += 2


def looped(xs: Array) -> Array:
    def step(k: Array, c: Array) -> Array:
        acc[k % 4, :] += xs[k] * c
        return c + 1.0

    return jt.lax.fori_loop(0, 3, step, jnp.float32(1.0))


accumulate(jnp.arange(3.0), jnp.int32(3))
total: Array = looped(jnp.ones(3))
read = acc[0]
read += 1.0
acc[0] = read
plain = jnp.zeros(2)
plain += jnp.ones(2)
assert float(acc[0, 0]) == 5.0 and float(plain[0]) == 1.0
