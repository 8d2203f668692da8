"""``lax.linalg.eigh`` and ``lax.linalg.svd`` against ``jax.lax.linalg``.

Eigenvalues and singular values are compared with JAX's directly;
eigenvectors and singular vectors through what does not depend on their
sign or phase: the reconstruction ``v diag(w) v^H`` (``u diag(s) vh``) and
the Gram matrices ``v^H v``, ``u^H u``, ``vh vh^H``, also checked against
the input and the identity. Inputs: float32, float64, complex64,
complex128; batched, tall and wide, ill-conditioned (Hilbert), with
repeated eigenvalues and singular values, empty; batch entries LAPACK
cannot decompose (NaN) become NaN as in JAX. Under ``jit``, ``vmap``,
``jvp`` (including JAX's NaN eigenvector tangents at repeated eigenvalues)
and ``grad`` of sign-invariant functions, against JAX's own
transformations; eager equals jitted bit for bit, ``vmap`` equals a Python
loop, and ``check_grads`` passes at order 2 in both modes. Errors are of
JAX's kinds.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
from jaxtyped import lax
from jaxtyped.test_util import check_grads

from oracle import Case, CaseTable, Group, as_tuple, assert_same_value, host, jax, library, unary_fn, library_case as case, random_host

RNG = np.random.default_rng(14143)
NAN = float("nan")
Fn = Callable[[Any], Any]


def _tol(dtype: str) -> float:
    return 1e-9 if dtype in ("float64", "complex128") else 2e-4


# === inputs ===


def _random(shape: tuple[int, ...], dtype: str) -> Any:
    return random_host(RNG, shape, dtype)


def _hermitian(shape: tuple[int, ...], dtype: str) -> Any:
    x = np.asarray(_random(shape, dtype))
    return host(dtype, (x + np.conj(np.swapaxes(x, -1, -2))) / 2)


def _unitary(n: int, dtype: str) -> Any:
    q, _ = np.linalg.qr(np.asarray(_random((n, n), dtype)).astype(np.complex128 if np.dtype(dtype).kind == "c" else np.float64))
    return q


def _with_spectrum(values: list[float], dtype: str) -> Any:
    """A Hermitian matrix with eigenvalues ``values`` (repeats allowed)."""
    q = _unitary(len(values), dtype)
    return host(dtype, (q * np.asarray(values)) @ np.conj(q.T))


def _with_singular_values(values: list[float], m: int, n: int, dtype: str) -> Any:
    """An ``m x n`` matrix with singular values ``values`` (``min(m, n)`` of them)."""
    u, v = _unitary(m, dtype)[:, : len(values)], _unitary(n, dtype)[:, : len(values)]
    return host(dtype, (u * np.asarray(values)) @ np.conj(v.T))


def _hilbert(n: int, dtype: str) -> Any:
    i = np.arange(n)
    return host(dtype, 1.0 / (i[:, None] + i[None, :] + 1))


# === sign- and phase-invariant views of the decompositions ===


def _adjoint(m: Any, x: Any) -> Any:
    return m.np.conj(m.np.swapaxes(x, -1, -2))


def _eigh_views(m: Any, x: Any, **kwargs: Any) -> tuple[Any, Any, Any]:
    """Eigenvalues, ``v diag(w) v^H`` and ``v^H v``."""
    v, w = m.lax.linalg.eigh(x, **kwargs)
    return w, m.np.matmul(v * w[..., None, :], _adjoint(m, v)), m.np.matmul(_adjoint(m, v), v)


def _svd_views(m: Any, x: Any, **kwargs: Any) -> tuple[Any, Any, Any, Any]:
    """Singular values, ``u diag(s) vh`` and the Gram matrices of ``u`` and ``vh``."""
    u, s, vh = m.lax.linalg.svd(x, **kwargs)
    k = s.shape[-1]
    recon = m.np.matmul(u[..., :, :k] * s[..., None, :], vh[..., :k, :])
    return s, recon, m.np.matmul(_adjoint(m, u), u), m.np.matmul(vh, _adjoint(m, vh))


def _eigh_function(m: Any, x: Any) -> Any:
    """``v diag(sin(w)) v^H``: a smooth matrix function, sign-invariant."""
    v, w = m.lax.linalg.eigh(x)
    return m.np.matmul(v * m.np.sin(w)[..., None, :], _adjoint(m, v))


def _svd_function(m: Any, x: Any) -> Any:
    """``u diag(s^2 + s) vh`` of the reduced factors, and ``|u|``: sign-invariant."""
    u, s, vh = m.lax.linalg.svd(x, full_matrices=False)
    return m.np.matmul(u * (s * s + s)[..., None, :], vh), m.np.abs(u)


def _weights(shape: tuple[int, ...], dtype: str) -> Any:
    values = np.arange(1, 1 + int(np.prod(shape))).reshape(shape) / 7.0
    return host(dtype, values * (1 + 0.5j) if np.dtype(dtype).kind == "c" else values)


def _grad(fn: Callable[[Any, Any], Any], x: Any) -> Fn:
    """The gradient of a weighted real sum of every output of ``fn``."""

    def run(m: Any) -> Any:
        def loss(y: Any) -> Any:
            total = 0.0
            for out in as_tuple(fn(m, y)):
                total = total + m.np.real(m.np.sum(out * _weights(out.shape, str(out.dtype))))
            return total

        return m.api.grad(loss)(x)

    return run


def _jitted(fn: Callable[[Any, Any], Any], x: Any) -> Fn:
    """``fn(m, x)`` under the library's ``jit``."""

    def run(m: Any) -> Any:
        def traced(y: Any) -> Any:
            return fn(m, y)

        return m.api.jit(traced)(x)

    return run


