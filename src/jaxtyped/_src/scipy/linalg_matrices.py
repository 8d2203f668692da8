"""Special matrices of ``jaxtyped.scipy.linalg`` (layer L5): ``block_diag``
and the structured constructors (Toeplitz, Hankel, circulant, companion,
Leslie, Fiedler, Hilbert, Pascal, Helmert, DFT, Hadamard), with JAX's
signatures, dtypes and errors.

The structured matrices whose entries are all taken from an input vector
(Toeplitz, Hankel, circulant) are one gather with a static index table over
a concatenated vector, so they batch over leading dimensions for free. The
matrices that depend only on ``n`` are computed on the host in float64 and
rounded once to the default dtype.
"""

import math
from typing import Any, Literal

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.numpy import creation as jc
from jaxtyped._src.numpy import index_functions as ji
from jaxtyped._src.numpy import manipulation as jm
from jaxtyped._src.numpy import shape_ops as js
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import (
    asarray_operand,
    broadcast_shapes,
    broadcast_to_shape,
    promote_dtypes,
)
from jaxtyped._src.util import index_arg

__all__ = [
    "block_diag", "toeplitz", "hankel", "circulant", "companion", "fiedler_companion", "leslie", "fiedler",
    "convolution_matrix", "hilbert", "invhilbert", "pascal", "invpascal", "helmert", "dft", "hadamard",
]  # fmt: skip


def _strong(x: Array) -> Array:
    # JAX's constructors give strongly typed results even from weak inputs.
    return convert_to(x, x.dtype, weak_type=False)


def _batch_broadcast(name: str, x: Array, y: Array) -> tuple[Array, Array]:
    """``x`` and ``y`` (vectors along their last axis) broadcast to a common
    batch shape, each keeping its own last dimension."""
    batch = broadcast_shapes(name, x.shape[:-1], y.shape[:-1], types=(x.aval.str_short(), y.aval.str_short()))
    return broadcast_to_shape(x, (*batch, x.shape[-1])), broadcast_to_shape(y, (*batch, y.shape[-1]))


def _gather_last(values: Array, index: np.ndarray[Any, np.dtype[Any]]) -> Array:
    """``values[..., index]`` for a static 2-d integer table ``index``."""
    return ji.take(values, jc.asarray(index.astype(np.int32)), axis=-1)


def block_diag(*arrs: ArrayLike) -> Array:
    """A block-diagonal matrix from 0-d, 1-d or 2-d blocks (each at least
    2-d, a 1-d block a row), in their promoted dtype.

    Raises:
        JaxtypedValueError: a block has more than two dimensions.
    """
    if not arrs:
        return jc.zeros((1, 0))
    blocks = [asarray_operand("block_diag", a, i) for i, a in enumerate(arrs)]
    for i, block in enumerate(blocks):
        if block.ndim > 2:
            raise JaxtypedValueError(
                f"block_diag: arguments must have at most 2 dimensions, got {block.aval.str_short()} at argument {i}"
            )
    blocks = [_strong(b) for b in promote_dtypes("block_diag", [jm.atleast_2d(b) for b in blocks])]
    total = sum(b.shape[1] for b in blocks)
    rows: list[Array] = []
    before = 0
    for block in blocks:
        height, width = block.shape
        left = jc.zeros((height, before), block.dtype)
        right = jc.zeros((height, total - before - width), block.dtype)
        rows.append(js.concatenate([left, block, right], axis=1))
        before += width
    return js.concatenate(rows, axis=0)


def toeplitz(c: ArrayLike, r: ArrayLike | None = None) -> Array:
    """The Toeplitz matrix with first column ``c`` and first row ``r``
    (``r``'s first entry ignored; ``conj(c)`` when ``r`` is None), batched
    over the leading dimensions of ``c`` and ``r``."""
    column = asarray_operand("toeplitz", c, 0)
    row = ju.conjugate(column) if r is None else asarray_operand("toeplitz", r, 1)
    column, row = promote_dtypes("toeplitz", [jm.atleast_1d(column), jm.atleast_1d(row)])
    column, row = _batch_broadcast("toeplitz", column, row)
    m, n = column.shape[-1], row.shape[-1]
    # T[i, j] = c[i - j] below the diagonal, r[j - i] above: one vector
    # [c reversed, r[1:]] read at m - 1 - i + j.
    values = js.concatenate([jm.flip(column, axis=-1), row[..., 1:]], axis=-1)
    index = (m - 1) - np.arange(m)[:, None] + np.arange(n)[None, :]
    return _strong(_gather_last(values, index))


