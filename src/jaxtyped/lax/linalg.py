"""Linear-algebra primitives with JAX's ``jax.lax.linalg`` names and
signatures: decompositions (Cholesky, LU, QR, eigh, SVD, eig, Schur) and
solvers, batched over leading dimensions, differentiable, compiled on CPU
through jaxlib's LAPACK kernels."""

# Each family adds its own import block and its own ``__all__`` block.
# --- cholesky and triangular_solve family ---
# --- lu and qr family ---
# --- eigh and svd family ---
# --- eig, schur and tridiagonal family ---
from jaxtyped._src.lax.linalg.eig import EigImplementation as EigImplementation, eig as eig

__all__: list[str] = [
    # --- cholesky and triangular_solve family ---
    # --- lu and qr family ---
    # --- eigh and svd family ---
    # --- eig, schur and tridiagonal family ---
    "EigImplementation",
    "eig",
]
