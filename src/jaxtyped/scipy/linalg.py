"""SciPy-style linear algebra (JAX's ``jax.scipy.linalg``): decompositions,
solvers, the matrix exponential and special matrices, batched over leading
dimensions where JAX batches them, differentiable where JAX is.

Example:
    >>> import jaxtyped.numpy as jnp
    >>> import jaxtyped.scipy.linalg as sla
    >>> sla.solve_triangular(jnp.array([[2.0, 1.0], [0.0, 4.0]]), jnp.array([4.0, 8.0]))
    Array([1., 2.], dtype=float32)
"""

from jaxtyped._src.scipy.linalg import (
    cho_factor,
    cho_solve,
    cholesky,
    det,
    inv,
    lu,
    lu_factor,
    lu_solve,
    solve,
    solve_triangular,
)
from jaxtyped._src.scipy.linalg_decompositions import eigh, hessenberg, polar, qr, qr_multiply, schur, svd
from jaxtyped._src.scipy.linalg_expm import expm
from jaxtyped._src.scipy.linalg_functions import (
    eigh_tridiagonal,
    expm_frechet,
    funm,
    rsf2csf,
    solve_sylvester,
    sqrtm,
)
from jaxtyped._src.scipy.linalg_matrices import (
    block_diag,
    circulant,
    companion,
    convolution_matrix,
    dft,
    fiedler,
    fiedler_companion,
    hadamard,
    hankel,
    helmert,
    hilbert,
    invhilbert,
    invpascal,
    leslie,
    pascal,
    toeplitz,
)

__all__ = [
    "block_diag", "cho_factor", "cho_solve", "cholesky", "circulant", "companion", "convolution_matrix",
    "det", "dft", "eigh", "eigh_tridiagonal", "expm", "expm_frechet", "fiedler", "fiedler_companion",
    "funm", "hadamard", "hankel", "helmert", "hessenberg", "hilbert", "inv", "invhilbert", "invpascal",
    "leslie", "lu", "lu_factor", "lu_solve", "pascal", "polar", "qr", "qr_multiply", "rsf2csf", "schur", "solve",
    "solve_sylvester", "solve_triangular", "sqrtm", "svd", "toeplitz",
]  # fmt: skip
