"""Pytrees: flattening nested containers into leaves and a structure (layer L0).

A pytree is a nest of containers (``None``, tuples, lists, dicts,
``OrderedDict``, ``defaultdict``, namedtuples, registered classes and
dataclasses) whose other items are *leaves*. :func:`tree_flatten` splits a
pytree into its leaves and a :class:`PyTreeDef`; :func:`tree_unflatten`
rebuilds it. Names, signatures and semantics follow ``jax.tree_util``.

Flattening runs on every transformation call, so the hot paths dispatch on
``type(x)`` through one dict and special-case the builtin containers.
"""

# pyright: reportPrivateUsage=false
# (PyTreeDef's slots are private to this module rather than to the class: the
# recursive helpers are module functions, which keeps the hot paths cheap.)

import collections
import dataclasses
import enum
import functools
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any, Final, Generic, TypeVar, cast, overload

import typing_extensions

from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, PyTreeStructureError

__all__ = [
    "PyTreeDef", "KeyEntry", "KeyPath", "SequenceKey", "DictKey", "GetAttrKey",
    "FlattenedIndexKey", "tree_flatten", "tree_unflatten", "tree_leaves", "tree_structure",
    "tree_map", "tree_all", "tree_reduce", "tree_transpose", "tree_flatten_with_path",
    "tree_leaves_with_path", "tree_map_with_path", "register_pytree_node",
    "register_pytree_with_keys", "register_pytree_node_class",
    "register_dataclass", "keystr", "treedef_is_leaf", "treedef_children", "treedef_tuple",
    "all_leaves", "broadcast_prefix",
    # breadth: more of jax.tree_util
    "Partial", "register_static", "register_pytree_with_keys_class", "is_tree_node", "flatten_one_level",
    "flatten_one_level_with_keys", "tree_broadcast", "tree_reduce_associative", "static", "PyTreeRegistry", "default_registry",
    "treedef_from_node_data",
]  # fmt: skip

T = TypeVar("T")
_AuxT = TypeVar("_AuxT", bound=Hashable)

KeyEntry = Hashable
"""One step of a key path, usually a :class:`SequenceKey`, :class:`DictKey`,
:class:`GetAttrKey` or :class:`FlattenedIndexKey`."""
KeyPath = tuple[KeyEntry, ...]
"""The keys leading from the root of a pytree to one of its subtrees."""

_IsLeaf = Callable[[Any], bool]
# A node's auxiliary data is typed Hashable where users register nodes (as in
# JAX), but held as object here: JAX accepts unhashable data (a dict) at run
# time, and so do we (PyTreeDef.__hash__).
_FlattenFn = Callable[[Any], tuple[Iterable[Any], object]]
_FlattenKeysFn = Callable[[Any], tuple[Iterable[tuple[KeyEntry, Any]], object]]
# Aux data is opaque: a node's unflatten gets back what its flatten returned.
_UnflattenFn = Callable[[Any, tuple[Any, ...]], Any]
_AnyTuple = tuple[Any, ...]
_AnySeq = Sequence[Any]
_AnyDict = dict[Any, Any]
_NoneType = type(None)


# --------------------------------------------------------------------------- keys


@dataclasses.dataclass(frozen=True, slots=True)
class SequenceKey:
    """Key of a tuple or list element; ``str()`` gives ``[0]``."""

    idx: int

    def __str__(self) -> str:
        return f"[{self.idx!r}]"


@dataclasses.dataclass(frozen=True, slots=True)
class DictKey:
    """Key of a dict entry; ``str()`` gives ``['a']``."""

    key: Hashable

    def __str__(self) -> str:
        return f"[{self.key!r}]"


@dataclasses.dataclass(frozen=True, slots=True)
class GetAttrKey:
    """Key of a namedtuple or dataclass field; ``str()`` gives ``.name``."""

    name: str

    def __str__(self) -> str:
        return f".{self.name}"


@dataclasses.dataclass(frozen=True, slots=True)
class FlattenedIndexKey:
    """Key of a child of a node registered without keys; ``str()`` gives
    ``[<flat index 0>]``, as in JAX."""

    key: int

    def __str__(self) -> str:
        return f"[<flat index {self.key}>]"


def keystr(keys: KeyPath, *, simple: bool = False, separator: str = "") -> str:
    """Render a key path, e.g. ``[1]['b'].x``.

    Args:
        keys: the key path.
        simple: render each key bare (``1``, ``b``, ``x``): compact but ambiguous.
        separator: put between the rendered keys.
    """
    return separator.join(_simple_key_str(k) if simple else str(k) for k in keys)


def _simple_key_str(key: KeyEntry) -> str:
    match key:
        case SequenceKey(idx=inner) | DictKey(key=inner) | GetAttrKey(name=inner) | FlattenedIndexKey(key=inner):
            return str(inner)
        case _:
            return str(key)


# --------------------------------------------------------------------- node kinds


@dataclasses.dataclass(frozen=True, slots=True)
class _NodeKind:
    """How to take apart, rebuild, print and describe one type of node."""

    nodetype: type[Any]
    flatten: _FlattenFn
    flatten_with_keys: _FlattenKeysFn
    unflatten: _UnflattenFn
    render: Callable[[Any, list[str]], str]  # (aux, rendered children) -> repr
    describe: Callable[[Any, int], str]  # (aux, number of children) -> error text
    # A dataclass registered by register_dataclass: its (data, meta) field
    # names, so jaxlib's registry can walk it in C++ (Note [node types shared with jaxlib]).
    dataclass_fields: tuple[tuple[str, ...], tuple[str, ...]] | None = None


def _sorted_keys(d: _AnyDict) -> _AnyTuple:
    try:
        return tuple(sorted(d))
    except TypeError as e:
        raise JaxtypedValueError(
            f"pytree dict keys must be mutually comparable (they are sorted); got keys {list(d)!r}"
        ) from e


def _an(name: str) -> str:
    return f"an {name}" if name[:1].lower() in "aeiou" else f"a {name}"


def _drop_keys(flatten_with_keys: _FlattenKeysFn) -> _FlattenFn:
    def flatten(x: Any) -> tuple[list[Any], object]:
        keyed, aux = flatten_with_keys(x)
        return [child for _, child in keyed], aux

    return flatten


def _index_keys(flatten: _FlattenFn) -> _FlattenKeysFn:
    def flatten_with_keys(x: Any) -> tuple[list[tuple[KeyEntry, Any]], object]:
        children, aux = flatten(x)
        return [(FlattenedIndexKey(i), c) for i, c in enumerate(children)], aux

    return flatten_with_keys