def hankel(c: ArrayLike, r: ArrayLike | None = None) -> Array:
    """The Hankel matrix with first column ``c`` and last row ``r``
    (``r``'s first entry ignored; zeros when ``r`` is None), batched over
    leading dimensions.

    Raises:
        JaxtypedValueError: ``c`` is a scalar.
    """
    column = asarray_operand("hankel", c, 0)
    if column.ndim == 0:
        raise JaxtypedValueError("hankel: c must be at least 1-dimensional, got a scalar")
    row = jc.zeros_like(column) if r is None else jm.atleast_1d(asarray_operand("hankel", r, 1))
    column, row = promote_dtypes("hankel", [column, row])
    column, row = _batch_broadcast("hankel", column, row)
    m, n = column.shape[-1], row.shape[-1]
    # H[i, j] = [c, r[1:]][i + j].
    values = js.concatenate([column, row[..., 1:]], axis=-1)
    index = np.arange(m)[:, None] + np.arange(n)[None, :]
    return _strong(_gather_last(values, index))


def circulant(c: ArrayLike) -> Array:
    """The circulant matrix whose first column is ``c`` (batched over
    leading dimensions): ``C[i, j] = c[(i - j) mod n]``."""
    column = jm.atleast_1d(asarray_operand("circulant", c))
    n = column.shape[-1]
    index = (np.arange(n)[:, None] - np.arange(n)[None, :]) % max(n, 1)
    return _gather_last(column, index)


def companion(a: ArrayLike) -> Array:
    """The companion matrix of the polynomial with coefficients ``a``
    (highest degree first, batched over leading dimensions), in an inexact
    dtype.

    Raises:
        JaxtypedValueError: ``a`` has fewer than two coefficients.
    """
    coeffs = jm.atleast_1d(asarray_operand("companion", a))
    if coeffs.shape[-1] < 2:
        raise JaxtypedValueError(
            f"companion: the length of a along the last axis must be at least 2, got shape {coeffs.shape}"
        )
    (coeffs,) = promote_dtypes("companion", [coeffs], inexact=True)
    n = coeffs.shape[-1] - 1
    first = ju.negative(ju.divide(coeffs[..., 1:], coeffs[..., :1]))
    shift = js.broadcast_to(jc.eye(n - 1, n, dtype=coeffs.dtype), (*coeffs.shape[:-1], n - 1, n))
    return _strong(js.concatenate([first[..., None, :], shift], axis=-2))


def fiedler_companion(a: ArrayLike) -> Array:
    """Fiedler's pentadiagonal companion matrix of the polynomial with
    coefficients ``a`` (highest degree first, batched over leading
    dimensions), in an inexact dtype; ``(0, 0)`` for fewer than two
    coefficients."""
    coeffs = asarray_operand("fiedler_companion", a)
    if coeffs.ndim == 0 or coeffs.shape[-1] < 2:
        (empty,) = promote_dtypes("fiedler_companion", [coeffs], inexact=True)
        return jc.zeros((*coeffs.shape[:-1], 0, 0), empty.dtype) if coeffs.ndim else convert_to(
            jc.zeros((0, 0), empty.dtype), empty.dtype, weak_type=empty.weak_type
        )
    (coeffs,) = promote_dtypes("fiedler_companion", [coeffs], inexact=True)
    n = coeffs.shape[-1] - 1
    # Entries are 0, 1 or -a[k]/a[0]: one vector [0, 1, -a[1:]/a[0]] read
    # through a static table (index 2 + k - 1 for -a[k]).
    negated = ju.negative(ju.divide(coeffs[..., 1:], coeffs[..., :1]))
    zero_one = js.broadcast_to(jc.asarray(np.array([0, 1]), dtype=coeffs.dtype), (*coeffs.shape[:-1], 2))
    values = js.concatenate([zero_one, negated], axis=-1)
    index = np.zeros((n, n), np.int64)
    index[0, 0] = 2  # -a[1]
    if n > 1:
        index[1, 0] = 1
    for row, col in zip(range(3, n, 2), range(1, n - 2, 2), strict=False):
        index[row, col] = 1
    for row, col in zip(range(0, n - 2, 2), range(2, n, 2), strict=False):
        index[row, col] = 1
    for k, (row, col) in enumerate(zip(range(0, n - 1, 2), range(1, n, 2), strict=False)):
        index[row, col] = 2 + 2 * k + 1  # -a[2], -a[4], ...
    for k, (row, col) in enumerate(zip(range(2, n, 2), range(1, n - 1, 2), strict=False)):
        index[row, col] = 2 + 2 * k + 2  # -a[3], -a[5], ...
    return _strong(_gather_last(values, index))