def _vmapped(fn: Callable[[Any, Any], Any], x: Any, in_axes: int) -> Fn:
    """``fn(m, .)`` under the library's ``vmap`` over axis ``in_axes`` of ``x``."""

    def run(m: Any) -> Any:
        def per_entry(y: Any) -> Any:
            return fn(m, y)

        return m.api.vmap(per_entry, in_axes=in_axes)(x)

    return run


def _jvp(fn: Callable[[Any, Any], Any], x: Any, dx: Any, *, jit: bool = False) -> Fn:
    """The library's ``jvp`` of ``fn(m, .)`` at ``x`` along ``dx`` (the
    tangent traced under ``jit`` if asked: degenerate points give NaN, and
    eager NumPy products of NaN warn)."""

    def run(m: Any) -> Any:
        def f(y: Any) -> Any:
            return fn(m, y)

        def along(d: Any) -> Any:
            return m.api.jvp(f, (x,), (d,))

        return m.api.jit(along)(dx) if jit else along(dx)

    return run


def _vmapped_jvp(fn: Callable[[Any, Any], Any], xs: Any, dxs: Any) -> Fn:
    """The library's ``jvp`` of ``fn(m, .)`` under its ``vmap``."""

    def run(m: Any) -> Any:
        def f(y: Any) -> Any:
            return fn(m, y)

        def one(x: Any, d: Any) -> Any:
            return m.api.jvp(f, (x,), (d,))

        return m.api.vmap(one)(xs, dxs)

    return run


def _eigh(m: Any, x: Any, **kwargs: Any) -> Any:
    return m.lax.linalg.eigh(x, **kwargs)


def _eigh_upper_raw(m: Any, x: Any) -> Any:
    return m.lax.linalg.eigh(x, lower=False, symmetrize_input=False)


def _eigenvalues(m: Any, x: Any) -> Any:
    return m.lax.linalg.eigh(x)[1]


def _svd(m: Any, x: Any, **kwargs: Any) -> Any:
    return m.lax.linalg.svd(x, **kwargs)


