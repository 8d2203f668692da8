"""Decompositions of ``jnp.linalg`` (layer L5): ``cholesky``, ``qr``,
``svd``, ``svdvals``, ``eigh``, ``eigvalsh``, ``eig`` and ``eigvals``, with
JAX's result named tuples. Each promotes integer input to float, as JAX's
do, and binds the ``lax.linalg`` primitive (whose derivative rules are
JAX's).
"""

from typing import Literal, NamedTuple, overload

import numpy as np

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.linalg import cholesky as lax_cholesky
from jaxtyped._src.lax.linalg import eig as lax_eig
from jaxtyped._src.lax.linalg import eigh as lax_eigh
from jaxtyped._src.lax.linalg import qr as lax_qr
from jaxtyped._src.lax.linalg import svd as lax_svd
from jaxtyped._src.numpy import manipulation as man
from jaxtyped._src.numpy import sorting
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.index_functions import take_along_axis
from jaxtyped._src.numpy.promotion import broadcast_to_shape, promote_dtypes

__all__ = [
    "EighResult", "EigResult", "QRResult", "SVDResult", "inexact_matrix", "check_lapack_dtype",
    "cholesky", "qr", "svd", "svdvals", "eigh", "eigvalsh", "eig", "eigvals",
]  # fmt: skip


class EighResult(NamedTuple):
    """``eigh``'s result: ascending eigenvalues and the eigenvectors as columns."""

    eigenvalues: Array
    eigenvectors: Array


class EigResult(NamedTuple):
    """``eig``'s result: eigenvalues and right eigenvectors (complex)."""

    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    """``qr``'s result: orthonormal ``Q`` and upper-triangular ``R``."""

    Q: Array
    R: Array


class SVDResult(NamedTuple):
    """``svd``'s result: ``U``, the descending singular values ``S`` and ``Vh``."""

    U: Array
    S: Array
    Vh: Array


_LAPACK_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


def check_lapack_dtype(name: str, x: Array) -> None:
    """LAPACK has no half-precision kernels: NotImplementedError, as JAX's."""
    if x.dtype not in _LAPACK_DTYPES:
        raise JaxtypedNotImplementedError(
            f"jnp.linalg.{name}: LAPACK supports float32, float64, complex64 and complex128, got {x.aval.str_short()}"
        )


def inexact_matrix(name: str, x: ArrayLike, square: type[Exception] | None = None) -> Array:
    """``x`` promoted to an inexact dtype, checked to be a stack of
    matrices (a TypeError otherwise, as JAX's) and, when ``square`` names
    the error kind JAX raises for that function, square matrices."""
    (a,) = promote_dtypes(f"linalg.{name}", (x,), inexact=True)
    if a.ndim < 2:
        raise JaxtypedTypeError(
            f"jnp.linalg.{name}: argument must have at least 2 dimensions (a stack of matrices), got {a.aval.str_short()}"
        )
    if square is not None and a.shape[-1] != a.shape[-2]:
        message = f"jnp.linalg.{name}: argument must be a (stack of) square matrices, got {a.aval.str_short()}"
        raise JaxtypedValueError(message) if square is ValueError else JaxtypedTypeError(message)
    check_lapack_dtype(name, a)
    return a


def _hermitian_transpose(x: Array) -> Array:
    return uf.conjugate(man.matrix_transpose(x))


def cholesky(a: ArrayLike, *, upper: bool = False, symmetrize_input: bool = True) -> Array:
    """The Cholesky factor of Hermitian positive-definite matrices: lower
    ``L`` with ``a = L @ L^H`` (``upper``: ``U = L^H``). Matrices that are
    not positive definite give NaNs, as JAX's."""
    x = inexact_matrix("cholesky", a, square=TypeError)
    factor = lax_cholesky.cholesky(x, symmetrize_input=symmetrize_input)
    return _hermitian_transpose(factor) if upper else factor


@overload
def qr(a: ArrayLike, mode: Literal["r"]) -> Array: ...
@overload
def qr(a: ArrayLike, mode: Literal["raw"]) -> QRResult: ...
@overload
def qr(a: ArrayLike, mode: Literal["reduced", "complete"] = "reduced") -> QRResult: ...
@overload
def qr(a: ArrayLike, mode: str) -> Array | QRResult: ...
def qr(a: ArrayLike, mode: str = "reduced") -> Array | QRResult:
    """The QR decomposition ``a = Q @ R``: ``"reduced"`` (``Q`` of shape
    ``(m, k)``, ``k = min(m, n)``), ``"complete"`` (``Q`` square), ``"r"``
    (``R`` only) or ``"raw"`` (LAPACK's packed reflectors, transposed as
    NumPy's, and their scales)."""
    if mode not in ("reduced", "complete", "r", "raw"):
        raise JaxtypedValueError(f"jnp.linalg.qr: unsupported mode {mode!r}; use 'reduced', 'complete', 'r' or 'raw'")
    x = inexact_matrix("qr", a)
    if mode == "raw":
        packed, taus = lax_qr.geqrf(x)
        return QRResult(man.matrix_transpose(packed), taus)
    q, r = lax_qr.qr(x, full_matrices=mode == "complete")
    return r if mode == "r" else QRResult(q, r)


