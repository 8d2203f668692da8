"""Tests for jaxtyped.tree_util / jaxtyped.tree, with jax.tree_util as the oracle."""

import collections
import copy
import dataclasses
import inspect
import pickle
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, cast

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jaxtyped.tree as jtree
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, PyTreeStructureError
from jaxtyped.tree_util import (
    DictKey,
    FlattenedIndexKey,
    GetAttrKey,
    KeyPath,
    SequenceKey,
    all_leaves,
    broadcast_prefix,
    keystr,
    register_dataclass,
    register_pytree_node,
    register_pytree_node_class,
    register_pytree_with_keys,
    tree_all,
    tree_flatten,
    tree_flatten_with_path,
    tree_leaves,
    tree_leaves_with_path,
    tree_map,
    tree_map_with_path,
    tree_reduce,
    tree_structure,
    tree_transpose,
    tree_unflatten,
    treedef_children,
    treedef_is_leaf,
    treedef_tuple,
)

# ----------------------------------------------------------------- test node types

# The untyped factory on purpose: any tuple subclass with _fields is a namedtuple node.
Point = collections.namedtuple("Point", ["x", "y"])  # pyright: ignore[reportUntypedNamedTuple]


class Pixel(NamedTuple):
    row: Any
    col: Any


class Pair:
    """Custom node registered without keys (key paths use FlattenedIndexKey)."""

    def __init__(self, a: Any, b: Any) -> None:
        self.a = a
        self.b = b

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Pair) and same(self.a, other.a) and same(self.b, other.b)


def _pair_flatten(p: Pair) -> tuple[tuple[Any, Any], str]:
    return (p.a, p.b), "pair"


def _pair_unflatten(aux: str, children: Iterable[Any]) -> Pair:
    a, b = children
    return Pair(a, b)


class Box:
    """Custom node registered with keys (key path ``.value``)."""

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Box) and same(self.value, other.value)


def _box_flatten_with_keys(b: Box) -> tuple[tuple[tuple[GetAttrKey, Any]], None]:
    return ((GetAttrKey("value"), b.value),), None


def _box_flatten_with_jax_keys(b: Box) -> tuple[tuple[tuple[Any, Any]], None]:
    """Same as :func:`_box_flatten_with_keys`, with JAX's key class (for the oracle)."""
    jax = pytest.importorskip("jax")
    return ((jax.tree_util.GetAttrKey("value"), b.value),), None


def _box_unflatten(aux: None, children: Iterable[Any]) -> Box:
    (value,) = children
    return Box(value)


@register_pytree_node_class
class Tagged:
    """Custom node registered through its tree_flatten/tree_unflatten methods."""

    def __init__(self, value: Any, tag: str) -> None:
        self.value = value
        self.tag = tag

    def tree_flatten(self) -> tuple[tuple[Any], str]:
        return (self.value,), self.tag

    @classmethod
    def tree_unflatten(cls, tag: str, children: Iterable[Any]) -> "Tagged":
        (value,) = children
        return cls(value, tag)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Tagged) and self.tag == other.tag and same(self.value, other.value)


@register_dataclass
@dataclasses.dataclass
class Params:
    """Dataclass registered by decorator; ``name`` is static (aux data)."""

    w: Any
    b: Any
    name: str = dataclasses.field(default="p", metadata={"static": True})


@dataclasses.dataclass
class Explicit:
    """Dataclass registered with explicit field lists and a dropped field."""

    x: Any
    scale: float
    cache: Any = None


register_dataclass(Explicit, data_fields=["x"], meta_fields=["scale"], drop_fields=["cache"])
register_pytree_node(Pair, _pair_flatten, _pair_unflatten)
register_pytree_with_keys(Box, _box_flatten_with_keys, _box_unflatten)

_jax_registered = False


@pytest.fixture(scope="module")
def jtu() -> Any:
    """``jax.tree_util`` with the test node types registered (skips without jax)."""
    global _jax_registered
    jax = pytest.importorskip("jax")
    tu = jax.tree_util
    if not _jax_registered:
        tu.register_pytree_node(Pair, _pair_flatten, _pair_unflatten)
        tu.register_pytree_with_keys(Box, _box_flatten_with_jax_keys, _box_unflatten)
        tu.register_pytree_node_class(Tagged)
        tu.register_dataclass(Params)
        tu.register_dataclass(Explicit, data_fields=["x"], meta_fields=["scale"], drop_fields=["cache"])
        _jax_registered = True
    return tu