def _reduced(m: Any, x: Any) -> Any:
    return m.lax.linalg.svd(x, full_matrices=False)


def _singular_values(m: Any, x: Any) -> Any:
    return m.lax.linalg.svd(x, compute_uv=False)


# === the tables ===


def _eigh_cases(dtype: str) -> list[Case]:
    t = _tol(dtype)
    batched = _hermitian((2, 3, 5, 5), dtype)
    single = _hermitian((5, 5), dtype)
    repeated = _with_spectrum([1.0, 1.0, 1.0, 2.0, -3.0], dtype)
    junk = np.array(_random((4, 4), dtype))  # the lower triangle is never read with lower=False
    with_nan = np.array(_hermitian((3, 4, 4), dtype))
    with_nan[1, 2, 1] = NAN
    tangent = _random((5, 5), dtype)  # not Hermitian: symmetrize_input makes it so
    tangents = _random((3, 5, 5), dtype)
    eye = host(dtype, np.eye(4))
    return [
        case(f"eigh-{dtype}_batched", lambda m: _eigh_views(m, batched), t, t),
        case(f"eigh-{dtype}_repeated", lambda m: _eigh_views(m, repeated), t, t),
        case(f"eigh-{dtype}_upper_raw", lambda m: _eigh_views(m, junk, lower=False, symmetrize_input=False), t, t),
        case(f"eigh-{dtype}_lower_raw", lambda m: _eigh_views(m, junk, symmetrize_input=False), t, t),
        case(f"eigh-{dtype}_hilbert", lambda m: m.lax.linalg.eigh(_hilbert(7, dtype))[1], t, t * 1e-3),
        case(f"eigh-{dtype}_nan_entry", lambda m: _eigh(m, with_nan), t, t),
        case(f"eigh-{dtype}_empty", lambda m: _eigh(m, host(dtype, np.zeros((2, 0, 0))))),
        case(f"eigh-{dtype}_qr", lambda m: _eigh_views(m, single, implementation=m.lax.linalg.EighImplementation.QR), t, t),
        case(f"eigh-{dtype}_unsorted", lambda m: _eigh_views(m, single, sort_eigenvalues=False), t, t),
        case(f"eigh_jit-{dtype}", _jitted(_eigh_views, batched), t, t),
        case(f"eigh_vmap-{dtype}", _vmapped(_eigh_views, batched, 1), t, t),
        case(f"eigh_jvp-{dtype}", _jvp(_eigh, single, tangent), 10 * t, 10 * t),
        case(f"eigh_jvp-{dtype}_repeated", _jvp(_eigh, repeated, tangent, jit=True), 10 * t, 10 * t),
        # JAX's rule decomposes the symmetrized input, even unsymmetrized: primals differ from eigh's own.
        case(f"eigh_jvp-{dtype}_not_hermitian", _jvp(_eigh_upper_raw, junk, tangent[:4, :4]), 10 * t, 10 * t),
        case(f"eigh_jvp-{dtype}_identity", _jvp(_eigh, eye, tangent[:4, :4], jit=True), t, t),
        case(f"eigh_vmap_jvp-{dtype}", _vmapped_jvp(_eigh_views, batched[0], tangents), 10 * t, 10 * t),
        case(f"eigh_grad-{dtype}_function", _grad(_eigh_function, batched[0]), 10 * t, 10 * t),
        case(f"eigh_grad-{dtype}_repeated_values", _grad(_eigenvalues, repeated), 10 * t, 10 * t),
    ]


