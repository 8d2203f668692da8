"""Return types of the rest of jaxtyped.tree_util and of every jaxtyped.tree
alias (the short names have the same types as the long ones): leaves are
Any (a pytree holds any leaf type, registered classes included), structures
PyTreeDef, predicates bool, registration functions None or the class."""

from typing import Any

from typing_extensions import assert_type

import jaxtyped as jt
from jaxtyped import tree_util
from jaxtyped.tree_util import KeyPath, PyTreeDef
from jaxtyped.typing import Array


class Box:
    def __init__(self, content: Array) -> None:
        self.content = content

    def tree_flatten(self) -> tuple[list[Array], None]:
        return [self.content], None

    @classmethod
    def tree_unflatten(cls, aux: None, children: list[Array]) -> "Box":
        return cls(children[0])


def flatten(box: Box) -> tuple[list[Array], None]:
    return [box.content], None


def flatten_with_keys(box: Box) -> tuple[list[tuple[tree_util.GetAttrKey, Array]], None]:
    return [(tree_util.GetAttrKey("content"), box.content)], None


def unflatten(aux: None, children: tuple[Any, ...]) -> Box:
    return Box(children[0])


def label(path: KeyPath, leaf: Array) -> str:
    return tree_util.keystr(path)


def check(tree: dict[str, Array], treedef: PyTreeDef, x: Array) -> None:
    # jaxtyped.tree: the same types as the tree_util functions they alias.
    assert_type(jt.tree.flatten(tree), tuple[list[Any], PyTreeDef])
    assert_type(jt.tree.unflatten(treedef, [x]), Any)
    assert_type(jt.tree.leaves(tree), list[Any])
    assert_type(jt.tree.structure(tree), PyTreeDef)
    assert_type(jt.tree.map(lambda leaf: leaf, tree), Any)
    assert_type(jt.tree.map_with_path(label, tree), Any)
    assert_type(jt.tree.flatten_with_path(tree), tuple[list[tuple[KeyPath, Any]], PyTreeDef])
    assert_type(jt.tree.leaves_with_path(tree), list[tuple[KeyPath, Any]])
    assert_type(jt.tree.reduce(lambda acc, _: acc + 1.0, tree, 0.0), float)
    assert_type(jt.tree.all(tree), bool)
    assert_type(jt.tree.transpose(treedef, None, [tree]), Any)

    # The tree_util functions not pinned in reveal_tree_util.py.
    assert_type(tree_util.tree_map_with_path(label, tree), Any)
    assert_type(tree_util.tree_leaves_with_path(tree), list[tuple[KeyPath, Any]])
    assert_type(tree_util.tree_transpose(treedef, treedef, [tree]), Any)
    assert_type(tree_util.treedef_children(treedef), list[PyTreeDef])
    assert_type(tree_util.treedef_is_leaf(treedef), bool)
    assert_type(tree_util.treedef_tuple([treedef, treedef]), PyTreeDef)
    assert_type(tree_util.all_leaves([x, x]), bool)
    assert_type(tree_util.broadcast_prefix(0, tree), list[Any])
    assert_type(tree_util.register_pytree_node(Box, flatten, unflatten), None)
    assert_type(tree_util.register_pytree_with_keys(Box, flatten_with_keys, unflatten), None)
    assert_type(tree_util.register_pytree_node_class(Box), type[Box])