def _pair(*xs: Any) -> tuple[Any, ...]:
    return xs


def same(a: object, b: object) -> bool:
    """Structural equality that also insists on equal container types
    (``(1, 2) == Point(1, 2)`` is True in Python, but not here)."""
    t = type(a)
    if t is not type(b):
        return False
    if issubclass(t, dict):
        a_dict, b_dict = cast(dict[Any, Any], a), cast(dict[Any, Any], b)
        order_matters = issubclass(t, collections.OrderedDict)
        keys_ok = list(a_dict) == list(b_dict) if order_matters else a_dict.keys() == b_dict.keys()
        return keys_ok and all(same(a_dict[k], b_dict[k]) for k in a_dict)
    if issubclass(t, (tuple, list)):
        a_seq, b_seq = cast(Sequence[Any], a), cast(Sequence[Any], b)
        return len(a_seq) == len(b_seq) and all(same(x, y) for x, y in zip(a_seq, b_seq))
    if issubclass(t, np.ndarray):
        return bool(np.array_equal(cast(np.ndarray[Any, Any], a), cast(np.ndarray[Any, Any], b)))
    if dataclasses.is_dataclass(t):
        return all(same(getattr(a, f.name), getattr(b, f.name)) for f in dataclasses.fields(t))
    return bool(a == b)


def _defaultdict() -> "collections.defaultdict[str, Any]":
    d: collections.defaultdict[str, Any] = collections.defaultdict(list)
    d["z"] = 1
    d["a"] = (2, None)
    return d


class TupleSub(tuple[int, ...]):
    """A tuple subclass without ``_fields``: a leaf, as in JAX."""


class DictSub(dict[str, int]):
    """A dict subclass that is not registered: a leaf, as in JAX."""


TREES: dict[str, Any] = {
    "none": None,
    "leaf": 1,
    "array_leaf": np.arange(3),
    "empty_tuple": (),
    "empty_list": [],
    "empty_dict": {},
    "singleton_tuple": (1,),
    "nested_tuples": (1, (2, 3), ((4,),)),
    "list_none_dict": [1, None, {"b": 2, "a": 3}],
    "dict_unsorted": {"z": 1, "a": [2, 3], "m": {"y": 4, "b": None}},
    "int_keys": {3: "c", 1: "a", 2: ("b",)},
    "nested_empties": ((), [], {}, [(), None]),
    "namedtuple": Point(1, (2, 3)),
    "typing_namedtuple": Pixel(row=[1], col=None),
    "ordered_dict": collections.OrderedDict([("b", 1), ("a", (2,))]),
    "defaultdict": _defaultdict(),
    "custom_no_keys": Pair(1, [2, None]),
    "custom_with_keys": Box({"k": (1, 2)}),
    "node_class": Tagged([1, 2], "t"),
    "dataclass": Params(w=np.ones(2), b=(1, 2), name="layer"),
    "dataclass_explicit": Explicit(x=[1, 2], scale=2.0),
    "mixed_deep": {"params": [Params(1, 2), Point(Box(3), None)], "state": (Tagged(4, "s"), [[5]])},
    "subclass_leaves": [TupleSub((1, 2)), DictSub(a=1)],
}
CASES = list(TREES.items())
CASE_IDS = list(TREES)


# ----------------------------------------------------------------- oracle tests


@pytest.mark.parametrize(("name", "tree"), CASES, ids=CASE_IDS)
def test_flatten_matches_jax(jtu: Any, name: str, tree: object) -> None:
    leaves, treedef = tree_flatten(tree)
    jax_leaves, jax_treedef = jtu.tree_flatten(tree)
    assert len(leaves) == len(jax_leaves)
    assert all(a is b for a, b in zip(leaves, jax_leaves)), name
    assert treedef.num_leaves == jax_treedef.num_leaves
    assert treedef.num_nodes == jax_treedef.num_nodes
    assert repr(treedef) == repr(jax_treedef)
    assert treedef_is_leaf(treedef) == jtu.treedef_is_leaf(jax_treedef)
    assert [repr(c) for c in treedef_children(treedef)] == [repr(c) for c in jtu.treedef_children(jax_treedef)]


