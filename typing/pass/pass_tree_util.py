"""Pytrees through jaxtyped.tree_util: tree_map with a lambda,
register_dataclass as a class decorator (the class keeps its type),
tree_flatten / tree_unflatten round trips, and registered dataclasses
flowing through jt.vmap and jt.jvp."""

import dataclasses
from typing import cast

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import tree_util
from jaxtyped.tree_util import PyTreeDef
from jaxtyped.typing import Array


@tree_util.register_dataclass
@dataclasses.dataclass(frozen=True)
class Params:
    weight: Array
    bias: Array
    name: str = dataclasses.field(default="layer", metadata={"static": True})


def apply(p: Params, x: Array) -> Array:
    return p.weight * x + p.bias


params = Params(weight=jnp.ones(3), bias=jnp.zeros(3))
assert params.name == "layer"  # the decorated class is still Params

# tree_map with a lambda: the lambda needs no annotation, and the result
# is a Params again, in both checkers (issue 20).
doubled = tree_util.tree_map(lambda leaf: leaf * 2, params)
assert float(doubled.weight.sum()) == 6.0
summed = tree_util.tree_map(lambda a, b: a + b, {"a": jnp.ones(2)}, {"a": jnp.ones(2)})
assert float(summed["a"][0]) == 2.0

leaves, treedef = tree_util.tree_flatten(params)
assert len(leaves) == 2 and isinstance(treedef, PyTreeDef)
# The leaves of a registered class are object: cast to what they are.
rebuilt = tree_util.tree_unflatten(treedef, [cast(Array, leaf) + 1 for leaf in leaves])
assert isinstance(rebuilt, Params) and float(rebuilt.bias.sum()) == 3.0
assert tree_util.tree_structure(params) == treedef
assert len(tree_util.tree_leaves({"w": params, "n": [jnp.ones(1), None]})) == 3
total: float = tree_util.tree_reduce(lambda acc, leaf: acc + float(leaf.sum()), params, 0.0)
assert total == 3.0
paths = [tree_util.keystr(path) for path, _ in tree_util.tree_flatten_with_path(params)[0]]
assert paths == [".weight", ".bias"]

# Registered dataclasses are pytrees for the transformations too.
y, dy = jt.jvp(apply, (params, jnp.arange(3.0)), (params, jnp.zeros(3)))
assert np.allclose(np.asarray(dy), np.arange(3.0))
batched = jt.vmap(apply, in_axes=(None, 0))(params, jnp.ones((4, 3)))
assert batched.shape == (4, 3) and y.shape == (3,)
