"""jt.vmap as a method decorator: the result is a plain function, so it
binds self like the undecorated method, and callers see the method's own
parameters (self is a registered pytree, not mapped)."""

import dataclasses
import functools

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import tree_util
from jaxtyped.typing import Array


@tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Linear:
    weight: Array
    bias: Array

    @functools.partial(jt.vmap, in_axes=(None, 0))
    def __call__(self, x: Array) -> Array:
        return jnp.dot(self.weight, x) + self.bias

    @functools.partial(jt.vmap, in_axes=(None, 0, None))
    def scaled(self, x: Array, factor: float) -> Array:
        return (jnp.dot(self.weight, x) + self.bias) * factor


layer = Linear(weight=jnp.ones((2, 3)), bias=jnp.array([0.0, 1.0]))
xs = jnp.reshape(jnp.arange(12.0), (4, 3))

ys: Array = layer(xs)
assert ys.shape == (4, 2)
assert np.allclose(np.asarray(ys), np.asarray(xs).sum(axis=1, keepdims=True) + [0.0, 1.0])
zs: Array = layer.scaled(xs, 2.0)
assert np.allclose(np.asarray(zs), 2 * np.asarray(ys))
unbound: Array = Linear.scaled(layer, xs, 0.5)
assert unbound.shape == (4, 2)
