"""``jaxtyped.numpy.linalg`` against ``jax.numpy.linalg``.

Values, dtypes, weak types and shapes through the oracle's tables (JAX
runs each table in one jit, ours runs eagerly, so every table case is also
an eager-vs-jit check), the kind of error where JAX raises, decompositions
up to sign/phase (reconstruction and orthogonality), eager == jit,
vmap == a loop, ``check_grads`` at order 2 in both modes for every
differentiable function, gradients at special points (singular ``det``,
``norm`` at zero) against ``jax.grad``, and a census of JAX's names.
"""

import inspect
import math
from collections.abc import Callable, Iterator
from typing import Any, cast

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.test_util import check_grads

from oracle import Case, CaseTable, Group, assert_same, assert_same_value, call, host, jax, jax_numpy, jitted, unary_fn

RNG = np.random.default_rng(14)
INF = math.inf


def _random(shape: tuple[int, ...], dtype: str = "float32") -> np.ndarray[Any, Any]:
    values = RNG.standard_normal(shape)
    if dtype.startswith("complex"):
        values = values + 1j * RNG.standard_normal(shape)
    return host(dtype, values)


def _well_conditioned(shape: tuple[int, ...], dtype: str = "float32") -> np.ndarray[Any, Any]:
    n = shape[-1]
    return host(dtype, _random(shape, dtype) + 3 * np.eye(n))


def _spd(shape: tuple[int, ...], dtype: str = "float32") -> np.ndarray[Any, Any]:
    x = _random(shape, dtype)
    return host(dtype, x @ np.conj(np.swapaxes(x, -1, -2)) + shape[-1] * np.eye(shape[-1]))


A3 = _well_conditioned((3, 3))
B3 = _well_conditioned((2, 3, 3))
C3 = _well_conditioned((3, 3), "complex64")
C4 = _well_conditioned((4, 4), "complex64")
S3 = _spd((3, 3))
SB = _spd((2, 3, 3))
SC = _spd((3, 3), "complex64")
I3 = host("int32", [[2, 1, 0], [1, 3, 1], [0, 1, 4]])
R43 = _random((4, 3))
R34 = _random((3, 4))
RB43 = _random((2, 4, 3))
V3 = _random((3,))
V4 = _random((4,))
X234 = _random((2, 3, 4))
CV = _random((5,), "complex64")
SINGULAR2 = host("float32", [[1.0, 2.0], [2.0, 4.0]])
SINGULAR3 = host("float32", [[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 0.0, 1.0]])
RANK1 = host("float32", np.outer([1.0, 2.0, 3.0], [1.0, -1.0, 0.5]))
SINGULAR4 = host("float32", [[2.0, 1.0, 0.0, 1.0], [1.0, 3.0, 1.0, 0.0], [3.0, 4.0, 1.0, 1.0], [0.0, 1.0, 2.0, 1.0]])
RANK2_4 = host("float32", np.outer([1.0, 2.0, 0.0, 1.0], [1.0, 0.0, 2.0, 1.0]) + np.outer([0.0, 1.0, 1.0, 3.0], [2.0, 1.0, 0.0, 1.0]))
HILBERT = host("float64", 1.0 / (np.arange(6)[:, None] + np.arange(6)[None, :] + 1.0))
INT8 = host("int8", np.full((2, 2), 100))
HALF22 = host("float16", np.full((2, 2), 300.0))
ZERO3 = host("float32", np.zeros(3))
ZERO22 = host("float32", np.zeros((2, 2)))

TOL = {"rtol": 2e-4, "atol": 2e-5}


def norm_cases() -> list[Case]:
    cases = [
        Case("norm-default", call("linalg.norm", X234)),
        Case("norm-keepdims", call("linalg.norm", X234, keepdims=True)),
        Case("norm-complex", call("linalg.norm", CV)),
        Case("norm-int", call("linalg.norm", I3)),
        Case("norm-weak", lambda L: L.linalg.norm(L.broadcast_to(2.0, (3,)))),
        Case("norm-scalar", call("linalg.norm", host("float32", 3.0))),
        Case("norm-dup_axis", call("linalg.norm", X234, axis=(0, 0))),
        Case("norm-three_axes", call("linalg.norm", X234, ord=1)),
        Case("norm-bad_vector_ord", call("linalg.norm", V3, ord="fro")),
        Case("norm-bad_matrix_ord", call("linalg.norm", A3, ord=3)),
        Case("norm-nuc_vector", call("linalg.norm", X234, ord="nuc", axis=1)),
        Case("vector_norm-default", call("linalg.vector_norm", X234)),
        Case("vector_norm-axes", call("linalg.vector_norm", X234, axis=(0, 2), ord=1)),
        Case("vector_norm-keepdims", call("linalg.vector_norm", X234, keepdims=True, ord=INF)),
        Case("vector_norm-complex", call("linalg.vector_norm", CV, ord=3)),
        Case("matrix_norm-default", call("linalg.matrix_norm", X234)),
        Case("matrix_norm-1d", call("linalg.matrix_norm", V3)),
        Case("matrix_norm-complex", call("linalg.matrix_norm", C3, ord="nuc")),
    ]
    for ord_ in (None, 2, 1, 0, -1, INF, -INF, 3, 0.5, -2):
        cases.append(Case(f"norm-vector_ord_{ord_}", call("linalg.norm", X234, ord=ord_, axis=1), **TOL))
        if ord_ is not None:  # JAX's signature: an int or a string
            cases.append(Case(f"vector_norm-ord_{ord_}", call("linalg.vector_norm", X234, ord=ord_, axis=-1), **TOL))
    for matrix_ord in (None, "fro", 1, -1, INF, -INF, 2, -2, "nuc"):
        cases.append(Case(f"norm-matrix_ord_{matrix_ord}", call("linalg.norm", X234, ord=matrix_ord, axis=(2, 0)), **TOL))
        cases.append(
            Case(f"norm-matrix_keep_{matrix_ord}", call("linalg.norm", X234, ord=matrix_ord, axis=(0, 1), keepdims=True), **TOL)
        )
        cases.append(Case(f"matrix_norm-ord_{matrix_ord}", call("linalg.matrix_norm", X234, ord=matrix_ord or "fro"), **TOL))
    return cases


