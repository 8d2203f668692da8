"""``jaxtyped.scipy.linalg`` against ``jax.scipy.linalg``.

Each case is ``fn(L)`` for ``L`` in (``jaxtyped.numpy``, ``jax.numpy``);
``sla_of(L)`` gives the matching ``scipy.linalg`` module. Results that are
unique (Cholesky factors, triangular and general solves, LU with the same
pivoting kernel, determinants, inverses, ``expm``, singular values and
eigenvalues, the polar factors, the special matrices) are compared with
JAX's values, dtypes, weak types and shapes, on random, batched,
ill-conditioned and complex inputs; decompositions that are unique only up
to sign or phase (QR, SVD vectors, eigenvectors, Schur, Hessenberg) through
reconstruction and orthogonality. Also: JAX's errors; eager == jit;
``vmap`` == a Python loop; ``check_grads`` at order 2 in both modes for
every differentiable function, and gradients against ``jax.grad``; and a
census of ``jax.scipy.linalg``'s names.
"""

from collections.abc import Callable
from typing import Any, Literal

import numpy as np
import pytest
from oracle import Case, CaseTable, Group, Namespace, assert_same, call_in, debug_violations, jax, library

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy.linalg as sla
from jaxtyped.test_util import check_grads

jax_sla: Any = pytest.importorskip("jax.scipy.linalg")

RNG = np.random.default_rng(14)


def sla_of(L: Namespace) -> Any:
    """The ``scipy.linalg`` module that goes with the numpy namespace ``L``."""
    return sla if L is jnp else jax_sla