def _sequence_kind(t: type[Any], open_: str, close: str) -> _NodeKind:
    def render(_aux: None, cs: list[str]) -> str:
        return f"{open_}{', '.join(cs)}{',' if t is tuple and len(cs) == 1 else ''}{close}"

    def flatten_with_keys(x: _AnySeq) -> tuple[list[tuple[KeyEntry, Any]], None]:
        return [(SequenceKey(i), c) for i, c in enumerate(x)], None

    def describe(_aux: None, n: int) -> str:
        return f"a {t.__name__} of length {n}"

    return _NodeKind(t, lambda x: (x, None), flatten_with_keys, lambda _, cs: t(cs), render, describe)


def _custom_kind(
    t: type[Any],
    flatten: _FlattenFn,
    flatten_with_keys: _FlattenKeysFn,
    unflatten: _UnflattenFn,
    *,
    label: Callable[[Any], str] | None = None,
    describe: Callable[[Any, int], str] | None = None,
) -> _NodeKind:
    """A node printed the way JAX prints custom nodes: ``CustomNode(Name[aux], [...])``."""
    name = t.__name__

    def render(aux: Any, cs: list[str]) -> str:
        return f"CustomNode({f'{name}[{aux}]' if label is None else label(aux)}, [{', '.join(cs)}])"

    def describe_custom(aux: Any, n: int) -> str:
        return f"{_an(name)} node with {n} children and aux data {aux!r}"

    return _NodeKind(t, flatten, flatten_with_keys, unflatten, render, describe or describe_custom)


def _namedtuple_kind(t: type[Any]) -> _NodeKind:
    fields: tuple[str, ...] = tuple(getattr(t, "_fields"))

    def flatten_with_keys(x: _AnyTuple) -> tuple[list[tuple[KeyEntry, Any]], None]:
        return [(GetAttrKey(f), c) for f, c in zip(fields, x)], None

    return _custom_kind(
        t, lambda x: (x, None), flatten_with_keys, lambda _, cs: t(*cs),
        label=lambda _: f"namedtuple[{t.__name__}]", describe=lambda _, __: f"a namedtuple {t.__name__}",
    )  # fmt: skip


def _dict_flatten_keys(d: _AnyDict) -> tuple[list[tuple[KeyEntry, Any]], _AnyTuple]:
    keys = _sorted_keys(d)
    return [(DictKey(k), d[k]) for k in keys], keys


def _ordered_dict_flatten_keys(d: _AnyDict) -> tuple[list[tuple[KeyEntry, Any]], _AnyTuple]:
    return [(DictKey(k), v) for k, v in d.items()], tuple(d)


def _defaultdict_flatten_keys(
    d: "collections.defaultdict[Any, Any]",
) -> tuple[list[tuple[KeyEntry, Any]], tuple[Callable[[], Any] | None, _AnyTuple]]:
    keys = _sorted_keys(d)
    return [(DictKey(k), d[k]) for k in keys], (d.default_factory, keys)


def _defaultdict_unflatten(
    aux: tuple[Callable[[], Any] | None, _AnyTuple], children: _AnyTuple
) -> "collections.defaultdict[Any, Any]":
    return collections.defaultdict(aux[0], zip(aux[1], children))


def _render_dict(keys: _AnyTuple, cs: list[str]) -> str:
    return "{" + ", ".join(f"{k!r}: {c}" for k, c in zip(keys, cs)) + "}"


_TUPLE_KIND = _sequence_kind(tuple, "(", ")")
_NONE_KIND = _NodeKind(
    _NoneType, lambda _: ((), None), lambda _: ((), None), lambda _, __: None,
    lambda _, __: "None", lambda _, __: "None",
)  # fmt: skip
# Registered and builtin node types. _KINDS also caches the classification
# (a namedtuple kind, or None for a leaf) of every other type seen.
_REGISTRY: dict[type[Any], _NodeKind] = {
    tuple: _TUPLE_KIND,
    list: _sequence_kind(list, "[", "]"),
    dict: _NodeKind(
        dict, _drop_keys(_dict_flatten_keys), _dict_flatten_keys, lambda keys, cs: dict(zip(keys, cs)),
        _render_dict, lambda keys, _: f"a dict with keys {list(keys)!r}",
    ),
    _NoneType: _NONE_KIND,
    collections.OrderedDict: _custom_kind(
        collections.OrderedDict, _drop_keys(_ordered_dict_flatten_keys), _ordered_dict_flatten_keys,
        lambda keys, cs: collections.OrderedDict(zip(keys, cs)),
        describe=lambda keys, _: f"an OrderedDict with keys {list(keys)!r}",
    ),
    collections.defaultdict: _custom_kind(
        collections.defaultdict, _drop_keys(_defaultdict_flatten_keys), _defaultdict_flatten_keys,
        _defaultdict_unflatten, describe=lambda aux, _: f"a defaultdict with keys {list(aux[1])!r}",
    ),
}  # fmt: skip
_KINDS: dict[type[Any], _NodeKind | None] = dict(_REGISTRY)
_KINDS_CACHE_LIMIT = 8192


class _Unseen(enum.Enum):
    TOKEN = enum.auto()


_UNSEEN = _Unseen.TOKEN  # a global read is cheaper than the enum attribute in hot loops


def _classify(t: type[Any]) -> _NodeKind | None:
    """The kind of a type not yet in ``_KINDS``: a namedtuple or a leaf."""
    kind = _namedtuple_kind(t) if tuple in t.__mro__ and hasattr(t, "_fields") else None
    if len(_KINDS) < _KINDS_CACHE_LIMIT:  # bounded, in case types are made on the fly
        _KINDS[t] = kind
    return kind


def _kind_of(t: type[Any]) -> _NodeKind | None:
    kind = _KINDS.get(t, _UNSEEN)
    return _classify(t) if kind is _Unseen.TOKEN else kind


def _register(t: type[Any], kind: _NodeKind) -> None:
    if t in _REGISTRY:
        raise JaxtypedValueError(f"Duplicate custom PyTreeDef type registration for {t!r}.")
    _REGISTRY[t] = kind
    _KINDS[t] = kind  # replaces a cached "leaf" classification
    for share in _NODE_TYPE_SHARERS:
        _offer(share, t, kind)


# Note [node types shared with jaxlib]: jit's dispatch memo flattens
# arguments with jaxlib's C++ registry (runtime.xla owns it; this layer
# may not import jaxlib). Every node type registered here is handed to it
# with the same flatten and unflatten functions, so both walk a tree into
# the same leaves; the types it took are those builtin_containers_only
# accepts besides the builtin containers.
_NodeTypeSharer = Callable[[type[Any], _FlattenFn, _UnflattenFn, "tuple[tuple[str, ...], tuple[str, ...]] | None"], bool]
_NODE_TYPE_SHARERS: list[_NodeTypeSharer] = []
_SHARED_NODE_TYPES: set[type[Any]] = set()