def product_cases() -> list[Case]:
    return [
        Case("matmul-batched", call("linalg.matmul", B3, R34), **TOL),
        Case("matmul-int", call("linalg.matmul", I3, I3)),
        Case("matmul-preferred", call("linalg.matmul", I3, I3, preferred_element_type="float32")),
        Case("matmul-preferred_wider", call("linalg.matmul", INT8, INT8, preferred_element_type="int32")),
        Case("matmul-preferred_narrower", call("linalg.matmul", A3 * 1e4, A3, preferred_element_type="float16"), rtol=1e-2),
        Case("matmul-float16_to_float32", call("linalg.matmul", HALF22, HALF22, preferred_element_type="float32")),
        Case("vecdot-preferred", call("linalg.vecdot", INT8, INT8, preferred_element_type="int32")),
        Case("tensordot-preferred", call("linalg.tensordot", INT8, INT8, axes=1, preferred_element_type="int32")),
        Case("matmul-precision", call("linalg.matmul", A3, A3, precision="highest"), **TOL),
        Case("matmul-bad_precision", call("linalg.matmul", A3, A3, precision="best")),
        Case("matmul-mismatch", call("linalg.matmul", R43, R43)),
        Case("tensordot-default", call("linalg.tensordot", X234, _random((3, 4, 2))), **TOL),
        Case("tensordot-axes", call("linalg.tensordot", X234, R34, axes=([1], [0])), **TOL),
        Case("vecdot-complex", call("linalg.vecdot", CV, CV), **TOL),
        Case("vecdot-axis", call("linalg.vecdot", X234, X234, axis=0), **TOL),
        Case("outer-1d", call("linalg.outer", V3, V4)),
        Case("outer-2d", call("linalg.outer", A3, V4)),
        Case("cross-3", call("linalg.cross", V3, _random((2, 3)))),
        Case("cross-axis", call("linalg.cross", _random((3, 2)), _random((3, 2)), axis=0)),
        Case("cross-2", call("linalg.cross", V3[:2], V3[:2])),
        Case("trace-batched", call("linalg.trace", X234, offset=1)),
        Case("trace-int_dtype", call("linalg.trace", I3, dtype="float32")),
        Case("trace-1d", call("linalg.trace", V3)),
        Case("diagonal-batched", call("linalg.diagonal", X234, offset=-1)),
        Case("diagonal-1d", call("linalg.diagonal", V3)),
        Case("matrix_transpose-3d", call("linalg.matrix_transpose", X234)),
        Case("matrix_transpose-1d", call("linalg.matrix_transpose", V3)),
        Case("multi_dot-vectors", call("linalg.multi_dot", [V4, R43, _random((3, 5)), _random((5, 2))]), **TOL),
        Case("multi_dot-two", call("linalg.multi_dot", [R43, R34]), **TOL),
        Case("multi_dot-3d", call("linalg.multi_dot", [X234, R43])),
        Case("matrix_power-int", call("linalg.matrix_power", I3, 5)),
        Case("matrix_power-zero", call("linalg.matrix_power", I3, 0)),
        Case("matrix_power-batched", call("linalg.matrix_power", B3, 3), **TOL),
        Case("matrix_power-negative", call("linalg.matrix_power", A3, -2), **TOL),
        Case("matrix_power-int_negative", call("linalg.matrix_power", I3, -1), **TOL),
        Case("matrix_power-nonsquare", call("linalg.matrix_power", R43, 2)),
        Case("matrix_power-1d", call("linalg.matrix_power", V3, 2)),
    ]


