"""Types found missing by the second round of the typing corpus (issue 20):
a function of one tree that returns something other than an Array (a
mask, a shape, a label) keeps a plain dict's, dict of dicts', list's or
tuple's container; the structure of a tree of arrays remembers the
tree's type, so unflattening it with array leaves gives that type back;
every Array declares the placement methods of jax.Array; jt.scipy's
submodules are attributes of the package; jnp's products take
precision=; and a loop carry that is a tuple of two or three leaves
(``(x, 0.0)``) is a tuple of Arrays in the body and in the result."""

from typing import NamedTuple

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import ArrayLike
from jaxtyped.sharding import Sharding
from jaxtyped.tree_util import KeyPath, PyTreeDef, keystr, tree_map, tree_map_with_path
from jaxtyped.typing import Array, PyTree


class Pair(NamedTuple):
    a: Array
    b: Array


def is_matrix(x: Array) -> bool:
    return x.ndim == 2


def label(path: KeyPath, x: Array) -> str:
    return keystr(path)


def check(
    flat: dict[str, Array], nested: dict[str, dict[str, Array]], layers: list[Array], pair: tuple[Array, Array], p: Pair
) -> None:
    # Masks and labels over plain containers: the container of f's results.
    assert_type(jt.tree.map(is_matrix, flat), dict[str, bool])
    assert_type(jt.tree.map(is_matrix, nested), dict[str, dict[str, bool]])
    assert_type(tree_map(is_matrix, layers), list[bool])
    assert_type(tree_map(is_matrix, pair), tuple[bool, ...])
    assert_type(jt.tree.map(lambda x: bool(x.ndim == 2), nested), dict[str, dict[str, bool]])
    assert_type(jt.tree.map(lambda x: None, flat), dict[str, None])
    assert_type(jt.tree.map_with_path(lambda path, x: keystr(path).endswith("['w']"), nested), dict[str, dict[str, bool]])
    assert_type(tree_map_with_path(label, layers), list[str])
    assert_type(tree_map_with_path(label, flat), dict[str, str])
    # A function to arrays still keeps the tree's own type (a NamedTuple too).
    assert_type(jt.tree.map(lambda x: x * 2, nested), dict[str, dict[str, Array]])
    assert_type(jt.tree.map(lambda x: x * 2, p), Pair)
    # A NamedTuple mapped to non-arrays is a tuple of the results (it is one);
    # other trees mapped to non-arrays stay object.
    assert_type(jt.tree.map(is_matrix, p), tuple[bool, ...])
    assert_type(jt.tree.map(is_matrix, {"a": layers}), object)
    # Structures of trees of arrays, and the round trip through unflatten.
    leaves, treedef = jt.tree.flatten(nested)
    assert_type(treedef, PyTreeDef[dict[str, dict[str, Array]]])
    assert_type(jt.tree.unflatten(treedef, [leaf * 2 for leaf in leaves]), dict[str, dict[str, Array]])
    assert_type(jt.tree.unflatten(jt.tree.structure(p), leaves), Pair)
    assert_type(jt.tree_util.tree_unflatten(jt.tree.structure(layers), leaves), list[Array])
    assert_type(jt.tree.flatten_with_path(pair)[1], PyTreeDef[tuple[Array, Array]])
    # Leaves that are not arrays, or a structure of a tree of array-likes:
    # a PyTree (array-like leaves); of another tree: object.
    assert_type(jt.tree.unflatten(treedef, [1.0, 2.0]), PyTree)
    assert_type(jt.tree.unflatten(jt.tree.structure([1.0]), [1.0]), PyTree)
    assert_type(jt.tree.structure([1.0]), PyTreeDef[PyTree])
    assert_type(jt.tree.unflatten(jt.tree.structure([1.0]), ["a"]), object)


def placement_scipy_precision(x: Array, m: Array) -> None:
    assert_type(x.block_until_ready(), Array)
    assert_type(x.devices(), set[jt.Device])
    assert_type(x.sharding, Sharding)
    assert_type(x.is_fully_addressable, bool)
    assert_type(x.is_fully_replicated, bool)
    assert_type(x.addressable_data(0), Array)
    assert_type([shard.data for shard in x.addressable_shards], list[Array])
    assert_type(len(x.global_shards), int)
    assert_type(round(x), Array)
    assert_type(round(x, 2), Array)
    assert_type(jt.random.key(0).block_until_ready(), jt.random.KeyArray)
    assert_type(jt.scipy.stats.norm.logpdf(x, 0.0, 1.0), Array)
    assert_type(jt.scipy.special.logsumexp(x), Array)
    assert_type(jt.scipy.linalg.expm(m), Array)
    assert_type(jnp.dot(m, m, precision=lax.Precision.HIGHEST), Array)
    assert_type(jnp.matmul(m, m, precision="highest"), Array)
    assert_type(jnp.einsum("ij,jk->ik", m, m, precision=("default", "highest")), Array)


def pair_step(c: tuple[Array, Array]) -> tuple[Array, Array]:
    return c[0] + 1, c[1] * 2


def pair_below(c: tuple[Array, Array]) -> Array:
    return c[0] < 3


def triple_body(i: Array, c: tuple[Array, Array, Array]) -> tuple[Array, Array, ArrayLike]:
    return c[0] * 2, c[1] + i, 0.0


def triple_step(c: tuple[Array, Array, Array]) -> tuple[Array, Array, Array]:
    return c[0] + 1, c[1] * 2, c[2]


def tuple_carries(x: Array) -> None:
    assert_type(lax.fori_loop(0, 3, lambda i, c: (c[0] * 2, c[1] + c[0].sum()), (x, 0.0)), tuple[Array, Array])
    assert_type(lax.fori_loop(0, 3, triple_body, (x, 0, 1.0)), tuple[Array, Array, Array])
    assert_type(lax.while_loop(pair_below, pair_step, (0, x)), tuple[Array, Array])
    # (mypy gives a lambda-only while_loop of a tuple tuple[Any, ...]: typing/pending/NOTES.md CF2)
    assert_type(lax.while_loop(lambda c: c[0] < 3, triple_step, (0, x, 1.0)), tuple[Array, Array, Array])
