"""Decompositions of ``jaxtyped.scipy.linalg`` (layer L5): QR (and
``qr_multiply``), SVD, ``eigh``, Schur, Hessenberg and polar, with JAX's
``jax.scipy.linalg`` signatures and semantics, on the ``lax.linalg``
primitives. SciPy's ``overwrite_*``, ``check_finite``, ``lwork`` and
``turbo`` arguments are accepted and ignored, as JAX does.
"""

from typing import Literal, overload

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedValueError
from jaxtyped._src.lax.linalg import eigh as lax_eigh
from jaxtyped._src.lax.linalg import hessenberg as lax_hessenberg
from jaxtyped._src.lax.linalg import qr as lax_qr
from jaxtyped._src.lax.linalg import schur as lax_schur
from jaxtyped._src.lax.linalg import svd as lax_svd
from jaxtyped._src.numpy import creation as jc
from jaxtyped._src.numpy import manipulation as jm
from jaxtyped._src.numpy import shape_ops as js
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import asarray_operand, promote_dtypes
from jaxtyped._src.scipy.linalg import adjoint, inexact_operands

__all__ = ["qr", "qr_multiply", "svd", "eigh", "schur", "hessenberg", "polar"]


# === QR, SVD, eigh, Schur, Hessenberg ===


@overload
def qr(
    a: ArrayLike, overwrite_a: bool = False, lwork: object = None, mode: Literal["full", "economic"] = "full",
    pivoting: Literal[False] = False, check_finite: bool = True,
) -> tuple[Array, Array]: ...  # fmt: skip
@overload
def qr(
    a: ArrayLike, overwrite_a: bool = False, lwork: object = None, *, mode: Literal["r"],
    pivoting: Literal[False] = False, check_finite: bool = True,
) -> tuple[Array]: ...  # fmt: skip
@overload
def qr(
    a: ArrayLike, overwrite_a: bool = False, lwork: object = None, mode: Literal["full", "economic"] = "full",
    *, pivoting: Literal[True], check_finite: bool = True,
) -> tuple[Array, Array, Array]: ...  # fmt: skip
@overload
def qr(
    a: ArrayLike, overwrite_a: bool = False, lwork: object = None, *, mode: Literal["r"],
    pivoting: Literal[True], check_finite: bool = True,
) -> tuple[Array, Array]: ...  # fmt: skip
@overload
def qr(
    a: ArrayLike, overwrite_a: bool = False, lwork: object = None, mode: str = "full",
    pivoting: bool = False, check_finite: bool = True,
) -> tuple[Array, ...]: ...  # fmt: skip
def qr(
    a: ArrayLike, overwrite_a: bool = False, lwork: object = None, mode: str = "full",
    pivoting: bool = False, check_finite: bool = True,
) -> tuple[Array, ...]:  # fmt: skip
    """The QR decomposition ``a[..., :, p] = q r``: ``(q, r)`` for ``mode``
    ``"full"`` (``q`` ``[m, m]``) or ``"economic"`` (``[m, k]``, ``r``
    ``[k, n]``), ``(r,)`` for ``"r"``; the column permutation ``p`` is
    appended when ``pivoting``.

    Raises:
        JaxtypedValueError: an unsupported ``mode`` (``"raw"`` included, as
            in JAX).
    """
    if mode not in ("full", "r", "economic"):
        raise JaxtypedValueError(f"qr: unsupported QR decomposition mode {mode!r}")
    (x,) = inexact_operands("qr", a)
    outs = lax_qr.qr(x, pivoting=bool(pivoting), full_matrices=mode != "economic")
    return outs[1:] if mode == "r" else tuple(outs)