def solver_cases() -> list[Case]:
    return [
        Case("det-3x3", call("linalg.det", A3), **TOL),
        Case("det-2x2", call("linalg.det", A3[:2, :2]), **TOL),
        Case("det-4x4_batched", call("linalg.det", _well_conditioned((2, 4, 4))), **TOL),
        Case("det-complex", call("linalg.det", C3), **TOL),
        Case("det-int", call("linalg.det", I3), **TOL),
        Case("det-singular", call("linalg.det", _random((4, 4)) * host("float32", [1, 1, 1, 0])[:, None]), **TOL),
        Case("det-weak", lambda L: L.linalg.det(L.broadcast_to(2.0, (2, 2)))),
        Case("det-nonsquare", call("linalg.det", R43)),
        Case("det-float16_2x2", call("linalg.det", host("float16", [[2.0, 1.0], [1.0, 3.0]])), rtol=1e-2),
        Case("det-empty", call("linalg.det", host("float32", np.zeros((0, 0))))),
        Case("inv-empty", call("linalg.inv", host("float32", np.zeros((2, 0, 0))))),
        Case("solve-empty", call("linalg.solve", host("float32", np.zeros((0, 0))), host("float32", np.zeros(0)))),
        Case("det-1d", call("linalg.det", V3)),
        Case("slogdet-batched", call("linalg.slogdet", B3), **TOL),
        Case("slogdet-complex", call("linalg.slogdet", C3), **TOL),
        Case("slogdet-singular", call("linalg.slogdet", SINGULAR3), **TOL),
        Case("slogdet-int", call("linalg.slogdet", I3), **TOL),
        Case("slogdet-negative", call("linalg.slogdet", -A3), **TOL),
        Case("slogdet-nonsquare", call("linalg.slogdet", R43)),
        Case("slogdet-qr", call("linalg.slogdet", B3, method="qr"), **TOL),
        Case("slogdet-qr_negative", call("linalg.slogdet", -A3, method="qr"), **TOL),
        Case("slogdet-qr_complex", call("linalg.slogdet", C3, method="qr"), **TOL),
        Case("slogdet-bad_method", call("linalg.slogdet", A3, method="cholesky")),
        Case("inv-batched", call("linalg.inv", B3), **TOL),
        Case("inv-complex", call("linalg.inv", C3), **TOL),
        Case("inv-int", call("linalg.inv", I3), **TOL),
        Case("inv-nonsquare", call("linalg.inv", R43)),
        Case("inv-1d", call("linalg.inv", V3)),
        Case("solve-vector", call("linalg.solve", A3, V3), **TOL),
        Case("solve-matrix", call("linalg.solve", A3, R34), **TOL),
        Case("solve-batched_vector", call("linalg.solve", B3, _random((2, 3))), **TOL),
        Case("solve-broadcast_matrix", call("linalg.solve", A3, _random((2, 3, 4))), **TOL),
        Case("solve-broadcast_1d", call("linalg.solve", B3, V3), **TOL),
        Case("solve-complex", call("linalg.solve", C3, V3), **TOL),
        Case("solve-int", call("linalg.solve", I3, host("int32", [1, 2, 3])), **TOL),
        Case("solve-mismatch", call("linalg.solve", A3, V4)),
        Case("solve-ill_float32", call("linalg.solve", HILBERT.astype(np.float32), V3.repeat(2)), rtol=1e-3, atol=1e-2),
        Case("solve-two_batch_dims", call("linalg.solve", _well_conditioned((2, 2, 3, 3)), _random((2, 1, 3, 2))), **TOL),
        Case("inv-two_batch_dims", call("linalg.inv", _well_conditioned((2, 2, 3, 3))), **TOL),
        Case("det-two_batch_dims", call("linalg.det", _well_conditioned((2, 2, 5, 5))), **TOL),
        Case("slogdet-ill_float32", call("linalg.slogdet", HILBERT.astype(np.float32)), rtol=1e-3, atol=1e-3),
        Case("solve-mismatch_matrix", call("linalg.solve", A3, R43)),
        Case("solve-nonsquare", call("linalg.solve", R43, V4)),
        Case("solve-1d_a", call("linalg.solve", V3, V3)),
        Case("lstsq-vector", call("linalg.lstsq", R43, V4), **TOL),
        Case("lstsq-matrix", call("linalg.lstsq", R43, _random((4, 2))), **TOL),
        Case("lstsq-wide", call("linalg.lstsq", R34, V3), rtol=2e-3, atol=2e-4),
        Case("lstsq-rcond", call("linalg.lstsq", RANK1, V3, rcond=1e-3), rtol=2e-3, atol=2e-4),
        Case("lstsq-3d", call("linalg.lstsq", RB43, _random((2, 4)))),
        Case("lstsq-mismatch", call("linalg.lstsq", R43, V3)),
        Case("pinv-tall", call("linalg.pinv", R43), **TOL),
        Case("pinv-batched", call("linalg.pinv", RB43), **TOL),
        Case("pinv-rank1", call("linalg.pinv", RANK1), rtol=2e-3, atol=2e-4),
        Case("pinv-rtol", call("linalg.pinv", A3, rtol=0.5), **TOL),
        Case("pinv-complex", call("linalg.pinv", C3), **TOL),
        Case("pinv-hermitian", call("linalg.pinv", S3, hermitian=True), **TOL),
        Case("pinv-1d", call("linalg.pinv", V3)),
        Case("matrix_rank-full", call("linalg.matrix_rank", A3)),
        Case("matrix_rank-rank1", call("linalg.matrix_rank", RANK1)),
        Case("matrix_rank-batched", call("linalg.matrix_rank", RB43)),
        Case("matrix_rank-rtol", call("linalg.matrix_rank", np.diag(host("float32", [1.0, 1e-3, 1e-8])), rtol=1e-2)),
        Case("matrix_rank-tol", call("linalg.matrix_rank", np.diag(host("float32", [1.0, 1e-3, 1e-8])), tol=1e-2)),
        Case("matrix_rank-both", call("linalg.matrix_rank", A3, rtol=0.1, tol=0.1)),
        Case("matrix_rank-hermitian", call("linalg.matrix_rank", S3, hermitian=True)),
        Case("matrix_rank-vector", call("linalg.matrix_rank", V3)),
        Case("matrix_rank-zero_vector", call("linalg.matrix_rank", ZERO3)),
        Case("cond-2", call("linalg.cond", A3), **TOL),
        Case("cond-minus2", call("linalg.cond", RB43, -2), **TOL),
        Case("cond-1", call("linalg.cond", B3, 1), **TOL),
        Case("cond-fro", call("linalg.cond", C3, "fro"), **TOL),
        Case("cond-inf", call("linalg.cond", A3, INF), **TOL),
        Case("cond-singular", call("linalg.cond", SINGULAR2, 1)),
        Case("cond-nonsquare", call("linalg.cond", R43, 1)),
        Case("cond-1d", call("linalg.cond", V3)),
        Case("tensorinv-4d", call("linalg.tensorinv", _random((4, 6, 8, 3)) + host("float32", np.eye(24).reshape(4, 6, 8, 3)) * 3), **TOL),
        Case("tensorinv-bad", call("linalg.tensorinv", _random((4, 6, 8, 3)), ind=1)),
        Case("tensorinv-zero_ind", call("linalg.tensorinv", A3, ind=0)),
        Case("tensorsolve-3d", call("linalg.tensorsolve", _well_conditioned((6, 6)).reshape(2, 3, 6), _random((2, 3))), **TOL),
        Case("tensorsolve-axes", call("linalg.tensorsolve", _well_conditioned((6, 6)).reshape(6, 2, 3), V3.repeat(2), axes=(0,)), **TOL),
        Case("tensorsolve-bad", call("linalg.tensorsolve", _random((6, 4, 2, 3, 4)), _random((6, 5)))),
    ]