@pytest.mark.parametrize(("name", "tree"), CASES, ids=CASE_IDS)
def test_key_paths_match_jax(jtu: Any, name: str, tree: object) -> None:
    ours = tree_leaves_with_path(tree)
    theirs = jtu.tree_leaves_with_path(tree)
    assert [keystr(p) for p, _ in ours] == [jtu.keystr(p) for p, _ in theirs], name
    assert [keystr(p, simple=True, separator="/") for p, _ in ours] == [
        jtu.keystr(p, simple=True, separator="/") for p, _ in theirs
    ]
    assert [repr(p) for p, _ in ours] == [repr(p) for p, _ in theirs]
    assert all(a is b for (_, a), (_, b) in zip(ours, theirs))


@pytest.mark.parametrize(("name", "tree"), CASES, ids=CASE_IDS)
def test_round_trip(name: str, tree: object) -> None:
    leaves, treedef = tree_flatten(tree)
    assert same(tree_unflatten(treedef, leaves), tree), name
    pairs, path_treedef = tree_flatten_with_path(tree)
    assert path_treedef == treedef
    assert [leaf for _, leaf in pairs] == leaves or name in ("array_leaf", "dataclass")
    assert same(tree_map(lambda x: x, tree), tree)


def _is_list(x: Any) -> bool:
    return isinstance(x, list)


@pytest.mark.parametrize(("name", "tree"), CASES, ids=CASE_IDS)
def test_is_leaf_matches_jax(jtu: Any, name: str, tree: Any) -> None:
    leaves, treedef = tree_flatten(tree, is_leaf=_is_list)
    jax_leaves, jax_treedef = jtu.tree_flatten(tree, is_leaf=_is_list)
    assert all(a is b for a, b in zip(leaves, jax_leaves)) and len(leaves) == len(jax_leaves)
    assert repr(treedef) == repr(jax_treedef), name
    assert same(tree_unflatten(treedef, leaves), tree)


def test_tree_map_with_rest_matches_jax(jtu: Any) -> None:
    first = (1, {"a": 2, "b": [3, 4]}, Point(5, None))
    second = ([10], {"a": (20,), "b": [30, {"deep": 40}]}, Point(50, None))
    ours = tree_map(lambda x, y: (x, y), first, second)
    theirs = jtu.tree_map(_pair, first, second)
    assert same(ours, theirs)
    # A leaf of the first tree covers None (or anything) in the others.
    assert tree_map(lambda x, y: y, (1, 2), (1, None)) == (1, None)


def test_map_with_path_matches_jax(jtu: Any) -> None:
    tree = {"a": [1, Box(2)], "b": Point(3, 4)}
    def ours_f(path: KeyPath, x: int, y: int) -> tuple[str, int]:
        return keystr(path), x + y

    def theirs_f(path: Any, x: int, y: int) -> tuple[str, int]:
        return jtu.keystr(path), x + y

    # Not a tree of arrays: the result is object, cast back to tree's type.
    ours = cast(dict[str, list[Any]], tree_map_with_path(ours_f, tree, tree))
    theirs = jtu.tree_map_with_path(theirs_f, tree, tree)
    assert same(ours, theirs)
    assert ours["a"][1].value == ("['a'][1].value", 4)


def test_is_leaf_takes_path_matches_jax(jtu: Any) -> None:
    tree = {"a": [1, [2, 3]], "b": (4,)}

    def stop_at_depth_two(path: KeyPath, x: Any) -> bool:
        return len(path) == 2

    ours = tree_leaves_with_path(tree, stop_at_depth_two, is_leaf_takes_path=True)
    theirs = jtu.tree_leaves_with_path(tree, stop_at_depth_two, is_leaf_takes_path=True)
    assert [(keystr(p), x) for p, x in ours] == [(jtu.keystr(p), x) for p, x in theirs]
    assert [x for _, x in ours] == [1, [2, 3], 4]


def test_public_signatures_match_jax(jtu: Any) -> None:
    jax = pytest.importorskip("jax")
    import jaxtyped.tree_util as ours_tu

    for name in ours_tu.__all__:
        if name == "broadcast_prefix" or not callable(getattr(jtu, name, None)) or name[0].isupper():
            continue
        ours = inspect.signature(getattr(ours_tu, name)).parameters
        theirs = inspect.signature(getattr(jtu, name)).parameters
        assert [(p.name, p.kind) for p in ours.values()] == [(p.name, p.kind) for p in theirs.values()], name
    for name in jtree.__all__:
        ours = inspect.signature(getattr(jtree, name)).parameters
        theirs = inspect.signature(getattr(jax.tree, name)).parameters
        assert [(p.name, p.kind) for p in ours.values()] == [(p.name, p.kind) for p in theirs.values()], name


