"""Return types of the rest of jaxtyped.tree_util and of every jaxtyped.tree
alias (the short names have the same types as the long ones): leaves are
Array for a tree of arrays and object for any other pytree (registered
classes included), map keeps a tree of arrays' type when the function maps
arrays to arrays (a plain dict, list or tuple of arrays keeps its container
for other results; object otherwise), a tree of arrays' structure is a
PyTreeDef of its type and rebuilds it (other structures PyTreeDef, rebuilt
as object), predicates bool, registration functions None or the class.
(A lambda given to map is inferred precisely by pyright only: see
typing/pending/NOTES.md N2; these cases use defs.)"""

from collections.abc import Callable, Iterable, Mapping
from typing import Any, Union

from typing_extensions import assert_type

import numpy as np

import jaxtyped as jt
from jaxtyped import tree_util
from jaxtyped.tree_util import KeyPath, PyTreeDef
from jaxtyped.typing import Array, ArrayLike, PyTree


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


def double(leaf: Array) -> Array:
    return leaf * 2


def add(a: Array, b: Array) -> Array:
    return a + b


def add_counts(a: int, b: int) -> int:
    return a + b


def shift(path: KeyPath, leaf: Array) -> Array:
    return leaf + 1


# A tree annotated the chex/Optax way, with Iterable nodes: Array leaves too
# (Note [Iterable array trees] in api_tree.py).
IterableTree = Union[Array, Iterable["IterableTree"], Mapping[Any, "IterableTree"]]


def check_iterable_tree(
    updates: IterableTree, named: dict[str, IterableTree], config: dict[str, object], x: Array
) -> None:
    assert_type(jt.tree.leaves(updates), list[Array])
    assert_type(tree_util.tree_leaves(updates), list[Array])
    assert_type(tree_util.tree_leaves_with_path(updates), list[tuple[KeyPath, Array]])
    leaves, treedef = tree_util.tree_flatten(updates)
    assert_type(leaves, list[Array])
    path_leaves, _ = jt.tree.flatten_with_path(updates)
    assert_type(path_leaves, list[tuple[KeyPath, Array]])
    rebuilt = tree_util.tree_unflatten(treedef, [leaf + 1 for leaf in leaves])
    assert_type(jt.tree.leaves(rebuilt), list[Array])
    assert_type(jt.tree.leaves(jt.tree.structure(updates).unflatten([x])), list[object])
    assert_type(jt.tree.leaves(named), list[Array])
    assert_type(jt.tree.structure(named), PyTreeDef[dict[str, IterableTree]])
    assert_type(jt.tree.unflatten(jt.tree.structure(named), [x]), dict[str, IterableTree])
    # Any other dict stays honest (a str-keyed dict is an Iterable of str:
    # Note [Iterable array trees]).
    assert_type(jt.tree.leaves(config), list[object])
    assert_type(jt.tree.leaves_with_path(config), list[tuple[KeyPath, object]])
    assert_type(jt.tree.structure(config), PyTreeDef)
    # A NumPy array is Iterable, but still an array-like leaf.
    assert_type(jt.tree.leaves({"a": np.ones(3)}), list[ArrayLike])


