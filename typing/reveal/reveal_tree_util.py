"""Return types of jaxtyped.tree_util: leaves are Any (a pytree holds any
leaf type), structures are PyTreeDef, registration decorators return the
class unchanged."""

import dataclasses
from typing import Any

from typing_extensions import assert_type

from jaxtyped import tree_util
from jaxtyped.tree_util import KeyPath, PyTreeDef
from jaxtyped.typing import Array


@tree_util.register_dataclass
@dataclasses.dataclass
class State:
    value: Array
    step: int = dataclasses.field(default=0, metadata={"static": True})


def check(tree: dict[str, Array], state: State) -> None:
    assert_type(tree_util.tree_flatten(tree), tuple[list[Any], PyTreeDef])
    leaves, treedef = tree_util.tree_flatten(state)
    assert_type(leaves, list[Any])
    assert_type(treedef, PyTreeDef)
    assert_type(tree_util.tree_unflatten(treedef, leaves), Any)
    assert_type(tree_util.tree_leaves(tree), list[Any])
    assert_type(tree_util.tree_structure(tree), PyTreeDef)
    assert_type(tree_util.tree_map(lambda x: x, tree), Any)
    assert_type(tree_util.tree_reduce(lambda acc, _: acc + 1, tree, 0), int)
    assert_type(tree_util.tree_all(tree), bool)
    assert_type(tree_util.tree_flatten_with_path(tree)[0], list[tuple[KeyPath, Any]])
    assert_type(tree_util.keystr(()), str)
    assert_type(tree_util.register_dataclass(State), type[State])
    assert_type(state.step, int)