# ------------------------------------------------------------ hypothesis properties


def _children_strategies(children: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    small = st.lists(children, max_size=3)
    keys = st.sampled_from(["a", "b", "c", "d"])
    return st.one_of(
        small.map(tuple),
        small,
        st.dictionaries(keys, children, max_size=3),
        st.dictionaries(keys, children, max_size=3).map(lambda d: collections.OrderedDict(d)),
        st.builds(Point, children, children),
        st.builds(Pair, children, children),
        st.builds(Box, children),
        st.builds(Params, children, children, st.sampled_from(["p", "q"])),
    )


random_trees = st.recursive(st.one_of(st.none(), st.integers(-9, 9)), _children_strategies, max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(random_trees)
def test_property_round_trip(tree: object) -> None:
    leaves, treedef = tree_flatten(tree)
    assert same(tree_unflatten(treedef, leaves), tree)
    assert tree_leaves(tree) == leaves
    assert treedef.num_leaves == len(leaves)
    assert tree_structure(tree_map(lambda x: x, tree)) == treedef
    assert same(tree_unflatten(treedef, treedef.flatten_up_to(tree)), tree)
    assert hash(tree_structure(tree)) == hash(treedef)


@settings(max_examples=100, deadline=None)
@given(random_trees)
def test_property_matches_jax(jtu: Any, tree: object) -> None:
    leaves, treedef = tree_flatten(tree)
    jax_leaves, jax_treedef = jtu.tree_flatten(tree)
    assert leaves == jax_leaves
    assert (treedef.num_nodes, repr(treedef)) == (jax_treedef.num_nodes, repr(jax_treedef))
    assert [keystr(p) for p, _ in tree_leaves_with_path(tree)] == [
        jtu.keystr(p) for p, _ in jtu.tree_leaves_with_path(tree)
    ]


@settings(max_examples=100, deadline=None)
@given(random_trees, random_trees)
def test_property_equality_is_structural(a: Any, b: Any) -> None:
    da, db = tree_structure(a), tree_structure(b)

    def bump(x: Any) -> Any:  # leaves of an Any tree: Any in, Any out
        return 0 if x is None else x + 1

    plus_one = tree_map(bump, a)
    assert tree_structure(plus_one) == da
    assert (da == db) == (repr(da) == repr(db))
    if da == db:
        assert hash(da) == hash(db)


# --------------------------------------------------------------- error messages


def test_tree_map_mismatch_messages() -> None:
    lead = "tree_map: tree "
    cases: list[tuple[Any, Any, str]] = [
        (
            (1, {"b": (1, 2, 3)}),
            (1, {"b": [1, 2]}),
            "at key path [1]['b'] is a list of length 2 but the first tree has a tuple of length 3 there",
        ),
        ((1, 2), (1, 2, 3), "at the root is a tuple of length 3 but the first tree has a tuple of length 2 there"),
        (
            {"a": 1},
            {"b": 1},
            "at the root is a dict with keys ['b'] but the first tree has a dict with keys ['a'] there",
        ),
        ([None], [3], "at key path [0] is a leaf of type int but the first tree has None there"),
        (
            [Point(1, 2)],
            [(1, 2)],
            "at key path [0] is a tuple of length 2 but the first tree has a namedtuple Point there",
        ),
        (
            {"p": Pair(1, (2,))},
            {"p": Pair(1, 2)},
            "at key path ['p'][<flat index 1>] is a leaf of type int but the first tree has a tuple of length 1 there",
        ),
        (
            Params(1, (2,), "x"),
            Params(1, (2,), "y"),
            "at the root is a Params node with 2 children and aux data ('y',) but the first tree has a Params node "
            "with 2 children and aux data ('x',) there",
        ),
    ]
    for first, other, message in cases:
        with pytest.raises(PyTreeStructureError) as info:
            tree_map(lambda a, b, c: (a, b, c), first, first, other)
        assert str(info.value) == lead + message + " (in rest[1])"


def test_mismatch_is_a_value_error_like_jax(jtu: Any) -> None:
    with pytest.raises(ValueError):
        tree_map(lambda x, y: x, (1, 2), [1, 2])
    with pytest.raises(ValueError):
        jtu.tree_map(_pair, (1, 2), [1, 2])


def test_map_with_path_mismatch_message() -> None:
    with pytest.raises(PyTreeStructureError, match=r"^tree_map_with_path: tree at key path \['a'\]\.value is None"):
        tree_map_with_path(lambda p, x, y: x, {"a": Box((1,))}, {"a": Box(None)})


def test_flatten_up_to() -> None:
    treedef = tree_structure((1, [2, 3]))
    assert treedef.flatten_up_to(({"x": 1}, [(2,), None])) == [{"x": 1}, (2,), None]
    with pytest.raises(PyTreeStructureError) as info:
        treedef.flatten_up_to((1, [2]))
    assert str(info.value) == (
        "flatten_up_to: tree at key path [1] is a list of length 1 but the treedef has a list of length 2 there"
    )
    with pytest.raises(PyTreeStructureError, match="at the root is an OrderedDict with keys"):
        tree_structure(collections.OrderedDict[str, int](a=1, b=2)).flatten_up_to(collections.OrderedDict[str, int](b=1, a=2))


def test_unflatten_wrong_leaf_count() -> None:
    treedef = tree_structure((1, 2))
    with pytest.raises(PyTreeStructureError, match=r"too few leaves for PyTreeDef\(\(\*, \*\)\); expected 2, got 1"):
        tree_unflatten(treedef, [1])
    with pytest.raises(PyTreeStructureError, match="too many leaves .* expected 2, got 3"):
        treedef.unflatten(iter([1, 2, 3]))
    assert treedef.unflatten(iter([3, 4])) == (3, 4)


def test_unsortable_dict_keys() -> None:
    with pytest.raises(JaxtypedValueError, match="mutually comparable"):
        tree_leaves({1: "a", "b": 2})


# ------------------------------------------------------------------ broadcast_prefix


def test_broadcast_prefix() -> None:
    full = (1, [2, 3], {"a": (4, 5), "b": 6}, None)
    assert broadcast_prefix((0, None, {"a": 1, "b": 0}, 7), full) == [0, None, None, 1, 1, 0]
    assert broadcast_prefix(0, full) == [0] * 6
    assert broadcast_prefix(None, full) == [None] * 6
    assert broadcast_prefix(0, {}) == []
    # JAX's own semantics: None is an empty node of the prefix.
    assert broadcast_prefix((None, 1), (None, [2, 3]), none_is_leaf=False) == [1, 1]
    assert broadcast_prefix((9, Point(1, 2)), ((), Point([3, 4], 5)), is_leaf=lambda x: isinstance(x, Point)) == [
        Point(1, 2)
    ] * 3


def test_broadcast_prefix_errors() -> None:
    with pytest.raises(PyTreeStructureError) as info:
        broadcast_prefix(
            (0, None, {"a": 1, "b": (0, 0)}),
            (1, [2, 3], {"a": (4, 5), "b": [6, 7]}),
            what="vmap",
            prefix_name="in_axes",
            full_name="args",
        )
    assert str(info.value) == (
        "vmap: in_axes[2]['b'] is a tuple of length 2 but args[2]['b'] is a list of length 2; "
        "in_axes must be a tree prefix of args"
    )
    expected = r"^broadcast_prefix: prefix\[0\] is a tuple of length 2 but tree\[0\] is a leaf of type int"
    with pytest.raises(PyTreeStructureError, match=expected):
        broadcast_prefix([(0, 0)], [1])
    with pytest.raises(PyTreeStructureError, match="prefix is None but tree is a tuple"):
        broadcast_prefix(None, (1,), none_is_leaf=False)


# ----------------------------------------------------------------- treedefs


def test_treedef_equality_and_hash() -> None:
    a = tree_structure({"x": 1, "y": [2, 3]})
    b = tree_structure({"y": ["p", "q"], "x": None.__class__})  # other leaves, other insertion order
    assert a == b and hash(a) == hash(b)
    assert len({a, b}) == 1
    assert a != tree_structure({"x": 1, "y": (2, 3)})
    assert a != tree_structure({"x": 1, "z": [2, 3]})
    assert tree_structure(None) != tree_structure(())
    assert tree_structure(None) != tree_structure(1)
    assert tree_structure(Point(1, 2)) != tree_structure(Pixel(1, 2))
    assert tree_structure(Point(1, 2)) != tree_structure((1, 2))
    assert tree_structure(Tagged(1, "a")) != tree_structure(Tagged(1, "b"))
    assert tree_structure(Tagged(1, "a")) == tree_structure(Tagged(2, "a"))
    od = collections.OrderedDict[str, int]
    assert tree_structure(od(a=1, b=2)) != tree_structure(od(b=1, a=2))
    assert tree_structure(1) == tree_structure("leaf")
    assert tree_structure(1).__eq__(1) is NotImplemented


def test_treedef_with_unhashable_aux_data_hashes() -> None:
    # A registered node may carry a dict as auxiliary data (JAX allows it):
    # its structure still hashes, and == tells such structures apart.
    class Meta:
        def __init__(self, x: object, meta: Any) -> None:  # Any: the types ask for Hashable aux data
            self.x, self.meta = x, meta

    def flatten(m: Meta) -> tuple[tuple[object], Any]:
        return (m.x,), m.meta

    register_pytree_node(Meta, flatten, lambda meta, cs: Meta(next(iter(cs)), meta))
    a, b, c = (tree_structure(Meta(1, {"k": k})) for k in (1, 1, 2))
    assert a == b and hash(a) == hash(b)
    assert a != c
    assert len({a, b, c}) == 2
    assert tree_structure([Meta(1, {"k": 1})]) == tree_structure([Meta(2, {"k": 1})])


def test_treedef_is_immutable() -> None:
    treedef = tree_structure((1, 2))
    with pytest.raises(AttributeError):
        setattr(treedef, "num_leaves", 3)
    with pytest.raises(AttributeError):
        setattr(treedef, "extra", 1)
    children = treedef.children()
    children.clear()
    assert len(treedef.children()) == 2


def test_treedef_pickles() -> None:
    for tree in (1, None, (1, {"a": [2, None]}), Point(1, (2,)), Tagged([1], "t"), Params(1, 2, "n"), _defaultdict()):
        treedef = tree_structure(tree)
        restored = pickle.loads(pickle.dumps(treedef))
        assert restored == treedef and repr(restored) == repr(treedef)
        assert same(restored.unflatten(tree_leaves(tree)), tree)
    assert copy.deepcopy(tree_structure((1, [2]))) == tree_structure((0, [0]))


def test_treedef_helpers(jtu: Any) -> None:
    t = tree_structure((1, [2, 3]))
    assert [repr(c) for c in t.children()] == ["PyTreeDef(*)", "PyTreeDef([*, *])"]
    assert treedef_is_leaf(tree_structure(1)) and treedef_is_leaf(tree_structure(None))
    assert treedef_is_leaf(tree_structure(())) and not treedef_is_leaf(t)
    assert treedef_children(tree_structure(7)) == []
    tup = treedef_tuple([tree_structure(1), tree_structure([1, None])])
    assert tup == tree_structure((0, [0, None])) and tup.num_nodes == 5
    composed = tree_structure([1, (2, 3)]).compose(tree_structure((1, 2)))
    assert repr(composed) == repr(jtu.tree_structure([1, (2, 3)]).compose(jtu.tree_structure((1, 2))))
    assert tree_structure(1).unflatten(["x"]) == "x"
    assert tree_structure(None).unflatten([]) is None


def test_keys_and_keystr(jtu: Any) -> None:
    keys = (SequenceKey(0), DictKey("a"), GetAttrKey("x"), FlattenedIndexKey(3), DictKey(1))
    jax_keys = (jtu.SequenceKey(0), jtu.DictKey("a"), jtu.GetAttrKey("x"), jtu.FlattenedIndexKey(3), jtu.DictKey(1))
    assert [str(k) for k in keys] == [str(k) for k in jax_keys] == ["[0]", "['a']", ".x", "[<flat index 3>]", "[1]"]
    assert [repr(k) for k in keys] == [repr(k) for k in jax_keys]
    assert keystr(keys) == jtu.keystr(jax_keys) == "[0]['a'].x[<flat index 3>][1]"
    assert keystr(keys, simple=True, separator="/") == jtu.keystr(jax_keys, simple=True, separator="/") == "0/a/x/3/1"
    assert keystr(()) == ""
    assert SequenceKey(1) == SequenceKey(1) and hash(DictKey("a")) == hash(DictKey("a"))
    flat_key: object = FlattenedIndexKey(0)
    assert SequenceKey(0) != flat_key
    with pytest.raises(AttributeError):
        setattr(SequenceKey(0), "idx", 1)
    match DictKey("k"):
        case DictKey(key=found):
            assert found == "k"


# ------------------------------------------------------------ reduce, all, transpose


def test_reduce_all_leaves(jtu: Any) -> None:
    tree = [1, (2, None), {"a": 3}]
    assert tree_reduce(lambda a, b: a + b, tree) == 6
    assert tree_reduce(lambda a, b: a + b, tree, 10) == 16
    def append(acc: list[int], leaf: int) -> list[int]:
        return [*acc, leaf]

    empty: list[int] = []
    assert tree_reduce(append, tree, initializer=empty) == [1, 2, 3]
    with pytest.raises(TypeError):
        tree_reduce(lambda a, b: a + b, [None, ()])
    assert tree_all([True, 1, None]) and tree_all([]) and not tree_all([1, (0,)])
    assert tree_all([[0]], is_leaf=lambda x: isinstance(x, list))
    cases: list[list[Any]] = [[1, 2], [None], [(1,)], [], [np.zeros(2)], [[]]]
    for items in cases:
        assert all_leaves(items) == jtu.all_leaves(items), items
    assert all_leaves([(1,)], is_leaf=lambda x: isinstance(x, tuple))


def test_transpose(jtu: Any) -> None:
    outer, inner = tree_structure([0, 0, 0]), tree_structure((0, 0))
    tree = [(1, 2), (3, 4), (5, 6)]
    assert tree_transpose(outer, inner, tree) == ([1, 3, 5], [2, 4, 6])
    assert tree_transpose(outer, None, tree) == ([1, 3, 5], [2, 4, 6])
    jax_result = jtu.tree_transpose(jtu.tree_structure([0, 0, 0]), jtu.tree_structure((0, 0)), tree)
    assert same(tree_transpose(outer, inner, tree), jax_result)
    nested = {"a": Point(1, 2), "b": Point(3, 4)}
    transposed = tree_transpose(tree_structure({"a": 0, "b": 0}), None, nested)
    assert same(transposed, Point({"a": 1, "b": 3}, {"a": 2, "b": 4}))
    with pytest.raises(JaxtypedTypeError, match="tree_transpose: expected a tree of structure"):
        tree_transpose(outer, inner, [(1, 2), (3, 4), (5,)])


# ------------------------------------------------------------------ registration


def test_registered_node_kinds() -> None:
    assert tree_leaves(Explicit(x=[1, 2], scale=3.0, cache="dropped")) == [1, 2]
    rebuilt = tree_map(lambda v: v * 10, Explicit(x=[1, 2], scale=3.0, cache="dropped"))
    assert rebuilt == Explicit(x=[10, 20], scale=3.0, cache=None)
    assert [keystr(p) for p, _ in tree_leaves_with_path(Params(1, (2,)))] == [".w", ".b[0]"]
    assert tree_structure(Params(1, 2, "a")) != tree_structure(Params(1, 2, "b"))
    assert repr(tree_structure(Params(1, 2, "a"))) == "PyTreeDef(CustomNode(Params[('a',)], [*, *]))"


def test_register_duplicate_and_bad_classes() -> None:
    with pytest.raises(JaxtypedValueError, match="Duplicate"):
        register_pytree_node(Pair, _pair_flatten, _pair_unflatten)
    with pytest.raises(JaxtypedValueError, match="Duplicate"):
        register_pytree_node(tuple, lambda t: (t, None), lambda aux, cs: tuple(cs))

    class NoMethods:
        pass

    with pytest.raises(JaxtypedTypeError, match="tree_flatten"):
        register_pytree_node_class(NoMethods)


def test_register_with_keys_uses_plain_flatten_when_given() -> None:
    calls: list[str] = []

    class Keyed:
        def __init__(self, a: Any, b: Any) -> None:
            self.a, self.b = a, b

    def flatten_with_keys(k: Keyed) -> tuple[list[tuple[GetAttrKey, Any]], None]:
        calls.append("keys")
        return [(GetAttrKey("a"), k.a), (GetAttrKey("b"), k.b)], None

    def flatten(k: Keyed) -> tuple[list[Any], None]:
        calls.append("plain")
        return [k.a, k.b], None

    def unflatten(aux: None, children: Iterable[Any]) -> Keyed:
        return Keyed(*children)

    register_pytree_with_keys(Keyed, flatten_with_keys, unflatten, flatten)
    assert tree_leaves(Keyed(1, [2])) == [1, 2] and calls == ["plain"]
    assert [keystr(p) for p, _ in tree_leaves_with_path(Keyed(1, [2]))] == [".a", ".b[0]"]
    assert calls == ["plain", "keys"]
    rebuilt = tree_map(lambda x: -x, Keyed(1, [2]))
    assert type(rebuilt) is Keyed and (rebuilt.a, rebuilt.b) == (-1, [-2])


def test_register_dataclass_variants(jtu: Any) -> None:
    @dataclasses.dataclass
    class Inferred:
        a: Any
        b: Any = dataclasses.field(default=0, metadata={"static": True})

    register_dataclass(Inferred)
    jtu.register_dataclass(Inferred)
    value = Inferred([1, 2], b=7)
    assert repr(tree_structure(value)) == repr(jtu.tree_structure(value))
    assert tree_leaves(value) == jtu.tree_leaves(value) == [1, 2]
    assert tree_map(lambda x: x, value) == Inferred([1, 2], b=7)

    @dataclasses.dataclass
    class Plain:
        x: Any
        y: Any

    with pytest.raises(JaxtypedTypeError, match="must both be specified"):
        register_dataclass(Plain, data_fields=["x"])
    with pytest.raises(JaxtypedValueError, match=r"Missing fields: \['y'\]"):
        register_dataclass(Plain, data_fields=["x"], meta_fields=[])
    with pytest.raises(JaxtypedValueError, match="overlap"):
        register_dataclass(Plain, data_fields=["x", "y"], meta_fields=["y"])
    with pytest.raises(JaxtypedTypeError, match="sequences of names"):
        register_dataclass(Plain, data_fields="x", meta_fields="y")
    with pytest.raises(JaxtypedTypeError, match="not a dataclass"):
        register_dataclass(int)

    @dataclasses.dataclass
    class WithInitFalse:
        a: Any
        c: Any = dataclasses.field(default=0, init=False)

    # Inference takes every field, so an init=False field is "unexpected" (as in JAX).
    with pytest.raises(JaxtypedValueError, match=r"Unexpected fields: \['c'\]"):
        register_dataclass(WithInitFalse)
    with pytest.raises(ValueError, match="Unexpected fields"):
        jtu.register_dataclass(WithInitFalse)

    class NotADataclass:
        def __init__(self, x: Any, k: str) -> None:
            self.x, self.k = x, k

    register_dataclass(NotADataclass, data_fields=["x"], meta_fields=["k"])
    rebuilt = tree_map(lambda v: v + 1, NotADataclass(1, "k"))
    assert type(rebuilt) is NotADataclass and (rebuilt.x, rebuilt.k) == (2, "k")


def test_new_types_after_first_sight_are_classified_again() -> None:
    class Late:
        def __init__(self, v: Any) -> None:
            self.v = v

    (late,) = tree_leaves([Late(1)])  # seen (and cached) as a leaf
    assert isinstance(late, Late) and late.v == 1
    register_pytree_node(Late, lambda x: ((x.v,), None), lambda aux, cs: Late(*cs))
    assert tree_leaves([Late(1)]) == [1]


# ------------------------------------------------------------------- jaxtyped.tree


def test_tree_module_aliases() -> None:
    tree = {"a": (1, 2), "b": [3]}
    leaves, treedef = jtree.flatten(tree)
    assert leaves == [1, 2, 3] and jtree.unflatten(treedef, leaves) == tree
    assert jtree.leaves(tree) == leaves and jtree.structure(tree) == treedef
    assert jtree.map(lambda x: x * 2, tree) == {"a": (2, 4), "b": [6]}
    assert jtree.all(tree) and jtree.reduce(lambda a, b: a + b, tree) == 6
    assert [keystr(p) for p, _ in jtree.leaves_with_path(tree)] == ["['a'][0]", "['a'][1]", "['b'][0]"]
    assert jtree.flatten_with_path(tree)[1] == treedef
    assert jtree.map_with_path(lambda p, x: len(p), tree) == {"a": (2, 2), "b": [2]}
    assert jtree.transpose(jtree.structure([0, 0]), None, [(1, 2), (3, 4)]) == ([1, 3], [2, 4])


def test_arrays_are_leaves() -> None:
    x = np.zeros((2, 3))
    leaves, treedef = tree_flatten({"x": x, "y": [x]})
    assert leaves[0] is x and leaves[1] is x and treedef.num_leaves == 2