def decomposition_cases() -> list[Case]:
    """Results unique up to rounding: triangular factors with a positive
    diagonal, eigenvalues, singular values; and the errors."""
    return [
        Case("cholesky-spd", call("linalg.cholesky", S3), **TOL),
        Case("cholesky-batched", call("linalg.cholesky", SB), **TOL),
        Case("cholesky-upper", call("linalg.cholesky", SC, upper=True), **TOL),
        Case("cholesky-int", call("linalg.cholesky", I3), **TOL),
        Case("cholesky-not_pd", call("linalg.cholesky", -S3)),
        Case("cholesky-nonsquare", call("linalg.cholesky", R43)),
        Case("cholesky-1d", call("linalg.cholesky", V3)),
        Case("cholesky-lower_only", call("linalg.cholesky", np.tril(S3) + 5 * np.triu(S3, 1), symmetrize_input=False), **TOL),
        Case("eigvalsh-upper_only", call("linalg.eigvalsh", np.triu(S3) + 5 * np.tril(S3, -1), "U", symmetrize_input=False), **TOL),
        Case("eigvalsh-empty", call("linalg.eigvalsh", host("float32", np.zeros((0, 0))))),
        Case("svd-subset", call("linalg.svd", S3, subset_by_index=(0, 2))),
        Case("eigvalsh-batched", call("linalg.eigvalsh", SB), **TOL),
        Case("eigvalsh-upper", call("linalg.eigvalsh", SC, "U"), **TOL),
        Case("eigvalsh-int", call("linalg.eigvalsh", I3), **TOL),
        Case("eigh-nonsquare", call("linalg.eigh", R43)),
        Case("eigh-1d", call("linalg.eigh", V3)),
        Case("eigh-uplo", call("linalg.eigh", S3, UPLO="X")),
        Case("eigh-values", lambda L: L.linalg.eigh(S3).eigenvalues, **TOL),
        # The same LAPACK kernels as JAX's: the vectors' signs agree too.
        Case("eigh-full", call("linalg.eigh", SB), **TOL),
        Case("svd-full", call("linalg.svd", RB43), **TOL),
        Case("qr-full", call("linalg.qr", C3), **TOL),
        Case("eig-full", call("linalg.eig", A3), **TOL),
        Case("svdvals-tall", call("linalg.svdvals", RB43), **TOL),
        Case("svdvals-complex", call("linalg.svdvals", C3), **TOL),
        Case("svdvals-int", call("linalg.svdvals", I3), **TOL),
        Case("svdvals-1d", call("linalg.svdvals", V3)),
        Case("svd-values_only", call("linalg.svd", R34, compute_uv=False), **TOL),
        Case("svd-hermitian_values", call("linalg.svd", host("float32", [[2.0, 1.0], [1.0, -3.0]]), compute_uv=False, hermitian=True), **TOL),
        Case("svd-1d", call("linalg.svd", V3)),
        # Through eigh (the same kernel as JAX's): the vectors are JAX's too.
        Case("svd-hermitian", call("linalg.svd", host("float32", [[2.0, 1.0, 0.0], [1.0, -3.0, 0.5], [0.0, 0.5, 1.0]]), hermitian=True), **TOL),
        Case("svd-hermitian_complex", call("linalg.svd", SC, hermitian=True), **TOL),
        Case("qr-r", call("linalg.qr", R43, mode="r"), **TOL),
        Case("qr-raw", call("linalg.qr", R43, mode="raw"), **TOL),
        Case("qr-bad_mode", call("linalg.qr", R43, mode="bad")),
        Case("qr-1d", call("linalg.qr", V3)),
        Case("eigvals-real", lambda L: L.sort_complex(L.linalg.eigvals(A3)), **TOL),
        Case("eigvals-int", lambda L: L.sort_complex(L.linalg.eigvals(I3)), **TOL),
        Case("eigvals-nonsquare", call("linalg.eigvals", R43)),
        Case("eig-1d", call("linalg.eig", V3)),
    ]


NORMS = CaseTable("linalg_norms", norm_cases)
PRODUCTS = CaseTable("linalg_products", product_cases)
SOLVERS = CaseTable("linalg_solvers", solver_cases)
DECOMPOSITIONS = CaseTable("linalg_decompositions", decomposition_cases)
EAGER = CaseTable(
    # eager: JAX refuses half precision while lowering, which would fail a
    # whole jitted table; numpy_resid needs a concrete rank.
    "linalg_eager",
    lambda: [
        Case("lstsq-numpy_resid_tall", call("linalg.lstsq", R43, V4, numpy_resid=True), **TOL),
        Case("lstsq-numpy_resid_wide", call("linalg.lstsq", R34, V3, numpy_resid=True), rtol=2e-3, atol=2e-4),
        Case("lstsq-numpy_resid_deficient", call("linalg.lstsq", RANK1, V3, numpy_resid=True), rtol=2e-3, atol=2e-4),
        Case("lstsq-numpy_resid_jit", jitted(lambda L, a: L.linalg.lstsq(a, L.ones(4), numpy_resid=True), R43)),
        Case("lstsq-empty", call("linalg.lstsq", host("float32", np.zeros((0, 3))), host("float32", np.zeros(0)))),
        Case("det-float16_4x4", call("linalg.det", host("float16", np.eye(4)))),
        Case("inv-float16", call("linalg.inv", host("float16", np.eye(3)))),
        Case("solve-float16", call("linalg.solve", host("float16", np.eye(3)), host("float16", [1, 2, 3]))),
        Case("slogdet-bfloat16", call("linalg.slogdet", host("bfloat16", np.eye(3)))),
        Case("cholesky-float16", call("linalg.cholesky", host("float16", np.eye(3)))),
        Case("svd-float16", call("linalg.svd", host("float16", np.eye(3)))),
        Case("qr-float16", call("linalg.qr", host("float16", np.eye(3)))),
        Case("eigvals-float16", call("linalg.eigvals", host("float16", np.eye(3)))),
    ],
    eager=True,
)
ILL = CaseTable(
    "linalg_ill_conditioned",
    lambda: [
        Case("solve-hilbert", call("linalg.solve", HILBERT, HILBERT.sum(axis=1)), rtol=1e-6, atol=1e-8),
        Case("inv-hilbert", call("linalg.inv", HILBERT), rtol=1e-5, atol=1e-3),
        Case("det-hilbert", call("linalg.det", HILBERT), rtol=1e-7, atol=0),
        Case("slogdet-hilbert", call("linalg.slogdet", HILBERT), rtol=1e-9, atol=0),
        Case("cond-hilbert", call("linalg.cond", HILBERT), rtol=1e-6, atol=0),
        Case("svdvals-hilbert", call("linalg.svdvals", HILBERT), rtol=1e-6, atol=1e-14),
        Case("cholesky-hilbert", call("linalg.cholesky", HILBERT), rtol=1e-9, atol=1e-14),
        Case("eigvalsh-hilbert", call("linalg.eigvalsh", HILBERT), rtol=1e-6, atol=1e-14),
        Case("pinv-hilbert", call("linalg.pinv", HILBERT), rtol=1e-5, atol=1e-3),
        Case("matrix_rank-hilbert", call("linalg.matrix_rank", HILBERT)),
        Case("matrix_rank-vector", call("linalg.matrix_rank", HILBERT[0])),
        Case("lstsq-hilbert", call("linalg.lstsq", HILBERT, HILBERT[0]), rtol=1e-4, atol=1e-6),
    ],
    x64=True,
)


