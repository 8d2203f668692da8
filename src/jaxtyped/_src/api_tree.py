"""Typed public faces of the pytree utilities (layer L5).

``jaxtyped.tree_util`` and ``jaxtyped.tree`` export these wrappers rather
than the functions of :mod:`jaxtyped._src.tree_util`, whose results are
``Any`` (a pytree may hold any leaf; internal code relies on that). Each
wrapper has the implementation's parameters and docstring, and overloads
that give a precise result where the checkers can know it: for an
:data:`ArrayTree` (nested tuples, lists and dicts of arrays) the leaves are
``Array`` and ``tree_map`` keeps the tree's type; for a ``PyTree`` (array-like
leaves) they are ``ArrayLike``; otherwise the result is an honest ``object``
(``list[object]``), which user code narrows with ``isinstance`` or ``cast``.
The body is one call: the cost is one Python call.
"""

# Each function below is a list of overloads tried in order, from the most
# precise tree type down to object; the checkers' overlap diagnostics flag
# that very ordering (list[Array] before list[object]), so they are off here.
# The notes by each group say why each order is safe, or where it is not.
# mypy: disable-error-code="overload-overlap"
# pyright: reportOverlappingOverload=false

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, Union, overload

from jaxtyped._src import tree_util as _tu
from jaxtyped._src.core.array import Array, ArrayLike, PyTree
from jaxtyped._src.tree_util import KeyPath, PyTreeDef
from jaxtyped._src.util import AnyOnly, predicate_class

__all__ = [
    "ArrayTree", "tree_flatten", "tree_flatten_with_path", "tree_leaves", "tree_leaves_with_path",
    "tree_map", "tree_map_with_path", "tree_structure", "tree_unflatten", "tree_transpose", "broadcast_prefix",
    "tree_reduce", "tree_reduce_associative",
]  # fmt: skip

# A pytree whose leaves are all arrays (None is an empty node). Sequence and
# Mapping because they are covariant: a dict[str, Array] is an ArrayTree.
# Unsound corner: an unregistered Sequence or Mapping subclass is a leaf at
# run time (tree_map hands it whole to f), but an ArrayTree node statically.
if TYPE_CHECKING:
    # An old-style alias: pyright resolves a string-valued recursive
    # TypeAliasType to Unknown in modules that do not import it.
    ArrayTree: TypeAlias = Union[Array, None, Sequence["ArrayTree"], Mapping[Any, "ArrayTree"]]
else:
    # At run time (beartype, isinstance) a class whose isinstance check walks
    # the value: beartype cannot resolve the recursive alias's forward refs.

    def _is_array_tree(x: object) -> bool:
        if x is None or isinstance(x, Array):
            return True
        if isinstance(x, Mapping):
            return all(_is_array_tree(v) for v in x.values())
        # str and bytes are Sequences of themselves: never array trees.
        return isinstance(x, Sequence) and not isinstance(x, (str, bytes)) and all(map(_is_array_tree, x))

    ArrayTree = predicate_class(
        "ArrayTree",
        "Nested sequences and mappings (and None) whose leaves are all ``Array``; "
        "``isinstance`` checks every leaf.",
        _is_array_tree,
    )


T = TypeVar("T", bound=ArrayTree)

# Note [Iterable array trees]: libraries in the chex/Optax tradition annotate
# trees as ``Union[Array, Iterable[Tree], Mapping[Any, Tree]]``; such a tree is
# not an ArrayTree (an Iterable is not a Sequence), so without overloads of
# its own its leaves would be ``object``. The leaf-listing functions, and
# tree_structure/tree_unflatten for a round trip, give it Array leaves.
# Their overloads come after the PyTree ones (a NumPy array is Iterable too,
# and must still count as an array-like leaf: the checkers' overlap
# diagnostics there are off) and after one that keeps any other Mapping's
# leaves object: mypy finds ``str`` to be such a tree (an Iterable of str,
# coinductively), and a dict an Iterable of its keys, so without it every
# str-keyed dict (``dict[str, object]``) would get Array leaves in mypy. A
# str-keyed dict of non-arrays nested in a container still does, in mypy
# only; and a set or generator of arrays is a leaf at run time but a node here.
if TYPE_CHECKING:
    _IterableArrayTree: TypeAlias = Union[
        Array, None, Iterable["_IterableArrayTree"], Mapping[Any, "_IterableArrayTree"]
    ]  # fmt: skip
else:  # at run time only the overloads' annotations see it: no Any to list
    _IterableArrayTree = object