def share_node_types(share: _NodeTypeSharer) -> None:
    """Call ``share(nodetype, flatten, unflatten, dataclass_fields)`` for
    every node type registered so far (beyond the builtin containers) and
    every one registered later; those for which it returns True count as
    shared (see Note [node types shared with jaxlib]). ``dataclass_fields``
    is the ``(data, meta)`` field names of a type registered by
    :func:`register_dataclass`, else None."""
    _NODE_TYPE_SHARERS.append(share)
    for t, kind in list(_REGISTRY.items()):
        if t not in _BUILTIN_NODE_TYPES:
            _offer(share, t, kind)


def _offer(share: _NodeTypeSharer, t: type[Any], kind: _NodeKind) -> None:
    if share(t, kind.flatten, kind.unflatten, kind.dataclass_fields):
        _SHARED_NODE_TYPES.add(t)


# ---------------------------------------------------------------------- PyTreeDef


# The type of the tree a treedef was taken from, for the typed faces in
# api_tree.py: tree_unflatten of a PyTreeDef[T] with array leaves is a T.
# Bare PyTreeDef (any tree) means PyTreeDef[object].
_TreeT_co = typing_extensions.TypeVar("_TreeT_co", covariant=True, default=object)


class PyTreeDef(Generic[_TreeT_co]):
    """The structure of a pytree: its nodes and where its leaves go.

    Immutable and hashable. Two treedefs are equal when their node types,
    node metadata (dict keys, namedtuple type, custom aux data) and children
    are equal. Get one from :func:`tree_structure` or :func:`tree_flatten`.
    """

    __slots__ = ("_type", "_kind", "_aux", "_children", "_num_leaves", "_num_nodes", "_leafy", "_hash")

    def __init__(
        self,
        nodetype: type[Any] | None,
        kind: _NodeKind | None,
        aux: object,
        children: "tuple[PyTreeDef, ...]",
        num_leaves: int,
        num_nodes: int,
    ) -> None:
        """Internal: use :func:`tree_structure`. ``nodetype`` is None for a leaf."""
        self._type = nodetype
        self._kind = kind
        self._aux = aux
        self._children = children
        self._num_leaves = num_leaves
        self._num_nodes = num_nodes
        # Every child is a leaf: unflatten slices instead of recursing.
        self._leafy = num_leaves == len(children) == num_nodes - 1
        self._hash: int | None = None

    @property
    def num_leaves(self) -> int:
        """Number of leaves."""
        return self._num_leaves

    @property
    def num_nodes(self) -> int:
        """Number of nodes, leaves included."""
        return self._num_nodes

    def children(self) -> "list[PyTreeDef]":
        """Treedefs of the root's children (empty for a leaf)."""
        return list(self._children)

    def node_data(self) -> tuple[type[object], object] | None:
        """The root's node type and aux data (a dict's sorted keys, a custom
        node's aux); None for a leaf (JAX's ``PyTreeDef.node_data``)."""
        return None if self._type is None else (self._type, self._aux)

    def unflatten(self, leaves: Iterable[object]) -> object:
        """Build the pytree with this structure and these leaves.

        Raises:
            PyTreeStructureError: the number of leaves is wrong.
        """
        seq = leaves if isinstance(leaves, (list, tuple)) else list(leaves)
        if len(seq) != self._num_leaves:
            few = "few" if len(seq) < self._num_leaves else "many"
            raise PyTreeStructureError(
                f"tree_unflatten: too {few} leaves for {self!r}; expected {self._num_leaves}, got {len(seq)}"
            )
        return _unflatten(self, seq, 0)

    def flatten_up_to(self, tree: object) -> list[object]:
        """The subtrees of ``tree`` at the leaf positions of this structure.

        Raises:
            PyTreeStructureError: ``tree`` does not have this structure down to
                its leaves; the message gives the key path of the first difference.
        """
        out: list[object] = []
        try:
            _flatten_up_to(self, tree, out)
        except _Mismatch as e:
            msg = f"flatten_up_to: tree {e.where()} is {e.found} but the treedef has {e.expected} there"
            raise PyTreeStructureError(msg) from None
        return out

    def compose(self, inner: "PyTreeDef") -> "PyTreeDef":
        """This structure with ``inner`` in place of each leaf."""
        if self._kind is None:
            return inner
        return _make_node(self._type, self._kind, self._aux, tuple(c.compose(inner) for c in self._children))

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, PyTreeDef):
            return NotImplemented
        return (
            self._type is other._type
            and self._num_nodes == other._num_nodes
            and self._num_leaves == other._num_leaves
            and self._children == other._children
            and (self._aux is other._aux or bool(self._aux == other._aux))
        )

    def __hash__(self) -> int:
        if self._hash is None:
            try:
                aux_hash = hash(self._aux)
            except TypeError:
                # A registered node's auxiliary data may be unhashable (a dict
                # of settings), as JAX allows: such structures are told apart
                # by __eq__ alone, in caches keyed by them (jit's included).
                aux_hash = -1
            self._hash = hash((self._type, aux_hash, self._children))
        return self._hash

    def __repr__(self) -> str:
        return f"PyTreeDef({_render(self)})"

    def __reduce__(self) -> "tuple[Callable[..., PyTreeDef], tuple[object, ...]]":
        # Node kinds hold closures; pickle the node type and look its kind up again.
        return _unpickle, (self._type, self._aux, self._children)


def builtin_containers_only(treedef: PyTreeDef) -> bool:
    """Whether every node of ``treedef`` is a tuple, list, dict, None, an
    unregistered namedtuple or a node type shared with jaxlib (Note [node
    types shared with jaxlib]): the structures jaxlib's C++ flattening (used
    by ``jit``'s dispatch memo) handles exactly as :func:`tree_flatten` does."""
    t = treedef._type
    if t is not None and t not in _BUILTIN_NODE_TYPES and t not in _SHARED_NODE_TYPES:
        if t in _REGISTRY or not issubclass(t, tuple):
            return False
    return all(builtin_containers_only(c) for c in treedef._children)


_BUILTIN_NODE_TYPES: Final = frozenset({tuple, list, dict, _NoneType})


def _unpickle(nodetype: type[Any] | None, aux: object, children: tuple[PyTreeDef, ...]) -> PyTreeDef:
    kind = None if nodetype is None else _kind_of(nodetype)
    if kind is None:
        if nodetype is None:
            return _LEAF
        raise JaxtypedValueError(f"cannot unpickle a PyTreeDef: {nodetype!r} is not a pytree node type here")
    return _make_node(nodetype, kind, aux, children)


def _render(td: PyTreeDef) -> str:
    if td._kind is None:
        return "*"
    return td._kind.render(td._aux, [_render(c) for c in td._children])


def _make_node(
    nodetype: type[Any] | None, kind: _NodeKind, aux: object, children: tuple[PyTreeDef, ...]
) -> PyTreeDef:
    leaves = sum(c._num_leaves for c in children)
    return PyTreeDef(nodetype, kind, aux, children, leaves, 1 + sum(c._num_nodes for c in children))


