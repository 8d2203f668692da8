"""The rest of ``jax.tree_util``/``jax.tree`` (``Partial``,
``register_static``, ``register_pytree_with_keys_class``, ``is_tree_node``,
``flatten_one_level``(``_with_keys``), ``tree_broadcast``/``tree.broadcast``,
``tree_reduce_associative``/``tree.reduce_associative``, ``tree.static``,
``default_registry``) compared with JAX's: the same code runs against
``jaxtyped`` and ``jax``; treedefs are compared as JAX prints them."""

import dataclasses
from collections import OrderedDict
from typing import Any, NamedTuple

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp

from oracle import assert_same, binary_fn, jax, jax_numpy, unary_fn

LIBS: tuple[tuple[Any, Any], ...] = ((jt, jnp), (jax, jax_numpy))


class Point(NamedTuple):
    x: Any
    y: Any


TREES: list[Any] = [
    {"b": 1, "a": (2, 3)},
    [1, (2,)],
    (None, 1),
    None,
    Point(1, [2]),
    OrderedDict([("z", 1), ("a", 2)]),
]


@pytest.mark.parametrize("tree", TREES, ids=repr)
def test_flatten_one_level(tree: Any) -> None:
    # JAX 0.10.2 keys every child of a namedtuple with the first field's name
    # in flatten_one_level_with_keys (its tree_flatten_with_path is right, as ours).
    names = ["flatten_one_level"] if isinstance(tree, Point) else ["flatten_one_level", "flatten_one_level_with_keys"]
    for name in names:
        ours_children, ours_aux = getattr(jt.tree_util, name)(tree)
        theirs_children, theirs_aux = getattr(jax.tree_util, name)(tree)
        assert repr(list(ours_children)) == repr(list(theirs_children)), name
        assert ours_aux == theirs_aux, name
        ours_children, _ = getattr(jt.tree_util.default_registry, name)(tree)
        assert repr(list(ours_children)) == repr(list(theirs_children)), name


def test_flatten_one_level_of_a_leaf() -> None:
    for lib, _ in LIBS:
        with pytest.raises(ValueError, match="can't tree-flatten type"):
            lib.tree_util.flatten_one_level(3)


@pytest.mark.parametrize("typ", [int, tuple, list, dict, type(None), Point, OrderedDict, float, str, np.ndarray])
def test_is_tree_node(typ: type[Any]) -> None:
    assert jt.tree_util.is_tree_node(typ) == jax.tree_util.is_tree_node(typ)
    assert jt.tree_util.default_registry.is_node(typ) == jax.tree_util.default_registry.is_node(typ)


@pytest.mark.parametrize(
    ("prefix", "full"),
    [
        ([1, {"a": 2}], [(1, 2), {"a": [3, 4]}]),
        (0, {"a": [1, 2], "b": 3}),
        ({"a": None, "b": 5}, {"a": None, "b": (1, 2)}),
    ],
    ids=["nested", "scalar", "none"],
)
def test_tree_broadcast(prefix: Any, full: Any) -> None:
    ours, theirs = jt.tree_util.tree_broadcast(prefix, full), jax.tree_util.tree_broadcast(prefix, full)
    assert repr(ours) == repr(theirs)
    assert repr(jt.tree.broadcast(prefix, full)) == repr(jax.tree.broadcast(prefix, full))


def test_tree_broadcast_errors() -> None:
    for lib, _ in LIBS:
        with pytest.raises(ValueError):
            lib.tree_util.tree_broadcast([1, 2], [1, 2, 3])


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8])
def test_tree_reduce_associative_shape_of_calls(n: int) -> None:
    pair = binary_fn(lambda a, b: (a, b))
    tree = {"k": list(range(n))}
    assert jt.tree_util.tree_reduce_associative(pair, tree) == jax.tree_util.tree_reduce_associative(pair, tree)
    assert jt.tree.reduce_associative(pair, tree) == jax.tree.reduce_associative(pair, tree)