_IT = TypeVar("_IT", bound=_IterableArrayTree)
_IM = TypeVar("_IM", bound=Mapping[Any, _IterableArrayTree])
# Callback parameters stay Any so that lambdas type-check under pyright's
# strict mode (listed in tools/public_any_params.txt).
_IsLeaf = Callable[[Any], bool]
_PathIsLeaf = Union[Callable[[Any], bool], Callable[[Any, Any], bool]]  # is_leaf(x), or is_leaf(path, x) under is_leaf_takes_path

# The leaf-listing overloads overlap: pyright calls list[Array]
# incompatible with the fallback's list[object] (list is invariant), but an
# ArrayTree typed as object gets list[object], a true type for a fresh list
# of arrays, so the overlap is safe.
#
# The treedef of an ArrayTree remembers the tree's type (PyTreeDef[T]), so
# that tree_unflatten of it with array leaves is a T again: the structure is
# the same and the leaves are arrays, as they were. A PyTree's treedef is a
# PyTreeDef[PyTree]: with array-like leaves it rebuilds a PyTree.


# Note [Any in, Any out]: a tree typed Any (a parameter annotated so, or an
# unannotated function's result in mypy) gives Any leaves, as JAX's does,
# not the Unknown that several matching overloads would give pyright.
@overload
def tree_flatten(tree: AnyOnly, is_leaf: _IsLeaf | None = None) -> tuple[list[AnyOnly], PyTreeDef[AnyOnly]]: ...
@overload
def tree_flatten(tree: T, is_leaf: None = None) -> tuple[list[Array], PyTreeDef[T]]: ...
@overload
def tree_flatten(tree: PyTree, is_leaf: None = None) -> tuple[list[ArrayLike], PyTreeDef[PyTree]]: ...
@overload
def tree_flatten(tree: _IM, is_leaf: None = None) -> tuple[list[Array], PyTreeDef[_IM]]: ...
@overload
def tree_flatten(tree: Mapping[Any, object], is_leaf: None = None) -> tuple[list[object], PyTreeDef]: ...
@overload
def tree_flatten(tree: _IT, is_leaf: None = None) -> tuple[list[Array], PyTreeDef[_IT]]: ...
@overload
def tree_flatten(tree: object, is_leaf: _IsLeaf | None = None) -> tuple[list[object], PyTreeDef]: ...
def tree_flatten(tree: object, is_leaf: _IsLeaf | None = None) -> tuple[list[Any], PyTreeDef[Any]]:  # the overloads type it
    return _tu.tree_flatten(tree, is_leaf)


@overload
def tree_structure(tree: T, is_leaf: None = None) -> PyTreeDef[T]: ...
@overload
def tree_structure(tree: PyTree, is_leaf: None = None) -> PyTreeDef[PyTree]: ...
@overload
def tree_structure(tree: _IM, is_leaf: None = None) -> PyTreeDef[_IM]: ...
@overload
def tree_structure(tree: Mapping[Any, object], is_leaf: None = None) -> PyTreeDef: ...
@overload
def tree_structure(tree: _IT, is_leaf: None = None) -> PyTreeDef[_IT]: ...
@overload
def tree_structure(tree: object, is_leaf: _IsLeaf | None = None) -> PyTreeDef: ...
def tree_structure(tree: object, is_leaf: _IsLeaf | None = None) -> PyTreeDef:
    return _tu.tree_structure(tree, is_leaf)


@overload
def tree_leaves(tree: AnyOnly, is_leaf: _IsLeaf | None = None) -> list[AnyOnly]: ...  # Note [Any in, Any out]
@overload
def tree_leaves(tree: ArrayTree, is_leaf: None = None) -> list[Array]: ...
@overload
def tree_leaves(tree: PyTree, is_leaf: None = None) -> list[ArrayLike]: ...
@overload
def tree_leaves(tree: Mapping[Any, _IterableArrayTree], is_leaf: None = None) -> list[Array]: ...
@overload
def tree_leaves(tree: Mapping[Any, object], is_leaf: None = None) -> list[object]: ...
@overload
def tree_leaves(tree: _IterableArrayTree, is_leaf: None = None) -> list[Array]: ...
@overload
def tree_leaves(tree: object, is_leaf: _IsLeaf | None = None) -> list[object]: ...
def tree_leaves(tree: object, is_leaf: _IsLeaf | None = None) -> list[Any]:  # the overloads type it
    return _tu.tree_leaves(tree, is_leaf)


