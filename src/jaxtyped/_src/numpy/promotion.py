"""dtype promotion and broadcasting for ``jaxtyped.numpy`` (layer L5).

Every ``jaxtyped.numpy`` function that combines operands goes through
:func:`promote_args`: operands are promoted along JAX's lattice (Python
scalars are weak) and broadcast NumPy-style. Python scalars become literals
of the result dtype directly, so ``x * 2.0`` stages as ``mul a 2.0:f32[]``.
"""

from collections.abc import Sequence
from typing import Any, Final

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, is_numpy_value, is_python_scalar, to_array
from jaxtyped._src.errors import JaxtypedTypeError, ShapeMismatchError
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import broadcast_in_dim, reshape
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.state.types import is_ref, ref_type_str
from jaxtyped._src.core.key_layout import is_key_array

__all__ = [
    "check_arraylike",
    "asarray_operand",
    "promote_args",
    "promote_args_inexact",
    "promote_dtypes",
    "broadcast_shapes",
    "broadcast_to_shape",
    "result_dtype_of",
    "result_type_and_weak",
]


def check_arraylike(name: str, *args: object) -> None:
    """Reject non-array-like operands (lists included), as JAX does."""
    for position, arg in enumerate(args):
        if not isinstance(arg, (Array, np.ndarray, np.generic, bool, int, float, complex)):
            if is_ref(arg):  # refs family (issue 16): the seed's message
                raise JaxtypedTypeError(
                    f"Attempting to pass a Ref {ref_type_str(arg)} to a primitive: {name} -- did you forget "
                    "to unpack ([...]) the ref?"
                )
            raise JaxtypedTypeError(
                f"{name} requires ndarray or scalar arguments, got {type(arg).__name__} at position {position}"
            )


def asarray_operand(name: str, x: ArrayLike, position: int = 0) -> Array:
    """One operand of a ``jaxtyped.numpy`` function as an Array."""
    if type(x) is ArrayImpl:
        return x
    check_arraylike(name, x)
    return to_array(x, f"jnp.{name} argument {position}")


def result_dtype_of(*arrays: Array) -> tuple[np.dtype[Any], bool]:
    """The promoted dtype and weak type of ``arrays``."""
    return dtypes.result_dtype(*[(a.dtype, a.weak_type) for a in arrays])


# JAX's inexact dtype for each non-inexact one (to_inexact_dtype): integers
# up to 32 bits become float32 even with x64 on; 64-bit ones float64.
_TO_INEXACT: dict[str, str] = {
    "bool": "float32", "int8": "float32", "uint8": "float32", "int16": "float32",
    "uint16": "float32", "int32": "float32", "uint32": "float32",
    "int64": "float64", "uint64": "float64",
}


def to_inexact_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype ``jaxtyped.numpy`` computes in for functions that need a
    floating or complex input (JAX's rule), canonicalised."""
    target = _TO_INEXACT.get(dtype.name)
    return dtypes.canonicalize_dtype(np.dtype(target)) if target else dtype


def promote_dtypes(
    name: str, args: Sequence[object], *, inexact: bool = False, numeric: bool = False, keep_weak_types: bool = False
) -> list[Array]:
    """Operands converted to their common dtype (no broadcasting).

    Every operand takes the result's weak type, as in JAX (``bool_array + 1``
    is a weakly typed int32). ``inexact`` promotes to a floating/complex
    dtype, ``numeric`` turns a boolean result into int32. With
    ``keep_weak_types`` (the products: JAX's ``dot_general`` takes a weakly
    typed operand as it is and gives a weak result only when both are), an
    array already of the common dtype is not converted for its weak type
    alone, so no conversion stands between a weak parameter and its
    gradient.
    """
    if _already_promoted(args, inexact, numeric):
        return list(args)  # type: ignore[arg-type]  # pyright: ignore[reportReturnType]  # all ArrayImpl, checked
    check_arraylike(name, *args)
    arrays = [to_array(a, f"jnp.{name} argument {i}") for i, a in enumerate(args)]
    if any(is_key_array(a) for a in arrays):
        # Typed PRNG keys (an extended dtype) reach here only in arithmetic;
        # functions that just move keys go through core/key_layout.py.
        given = ", ".join(str(a.dtype) for a in arrays)
        raise JaxtypedTypeError(
            f"jnp.{name} does not accept dtypes {given}: typed PRNG keys hold no numbers; "
            "use jaxtyped.random.key_data(key) to get the underlying uint32 array"
        )
    dtype, weak = result_dtype_of(*arrays)
    if inexact:
        dtype = to_inexact_dtype(dtype)
    elif numeric and dtypes.is_bool(dtype):
        dtype = np.dtype(np.int32)
    out: list[Array] = []
    for raw, array in zip(args, arrays):
        if is_python_scalar(raw) and (array.dtype != dtype or array.weak_type != weak):
            # A literal of the result dtype, never a conversion equation.
            out.append(scalar_like(raw, dtype, f"jnp.{name}", weak_type=weak))
        elif keep_weak_types and array.dtype == dtype:
            out.append(array)
        else:
            out.append(convert_to(array, dtype, weak_type=weak))
    return out


def _already_promoted(args: Sequence[object], inexact: bool, numeric: bool, *, same_shape: bool = False) -> bool:
    """Whether ``args`` are concrete arrays of one dtype and weak type (and
    shape, with ``same_shape``) that promotion leaves as they are (the
    common eager call, decided without the general rule's conversions;
    issue 19): an inexact dtype where ``inexact`` asks for one, not bool
    where ``numeric`` asks for a number."""
    if not args or type(args[0]) is not ArrayImpl:
        return False
    first = args[0].aval
    dtype, weak = first.dtype, first.weak_type
    for a in args[1:]:
        if type(a) is not ArrayImpl:
            return False
        aval = a.aval
        if aval is not first and (
            aval.dtype != dtype or aval.weak_type != weak or (same_shape and aval.shape != first.shape)
        ):
            return False
    if inexact:
        return dtype in _INEXACT_DTYPES
    return dtype in _PLAIN_DTYPES and not (numeric and dtype == _BOOL)


_BOOL: Final = np.dtype(np.bool_)
_INEXACT_DTYPES: Final = frozenset(np.dtype(t) for t in (np.float16, np.float32, np.float64, np.complex64, np.complex128)) | {np.dtype(dtypes.bfloat16)}
_PLAIN_DTYPES: Final = _INEXACT_DTYPES | frozenset(
    np.dtype(t) for t in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64)
)


