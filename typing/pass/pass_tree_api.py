"""Every function of jaxtyped.tree_util and its short jaxtyped.tree
aliases, used as users do: flatten/unflatten round trips, maps with and
without paths, reductions, transposes, treedef surgery and the four ways
to register a class (dataclass, node functions, keyed node functions, a
class with tree_flatten/tree_unflatten). Results are annotated with the
types user code would give them; the asserts check the values."""

import dataclasses
from collections.abc import Iterable

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import tree_util
from jaxtyped.tree_util import GetAttrKey, KeyEntry, KeyPath, PyTreeDef
from jaxtyped.typing import Array

params: dict[str, Array] = {"b": jnp.zeros(2), "w": jnp.ones(2)}
nested = {"layer": params, "scale": [jnp.ones(()), None]}

# --- flatten / unflatten / leaves / structure (both spellings) ---

leaves, treedef = tree_util.tree_flatten(params)
leaves2, treedef2 = jt.tree.flatten(params)
assert treedef == treedef2 and len(leaves) == len(leaves2) == 2
# The treedef of a tree of arrays remembers its type: rebuilt with arrays, it is that type again.
rebuilt = tree_util.tree_unflatten(treedef, [leaf * 2 for leaf in leaves])
rebuilt2 = jt.tree.unflatten(treedef2, leaves2)
assert float(rebuilt["w"].sum()) == 4.0 and sorted(rebuilt2) == ["b", "w"]
assert len(tree_util.tree_leaves(nested)) == len(jt.tree.leaves(nested)) == 3
structure: PyTreeDef = tree_util.tree_structure(nested)
assert structure == jt.tree.structure(nested) and structure.num_leaves == 3

# --- maps, with and without paths ---

# Over a tree of arrays, an array-to-array map keeps the tree's type.
doubled: dict[str, Array] = tree_util.tree_map(lambda leaf: leaf * 2, params)
summed: dict[str, Array] = jt.tree.map(lambda a, b: a + b, params, doubled)
assert float(summed["w"][0]) == 3.0


def describe(path: KeyPath, leaf: Array) -> str:
    return f"{tree_util.keystr(path)}:{leaf.shape}"


# To other leaf types a plain dict (list, tuple) of arrays keeps its container.
described = tree_util.tree_map_with_path(describe, params)
assert described == {"b": "['b']:(2,)", "w": "['w']:(2,)"}
described2 = jt.tree.map_with_path(describe, params)
assert described2 == described
with_path = tree_util.tree_flatten_with_path(params)
assert [tree_util.keystr(p) for p, _ in with_path[0]] == ["['b']", "['w']"]
assert len(jt.tree.flatten_with_path(params)[0]) == 2
assert [tree_util.keystr(p, simple=True) for p, _ in tree_util.tree_leaves_with_path(params)] == ["b", "w"]
assert len(jt.tree.leaves_with_path(nested)) == 3

# --- reductions and predicates ---

total: float = tree_util.tree_reduce(lambda acc, leaf: acc + float(leaf.sum()), params, 0.0)
count: int = jt.tree.reduce(lambda acc, _: acc + 1, params, 0)
assert (total, count) == (2.0, 2)
assert tree_util.tree_all({"a": True, "b": [True]}) and not jt.tree.all([True, False])
assert tree_util.all_leaves([jnp.ones(1), 1.0]) and not tree_util.all_leaves([[1.0]])

# --- transposes and treedef surgery ---

pairs = [(jnp.ones(()), jnp.zeros(())), (jnp.ones(()), jnp.zeros(()))]
outer, inner = tree_util.tree_structure([0, 0]), tree_util.tree_structure((0, 0))
swapped = tree_util.tree_transpose(outer, inner, pairs)
assert tree_util.tree_structure(swapped) == tree_util.tree_structure(([0, 0], [0, 0]))
swapped2 = jt.tree.transpose(outer, None, pairs)  # inner structure inferred
assert tree_util.tree_structure(swapped2) == tree_util.tree_structure(swapped)
children: list[PyTreeDef] = tree_util.treedef_children(structure)
assert len(children) == 2 and not tree_util.treedef_is_leaf(structure)
assert tree_util.treedef_is_leaf(tree_util.tree_structure(1.0))
both: PyTreeDef = tree_util.treedef_tuple([treedef, treedef])
assert both.num_leaves == 4
axes: list[object] = tree_util.broadcast_prefix(0, params)
assert axes == [0, 0]

# --- registration: four ways; the classes keep their own types ---


@tree_util.register_dataclass
@dataclasses.dataclass
class State:
    value: Array
    step: int = dataclasses.field(default=0, metadata={"static": True})


class Box:
    def __init__(self, content: Array) -> None:
        self.content = content


def box_flatten(box: Box) -> tuple[list[Array], None]:
    return [box.content], None


def box_unflatten(aux: None, children: tuple[object, ...]) -> Box:
    (content,) = children
    assert isinstance(content, jt.Array)
    return Box(content)


tree_util.register_pytree_node(Box, box_flatten, box_unflatten)


class Pair:
    def __init__(self, left: Array, right: Array) -> None:
        self.left, self.right = left, right


def pair_flatten_with_keys(p: Pair) -> tuple[list[tuple[KeyEntry, Array]], None]:
    return [(GetAttrKey("left"), p.left), (GetAttrKey("right"), p.right)], None


def pair_unflatten(aux: None, children: tuple[object, ...]) -> Pair:
    left, right = children
    assert isinstance(left, jt.Array) and isinstance(right, jt.Array)
    return Pair(left, right)


tree_util.register_pytree_with_keys(Pair, pair_flatten_with_keys, pair_unflatten)


@tree_util.register_pytree_node_class
class Scaled:
    def __init__(self, x: Array, factor: float) -> None:
        self.x, self.factor = x, factor

    def tree_flatten(self) -> tuple[list[Array], float]:
        return [self.x], self.factor

    @classmethod
    def tree_unflatten(cls, factor: float, children: Iterable[Array]) -> "Scaled":
        (x,) = children
        return cls(x, factor)


state = State(jnp.ones(2), step=3)
assert state.step == 3 and len(jt.tree.leaves(state)) == 1
box = jt.tree.map(lambda leaf: leaf + 1, Box(jnp.zeros(2)))
assert float(box.content.sum()) == 2.0  # a Box (issue 20)
pair_paths = [tree_util.keystr(p) for p, _ in tree_util.tree_flatten_with_path(Pair(jnp.ones(1), jnp.ones(1)))[0]]
assert pair_paths == [".left", ".right"]
scaled = tree_util.tree_map(lambda leaf: leaf * 3, Scaled(jnp.ones(()), 0.5))  # a Scaled (issue 20)
assert scaled.factor == 0.5 and float(scaled.x) == 3.0