@pytest.mark.parametrize("group", NORMS.params())
def test_norms(group: Group) -> None:
    NORMS.check(group)


@pytest.mark.parametrize("group", PRODUCTS.params())
def test_products(group: Group) -> None:
    PRODUCTS.check(group)


@pytest.mark.parametrize("group", SOLVERS.params())
def test_solvers(group: Group) -> None:
    SOLVERS.check(group)


@pytest.mark.parametrize("group", DECOMPOSITIONS.params())
def test_decompositions(group: Group) -> None:
    DECOMPOSITIONS.check(group)


@pytest.mark.parametrize("group", EAGER.params())
def test_eager_only(group: Group) -> None:
    EAGER.check(group)


@pytest.mark.parametrize("group", ILL.params())
def test_ill_conditioned(group: Group) -> None:
    ILL.check(group)


# === decompositions up to sign and phase ===


def _np(x: Any) -> np.ndarray[Any, Any]:
    return np.asarray(x).astype(np.complex128)


def _mH(x: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:  # noqa: N802 - the usual name
    return np.conj(np.swapaxes(x, -1, -2))


def _assert_orthonormal_columns(q: np.ndarray[Any, Any], atol: float = 1e-5) -> None:
    k = q.shape[-1]
    np.testing.assert_allclose(_mH(q) @ q, np.broadcast_to(np.eye(k), (*q.shape[:-2], k, k)), atol=atol)


@pytest.mark.parametrize("x", [R43, R34, RB43, C3], ids=["tall", "wide", "batched", "complex"])
@pytest.mark.parametrize("mode", ["reduced", "complete"])
def test_qr_reconstructs(x: np.ndarray[Any, Any], mode: str) -> None:
    q, r = jnp.linalg.qr(jnp.asarray(x), mode=mode)
    jq, jr = jax_numpy.linalg.qr(jax_numpy.asarray(x), mode=mode)
    assert (q.shape, r.shape, q.dtype, r.dtype) == (jq.shape, jr.shape, jq.dtype, jr.dtype)
    np.testing.assert_allclose(_np(q) @ _np(r), _np(x), atol=1e-5)
    _assert_orthonormal_columns(_np(q))
    np.testing.assert_allclose(np.tril(_np(r), -1), 0, atol=1e-6)
    # LAPACK's Householder QR is unique given its sign convention: JAX's too.
    np.testing.assert_allclose(_np(q), _np(jq), atol=1e-4)


@pytest.mark.parametrize("x", [R43, R34, RB43, C3], ids=["tall", "wide", "batched", "complex"])
@pytest.mark.parametrize("full", [True, False])
def test_svd_reconstructs(x: np.ndarray[Any, Any], full: bool) -> None:
    u, s, vh = jnp.linalg.svd(jnp.asarray(x), full_matrices=full)
    ju, js, jvh = jax_numpy.linalg.svd(jax_numpy.asarray(x), full_matrices=full)
    assert (u.shape, s.shape, vh.shape) == (ju.shape, js.shape, jvh.shape)
    assert (u.dtype, s.dtype, vh.dtype) == (ju.dtype, js.dtype, jvh.dtype)
    k = s.shape[-1]
    us = _np(u)[..., :, :k] * _np(s)[..., None, :]
    np.testing.assert_allclose(us @ _np(vh)[..., :k, :], _np(x), atol=1e-5)
    _assert_orthonormal_columns(_np(u))
    _assert_orthonormal_columns(_mH(_np(vh)))
    assert_same_value(s, js, 1e-5, 1e-6)


def test_svd_hermitian_reconstructs() -> None:
    x = host("float32", [[2.0, 1.0, 0.0], [1.0, -3.0, 0.5], [0.0, 0.5, 1.0]])
    u, s, vh = jnp.linalg.svd(jnp.asarray(x), hermitian=True)
    np.testing.assert_allclose((_np(u) * _np(s)[None, :]) @ _np(vh), x, atol=1e-5)
    assert np.all(np.diff(np.asarray(s)) <= 0)
    _assert_orthonormal_columns(_np(u))


@pytest.mark.parametrize("x", [S3, SB, SC], ids=["real", "batched", "complex"])
def test_eigh_diagonalises(x: np.ndarray[Any, Any]) -> None:
    w, v = jnp.linalg.eigh(jnp.asarray(x))
    jw, jv = jax_numpy.linalg.eigh(jax_numpy.asarray(x))
    assert (w.dtype, v.dtype, w.shape, v.shape) == (jw.dtype, jv.dtype, jw.shape, jv.shape)
    np.testing.assert_allclose(_np(x) @ _np(v), _np(v) * _np(w)[..., None, :], atol=1e-4)
    _assert_orthonormal_columns(_np(v))
    assert_same_value(w, jw, 1e-5, 1e-5)


@pytest.mark.parametrize("x", [A3, C3, B3], ids=["real", "complex", "batched"])
def test_eig_diagonalises(x: np.ndarray[Any, Any]) -> None:
    w, v = jnp.linalg.eig(jnp.asarray(x))
    jw, jv = jax_numpy.linalg.eig(jax_numpy.asarray(x))
    assert (w.dtype, v.dtype, w.shape, v.shape) == (jw.dtype, jv.dtype, jw.shape, jv.shape)
    np.testing.assert_allclose(_np(x) @ _np(v), _np(v) * _np(w)[..., None, :], atol=1e-4)
    np.testing.assert_allclose(np.linalg.norm(_np(v), axis=-2), 1.0, atol=1e-5)
    # The same LAPACK kernel on the same input: the same eigenvalue order.
    assert_same_value(w, jw, 1e-4, 1e-5)


def test_cholesky_not_positive_definite_is_nan() -> None:
    result = np.asarray(jnp.linalg.cholesky(jnp.asarray(-S3)))
    assert np.all(np.isnan(result[np.tril_indices(3)]))


def test_result_types_have_jax_field_names() -> None:
    x = jnp.asarray(S3)
    pairs: list[tuple[Any, Any]] = [
        (jnp.linalg.eigh(x), jax_numpy.linalg.eigh(S3)),
        (jnp.linalg.eig(x), jax_numpy.linalg.eig(S3)),
        (jnp.linalg.qr(x), jax_numpy.linalg.qr(S3)),
        (jnp.linalg.svd(x), jax_numpy.linalg.svd(S3)),
        (jnp.linalg.slogdet(x), jax_numpy.linalg.slogdet(S3)),
    ]
    for ours, theirs in pairs:
        assert type(ours).__name__ == type(theirs).__name__
        assert ours._fields == theirs._fields


# === transformations: jit, vmap ===

EAGER_VS_JIT: list[tuple[str, Callable[[Any], Any], np.ndarray[Any, Any]]] = [
    ("det", lambda x: jnp.linalg.det(x), B3),
    ("det_4x4", lambda x: jnp.linalg.det(x), C4),
    ("slogdet", lambda x: jnp.linalg.slogdet(x), C3),
    ("slogdet_qr", lambda x: jnp.linalg.slogdet(x, method="qr"), B3),
    ("grad_det_4x4", lambda x: jt.grad(unary_fn(lambda y: jnp.linalg.det(y)))(x), C4.real.copy()),
    ("inv", lambda x: jnp.linalg.inv(x), B3),
    ("solve", lambda x: jnp.linalg.solve(x, jnp.ones(3)), A3),
    ("cholesky", lambda x: jnp.linalg.cholesky(x), SB),
    ("eigh", lambda x: jnp.linalg.eigh(x), SB),
    ("svd", lambda x: jnp.linalg.svd(x), RB43),
    ("qr", lambda x: jnp.linalg.qr(x), RB43),
    ("eig", lambda x: jnp.linalg.eig(x), A3),
    ("pinv", lambda x: jnp.linalg.pinv(x), RB43),
    ("norm2", lambda x: jnp.linalg.norm(x, ord=2, axis=(-2, -1)), RB43),
    ("lstsq", lambda x: jnp.linalg.lstsq(x, jnp.ones(4)), R43),
    ("matrix_rank", lambda x: jnp.linalg.matrix_rank(x), RB43),
]


@pytest.mark.parametrize(("fn", "x"), [(f, x) for _, f, x in EAGER_VS_JIT], ids=[n for n, _, _ in EAGER_VS_JIT])
def test_eager_equals_jit(fn: Callable[[Any], Any], x: np.ndarray[Any, Any]) -> None:
    eager = cast(list[jt.Array], jt.tree_util.tree_leaves(fn(jnp.asarray(x))))
    jitted = cast(list[jt.Array], jt.tree_util.tree_leaves(jt.jit(fn)(jnp.asarray(x))))
    for a, b in zip(eager, jitted, strict=True):
        assert (a.shape, a.dtype) == (b.shape, b.dtype)
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6)


