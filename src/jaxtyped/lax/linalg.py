"""Linear-algebra primitives with JAX's ``jax.lax.linalg`` names and
signatures: decompositions (Cholesky, LU, QR, eigh, SVD, eig, Schur) and
solvers, batched over leading dimensions, differentiable, compiled on CPU
through jaxlib's LAPACK kernels."""

# Each family adds its own import block and its own ``__all__`` block.
# --- cholesky and triangular_solve family ---
from jaxtyped._src.lax.linalg.cholesky import (
    cholesky as cholesky,
    cholesky_update as cholesky_update,
    symmetric_product as symmetric_product,
    triangular_solve as triangular_solve,
)
from jaxtyped._src.lax.linalg.tridiagonal_solve import tridiagonal_solve as tridiagonal_solve
# --- lu and qr family ---
from jaxtyped._src.lax.linalg.lu import lu as lu, lu_pivots_to_permutation as lu_pivots_to_permutation
from jaxtyped._src.lax.linalg.qr import (
    geqrf as geqrf,
    householder_product as householder_product,
    ormqr as ormqr,
    qr as qr,
)
# --- eigh and svd family ---
from jaxtyped._src.lax.linalg.eigh import EighImplementation as EighImplementation, eigh as eigh
from jaxtyped._src.lax.linalg.svd import SvdAlgorithm as SvdAlgorithm, svd as svd
# --- eig, schur and tridiagonal family ---
from jaxtyped._src.lax.linalg.eig import EigImplementation as EigImplementation, eig as eig
from jaxtyped._src.lax.linalg.hessenberg import hessenberg as hessenberg, tridiagonal as tridiagonal
from jaxtyped._src.lax.linalg.schur import schur as schur

__all__: list[str] = [
    # --- cholesky and triangular_solve family ---
    "cholesky",
    "cholesky_update",
    "symmetric_product",
    "triangular_solve",
    "tridiagonal_solve",
    # --- lu and qr family ---
    "geqrf",
    "householder_product",
    "lu",
    "lu_pivots_to_permutation",
    "ormqr",
    "qr",
    # --- eigh and svd family ---
    "EighImplementation",
    "SvdAlgorithm",
    "eigh",
    "svd",
    # --- eig, schur and tridiagonal family ---
    "EigImplementation",
    "eig",
    "hessenberg",
    "schur",
    "tridiagonal",
]