@overload
def qr_multiply(
    a: ArrayLike, c: ArrayLike, mode: Literal["right", "left"] = "right", pivoting: Literal[False] = False,
    conjugate: bool = False, overwrite_a: bool = False, overwrite_c: bool = False,
) -> tuple[Array, Array]: ...  # fmt: skip
@overload
def qr_multiply(
    a: ArrayLike, c: ArrayLike, mode: Literal["right", "left"] = "right", *, pivoting: Literal[True],
    conjugate: bool = False, overwrite_a: bool = False, overwrite_c: bool = False,
) -> tuple[Array, Array, Array]: ...  # fmt: skip
@overload
def qr_multiply(
    a: ArrayLike, c: ArrayLike, mode: Literal["right", "left"] = "right", pivoting: bool = False,
    conjugate: bool = False, overwrite_a: bool = False, overwrite_c: bool = False,
) -> tuple[Array, Array] | tuple[Array, Array, Array]: ...  # fmt: skip
def qr_multiply(
    a: ArrayLike, c: ArrayLike, mode: Literal["right", "left"] = "right", pivoting: bool = False,
    conjugate: bool = False, overwrite_a: bool = False, overwrite_c: bool = False,
) -> tuple[Array, Array] | tuple[Array, Array, Array]:  # fmt: skip
    """The reduced QR decomposition of ``a`` with ``Q`` applied to ``c``:
    ``(c @ Q, R)`` (``mode="right"``) or ``(Q @ c, R)`` (``"left"``), ``Q``
    conjugated when ``conjugate``; the column permutation is appended when
    ``pivoting``. A 1-D ``c`` is a row (right) or column (left) vector, and
    the product is 1-D.

    Raises:
        JaxtypedValueError: an unknown ``mode`` or shapes that do not fit.
    """
    if mode not in ("right", "left"):
        raise JaxtypedValueError(f"qr_multiply: mode must be 'right' or 'left', got {mode!r}")
    x, other = inexact_operands("qr_multiply", a, c)
    if x.ndim < 2:
        raise JaxtypedValueError(f"qr_multiply: a must have at least 2 dimensions, got {x.aval.str_short()}")
    outs = lax_qr.qr(x, pivoting=bool(pivoting), full_matrices=False)
    q = ju.conjugate(outs[0]) if conjugate else outs[0]
    m, k = q.shape[-2], q.shape[-1]
    vector = other.ndim == 1
    if mode == "right":
        operand = other[None, :] if vector else other
        if operand.shape[-1] != m:
            raise JaxtypedValueError(
                f"qr_multiply: shapes do not fit c @ Q: a is {x.aval.str_short()} so Q has {m} rows, "
                f"but c is {other.aval.str_short()}"
            )
        product = js.matmul(operand, q)
    else:
        operand = other[:, None] if vector else other
        if operand.shape[-2] != k:
            raise JaxtypedValueError(
                f"qr_multiply: shapes do not fit Q @ c: a is {x.aval.str_short()} so Q has {k} columns, "
                f"but c is {other.aval.str_short()}"
            )
        product = js.matmul(q, operand)
    result = js.ravel(product) if vector else product
    if len(outs) == 3:
        return result, outs[1], outs[2]
    return result, outs[1]


@overload
def svd(
    a: ArrayLike, full_matrices: bool = True, compute_uv: Literal[True] = True, overwrite_a: bool = False,
    check_finite: bool = True, lapack_driver: str = "gesdd",
) -> tuple[Array, Array, Array]: ...  # fmt: skip
@overload
def svd(
    a: ArrayLike, full_matrices: bool = True, *, compute_uv: Literal[False], overwrite_a: bool = False,
    check_finite: bool = True, lapack_driver: str = "gesdd",
) -> Array: ...  # fmt: skip
@overload
def svd(
    a: ArrayLike, full_matrices: bool, compute_uv: Literal[False], overwrite_a: bool = False,
    check_finite: bool = True, lapack_driver: str = "gesdd",
) -> Array: ...  # fmt: skip
@overload
def svd(
    a: ArrayLike, full_matrices: bool = True, compute_uv: bool = True, overwrite_a: bool = False,
    check_finite: bool = True, lapack_driver: str = "gesdd",
) -> Array | tuple[Array, Array, Array]: ...  # fmt: skip
def svd(
    a: ArrayLike, full_matrices: bool = True, compute_uv: bool = True, overwrite_a: bool = False,
    check_finite: bool = True, lapack_driver: str = "gesdd",
) -> Array | tuple[Array, Array, Array]:  # fmt: skip
    """The singular value decomposition ``a = u @ diag(s) @ vh``:
    ``(u, s, vh)`` (``s`` descending), or ``s`` alone without
    ``compute_uv``; ``full_matrices=False`` gives the reduced ``u`` and
    ``vh``."""
    (x,) = inexact_operands("svd", a)
    if not compute_uv:
        return lax_svd.svd(x, full_matrices=bool(full_matrices), compute_uv=False)
    u, s, vh = lax_svd.svd(x, full_matrices=bool(full_matrices), compute_uv=True)
    return u, s, vh