VMAPPED: list[tuple[str, Callable[[Any], Any], np.ndarray[Any, Any]]] = [
    ("det", lambda x: jnp.linalg.det(x), B3),
    ("slogdet", lambda x: jnp.linalg.slogdet(x).logabsdet, B3),
    ("inv", lambda x: jnp.linalg.inv(x), B3),
    ("solve", lambda x: jnp.linalg.solve(x, jnp.arange(3.0)), B3),
    ("solve_batched_rhs", lambda x: jnp.linalg.solve(jnp.asarray(A3), x), R43),
    ("cholesky", lambda x: jnp.linalg.cholesky(x), SB),
    ("eigvalsh", lambda x: jnp.linalg.eigvalsh(x), SB),
    ("svdvals", lambda x: jnp.linalg.svdvals(x), RB43),
    ("pinv", lambda x: jnp.linalg.pinv(x), RB43),
    ("norm_nuc", lambda x: jnp.linalg.norm(x, ord="nuc"), RB43),
    ("lstsq", lambda x: jnp.linalg.lstsq(x, jnp.ones(4))[0], RB43),
    ("matrix_power", lambda x: jnp.linalg.matrix_power(x, 3), B3),
    ("cond", lambda x: jnp.linalg.cond(x), B3),
    ("eigh_vectors", lambda x: jnp.linalg.eigh(x).eigenvectors, SB),
    ("qr_q", lambda x: jnp.linalg.qr(x).Q, RB43),
    ("svd_u", lambda x: jnp.linalg.svd(x).U, RB43),
    ("eigvals", lambda x: jnp.linalg.eigvals(x), B3),
    ("det_4x4", lambda x: jnp.linalg.det(x), _well_conditioned((3, 4, 4))),
    ("norm_matrix_1", lambda x: jnp.linalg.norm(x, ord=1), RB43),
]


@pytest.mark.parametrize(("fn", "x"), [(f, x) for _, f, x in VMAPPED], ids=[n for n, _, _ in VMAPPED])
def test_vmap_equals_loop(fn: Callable[[Any], Any], x: np.ndarray[Any, Any]) -> None:
    batched = jt.vmap(fn)(jnp.asarray(x))
    looped = [fn(jnp.asarray(row)) for row in x]
    np.testing.assert_allclose(np.asarray(batched), np.stack([np.asarray(r) for r in looped]), rtol=1e-5, atol=1e-5)


def test_vmap_of_solve_over_the_right_hand_side() -> None:
    bs = _random((4, 3))
    batched = jt.vmap(unary_fn(lambda b: jnp.linalg.solve(jnp.asarray(A3), b)))(jnp.asarray(bs))
    looped = np.stack([np.asarray(jnp.linalg.solve(jnp.asarray(A3), jnp.asarray(b))) for b in bs])
    np.testing.assert_allclose(np.asarray(batched), looped, rtol=1e-5, atol=1e-5)


# === derivatives ===