@overload
def tree_flatten_with_path(  # Note [Any in, Any out]
    tree: AnyOnly, is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[KeyPath, AnyOnly]], PyTreeDef[AnyOnly]]: ...
@overload
def tree_flatten_with_path(
    tree: T, is_leaf: None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[KeyPath, Array]], PyTreeDef[T]]: ...
@overload
def tree_flatten_with_path(
    tree: PyTree, is_leaf: None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[KeyPath, ArrayLike]], PyTreeDef[PyTree]]: ...
@overload
def tree_flatten_with_path(
    tree: _IM, is_leaf: None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[KeyPath, Array]], PyTreeDef[_IM]]: ...
@overload
def tree_flatten_with_path(
    tree: Mapping[Any, object], is_leaf: None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[KeyPath, object]], PyTreeDef]: ...
@overload
def tree_flatten_with_path(
    tree: _IT, is_leaf: None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[KeyPath, Array]], PyTreeDef[_IT]]: ...
@overload
def tree_flatten_with_path(
    tree: object, is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[KeyPath, object]], PyTreeDef]: ...
def tree_flatten_with_path(  # the overloads type it
    tree: object, is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False
) -> tuple[list[tuple[KeyPath, Any]], PyTreeDef[Any]]:
    return _tu.tree_flatten_with_path(tree, is_leaf, is_leaf_takes_path)


@overload
def tree_leaves_with_path(  # Note [Any in, Any out]
    tree: AnyOnly, is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False
) -> list[tuple[KeyPath, AnyOnly]]: ...
@overload
def tree_leaves_with_path(
    tree: ArrayTree, is_leaf: None = None, is_leaf_takes_path: bool = False
) -> list[tuple[KeyPath, Array]]: ...
@overload
def tree_leaves_with_path(
    tree: PyTree, is_leaf: None = None, is_leaf_takes_path: bool = False
) -> list[tuple[KeyPath, ArrayLike]]: ...
@overload
def tree_leaves_with_path(
    tree: Mapping[Any, _IterableArrayTree], is_leaf: None = None, is_leaf_takes_path: bool = False
) -> list[tuple[KeyPath, Array]]: ...
@overload
def tree_leaves_with_path(
    tree: Mapping[Any, object], is_leaf: None = None, is_leaf_takes_path: bool = False
) -> list[tuple[KeyPath, object]]: ...
@overload
def tree_leaves_with_path(
    tree: _IterableArrayTree, is_leaf: None = None, is_leaf_takes_path: bool = False
) -> list[tuple[KeyPath, Array]]: ...
@overload
def tree_leaves_with_path(
    tree: object, is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False
) -> list[tuple[KeyPath, object]]: ...
def tree_leaves_with_path(  # the overloads type it
    tree: object, is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False
) -> list[tuple[KeyPath, Any]]:
    return _tu.tree_leaves_with_path(tree, is_leaf, is_leaf_takes_path)


