"""Tree utilities on nested dicts, lists, tuples and NamedTuples."""
from typing import NamedTuple, reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


class State(NamedTuple):
    position: object
    velocity: object


params = {"layer1": {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}, "layer2": [jnp.ones(3), jnp.ones(1)]}
doubled = jt.tree_util.tree_map(lambda x: 2 * x, params)
count = sum(x.size for x in jt.tree_util.tree_leaves(params))
assert count == 4 + 2 + 3 + 1
leaves, treedef = jt.tree_util.tree_flatten(params)
rebuilt = jt.tree_util.tree_unflatten(treedef, [x + 1 for x in leaves])
norm = jnp.sqrt(sum(jnp.sum(x**2) for x in jt.tree_util.tree_leaves(doubled)))
state = State(jnp.zeros(3), jnp.ones(3))
moved = jt.tree_util.tree_map(lambda p, v: p + 0.1 * v, state, State(state.velocity, state.velocity))
assert isinstance(moved, State)
pair = jt.tree.map(lambda a, b: a * b, (jnp.ones(2), jnp.ones(3)), (jnp.ones(2), jnp.ones(3)))
structure = jt.tree.structure(params)
assert structure.num_leaves == 4
total = jt.tree_util.tree_reduce(lambda a, b: a + jnp.sum(b), params, jnp.zeros(()))
reveal_type(doubled)
reveal_type(moved)
reveal_type(pair)
reveal_type(norm)
