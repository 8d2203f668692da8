"""``lax.linalg.lu``, ``lu_pivots_to_permutation``, ``qr``, ``geqrf``,
``householder_product`` and ``ormqr`` against ``jax.lax.linalg``.

Values in float32/complex64 and float64/complex128: square, tall and wide,
batched, singular, ill-conditioned and empty matrices; QR full and reduced,
with and without column pivoting; the errors are of JAX's kinds. Under
``jit``, ``vmap``, ``jvp`` and ``grad``, compared with JAX's own
transformations (the same LAPACK kernels run in both, so the
decompositions agree entry for entry, signs included); eager equals
jitted, ``vmap`` equals a Python loop, reconstructions hold, and
``check_grads`` passes at order 2 in both modes.

One deliberate difference: JAX's ``qr`` jvp with ``pivoting=True`` on a
wide matrix pairs the permuted tangent with the unpermuted matrix, so its
``dr`` disagrees with finite differences; ours is checked against finite
differences instead (``test_qr_pivoting_wide_jvp_is_the_derivative``).
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
from jaxtyped import lax
from jaxtyped.test_util import check_grads

from oracle import (
    Case,
    CaseTable,
    Group,
    Raised,
    assert_same_value,
    binary_fn,
    expect_same_error,
    host,
    jax,
    library_case as case,
    random_host,
    unary_fn,
)

RNG = np.random.default_rng(1415)
jax_linalg_internal: Any = pytest.importorskip("jax._src.lax.linalg")


def bound(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Callable[[Any], Any]:
    """The case ``fn(m, *args, **kwargs)``."""

    def run(m: Any) -> Any:
        return fn(m, *args, **kwargs)

    return run


def _geqrf(m: Any) -> Callable[[Any], Any]:
    """``geqrf``: public in jaxtyped, internal in JAX."""
    found: Callable[[Any], Any] = m.lax.linalg.geqrf if m.api is jt else jax_linalg_internal.geqrf
    return found


def _random(shape: tuple[int, ...], dtype: str) -> Any:
    return random_host(RNG, shape, dtype)


def _singular(dtype: str) -> Any:
    """A rank-2 4x4 matrix (two repeated rows, a zero column)."""
    x = np.asarray(_random((4, 4), dtype))
    x[2] = x[0]
    x[:, 3] = 0
    return host(dtype, x)


def _hilbert(n: int, dtype: str) -> Any:
    """Ill-conditioned (cond ~ 1e7 for n = 6)."""
    i = np.arange(n)
    return host(dtype, 1.0 / (i[:, None] + i[None, :] + 1))


def _weights(shape: tuple[int, ...], dtype: str) -> Any:
    values = np.arange(1, 1 + int(np.prod(shape))).reshape(shape) / 7.0
    return host(dtype, values * (1 + 0.5j) if np.dtype(dtype).kind == "c" else values)


def _loss(m: Any, out: Any, weights: Any) -> Any:
    """A real scalar of ``out`` (weighted so that permuted cotangents show)."""
    return m.np.real(m.np.sum(out * weights))


def _grad(fn: Callable[[Any, Any], Any], x: Any, dtype: str) -> Callable[[Any], Any]:
    def run(m: Any) -> Any:
        weights = _weights(np.shape(fn(m, m.np.asarray(x))), dtype)
        return m.api.grad(unary_fn(lambda y: _loss(m, fn(m, y), weights)))(x)

    return run


def _jvp(fn: Callable[[Any, Any], Any], x: Any, t: Any) -> Callable[[Any], Any]:
    """``jvp`` of ``fn`` at ``x`` along ``t``, jitted with both traced (JAX's
    lu and pivoted-qr jvps index with the permutation through NumPy, which
    fails on constants closed over by the table's jit)."""
    return lambda m: m.api.jit(binary_fn(lambda y, s: m.api.jvp(unary_fn(lambda z: fn(m, z)), (y,), (s,))))(x, t)


def _lu(m: Any, x: Any) -> Any:
    return m.lax.linalg.lu(x)


def _lu0(m: Any, x: Any) -> Any:
    return m.lax.linalg.lu(x)[0]


def _qr(full: bool, pivoting: bool = False) -> Callable[[Any, Any], Any]:
    return lambda m, x: m.lax.linalg.qr(x, full_matrices=full, pivoting=pivoting)


def _flat_qr(full: bool) -> Callable[[Any, Any], Any]:
    """Both factors, flattened into one differentiable output."""

    def fn(m: Any, x: Any) -> Any:
        q, r = m.lax.linalg.qr(x, full_matrices=full)
        return m.np.concatenate([m.np.ravel(q), m.np.ravel(r)])

    return fn


def _pivoted_factors(full: bool) -> Callable[[Any, Any], Any]:
    """``q`` and ``r`` of the pivoted QR (the permutation has no tangent)."""

    def fn(m: Any, x: Any) -> Any:
        return m.lax.linalg.qr(x, full_matrices=full, pivoting=True)[:2]

    return fn


def _ormqr(m: Any, a: Any, c: Any, *, left: bool, transpose: bool) -> Any:
    return m.lax.linalg.ormqr(*_geqrf(m)(a), c, left=left, transpose=transpose)


SHAPES = {"square": (4, 4), "tall": (5, 3), "wide": (3, 5), "batched": (2, 3, 4, 3)}


def _lu_cases(dtype: str) -> list[Case]:
    mats = {name: _random(shape, dtype) for name, shape in SHAPES.items()}
    singular = _singular(dtype)
    zeros = host(dtype, np.zeros((3, 3)))
    ones = host(dtype, np.ones((3, 3)))
    cases = [case(f"lu-{dtype}_{name}", bound(_lu, x)) for name, x in mats.items()]
    cases += [
        case(f"lu-{dtype}_singular", lambda m: _lu(m, singular)),
        case(f"lu-{dtype}_zeros", lambda m: _lu(m, zeros)),
        case(f"lu-{dtype}_hilbert", lambda m: _lu(m, _hilbert(6, dtype)), rtol=1e-4, atol=1e-5),
        case(f"lu-{dtype}_empty_rows", lambda m: _lu(m, host(dtype, np.zeros((2, 0, 3))))),
        case(f"lu-{dtype}_empty_cols", lambda m: _lu(m, host(dtype, np.zeros((3, 0))))),
        case(f"lu_jit-{dtype}", lambda m: m.api.jit(unary_fn(lambda x: _lu(m, x)))(mats["batched"])),
        case(f"lu_vmap-{dtype}", lambda m: m.api.vmap(unary_fn(lambda x: _lu(m, x)), in_axes=1)(mats["batched"])),
        # Degenerate points: JAX's NaNs (a zero pivot) and finite values alike.
        case(f"lu_jvp-{dtype}_singular", _jvp(_lu0, singular, singular), rtol=1e-4, atol=1e-4),
        case(f"lu_jvp-{dtype}_zeros", _jvp(_lu0, zeros, ones)),
        case(f"qr_jvp-{dtype}_singular", _jvp(_qr(True), singular, singular), rtol=1e-4, atol=1e-4),
        case(f"qr_jvp-{dtype}_zeros", _jvp(_qr(False), zeros, ones)),
        # Q = I: the trailing columns' tangent solves with Q_nn - I = 0 (NaN, as JAX).
        case(f"qr_jvp-{dtype}_identity_full", _jvp(_qr(True), host(dtype, np.eye(4, 2)), host(dtype, np.ones((4, 2))))),
        case(f"lu_grad-{dtype}_singular_lower", _grad(lambda m, x: m.np.tril(_lu0(m, x), -1), singular, dtype),
             rtol=1e-3, atol=1e-3),
    ]
    for name in ("square", "tall", "wide", "batched"):
        x = mats[name]
        t = _random(x.shape, dtype)
        cases += [
            case(f"lu_jvp-{dtype}_{name}", _jvp(_lu0, x, t), rtol=1e-4, atol=1e-4),
            case(f"lu_grad-{dtype}_{name}", _grad(_lu0, x, dtype), rtol=1e-4, atol=1e-4),
        ]
    pivots = host("int32", [[2, 2, 3], [0, 3, 2]])
    cases += [
        case(f"lu_pivots_to_permutation-{dtype}", lambda m: m.lax.linalg.lu_pivots_to_permutation(pivots, 5)),
        case(f"lu_pivots_to_permutation-{dtype}_exact", lambda m: m.lax.linalg.lu_pivots_to_permutation(pivots, 4)),
        case(f"lu_pivots_to_permutation-{dtype}_jit", lambda m: m.api.jit(
            unary_fn(lambda p: m.lax.linalg.lu_pivots_to_permutation(p, 6)))(pivots)),
        case(f"lu_pivots_to_permutation-{dtype}_vmap", lambda m: m.api.vmap(
            unary_fn(lambda p: m.lax.linalg.lu_pivots_to_permutation(p, 4)), in_axes=1)(pivots.T)),
    ]
    return cases


def _qr_cases(dtype: str) -> list[Case]:
    mats = {name: _random(shape, dtype) for name, shape in SHAPES.items()}
    cases: list[Case] = []
    for name, x in mats.items():
        for full in (True, False):
            tag = f"{dtype}_{name}_{'full' if full else 'reduced'}"
            cases.append(case(f"qr-{tag}", bound(_qr(full), x), rtol=1e-4, atol=1e-5))
            cases.append(case(f"qr_pivoting-{tag}", bound(_qr(full, True), x), rtol=1e-4, atol=1e-5))
    # Each path of the derivative: square, tall full (the trailing columns
    # of q), tall reduced, wide, batched.
    for name, full in (("square", True), ("tall", True), ("tall", False), ("wide", False), ("batched", False)):
        tag = f"{dtype}_{name}_{'full' if full else 'reduced'}"
        x = mats[name]
        t = _random(x.shape, dtype)
        cases.append(case(f"qr_jvp-{tag}", _jvp(_qr(full), x, t), rtol=1e-4, atol=1e-4))
        cases.append(case(f"qr_grad-{tag}", _grad(_flat_qr(full), x, dtype), rtol=1e-4, atol=1e-4))
        # JAX's pivoting jvp is wrong for wide matrices (module docstring)
        # and raises for batches: ours is checked by check_grads there.
        if name in ("square", "tall") and full == (name == "square"):
            cases.append(case(f"qr_jvp-{tag}_pivoting", _jvp(_pivoted_factors(full), x, t), rtol=1e-4, atol=1e-4))
    batched = mats["batched"]
    singular = _singular(dtype)
    cases += [
        case(f"qr-{dtype}_singular", lambda m: _qr(True)(m, singular), rtol=1e-4, atol=1e-5),
        case(f"qr-{dtype}_hilbert", lambda m: _qr(False)(m, _hilbert(6, dtype)), rtol=1e-3, atol=1e-5),
        case(f"qr-{dtype}_empty_rows", lambda m: _qr(True)(m, host(dtype, np.zeros((2, 0, 3))))),
        case(f"qr-{dtype}_empty_cols", lambda m: _qr(True)(m, host(dtype, np.zeros((3, 0))))),
        case(f"qr-{dtype}_empty_cols_reduced_pivoting", lambda m: _qr(False, True)(m, host(dtype, np.zeros((3, 0))))),
        case(f"qr_jit-{dtype}", lambda m: m.api.jit(unary_fn(lambda x: _qr(False, True)(m, x)))(batched),
             rtol=1e-4, atol=1e-5),
        case(f"qr_vmap-{dtype}", lambda m: m.api.vmap(unary_fn(lambda x: _qr(True)(m, x)), in_axes=2, out_axes=1)(batched),
             rtol=1e-4, atol=1e-5),
    ]
    return cases


def _householder_cases(dtype: str) -> list[Case]:
    tall = _random((2, 5, 3), dtype)
    wide = _random((3, 5), dtype)
    c_left = _random((2, 5, 2), dtype)
    c_right = _random((2, 4, 5), dtype)
    # The geqrf case has an input of its own: in JAX's one jit of the table,
    # its result buffer was otherwise shared (CSE) with the input the
    # householder_product cases' LAPACK calls overwrite in place, and once,
    # under load, JAX returned it with an element those calls write (1.0).
    tall_alone = _random((2, 5, 3), dtype)
    cases = [
        case(f"geqrf-{dtype}", lambda m: _geqrf(m)(tall_alone), rtol=1e-4, atol=1e-5),
        case(f"geqrf-{dtype}_wide", lambda m: _geqrf(m)(wide), rtol=1e-4, atol=1e-5),
        case(f"householder_product-{dtype}", lambda m: m.lax.linalg.householder_product(*_geqrf(m)(tall)),
             rtol=1e-4, atol=1e-5),
        case(f"householder_product-{dtype}_fewer_taus", lambda m: m.lax.linalg.householder_product(
            _geqrf(m)(tall)[0], _geqrf(m)(tall)[1][..., :2]), rtol=1e-4, atol=1e-5),
        case(f"householder_product-{dtype}_vmap", lambda m: m.api.vmap(
            binary_fn(lambda a, t: m.lax.linalg.householder_product(a, t)))(*_geqrf(m)(tall)), rtol=1e-4, atol=1e-5),
    ]
    for left, c in ((True, c_left), (False, c_right)):
        for transpose in (False, True):
            tag = f"{dtype}_{'left' if left else 'right'}{'_transpose' if transpose else ''}"
            cases.append(case(f"ormqr-{tag}", bound(_ormqr, tall, c, left=left, transpose=transpose), rtol=1e-4, atol=1e-5))
    return cases


def _error_cases() -> list[Case]:
    f, i = "float32", "int32"

    def z(*shape: int) -> Any:
        return host(f, np.ones(shape))

    def hp(m: Any, a: Any, t: Any) -> Any:
        return m.lax.linalg.householder_product(a, t)

    return [
        case("error-lu_int", lambda m: m.lax.linalg.lu(host(i, np.eye(3)))),
        case("error-lu_vector", lambda m: m.lax.linalg.lu(z(3))),
        case("error-qr_int", lambda m: m.lax.linalg.qr(host(i, np.eye(3)))),
        case("error-qr_vector", lambda m: m.lax.linalg.qr(z(3))),
        case("error-qr_pivoting_int", lambda m: m.lax.linalg.qr(host(i, np.eye(3)), pivoting=True)),
        case("error-geqrf_int", lambda m: _geqrf(m)(host(i, np.eye(3)))),
        case("error-lu_pivots_to_permutation_small", lambda m: m.lax.linalg.lu_pivots_to_permutation(host(i, [0, 1, 2]), 2)),
        case("error-lu_pivots_to_permutation_float", lambda m: m.lax.linalg.lu_pivots_to_permutation(z(3), 4)),
        case("error-lu_pivots_to_permutation_scalar", lambda m: m.lax.linalg.lu_pivots_to_permutation(host(i, 0), 4)),
        case("error-householder_product_wide", lambda m: hp(m, z(3, 4), z(3))),
        case("error-householder_product_taus", lambda m: hp(m, z(4, 3), z(4))),
        case("error-householder_product_batch", lambda m: hp(m, z(4, 3), z(2, 3))),
        case("error-ormqr_left_rows", lambda m: m.lax.linalg.ormqr(z(4, 3), z(3), z(5, 2))),
        case("error-geqrf_jvp", lambda m: m.api.jvp(unary_fn(lambda a: _geqrf(m)(a)[0]), (z(3, 3),), (z(3, 3),))),
        case("error-householder_product_jvp", lambda m: m.api.jvp(unary_fn(lambda a: hp(m, a, z(2))), (z(3, 3),), (z(3, 3),))),
        case("error-ormqr_jvp", lambda m: m.api.jvp(
            unary_fn(lambda c: m.lax.linalg.ormqr(z(3, 3), z(2), c)), (z(3, 3),), (z(3, 3),))),
        case("error-lu_bool", lambda m: m.lax.linalg.lu(host("bool", np.eye(3)))),
        case("error-householder_product_dtypes", lambda m: hp(m, z(4, 3), host("complex64", np.ones(3)))),
        case("error-ormqr_dtypes", lambda m: m.lax.linalg.ormqr(z(4, 3), z(3), host("complex64", np.ones((4, 3))))),
        case("error-ormqr_batch", lambda m: m.lax.linalg.ormqr(z(4, 3), z(3), z(2, 4, 3))),
        case("error-ormqr_int", lambda m: m.lax.linalg.ormqr(*(host(i, np.ones(s)) for s in ((4, 3), (3,), (4, 3))))),
        case("error-ormqr_right_cols", lambda m: m.lax.linalg.ormqr(z(4, 3), z(3), z(4, 2), left=False)),
    ]


def cases_32() -> list[Case]:
    cases = _error_cases()
    for dtype in ("float32", "complex64"):
        cases += _lu_cases(dtype) + _qr_cases(dtype) + _householder_cases(dtype)
    return cases


def cases_64() -> list[Case]:
    cases: list[Case] = []
    for dtype in ("float64", "complex128"):
        cases += _lu_cases(dtype) + _qr_cases(dtype) + _householder_cases(dtype)
    return cases


TABLE_32 = CaseTable("lax_linalg_lu_qr_32", cases_32)
TABLE_64 = CaseTable("lax_linalg_lu_qr_64", cases_64, x64=True)


@pytest.mark.parametrize("group", TABLE_32.params())
def test_32_bit_matches_jax(group: Group) -> None:
    TABLE_32.check(group)


@pytest.mark.parametrize("group", TABLE_64.params())
def test_64_bit_matches_jax(group: Group) -> None:
    TABLE_64.check(group)


@pytest.mark.parametrize("table", [TABLE_32, TABLE_64], ids=["32", "64"])
def test_only_error_cases_raise_in_jax(table: CaseTable) -> None:
    """A case that raises in JAX only checks that ours raises too: make sure
    that is what each such case means (a wrong shape in a case would
    otherwise pass silently)."""
    raised = {id_ for id_, value in table.jax_results.items() if isinstance(value, Raised)}
    assert raised == {c.id for c in table.cases if c.id.startswith("error-")}


def test_batch_size_mismatch_errors() -> None:
    """JAX finds these only when it lowers (so not inside the tables' jit)."""
    a, taus, c = (np.ones(shape, np.float32) for shape in ((2, 4, 3), (3, 3), (3, 4, 3)))
    calls: list[Callable[[Any], Any]] = [
        lambda m: m.lax.linalg.householder_product(a, taus),
        lambda m: m.lax.linalg.ormqr(a, taus, c),
    ]
    for fn in calls:
        with pytest.raises(ValueError) as theirs:
            fn(jax)
        expect_same_error(theirs.value, lambda: fn(jt))


# === jaxtyped alone: eager == jit, reconstruction, vmap == loop, check_grads ===


def _adjoint(x: Any) -> Any:
    return np.conj(np.swapaxes(np.asarray(x), -1, -2))


@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_lu_eager_equals_jit_and_reconstructs(shape: tuple[int, ...]) -> None:
    a = _random(shape, "complex64")
    eager = lax.linalg.lu(a)
    jitted = jt.jit(lax.linalg.lu)(a)
    for e, j in zip(eager, jitted, strict=True):
        np.testing.assert_array_equal(np.asarray(e), np.asarray(j))
    packed, pivots, perm = (np.asarray(v) for v in eager)
    m, n = shape[-2:]
    k = min(m, n)
    lower = np.tril(packed[..., :, :k], -1) + np.eye(m, k)
    upper = np.triu(packed[..., :k, :])
    permuted = np.take_along_axis(np.asarray(a), perm[..., :, None], axis=-2)
    np.testing.assert_allclose(lower @ upper, permuted, rtol=1e-5, atol=1e-5)
    assert pivots.dtype == np.int32 and perm.dtype == np.int32
    assert np.all(np.sort(perm, axis=-1) == np.arange(m))
    np.testing.assert_array_equal(np.asarray(lax.linalg.lu_pivots_to_permutation(pivots, m)), perm)


def test_lu_of_singular_matrix_is_finite() -> None:
    out = np.asarray(jt.jit(unary_fn(lambda x: lax.linalg.lu(x)[0]))(np.asarray(_singular("float32"))))
    assert np.isfinite(out).all()
    assert np.isfinite(np.asarray(lax.linalg.lu(np.zeros((3, 3), np.float32))[0])).all()


@pytest.mark.parametrize("full", [True, False], ids=["full", "reduced"])
@pytest.mark.parametrize("shape", SHAPES.values(), ids=SHAPES.keys())
def test_qr_eager_equals_jit_and_reconstructs(shape: tuple[int, ...], full: bool) -> None:
    a = _random(shape, "complex64")
    q, r = lax.linalg.qr(a, full_matrices=full)
    qj, rj = jt.jit(unary_fn(lambda x: lax.linalg.qr(x, full_matrices=full)))(a)
    np.testing.assert_array_equal(np.asarray(q), np.asarray(qj))
    np.testing.assert_array_equal(np.asarray(r), np.asarray(rj))
    np.testing.assert_allclose(np.asarray(q) @ np.asarray(r), a, rtol=1e-5, atol=1e-5)
    cols = q.shape[-1]
    np.testing.assert_allclose(_adjoint(q) @ np.asarray(q), np.broadcast_to(np.eye(cols), (*shape[:-2], cols, cols)), atol=1e-5)
    assert np.all(np.tril(np.asarray(r), -1) == 0)
    q3, r3, p = lax.linalg.qr(a, full_matrices=full, pivoting=True)
    pivoted = np.take_along_axis(np.asarray(a), np.asarray(p)[..., None, :], axis=-1)
    np.testing.assert_allclose(np.asarray(q3) @ np.asarray(r3), pivoted, rtol=1e-5, atol=1e-5)
    # geqp3 orders the diagonal of r by decreasing magnitude.
    diag = np.abs(np.diagonal(np.asarray(r3), axis1=-2, axis2=-1))
    assert np.all(diag[..., :-1] >= diag[..., 1:] * (1 - 1e-5))


def test_vmap_equals_loop() -> None:
    a = _random((3, 4, 3), "float32")
    pivoted_qr: Callable[[Any], tuple[Any, ...]] = lambda x: lax.linalg.qr(x, full_matrices=False, pivoting=True)
    for fn in (lax.linalg.lu, pivoted_qr):
        batched = jt.vmap(fn)(a)
        for j, out in enumerate(batched):
            loop = np.stack([np.asarray(fn(a[i])[j]) for i in range(3)])
            assert_same_value(out, loop, rtol=1e-6, atol=1e-6, where=f"output {j}")
    taus = _random((3,), "float32")
    batched_hp = jt.vmap(unary_fn(lambda x: lax.linalg.householder_product(x, taus)))(a)
    loop_hp = np.stack([np.asarray(lax.linalg.householder_product(a[i], taus)) for i in range(3)])
    assert_same_value(batched_hp, loop_hp, rtol=1e-6, atol=1e-6)


GRAD_DTYPES = ("float64", "complex128")


@pytest.mark.parametrize("dtype", GRAD_DTYPES)
@pytest.mark.parametrize("shape", [(3, 3), (4, 3), (3, 4), (2, 3, 3)], ids=["square", "tall", "wide", "batched"])
def test_lu_check_grads(dtype: str, shape: tuple[int, ...], x64: None) -> None:
    check_grads(unary_fn(lambda x: lax.linalg.lu(x)[0]), (_random(shape, dtype),), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("dtype", GRAD_DTYPES)
@pytest.mark.parametrize("full", [True, False], ids=["full", "reduced"])
@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4), (2, 3, 2)], ids=["square", "tall", "wide", "batched"])
def test_qr_check_grads(dtype: str, full: bool, shape: tuple[int, ...], x64: None) -> None:
    x = _random(shape, dtype)
    check_grads(unary_fn(lambda y: lax.linalg.qr(y, full_matrices=full)), (x,), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("shape", [(4, 2), (2, 4)], ids=["tall", "wide"])
def test_qr_pivoting_wide_jvp_is_the_derivative(shape: tuple[int, ...], x64: None) -> None:
    x = _random(shape, "float64")
    check_grads(unary_fn(lambda y: lax.linalg.qr(y, full_matrices=False, pivoting=True)[:2]), (x,), order=2, modes=("fwd", "rev"))


def test_qr_float32_check_grads() -> None:
    x = _random((4, 3), "float32")
    check_grads(unary_fn(lambda y: lax.linalg.qr(y, full_matrices=False)), (x,), order=1, modes=("fwd", "rev"), atol=1e-2, rtol=1e-2)


def test_jaxpr_names_jax_params() -> None:
    x = np.ones((4, 3), np.float32)
    text = str(jt.make_jaxpr(unary_fn(lambda a: lax.linalg.qr(a, full_matrices=False)))(x))
    assert "qr[" in text and "full_matrices=False" in text and "pivoting=False" in text and "use_magma=None" in text
    assert " = lu a" in str(jt.make_jaxpr(lax.linalg.lu)(x))
    text = str(jt.make_jaxpr(binary_fn(lambda a, c: lax.linalg.ormqr(*lax.linalg.geqrf(a), c, left=False, transpose=True)))(x, x.T))
    assert "geqrf a" in text and "ormqr[left=False transpose=True]" in text
    assert "lu_pivots_to_permutation[permutation_size=5]" in str(
        jt.make_jaxpr(unary_fn(lambda p: lax.linalg.lu_pivots_to_permutation(p, 5)))(np.zeros(3, np.int32)))


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
def test_half_precision_is_not_implemented_as_in_jax(dtype: str) -> None:
    """LAPACK has no half-precision kernels: JAX raises NotImplementedError
    (when it lowers), and so do we."""
    calls: list[Callable[[Any], Any]] = [
        lambda m: m.lax.linalg.lu(m.numpy.ones((3, 3), dtype)),
        lambda m: m.lax.linalg.qr(m.numpy.ones((3, 3), dtype)),
    ]
    for fn in calls:
        with pytest.raises(NotImplementedError) as theirs:
            fn(jax)
        expect_same_error(theirs.value, lambda: fn(jt))