# tree_map's result type (Note [tree_map's overloads]): the tree's own type
# when f returns an Array and the tree is an ArrayTree or an object of a
# class of its own (a registered dataclass, say); object otherwise.
#
# Note [tree_map's overloads]: every overload types f as a function of Any
# leaves whose result is a type variable. mypy types an unannotated lambda
# as ``def (Any) -> Any`` before choosing an overload, and when such an
# argument matches several overloads whose parameter types differ after
# inference and whose results differ, it gives up with Any; with the same
# ``Callable[[Any], <solved>]`` in every overload a call can match (the
# variadic one takes four trees or more) it takes the first match, as
# pyright does. So a lambda's leaves are Any (an Array's operations all
# type-check on them), and its result decides: an Array (or Any) keeps the
# tree's type, anything else gives object. The builtin containers and
# scalars (_NotANode) are caught before the class-of-its-own overload: a
# dict of floats mapped to arrays is not a dict of floats. An object of a
# class of its own keeps its class under an is_leaf too (Equinox-style
# combine and filter pass one): only an is_leaf that stops at the root
# itself hands the whole tree to f, and nobody maps a tree that way. So
# does an f that returns None for some leaves (a filter: ``x if keep(x)
# else None``): those overloads' result variable _AN admits None besides
# Array (a lambda returning Any still solves it to Any, as the fallbacks'
# _R, so mypy sees no ambiguity). The class is also kept for four trees or
# more, and for ``tree_map(f, first, *rest)``, which pyright matches to that
# overload (mypy gives Any). A function of one
# tree that returns something else (a mask of bools, a shape) keeps the
# container for the common plain ones: a dict (or a dict of dicts), a list
# or a tuple of arrays gives the same container of f's results.
#
# Those container overloads bound f's result to the kinds of values they
# keep (_KeptLeaf), which exclude Array, for a second rule of mypy's: under
# an expected type (``return tree_map(lambda t: t * lr, params)`` in a
# function returning ``dict[str, Array]``) mypy solves a container
# overload's result variable from that type first, so its f would become
# ``Callable[[Any], Array]`` beside the others' ``Callable[[Any], Any]``,
# and the call Any (an error under --strict's warn_return_any). With the
# bound, Array is not a solution, f stays ``Callable[[Any], Any]`` and the
# first overload's tree type stands. The price: a typed f returning some
# other class over a plain container gives object, not the container.
_A = TypeVar("_A", bound=Array)  # f's result when it is an Array (or Any)
_AN = TypeVar("_AN", bound=Union[Array, None])  # f's result over a class of its own: None empties a field
_Y = TypeVar("_Y", bound="_KeptLeaf")  # f's result otherwise, where a container keeps it
_R = TypeVar("_R")  # f's result, where the result is object
_C = TypeVar("_C")  # a tree of a class of its own: a registered node type
_K = TypeVar("_K")  # a dict's keys
_K2 = TypeVar("_K2")  # the keys of a dict nested in a dict
if TYPE_CHECKING:
    import numpy as np

    from jaxtyped._src.api_util import ShapeDtypeStruct
    from jaxtyped._src.core.avals import ShapedArray
    from jaxtyped._src.sharding import Sharding

    # Trees whose type says nothing of their leaves once mapped (containers
    # of non-arrays), and leaves of a known class: f's result replaces them.
    _NotANode: TypeAlias = Union[
        int, float, complex, str, bytes, np.ndarray[Any, Any], np.generic, ShapeDtypeStruct,
        Sequence[object], Mapping[Any, object], None,
    ]  # fmt: skip
    # The results of f a plain container keeps (a mask, shapes, NumPy copies,
    # abstract values, shardings and partition specs): the common kinds but
    # Array (Note [tree_map's overloads]).
    _KeptLeaf: TypeAlias = Union[
        bool, int, float, complex, str, bytes, tuple[object, ...], None,
        np.ndarray[Any, Any], np.generic, np.dtype[Any], ShapeDtypeStruct, ShapedArray, Sharding,
    ]  # fmt: skip
else:
    _NotANode = _KeptLeaf = object


@overload
def tree_map(f: Callable[[Any], _A], tree: T, *, is_leaf: None = None) -> T: ...
@overload
def tree_map(f: Callable[[Any, Any], _A], tree: T, rest0: object, /, *, is_leaf: None = None) -> T: ...
@overload
def tree_map(f: Callable[[Any, Any, Any], _A], tree: T, rest0: object, rest1: object, /, *, is_leaf: None = None) -> T: ...
@overload
def tree_map(f: Callable[[Any], _Y], tree: dict[_K, dict[_K2, Array]], *, is_leaf: None = None) -> dict[_K, dict[_K2, _Y]]: ...
@overload
def tree_map(f: Callable[[Any], _Y], tree: dict[_K, Array], *, is_leaf: None = None) -> dict[_K, _Y]: ...
@overload
def tree_map(f: Callable[[Any], _Y], tree: list[Array], *, is_leaf: None = None) -> list[_Y]: ...
@overload
def tree_map(f: Callable[[Any], _Y], tree: tuple[Array, ...], *, is_leaf: None = None) -> tuple[_Y, ...]: ...
@overload
def tree_map(f: Callable[[Any], _R], tree: _NotANode, *, is_leaf: _IsLeaf | None = None) -> object: ...
@overload
def tree_map(f: Callable[[Any, Any], _R], tree: _NotANode, rest0: object, /, *, is_leaf: _IsLeaf | None = None) -> object: ...
@overload
def tree_map(
    f: Callable[[Any, Any, Any], _R], tree: _NotANode, rest0: object, rest1: object, /, *, is_leaf: _IsLeaf | None = None
) -> object: ...
@overload
def tree_map(f: Callable[[Any], _AN], tree: _C, *, is_leaf: _IsLeaf | None = None) -> _C: ...
@overload
def tree_map(f: Callable[[Any, Any], _AN], tree: _C, rest0: object, /, *, is_leaf: _IsLeaf | None = None) -> _C: ...
@overload
def tree_map(f: Callable[[Any, Any, Any], _AN], tree: _C, rest0: object, rest1: object, /, *, is_leaf: _IsLeaf | None = None) -> _C: ...
@overload
def tree_map(f: Callable[[Any], _R], tree: object, *, is_leaf: _IsLeaf | None = None) -> object: ...
@overload
def tree_map(f: Callable[[Any, Any], _R], tree: object, rest0: object, /, *, is_leaf: _IsLeaf | None = None) -> object: ...
@overload
def tree_map(
    f: Callable[[Any, Any, Any], _R], tree: object, rest0: object, rest1: object, /, *, is_leaf: _IsLeaf | None = None
) -> object: ...
@overload  # four trees or more, or *trees (not plausible for fewer: see Note [tree_map's overloads])
def tree_map(
    f: Callable[..., _R], tree: _NotANode, rest0: object, rest1: object, rest2: object, /, *rest: object,
    is_leaf: _IsLeaf | None = None,
) -> object: ...
@overload
def tree_map(
    f: Callable[..., _AN], tree: _C, rest0: object, rest1: object, rest2: object, /, *rest: object,
    is_leaf: _IsLeaf | None = None,
) -> _C: ...
@overload
def tree_map(
    f: Callable[..., _R], tree: object, rest0: object, rest1: object, rest2: object, /, *rest: object,
    is_leaf: _IsLeaf | None = None,
) -> object: ...
def tree_map(f: Callable[..., object], tree: object, *rest: object, is_leaf: _IsLeaf | None = None) -> object:
    return _tu.tree_map(f, tree, *rest, is_leaf=is_leaf)


