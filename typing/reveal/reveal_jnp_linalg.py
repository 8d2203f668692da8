"""Return types of jnp.linalg: arrays for norms, products and solvers; the
decompositions' named tuples with JAX's field names; the flag-dependent
overloads (``svd(compute_uv=False)`` and ``qr(mode="r")`` return one Array);
``lstsq``'s four arrays."""

from typing import Any

import numpy as np
from typing_extensions import assert_type

import jaxtyped.numpy as jnp
from jaxtyped.numpy.linalg import EighResult, EigResult, QRResult, SlogdetResult, SVDResult
from jaxtyped.typing import Array, ArrayLike


def check(x: Array, a: ArrayLike, n: "np.ndarray[Any, np.dtype[np.float32]]", flag: bool, mode: str) -> None:
    assert_type(jnp.linalg.norm(x), Array)
    assert_type(jnp.linalg.norm(a, "fro", (0, 1)), Array)
    assert_type(jnp.linalg.vector_norm(n, ord=1), Array)
    assert_type(jnp.linalg.matrix_norm(x, keepdims=True), Array)
    assert_type(jnp.linalg.matmul(x, a), Array)
    assert_type(jnp.linalg.tensordot(x, x, axes=([0], [1])), Array)
    assert_type(jnp.linalg.vecdot(x, n), Array)
    assert_type(jnp.linalg.outer(a, a), Array)
    assert_type(jnp.linalg.cross(x, x, axis=0), Array)
    assert_type(jnp.linalg.trace(x, offset=1, dtype=jnp.float32), Array)
    assert_type(jnp.linalg.diagonal(n), Array)
    assert_type(jnp.linalg.matrix_transpose(a), Array)
    assert_type(jnp.linalg.multi_dot([x, a, n]), Array)
    assert_type(jnp.linalg.matrix_power(x, -2), Array)
    assert_type(jnp.linalg.cholesky(a), Array)
    assert_type(jnp.linalg.qr(x), QRResult)
    assert_type(jnp.linalg.qr(x, "complete"), QRResult)
    assert_type(jnp.linalg.qr(x, mode="r"), Array)
    assert_type(jnp.linalg.qr(x, mode), Array | QRResult)
    assert_type(jnp.linalg.qr(x).Q, Array)
    assert_type(jnp.linalg.svd(x), SVDResult)
    assert_type(jnp.linalg.svd(x, compute_uv=False), Array)
    assert_type(jnp.linalg.svd(x, False, False), Array)
    assert_type(jnp.linalg.svd(x, compute_uv=flag), Array | SVDResult)
    assert_type(jnp.linalg.svd(x).Vh, Array)
    assert_type(jnp.linalg.svdvals(n), Array)
    assert_type(jnp.linalg.eigh(x), EighResult)
    assert_type(jnp.linalg.eigh(x).eigenvectors, Array)
    assert_type(jnp.linalg.eigvalsh(a), Array)
    assert_type(jnp.linalg.eig(x), EigResult)
    assert_type(jnp.linalg.eigvals(x), Array)
    assert_type(jnp.linalg.inv(n), Array)
    assert_type(jnp.linalg.solve(x, a), Array)
    assert_type(jnp.linalg.det(x), Array)
    assert_type(jnp.linalg.slogdet(x), SlogdetResult)
    assert_type(jnp.linalg.slogdet(x).logabsdet, Array)
    assert_type(jnp.linalg.lstsq(x, a), tuple[Array, Array, Array, Array])
    assert_type(jnp.linalg.pinv(x, hermitian=True), Array)
    assert_type(jnp.linalg.matrix_rank(x), Array)
    assert_type(jnp.linalg.cond(x, 1), Array)
    assert_type(jnp.linalg.tensorinv(x, ind=1), Array)
    assert_type(jnp.linalg.tensorsolve(x, a, axes=(0,)), Array)