def _call(name: str, *args: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
    return call_in(sla_of, name, *args, **kwargs)


def _f32(*shape: int) -> np.ndarray[Any, Any]:
    return RNG.standard_normal(shape).astype(np.float32)


def _c64(*shape: int) -> np.ndarray[Any, Any]:
    return (RNG.standard_normal(shape) + 1j * RNG.standard_normal(shape)).astype(np.complex64)


def _spd(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A Hermitian positive-definite matrix (or batch) from ``x``."""
    n = x.shape[-1]
    return np.asarray(x @ np.swapaxes(x, -1, -2).conj() + n * np.eye(n), dtype=x.dtype)


# Inputs shared by the tables (few shapes: every new shape is a compile).
A = _f32(4, 4)
A_BATCH = _f32(3, 4, 4)
S = _spd(A)
S_BATCH = _spd(A_BATCH)
B = _f32(4, 2)
V = _f32(4)
TALL = _f32(5, 3)
Z = _c64(4, 4)
H = _spd(Z)
ZB = _c64(4, 2)
# An ill-conditioned (cond ~ 1e6) but well-defined system.
ILL = (np.diag([1.0, 1e-2, 1e-4, 1e-6]) @ np.linalg.qr(RNG.standard_normal((4, 4)))[0]).astype(np.float32)
UPPER = np.triu(A) + 4 * np.eye(4, dtype=np.float32)
LOWER = np.tril(A) + 4 * np.eye(4, dtype=np.float32)


# === special matrices ===


def _matrix_cases() -> list[Case]:
    c, r = _f32(2, 3), _f32(4)
    z = _c64(3)
    i3 = np.array([1, 2, 3], np.int32)
    return [
        Case("block_diag-empty", _call("block_diag")),
        Case("block_diag-scalars", _call("block_diag", 1, 2.0)),
        Case("block_diag-mixed", _call("block_diag", i3[:2], A[:2, :3], np.array(3.0, np.float32))),
        Case("block_diag-ints", _call("block_diag", 1, 2)),
        Case("block_diag-complex", _call("block_diag", z, A[:2, :2])),
        Case("block_diag-3d", _call("block_diag", A_BATCH)),
        Case("toeplitz-c", _call("toeplitz", c)),
        Case("toeplitz-cr", _call("toeplitz", c, r)),
        Case("toeplitz-complex", _call("toeplitz", z)),
        Case("toeplitz-scalar", _call("toeplitz", 1.0)),
        Case("toeplitz-int_float", _call("toeplitz", i3, r)),
        Case("toeplitz-list", _call("toeplitz", [1.0, 2.0])),
        Case("hankel-c", _call("hankel", c)),
        Case("hankel-cr", _call("hankel", c, r)),
        Case("hankel-complex", _call("hankel", z)),
        Case("hankel-scalar", _call("hankel", np.array(2.0, np.float32))),
        Case("circulant-batch", _call("circulant", c)),
        Case("circulant-scalar", _call("circulant", 2.0)),
        Case("circulant-int", _call("circulant", i3)),
        Case("companion-batch", _call("companion", c)),
        Case("companion-int", _call("companion", i3)),
        Case("companion-complex", _call("companion", z)),
        Case("companion-short", _call("companion", np.array([2.0], np.float32))),
        Case("leslie-batch", _call("leslie", c, r[:2])),
        Case("leslie-int", _call("leslie", i3[:2], i3[:1])),
        Case("leslie-short", _call("leslie", np.array([1.0], np.float32), np.zeros(0, np.float32))),
        Case("leslie-mismatch", _call("leslie", c, r[:1])),
        Case("fiedler-batch", _call("fiedler", c)),
        Case("fiedler-complex", _call("fiedler", z)),
        Case("fiedler-int", _call("fiedler", i3)),
        Case("hilbert-3", _call("hilbert", 3)),
        Case("hilbert-0", _call("hilbert", 0)),
        Case("pascal-symmetric", _call("pascal", 5)),
        Case("pascal-lower", _call("pascal", 5, "lower")),
        Case("pascal-upper", _call("pascal", 5, "upper")),
        Case("pascal-bad", _call("pascal", 4, "x")),
        Case("helmert-4", _call("helmert", 4)),
        Case("helmert-full", _call("helmert", 4, True)),
        Case("helmert-1", _call("helmert", 1)),
        Case("dft-3", _call("dft", 3)),
        Case("dft-sqrtn", _call("dft", 4, "sqrtn")),
        Case("dft-n", _call("dft", 3, "n")),
        Case("dft-bad", _call("dft", 3, "x")),
        Case("hadamard-4", _call("hadamard", 4)),
        Case("hadamard-float", _call("hadamard", 2, np.float32)),
        Case("hadamard-bad", _call("hadamard", 3)),
        Case("convolution_matrix-full", _call("convolution_matrix", c[0], 4)),
        Case("convolution_matrix-same", _call("convolution_matrix", r, 6, "same")),
        Case("convolution_matrix-same_short", _call("convolution_matrix", r, 3, "same")),
        Case("convolution_matrix-valid", _call("convolution_matrix", r, 2, "valid")),
        Case("convolution_matrix-valid_long", _call("convolution_matrix", r, 6, "valid")),
        Case("convolution_matrix-batch_int", _call("convolution_matrix", np.stack([i3, i3]), 4)),
        Case("convolution_matrix-bad_n", _call("convolution_matrix", r, 0)),
        Case("convolution_matrix-bad_mode", _call("convolution_matrix", r, 2, "x")),
        Case("convolution_matrix-scalar", _call("convolution_matrix", np.array(1.0, np.float32), 2)),
        Case("fiedler_companion-7", _call("fiedler_companion", np.arange(2, 9, dtype=np.float32))),
        Case("fiedler_companion-6", _call("fiedler_companion", np.arange(2, 8, dtype=np.float32))),
        Case("fiedler_companion-batch", _call("fiedler_companion", A)),
        Case("fiedler_companion-int", _call("fiedler_companion", i3)),
        Case("fiedler_companion-complex", _call("fiedler_companion", z)),
        Case("fiedler_companion-short", _call("fiedler_companion", np.array([2.0], np.float32))),
        Case("fiedler_companion-scalar", _call("fiedler_companion", 2.0)),
        Case("invhilbert-4", _call("invhilbert", 4), rtol=1e-4, atol=1e-2),
        Case("invhilbert-1", _call("invhilbert", 1)),
        Case("invpascal-symmetric", _call("invpascal", 5), rtol=1e-4, atol=1e-4),
        Case("invpascal-lower", _call("invpascal", 5, "lower"), rtol=1e-4, atol=1e-4),
        Case("invpascal-upper", _call("invpascal", 5, "upper"), rtol=1e-4, atol=1e-4),
        Case("invpascal-bad", _call("invpascal", 4, "x")),
    ]


MATRICES = CaseTable("scipy_linalg_matrices", _matrix_cases)


# === unique results, compared with JAX's values ===


def _unique_cases() -> list[Case]:
    loose = {"rtol": 2e-4, "atol": 2e-4}
    return [
        # Cholesky: either triangle, batched, complex, integer, not positive definite (NaN).
        Case("cholesky-upper", _call("cholesky", S)),
        Case("cholesky-lower", _call("cholesky", S, lower=True)),
        Case("cholesky-batch", _call("cholesky", S_BATCH)),
        Case("cholesky-complex", _call("cholesky", H), **loose),
        Case("cholesky-complex_lower", _call("cholesky", H, lower=True), **loose),
        Case("cholesky-int", _call("cholesky", np.eye(3, dtype=np.int32))),
        Case("cholesky-not_pd", _call("cholesky", A)),
        Case("cholesky-nonsquare", _call("cholesky", TALL)),
        # (jit turns cho_factor's Python bool into an array: compare the factor; the flag below.)
        Case("cho_factor-upper", lambda L: sla_of(L).cho_factor(L.asarray(S))[0]),
        Case("cho_factor-lower", lambda L: sla_of(L).cho_factor(L.asarray(H), True)[0], **loose),
        Case("cho_solve-upper", lambda L: sla_of(L).cho_solve(sla_of(L).cho_factor(L.asarray(S)), L.asarray(B)), **loose),
        Case("cho_solve-lower_vec", lambda L: sla_of(L).cho_solve((L.asarray(np.linalg.cholesky(S)), True), L.asarray(V)), **loose),
        Case("cho_solve-complex", lambda L: sla_of(L).cho_solve(sla_of(L).cho_factor(L.asarray(H), True), L.asarray(ZB)), **loose),
        Case("cho_solve-batch", lambda L: sla_of(L).cho_solve(sla_of(L).cho_factor(L.asarray(S_BATCH)), L.asarray(B)), **loose),
        Case("cho_solve-mismatch", _call("cho_solve", (S, False), np.ones(5, np.float32))),
        # Triangular solves: every trans, unit diagonal, vectors, batches, complex.
        Case("solve_triangular-upper", _call("solve_triangular", UPPER, B), **loose),
        Case("solve_triangular-lower_t", _call("solve_triangular", LOWER, V, trans=1, lower=True), **loose),
        Case("solve_triangular-T", _call("solve_triangular", LOWER, B, trans="T", lower=True), **loose),
        Case("solve_triangular-unit", _call("solve_triangular", UPPER, V, unit_diagonal=True), **loose),
        Case("solve_triangular-complex_C", _call("solve_triangular", np.triu(H), ZB, trans="C"), **loose),
        Case("solve_triangular-complex_2", _call("solve_triangular", np.tril(H), ZB, trans=2, lower=True), **loose),
        Case("solve_triangular-batch_a", _call("solve_triangular", np.triu(S_BATCH), B), **loose),
        Case("solve_triangular-batch_vec", _call("solve_triangular", np.triu(S_BATCH), V), **loose),
        Case("solve_triangular-batch_b", _call("solve_triangular", UPPER, A_BATCH[:, :, :2]), **loose),
        Case("solve_triangular-int", _call("solve_triangular", np.eye(3, dtype=np.int32), np.ones(3, np.int32))),
        Case("solve_triangular-mismatch", _call("solve_triangular", UPPER, np.ones(5, np.float32))),
        Case("solve_triangular-batch_mismatch", _call("solve_triangular", S_BATCH, np.ones((2, 4, 2), np.float32))),
        Case("solve_triangular-bad_trans", _call("solve_triangular", UPPER, V, trans=3)),
        # LU: same pivoting kernel as JAX, so the factors agree exactly.
        Case("lu_factor-square", _call("lu_factor", A)),
        Case("lu_factor-tall", _call("lu_factor", TALL)),
        Case("lu_factor-complex", _call("lu_factor", Z)),
        Case("lu-square", _call("lu", A)),
        Case("lu-tall", _call("lu", TALL)),
        Case("lu-wide", _call("lu", TALL.T)),
        Case("lu-permute_l", _call("lu", TALL.T, permute_l=True)),
        Case("lu-complex", _call("lu", Z)),
        Case("lu-int", _call("lu", np.eye(3, dtype=np.int32))),
        Case("lu_solve-trans0", lambda L: sla_of(L).lu_solve(sla_of(L).lu_factor(L.asarray(A)), L.asarray(B)), **loose),
        Case("lu_solve-trans1", lambda L: sla_of(L).lu_solve(sla_of(L).lu_factor(L.asarray(A)), L.asarray(V), trans=1), **loose),
        Case("lu_solve-trans2", lambda L: sla_of(L).lu_solve(sla_of(L).lu_factor(L.asarray(Z)), L.asarray(ZB), trans=2), **loose),
        Case("lu_solve-batch", lambda L: sla_of(L).lu_solve(sla_of(L).lu_factor(L.asarray(A_BATCH)), L.asarray(B)), **loose),
        Case("lu_solve-bad_trans", lambda L: sla_of(L).lu_solve(sla_of(L).lu_factor(L.asarray(A)), L.asarray(B), trans=3)),
        # det, inv, solve
        Case("det-square", _call("det", A), **loose),
        Case("det-batch", _call("det", A_BATCH), **loose),
        Case("det-int", _call("det", np.eye(2, dtype=np.int32))),
        Case("det-singular", _call("det", np.ones((4, 4), np.float32))),
        Case("inv-square", _call("inv", A), **loose),
        Case("inv-int", _call("inv", np.eye(2, dtype=np.int32))),
        Case("inv-ill", _call("inv", ILL), rtol=2e-2, atol=2.0),
        Case("inv-nonsquare", _call("inv", TALL)),
        Case("solve-gen", _call("solve", A, B), **loose),
        Case("solve-sym", _call("solve", S, V, assume_a="sym"), **loose),
        Case("solve-pos", _call("solve", S, B, assume_a="pos"), **loose),
        Case("solve-pos_lower_vec", _call("solve", S, V, lower=True, assume_a="pos"), **loose),
        Case("solve-pos_complex", _call("solve", H, ZB, assume_a="pos"), **loose),
        Case("solve-pos_mismatch", _call("solve", S, np.ones(5, np.float32), assume_a="pos")),
        Case("solve-bad_assume", _call("solve", S, V, assume_a="x")),
        Case("solve-int", _call("solve", np.eye(2, dtype=np.int32), np.ones(2, np.int32))),
        # expm: each Pade degree (by the norm), many squarings, NaN past max_squarings, batches, complex.
        Case("expm-small", _call("expm", 0.01 * A)),
        Case("expm-pade5", _call("expm", 0.3 * A), **loose),
        Case("expm-unit", _call("expm", A), **loose),
        Case("expm-scaled", _call("expm", 5 * A), rtol=1e-3, atol=1e-3),
        Case("expm-too_many", _call("expm", 1e6 * A)),
        Case("expm-max_squarings", _call("expm", 5 * A, max_squarings=1)),
        Case("expm-batch", _call("expm", A_BATCH), **loose),
        Case("expm-complex", _call("expm", Z), **loose),
        Case("expm-upper", _call("expm", np.triu(A), upper_triangular=True), **loose),
        Case("expm-zero", _call("expm", np.zeros((3, 3), np.float32))),
        Case("expm-int", _call("expm", np.eye(3, dtype=np.int32)), **loose),
        Case("expm-vector", _call("expm", V)),
        Case("expm-nonsquare", _call("expm", TALL)),
        Case("expm-float16", _call("expm", np.eye(2, dtype=np.float16))),
        Case("expm-empty", _call("expm", np.zeros((0, 0), np.float32))),
        Case("cholesky-empty", _call("cholesky", np.zeros((0, 0), np.float32))),
        Case("det-empty", _call("det", np.zeros((0, 0), np.float32))),
        Case("solve_triangular-empty", _call("solve_triangular", np.zeros((0, 0), np.float32), np.zeros(0, np.float32))),
        # Unique parts of the other decompositions.
        Case("svd-values", _call("svd", TALL, compute_uv=False), **loose),
        Case("svd-values_complex", _call("svd", Z, compute_uv=False), **loose),
        Case("svd-values_batch", _call("svd", A_BATCH, False, False), **loose),
        Case("eigh-values", _call("eigh", S, eigvals_only=True), **loose),
        Case("eigh-values_upper", _call("eigh", S, None, False, True), **loose),
        Case("eigh-values_complex", _call("eigh", H, eigvals_only=True), **loose),
        Case("eigh-b", _call("eigh", S, S)),
        Case("eigh-type", _call("eigh", S, type=2)),
        Case("eigh-nonsquare", _call("eigh", TALL)),
        Case("sqrtm-spd", _call("sqrtm", S), **loose),
        Case("sqrtm-general", _call("sqrtm", A), rtol=1e-3, atol=1e-3),
        Case("sqrtm-complex", _call("sqrtm", H), rtol=1e-3, atol=1e-3),
        Case("sqrtm-zero", _call("sqrtm", np.zeros((3, 3), np.float32))),
        Case("sqrtm-nilpotent", _call("sqrtm", np.array([[0.0, 1.0], [0.0, 0.0]], np.float32))),
        Case("sqrtm-int", _call("sqrtm", np.eye(3, dtype=np.int32))),
        Case("sqrtm-batch", _call("sqrtm", S_BATCH)),
        Case("sqrtm-blocked", _call("sqrtm", S, blocksize=2)),
        Case("funm-exp", lambda L: sla_of(L).funm(L.asarray(0.5 * A), L.exp), rtol=1e-3, atol=1e-3),
        Case("funm-sin_complex", lambda L: sla_of(L).funm(L.asarray(0.5 * Z), L.sin), rtol=1e-3, atol=1e-3),
        Case("funm-identity", lambda L: sla_of(L).funm(L.eye(3), L.exp)),
        Case("funm-batch", lambda L: sla_of(L).funm(L.asarray(A_BATCH), L.exp)),
        Case("funm-error_estimate", lambda L: sla_of(L).funm(L.asarray(A), L.exp, disp=False), rtol=1e-3, atol=1e-3),
        Case("funm-error_complex", lambda L: sla_of(L).funm(L.asarray(Z), L.cos, disp=False), rtol=1e-3, atol=1e-3),
        Case("funm-error_repeated", lambda L: sla_of(L).funm(L.eye(3), L.exp, disp=False)),
        Case("funm-empty", lambda L: sla_of(L).funm(L.zeros((0, 0)), L.exp)),
        Case("funm-int", lambda L: sla_of(L).funm(L.eye(3, dtype=int), L.exp)),
        Case("solve_sylvester-real", _call("solve_sylvester", A, S[:2, :2], B), rtol=1e-3, atol=1e-3),
        Case("solve_sylvester-eigen", _call("solve_sylvester", S, S[:2, :2], B, method="eigen"), rtol=1e-3, atol=1e-3),
        Case("solve_sylvester-complex", _call("solve_sylvester", Z, H[:2, :2], ZB), rtol=1e-3, atol=1e-3),
        Case("solve_sylvester-batch", _call("solve_sylvester", S_BATCH, S[:2, :2], B), rtol=1e-3, atol=1e-3),
        Case("solve_sylvester-singular", _call("solve_sylvester", np.eye(2, dtype=np.float32), -np.eye(2, dtype=np.float32), B[:2])),
        Case("solve_sylvester-int", _call("solve_sylvester", np.eye(3, dtype=np.int32), np.eye(2, dtype=np.int32), np.ones((3, 2), np.int32))),
        Case("solve_sylvester-bad_method", _call("solve_sylvester", S, S[:2, :2], B, method="x")),
        Case("solve_sylvester-shapes", _call("solve_sylvester", S, S[:2, :2], B.T)),
        Case("qr_multiply-right", lambda L: L.abs(sla_of(L).qr_multiply(L.asarray(TALL), L.asarray(np.eye(5, dtype=np.float32)))[0]), **loose),
        Case("qr_multiply-left_vector", lambda L: L.abs(sla_of(L).qr_multiply(L.asarray(TALL), L.asarray(V[:3]), mode="left")[1]), **loose),
        Case("qr_multiply-bad_mode", _call("qr_multiply", TALL, B.T, mode="x")),
        Case("qr_multiply-shapes", _call("qr_multiply", TALL, B.T)),
        Case("expm_frechet-both", _call("expm_frechet", 0.5 * A, B[:, :1] @ B[:, 1:].T), **loose),
        Case("expm_frechet-derivative", _call("expm_frechet", A, A.T, compute_expm=False), rtol=1e-3, atol=1e-3),
        Case("expm_frechet-batch", _call("expm_frechet", A_BATCH, A_BATCH), rtol=1e-3, atol=1e-3),
        Case("expm_frechet-shapes", _call("expm_frechet", A, A[:2, :2])),
        Case("expm_frechet-int", _call("expm_frechet", np.eye(3, dtype=np.int32), np.eye(3, dtype=np.int32))),
        Case("expm_frechet-nonsquare", _call("expm_frechet", TALL, TALL)),
        Case("eigh_tridiagonal-values", _call("eigh_tridiagonal", V, B[:3, 0], eigvals_only=True), **loose),
        Case("eigh_tridiagonal-index", _call("eigh_tridiagonal", V, B[:3, 0], eigvals_only=True, select="i", select_range=(1, 2)), **loose),
        Case("eigh_tridiagonal-value_range", _call("eigh_tridiagonal", V, B[:3, 0], select="v", select_range=(0.0, 1.0))),
        Case("eigh_tridiagonal-bad_select", _call("eigh_tridiagonal", V, B[:3, 0], select="x")),
        Case("eigh_tridiagonal-complex", _call("eigh_tridiagonal", V, ZB[:3, 0])),
        Case("eigh_tridiagonal-int", _call("eigh_tridiagonal", np.ones(4, np.int32), np.ones(3, np.int32))),
        Case("eigh_tridiagonal-lengths", _call("eigh_tridiagonal", V, V)),
        Case("polar-right", _call("polar", A), **loose),
        Case("polar-left_svd", _call("polar", TALL, "left", method="svd"), **loose),
        Case("polar-tall", _call("polar", TALL), **loose),
        Case("polar-batch", _call("polar", A_BATCH), **loose),
        Case("polar-wide_left", _call("polar", TALL.T, "left"), **loose),
        Case("polar-wide_right_qdwh", _call("polar", TALL.T)),
        Case("polar-square_left_qdwh", _call("polar", A, "left")),
        Case("polar-square_left_svd", _call("polar", A, "left", method="svd"), **loose),
        Case("polar-bad_side", _call("polar", A, "up")),
        Case("polar-bad_method", _call("polar", A, method="newton")),
        Case("qr-r_only", lambda L: L.abs(sla_of(L).qr(L.asarray(TALL), mode="r")[0]), **loose),
        Case("qr-raw", _call("qr", TALL, mode="raw")),
        Case("qr-bad", _call("qr", TALL, mode="x")),
        Case("schur-bad", _call("schur", A, output="x")),
        Case("schur-int", _call("schur", np.eye(2, dtype=np.int32))),
    ]


UNIQUE = CaseTable("scipy_linalg_unique", _unique_cases)


def _x64_cases() -> list[Case]:
    a, s, b = A.astype(np.float64), S.astype(np.float64), B.astype(np.float64)
    tight = {"rtol": 1e-10, "atol": 1e-10}
    return [
        # float64 takes expm's double-precision Pade degrees (up to 13).
        Case("expm-f64_pade9", _call("expm", 0.5 * a), **tight),
        Case("expm-f64_pade13", _call("expm", 5 * a), rtol=1e-9, atol=1e-9),
        Case("expm-int64", _call("expm", np.eye(3, dtype=np.int64)), **tight),
        Case("cholesky-f64", _call("cholesky", s), **tight),
        Case("solve_triangular-f64", _call("solve_triangular", np.triu(s), b), **tight),
        Case("solve-f64_pos", _call("solve", s, b, assume_a="pos"), **tight),
        Case("lu-f64", _call("lu", a), **tight),
        Case("hilbert-f64", _call("hilbert", 4), **tight),
        Case("dft-c128", _call("dft", 4), **tight),
        Case("helmert-f64", _call("helmert", 3), **tight),
        Case("companion-int64", _call("companion", np.array([2, 3, 4], np.int64)), **tight),
        Case("sqrtm-f64", _call("sqrtm", s), rtol=1e-9, atol=1e-9),
    ]


UNIQUE64 = CaseTable("scipy_linalg_x64", _x64_cases, x64=True)

TABLES = {"matrices": MATRICES, "unique": UNIQUE, "x64": UNIQUE64}


# Cases passing a string outside a parameter's Literal type: JAX raises
# ValueError; under JAXTYPED_DEBUG=1 the call is ill-typed and beartype
# raises DebugTypeError first (checked separately below).
ILL_TYPED = {
    "pascal-bad", "invpascal-bad", "dft-bad", "convolution_matrix-bad_mode", "solve-bad_assume",
    "solve_sylvester-bad_method", "qr_multiply-bad_mode", "eigh_tridiagonal-bad_select", "schur-bad",
    "polar-bad_side", "polar-bad_method",
}  # fmt: skip


@pytest.mark.parametrize(
    ("table", "group"),
    [pytest.param(name, p.values[0], id=f"{name}-{p.id}") for name, table in TABLES.items() for p in table.params()],
)
def test_matches_jax(table: str, group: Group) -> None:
    TABLES[table].check(tuple(c for c in group if not (jt.DEBUG and c.id in ILL_TYPED)))


def test_ill_typed_options_are_rejected() -> None:
    cases = {c.id: c for table in TABLES.values() for c in table.cases if c.id in ILL_TYPED}
    assert set(cases) == ILL_TYPED
    for case in cases.values():
        with pytest.raises((ValueError, *debug_violations())):
            case.fn(jnp)


# === decompositions unique up to sign/phase: reconstruction and orthogonality ===


def _close(x: Any, y: Any, tol: float = 2e-4) -> None:
    np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=tol, atol=tol)


def _unitary_columns(q: Any) -> None:
    q = np.asarray(q)
    _close(np.swapaxes(q, -1, -2).conj() @ q, np.broadcast_to(np.eye(q.shape[-1]), q.shape[:-2] + (q.shape[-1],) * 2))


RECONSTRUCT = [A, TALL, TALL.T, Z, A_BATCH]


@pytest.mark.parametrize("x", RECONSTRUCT, ids=["square", "tall", "wide", "complex", "batch"])
def test_qr_reconstructs(x: np.ndarray[Any, Any]) -> None:
    for mode in ("full", "economic"):
        q, r = sla.qr(x, mode=mode)
        theirs = jax_sla.qr(x, mode=mode)
        assert (q.shape, r.shape, q.dtype) == (theirs[0].shape, theirs[1].shape, theirs[0].dtype)
        _close(np.asarray(q) @ np.asarray(r), x)
        _unitary_columns(q)
        _close(np.asarray(r), np.triu(np.asarray(r)))
    if x.ndim == 2:
        q, r, p = sla.qr(x, pivoting=True)
        _close(np.asarray(q) @ np.asarray(r), x[:, np.asarray(p)])


@pytest.mark.parametrize("x", RECONSTRUCT, ids=["square", "tall", "wide", "complex", "batch"])
def test_svd_reconstructs(x: np.ndarray[Any, Any]) -> None:
    u, s, vh = sla.svd(x, full_matrices=False)
    _close(np.asarray(u) * np.asarray(s)[..., None, :] @ np.asarray(vh), x)
    _unitary_columns(u)
    _unitary_columns(np.swapaxes(np.asarray(vh), -1, -2).conj())
    full = sla.svd(x)
    theirs = jax_sla.svd(x)
    assert [a.shape for a in full] == [a.shape for a in theirs]
    _close(s, theirs[1] if x.shape[-1] <= x.shape[-2] else jax_sla.svd(x, compute_uv=False))


@pytest.mark.parametrize("x", [S, H, S_BATCH], ids=["real", "complex", "batch"])
def test_eigh_reconstructs(x: np.ndarray[Any, Any]) -> None:
    for lower in (True, False):
        w, v = sla.eigh(x, lower=lower)
        _close(np.asarray(v) * np.asarray(w)[..., None, :] @ np.swapaxes(np.asarray(v), -1, -2).conj(), x, 1e-3)
        _unitary_columns(v)
        _close(w, jax_sla.eigh(x, lower=lower, eigvals_only=True), 1e-3)


@pytest.mark.parametrize("output", ["real", "complex"])
@pytest.mark.parametrize("x", [A, Z], ids=["real", "complex"])
def test_schur_reconstructs(x: np.ndarray[Any, Any], output: Literal["real", "complex"]) -> None:
    t, q = sla.schur(x, output=output)
    theirs = jax_sla.schur(x, output=output)
    assert (t.dtype, q.dtype, t.shape) == (theirs[0].dtype, theirs[1].dtype, theirs[0].shape)
    _close(np.asarray(q) @ np.asarray(t) @ np.asarray(q).conj().T, x)
    _unitary_columns(q)
    below = np.tril(np.asarray(t), -1 if output == "complex" or x.dtype.kind == "c" else -2)
    _close(below, np.zeros_like(below))


@pytest.mark.parametrize("x", [A, Z, A_BATCH], ids=["real", "complex", "batch"])
def test_hessenberg_reconstructs(x: np.ndarray[Any, Any]) -> None:
    h, q = sla.hessenberg(x, calc_q=True)
    assert h.shape == x.shape and h.dtype == x.dtype
    _close(np.asarray(q) @ np.asarray(h) @ np.swapaxes(np.asarray(q), -1, -2).conj(), x)
    _unitary_columns(q)
    _close(np.tril(np.asarray(h), -2), np.zeros(x.shape))
    _close(sla.hessenberg(x), h)
    if x.ndim == 2:
        theirs_h, theirs_q = jax_sla.hessenberg(x, calc_q=True)
        _close(np.abs(np.asarray(h)), np.abs(np.asarray(theirs_h)))
        _close(np.abs(np.asarray(q)), np.abs(np.asarray(theirs_q)))


@pytest.mark.filterwarnings("ignore:.*batched 1D solves:FutureWarning")
def test_batched_vector_right_hand_sides() -> None:
    # b of a's batch shape plus n: a batch of vectors (JAX warns that this
    # rule will change; it is its current behaviour).
    tri, spd, vecs = np.triu(S_BATCH), S_BATCH, A_BATCH[:, 0]
    lu_piv = sla.lu_factor(A_BATCH)
    pairs = [
        (sla.solve_triangular(tri, vecs), jax_sla.solve_triangular(tri, vecs)),
        (sla.cho_solve(sla.cho_factor(spd), vecs), jax_sla.cho_solve(jax_sla.cho_factor(spd), vecs)),
        (sla.lu_solve(lu_piv, vecs), jax_sla.lu_solve(jax_sla.lu_factor(A_BATCH), vecs)),
        (sla.solve(spd, vecs, assume_a="pos"), jax_sla.solve(spd, vecs, assume_a="pos")),
        # (JAX's pos solve of a batch of matrices goes through the same path and warns too.)
        (sla.solve(spd, A_BATCH[:, :, :2], assume_a="pos"), jax_sla.solve(spd, A_BATCH[:, :, :2], assume_a="pos")),
    ]
    for ours, theirs in pairs:
        assert_same(ours, theirs, rtol=2e-4, atol=2e-4)


def test_qr_multiply_applies_q() -> None:
    c = _f32(2, 5)
    product, r = sla.qr_multiply(TALL, c)
    q, r2 = sla.qr(TALL, mode="economic")
    _close(product, c @ np.asarray(q))
    _close(r, r2)
    left, _, perm = sla.qr_multiply(TALL, V[:3], mode="left", pivoting=True)
    q3, _, perm3 = sla.qr(TALL, mode="economic", pivoting=True)
    _close(left, np.asarray(q3) @ V[:3])
    assert np.array_equal(np.asarray(perm), np.asarray(perm3))


def _real_schur(x: np.ndarray[Any, Any]) -> tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    t, z = jax_sla.schur(x)
    return np.asarray(t), np.asarray(z)


@pytest.mark.parametrize("x", [A, _f32(5, 5)], ids=["4", "5"])
def test_rsf2csf_matches_jax_and_reconstructs(x: np.ndarray[Any, Any]) -> None:
    t, z = _real_schur(x)
    ours = sla.rsf2csf(t, z)
    assert_same(ours, jax_sla.rsf2csf(t, z), rtol=2e-4, atol=2e-4)
    tc, zc = (np.asarray(o) for o in ours)
    _close(zc @ tc @ zc.conj().T, x)
    _close(np.tril(tc, -1), np.zeros_like(tc))
    _unitary_columns(zc)


def test_rsf2csf_batched_and_errors() -> None:
    pairs = [_real_schur(m) for m in A_BATCH]
    t, z = np.stack([p[0] for p in pairs]), np.stack([p[1] for p in pairs])
    assert_same(sla.rsf2csf(t, z), jax_sla.rsf2csf(t, z), rtol=2e-4, atol=2e-4)
    with pytest.raises(ValueError):
        sla.rsf2csf(t, z[0])
    with pytest.raises(ValueError):
        sla.rsf2csf(TALL, TALL)


def test_solve_sylvester_solves() -> None:
    x = np.asarray(sla.solve_sylvester(A, S[:2, :2], B))
    _close(A @ x + x @ S[:2, :2], B, 1e-3)


def test_empty_decompositions_match_jax() -> None:
    empty = np.zeros((0, 0), np.float32)
    assert_same(sla.hessenberg(empty, calc_q=True), jax_sla.hessenberg(empty, calc_q=True))
    assert_same(sla.lu(empty), jax_sla.lu(empty))
    assert_same(sla.svd(empty, compute_uv=False), jax_sla.svd(empty, compute_uv=False))


def test_lu_batched_matches_a_loop_of_jax() -> None:
    # JAX's scipy lu rejects batches; ours factors each matrix.
    p, l, u = sla.lu(A_BATCH)
    for i in range(A_BATCH.shape[0]):
        for ours, theirs in zip((p, l, u), jax_sla.lu(A_BATCH[i]), strict=True):
            _close(ours[i], theirs)


# === eager == jit, vmap == loop ===

EAGER_JIT: list[tuple[str, Callable[[jt.Array], Any]]] = [
    ("cholesky", lambda x: sla.cholesky(x @ x.T + 4 * jnp.eye(4))),
    ("cho_solve", lambda x: sla.cho_solve(sla.cho_factor(x @ x.T + 4 * jnp.eye(4)), x[:, 0])),
    ("solve_triangular", lambda x: sla.solve_triangular(x + 4 * jnp.eye(4), x, trans=1)),
    ("lu", lambda x: sla.lu(x)),
    ("lu_solve", lambda x: sla.lu_solve(sla.lu_factor(x), x[0])),
    ("qr", lambda x: sla.qr(x)),
    ("svd", lambda x: sla.svd(x)),
    ("eigh", lambda x: sla.eigh(x + x.T)),
    ("det", lambda x: sla.det(x)),
    ("inv", lambda x: sla.inv(x)),
    ("solve", lambda x: sla.solve(x, x[:, :2])),
    ("solve_pos", lambda x: sla.solve(x @ x.T + 4 * jnp.eye(4), x[0], assume_a="pos")),
    ("expm", lambda x: sla.expm(x)),
    ("schur", lambda x: sla.schur(x)),
    ("hessenberg", lambda x: sla.hessenberg(x, calc_q=True)),
    ("polar", lambda x: sla.polar(x)),
    ("toeplitz", lambda x: sla.toeplitz(x[0], x[1])),
    ("block_diag", lambda x: sla.block_diag(x, x[0])),
    ("sqrtm", lambda x: sla.sqrtm(x @ x.T)),
    ("funm", lambda x: sla.funm(x, jnp.sin)),
    ("expm_frechet", lambda x: sla.expm_frechet(x, x.T)),
    ("solve_sylvester", lambda x: sla.solve_sylvester(x, x.T + 8 * jnp.eye(4), x[:, :3] @ x[:3])),
    ("rsf2csf", lambda x: sla.rsf2csf(*sla.schur(x))),
    ("qr_multiply", lambda x: sla.qr_multiply(x, x[:2])),
    ("eigh_tridiagonal", lambda x: sla.eigh_tridiagonal(x[0], x[1, :3], eigvals_only=True)),
    ("fiedler_companion", lambda x: sla.fiedler_companion(x[0])),
]


@pytest.mark.parametrize(("name", "fn"), EAGER_JIT, ids=[n for n, _ in EAGER_JIT])
def test_eager_equals_jit(name: str, fn: Callable[[jt.Array], Any]) -> None:
    x = jnp.asarray(A)
    assert_same(jt.jit(fn)(x), fn(x), rtol=1e-4, atol=1e-4, where=name, tree=True, kind=jt.Array)


VMAPPED: list[tuple[str, Callable[[jt.Array], Any]]] = [
    (n, f) for n, f in EAGER_JIT if n in (
        "cholesky", "cho_solve", "solve_triangular", "lu_solve", "det", "inv", "solve", "solve_pos", "expm",
        "toeplitz", "expm_frechet", "solve_sylvester", "eigh_tridiagonal",
    )
]  # fmt: skip


@pytest.mark.parametrize(("name", "fn"), VMAPPED, ids=[n for n, _ in VMAPPED])
def test_vmap_equals_loop(name: str, fn: Callable[[jt.Array], Any]) -> None:
    xs = jnp.asarray(A_BATCH)
    batched: Any = jt.vmap(fn)(xs)
    rows: list[Any] = [fn(xs[i]) for i in range(xs.shape[0])]
    leaves: list[Any] = list(batched) if isinstance(batched, tuple) else [batched]  # pyright: ignore[reportUnknownArgumentType]  # either result structure
    per_row: list[list[Any]] = [list(r) if isinstance(r, tuple) else [r] for r in rows]  # pyright: ignore[reportUnknownArgumentType]  # idem
    for k, got in enumerate(leaves):
        parts = [row[k] for row in per_row]
        np.testing.assert_allclose(np.asarray(got), np.stack([np.asarray(p) for p in parts]), rtol=1e-4, atol=1e-4, err_msg=name)


# === derivatives ===

A64 = A.astype(np.float64)
S64 = S.astype(np.float64)
B64 = B.astype(np.float64)
UPPER64 = UPPER.astype(np.float64)

Differentiable = tuple[str, Callable[[Namespace, Any, Any], Any], tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]
DIFFERENTIABLE: list[Differentiable] = [
    # (scaled so that expm squares: every part of the program is differentiated)
    ("expm", lambda L, a, b: sla_of(L).expm(a) @ b, (3.0 * A64, B64)),
    ("solve_triangular", lambda L, a, b: sla_of(L).solve_triangular(a, b), (UPPER64, B64)),
    ("solve_triangular_lower_T", lambda L, a, b: sla_of(L).solve_triangular(a, b, trans=1, lower=True), (UPPER64.T, B64)),
    ("cho_solve", lambda L, a, b: sla_of(L).cho_solve((sla_of(L).cholesky(a @ a.T + 4 * L.eye(4)), False), b), (A64, B64)),
    ("lu_solve", lambda L, a, b: sla_of(L).lu_solve(sla_of(L).lu_factor(a), b), (A64, B64)),
    ("lu_solve_trans", lambda L, a, b: sla_of(L).lu_solve(sla_of(L).lu_factor(a), b, trans=1), (A64, B64)),
    ("det", lambda L, a, b: sla_of(L).det(a) * b, (A64, B64)),
    ("inv", lambda L, a, b: sla_of(L).inv(a) @ b, (A64, B64)),
    ("solve", lambda L, a, b: sla_of(L).solve(a, b), (A64, B64)),
    ("solve_pos", lambda L, a, b: sla_of(L).solve(a @ a.T + 4 * L.eye(4), b, assume_a="pos"), (A64, B64)),
    ("cholesky", lambda L, a, b: sla_of(L).cholesky(a @ a.T + 4 * L.eye(4)) @ b, (A64, B64)),
    ("eigh_values", lambda L, a, b: sla_of(L).eigh(a + a.T, eigvals_only=True) * b[:, 0], (A64, B64)),
    ("svd_values", lambda L, a, b: sla_of(L).svd(a, compute_uv=False) * b[:, 0], (A64, B64)),
    ("expm_frechet", lambda L, a, b: sla_of(L).expm_frechet(a, b @ b.T, compute_expm=False), (0.5 * A64, B64)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "fn", "args"), DIFFERENTIABLE, ids=[d[0] for d in DIFFERENTIABLE])
def test_check_grads_order_2(name: str, fn: Callable[[Namespace, Any, Any], Any], args: Any, x64: None) -> None:
    def ours(a: jt.Array, b: jt.Array) -> Any:
        return fn(jnp, a, b)

    check_grads(ours, tuple(jnp.asarray(x) for x in args), order=2, modes=("fwd", "rev"))


Z128 = Z.astype(np.complex128)
ZB128 = ZB.astype(np.complex128)
COMPLEX_DIFFERENTIABLE: list[Differentiable] = [
    ("expm", lambda L, a, b: sla_of(L).expm(0.5 * a) @ b, (Z128, ZB128)),
    ("solve_triangular_C", lambda L, a, b: sla_of(L).solve_triangular(a + 4 * L.eye(4), b, trans=2), (Z128, ZB128)),
    ("cho_solve", lambda L, a, b: sla_of(L).cho_solve(sla_of(L).cho_factor(a @ L.conj(a.T) + 4 * L.eye(4)), b), (Z128, ZB128)),
    ("lu_solve_C", lambda L, a, b: sla_of(L).lu_solve(sla_of(L).lu_factor(a), b, trans=2), (Z128, ZB128)),
    ("det", lambda L, a, b: sla_of(L).det(a) * b, (Z128, ZB128)),
    ("inv", lambda L, a, b: sla_of(L).inv(a) @ b, (Z128, ZB128)),
    ("solve", lambda L, a, b: sla_of(L).solve(a, b), (Z128, ZB128)),
]  # fmt: skip


@pytest.mark.parametrize(("name", "fn", "args"), COMPLEX_DIFFERENTIABLE, ids=[d[0] for d in COMPLEX_DIFFERENTIABLE])
def test_check_grads_order_2_complex(name: str, fn: Callable[[Namespace, Any, Any], Any], args: Any, x64: None) -> None:
    def ours(a: jt.Array, b: jt.Array) -> Any:
        return fn(jnp, a, b)

    check_grads(ours, tuple(jnp.asarray(x) for x in args), order=2, modes=("fwd", "rev"))


RANK_3 = (A64[:, :3] @ A64[:3, :]).astype(np.float64)
# Special points: the zero matrix (expm's smallest Pade degree, no squaring)
# and a singular (rank n-1) matrix for det, compared with JAX only.
SPECIAL_POINTS: list[Differentiable] = [
    ("expm_at_zero", lambda L, a, b: sla_of(L).expm(a) @ b, (0.0 * A64, B64)),
    ("det_singular", lambda L, a, b: sla_of(L).det(a) * b, (RANK_3, B64)),
]


@pytest.mark.parametrize(
    ("name", "fn", "args"), DIFFERENTIABLE + SPECIAL_POINTS, ids=[d[0] for d in DIFFERENTIABLE + SPECIAL_POINTS]
)
def test_grad_matches_jax(name: str, fn: Callable[[Namespace, Any, Any], Any], args: Any) -> None:
    a, b = (x.astype(np.float32) for x in args)

    def run(L: Namespace) -> Any:
        def total(x: Any, y: Any) -> Any:
            return L.sum(fn(L, x, y) ** 2)

        return library(L).api.grad(total, argnums=(0, 1))(L.asarray(a), L.asarray(b))

    assert_same(run(jnp), run(oracle_numpy()), rtol=2e-3, atol=2e-3, where=name)


def oracle_numpy() -> Any:
    """JAX's numpy namespace (the other ``L``)."""
    return jax.numpy


def test_eigh_tridiagonal_vectors_reconstruct() -> None:
    w, v = sla.eigh_tridiagonal(V, B[:3, 0])
    dense = np.diag(V) + np.diag(B[:3, 0], 1) + np.diag(B[:3, 0], -1)
    _close(np.asarray(v) * np.asarray(w)[None, :] @ np.asarray(v).T, dense)
    _unitary_columns(v)
    w2, v2 = sla.eigh_tridiagonal(V, B[:3, 0], select="i", select_range=(1, 2))
    assert v2.shape == (4, 2)
    _close(w2, np.asarray(w)[1:3])


def test_cho_factor_returns_the_triangle_flag() -> None:
    assert sla.cho_factor(S)[1] is False and sla.cho_factor(S, lower=True)[1] is True


def test_cholesky_of_non_positive_definite_is_nan() -> None:
    # Documented: no error, NaNs where the factorization fails (per batch entry).
    out = np.asarray(sla.cholesky(np.stack([S, -S])))
    assert np.isfinite(out[0]).all() and np.isnan(np.triu(out[1])[np.triu_indices(4)]).all()


# === census ===

# jax.scipy.linalg names that jaxtyped.scipy.linalg leaves out, with why.
MISSING: dict[str, str] = {}


def _public_names(module: Any) -> set[str]:
    return {n for n in dir(module) if not n.startswith("_") and callable(getattr(module, n))}


def test_census_every_jax_name_exists_or_is_missing_with_a_reason() -> None:
    theirs = _public_names(jax_sla)
    ours = set(sla.__all__)
    absent = theirs - ours
    assert absent == set(MISSING), f"unlisted missing names: {sorted(absent - set(MISSING))}; listed but present: {sorted(set(MISSING) - absent)}"
    assert all(MISSING.values())
    assert len(ours) >= 40
    assert ours <= theirs, f"names JAX does not have: {sorted(ours - theirs)}"
    assert all(hasattr(sla, n) for n in ours)