def _hermitian_svd(x: Array, compute_uv: bool) -> Array | SVDResult:
    # A Hermitian matrix's singular values are its eigenvalues' magnitudes;
    # the eigenvalues' signs move into Vh. Ascending order reversed, as JAX's
    # (which decides the order of ties).
    v, w = lax_eigh.eigh(x)
    s = uf.abs(w)
    last = s.ndim - 1
    if not compute_uv:
        return ls.rev(sorting.sort(s, axis=-1), (last,))
    order = ls.rev(sorting.argsort(s, axis=-1), (last,))
    signs = take_along_axis(uf.sign(w), order, axis=-1)
    columns = broadcast_to_shape(ls.expand_dims(order, (last,)), v.shape)
    u = take_along_axis(v, columns, axis=-1)
    s = take_along_axis(s, order, axis=-1)
    scaled = uf.multiply(u, convert_to(ls.expand_dims(signs, (last,)), u.dtype, weak_type=False))
    return SVDResult(u, s, _hermitian_transpose(scaled))


@overload
def svd(
    a: ArrayLike,
    full_matrices: bool = True,
    compute_uv: Literal[True] = True,
    hermitian: bool = False,
    subset_by_index: tuple[int, int] | None = None,
) -> SVDResult: ...
@overload
def svd(
    a: ArrayLike,
    full_matrices: bool,
    compute_uv: Literal[False],
    hermitian: bool = False,
    subset_by_index: tuple[int, int] | None = None,
) -> Array: ...
@overload
def svd(
    a: ArrayLike,
    full_matrices: bool = True,
    *,
    compute_uv: Literal[False],
    hermitian: bool = False,
    subset_by_index: tuple[int, int] | None = None,
) -> Array: ...
@overload
def svd(
    a: ArrayLike,
    full_matrices: bool = True,
    compute_uv: bool = True,
    hermitian: bool = False,
    subset_by_index: tuple[int, int] | None = None,
) -> Array | SVDResult: ...
def svd(
    a: ArrayLike,
    full_matrices: bool = True,
    compute_uv: bool = True,
    hermitian: bool = False,
    subset_by_index: tuple[int, int] | None = None,
) -> Array | SVDResult:
    """The singular value decomposition ``a = U @ diag(S) @ Vh`` (``S``
    descending); with ``compute_uv=False`` the singular values alone."""
    x = inexact_matrix("svd", a)
    if hermitian:
        if x.shape[-1] != x.shape[-2]:
            raise JaxtypedTypeError(f"jnp.linalg.svd: hermitian=True needs square matrices, got {x.aval.str_short()}")
        return _hermitian_svd(x, compute_uv)
    if compute_uv:
        u, s, vh = lax_svd.svd(x, full_matrices=full_matrices, compute_uv=True, subset_by_index=subset_by_index)
        return SVDResult(u, s, vh)
    return lax_svd.svd(x, full_matrices=full_matrices, compute_uv=False, subset_by_index=subset_by_index)


def svdvals(x: ArrayLike, /) -> Array:
    """The singular values of a (stack of) matrices, descending."""
    return svd(x, compute_uv=False)


def _lower(name: str, uplo: str | None) -> bool:
    if uplo is None or uplo == "L":
        return True
    if uplo == "U":
        return False
    raise JaxtypedValueError(f"jnp.linalg.{name}: UPLO must be 'L' or 'U', got {uplo!r}")


def eigh(a: ArrayLike, UPLO: str | None = None, symmetrize_input: bool = True) -> EighResult:  # noqa: N803 - NumPy's name
    """Eigenvalues (ascending) and eigenvectors of Hermitian matrices, read
    from the lower (``UPLO="L"``) or upper triangle."""
    x = inexact_matrix("eigh", a, square=TypeError)
    v, w = lax_eigh.eigh(x, lower=_lower("eigh", UPLO), symmetrize_input=symmetrize_input)
    return EighResult(w, v)


def eigvalsh(a: ArrayLike, UPLO: str | None = "L", *, symmetrize_input: bool = True) -> Array:  # noqa: N803 - NumPy's name
    """The eigenvalues (ascending) of Hermitian matrices."""
    return eigh(a, UPLO, symmetrize_input).eigenvalues


def eig(a: ArrayLike) -> EigResult:
    """Eigenvalues and right eigenvectors of general square matrices
    (complex; CPU only, as JAX's)."""
    x = inexact_matrix("eig", a, square=ValueError)
    w, v = lax_eig.eig(x, compute_left_eigenvectors=False)
    return EigResult(w, v)


def eigvals(a: ArrayLike) -> Array:
    """The eigenvalues of general square matrices (complex)."""
    x = inexact_matrix("eigvals", a, square=ValueError)
    (w,) = lax_eig.eig(x, compute_left_eigenvectors=False, compute_right_eigenvectors=False)
    return w

