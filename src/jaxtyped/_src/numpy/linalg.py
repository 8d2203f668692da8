"""``jnp.linalg`` (layer L5): every name of JAX's ``jax.numpy.linalg``,
gathered from the family's modules: products and views
(``linalg_products``), norms (``linalg_norms``), decompositions with their
result named tuples (``linalg_decompositions``), and solvers and
determinants (``linalg_solvers``)."""

from jaxtyped._src.numpy.linalg_decompositions import (
    EigResult,
    EighResult,
    QRResult,
    SVDResult,
    cholesky,
    eig,
    eigh,
    eigvals,
    eigvalsh,
    qr,
    svd,
    svdvals,
)
from jaxtyped._src.numpy.linalg_norms import matrix_norm, norm, vector_norm
from jaxtyped._src.numpy.linalg_products import (
    cross,
    diagonal,
    matmul,
    matrix_transpose,
    multi_dot,
    outer,
    tensordot,
    trace,
    vecdot,
)
from jaxtyped._src.numpy.linalg_solvers import (
    SlogdetResult,
    cond,
    det,
    inv,
    lstsq,
    matrix_power,
    matrix_rank,
    pinv,
    slogdet,
    solve,
    tensorinv,
    tensorsolve,
)

__all__ = [
    "cholesky", "cond", "cross", "det", "diagonal", "eig", "eigh", "eigvals", "eigvalsh", "inv",
    "lstsq", "matmul", "matrix_norm", "matrix_power", "matrix_rank", "matrix_transpose", "multi_dot",
    "norm", "outer", "pinv", "qr", "slogdet", "solve", "svd", "svdvals", "tensordot", "tensorinv",
    "tensorsolve", "trace", "vecdot", "vector_norm",
    "EigResult", "EighResult", "QRResult", "SVDResult", "SlogdetResult",
]  # fmt: skip
