"""tree_map (and jt.tree.map) with an unannotated lambda keeps the
container's type in mypy as in pyright (issue 20): dicts, lists, tuples,
NamedTuples, nested containers and registered dataclasses of arrays, with
one tree or two. A function whose result is not an Array gives object
(narrow it); so does a container of non-arrays."""

import dataclasses
from typing import Any, NamedTuple

import numpy as np

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.core import ShapedArray
from jaxtyped.sharding import PartitionSpec as P
from jaxtyped.tree_util import register_dataclass, tree_map, tree_map_with_path
from jaxtyped.typing import Array


class Momentum(NamedTuple):
    velocity: Array
    step: Array


@register_dataclass
@dataclasses.dataclass
class Linear:
    w: Array
    b: Array


def shape_of(x: Array) -> tuple[int, ...]:
    return x.shape


def is_matrix(x: Array) -> bool:
    return x.ndim == 2


def struct_of(x: Array) -> jt.ShapeDtypeStruct:
    return jt.ShapeDtypeStruct(x.shape, x.dtype)


class Note:
    """A user's class, not one a container keeps (see the last cases)."""


def note_of(x: Array) -> Note:
    return Note()


def add3(p: Array, q: Array, r: Array) -> Array:
    return p + q + r


def check(params: dict[str, Array], layers: list[Array], pair: tuple[Array, Array], m: Momentum, lin: Linear) -> None:
    assert_type(tree_map(lambda p, g: p - 0.1 * g, params, params), dict[str, Array])
    assert_type(jt.tree.map(lambda p, g: p - 0.1 * g, params, params), dict[str, Array])
    assert_type(tree_map(lambda p: p * 2, params), dict[str, Array])
    assert_type(tree_map(lambda p: jnp.sin(p), layers), list[Array])
    assert_type(tree_map(lambda a, b: a @ b, layers, layers), list[Array])
    assert_type(tree_map(lambda p: p + 1, pair), tuple[Array, Array])
    assert_type(tree_map(lambda v: 0.9 * v, m), Momentum)
    assert_type(jt.tree.map(lambda v, g: v + g, m, m), Momentum)
    assert_type(tree_map(lambda p: p.T, lin), Linear)
    assert_type(tree_map(lambda p, g: p - 0.1 * g, lin, lin), Linear)
    assert_type(jt.tree.map(lambda p: jnp.zeros_like(p), {"enc": layers, "dec": pair}), dict[str, list[Array] | tuple[Array, Array]])
    assert_type(tree_map_with_path(lambda path, p: p * 2, params), dict[str, Array])
    assert_type(jt.tree.map_with_path(lambda path, p, q: p + q, lin, lin), Linear)
    # Leaves that become something else: a plain dict, list or tuple keeps its
    # container; another tree, or a tree of non-arrays, gives object.
    assert_type(tree_map(shape_of, params), dict[str, tuple[int, ...]])
    assert_type(tree_map(shape_of, lin), object)
    assert_type(tree_map(is_matrix, params), dict[str, bool])
    assert_type(tree_map(is_matrix, layers), list[bool])
    assert_type(tree_map(np.asarray, params), dict[str, np.ndarray[tuple[Any, ...], np.dtype[Any]]])
    assert_type(tree_map(struct_of, params), dict[str, jt.ShapeDtypeStruct])
    assert_type(tree_map(jt.typeof, pair), tuple[ShapedArray, ...])
    assert_type(tree_map(lambda p: P("data"), params), dict[str, P])
    # ... but the kept kinds of result are named (everything but an Array):
    # another class over a plain container gives object.
    assert_type(tree_map(note_of, params), object)
    assert_type(tree_map(lambda x: x + 1, [1, 2]), object)
    assert_type(tree_map(jnp.asarray, {"a": 1.0}), object)
    assert_type(tree_map(add3, params, params, params), dict[str, Array])
    assert_type(tree_map(lambda p, m, v: p - m / v, lin, lin, lin), Linear)
    assert_type(tree_map(lambda *xs: xs[0], params, params, params, params), object)  # four trees or more
