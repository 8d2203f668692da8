"""JAX's ``jax.dtypes`` functions that ``jaxtyped.numpy`` does not already
provide: ``canonicalize_dtype`` (extended dtypes allowed on request),
``itemsize_bits``, ``scalar_type_of`` and ``result_type`` with its weak
type flag."""

from typing import Any, Literal, cast, overload

import ml_dtypes
import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.numpy.promotion import result_type_and_weak

__all__ = ["canonicalize_dtype", "itemsize_bits", "scalar_type_of", "result_type"]


@overload
def canonicalize_dtype(
    dtype: dtypes.DTypeLike | dtypes.ExtendedDType, allow_extended_dtype: Literal[False] = False
) -> np.dtype[Any]: ...
@overload
def canonicalize_dtype(
    dtype: dtypes.DTypeLike | dtypes.ExtendedDType, allow_extended_dtype: bool
) -> np.dtype[Any] | dtypes.ExtendedDType: ...
def canonicalize_dtype(
    dtype: dtypes.DTypeLike | dtypes.ExtendedDType, allow_extended_dtype: bool = False
) -> np.dtype[Any] | dtypes.ExtendedDType:
    """The dtype an array of ``dtype`` has under the current x64 setting
    (``float64`` is ``float32`` unless x64 is on). An extended dtype (a key
    array's ``key<fry>``) is returned unchanged if ``allow_extended_dtype``,
    and refused otherwise, as in JAX.

    Raises:
        JaxtypedValueError: an extended dtype without ``allow_extended_dtype``.
        JaxtypedTypeError: ``dtype`` is not a dtype specifier.
    """
    if dtypes.extended_scalar_type(dtype) is not None:
        assert isinstance(dtype, dtypes.ExtendedDType)
        if not allow_extended_dtype:
            raise JaxtypedValueError(
                f"dtypes.canonicalize_dtype: {dtype.name} is an extended dtype; pass allow_extended_dtype=True to accept it"
            )
        return dtype
    # Not extended (np.dtype matches the ExtendedDType protocol too, by its attributes).
    return dtypes.canonicalize_dtype(cast(dtypes.DTypeLike, dtype))


def itemsize_bits(dtype: dtypes.DTypeLike) -> int:
    """Bits per element of ``dtype``: 4 for ``int4``, 8 for ``bool``."""
    d = dtypes.dtype(dtype)
    if d.type in dtypes.sub_byte_types():
        # ml_dtypes' finfo/iinfo know their widths; NumPy stores one per byte.
        info: Any = ml_dtypes.finfo(d) if dtypes.is_floating(d) else ml_dtypes.iinfo(d)
        return int(info.bits)
    return d.itemsize * 8


def scalar_type_of(x: ArrayLike | dtypes.DTypeLike) -> type[bool] | type[int] | type[float] | type[complex]:
    """The Python scalar type matching the dtype of ``x`` (``bool``,
    ``int``, ``float`` or ``complex``).

    Raises:
        JaxtypedTypeError: ``x`` has no such dtype (a key array, float0).
    """
    if isinstance(x, (bool, int, float, complex)):
        return bool if isinstance(x, bool) else int if isinstance(x, int) else float if isinstance(x, float) else complex
    d = x.dtype if isinstance(x, Array) else dtypes.dtype(x)
    if dtypes.extended_scalar_type(d) is None:
        if dtypes.is_bool(d):
            return bool
        if dtypes.is_integer(d):
            return int
        if dtypes.is_floating(d):
            return float
        if dtypes.is_complex(d):
            return complex
    raise JaxtypedTypeError(f"dtypes.scalar_type_of: invalid scalar value of dtype {d}")


@overload
def result_type(*args: ArrayLike | dtypes.DTypeLike, return_weak_type_flag: Literal[False] = False) -> np.dtype[Any]: ...
@overload
def result_type(*args: ArrayLike | dtypes.DTypeLike, return_weak_type_flag: Literal[True]) -> tuple[np.dtype[Any], bool]: ...
@overload
def result_type(
    *args: ArrayLike | dtypes.DTypeLike, return_weak_type_flag: bool
) -> np.dtype[Any] | tuple[np.dtype[Any], bool]: ...
def result_type(
    *args: ArrayLike | dtypes.DTypeLike, return_weak_type_flag: bool = False
) -> np.dtype[Any] | tuple[np.dtype[Any], bool]:
    """The dtype ``args`` promote to (``jnp.result_type``), and with
    ``return_weak_type_flag=True`` whether it is weakly typed (only Python
    scalars take part)."""
    result, weak = result_type_and_weak("dtypes.result_type", *args)
    return (result, weak) if return_weak_type_flag else result
