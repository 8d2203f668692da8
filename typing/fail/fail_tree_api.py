"""Misuse of jaxtyped.tree_util and jaxtyped.tree that both checkers
reject: non-callables where a function is expected, a non-PyTreeDef where
a structure is expected, swapped or wrongly shaped registration functions,
key paths that are not tuples of keys, and results used at the wrong type.
Leaves of a tree of arrays are Array, of any other tree object, so a leaf
that may be a float is caught where it is used as an Array; a tree rebuilt
from a structure of unknown type is object until cast."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import tree_util
from jaxtyped.tree_util import KeyPath
from jaxtyped.typing import Array


class Box:
    def __init__(self, content: Array) -> None:
        self.content = content


def flatten(box: Box) -> tuple[list[Array], None]:
    return [box.content], None


def unflatten(aux: None, children: tuple[Array, ...]) -> Box:
    return Box(children[0])


def label(path: KeyPath, leaf: Array) -> str:
    return tree_util.keystr(path)


x = jnp.ones(2)
tree = {"a": x, "b": [x, x]}
treedef = tree_util.tree_structure(tree)

tree_util.tree_flatten(tree, is_leaf=3)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
tree_util.tree_leaves(tree, "leaf")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
name: str = tree_util.tree_structure(tree)  # expect: mypy[assignment] pyright[reportAssignmentType]
tree_util.tree_map_with_path(1, tree)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
tree_util.tree_reduce("add", tree, 0)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
tree_util.tree_all(tree, is_leaf=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
tree_util.tree_transpose("outer", None, [tree])  # expect: mypy[call-overload] pyright[reportCallIssue, reportArgumentType]
tree_util.tree_flatten_with_path(tree, is_leaf_takes_path="yes")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
tree_util.tree_leaves_with_path(tree, is_leaf=1)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
tree_util.treedef_children(tree)  # expect: mypy[arg-type] pyright[reportArgumentType]
tree_util.treedef_is_leaf(x)  # expect: mypy[arg-type] pyright[reportArgumentType]
tree_util.treedef_tuple(treedef)  # expect: mypy[arg-type] pyright[reportArgumentType]
tree_util.all_leaves(3)  # expect: mypy[arg-type] pyright[reportArgumentType]
tree_util.broadcast_prefix(0, tree, what=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
tree_util.keystr("a.b")  # expect: mypy[arg-type] pyright[reportArgumentType]
tree_util.register_pytree_node(Box, unflatten, flatten)  # expect: mypy[arg-type] pyright[reportArgumentType]
tree_util.register_pytree_with_keys(Box, flatten, unflatten)  # expect: mypy[arg-type] pyright[reportArgumentType]
tree_util.register_pytree_node_class(Box(x))  # expect: mypy[arg-type] pyright[reportArgumentType]

# The short names are the same functions, with the same checks.
jt.tree.flatten(tree, is_leaf=3)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.tree.unflatten([1, 2], [x, x])  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.tree.leaves(tree, "leaf")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.tree.structure(tree).num_leaves()  # expect: mypy[operator] pyright[reportCallIssue]
jt.tree.map(1, tree)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.tree.map_with_path(label, tree, is_leaf=1)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.tree.flatten_with_path(tree, is_leaf_takes_path="yes")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.tree.leaves_with_path(tree, is_leaf=1)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.tree.reduce("add", tree, 0)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jt.tree.all(tree, is_leaf=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.tree.transpose("outer", None, [tree])  # expect: mypy[call-overload] pyright[reportCallIssue, reportArgumentType]

# Leaf and result types: a tree with a float leaf has object leaves; a map
# over a tree of arrays keeps the tree's type; a rebuilt tree is object.
mixed = {"a": x, "b": 1.0}
first: Array = tree_util.tree_leaves(mixed)[0]  # expect: mypy[assignment] pyright[reportAssignmentType]
jt.tree.leaves(mixed)[0].sum()  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
params: dict[str, Array] = {"w": x}


def double(leaf: Array) -> Array:
    return leaf * 2


wrong: list[Array] = jt.tree.map(double, params)  # expect: mypy[assignment] pyright[reportAssignmentType]
tree_util.tree_unflatten(tree_util.tree_structure(Box(x)), [x])["a"]  # expect: mypy[index] pyright[reportIndexIssue]
