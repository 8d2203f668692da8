"""Helpers of the transformation API (layer L5): argument validation,
argument names for error messages, and conversion of pytree leaves."""

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias, TypeVar, Union, final

from typing_extensions import ParamSpec

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.util import leaf_as_array, named_leaves
from jaxtyped._src.sharding import NamedSharding, PartitionSpec, Sharding, named_on_current_mesh
from jaxtyped._src.tree_util import leaves_are_instances
from jaxtyped._src.util import arg_names, is_int, predicate_class

P = ParamSpec("P")
R = TypeVar("R")

__all__ = [
    "wraps",
    "ShapeDtypeStruct",
    "SpecTree",
    "check_callable",
    "argnums_tuple",
    "arg_names",
    "flatten_with_names",
    "leaf_to_array",
    "input_aval",
]


@final
class ShapeDtypeStruct:
    """A shape and dtype standing for an array (JAX's ``ShapeDtypeStruct``):
    accepted wherever a transformation only needs the type of an argument
    (``make_jaxpr``, ``eval_shape``, ``jit(f).lower``), and returned by
    ``eval_shape``. A ``sharding`` lays the array it stands for out over
    devices: ``jit(f).lower`` then lowers for that layout, as for an array
    placed so.

    Example:
        >>> ShapeDtypeStruct((2, 3), "float32")
        ShapeDtypeStruct(shape=(2, 3), dtype=float32)
    """

    __slots__ = ("shape", "dtype", "weak_type", "sharding")

    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    weak_type: bool
    sharding: Sharding | None

    def __init__(
        self,
        shape: Sequence[int],
        dtype: "dtypes.DTypeLike",
        *,
        sharding: Sharding | PartitionSpec | None = None,
        weak_type: bool = False,
    ) -> None:
        dims = tuple(shape)
        if any(not is_int(d) or d < 0 for d in dims):
            raise JaxtypedTypeError(f"ShapeDtypeStruct: shape must be non-negative ints, got {shape!r}")
        self.shape = tuple(int(d) for d in dims)
        self.dtype = dtypes.canonicalize_dtype(dtypes.dtype(dtype))
        self.weak_type = weak_type
        if isinstance(sharding, PartitionSpec):
            sharding = named_on_current_mesh(sharding, "ShapeDtypeStruct")
        if sharding is not None and not isinstance(sharding, Sharding):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
            raise JaxtypedValueError(
                f"ShapeDtypeStruct: sharding must be a Sharding or a PartitionSpec, got {type(sharding).__name__}"
            )
        if isinstance(sharding, NamedSharding):
            sharding.check_shape(self.shape, "ShapeDtypeStruct")
        self.sharding = sharding

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return self.aval.ndim

    @property
    def size(self) -> int:
        """Number of elements."""
        return self.aval.size

    @property
    def aval(self) -> ShapedArray:
        """The abstract value this stands for."""
        return ShapedArray(self.shape, self.dtype, self.weak_type)

    def __repr__(self) -> str:
        sharding = f", sharding={self.sharding!r}" if self.sharding is not None else ""
        weak = ", weak_type=True" if self.weak_type else ""
        return f"ShapeDtypeStruct(shape={self.shape}, dtype={self.dtype.name}{sharding}{weak})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ShapeDtypeStruct):
            return NotImplemented
        return (self.shape, self.dtype, self.weak_type, self.sharding) == (
            other.shape, other.dtype, other.weak_type, other.sharding,
        )  # fmt: skip

    def __hash__(self) -> int:
        return hash((self.shape, self.dtype, self.weak_type, self.sharding))


# A tree whose leaves are all ShapeDtypeStructs (eval_shape's result, say):
# an abstract argument of jit's trace and lower and of make_jaxpr's function
# (Note [abstract arguments] in api_jit). Tuples and lists, not Sequence:
# mypy would take a str for a Sequence of trees. At run time a class whose
# isinstance check flattens the value, as for PyTree.
if TYPE_CHECKING:
    SpecTree: TypeAlias = Union[
        ShapeDtypeStruct, tuple["SpecTree", ...], list[ShapeDtypeStruct], Mapping[Any, "SpecTree"]
    ]
else:

    def _is_spec_tree(value: object) -> bool:
        return leaves_are_instances(value, ShapeDtypeStruct)

    SpecTree = predicate_class(
        "SpecTree", "A pytree whose leaves are all ``ShapeDtypeStruct``; ``isinstance`` checks every leaf.", _is_spec_tree
    )


def wraps(fun: Callable[..., object]) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """``functools.wraps`` without copying ``__annotations__``: a
    transformation's wrapper does not return what ``fun`` is annotated to
    return (``make_jaxpr`` gives a ClosedJaxpr), and the debug mode's
    beartype would check the wrapper against the copied annotations."""
    return functools.wraps(fun, assigned=("__module__", "__name__", "__qualname__", "__doc__"))


def check_callable(fun: object, transformation: str) -> None:
    """Reject a non-callable ``fun`` with a message naming the transformation."""
    if not callable(fun):
        raise JaxtypedTypeError(
            f"{transformation}: expected a callable as its first argument, got "
            f"{type(fun).__name__} {fun!r}"
        )


def argnums_tuple(argnums: int | Sequence[int], nargs: int, transformation: str) -> tuple[int, ...]:
    """``argnums`` as a tuple of non-negative positions, validated against
    the number of positional arguments."""
    given = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    result: list[int] = []
    for index in given:
        if not is_int(index) or not -nargs <= index < nargs:
            raise JaxtypedValueError(
                f"{transformation}: argnums={argnums!r} is out of range for a call with {nargs} "
                "positional argument(s)"
            )
        result.append(int(index) % nargs)
    return tuple(result)


def flatten_with_names(tree: Any, root: str) -> tuple[list[Any], list[str]]:
    """Leaves of ``tree`` and their names, ``root`` plus the key path."""
    leaves, names, _ = named_leaves(tree, root)
    return leaves, names


def leaf_to_array(leaf: object, name: str, transformation: str) -> Array:
    """An input or output leaf of a transformed function as an Array.

    Raises:
        JaxtypedTypeError: naming the transformation and the leaf's path,
            for leaves that are not arrays or scalars.
    """
    return leaf_as_array(leaf, f"{transformation}: {name}")


def input_aval(leaf: object, name: str, transformation: str) -> ShapedArray:
    """The type of an input leaf of a staging transformation: an array's
    or scalar's aval, or the aval a ``ShapeDtypeStruct`` stands for."""
    if isinstance(leaf, ShapeDtypeStruct):
        return leaf.aval
    return leaf_to_array(leaf, name, transformation).aval
