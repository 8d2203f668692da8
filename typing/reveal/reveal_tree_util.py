"""Return types of jaxtyped.tree_util: leaves are Array for a tree of
arrays (nested tuples, lists, dicts) and object for any other pytree
(registered classes included); tree_map keeps a tree of arrays' type;
rebuilt trees are object; structures are PyTreeDef; registration decorators
return the class unchanged."""

import dataclasses

from typing_extensions import assert_type

from jaxtyped import tree_util
from jaxtyped.tree_util import KeyPath, PyTreeDef
from jaxtyped.typing import Array


@tree_util.register_dataclass
@dataclasses.dataclass
class State:
    value: Array
    step: int = dataclasses.field(default=0, metadata={"static": True})


def double(x: Array) -> Array:
    return x * 2


def check(tree: dict[str, Array], state: State) -> None:
    assert_type(tree_util.tree_flatten(tree), tuple[list[Array], PyTreeDef[dict[str, Array]]])
    leaves, treedef = tree_util.tree_flatten(state)
    assert_type(leaves, list[object])
    assert_type(treedef, PyTreeDef)
    assert_type(tree_util.tree_unflatten(treedef, leaves), object)
    assert_type(tree_util.tree_leaves(tree), list[Array])
    assert_type(tree_util.tree_leaves(state), list[object])
    assert_type(tree_util.tree_structure(tree), PyTreeDef[dict[str, Array]])
    assert_type(tree_util.tree_map(double, tree), dict[str, Array])
    assert_type(tree_util.tree_map(double, state), State)  # a registered dataclass keeps its type (issue 20)
    assert_type(tree_util.tree_map(lambda a, b: a - 0.1 * b, state, state), State)
    assert_type(tree_util.tree_reduce(lambda acc, _: acc + 1, tree, 0), int)
    assert_type(tree_util.tree_all(tree), bool)
    assert_type(tree_util.tree_flatten_with_path(tree)[0], list[tuple[KeyPath, Array]])
    assert_type(tree_util.keystr(()), str)
    assert_type(tree_util.register_dataclass(State), type[State])
    assert_type(state.step, int)