def _svd_cases(dtype: str) -> list[Case]:
    t = _tol(dtype)
    tall = _random((2, 6, 4), dtype)
    wide = _random((3, 5), dtype)
    square = _random((4, 4), dtype)
    repeated = _with_singular_values([2.0, 2.0, 1.0], 5, 3, dtype)
    deficient = _with_singular_values([3.0, 1.0, 0.0, 0.0], 4, 6, dtype)
    with_nan = np.array(_random((3, 4, 3), dtype))
    with_nan[0, 1, 1] = NAN
    d_tall, d_wide = _random(tall.shape, dtype), _random(wide.shape, dtype)
    zero_tall = host(dtype, np.vstack([np.diag([3.0, 1.0, 0.0]), np.zeros((1, 3))]))
    zero_wide = host(dtype, np.hstack([np.diag([2.0, 1.0, 0.0]), np.zeros((3, 2))]))
    values = _singular_values
    cases = [
        case(f"svd-{dtype}_tall_full", lambda m: _svd_views(m, tall), t, t),
        case(f"svd-{dtype}_tall_reduced", lambda m: _svd_views(m, tall, full_matrices=False), t, t),
        case(f"svd-{dtype}_wide_full", lambda m: _svd_views(m, wide), t, t),
        case(f"svd-{dtype}_wide_reduced", lambda m: _svd_views(m, wide, full_matrices=False), t, t),
        case(f"svd-{dtype}_square_qr", lambda m: _svd_views(m, square, algorithm=m.lax.linalg.SvdAlgorithm.QR), t, t),
        case(f"svd-{dtype}_square_dc", lambda m: _svd_views(m, square, algorithm=m.lax.linalg.SvdAlgorithm.DIVIDE_AND_CONQUER), t, t),
        case(f"svd-{dtype}_square_default", lambda m: _svd_views(m, square, algorithm=m.lax.linalg.SvdAlgorithm.DEFAULT), t, t),
        case(f"svd-{dtype}_repeated", lambda m: _svd_views(m, repeated), t, t),
        case(f"svd-{dtype}_rank_deficient", lambda m: _svd_views(m, deficient, full_matrices=False), t, t),
        case(f"svd-{dtype}_hilbert", lambda m: values(m, _hilbert(7, dtype)), t, t * 1e-3),
        case(f"svd-{dtype}_values", lambda m: values(m, tall), t, t),
        case(f"svd-{dtype}_nan_entry", lambda m: _svd(m, with_nan), t, t),
        case(f"svd-{dtype}_empty_rows", lambda m: _svd(m, host(dtype, np.zeros((2, 0, 3))))),
        case(f"svd-{dtype}_empty_cols", lambda m: _svd(m, host(dtype, np.zeros((3, 0))), full_matrices=False)),
        case(f"svd-{dtype}_empty_batch", lambda m: _svd(m, host(dtype, np.zeros((0, 3, 2))))),
        case(f"svd-{dtype}_empty_values", lambda m: values(m, host(dtype, np.zeros((0, 3))))),
        case(f"svd_jit-{dtype}", _jitted(_svd_views, tall), t, t),
        case(f"svd_vmap-{dtype}", _vmapped(_svd_views, tall, 2), t, t),
        case(f"svd_jvp-{dtype}_tall", _jvp(_reduced, tall, d_tall), 10 * t, 10 * t),
        case(f"svd_jvp-{dtype}_wide", _jvp(_reduced, wide, d_wide), 10 * t, 10 * t),
        case(f"svd_jvp-{dtype}_values", _jvp(values, tall, d_tall), 10 * t, 10 * t),
        # Square full factors are the reduced ones: JAX differentiates them.
        case(f"svd_jvp-{dtype}_square_full", _jvp(_svd, square[:3, :3], tall[0, :3, :3]), 10 * t, 10 * t),
        case(f"svd_jvp-{dtype}_identity", _jvp(_reduced, host(dtype, np.eye(3)), square[:3, :3], jit=True), t, t),
        case(f"svd_jvp-{dtype}_zero", _jvp(values, host(dtype, np.zeros((3, 2))), tall[0, :3, :2], jit=True), t, t),
        # A zero singular value: JAX's projection terms are inf/NaN there, its phase term is 0.
        case(f"svd_jvp-{dtype}_tall_zero", _jvp(_reduced, zero_tall, d_tall[0, :4, :3], jit=True), t, t),
        case(f"svd_jvp-{dtype}_wide_zero", _jvp(_reduced, zero_wide, d_wide, jit=True), t, t),
        case(f"svd_jvp-{dtype}_square_zero", _jvp(_reduced, zero_wide[:, :3], d_wide[:, :3], jit=True), t, t),
        case(f"svd_grad-{dtype}_function", _grad(_svd_function, tall), 10 * t, 10 * t),
        case(f"svd_grad-{dtype}_repeated_values", _grad(values, repeated), 10 * t, 10 * t),
    ]
    return cases