_LEAF = PyTreeDef(None, None, None, (), 1, 1)


# ------------------------------------------------------------ flatten / unflatten


def _flatten(x: object, leaves: list[Any], is_leaf: _IsLeaf | None) -> PyTreeDef:
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return _LEAF
    t = type(x)
    kind = _KINDS.get(t, _UNSEEN)
    if kind is _Unseen.TOKEN:
        kind = _classify(t)
    if kind is None:
        leaves.append(x)
        return _LEAF
    children: Iterable[object]
    aux: object = None
    if t is tuple or t is list:
        children = cast(_AnyTuple, x)
    elif t is dict:
        d = cast(_AnyDict, x)
        aux = keys = _sorted_keys(d)
        children = map(d.__getitem__, keys)
    else:
        children, aux = kind.flatten(x)
    start = len(leaves)
    defs: list[PyTreeDef] = []
    nodes = 1
    fast = is_leaf is None  # then children of a type known to be a leaf skip the call
    get = _KINDS.get
    child: object
    for child in children:
        if fast and get(type(child), _UNSEEN) is None:
            leaves.append(child)
            defs.append(_LEAF)
            nodes += 1
        else:
            sub = _flatten(child, leaves, is_leaf)
            defs.append(sub)
            nodes += sub._num_nodes
    return PyTreeDef(t, kind, aux, tuple(defs), len(leaves) - start, nodes)


def _leaves_into(x: object, leaves: list[Any], is_leaf: _IsLeaf | None) -> None:
    """:func:`_flatten` without building the treedef."""
    if is_leaf is not None and is_leaf(x):
        leaves.append(x)
        return
    t = type(x)
    kind = _KINDS.get(t, _UNSEEN)
    if kind is _Unseen.TOKEN:
        kind = _classify(t)
    if kind is None:
        leaves.append(x)
        return
    children: Iterable[object]
    if t is tuple or t is list:
        children = cast(_AnyTuple, x)
    elif t is dict:
        d = cast(_AnyDict, x)
        children = map(d.__getitem__, _sorted_keys(d))
    else:
        children = kind.flatten(x)[0]
    fast = is_leaf is None
    get = _KINDS.get
    child: object
    for child in children:
        if fast and get(type(child), _UNSEEN) is None:
            leaves.append(child)
        else:
            _leaves_into(child, leaves, is_leaf)


def _unflatten(td: PyTreeDef, leaves: _AnySeq, start: int) -> Any:
    kind = td._kind
    if kind is None:
        return leaves[start]
    t = td._type
    if t is _NoneType:
        return None
    children: _AnySeq
    if td._leafy:
        children = leaves[start : start + td._num_leaves]
    else:
        built: list[Any] = []
        for c in td._children:
            if c._kind is None:
                built.append(leaves[start])
                start += 1
            else:
                built.append(_unflatten(c, leaves, start))
                start += c._num_leaves
        children = built
    if t is tuple:
        return tuple(children)
    if t is list:
        return list(children)
    if t is dict:
        return dict(zip(cast(_AnyTuple, td._aux), children))
    return kind.unflatten(td._aux, tuple(children))


def tree_flatten(tree: Any, is_leaf: _IsLeaf | None = None) -> tuple[list[Any], PyTreeDef]:
    """Flatten a pytree into its leaves and its structure.

    Args:
        tree: the pytree.
        is_leaf: optional predicate; a subtree for which it returns True is a
            leaf (not flattened further).

    Returns:
        The leaves in order (dict entries by sorted key) and the :class:`PyTreeDef`.
    """
    leaves: list[Any] = []
    return leaves, _flatten(tree, leaves, is_leaf)


def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[Any]) -> Any:
    """Rebuild a pytree from its structure and leaves (inverse of :func:`tree_flatten`).

    Raises:
        PyTreeStructureError: the number of leaves is wrong.
    """
    return treedef.unflatten(leaves)


def tree_leaves(tree: Any, is_leaf: _IsLeaf | None = None) -> list[Any]:
    """The leaves of a pytree, in flattening order."""
    leaves: list[Any] = []
    _leaves_into(tree, leaves, is_leaf)
    return leaves


def tree_structure(tree: Any, is_leaf: _IsLeaf | None = None) -> PyTreeDef:
    """The :class:`PyTreeDef` of a pytree."""
    return _flatten(tree, [], is_leaf)


# ------------------------------------------------------------ matching structures


class _Mismatch(Exception):
    """Internal: a subtree differs from the expected node. ``keys`` collects
    the key path, innermost first, while the exception unwinds."""

    def __init__(self, expected: str, found: str) -> None:
        super().__init__(expected, found)
        self.expected = expected
        self.found = found
        self.keys: list[KeyEntry] = []

    def path(self) -> KeyPath:
        return tuple(reversed(self.keys))

    def where(self) -> str:
        return f"at key path {keystr(self.path())}" if self.keys else "at the root"


def _describe_value(x: object) -> str:
    kind = _kind_of(type(x))
    if kind is None:
        return f"a leaf of type {type(x).__name__}"
    children, aux = kind.flatten(x)
    return kind.describe(aux, len(list(children)))


def _node_children(td: PyTreeDef, kind: _NodeKind, x: object) -> _AnySeq:
    """The children of ``x``, which must match the node ``td``."""
    t, xt, n = td._type, type(x), len(td._children)
    if t is tuple or t is list:
        if xt is t and len(seq := cast(_AnySeq, x)) == n:
            return seq
    elif t is dict:
        keys = cast(_AnyTuple, td._aux)
        if xt is dict and len(d := cast(_AnyDict, x)) == n and all(k in d for k in keys):
            return [d[k] for k in keys]
    elif t is _NoneType:
        if x is None:
            return ()
    elif _kind_of(xt) is kind:
        found, aux = kind.flatten(x)
        children = list(found)
        if len(children) == n and (aux is td._aux or bool(aux == td._aux)):
            return children
    raise _Mismatch(kind.describe(td._aux, n), _describe_value(x))


def _flatten_up_to(td: PyTreeDef, x: object, out: list[Any]) -> None:
    kind = td._kind
    if kind is None:
        out.append(x)
        return
    children = _node_children(td, kind, x)
    for i, sub in enumerate(td._children):
        if sub._kind is None:
            out.append(children[i])
            continue
        try:
            _flatten_up_to(sub, children[i], out)
        except _Mismatch as e:
            e.keys.append(list(kind.flatten_with_keys(x)[0])[i][0])
            raise