@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any], _A], tree: T, *,
    is_leaf: None = None, is_leaf_takes_path: bool = False,
) -> T: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any, Any], _A], tree: T, rest0: object, /, *,
    is_leaf: None = None, is_leaf_takes_path: bool = False,
) -> T: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any], _Y], tree: dict[_K, dict[_K2, Array]], *,
    is_leaf: None = None, is_leaf_takes_path: bool = False,
) -> dict[_K, dict[_K2, _Y]]: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any], _Y], tree: dict[_K, Array], *,
    is_leaf: None = None, is_leaf_takes_path: bool = False,
) -> dict[_K, _Y]: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any], _Y], tree: list[Array], *,
    is_leaf: None = None, is_leaf_takes_path: bool = False,
) -> list[_Y]: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any], _Y], tree: tuple[Array, ...], *,
    is_leaf: None = None, is_leaf_takes_path: bool = False,
) -> tuple[_Y, ...]: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any], _R], tree: _NotANode, *,
    is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False,
) -> object: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any, Any], _R], tree: _NotANode, rest0: object, /, *,
    is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False,
) -> object: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any], _AN], tree: _C, *,
    is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False,
) -> _C: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any, Any], _AN], tree: _C, rest0: object, /, *,
    is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False,
) -> _C: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any], _R], tree: object, *,
    is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False,
) -> object: ...  # fmt: skip
@overload
def tree_map_with_path(
    f: Callable[[KeyPath, Any, Any], _R], tree: object, rest0: object, /, *,
    is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False,
) -> object: ...  # fmt: skip
@overload  # three trees or more
def tree_map_with_path(
    f: Callable[..., object], tree: object, rest0: object, rest1: object, /, *rest: object,
    is_leaf: _PathIsLeaf | None = None, is_leaf_takes_path: bool = False,
) -> object: ...  # fmt: skip
def tree_map_with_path(
    f: Callable[..., object],
    tree: object,
    *rest: object,
    is_leaf: _PathIsLeaf | None = None,
    is_leaf_takes_path: bool = False,
) -> object:
    return _tu.tree_map_with_path(f, tree, *rest, is_leaf=is_leaf, is_leaf_takes_path=is_leaf_takes_path)


@overload
def tree_unflatten(treedef: PyTreeDef[AnyOnly], leaves: Iterable[object]) -> AnyOnly: ...  # Note [Any in, Any out]
@overload
def tree_unflatten(treedef: PyTreeDef[T], leaves: Iterable[Array]) -> T: ...
@overload
def tree_unflatten(treedef: PyTreeDef[PyTree], leaves: Iterable[ArrayLike]) -> PyTree: ...
@overload
def tree_unflatten(treedef: PyTreeDef[_IM], leaves: Iterable[Array]) -> _IM: ...
@overload
def tree_unflatten(treedef: PyTreeDef[_IT], leaves: Iterable[Array]) -> _IT: ...
@overload
def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[object]) -> object: ...
def tree_unflatten(treedef: PyTreeDef, leaves: Iterable[object]) -> object:
    return _tu.tree_unflatten(treedef, leaves)