def _promotion_cases() -> list[Case]:
    """Integer and boolean matrices: symmetrization makes them floating."""
    ints = np.array([[2, 1, 0], [1, 3, 1], [0, 1, 4]], np.int32)
    return [
        case("eigh_promote-int32", lambda m: _eigh_views(m, ints)),
        case("eigh_promote-bool", lambda m: _eigh_views(m, ints > 0)),
        case("eigh_promote-int8", lambda m: _eigh_views(m, ints.astype(np.int8))),
    ]


TABLE32 = CaseTable(
    "eigh_svd_32", lambda: [c for d in ("float32", "complex64") for c in (*_eigh_cases(d), *_svd_cases(d))] + _promotion_cases()
)
# In 64 bits, a core of the cases (JAX compiles every case: keep the file fast).
CORE_64 = (
    "_batched", "_repeated", "_hilbert", "_tall_full", "_wide_reduced", "_rank_deficient", "jit-", "vmap-",
    "jvp-float64", "jvp-complex128", "grad-float64_function", "grad-complex128_function",
)  # fmt: skip
TABLE64 = CaseTable(
    "eigh_svd_64",
    lambda: [
        c
        for d in ("float64", "complex128")
        for c in (*_eigh_cases(d), *_svd_cases(d))
        if any(key in c.id for key in CORE_64) and not c.id.endswith(("_identity", "_zero", "_values", "_wide"))
    ],
    x64=True,
)


def _error_cases() -> list[Case]:
    """Bad input; JAX reports some at lowering, so this table runs eagerly."""
    square = host("float32", np.eye(3))
    rect = host("float32", np.ones((3, 4)))
    return [
        case("eigh_error-not_square", lambda m: m.lax.linalg.eigh(rect)),
        case("eigh_error-not_square_raw", lambda m: m.lax.linalg.eigh(rect, symmetrize_input=False)),
        case("eigh_error-rank1", lambda m: m.lax.linalg.eigh(host("float32", np.ones(3)))),
        case("eigh_error-rank1_raw", lambda m: m.lax.linalg.eigh(host("float32", np.ones(3)), symmetrize_input=False)),
        case("eigh_error-int_raw", lambda m: m.lax.linalg.eigh(np.eye(3, dtype=np.int32), symmetrize_input=False)),
        case("eigh_error-float16", lambda m: m.lax.linalg.eigh(host("float16", np.eye(3)), symmetrize_input=False)),
        case("eigh_error-subset", lambda m: m.lax.linalg.eigh(square, subset_by_index=(1, 3))),
        case("eigh_error-jacobi", lambda m: m.lax.linalg.eigh(square, implementation=m.lax.linalg.EighImplementation.JACOBI)),
        case("eigh_error-full_subset", lambda m: m.lax.linalg.eigh(square, subset_by_index=(0, 3))),
        case("svd_error-list", lambda m: m.lax.linalg.svd([[1.0, 2.0], [3.0, 4.0]])),
        case("svd_error-rank1", lambda m: m.lax.linalg.svd(host("float32", np.ones(3)))),
        case("svd_error-int", lambda m: m.lax.linalg.svd(np.eye(3, dtype=np.int32))),
        case("svd_error-float16", lambda m: m.lax.linalg.svd(host("float16", np.eye(3)))),
        case("svd_error-jacobi", lambda m: m.lax.linalg.svd(square, algorithm=m.lax.linalg.SvdAlgorithm.JACOBI)),
        case("svd_error-polar", lambda m: m.lax.linalg.svd(square, algorithm=m.lax.linalg.SvdAlgorithm.POLAR)),
        case("svd_error-subset_full", lambda m: m.lax.linalg.svd(rect, subset_by_index=(0, 2))),
        case("svd_error-subset", lambda m: m.lax.linalg.svd(rect, full_matrices=False, subset_by_index=(0, 2))),
        case("svd_error-full_subset", lambda m: m.lax.linalg.svd(rect, full_matrices=False, subset_by_index=(0, 3))),
        case("svd_error-full_matrices_jvp", _jvp(_svd, rect, rect)),
    ]