def _up_to_rest(what: str, treedef: PyTreeDef, rest: _AnyTuple) -> list[list[Any]]:
    """``treedef.flatten_up_to`` of each tree of ``rest``, worded for ``what``."""
    columns: list[list[Any]] = []
    for i, other in enumerate(rest):
        out: list[Any] = []
        try:
            _flatten_up_to(treedef, other, out)
        except _Mismatch as e:
            raise PyTreeStructureError(
                f"{what}: tree {e.where()} is {e.found} but the first tree has {e.expected} there (in rest[{i}])"
            ) from None
        columns.append(out)
    return columns


def broadcast_prefix(
    prefix_tree: Any,
    full_tree: Any,
    is_leaf: _IsLeaf | None = None,
    *,
    none_is_leaf: bool = True,
    what: str = "broadcast_prefix",
    prefix_name: str = "prefix",
    full_name: str = "tree",
) -> list[Any]:
    """For every leaf of ``full_tree``, the leaf of ``prefix_tree`` covering it.

    ``prefix_tree`` must be a tree prefix of ``full_tree``: the same structure
    down to the prefix's leaves, each of which covers the whole subtree of
    ``full_tree`` at its position (vmap's ``in_axes`` are such a prefix).

    Args:
        prefix_tree: the prefix.
        full_tree: the tree whose leaves are covered.
        is_leaf: optional extra leaf predicate for ``prefix_tree``.
        none_is_leaf: treat ``None`` in ``prefix_tree`` as a leaf, as vmap's
            ``in_axes`` do; False gives JAX's plain semantics (an empty node).
        what: the caller's name, put first in error messages (``vmap``).
        prefix_name: what error messages call ``prefix_tree`` (``in_axes``).
        full_name: what error messages call ``full_tree`` (``args``).

    Raises:
        PyTreeStructureError: ``prefix_tree`` is not a prefix of ``full_tree``;
            the message gives the key path of the first difference.
    """
    leaf_test = functools.partial(_none_or_leaf, is_leaf) if none_is_leaf else is_leaf
    prefix_leaves, prefix_def = tree_flatten(prefix_tree, leaf_test)
    subtrees: list[Any] = []
    try:
        _flatten_up_to(prefix_def, full_tree, subtrees)
    except _Mismatch as e:
        at = keystr(e.path())
        raise PyTreeStructureError(
            f"{what}: {prefix_name}{at} is {e.expected} but {full_name}{at} is {e.found}; "
            f"{prefix_name} must be a tree prefix of {full_name}"
        ) from None
    result: list[Any] = []
    subtree: object
    for leaf, subtree in zip(prefix_leaves, subtrees):
        result.extend([leaf] * (1 if _kind_of(type(subtree)) is None else len(tree_leaves(subtree))))
    return result


# Not a closure of broadcast_prefix: the debug mode's beartype import hook
# would decorate it anew on every call (vmap calls broadcast_prefix each time).
def _none_or_leaf(is_leaf: _IsLeaf | None, x: Any) -> bool:
    return x is None or (is_leaf is not None and is_leaf(x))


# --------------------------------------------------------------- tree_map & co

# The overloads give the callback's parameters a type (Any) so that lambdas
# type-check under pyright's strict mode.


@overload
def tree_map(f: Callable[[Any], Any], tree: Any, *, is_leaf: _IsLeaf | None = None) -> Any: ...
@overload
def tree_map(f: Callable[[Any, Any], Any], tree: Any, rest0: Any, /, *, is_leaf: _IsLeaf | None = None) -> Any: ...
@overload
def tree_map(f: Callable[..., Any], tree: Any, *rest: Any, is_leaf: _IsLeaf | None = None) -> Any: ...
def tree_map(f: Callable[..., Any], tree: Any, *rest: Any, is_leaf: _IsLeaf | None = None) -> Any:
    """Apply ``f`` leafwise, returning a pytree with the structure of ``tree``.

    Args:
        f: called as ``f(x, *xs)`` with each leaf ``x`` of ``tree`` and the
            subtrees ``xs`` at the same position in the trees of ``rest``.
        tree: the pytree whose structure the result takes.
        *rest: pytrees with the structure of ``tree`` (or a finer one).
        is_leaf: optional leaf predicate for ``tree``.

    Raises:
        PyTreeStructureError: a tree of ``rest`` does not match ``tree``; the
            message gives the key path of the first difference.
    """
    leaves, treedef = tree_flatten(tree, is_leaf)
    if not rest:
        return _unflatten(treedef, [f(x) for x in leaves], 0)
    columns = _up_to_rest("tree_map", treedef, rest)
    return _unflatten(treedef, [f(*xs) for xs in zip(leaves, *columns)], 0)


def tree_all(tree: Any, *, is_leaf: _IsLeaf | None = None) -> bool:
    """Whether every leaf of ``tree`` is truthy (True when there are none)."""
    return all(tree_leaves(tree, is_leaf))


class _Missing(enum.Enum):
    TOKEN = enum.auto()


NO_INITIALIZER: Final = _Missing.TOKEN
"""The default of ``tree_reduce``'s ``initializer`` and of
``tree_reduce_associative``'s ``identity``: none given."""


def tree_reduce(
    function: Callable[[T, Any], T],
    tree: Any,
    initializer: T | _Missing = _Missing.TOKEN,
    is_leaf: _IsLeaf | None = None,
) -> T:
    """``functools.reduce`` over the leaves of ``tree``.

    Raises:
        TypeError: ``tree`` has no leaves and no ``initializer`` is given.
    """
    leaves = tree_leaves(tree, is_leaf)
    if initializer is _Missing.TOKEN:
        result: T = functools.reduce(function, leaves)
        return result
    return functools.reduce(function, leaves, initializer)


def tree_transpose(outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose: Any) -> Any:
    """Turn a tree of structure ``outer`` holding trees of structure ``inner``
    into a tree of structure ``inner`` holding trees of structure ``outer``.

    Args:
        outer_treedef: the outer structure.
        inner_treedef: the inner structure, or None to take that of the first
            inner tree.
        pytree_to_transpose: the tree to transpose.

    Raises:
        JaxtypedTypeError: the tree is not ``outer`` composed with ``inner``.
    """
    leaves, treedef = tree_flatten(pytree_to_transpose)
    if inner_treedef is None:
        inner_treedef = tree_structure(outer_treedef.flatten_up_to(pytree_to_transpose)[0])
    expected = outer_treedef.compose(inner_treedef)
    if treedef != expected:
        raise JaxtypedTypeError(f"tree_transpose: expected a tree of structure {expected!r}, got {treedef!r}")
    size = inner_treedef.num_leaves
    if size == 0:
        return _unflatten(inner_treedef, [], 0)
    groups = [leaves[i : i + size] for i in range(0, len(leaves), size)]
    columns = zip(*groups) if groups else [()] * size
    return _unflatten(inner_treedef, [_unflatten(outer_treedef, c, 0) for c in columns], 0)