@pytest.fixture
def x64() -> Iterator[None]:
    """Derivatives checked in float64: finite differences of float32
    decompositions are too noisy at order 2."""
    previous = jt.config.jax_enable_x64
    jt.config.update("jax_enable_x64", True)
    try:
        yield
    finally:
        jt.config.update("jax_enable_x64", previous)


def _svd_product(x: jt.Array) -> jt.Array:
    """U diag(S) Vh: invariant under the SVD's sign choices."""
    u, s, vh = jnp.linalg.svd(x, full_matrices=False)
    return (u * s[None, :]) @ vh


def _first_eigenprojector(x: jt.Array) -> jt.Array:
    """v v^T of the first eigenvector: invariant under its sign."""
    v = jnp.linalg.eigh(x).eigenvectors[:, :1]
    return v @ v.T


GRADS_UNARY: list[tuple[str, Callable[[Any], Any], tuple[np.ndarray[Any, Any], ...]]] = [
    ("norm_default", lambda x: jnp.linalg.norm(x), (X234,)),
    ("norm_vector_3", lambda x: jnp.linalg.norm(x, ord=3, axis=0), (R43,)),
    ("norm_vector_1", lambda x: jnp.linalg.norm(x, ord=1, axis=1), (R43,)),
    ("norm_fro", lambda x: jnp.linalg.norm(x, ord="fro"), (R43,)),
    ("norm_2", lambda x: jnp.linalg.norm(x, ord=2), (R43,)),
    ("norm_nuc", lambda x: jnp.linalg.norm(x, ord="nuc"), (R43,)),
    ("norm_inf", lambda x: jnp.linalg.norm(x, ord=INF), (R43,)),
    ("vector_norm", lambda x: jnp.linalg.vector_norm(x, ord=4), (R43,)),
    ("det", lambda x: jnp.linalg.det(x), (B3,)),
    ("det_4x4", lambda x: jnp.linalg.det(x), (_well_conditioned((4, 4)),)),
    ("det_complex", lambda x: jnp.linalg.det(x), (C3,)),
    ("slogdet", lambda x: jnp.linalg.slogdet(x).logabsdet, (B3,)),
    ("slogdet_complex", lambda x: jnp.linalg.slogdet(x), (C3,)),
    ("slogdet_qr", lambda x: jnp.linalg.slogdet(x, method="qr").logabsdet, (A3,)),
    ("inv", lambda x: jnp.linalg.inv(x), (B3,)),
    ("cholesky", lambda x: jnp.linalg.cholesky(x), (S3,)),
    ("qr", lambda x: jnp.linalg.qr(x), (R43,)),
    ("svd_values", lambda x: jnp.linalg.svdvals(x), (R43,)),
    ("svd_product", lambda x: _svd_product(x), (R43,)),
    ("eigh_values", lambda x: jnp.linalg.eigvalsh(x), (S3,)),
    ("eigh_projector", lambda x: _first_eigenprojector(x), (S3,)),
    ("pinv", lambda x: jnp.linalg.pinv(x), (R43,)),
    ("pinv_wide", lambda x: jnp.linalg.pinv(x), (R34,)),
    ("matrix_power", lambda x: jnp.linalg.matrix_power(x, 3), (A3,)),
    ("matrix_power_negative", lambda x: jnp.linalg.matrix_power(x, -2), (A3,)),
    ("cond", lambda x: jnp.linalg.cond(x), (A3,)),
    ("cond_1", lambda x: jnp.linalg.cond(x, 1), (A3,)),
    ("tensorinv", lambda x: jnp.linalg.tensorinv(x.reshape(3, 1, 3), ind=2), (A3,)),
]
GRADS_BINARY: list[tuple[str, Callable[[Any, Any], Any], tuple[np.ndarray[Any, Any], ...]]] = [
    ("solve", lambda a, b: jnp.linalg.solve(a, b), (A3, R34)),
    ("solve_complex", lambda a, b: jnp.linalg.solve(a, b), (C3, V3)),
    ("lstsq", lambda a, b: jnp.linalg.lstsq(a, b)[0], (R43, V4)),
    ("multi_dot", lambda a, b: jnp.linalg.multi_dot([a, b, a]), (R43, R34)),
    ("tensorsolve", lambda a, b: jnp.linalg.tensorsolve(a, b), (A3, V3)),
    ("products", lambda a, b: jnp.linalg.cross(a[0], b[0]) + jnp.linalg.trace(a @ b.T) + jnp.linalg.vecdot(a, b)[0], (R43, R43)),
]
GRADS: list[tuple[str, Callable[..., Any], tuple[np.ndarray[Any, Any], ...]]] = [*GRADS_UNARY, *GRADS_BINARY]


@pytest.mark.parametrize(("fn", "args"), [(f, a) for _, f, a in GRADS], ids=[n for n, _, _ in GRADS])
def test_check_grads(fn: Callable[..., Any], args: tuple[np.ndarray[Any, Any], ...], x64: None) -> None:
    wide = tuple(jnp.asarray(a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)) for a in args)
    check_grads(fn, wide, order=2, modes=("fwd", "rev"), atol=1e-4, rtol=1e-4)


