"""Result types of ``jaxtyped.scipy.linalg``: ``Array`` for single results,
tuples whose length follows the flags (``lu``'s ``permute_l``, ``qr``'s
``mode``/``pivoting``, ``svd``'s ``compute_uv``, ``eigh``'s
``eigvals_only``, ``hessenberg``'s ``calc_q``, ``expm_frechet``'s
``compute_expm``)."""

from typing_extensions import assert_type

import jaxtyped.scipy.linalg as sla
from jaxtyped.typing import Array, ArrayLike


def check(x: Array, a: ArrayLike, flag: bool) -> None:
    assert_type(sla.cholesky(a), Array)
    assert_type(sla.cho_factor(a), tuple[Array, bool])
    assert_type(sla.cho_solve((x, True), a), Array)
    assert_type(sla.solve_triangular(x, a, lower=True), Array)
    assert_type(sla.lu(a), tuple[Array, Array, Array])
    assert_type(sla.lu(a, permute_l=True), tuple[Array, Array])
    assert_type(sla.lu(a, flag), tuple[Array, Array, Array] | tuple[Array, Array])
    assert_type(sla.lu_factor(a), tuple[Array, Array])
    assert_type(sla.lu_solve((x, x), a), Array)
    assert_type(sla.qr(a), tuple[Array, Array])
    assert_type(sla.qr(a, mode="r"), tuple[Array])
    assert_type(sla.qr(a, pivoting=True), tuple[Array, Array, Array])
    assert_type(sla.qr(a, mode="r", pivoting=True), tuple[Array, Array])
    assert_type(sla.qr_multiply(a, x), tuple[Array, Array])
    assert_type(sla.qr_multiply(a, x, pivoting=True), tuple[Array, Array, Array])
    assert_type(sla.svd(a), tuple[Array, Array, Array])
    assert_type(sla.svd(a, compute_uv=False), Array)
    assert_type(sla.svd(a, compute_uv=flag), Array | tuple[Array, Array, Array])
    assert_type(sla.eigh(a), tuple[Array, Array])
    assert_type(sla.eigh(a, eigvals_only=True), Array)
    assert_type(sla.det(a), Array)
    assert_type(sla.inv(a), Array)
    assert_type(sla.solve(x, a, assume_a="sym"), Array)
    assert_type(sla.schur(a), tuple[Array, Array])
    assert_type(sla.rsf2csf(a, x), tuple[Array, Array])
    assert_type(sla.hessenberg(a), Array)
    assert_type(sla.hessenberg(a, calc_q=True), tuple[Array, Array])
    assert_type(sla.polar(a), tuple[Array, Array])
    assert_type(sla.expm(a), Array)
    assert_type(sla.expm_frechet(a, x), tuple[Array, Array])
    assert_type(sla.expm_frechet(a, x, compute_expm=False), Array)
    assert_type(sla.sqrtm(a), Array)
    assert_type(sla.funm(a, lambda w: w * 2), Array)
    assert_type(sla.funm(a, lambda w: w * 2, disp=False), tuple[Array, Array])
    assert_type(sla.solve_sylvester(a, x, a), Array)
    assert_type(sla.eigh_tridiagonal(a, x), tuple[Array, Array])
    assert_type(sla.eigh_tridiagonal(a, x, eigvals_only=True), Array)
    assert_type(sla.block_diag(a, x), Array)
    assert_type(sla.toeplitz(a), Array)
    assert_type(sla.hankel(a, x), Array)
    assert_type(sla.circulant(a), Array)
    assert_type(sla.companion(a), Array)
    assert_type(sla.fiedler_companion(a), Array)
    assert_type(sla.leslie(a, x), Array)
    assert_type(sla.fiedler(a), Array)
    assert_type(sla.convolution_matrix(a, 3), Array)
    assert_type(sla.hilbert(3), Array)
    assert_type(sla.invhilbert(3), Array)
    assert_type(sla.pascal(3), Array)
    assert_type(sla.invpascal(3, "upper"), Array)
    assert_type(sla.helmert(3), Array)
    assert_type(sla.dft(3), Array)
    assert_type(sla.hadamard(4), Array)
