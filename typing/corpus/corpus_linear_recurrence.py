"""A linear recurrence h_t = a_t * h_{t-1} + b_t three ways: Python loop, scan, associative_scan."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def combine(left, right):
    a1, b1 = left
    a2, b2 = right
    return a1 * a2, a2 * b1 + b2


def recurrence_scan(a, b):
    def step(h, ab):
        h = ab[0] * h + ab[1]
        return h, h

    _, hs = lax.scan(step, 0.0, (a, b))
    return hs


def recurrence_parallel(a, b):
    _, hs = lax.associative_scan(combine, (a, b))
    return hs


a = jnp.linspace(0.5, 0.9, 8)
b = jnp.arange(8.0)
expected = []
h = jnp.zeros(())
for t in range(8):
    h = a[t] * h + b[t]
    expected.append(h)
seq = recurrence_scan(a, b)
par = jt.jit(recurrence_parallel)(a, b)
assert jnp.allclose(seq, jnp.stack(expected), rtol=1e-5)
assert jnp.allclose(par, seq, rtol=1e-5)
ga = jt.grad(lambda a: recurrence_scan(a, b)[-1])(a)
assert ga.shape == (8,)
reveal_type(seq)
reveal_type(par)
reveal_type(ga)
