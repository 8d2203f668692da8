"""Factorizations and solvers of ``jaxtyped.scipy.linalg`` (layer L5), with
JAX's ``jax.scipy.linalg`` signatures and semantics, on top of the
``lax.linalg`` primitives and ``jnp.linalg``: Cholesky, LU, triangular
and general solves, ``det`` and ``inv``. The other decompositions are in
``linalg_decompositions``.

SciPy's ``overwrite_*``, ``check_finite`` and ``debug`` arguments are accepted and ignored, as JAX does. Solvers take a
right-hand side ``b`` of shape ``[..., n, k]``, or ``[..., n]`` when
``b`` has one dimension fewer than ``a``; batch dimensions broadcast (a
``jnp.vectorize`` over the core signature, as in JAX).
"""

from collections.abc import Callable
from typing import Literal, overload

import numpy as np

from jaxtyped._src.api_solvers import custom_linear_solve
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.lax.arithmetic import stop_gradient
from jaxtyped._src.lax.linalg import cholesky as lax_cholesky
from jaxtyped._src.lax.linalg import lu as lax_lu
from jaxtyped._src.numpy import creation as jc
from jaxtyped._src.numpy import linalg_solvers as jnp_linalg_solve
from jaxtyped._src.numpy import manipulation as jm
from jaxtyped._src.numpy import shape_ops as js
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import asarray_operand, promote_dtypes
from jaxtyped._src.numpy.vectorize import vectorize

__all__ = [
    "cholesky", "cho_factor", "cho_solve", "solve_triangular", "lu", "lu_factor", "lu_solve",
    "det", "inv", "solve", "inexact_operands", "adjoint",
]  # fmt: skip

def inexact_operands(name: str, *args: ArrayLike) -> list[Array]:
    """The operands of ``name`` as arrays promoted to one inexact dtype."""
    return promote_dtypes(name, [asarray_operand(name, a, i) for i, a in enumerate(args)], inexact=True)


def _swap(x: Array) -> Array:
    return js.swapaxes(x, -1, -2)


def adjoint(x: Array) -> Array:
    """The conjugate transpose of each trailing matrix."""
    return ju.conjugate(_swap(x))


def _check_square(name: str, a: Array) -> None:
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise JaxtypedValueError(f"{name}: a must be a (batch of) square matrices, got {a.aval.str_short()}")


def _solve_core(
    name: str, a: Array, b: Array, solve_matrix: Callable[..., Array], extra_a: tuple[Array, ...] = ()
) -> Array:
    """``solve_matrix(a, b)`` over broadcast batch dimensions: ``b`` is a
    batch of vectors when it is 1-d, or has one dimension fewer than ``a``
    and ends in ``a``'s size; else a batch of ``[n, k]`` matrices (JAX's
    rule)."""
    if b.ndim < 1:
        raise JaxtypedValueError(f"{name}: b must have at least one dimension, got {b.aval.str_short()}")
    vector = b.ndim == 1 or (b.ndim == a.ndim - 1 and b.shape[-1] == a.shape[-1])
    batch_a, batch_b = a.shape[:-2], b.shape[: -1 if vector else -2]
    try:
        np.broadcast_shapes(batch_a, batch_b)
    except ValueError:
        raise JaxtypedValueError(
            f"{name}: batch dimensions of a and b do not broadcast: {a.aval.str_short()} and {b.aval.str_short()}"
        ) from None
    signature = "(n,n),(n)->(n)" if vector else "(n,n),(n,k)->(n,k)"
    if extra_a:
        signature = "(n,n)," + ",".join("(n)" for _ in extra_a) + signature[5:]

    def solve_one(matrix: Array, *rest: Array) -> Array:
        *others, rhs = rest
        column = rhs[:, None] if vector else rhs
        out = solve_matrix(matrix, *others, column)
        return out[:, 0] if vector else out

    return vectorize(solve_one, signature=signature)(a, *extra_a, b)


# === Cholesky ===


def _cholesky(a: Array, lower: bool) -> Array:
    # The upper factor of A is the lower factor of A^T (conjugated), transposed.
    source = a if lower else adjoint(a)
    factor = jm.tril(lax_cholesky.cholesky(source, symmetrize_input=False))
    return factor if lower else adjoint(factor)


def cholesky(a: ArrayLike, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True) -> Array:
    """The Cholesky factor of a Hermitian positive-definite matrix (or a
    batch): upper ``U`` with ``a = U^H U`` by default, lower ``L`` with
    ``a = L L^H`` when ``lower``. Only the chosen triangle of ``a`` is read;
    a matrix that is not positive definite gives NaNs (as in JAX)."""
    (x,) = inexact_operands("cholesky", a)
    _check_square("cholesky", x)
    return _cholesky(x, lower)


def cho_factor(
    a: ArrayLike, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Array, bool]:
    """``(c, lower)`` for :func:`cho_solve`: the Cholesky factor of ``a``
    (zero in its other triangle) and which triangle it is."""
    return cholesky(a, lower=lower), lower