def leslie(f: ArrayLike, s: ArrayLike) -> Array:
    """The Leslie matrix with fecundity coefficients ``f`` (first row) and
    survival coefficients ``s`` (sub-diagonal), batched over leading
    dimensions.

    Raises:
        JaxtypedValueError: ``f`` has fewer than two entries or ``s`` is not
            one shorter than ``f``.
    """
    fecundity = jm.atleast_1d(asarray_operand("leslie", f, 0))
    survival = jm.atleast_1d(asarray_operand("leslie", s, 1))
    n = fecundity.shape[-1]
    if n < 2:
        raise JaxtypedValueError(
            f"leslie: the length of f along the last axis must be at least 2, got shape {fecundity.shape}"
        )
    if survival.shape[-1] != n - 1:
        raise JaxtypedValueError(
            "leslie: the length of s along the last axis must be one less than the length of f, "
            f"got f shape {fecundity.shape} and s shape {survival.shape}"
        )
    fecundity, survival = promote_dtypes("leslie", [fecundity, survival])
    fecundity, survival = _batch_broadcast("leslie", fecundity, survival)
    on_diagonal = jc.asarray(np.eye(n - 1, n, dtype=bool))
    below = ju.where(on_diagonal, survival[..., :, None], jc.zeros((), survival.dtype))
    return _strong(js.concatenate([fecundity[..., None, :], below], axis=-2))


def fiedler(a: ArrayLike) -> Array:
    """The symmetric Fiedler matrix ``|a[i] - a[j]|`` (batched over leading
    dimensions; real for complex ``a``)."""
    values = jm.atleast_1d(asarray_operand("fiedler", a))
    return _strong(ju.abs(ju.subtract(values[..., :, None], values[..., None, :])))