# ------------------------------------------------------------------- key paths


def _flatten_keyed(
    x: object, path: KeyPath, out: list[tuple[KeyPath, Any]], is_leaf: Callable[..., bool] | None, takes_path: bool
) -> PyTreeDef:
    if is_leaf is not None and (is_leaf(path, x) if takes_path else is_leaf(x)):
        out.append((path, x))
        return _LEAF
    t = type(x)
    kind = _kind_of(t)
    if kind is None:
        out.append((path, x))
        return _LEAF
    keyed, aux = kind.flatten_with_keys(x)
    start = len(out)
    defs: list[PyTreeDef] = []
    nodes = 1
    for key, child in keyed:
        sub = _flatten_keyed(child, (*path, key), out, is_leaf, takes_path)
        defs.append(sub)
        nodes += sub._num_nodes
    return PyTreeDef(t, kind, aux, tuple(defs), len(out) - start, nodes)


def tree_flatten_with_path(
    tree: Any, is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[KeyPath, Any]], PyTreeDef]:
    """Like :func:`tree_flatten`, but each leaf comes with its key path.

    Args:
        tree: the pytree.
        is_leaf: optional leaf predicate, called as ``is_leaf(x)`` or, with
            ``is_leaf_takes_path``, as ``is_leaf(key_path, x)``.
        is_leaf_takes_path: pass the key path to ``is_leaf`` too.
    """
    out: list[tuple[KeyPath, Any]] = []
    return out, _flatten_keyed(tree, (), out, is_leaf, is_leaf_takes_path)


def tree_leaves_with_path(
    tree: Any, is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False
) -> list[tuple[KeyPath, Any]]:
    """The ``(key_path, leaf)`` pairs of a pytree, in flattening order."""
    return tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)[0]


@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any], Any], tree: Any, *,
    is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False,
) -> Any: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any, Any], Any], tree: Any, rest0: Any, /, *,
    is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False,
) -> Any: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[..., Any], tree: Any, *rest: Any,
    is_leaf: Callable[..., bool] | None = None, is_leaf_takes_path: bool = False,
) -> Any: ...  # fmt: skip
def tree_map_with_path(
    f: Callable[..., Any],
    tree: Any,
    *rest: Any,
    is_leaf: Callable[..., bool] | None = None,
    is_leaf_takes_path: bool = False,
) -> Any:
    """Like :func:`tree_map`, but ``f`` is called as ``f(key_path, x, *xs)``.

    Raises:
        PyTreeStructureError: a tree of ``rest`` does not match ``tree``.
    """
    pairs, treedef = tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)
    columns = _up_to_rest("tree_map_with_path", treedef, rest)
    return _unflatten(treedef, [f(path, x, *xs) for (path, x), *xs in zip(pairs, *columns)], 0)


# -------------------------------------------------------------------- treedefs


def treedef_is_leaf(treedef: PyTreeDef) -> bool:
    """Whether ``treedef`` has one node: a leaf, ``None`` or an empty container."""
    return treedef.num_nodes == 1


def treedef_children(treedef: PyTreeDef) -> list[PyTreeDef]:
    """Treedefs of the root's children."""
    return treedef.children()


def treedef_from_node_data(node_data: tuple[type[object], object] | None, children: Iterable[PyTreeDef]) -> PyTreeDef:
    """The treedef whose root has ``node_data`` (as :meth:`PyTreeDef.node_data`
    gives it; None for a leaf) and these children (JAX's
    ``make_from_node_data_and_children``).

    Raises:
        JaxtypedTypeError: the node type is not registered.
    """
    kids = tuple(children)
    if node_data is None:
        if kids:
            raise JaxtypedTypeError("treedef_from_node_data: a leaf has no children")
        return _LEAF
    nodetype, aux = node_data
    kind = _KINDS.get(nodetype, _UNSEEN)
    if kind is _Unseen.TOKEN:
        kind = _classify(nodetype)
    if kind is None:
        raise JaxtypedTypeError(f"treedef_from_node_data: {nodetype.__name__} is not a registered pytree node type")
    return _make_node(nodetype, kind, aux, kids)


def treedef_tuple(treedefs: Iterable[PyTreeDef]) -> PyTreeDef:
    """The structure of a tuple whose elements have the given structures."""
    return _make_node(tuple, _TUPLE_KIND, None, tuple(treedefs))


def leaves_are_instances(value: object, types: type | tuple[type, ...]) -> bool:
    """Whether ``value`` flattens and every leaf is an instance of ``types``
    (the run-time check of a recursive tree alias: PyTree, SpecTree)."""
    try:
        leaves = tree_leaves(value)
    except Exception:  # noqa: BLE001 - an unflattenable value is not such a tree
        return False
    return all(isinstance(leaf, types) for leaf in leaves)


def all_leaves(iterable: Iterable[Any], is_leaf: _IsLeaf | None = None) -> bool:
    """Whether every item of ``iterable`` is a leaf (``None`` is not one)."""
    x: object
    for x in iterable:
        if not (is_leaf is not None and is_leaf(x)) and _kind_of(type(x)) is not None:
            return False
    return True


# ---------------------------------------------------------------- registration


def register_pytree_node(
    nodetype: type[T],
    flatten_func: Callable[[T], tuple[Iterable[Any], _AuxT]],
    unflatten_func: Callable[[_AuxT, tuple[Any, ...]], T],
    flatten_with_keys_func: Callable[[T], tuple[Iterable[tuple[KeyEntry, Any]], _AuxT]] | None = None,
) -> None:
    """Make ``nodetype`` a pytree node type.

    Args:
        nodetype: the class.
        flatten_func: ``x -> (children, aux_data)``; aux data must be hashable
            and is compared when treedefs are.
        unflatten_func: ``(aux_data, children) -> x``; children is a tuple.
        flatten_with_keys_func: ``x -> (((key, child), ...), aux_data)``; by
            default the keys are :class:`FlattenedIndexKey`.

    Raises:
        JaxtypedValueError: ``nodetype`` is already registered.
    """
    keyed: _FlattenKeysFn = flatten_with_keys_func or _index_keys(flatten_func)
    _register(nodetype, _custom_kind(nodetype, flatten_func, keyed, unflatten_func))


def register_pytree_with_keys(
    nodetype: type[T],
    flatten_with_keys: Callable[[T], tuple[Iterable[tuple[KeyEntry, Any]], _AuxT]],
    unflatten_func: Callable[[_AuxT, tuple[Any, ...]], T],
    flatten_func: Callable[[T], tuple[Iterable[Any], _AuxT]] | None = None,
) -> None:
    """Make ``nodetype`` a pytree node type whose children have keys.

    ``flatten_func``, derived from ``flatten_with_keys`` by default, is used
    when no key paths are asked for. See :func:`register_pytree_node`.
    """
    plain: _FlattenFn = flatten_func or _drop_keys(flatten_with_keys)
    _register(nodetype, _custom_kind(nodetype, plain, flatten_with_keys, unflatten_func))