def test_tree_reduce_associative_arrays_and_identity() -> None:
    for lib, L in LIBS:
        with pytest.raises(TypeError, match="Must specify identity"):
            lib.tree_util.tree_reduce_associative(L.add, [])
    assert jt.tree_util.tree_reduce_associative(binary_fn(jnp.add), [], identity=0) == 0
    trees = [[L.arange(3.0), L.ones(3), 2.0] for _, L in LIBS]
    assert_same(jt.tree_util.tree_reduce_associative(jnp.add, trees[0]), jax.tree_util.tree_reduce_associative(jax_numpy.add, trees[1]))


def test_partial_is_a_pytree_through_transformations() -> None:
    def case(lib: Any, L: Any) -> Any:
        scale = lib.tree_util.Partial(L.multiply, L.arange(3.0))
        leaves, treedef = lib.tree_util.tree_flatten(scale)
        rebuilt = lib.tree_util.tree_unflatten(treedef, [2 * leaf for leaf in leaves])
        apply = binary_fn(lambda f, x: f(x))
        return (
            lib.jit(apply)(scale, 2.0),
            rebuilt(1.0),
            lib.grad(binary_fn(lambda f, x: L.sum(f(x))))(scale, 1.0).args,
            lib.vmap(apply, in_axes=(0, None))(scale, 3.0),
            lib.jit(lambda: scale)().args,
            lib.tree_util.Partial(binary_fn(lambda x, y: x - y), y=L.ones(2))(2.0),
        )

    assert_same(case(*LIBS[0]), case(*LIBS[1]))
    ours, theirs = jt.tree_util.Partial(jnp.add, 1.0), jax.tree_util.Partial(jax_numpy.add, 1.0)
    assert str(jt.tree_util.tree_structure(ours)).replace(repr(jnp.add), "F") == str(
        jax.tree_util.tree_structure(theirs)
    ).replace(repr(jax_numpy.add), "F")


def test_register_static() -> None:
    for lib, _ in LIBS:

        class Mode(str):
            pass

        lib.tree_util.register_static(Mode)
        assert lib.tree_util.tree_leaves([Mode("add"), 1]) == [1]
        f = lib.jit(binary_fn(lambda x, mode: x + 1 if mode == "add" else x - 1))
        assert float(f(1.0, Mode("add"))) == 2.0
        assert float(f(1.0, Mode("sub"))) == 0.0
        with pytest.raises(ValueError):
            lib.tree_util.register_static(Mode)  # twice


def test_register_pytree_with_keys_class() -> None:
    paths: list[list[str]] = []
    for lib, _ in LIBS:

        class Pair:
            def __init__(self, a: Any, b: Any) -> None:
                self.a, self.b = a, b

            def tree_flatten_with_keys(self) -> Any:
                return ((lib.tree_util.GetAttrKey("a"), self.a), (lib.tree_util.GetAttrKey("b"), self.b)), "aux"

            @classmethod
            def tree_unflatten(cls, aux: Any, children: Any) -> "Pair":
                assert aux == "aux"
                return cls(*children)

        lib.tree_util.register_pytree_with_keys_class(Pair)
        pair = Pair(1.0, [2.0])
        paths.append([lib.tree_util.keystr(p) for p, _ in lib.tree_util.tree_flatten_with_path(pair)[0]])
        doubled = lib.tree_util.tree_map(unary_fn(lambda v: 2 * v), pair)
        assert (doubled.a, doubled.b) == (2.0, [4.0])
        assert float(lib.grad(unary_fn(lambda p: p.a * p.b[0]))(pair).b[0]) == 1.0
    assert paths[0] == paths[1] == [".a", ".b[0]"]


def test_tree_static_field() -> None:
    reprs: list[str] = []
    for lib, L in LIBS:

        @lib.tree_util.register_dataclass
        @dataclasses.dataclass
        class Op:
            x: Any
            op: str = lib.tree.static(default="add")
            names: tuple[str, ...] = lib.tree.static(default_factory=tuple)

        m = Op(x=L.ones(2))
        leaves, treedef = lib.tree.flatten(m)
        assert len(leaves) == 1
        reprs.append(str(treedef))
        assert dataclasses.fields(Op)[1].metadata["static"] is True
    assert reprs[0] == reprs[1]