def check(tree: dict[str, Array], treedef: PyTreeDef, x: Array, mixed: dict[str, Array | float]) -> None:
    # jaxtyped.tree: the same types as the tree_util functions they alias.
    # A tree of arrays (tree, nested below): Array leaves, and map keeps its type.
    assert_type(jt.tree.flatten(tree), tuple[list[Array], PyTreeDef[dict[str, Array]]])
    assert_type(jt.tree.leaves(tree), list[Array])
    assert_type(jt.tree.map(double, tree), dict[str, Array])
    assert_type(jt.tree.map(add, tree, tree), dict[str, Array])
    assert_type(jt.tree.map(double, (x, [x, None])), tuple[Array, list[Array | None]])
    assert_type(jt.tree.map_with_path(shift, tree), dict[str, Array])
    assert_type(jt.tree.flatten_with_path(tree), tuple[list[tuple[KeyPath, Array]], PyTreeDef[dict[str, Array]]])
    assert_type(jt.tree.leaves_with_path(tree), list[tuple[KeyPath, Array]])
    # A PyTree of array-likes (a float leaf): ArrayLike leaves.
    assert_type(jt.tree.leaves(mixed), list[ArrayLike])
    assert_type(jt.tree.flatten(mixed), tuple[list[ArrayLike], PyTreeDef[PyTree]])
    assert_type(jt.tree.flatten_with_path(mixed), tuple[list[tuple[KeyPath, ArrayLike]], PyTreeDef[PyTree]])
    assert_type(jt.tree.leaves_with_path(mixed), list[tuple[KeyPath, ArrayLike]])
    assert_type(jt.tree.unflatten(jt.tree.structure(mixed), [1.0, x]), PyTree)
    # Any other pytree (a registered class, an is_leaf that may stop
    # anywhere, a function to non-arrays): object leaves and results.
    assert_type(jt.tree.leaves(Box(x)), list[object])
    assert_type(jt.tree.leaves(tree, is_leaf=lambda node: isinstance(node, list)), list[object])
    assert_type(jt.tree.map(double, Box(x)), Box)  # a class of its own keeps its type (issue 20)
    assert_type(jt.tree.map(lambda leaf: leaf + 1, Box(x)), Box)
    # ... also under an is_leaf (Equinox's combine); a dict under one is object:
    # is_leaf may stop at a nested dict and hand it to f.
    assert_type(jt.tree.map(lambda a, b: b if a is None else a, Box(x), Box(x), is_leaf=lambda n: n is None), Box)
    assert_type(jt.tree.map_with_path(shift, Box(x), is_leaf=lambda n: n is None), Box)
    # An is_leaf taking the path too: a lambda of two parameters type-checks.
    assert_type(
        jt.tree.map_with_path(shift, Box(x), is_leaf=lambda p, n: len(p) > 2, is_leaf_takes_path=True), Box
    )
    assert_type(jt.tree.leaves_with_path(tree, is_leaf=lambda p, n: n is None, is_leaf_takes_path=True), list[tuple[KeyPath, object]])
    assert_type(jt.tree.map(double, tree, is_leaf=lambda node: node is None), object)
    # Leaves mapped to None empty a class's fields (Equinox's filter), four
    # trees keep it too; a function to other things does not (below).
    assert_type(jt.tree.map(lambda leaf: leaf if leaf.ndim else None, Box(x)), Box)
    assert_type(jt.tree.map_with_path(lambda p, leaf: None if len(p) > 3 else leaf, Box(x)), Box)
    assert_type(jt.tree.map(lambda *leaves: leaves[0], Box(x), Box(x), Box(x), Box(x)), Box)
    assert_type(jt.tree.map(lambda leaf: str(leaf), tree), dict[str, str])  # a plain dict keeps its container
    assert_type(jt.tree.map_with_path(label, tree), dict[str, str])
    assert_type(jt.tree.map(lambda leaf: str(leaf), Box(x)), object)
    assert_type(jt.tree.leaves_with_path(Box(x)), list[tuple[KeyPath, object]])
    # A tree rebuilt from a structure of unknown type is object; from a tree of arrays' structure, that type.
    assert_type(jt.tree.unflatten(treedef, [x]), object)
    assert_type(jt.tree.unflatten(jt.tree.structure(tree), [x]), dict[str, Array])
    assert_type(jt.tree.transpose(treedef, None, [tree]), object)
    assert_type(jt.tree.structure(tree), PyTreeDef[dict[str, Array]])
    assert_type(jt.tree.structure(Box(x)), PyTreeDef)
    assert_type(jt.tree.reduce(lambda acc, _: acc + 1.0, tree, 0.0), float)
    # A float that starts a sum of arrays: the result is either (Note [tree_reduce's initial value]).
    assert_type(jt.tree.reduce(lambda acc, leaf: acc + jt.numpy.sum(leaf**2), tree, 0.0), Union[Array, float])
    assert_type(tree_util.tree_reduce(jt.numpy.maximum, tree, -1.0), Union[Array, float])
    assert_type(jt.tree.reduce(jt.numpy.add, tree), Array)
    # An operation on arrays over a tree of arrays gives an Array; with an identity, either.
    assert_type(jt.tree.reduce_associative(lambda a, b: a + b, [x, x]), Array)
    assert_type(jt.tree.reduce_associative(jt.numpy.maximum, tree, identity=0.0), Union[Array, float])
    assert_type(tree_util.tree_reduce_associative(add_counts, [1, 2]), int)
    assert_type(jt.tree.all(tree), bool)

    # The tree_util functions not pinned in reveal_tree_util.py.
    assert_type(tree_util.tree_map_with_path(label, tree), dict[str, str])
    assert_type(tree_util.tree_map_with_path(shift, tree), dict[str, Array])
    assert_type(tree_util.tree_leaves_with_path(tree), list[tuple[KeyPath, Array]])
    assert_type(tree_util.tree_transpose(treedef, treedef, [tree]), object)
    assert_type(tree_util.treedef_children(treedef), list[PyTreeDef])
    assert_type(tree_util.treedef_is_leaf(treedef), bool)
    assert_type(tree_util.treedef_tuple([treedef, treedef]), PyTreeDef)
    assert_type(tree_util.all_leaves([x, x]), bool)
    assert_type(tree_util.broadcast_prefix(0, tree), list[object])
    assert_type(treedef.unflatten([x]), object)
    assert_type(treedef.flatten_up_to(tree), list[object])
    assert_type(treedef.__reduce__(), tuple[Callable[..., PyTreeDef], tuple[object, ...]])
    assert_type(tree_util.register_pytree_node(Box, flatten, unflatten), None)
    assert_type(tree_util.register_pytree_with_keys(Box, flatten_with_keys, unflatten), None)
    assert_type(tree_util.register_pytree_node_class(Box), type[Box])
