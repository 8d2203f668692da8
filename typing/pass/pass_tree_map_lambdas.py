"""tree_map as optimizers use it, with unannotated lambdas (issue 20): the
results are used as the containers they are, with no cast or isinstance,
in both checkers; the file runs."""

import dataclasses
from typing import NamedTuple

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.tree_util import register_dataclass, tree_map
from jaxtyped.typing import Array


class Adam(NamedTuple):
    mu: dict[str, Array]
    nu: dict[str, Array]


@register_dataclass
@dataclasses.dataclass
class Linear:
    w: Array
    b: Array

    def __call__(self, x: Array) -> Array:
        return x @ self.w + self.b


params = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}
grads = {"w": jnp.full((2, 2), 0.5), "b": jnp.ones(2)}
updated = tree_map(lambda p, g: p - 0.1 * g, params, grads)
w_row: Array = updated["w"][0]
assert np.allclose(np.asarray(w_row), 0.95)

state = Adam(mu=tree_map(jnp.zeros_like, params), nu=tree_map(jnp.zeros_like, params))
state = jt.tree.map(lambda s, g: 0.9 * s + 0.1 * g, state, Adam(grads, grads))
mu_b: Array = state.mu["b"]
assert np.allclose(np.asarray(mu_b), 0.1)

layer = Linear(jnp.eye(2), jnp.zeros(2))
layer = tree_map(lambda p, g: p - g, layer, Linear(jnp.eye(2), jnp.ones(2)))
out: Array = layer(jnp.ones(2))
assert np.allclose(np.asarray(out), -1.0)

stack = [jnp.ones(3), jnp.ones(3)]
scaled = tree_map(lambda x: x * 3, stack)
first: Array = scaled[0]
assert np.allclose(np.asarray(first), 3.0)
