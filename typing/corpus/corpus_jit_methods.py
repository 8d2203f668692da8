"""Methods decorated with jit, and functools.partial(jit, static_argnums=...)."""
from functools import partial
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


class Scaler:
    def __init__(self, factor):
        self.factor = factor

    @partial(jt.jit, static_argnums=0)
    def apply(self, x):
        return x * self.factor

    def __hash__(self):
        return hash(self.factor)

    def __eq__(self, other):
        return isinstance(other, Scaler) and other.factor == self.factor


@partial(jt.jit, static_argnums=(1,))
def power(x, n):
    return x**n


@partial(jt.jit, static_argnames=["axis"])
def normalize(x, axis=0):
    return x / jnp.sum(x, axis=axis, keepdims=True)


s = Scaler(3.0)
out = s.apply(jnp.arange(3.0))
assert jnp.allclose(out, jnp.array([0.0, 3.0, 6.0]))
p = power(jnp.array([2.0, 3.0]), 3)
assert jnp.allclose(p, jnp.array([8.0, 27.0]))
n = normalize(jnp.ones((2, 4)), axis=1)
assert jnp.allclose(n, 0.25)
reveal_type(out)
reveal_type(p)
reveal_type(n)
