"""Helpers shared by primitive rules (layer L4): operand conversion, error
messages with short types, and shape checks."""

from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, array_from_numpy, is_numpy_value, is_python_scalar, to_array
from jaxtyped._src.core.avals import ShapedArray, Zero
from jaxtyped._src.errors import DTypeMismatchError, JaxtypedError, JaxtypedOverflowError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.tree_util import PyTreeDef, keystr, tree_flatten_with_path
from jaxtyped._src.util import is_int

__all__ = [
    "strong_constant_like",
    "constant_like_scalar",
    "short_types",
    "check_arity",
    "check_int_tuple",
    "kind_of",
    "same_kind",
    "as_operand",
    "operands_same_kind",
    "scalar_like",
    "named_leaves",
    "leaf_as_array",
]


def short_types(avals: Sequence[ShapedArray]) -> str:
    """``f32[3], i32[]`` for error messages."""
    return ", ".join(aval.str_short() for aval in avals)


def check_arity(name: str, avals: tuple[ShapedArray, ...], arity: int) -> None:
    """Reject a wrong number of operands."""
    if len(avals) != arity:
        raise JaxtypedTypeError(
            f"{name} takes {arity} as_operand(s), got {len(avals)}: ({short_types(avals)})"
        )


def check_int_tuple(name: str, param: str, value: Sequence[int]) -> tuple[int, ...]:
    """A static integer tuple parameter, validated."""
    result = tuple(value)
    for item in result:
        if not is_int(item):
            raise JaxtypedTypeError(f"{name}: {param} must be a sequence of ints, got {value!r}")
    return tuple(int(item) for item in result)


def kind_of(dtype: np.dtype[Any]) -> str:
    """The kind of ``dtype``: bool, int, uint, float or complex."""
    if dtypes.is_bool(dtype):
        return "bool"
    if dtypes.is_signed_integer(dtype):
        return "int"
    if dtypes.is_unsigned_integer(dtype):
        return "uint"
    if dtypes.is_complex(dtype):
        return "complex"
    return "float"


def same_kind(a: np.dtype[Any], b: np.dtype[Any]) -> bool:
    """Whether a Python scalar of ``a``'s kind may take dtype ``b`` in lax
    (signed and unsigned integers count as one kind)."""
    merged = {"uint": "int"}
    return merged.get(kind_of(a), kind_of(a)) == merged.get(kind_of(b), kind_of(b))


def as_operand(x: object, where: str) -> Array:
    """``x`` as an Array; the error names ``where`` (function and argument)."""
    return to_array(x, where)


def named_leaves(tree: object, root: str) -> tuple[list[object], list[str], PyTreeDef]:
    """Leaves of a user value, their names (``root`` plus the key path,
    e.g. ``carry[1]['h']``) and the tree structure."""
    pairs, treedef = tree_flatten_with_path(tree)
    return [leaf for _, leaf in pairs], [root + keystr(path) for path, _ in pairs], treedef


def leaf_as_array(leaf: object, what: str) -> Array:
    """A leaf of a user value as an Array; ``what`` names it in the error."""
    if isinstance(leaf, Array):
        return leaf
    if is_python_scalar(leaf) or is_numpy_value(leaf):
        return to_array(leaf, what)
    # Deferred (refs family, issue 16): the state package imports lax.
    from jaxtyped._src.state.types import is_ref, ref_type_str

    if is_ref(leaf):
        raise JaxtypedTypeError(
            f"{what} is a mutable array reference of type {ref_type_str(leaf)}, but mutable array references "
            "cannot be passed or returned here: read the value with ref[...]"
        )
    raise JaxtypedTypeError(
        f"{what} has type {type(leaf).__name__}, which is not a valid JAX-style type "
        "(arrays, scalars and pytrees of them are)"
    )


def scalar_like(
    value: bool | int | float | complex, dtype: np.dtype[Any], where: str, *, weak_type: bool = True
) -> ArrayImpl:
    """A 0-d array of ``dtype`` (weakly typed by default) holding a Python scalar.

    Raises:
        OverflowError: an integer does not fit ``dtype``.
    """
    if type(value) is int and dtypes.is_integer(dtype):
        low, high = dtypes.integer_bounds(dtype)
        if not low <= value <= high:
            raise JaxtypedOverflowError(f"{where}: Python int {value} is too large to convert to {dtype.name}")
    return array_from_numpy(np.array(value, dtype=dtype), weak_type=weak_type, where=where)


def strong_constant_like(x: Array, value: bool | int | float) -> Array:
    """A strongly typed scalar of ``x``'s dtype (JAX's ``_constant_like``):
    it makes results strongly typed."""
    return scalar_like(value, x.dtype, "constant", weak_type=False)


def constant_like_scalar(x: Array, value: bool | int | float) -> Array:
    """A scalar of ``x``'s dtype, weakly typed when ``x`` is a weakly typed
    scalar (JAX's ``lax._const``): results of Python-scalar inputs stay weak,
    others are strongly typed."""
    return scalar_like(value, x.dtype, "constant", weak_type=x.weak_type and not x.ndim)


def operands_same_kind(name: str, *xs: ArrayLike) -> tuple[Array, ...]:
    """Operands of a lax n-ary function, where Python scalars adopt the dtype
    of the array operands if they are of the same kind (JAX's lax rule: a
    weak ``2.0`` works with ``float16``, a weak ``2`` with ``float32`` does
    not)."""
    if all(type(x) is ArrayImpl for x in xs):
        return xs  # type: ignore[return-value]  # pyright: ignore[reportReturnType]  # concrete arrays (eager's common case): nothing to adopt
    arrays = [as_operand(x, f"lax.{name} operand {i}") for i, x in enumerate(xs)]
    strong = [a for x, a in zip(xs, arrays) if not is_python_scalar(x)]
    if not strong:
        return tuple(arrays)
    target = strong[0].dtype
    result: list[Array] = []
    for i, (x, array) in enumerate(zip(xs, arrays)):
        if is_python_scalar(x) and array.dtype != target:
            if not same_kind(array.dtype, target):
                raise _same_dtypes_error(name, arrays)
            array = scalar_like(x, target, f"lax.{name} operand {i}")
        result.append(array)
    return tuple(result)


def _same_dtypes_error(name: str, arrays: Sequence[Array]) -> DTypeMismatchError:
    shown = ", ".join(a.dtype.name for a in arrays)
    return DTypeMismatchError(
        f"lax.{name} requires arguments to have the same dtypes, got {shown}. "
        f"(jaxtyped.numpy.{name} promotes dtypes automatically.)"
    )


def check_axes_in_range(
    name: str, axes: Sequence[int], ndim: int, shape_str: str, *, error: type[JaxtypedError] = JaxtypedValueError
) -> None:
    """Every axis in ``range(ndim)`` and no repeats; ``error`` is the class
    JAX raises for this primitive (ValueError for most, TypeError for some)."""
    for axis in axes:
        if not 0 <= axis < ndim:
            raise error(f"{name}: axis {axis} is out of range for operand {shape_str}")
    if len(set(axes)) != len(axes):
        raise error(f"{name}: repeated axes {tuple(axes)} for operand {shape_str}")


def zero_tangents(outs: Sequence[Array]) -> tuple[Zero, ...]:
    """Symbolic zero tangents for ``outs`` (integer outputs get float0
    zeros, as in JAX): the jvp of outputs that do not depend on the inputs'
    tangents."""
    return tuple(Zero(o.aval.to_tangent_aval()) for o in outs)