def convolution_matrix(a: ArrayLike, n: int, mode: Literal["full", "valid", "same"] = "full") -> Array:
    """The matrix ``M`` with ``M @ v == convolve(a, v, mode)`` for vectors
    ``v`` of length ``n`` (batched over the leading dimensions of ``a``).

    Raises:
        JaxtypedValueError: ``a`` is a scalar or empty, ``n < 1``, or an
            unknown ``mode``.
    """
    if mode not in ("full", "valid", "same"):
        raise JaxtypedValueError(f"convolution_matrix: mode must be one of 'full', 'valid', 'same', got {mode!r}")
    size = index_arg(n, "convolution_matrix n")
    if size < 1:
        raise JaxtypedValueError(f"convolution_matrix: n must be a positive integer, got {size}")
    kernel = asarray_operand("convolution_matrix", a)
    if kernel.ndim == 0:
        raise JaxtypedValueError("convolution_matrix: a must be at least 1-dimensional, got a scalar")
    m = kernel.shape[-1]
    if m < 1:
        raise JaxtypedValueError(f"convolution_matrix: len(a) must be at least 1, got shape {kernel.shape}")
    # Row i of the full matrix holds a[i - j] at column j: one padded vector
    # [0 * (n-1), a, 0 * (n-1)] read at i - j + n - 1.
    pad = jc.zeros((*kernel.shape[:-1], size - 1), kernel.dtype)
    values = js.concatenate([pad, kernel, pad], axis=-1)
    full_rows = m + size - 1
    trim = min(size, m) - 1
    first, last = {"full": (0, full_rows), "same": (trim // 2, full_rows - (trim - trim // 2)), "valid": (trim, full_rows - trim)}[mode]
    rows = np.arange(first, last)
    index = rows[:, None] - np.arange(size)[None, :] + (size - 1)
    return _strong(_gather_last(values, index))


def _host_matrix(values: np.ndarray[Any, np.dtype[Any]], dtype: np.dtype[Any] | None = None) -> Array:
    """A host-computed float64/complex128 matrix rounded once to ``dtype``
    (the default float, or complex, dtype)."""
    if dtype is None:
        dtype = dtypes.canonicalize_dtype(np.complex128 if values.dtype.kind == "c" else np.float64)
    return jc.asarray(values.astype(dtype))


def _size(name: str, n: int) -> int:
    size = index_arg(n, f"{name} n")
    if size < 0:
        raise JaxtypedValueError(f"{name}: n must be non-negative, got {size}")
    return size


def hilbert(n: int) -> Array:
    """The ``n``-by-``n`` Hilbert matrix ``1 / (i + j + 1)``."""
    size = _size("hilbert", n)
    i = np.arange(size, dtype=np.float64)
    return _host_matrix(1.0 / (i[:, None] + i[None, :] + 1.0))


def invhilbert(n: int) -> Array:
    """The inverse of the ``n``-by-``n`` Hilbert matrix, from its exact
    integer formula."""
    size = _size("invhilbert", n)
    entries = [
        [
            (-1) ** (i + j) * (i + j + 1) * math.comb(size + i, size - j - 1) * math.comb(size + j, size - i - 1)
            * math.comb(i + j, i) ** 2
            for j in range(size)
        ]
        for i in range(size)
    ]  # fmt: skip
    return _host_matrix(np.array(entries, dtype=np.float64).reshape(size, size))


def _pascal_kind(name: str, kind: str | None) -> str:
    kinds = ("symmetric", "lower", "upper")
    chosen = "symmetric" if kind is None else kind
    if chosen not in kinds:
        raise JaxtypedValueError(f"{name}: kind must be one of {list(kinds)}, got {kind!r}")
    return chosen


def invpascal(n: int, kind: Literal["symmetric", "lower", "upper"] | None = None) -> Array:
    """The inverse of :func:`pascal`'s matrix of the same ``n`` and ``kind``
    (exact integers, rounded once).

    Raises:
        JaxtypedValueError: an unknown ``kind``.
    """
    chosen = _pascal_kind("invpascal", kind)
    size = _size("invpascal", n)
    # The lower Pascal matrix's inverse is the signed one; the symmetric
    # matrix L L^T has the inverse L^-T L^-1 (Python integers: exact).
    inverse_lower = [[(-1) ** (i + j) * math.comb(i, j) for j in range(size)] for i in range(size)]
    if chosen == "lower":
        entries = inverse_lower
    elif chosen == "upper":
        entries = [list(row) for row in zip(*inverse_lower, strict=True)] if size else []
    else:
        entries = [
            [sum(inverse_lower[k][i] * inverse_lower[k][j] for k in range(size)) for j in range(size)]
            for i in range(size)
        ]  # fmt: skip
    return _host_matrix(np.array(entries, dtype=np.float64).reshape(size, size))


def pascal(n: int, kind: Literal["symmetric", "lower", "upper"] | None = None) -> Array:
    """The ``n``-by-``n`` Pascal matrix of binomial coefficients:
    ``kind`` ``"symmetric"`` (default), ``"lower"`` or ``"upper"``.

    Raises:
        JaxtypedValueError: an unknown ``kind``.
    """
    chosen = _pascal_kind("pascal", kind)
    size = _size("pascal", n)
    lower = np.array([[math.comb(i, j) for j in range(size)] for i in range(size)], dtype=np.float64).reshape(size, size)
    matrix = {"lower": lower, "upper": lower.T, "symmetric": lower @ lower.T}[chosen]
    return _host_matrix(matrix)


def helmert(n: int, full: bool = False) -> Array:
    """The Helmert matrix of order ``n`` (orthogonal rows summing to zero
    after the first); ``full=False`` leaves out the first row."""
    size = _size("helmert", n)
    matrix = np.zeros((size, size))
    if size:
        matrix[0] = 1.0 / math.sqrt(size)
    for k in range(1, size):
        scale = 1.0 / math.sqrt(k * (k + 1))
        matrix[k, :k] = scale
        matrix[k, k] = -k * scale
    return _host_matrix(matrix if full else matrix[1:])


def dft(n: int, scale: Literal["sqrtn", "n"] | None = None, *, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """The ``n``-point discrete Fourier transform matrix
    ``exp(-2 pi i j k / n)``, divided by ``sqrt(n)`` (``"sqrtn"``) or ``n``
    (``"n"``).

    Raises:
        JaxtypedValueError: an unknown ``scale``.
    """
    if scale not in (None, "sqrtn", "n"):
        raise JaxtypedValueError(f"dft: scale must be None, 'sqrtn', or 'n', got {scale!r}")
    size = _size("dft", n)
    k = np.arange(size)
    matrix = np.exp(-2j * np.pi * ((k[:, None] * k[None, :]) % max(size, 1)) / max(size, 1))
    if scale == "sqrtn":
        matrix = matrix / math.sqrt(size)
    elif scale == "n":
        matrix = matrix / size
    target = jc.dtype_arg(dtype)
    return _host_matrix(matrix, target)


def hadamard(n: int, dtype: "dtypes.DTypeLike" = int) -> Array:
    """The ``n``-by-``n`` Hadamard matrix (Sylvester's construction) in
    ``dtype``.

    Raises:
        JaxtypedValueError: ``n`` is not a positive power of two.
    """
    size = index_arg(n, "hadamard n")
    if size < 1 or size & (size - 1):
        raise JaxtypedValueError(f"hadamard: n must be a positive power of 2, got {size}")
    matrix = np.ones((1, 1))
    while matrix.shape[0] < size:
        matrix = np.block([[matrix, matrix], [matrix, -matrix]])
    return jc.asarray(matrix, dtype=dtype)