def broadcast_shapes(name: str, *shapes: tuple[int, ...], types: Sequence[str] = ()) -> tuple[int, ...]:
    """NumPy broadcasting of ``shapes``.

    Raises:
        ShapeMismatchError: naming ``name`` and the operands' types.
    """
    ndim = max((len(s) for s in shapes), default=0)
    result: list[int] = []
    for axis in range(ndim):
        sizes = {s[axis - ndim + len(s)] for s in shapes if axis - ndim + len(s) >= 0}
        sizes.discard(1)
        if len(sizes) > 1:
            shown = " vs ".join(types) if types else " vs ".join(str(s) for s in shapes)
            raise ShapeMismatchError(f"{name} got incompatible shapes for broadcasting: {shown}")
        result.append(sizes.pop() if sizes else 1)
    return tuple(result)


def broadcast_to_shape(x: Array, shape: tuple[int, ...]) -> Array:
    """``x`` broadcast to ``shape`` (already known to be compatible)."""
    if x.shape == shape:
        return x
    offset = len(shape) - x.ndim
    keep = [i for i, d in enumerate(x.shape) if d == shape[offset + i]]
    squeezed = x if len(keep) == x.ndim else _drop_unit_axes(x, keep)
    return broadcast_in_dim(squeezed, shape, tuple(offset + i for i in keep))


def _drop_unit_axes(x: Array, keep: list[int]) -> Array:
    return reshape(x, tuple(x.shape[i] for i in keep))


def promote_args(
    name: str, *args: ArrayLike, inexact: bool = False, numeric: bool = False, scalars_stay: bool = True
) -> list[Array]:
    """Operands promoted to a common dtype and broadcast to a common shape.

    Args:
        name: the ``jaxtyped.numpy`` function, for error messages.
        args: the operands.
        inexact: promote integer and boolean results to an inexact dtype.
        numeric: promote a boolean result to int32.
        scalars_stay: leave 0-d operands unbroadcast (elementwise primitives
            broadcast scalars themselves).
    """
    if _already_promoted(args, inexact, numeric, same_shape=True):
        return list(args)  # type: ignore[arg-type]  # pyright: ignore[reportReturnType]  # all ArrayImpl, checked
    arrays = promote_dtypes(name, args, inexact=inexact, numeric=numeric)
    shapes = [a.shape for a in arrays]
    if all(s == shapes[0] for s in shapes):
        return arrays
    types = [a.aval.str_short() for a in arrays]
    shape = broadcast_shapes(name, *shapes, types=types)
    return [a if (scalars_stay and not a.shape) else broadcast_to_shape(a, shape) for a in arrays]


def promote_args_inexact(name: str, *args: ArrayLike) -> list[Array]:
    """``promote_args`` into an inexact (floating or complex) dtype."""
    return promote_args(name, *args, inexact=True)


def promote_args_numeric(name: str, *args: ArrayLike) -> list[Array]:
    """``promote_args`` into a numeric dtype (booleans become int32)."""
    return promote_args(name, *args, numeric=True)


def result_type(*args: "ArrayLike | dtypes.DTypeLike") -> np.dtype[Any]:
    """The dtype that ``jaxtyped.numpy`` promotes ``args`` to (JAX's
    ``jnp.result_type``): arrays, scalars (weakly typed) and dtypes."""
    return result_type_and_weak("jnp.result_type", *args)[0]


def result_type_and_weak(name: str, *args: "ArrayLike | dtypes.DTypeLike") -> tuple[np.dtype[Any], bool]:
    """:func:`result_type` and whether the result is weakly typed (JAX's
    ``jax.dtypes.result_type(..., return_weak_type_flag=True)``); ``name``
    is the function named in errors."""
    if not args:
        raise JaxtypedTypeError(f"{name}: at least one argument is required")
    operands: list[tuple[np.dtype[Any], bool]] = []
    for arg in args:
        if isinstance(arg, Array):
            operands.append((arg.dtype, arg.weak_type))
        elif is_python_scalar(arg):
            operands.append((dtypes.python_scalar_dtype(arg), type(arg) is not bool))
        elif is_numpy_value(arg):
            operands.append((dtypes.canonicalize_dtype(arg.dtype), False))
        else:
            operands.append((dtypes.canonicalize_dtype(dtypes.dtype(arg)), False))
    return dtypes.result_dtype(*operands)
