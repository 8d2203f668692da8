"""Pytree utilities, mirroring ``jax.tree_util``.

A pytree is a nest of ``None``, tuples, lists, dicts, ``OrderedDict``,
``defaultdict``, namedtuples and registered classes; everything else is a
leaf. See :mod:`jaxtyped._src.tree_util` for the implementation; the
functions whose results hold leaves are the typed wrappers of
:mod:`jaxtyped._src.api_tree` (precise for trees of arrays).
"""

from jaxtyped._src.api_tree import (
    broadcast_prefix,
    tree_flatten,
    tree_flatten_with_path,
    tree_leaves,
    tree_leaves_with_path,
    tree_map,
    tree_map_with_path,
    tree_transpose,
    tree_unflatten,
)
from jaxtyped._src.tree_util import (
    DictKey,
    FlattenedIndexKey,
    GetAttrKey,
    KeyEntry,
    KeyPath,
    PyTreeDef,
    SequenceKey,
    all_leaves,
    keystr,
    register_dataclass,
    register_pytree_node,
    register_pytree_node_class,
    register_pytree_with_keys,
    tree_all,
    tree_reduce,
    tree_structure,
    treedef_children,
    treedef_is_leaf,
    treedef_tuple,
)

__all__ = [
    "DictKey",
    "FlattenedIndexKey",
    "GetAttrKey",
    "KeyEntry",
    "KeyPath",
    "PyTreeDef",
    "SequenceKey",
    "all_leaves",
    "broadcast_prefix",
    "keystr",
    "register_dataclass",
    "register_pytree_node",
    "register_pytree_node_class",
    "register_pytree_with_keys",
    "tree_all",
    "tree_flatten",
    "tree_flatten_with_path",
    "tree_leaves",
    "tree_leaves_with_path",
    "tree_map",
    "tree_map_with_path",
    "tree_reduce",
    "tree_structure",
    "tree_transpose",
    "tree_unflatten",
    "treedef_children",
    "treedef_is_leaf",
    "treedef_tuple",
]