# The structure of this result is not known statically.


@overload
def tree_transpose(  # Note [Any in, Any out]
    outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose: AnyOnly
) -> AnyOnly: ...
@overload
def tree_transpose(outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose: object) -> object: ...
def tree_transpose(outer_treedef: PyTreeDef, inner_treedef: PyTreeDef | None, pytree_to_transpose: object) -> object:
    return _tu.tree_transpose(outer_treedef, inner_treedef, pytree_to_transpose)


def broadcast_prefix(
    prefix_tree: object,
    full_tree: object,
    is_leaf: _IsLeaf | None = None,
    *,
    none_is_leaf: bool = True,
    what: str = "broadcast_prefix",
    prefix_name: str = "prefix",
    full_name: str = "tree",
) -> list[object]:
    return _tu.broadcast_prefix(
        prefix_tree, full_tree, is_leaf,
        none_is_leaf=none_is_leaf, what=what, prefix_name=prefix_name, full_name=full_name,
    )  # fmt: skip


_Init = TypeVar("_Init")


# Note [tree_reduce's initial value]: the running value may change type at
# the first step, as in ``tree_reduce(lambda acc, x: acc + jnp.sum(x), tree,
# 0.0)``, where a float starts a sum of Arrays. The third overload types that
# case: the function takes the running value or the initializer, and the
# result is either (the initializer alone when ``tree`` has no leaves). mypy
# fixes the type variable of the one-type overload from the initializer and
# rejects the function, then takes the third; pyright takes the one-type
# overload, widening its type variable to the union.
@overload
def tree_reduce(function: Callable[[_R, Any], _R], tree: Any, *, is_leaf: _IsLeaf | None = None) -> _R: ...
@overload
def tree_reduce(function: Callable[[_R, Any], _R], tree: Any, initializer: _R, is_leaf: _IsLeaf | None = None) -> _R: ...
@overload
def tree_reduce(
    function: Callable[[_R | _Init, Any], _R], tree: Any, initializer: _Init, is_leaf: _IsLeaf | None = None
) -> _R | _Init: ...
def tree_reduce(
    function: Callable[[Any, Any], Any], tree: Any, initializer: object = _tu.NO_INITIALIZER, is_leaf: _IsLeaf | None = None
) -> Any:  # the overloads type it
    return _tu.tree_reduce(function, tree, initializer, is_leaf)


# An operation over a tree of arrays gives an Array (a lone leaf is returned
# as it is), or the identity for a tree without leaves. As for tree_map
# (Note [tree_map's overloads]), every overload types the operation as a
# function of Any: mypy then takes the first overload that matches a lambda
# rather than giving up with Any.
@overload
def tree_reduce_associative(
    operation: Callable[[Any, Any], _A], tree: ArrayTree, *, is_leaf: None = None
) -> Array: ...
@overload
def tree_reduce_associative(
    operation: Callable[[Any, Any], _A], tree: ArrayTree, *, identity: _Init, is_leaf: None = None
) -> Array | _Init: ...
@overload
def tree_reduce_associative(
    operation: Callable[[Any, Any], _R], tree: object, *, identity: _R = ..., is_leaf: _IsLeaf | None = None
) -> _R: ...
def tree_reduce_associative(
    operation: Callable[[Any, Any], Any], tree: object, *, identity: object = _tu.NO_INITIALIZER, is_leaf: _IsLeaf | None = None
) -> Any:  # the overloads type it
    return _tu.tree_reduce_associative(operation, tree, identity=identity, is_leaf=is_leaf)


for _wrapper, _impl in [
    (tree_reduce, _tu.tree_reduce),
    (tree_reduce_associative, _tu.tree_reduce_associative),
    (tree_flatten, _tu.tree_flatten),
    (tree_leaves, _tu.tree_leaves),
    (tree_structure, _tu.tree_structure),
    (tree_flatten_with_path, _tu.tree_flatten_with_path),
    (tree_leaves_with_path, _tu.tree_leaves_with_path),
    (tree_map, _tu.tree_map),
    (tree_map_with_path, _tu.tree_map_with_path),
    (tree_unflatten, _tu.tree_unflatten),
    (tree_transpose, _tu.tree_transpose),
    (broadcast_prefix, _tu.broadcast_prefix),
]:
    _wrapper.__doc__ = _impl.__doc__
del _wrapper, _impl