ERRORS = CaseTable("eigh_svd_errors", _error_cases, eager=True)


@pytest.mark.parametrize("group", TABLE32.params())
def test_eigh_svd_32_bit(group: Group) -> None:
    TABLE32.check(group)


@pytest.mark.parametrize("group", TABLE64.params())
def test_eigh_svd_64_bit(group: Group) -> None:
    TABLE64.check(group)


@pytest.mark.parametrize("group", ERRORS.params())
def test_errors_are_jaxs(group: Group) -> None:
    ERRORS.check(group)


# === properties of our own results ===

DTYPES = ("float32", "complex64", "float64", "complex128")


def _types_for(dtype: str, request: pytest.FixtureRequest) -> None:
    if dtype in ("float64", "complex128"):
        request.getfixturevalue("x64")  # conftest: 64-bit types on, restored after the test


def _assert_identity(x: Any, tol: float, where: str) -> None:
    n = x.shape[-1]
    assert_same_value(x, np.broadcast_to(np.eye(n), x.shape), tol, tol, where)


@pytest.mark.parametrize("dtype", DTYPES)
def test_decompositions_reconstruct_their_input(dtype: str, request: pytest.FixtureRequest) -> None:
    _types_for(dtype, request)
    t = 10 * _tol(dtype)
    m = library(jt.numpy)
    a = _hermitian((2, 5, 5), dtype)
    w, recon, gram = _eigh_views(m, a)
    assert_same_value(recon, a, t, t, "eigh reconstruction")
    _assert_identity(gram, t, "eigh v^H v")
    assert np.all(np.diff(np.asarray(w, np.float64), axis=-1) >= 0), "eigenvalues ascending"
    for shape, full in [((2, 6, 4), True), ((2, 6, 4), False), ((4, 7), True), ((4, 7), False)]:
        x = _random(shape, dtype)
        s, recon, gram_u, gram_v = _svd_views(m, x, full_matrices=full)
        assert_same_value(recon, x, t, t, f"svd reconstruction {shape} full={full}")
        _assert_identity(gram_u, t, "svd u^H u")
        _assert_identity(gram_v, t, "svd vh vh^H")
        singular = np.asarray(s, np.float64)
        assert np.all(np.diff(singular, axis=-1) <= 0) and np.all(singular >= 0), "singular values descending"


@pytest.mark.parametrize("dtype", DTYPES)
def test_eager_equals_jit(dtype: str, request: pytest.FixtureRequest) -> None:
    _types_for(dtype, request)
    a = _hermitian((3, 4, 4), dtype)
    x = _random((3, 5, 4), dtype)
    runs: list[Callable[[Any], Any]] = [
        lambda y: lax.linalg.eigh(y),
        lambda y: lax.linalg.svd(y),
        lambda y: lax.linalg.svd(y, full_matrices=False, algorithm=lax.linalg.SvdAlgorithm.QR),
        lambda y: lax.linalg.svd(y, compute_uv=False),
    ]
    for i, run in enumerate(runs):
        operand = a if i == 0 else x
        eager = jax.tree_util.tree_leaves(run(operand))
        jitted = jax.tree_util.tree_leaves(jt.jit(run)(operand))
        for ours, theirs in zip(eager, jitted, strict=True):
            np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs), err_msg=f"run {i}")