def _method(cls: type[Any], name: str) -> Callable[..., Any]:
    method: object = getattr(cls, name, None)
    if not callable(method):
        raise JaxtypedTypeError(f"{cls.__name__} must define {name}() to be registered as a pytree node")
    return method


def register_pytree_node_class(cls: type[T]) -> type[T]:
    """Class decorator: register ``cls`` through its ``tree_flatten()`` method
    and its ``tree_unflatten(aux_data, children)`` classmethod."""
    _method(cls, "tree_flatten")
    register_pytree_node(cls, lambda x: getattr(x, "tree_flatten")(), _method(cls, "tree_unflatten"))
    return cls


def _dataclass_fields(
    nodetype: type[Any], data_fields: Sequence[str] | None, meta_fields: Sequence[str] | None, drop: Sequence[str]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The checked (data, meta) field names for :func:`register_dataclass`."""
    if isinstance(data_fields, str) or isinstance(meta_fields, str):
        raise JaxtypedTypeError("register_dataclass: data_fields and meta_fields must be sequences of names")
    if (data_fields is None) != (meta_fields is None):
        raise JaxtypedTypeError(
            "register_dataclass: data_fields and meta_fields must both be specified when either is "
            f"specified. Got {data_fields=} {meta_fields=}."
        )
    is_dataclass = dataclasses.is_dataclass(nodetype)
    if data_fields is None or meta_fields is None:
        if not is_dataclass:
            raise JaxtypedTypeError(
                "register_dataclass: data_fields and meta_fields are required when nodetype is not a "
                f"dataclass. Got {nodetype=}."
            )
        fields = dataclasses.fields(nodetype)
        data_fields = [f.name for f in fields if not f.metadata.get("static", False)]
        meta_fields = [f.name for f in fields if f.metadata.get("static", False)]
    data, meta = tuple(data_fields), tuple(meta_fields)
    if overlap := set(data) & set(meta):
        raise JaxtypedValueError(f"register_dataclass: data_fields and meta_fields overlap: {sorted(overlap)}")
    init_fields = {f.name for f in dataclasses.fields(nodetype) if f.init} - set(drop) if is_dataclass else None
    if init_fields is not None and {*data, *meta} != init_fields:
        msg = (
            "register_dataclass: data_fields and meta_fields must include all dataclass fields with "
            "init=True and only them."
        )
        if missing := init_fields - {*data, *meta}:
            msg += f" Missing fields: {sorted(missing)}; add them to drop_fields to suppress this error."
        if unexpected := {*data, *meta} - init_fields:
            msg += f" Unexpected fields: {sorted(unexpected)}."
        raise JaxtypedValueError(msg)
    return data, meta


def register_dataclass(
    nodetype: type[T],
    data_fields: Sequence[str] | None = None,
    meta_fields: Sequence[str] | None = None,
    drop_fields: Sequence[str] = (),
) -> type[T]:
    """Register a dataclass (or any class built from keyword arguments) as a node type.

    Usable as a class decorator. Data fields are the children (key path
    ``.name``); meta fields are the aux data, so they must be hashable, and
    treedefs with different meta values differ. Rebuilding calls
    ``nodetype(**fields)``.

    Args:
        nodetype: the class.
        data_fields: names of the child fields. If both lists are None they
            come from ``dataclasses.fields``: a field with
            ``metadata={"static": True}`` is meta, any other is data.
        meta_fields: names of the static fields.
        drop_fields: ``init=True`` fields to leave out of both lists.

    Raises:
        JaxtypedTypeError: only one list is given, or neither for a class
            that is not a dataclass.
        JaxtypedValueError: the lists overlap, or do not cover exactly the
            ``init=True`` fields (minus ``drop_fields``).
    """
    data, meta = _dataclass_fields(nodetype, data_fields, meta_fields, drop_fields)

    def flatten(x: T) -> tuple[_AnyTuple, _AnyTuple]:
        return tuple(getattr(x, n) for n in data), tuple(getattr(x, n) for n in meta)

    def flatten_with_keys(x: T) -> tuple[tuple[tuple[KeyEntry, Any], ...], _AnyTuple]:
        return tuple((GetAttrKey(n), getattr(x, n)) for n in data), tuple(getattr(x, n) for n in meta)

    def unflatten(meta_values: _AnyTuple, children: _AnyTuple) -> T:
        return nodetype(**dict(zip(meta, meta_values)), **dict(zip(data, children)))

    kind = _custom_kind(nodetype, flatten, flatten_with_keys, unflatten)
    _register(nodetype, dataclasses.replace(kind, dataclass_fields=(data, meta)))
    return nodetype


# ------------------------------------------------------- breadth: more of jax.tree_util


class Partial(functools.partial[T]):
    """A ``functools.partial`` that is a pytree (JAX's
    ``jax.tree_util.Partial``): the bound arguments are its children and the
    function its static aux data, so a ``Partial`` can be passed through
    ``jit``, ``vmap`` and ``grad`` as an argument or a result.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> add_one = jt.tree_util.Partial(jnp.add, 1.0)
        >>> jt.jit(lambda f, x: f(x))(add_one, 2.0)
        Array(3., dtype=float32, weak_type=True)
    """


def _partial_flatten(p: "Partial[Any]") -> tuple[tuple[_AnyTuple, dict[str, Any]], Callable[..., Any]]:
    return (p.args, p.keywords), p.func


def _partial_unflatten(func: Callable[..., Any], children: _AnyTuple) -> "Partial[Any]":
    args, keywords = children
    return Partial(func, *args, **keywords)


register_pytree_node(Partial, _partial_flatten, _partial_unflatten)

_H = TypeVar("_H", bound=Hashable)


def register_static(cls: type[_H]) -> type[_H]:
    """Register ``cls`` as a pytree node with no children (JAX's
    ``jax.tree_util.register_static``): its instances are kept whole in the
    treedef, so ``jit`` treats them as static; they must be hashable.
    Usable as a class decorator."""

    def flatten_with_keys(x: _H) -> tuple[tuple[tuple[KeyEntry, Any], ...], _H]:
        return (), x

    def unflatten(x: _H, children: _AnyTuple) -> _H:
        return x

    register_pytree_with_keys(cls, flatten_with_keys, unflatten)
    return cls


def register_pytree_with_keys_class(cls: type[T]) -> type[T]:
    """Class decorator: register ``cls`` through its
    ``tree_flatten_with_keys()`` method (children with their keys) and its
    ``tree_unflatten(aux_data, children)`` classmethod; a ``tree_flatten()``
    method, if defined, is used when no keys are needed (JAX's
    ``jax.tree_util.register_pytree_with_keys_class``)."""
    _method(cls, "tree_flatten_with_keys")
    plain: Callable[[Any], tuple[Iterable[Any], Any]] | None = None
    if callable(getattr(cls, "tree_flatten", None)):
        plain = lambda x: getattr(x, "tree_flatten")()  # noqa: E731  # bound per instance
    register_pytree_with_keys(
        cls, lambda x: getattr(x, "tree_flatten_with_keys")(), _method(cls, "tree_unflatten"), plain
    )
    return cls


def is_tree_node(typ: type[object]) -> bool:
    """Whether instances of ``typ`` are pytree nodes (not leaves): the
    built-in containers, ``None``'s type, namedtuples and registered
    classes (JAX's ``jax.tree_util.is_tree_node``)."""
    if not isinstance(typ, type):  # pyright: ignore[reportUnnecessaryIsInstance]  # checked at run time too
        raise JaxtypedTypeError(f"is_tree_node: expected a type, got {type(typ).__name__}")
    return typ is type(None) or _kind_of(typ) is not None


def flatten_one_level(tree: object) -> tuple[list[object], Hashable]:
    """The direct children of node ``tree`` and its aux data (dict keys,
    a registered class's aux data, ``None`` for sequences); JAX's
    ``jax.tree_util.flatten_one_level``.

    Raises:
        JaxtypedValueError: ``tree`` is a leaf (a ``ValueError``, as JAX's).
    """
    if tree is None:
        return [], None
    kind = _kind_of(type(tree))
    if kind is None:
        raise JaxtypedValueError(f"can't tree-flatten type: {type(tree)}")
    children, aux = kind.flatten(tree)
    return list(children), _one_level_aux(tree, aux)


def flatten_one_level_with_keys(tree: object) -> tuple[list[tuple[KeyEntry, object]], Hashable]:
    """As :func:`flatten_one_level`, each child paired with its key."""
    if tree is None:
        return [], None
    kind = _kind_of(type(tree))
    if kind is None:
        raise JaxtypedValueError(f"can't tree-flatten type: {type(tree)}")
    children, aux = kind.flatten_with_keys(tree)
    return list(children), _one_level_aux(tree, aux)


def _one_level_aux(tree: object, aux: Hashable) -> Hashable:
    # A namedtuple's type lives in our node kind, not its aux data; JAX's
    # one-level flatten reports it as the aux data.
    node_type: type[object] = type(tree)
    if hasattr(node_type, "_fields") and issubclass(node_type, tuple):
        return cast(Hashable, node_type)
    return aux


def tree_broadcast(prefix_tree: object, full_tree: object, is_leaf: _IsLeaf | None = None) -> object:
    """``prefix_tree`` with each leaf repeated over the subtree of
    ``full_tree`` it covers, giving ``full_tree``'s structure (JAX's
    ``jax.tree_util.tree_broadcast``).

    Raises:
        PyTreeStructureError: ``prefix_tree`` is not a prefix of ``full_tree``.
    """
    leaves = broadcast_prefix(prefix_tree, full_tree, is_leaf, none_is_leaf=False, what="tree_broadcast")
    result: object = tree_unflatten(tree_structure(full_tree, is_leaf), leaves)
    return result


def _reduce_halves(operation: Callable[[T, T], T], leaves: Sequence[T]) -> T:
    if len(leaves) == 1:
        return leaves[0]
    middle = len(leaves) // 2
    return operation(_reduce_halves(operation, leaves[:middle]), _reduce_halves(operation, leaves[middle:]))


def tree_reduce_associative(
    operation: Callable[[T, T], T],
    tree: object,
    *,
    identity: T | _Missing = _Missing.TOKEN,
    is_leaf: _IsLeaf | None = None,
) -> T:
    """Combine the leaves of ``tree`` with the associative ``operation`` as a
    balanced tree of calls (depth log n), as JAX's
    ``jax.tree_util.tree_reduce_associative``.

    Raises:
        JaxtypedTypeError: ``tree`` has no leaves and no ``identity`` is given.
    """
    leaves: list[T] = tree_leaves(tree, is_leaf)
    if not leaves:
        if identity is _Missing.TOKEN:
            raise JaxtypedTypeError("Must specify identity for parallel reduction of empty sequence.")
        return identity
    return _reduce_halves(operation, leaves)


@overload
def static(
    *, default: T, init: bool = True, repr: bool = True, compare: bool = True, metadata: Mapping[str, object] | None = None
) -> T: ...
@overload
def static(
    *,
    default_factory: Callable[[], T],
    init: bool = True,
    repr: bool = True,
    compare: bool = True,
    metadata: Mapping[str, object] | None = None,
) -> T: ...
def static(**kwargs: object) -> Any:
    """A dataclass field that :func:`register_dataclass` treats as static
    (aux data, not a child): ``dataclasses.field`` with
    ``metadata={"static": True}`` added (JAX's ``jax.tree.static``).

    The typed forms take a ``default`` or a ``default_factory`` (the field's
    type follows from it); a field without a default works at run time but
    has no typed overload, since only ``Any`` could stand for its value.

    Example:
        >>> import dataclasses, jaxtyped as jt
        >>> @jt.tree_util.register_dataclass
        ... @dataclasses.dataclass
        ... class Op:
        ...     x: float
        ...     name: str = jt.tree.static(default="add")
        >>> jt.tree.leaves(Op(1.0))
        [1.0]
    """
    options: dict[str, Any] = dict(kwargs)
    metadata = cast("Mapping[str, object] | None", options.pop("metadata", None))
    return dataclasses.field(metadata={"static": True, **(metadata or {})}, **options)


class PyTreeRegistry:
    """The registry of pytree node types as an object (JAX's
    ``jax.tree_util.default_registry``); its methods are the module's
    functions. jaxtyped has the one registry: every instance reads and
    writes it."""

    def flatten(self, tree: object, leaf_predicate: _IsLeaf | None = None) -> tuple[list[object], PyTreeDef]:
        """As :func:`tree_flatten`."""
        leaves, treedef = tree_flatten(tree, leaf_predicate)
        return list[object](leaves), treedef

    def flatten_one_level(self, tree: object) -> tuple[list[object], Hashable]:
        """As :func:`flatten_one_level`."""
        return flatten_one_level(tree)

    def flatten_one_level_with_keys(self, tree: object) -> tuple[list[tuple[KeyEntry, object]], Hashable]:
        """As :func:`flatten_one_level_with_keys`."""
        return flatten_one_level_with_keys(tree)

    def is_node(self, typ: type[object]) -> bool:
        """As :func:`is_tree_node`."""
        return is_tree_node(typ)

    def __repr__(self) -> str:
        return "PyTreeRegistry(default)"


default_registry: Final = PyTreeRegistry()
"""The registry every pytree function uses."""