SPECIAL_GRADS: list[tuple[str, Callable[[Any], Callable[[Any], Any]], np.ndarray[Any, Any]]] = [
    ("det_singular_2x2", lambda L: L.linalg.det, SINGULAR2),
    ("det_singular_3x3", lambda L: L.linalg.det, SINGULAR3),
    ("det_rank1", lambda L: L.linalg.det, RANK1),
    ("det_zero", lambda L: L.linalg.det, ZERO22),
    ("det_singular_4x4", lambda L: L.linalg.det, SINGULAR4),
    ("det_rank2_4x4", lambda L: L.linalg.det, RANK2_4),
    ("slogdet", lambda L: (lambda x: L.linalg.slogdet(x).logabsdet), A3),
    ("norm_zero", lambda L: L.linalg.norm, ZERO3),
    ("norm_zero_matrix", lambda L: L.linalg.norm, ZERO22),
    ("norm_inf_zero", lambda L: (lambda x: L.linalg.norm(x, ord=INF)), ZERO3),
    ("norm_minus_inf_zero", lambda L: (lambda x: L.linalg.norm(x, ord=-INF)), ZERO3),
    ("norm_1_zero", lambda L: (lambda x: L.linalg.norm(x, ord=1)), ZERO3),
    ("norm_3_zero", lambda L: (lambda x: L.linalg.norm(x, ord=3)), ZERO3),
    ("norm_0", lambda L: (lambda x: L.linalg.norm(x, ord=0)), V3),
    ("norm_half_with_zero", lambda L: (lambda x: L.linalg.norm(x, ord=0.5)), host("float32", [1.0, -2.0, 0.0])),
    ("norm_matrix_1_zero", lambda L: (lambda x: L.linalg.norm(x, ord=1)), ZERO22),
    ("norm_matrix_inf_zero", lambda L: (lambda x: L.linalg.norm(x, ord=INF)), ZERO22),
    ("norm_matrix_2_zero", lambda L: (lambda x: L.linalg.norm(x, ord=2)), ZERO22),
    ("norm_nuc_zero", lambda L: (lambda x: L.linalg.norm(x, ord="nuc")), ZERO22),
    ("pinv_rank1", lambda L: (lambda x: L.sum(L.linalg.pinv(x))), RANK1),
    ("matrix_norm_fro_zero", lambda L: L.linalg.matrix_norm, ZERO22),
    # Complex input: JAX's convention for the gradient of a real function.
    ("complex_norm_2", lambda L: (lambda x: L.linalg.norm(x, 2)), C3),
    ("complex_det_4x4", lambda L: (lambda x: L.abs(L.linalg.det(x))), C4),
    ("complex_slogdet_sign", lambda L: (lambda x: L.linalg.slogdet(x).sign.imag), C4),
    ("complex_inv", lambda L: (lambda x: L.abs(L.linalg.inv(x)).sum()), C3),
    ("complex_pinv", lambda L: (lambda x: L.abs(L.linalg.pinv(x)).sum()), C3),
    ("complex_cholesky", lambda L: (lambda x: L.abs(L.linalg.cholesky(x)).sum()), SC),
    ("complex_eigvalsh", lambda L: (lambda x: L.linalg.eigvalsh(x)[0]), SC),
    ("complex_qr", lambda L: (lambda x: L.abs(L.linalg.qr(x).R).sum()), C3),
    ("complex_lstsq", lambda L: (lambda x: L.abs(L.linalg.lstsq(x, L.ones(3))[0]).sum()), C3),
]


@pytest.mark.parametrize(("fn", "x"), [(f, x) for _, f, x in SPECIAL_GRADS], ids=[n for n, _, _ in SPECIAL_GRADS])
def test_grad_matches_jax(fn: Callable[[Any], Callable[[Any], Any]], x: np.ndarray[Any, Any]) -> None:
    ours = jt.grad(fn(jnp))(jnp.asarray(x))
    theirs = jax.grad(fn(jax_numpy))(jax_numpy.asarray(x))
    assert_same(ours, theirs, 1e-4, 1e-5)


def test_eigvals_first_order_only_as_jax() -> None:
    """eig's eigenvalue derivative uses the eigenvectors, whose own
    derivatives JAX (and we) refuse without ``enable_eigvec_derivs``: first
    order is checked, second order and ``eig``'s vectors raise as JAX's."""
    x = jnp.asarray(A3)
    check_grads(unary_fn(lambda y: jnp.linalg.eigvals(y).real), (x,), order=1, modes=("fwd", "rev"), atol=2e-2, rtol=2e-2)
    ours = jt.grad(unary_fn(lambda y: jnp.linalg.eigvals(y).real.sum()))(x)
    theirs = jax.grad(unary_fn(lambda y: jax_numpy.linalg.eigvals(y).real.sum()))(jax_numpy.asarray(A3))
    assert_same(ours, theirs, 1e-4, 1e-5)
    with pytest.raises(NotImplementedError):
        jt.hessian(unary_fn(lambda y: jnp.linalg.eigvals(y).real.sum()))(x)
    with pytest.raises(NotImplementedError):
        jt.grad(unary_fn(lambda y: jnp.abs(jnp.linalg.eig(y).eigenvectors).sum()))(x)


@pytest.mark.parametrize("x", [RANK1, SINGULAR4], ids=["rank1_3x3", "rank3_4x4"])
def test_hessian_of_det_at_singular_matrices(x: np.ndarray[Any, Any]) -> None:
    ours = jt.hessian(jnp.linalg.det)(jnp.asarray(x))
    theirs = jax.hessian(jax_numpy.linalg.det)(jax_numpy.asarray(x))
    assert_same(ours, theirs, 1e-4, 1e-4)


def test_jvp_of_slogdet_matches_jax() -> None:
    ours = jt.jvp(unary_fn(lambda x: jnp.linalg.slogdet(x)), (jnp.asarray(C3),), (jnp.asarray(C3),))
    theirs = jax.jvp(unary_fn(lambda x: jax_numpy.linalg.slogdet(x)), (jax_numpy.asarray(C3),), (jax_numpy.asarray(C3),))
    assert_same(ours, theirs, 1e-4, 1e-5, tree=True)


# === census ===


def test_every_jax_numpy_linalg_name_exists() -> None:
    theirs = {name for name in dir(jax_numpy.linalg) if not name.startswith("_")}
    missing = sorted(name for name in theirs if not hasattr(jnp.linalg, name))
    assert not missing, f"jnp.linalg lacks {missing}"
    assert theirs <= set(jnp.linalg.__all__)


def test_signatures_match_jax() -> None:
    """Parameter names, kinds and defaults are JAX's (annotations aside)."""
    differ: list[str] = []
    for name in sorted(n for n in dir(jax_numpy.linalg) if not n.startswith("_")):
        theirs = inspect.signature(getattr(jax_numpy.linalg, name)).parameters.values()
        ours = inspect.signature(getattr(jnp.linalg, name)).parameters.values()
        if [(p.name, p.kind, p.default) for p in ours] != [(p.name, p.kind, p.default) for p in theirs]:
            differ.append(name)
    assert not differ, f"signatures differ from JAX's: {differ}"