@pytest.mark.parametrize("dtype", ("float32", "complex128"))
def test_vmap_equals_loop(dtype: str, request: pytest.FixtureRequest) -> None:
    _types_for(dtype, request)
    a = _hermitian((4, 3, 3), dtype)
    x = _random((3, 4, 2), dtype)  # batched along axis 1
    batched_v, batched_w = jt.vmap(lax.linalg.eigh)(a)
    for i in range(a.shape[0]):
        v, w = lax.linalg.eigh(a[i])
        np.testing.assert_array_equal(np.asarray(batched_v)[i], np.asarray(v))
        np.testing.assert_array_equal(np.asarray(batched_w)[i], np.asarray(w))
    u, s, vh = jt.vmap(unary_fn(lambda y: lax.linalg.svd(y)), in_axes=1, out_axes=(0, 1, 2))(x)
    for i in range(x.shape[1]):
        lu, ls, lvh = lax.linalg.svd(x[:, i])
        np.testing.assert_array_equal(np.asarray(u)[i], np.asarray(lu))
        np.testing.assert_array_equal(np.asarray(s)[:, i], np.asarray(ls))
        np.testing.assert_array_equal(np.asarray(vh)[:, :, i], np.asarray(lvh))
    values = jt.vmap(unary_fn(lambda y: lax.linalg.svd(y, compute_uv=False)), in_axes=1)(x)
    for i in range(x.shape[1]):
        np.testing.assert_array_equal(np.asarray(values)[i], np.asarray(lax.linalg.svd(x[:, i], compute_uv=False)))


@pytest.mark.parametrize("dtype", ("float64", "complex128"))
def test_check_grads_second_order(dtype: str, request: pytest.FixtureRequest) -> None:
    _types_for(dtype, request)
    m = library(jt.numpy)
    a = _with_spectrum([-1.0, 0.5, 2.0, 3.5], dtype)  # well-separated eigenvalues
    x = _with_singular_values([3.0, 2.0, 1.0], 5, 3, dtype)  # well-separated singular values
    tol = 1e-4 if dtype == "float64" else 2e-4

    def eigenvalues(y: Any) -> Any:
        return lax.linalg.eigh(y)[1]

    def matrix_function(y: Any) -> Any:
        return _eigh_function(m, y)

    def singular_values(y: Any) -> Any:
        return lax.linalg.svd(y, compute_uv=False)

    def svd_function(y: Any) -> Any:
        return _svd_function(m, y)

    def svd_function_wide(y: Any) -> Any:
        return _svd_function(m, m.np.swapaxes(y, -1, -2))

    for fn, arg in [(eigenvalues, a), (matrix_function, a), (singular_values, x), (svd_function, x), (svd_function_wide, x)]:
        check_grads(fn, (arg,), order=2, modes=("fwd", "rev"), atol=tol, rtol=tol)


def test_jaxpr_shows_jaxs_primitives_and_params() -> None:
    x = np.eye(3, dtype=np.float32)
    eigh_text = str(jt.make_jaxpr(unary_fn(lambda y: lax.linalg.eigh(y, lower=False, symmetrize_input=False)))(x))
    assert "eigh[" in eigh_text and "lower=False" in eigh_text and "sort_eigenvalues=True" in eigh_text
    assert "subset_by_index=None" in eigh_text and "algorithm=None" in eigh_text
    svd_text = str(jt.make_jaxpr(unary_fn(lambda y: lax.linalg.svd(y, full_matrices=False)))(x))
    for param in ("svd[", "full_matrices=False", "compute_uv=True", "subset_by_index=None", "algorithm=None"):
        assert param in svd_text
