"""Trees whose leaf types the checker lost (mypy joins a literal mixing kinds
of subtrees to ``dict[str, object]``): Any leaves, as JAX's, not object."""

from collections.abc import Collection
from typing import Any, assert_type

import jaxtyped as jt
from jaxtyped import Array
from jaxtyped.tree_util import PyTreeDef


def check(
    joined: dict[str, object], nested: dict[str, Collection[object]], items: list[object], floats: dict[str, float], x: Array
) -> None:
    assert_type(jt.tree_util.tree_leaves(joined), list[Any])
    assert_type(jt.tree_util.tree_leaves(nested), list[Any])
    assert_type(jt.tree.leaves(items), list[Any])
    assert_type(jt.tree_util.tree_flatten(joined), tuple[list[Any], PyTreeDef])
    assert_type(jt.tree.map(lambda leaf: leaf * 2, joined), dict[str, Any])
    assert_type(jt.tree.map(lambda a, b: a + b, items, items), list[Any])
    assert_type(jt.tree.map_with_path(lambda path, leaf: leaf, nested), dict[str, Any])
    # A dict of a known non-array leaf type is not lost: object, as before.
    assert_type(jt.tree.leaves(floats), list[object])
    # Idiomatic use on such leaves type-checks.
    sizes = [leaf.size for leaf in jt.tree_util.tree_leaves(joined)]
    assert_type(sizes, list[Any])
    del x
