"""Linear algebra with JAX's ``jax.numpy.linalg`` names, signatures and
semantics: norms, products, decompositions (with JAX's result named
tuples), solvers and determinants, batched over leading dimensions and
differentiable as JAX's.

Example:
    >>> import jaxtyped.numpy as jnp
    >>> jnp.linalg.det(jnp.array([[2.0, 1.0], [1.0, 3.0]]))
    Array(5., dtype=float32)
"""

from jaxtyped._src.numpy.linalg import (
    EighResult,
    EigResult,
    QRResult,
    SlogdetResult,
    SVDResult,
    cholesky,
    cond,
    cross,
    det,
    diagonal,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    inv,
    lstsq,
    matmul,
    matrix_norm,
    matrix_power,
    matrix_rank,
    matrix_transpose,
    multi_dot,
    norm,
    outer,
    pinv,
    qr,
    slogdet,
    solve,
    svd,
    svdvals,
    tensordot,
    tensorinv,
    tensorsolve,
    trace,
    vecdot,
    vector_norm,
)

__all__: list[str] = [
    "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
    "lstsq", "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "multi_dot",
    "norm", "outer", "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "tensorinv",
    "tensorsolve", "trace", "vecdot", "vector_norm",
    "EigResult", "EighResult", "QRResult", "SVDResult", "SlogdetResult",
]  # fmt: skip