def _check_eigh_options(b: ArrayLike | None, eigvals: None, type: int) -> None:  # noqa: A002 - SciPy's name
    if b is not None:
        raise JaxtypedNotImplementedError("eigh: only the b=None case is implemented")
    if type != 1:
        raise JaxtypedNotImplementedError("eigh: only the type=1 case is implemented")
    if eigvals is not None:
        raise JaxtypedNotImplementedError("eigh: only the eigvals=None case is implemented")


@overload
def eigh(
    a: ArrayLike, b: ArrayLike | None = None, lower: bool = True, eigvals_only: Literal[False] = False,
    overwrite_a: bool = False, overwrite_b: bool = False, turbo: bool = True, eigvals: None = None,
    type: int = 1, check_finite: bool = True,
) -> tuple[Array, Array]: ...  # fmt: skip
@overload
def eigh(
    a: ArrayLike, b: ArrayLike | None = None, lower: bool = True, *, eigvals_only: Literal[True],
    overwrite_a: bool = False, overwrite_b: bool = False, turbo: bool = True, eigvals: None = None,
    type: int = 1, check_finite: bool = True,
) -> Array: ...  # fmt: skip
@overload
def eigh(
    a: ArrayLike, b: ArrayLike | None, lower: bool, eigvals_only: Literal[True],
    overwrite_a: bool = False, overwrite_b: bool = False, turbo: bool = True, eigvals: None = None,
    type: int = 1, check_finite: bool = True,
) -> Array: ...  # fmt: skip
@overload
def eigh(
    a: ArrayLike, b: ArrayLike | None = None, lower: bool = True, eigvals_only: bool = False,
    overwrite_a: bool = False, overwrite_b: bool = False, turbo: bool = True, eigvals: None = None,
    type: int = 1, check_finite: bool = True,
) -> Array | tuple[Array, Array]: ...  # fmt: skip
def eigh(
    a: ArrayLike, b: ArrayLike | None = None, lower: bool = True, eigvals_only: bool = False,
    overwrite_a: bool = False, overwrite_b: bool = False, turbo: bool = True, eigvals: None = None,
    type: int = 1, check_finite: bool = True,  # noqa: A002 - SciPy's name
) -> Array | tuple[Array, Array]:  # fmt: skip
    """The eigenvalues ``w`` (ascending) and eigenvectors ``v`` (columns)
    of a Hermitian matrix, ``(w, v)``, or ``w`` alone with
    ``eigvals_only``. ``a`` is symmetrized as ``(a + a^H) / 2`` first;
    ``lower`` picks the triangle LAPACK reads (as in JAX).

    Raises:
        NotImplementedError: ``b``, ``eigvals`` or ``type != 1``
            (the generalized problem), as in JAX.
    """
    _check_eigh_options(b, eigvals, type)
    (x,) = inexact_operands("eigh", a)
    symmetric = ju.divide(ju.add(x, adjoint(x)), 2)
    v, w = lax_eigh.eigh(symmetric, lower=bool(lower), symmetrize_input=False)
    return w if eigvals_only else (w, v)


def schur(a: ArrayLike, output: Literal["real", "complex"] = "real") -> tuple[Array, Array]:
    """The Schur decomposition ``a = Z T Z^H``: ``(T, Z)``, ``T`` quasi upper
    triangular (``"real"``) or upper triangular over the complex numbers
    (``"complex"``).

    Raises:
        JaxtypedValueError: ``output`` is neither ``"real"`` nor ``"complex"``.
    """
    if output not in ("real", "complex"):
        raise JaxtypedValueError(f"schur: 'output' must be either 'real' or 'complex', got {output!r}")
    x = asarray_operand("schur", a)
    if output == "complex":
        x = promote_dtypes("schur", [x, jc.zeros((), "complex64")])[0]
    t, z = lax_schur.schur(x)
    return t, z


