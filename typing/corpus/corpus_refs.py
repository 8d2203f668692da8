"""Mutable array refs: accumulating statistics inside a jitted loop."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


@jt.jit
def running_stats(xs):
    total = jt.new_ref(jnp.zeros(()))
    sq = jt.new_ref(jnp.zeros(()))
    for i in range(xs.shape[0]):
        total[...] = total[...] + xs[i]
        sq[...] += xs[i] ** 2
    n = xs.shape[0]
    mean = total[...] / n
    return mean, sq[...] / n - mean**2


xs = jnp.array([1.0, 2.0, 3.0, 4.0])
mean, var = running_stats(xs)
assert jnp.allclose(mean, 2.5) and jnp.allclose(var, 1.25)


def counter_step(ref, x):
    ref[...] += x
    return None


@jt.jit
def count(xs):
    acc = jt.new_ref(jnp.zeros(2))
    for x in xs:
        counter_step(acc, x)
    return acc[...]


c = count(jnp.ones((3, 2)))
assert jnp.allclose(c, 3.0)
reveal_type(mean)
reveal_type(c)