def _cho_solve_matrix(c: Array, b: Array, lower: bool) -> Array:
    # a = L L^H: solve L y = b, then L^H x = y (a = U^H U: U^H first, then U).
    first = lax_cholesky.triangular_solve(
        c, b, left_side=True, lower=lower, transpose_a=not lower, conjugate_a=not lower
    )
    return lax_cholesky.triangular_solve(c, first, left_side=True, lower=lower, transpose_a=lower, conjugate_a=lower)


def cho_solve(
    c_and_lower: tuple[ArrayLike, bool], b: ArrayLike, overwrite_b: bool = False, check_finite: bool = True
) -> Array:
    """The solution ``x`` of ``a x = b`` from ``cho_factor(a)``'s
    ``(c, lower)``."""
    c_in, lower = c_and_lower
    c, rhs = inexact_operands("cho_solve", c_in, b)
    _check_square("cho_solve", c)
    def solve_matrix(m: Array, r: Array) -> Array:
        return _cho_solve_matrix(m, r, bool(lower))

    return _solve_core("cho_solve", c, rhs, solve_matrix)


# === triangular solves ===


def _trans_flags(name: str, trans: object) -> tuple[bool, bool]:
    """``(transpose_a, conjugate_a)`` for SciPy's ``trans`` code."""
    flags = {0: (False, False), "N": (False, False), 1: (True, False), "T": (True, False), 2: (True, True), "C": (True, True)}
    if isinstance(trans, (int, str)) and not isinstance(trans, bool) and trans in flags:
        return flags[trans]
    raise JaxtypedValueError(f"{name}: invalid 'trans' value {trans!r}: expected 0, 1, 2, 'N', 'T' or 'C'")


def solve_triangular(
    a: ArrayLike,
    b: ArrayLike,
    trans: int | str = 0,
    lower: bool = False,
    unit_diagonal: bool = False,
    overwrite_b: bool = False,
    debug: object = None,
    check_finite: bool = True,
) -> Array:
    """The solution ``x`` of ``op(a) x = b`` for a triangular ``a`` (upper
    unless ``lower``; only that triangle is read), ``op`` the identity,
    the transpose or the conjugate transpose for ``trans`` 0/'N', 1/'T',
    2/'C'; ``unit_diagonal`` assumes ones on the diagonal.

    Raises:
        JaxtypedValueError: an invalid ``trans`` or mismatched shapes.
    """
    transpose_a, conjugate_a = _trans_flags("solve_triangular", trans)
    x, rhs = inexact_operands("solve_triangular", a, b)
    _check_square("solve_triangular", x)

    def solve_matrix(m: Array, r: Array) -> Array:
        return lax_cholesky.triangular_solve(
            m, r, left_side=True, lower=bool(lower), transpose_a=transpose_a,
            conjugate_a=conjugate_a, unit_diagonal=bool(unit_diagonal),
        )  # fmt: skip

    return _solve_core("solve_triangular", x, rhs, solve_matrix)


# === LU ===