@overload
def hessenberg(
    a: ArrayLike, *, calc_q: Literal[False] = False, overwrite_a: bool = False, check_finite: bool = True
) -> Array: ...
@overload
def hessenberg(
    a: ArrayLike, *, calc_q: Literal[True], overwrite_a: bool = False, check_finite: bool = True
) -> tuple[Array, Array]: ...
@overload
def hessenberg(
    a: ArrayLike, *, calc_q: bool, overwrite_a: bool = False, check_finite: bool = True
) -> Array | tuple[Array, Array]: ...
def hessenberg(
    a: ArrayLike, *, calc_q: bool = False, overwrite_a: bool = False, check_finite: bool = True
) -> Array | tuple[Array, Array]:
    """The Hessenberg form ``h`` of a square matrix (zero below the first
    sub-diagonal), with ``a = q h q^H``: ``h``, or ``(h, q)`` with
    ``calc_q``."""
    x = asarray_operand("hessenberg", a)
    if x.ndim >= 2 and x.shape[-1] == x.shape[-2] == 0:
        # An empty matrix is its own Hessenberg form (LAPACK wants a row).
        return (x, x) if calc_q else x
    packed, taus = lax_hessenberg.hessenberg(x)
    h = jm.triu(packed, -1)
    if not calc_q:
        return h
    n = packed.shape[-1]
    if n <= 1:
        return h, jc.ones_like(packed)
    reflectors = lax_qr.householder_product(packed[..., 1:, :-1], taus)
    batch = packed.shape[:-2]
    corner = js.broadcast_to(jc.ones((1, 1), packed.dtype), (*batch, 1, 1))
    top = js.concatenate([corner, jc.zeros((*batch, 1, n - 1), packed.dtype)], axis=-1)
    rest = js.concatenate([jc.zeros((*batch, n - 1, 1), packed.dtype), reflectors], axis=-1)
    return h, js.concatenate([top, rest], axis=-2)


# === polar ===


def polar(
    a: ArrayLike,
    side: Literal["right", "left"] = "right",
    *,
    method: Literal["qdwh", "svd"] = "qdwh",
    eps: float | None = None,
    max_iterations: int | None = None,
) -> tuple[Array, Array]:
    """The polar decomposition ``a = u p`` (``side="right"``) or ``a = p u``
    (``"left"``) of a matrix or a batch: ``(u, p)``, ``u`` with orthonormal
    columns (rows), ``p`` Hermitian positive semi-definite. Both methods
    compute it from the SVD (``"qdwh"``'s iteration converges to the same
    factors; it takes the shapes JAX's takes: ``m >= n`` on the right,
    ``m < n`` on the left). ``eps`` and ``max_iterations`` are ignored.

    Raises:
        JaxtypedValueError: an unknown ``side`` or ``method``, or ``a`` has
            fewer than two dimensions.
        NotImplementedError: ``"qdwh"`` with a shape it does not take.
    """
    if side not in ("right", "left"):
        raise JaxtypedValueError(f"polar: side must be 'left' or 'right', got {side!r}")
    if method not in ("qdwh", "svd"):
        raise JaxtypedValueError(f"polar: unknown polar decomposition method {method!r}")
    (x,) = inexact_operands("polar", a)
    if x.ndim < 2:
        raise JaxtypedValueError(f"polar: a must be a (batch of) matrices, got {x.aval.str_short()}")
    m, n = x.shape[-2], x.shape[-1]
    if method == "qdwh" and (m < n if side == "right" else m >= n):
        raise JaxtypedNotImplementedError(
            f"polar: method='qdwh' takes m x n matrices with m >= n for side='right' and m < n for side='left', "
            f"got {x.aval.str_short()} with side={side!r}"
        )
    u_svd, s, vh = lax_svd.svd(x, full_matrices=False, compute_uv=True)
    unitary = js.matmul(u_svd, vh)
    weights = jm.astype(s, x.dtype)[..., :, None]
    if side == "right":
        positive = js.matmul(adjoint(vh), ju.multiply(weights, vh))
    else:
        positive = js.matmul(u_svd, ju.multiply(weights, adjoint(u_svd)))
    return unitary, positive
