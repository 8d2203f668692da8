"""Batched matrix helpers the eigh and svd derivative rules share (layer L4).

Every helper works on arrays whose last two dimensions are the matrix
dimensions and whose leading ones are batch dimensions, with lax's strict
operand rules (equal shapes and dtypes), so the rules built on them stay
differentiable and batchable.
"""

from typing import Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array
from jaxtyped._src.lax.arithmetic import mul, sub
from jaxtyped._src.lax.comparison import eq
from jaxtyped._src.lax.complex_ops import conj
from jaxtyped._src.lax.elementwise_base import convert_element_type
from jaxtyped._src.lax.linalg.base import lapack_prefix
from jaxtyped._src.lax.reductions import reduce_sum
from jaxtyped._src.lax.structural import broadcast_in_dim, broadcasted_iota, select_n, transpose
from jaxtyped._src.lax.util import strong_constant_like

__all__ = [
    "adjoint",
    "diagonal_mask",
    "diagonal",
    "scale_columns",
    "scale_rows",
    "outer_difference",
    "as_dtype",
    "real_dtype",
    "require_lapack_dtype",
]


def real_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The real dtype of ``dtype``'s components (float32 for complex64)."""
    if dtypes.is_complex(dtype):
        return np.dtype(np.float32) if dtype == np.complex64 else np.dtype(np.float64)
    return dtype


def as_dtype(x: Array, dtype: np.dtype[Any]) -> Array:
    """``x`` converted to ``dtype`` (no equation when it already is)."""
    return x if x.dtype == dtype else convert_element_type(x, dtype)


def adjoint(x: Array) -> Array:
    """The conjugate transpose of each matrix."""
    perm = (*range(x.ndim - 2), x.ndim - 1, x.ndim - 2)
    swapped = transpose(x, perm)
    return conj(swapped) if dtypes.is_complex(x.dtype) else swapped


def diagonal_mask(shape: tuple[int, ...]) -> Array:
    """Booleans of ``shape``: true on each matrix's main diagonal."""
    rows = broadcasted_iota(np.int32, shape, len(shape) - 2)
    cols = broadcasted_iota(np.int32, shape, len(shape) - 1)
    return eq(rows, cols)


def diagonal(x: Array) -> Array:
    """The main diagonal of each square matrix, shape ``[..., n]``. Off-
    diagonal entries are selected away, not multiplied by zero, so an
    infinite one does not make the diagonal NaN."""
    zeros = broadcast_in_dim(strong_constant_like(x, 0), x.shape, ())
    return reduce_sum(select_n(diagonal_mask(x.shape), zeros, x), (x.ndim - 1,))


def scale_columns(x: Array, v: Array) -> Array:
    """``x @ diag(v)``: column ``j`` of each matrix times ``v[..., j]``."""
    dims = (*range(v.ndim - 1), x.ndim - 1)
    return mul(x, broadcast_in_dim(as_dtype(v, x.dtype), x.shape, dims))


def scale_rows(v: Array, x: Array) -> Array:
    """``diag(v) @ x``: row ``i`` of each matrix times ``v[..., i]``."""
    dims = (*range(v.ndim - 1), x.ndim - 2)
    return mul(broadcast_in_dim(as_dtype(v, x.dtype), x.shape, dims), x)


def outer_difference(v: Array) -> Array:
    """``d[..., i, j] = v[..., j] - v[..., i]``."""
    shape = (*v.shape, v.shape[-1])
    batch = tuple(range(v.ndim - 1))
    by_column = broadcast_in_dim(v, shape, (*batch, v.ndim))
    by_row = broadcast_in_dim(v, shape, (*batch, v.ndim - 1))
    return sub(by_column, by_row)


def require_lapack_dtype(name: str, dtype: np.dtype[Any]) -> None:
    """Raise a NotImplementedError (``MissingRuleError``), as JAX's lowering
    does, for an inexact dtype LAPACK has no kernel for (float16, bfloat16)."""
    lapack_prefix(dtype, name)