def lu_factor(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> tuple[Array, Array]:
    """``(lu, piv)``: the packed LU factors of ``a`` with partial pivoting
    (``L`` unit lower, ``U`` upper) and LAPACK's 0-based row interchanges,
    for :func:`lu_solve`."""
    (x,) = inexact_operands("lu_factor", a)
    packed, pivots, _ = lax_lu.lu(x)
    return packed, pivots


@overload
def lu(
    a: ArrayLike, permute_l: Literal[False] = False, overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Array, Array, Array]: ...
@overload
def lu(
    a: ArrayLike, permute_l: Literal[True], overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Array, Array]: ...
@overload
def lu(
    a: ArrayLike, permute_l: bool, overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Array, Array, Array] | tuple[Array, Array]: ...
def lu(
    a: ArrayLike, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Array, Array, Array] | tuple[Array, Array]:
    """The LU decomposition ``a = P L U`` of an ``[..., m, n]`` matrix:
    ``(P, L, U)`` (``P`` a permutation matrix, ``L`` ``[m, k]`` unit lower,
    ``U`` ``[k, n]`` upper, ``k = min(m, n)``), or ``(P L, U)`` with
    ``permute_l``."""
    (x,) = inexact_operands("lu", a)
    if x.ndim < 2:
        raise JaxtypedValueError(f"lu: a must have at least 2 dimensions, got {x.aval.str_short()}")
    packed, _, permutation = lax_lu.lu(x)
    m, n = x.shape[-2], x.shape[-1]
    k = min(m, n)
    rows = jc.arange(m, dtype=permutation.dtype)
    # P[i, j] = 1 where row i of P L U is row permutation[j] of a... so that a = P (L U).
    p = ju.real(jm.astype(ju.equal(permutation[..., None, :], rows[:, None]), x.dtype))
    lower = ju.add(jm.tril(packed[..., :, :k], -1), jc.eye(m, k, dtype=x.dtype))
    upper = jm.triu(packed[..., :k, :])
    if permute_l:
        return js.matmul(p, lower), upper
    return p, lower, upper


def _lu_solve_matrix(packed: Array, permutation: Array, b: Array, trans: int) -> Array:
    n = packed.shape[-1]
    if trans == 0:
        rows = b[permutation, :]
        y = lax_cholesky.triangular_solve(packed, rows, left_side=True, lower=True, unit_diagonal=True)
        return lax_cholesky.triangular_solve(packed, y, left_side=True, lower=False)
    conjugate = trans == 2
    y = lax_cholesky.triangular_solve(packed, b, left_side=True, lower=False, transpose_a=True, conjugate_a=conjugate)
    x = lax_cholesky.triangular_solve(
        packed, y, left_side=True, lower=True, transpose_a=True, conjugate_a=conjugate, unit_diagonal=True
    )
    inverse = jc.zeros((n,), permutation.dtype).at[permutation].set(jc.arange(n, dtype=permutation.dtype))
    return x[inverse, :]


def lu_solve(
    lu_and_piv: tuple[ArrayLike, ArrayLike],
    b: ArrayLike,
    trans: int = 0,
    overwrite_b: bool = False,
    check_finite: bool = True,
) -> Array:
    """The solution ``x`` of ``a x = b`` (``trans=0``), ``a^T x = b`` (1)
    or ``a^H x = b`` (2) from :func:`lu_factor`'s ``(lu, piv)``.

    Raises:
        JaxtypedValueError: ``trans`` is not 0, 1 or 2, or shapes mismatch.
    """
    if isinstance(trans, bool) or trans not in (0, 1, 2):
        raise JaxtypedValueError(f"lu_solve: 'trans' value must be 0, 1, or 2, got {trans!r}")
    packed_in, pivots_in = lu_and_piv
    packed, rhs = inexact_operands("lu_solve", packed_in, b)
    _check_square("lu_solve", packed)
    pivots = asarray_operand("lu_solve", pivots_in, 1)
    permutation = lax_lu.lu_pivots_to_permutation(pivots, packed.shape[-1])
    def solve_matrix(m: Array, p: Array, r: Array) -> Array:
        return _lu_solve_matrix(m, p, r, int(trans))

    return _solve_core("lu_solve", packed, rhs, solve_matrix, extra_a=(permutation,))


# === det, inv, solve ===


def det(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> Array:
    """The determinant of a square matrix (or a batch), with JAX's
    derivative (``jnp.linalg.det``)."""
    return jnp_linalg_solve.det(a)


def inv(a: ArrayLike, overwrite_a: bool = False, check_finite: bool = True) -> Array:
    """The inverse of a square matrix (or a batch): ``jnp.linalg.inv``."""
    return jnp_linalg_solve.inv(a)


def solve(
    a: ArrayLike,
    b: ArrayLike,
    lower: bool = False,
    overwrite_a: bool = False,
    overwrite_b: bool = False,
    debug: bool = False,
    check_finite: bool = True,
    assume_a: Literal["gen", "sym", "her", "pos"] = "gen",
) -> Array:
    """The solution ``x`` of ``a x = b``. ``assume_a="pos"`` solves through
    a Cholesky factorization of the ``lower`` (or upper) triangle, with the
    derivative of the linear system; the other structures solve by LU
    (``jnp.linalg.solve``), as in JAX.

    Raises:
        JaxtypedValueError: an unknown ``assume_a`` or mismatched shapes.
    """
    kinds = ("gen", "sym", "her", "pos")
    if assume_a not in kinds:
        raise JaxtypedValueError(f"solve: expected assume_a to be one of {list(kinds)}, got {assume_a!r}")
    if assume_a != "pos":
        return jnp_linalg_solve.solve(a, b)
    x, rhs = inexact_operands("solve", a, b)
    square = x.ndim >= 2 and x.shape[-1] == x.shape[-2]
    vector = square and rhs.ndim == x.ndim - 1 and rhs.shape[-1] == x.shape[-1]
    matrix = square and rhs.ndim == x.ndim and rhs.shape[-2] == x.shape[-1]
    if not (vector or matrix):
        raise JaxtypedValueError(
            "solve: the arguments must have shapes a=[..., m, m] and b=[..., m, k] or b=[..., m], "
            f"got a={x.aval.str_short()} and b={rhs.aval.str_short()}"
        )
    factor = _cholesky(stop_gradient(x), bool(lower))

    def solve_positive(matrix_: Array, factor_: Array, column: Array) -> Array:
        return custom_linear_solve(
            lambda v: js.matmul(matrix_, v),
            column,
            lambda _matvec, r: _cho_solve_matrix(factor_, r, bool(lower)),
            symmetric=True,
        )

    if vector:
        solved = vectorize(solve_positive, signature="(n,n),(n,n),(n,k)->(n,k)")(x, factor, rhs[..., None])
        return solved[..., 0]
    return vectorize(solve_positive, signature="(n,n),(n,n),(n,k)->(n,k)")(x, factor, rhs)
