"""``linalg.eig``, ``schur``, ``hessenberg`` and ``tridiagonal``
against ``jax.lax.linalg``.

Values in float32/complex64 and float64/complex128, batched, including
ill-conditioned (nearly defective, badly scaled) and repeated-eigenvalue
inputs. Both libraries run the same LAPACK kernels, so the results are
compared with JAX's directly, eigenvalues also sorted; on top of that,
jaxtyped's results are checked for what they must satisfy whatever the
kernel: ``A vr = vr diag(w)``, ``vl^H A = diag(w) vl^H``, eigenvectors of
unit norm with their largest component real; ``Q T Q^H = A`` with ``Q``
unitary and ``T`` (quasi-)triangular; the tridiagonal reduction keeps the
eigenvalues. Under ``jit``, ``vmap`` (batch axis not in front), ``jvp``
and ``grad`` compared with JAX's own transformations; eager equals jitted
bit for bit, ``vmap`` equals a Python loop; ``check_grads`` at order 2 in
both modes where JAX differentiates to order 2 (``enable_eigvec_derivs``),
order 1 for eigenvalues without it; and the errors are of JAX's kinds.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.lax.linalg as linalg
from jaxtyped import errors
from jaxtyped.test_util import check_grads

from oracle import Case, CaseTable, Group, assert_same_value, expect_same_error, host, jax, library_case as case, random_host

RNG = np.random.default_rng(1404)
NO_VECTORS = {"compute_left_eigenvectors": False, "compute_right_eigenvectors": False}
ONLY_RIGHT = {"compute_left_eigenvectors": False}
OPT_IN = {"enable_eigvec_derivs": True}


def _random(shape: tuple[int, ...], dtype: str) -> Any:
    return random_host(RNG, shape, dtype)


def _hermitian(shape: tuple[int, ...], dtype: str) -> Any:
    x = np.asarray(_random(shape, dtype))
    return host(dtype, x + np.conj(np.swapaxes(x, -1, -2)))


def _nearly_defective(dtype: str) -> Any:
    """A Jordan block perturbed by 1e-3: eigenvalues close together,
    eigenvectors nearly parallel."""
    jordan = np.eye(4) * 2.0 + np.eye(4, k=1)
    return host(dtype, jordan + 1e-3 * np.asarray(_random((4, 4), dtype)))


def _badly_scaled(dtype: str) -> Any:
    scale = np.diag([1e-3, 1.0, 1e2, 1e3])
    return host(dtype, scale @ np.asarray(_random((4, 4), dtype)) @ np.linalg.inv(scale))


def _weights(shape: tuple[int, ...], dtype: str) -> Any:
    values = np.arange(1, 1 + int(np.prod(shape))).reshape(shape) / 7.0
    return host(dtype, values * (1 + 0.5j if np.dtype(dtype).kind == "c" else 1))


def _complex_of(dtype: str) -> str:
    return {"float32": "complex64", "float64": "complex128"}.get(dtype, dtype)


def _eig(m: Any, x: Any, **flags: Any) -> Any:
    return m.lax.linalg.eig(x, **flags)


def _schur(m: Any, x: Any, **flags: Any) -> Any:
    return m.lax.linalg.schur(x, **flags)


def _tri(m: Any, x: Any, **flags: Any) -> Any:
    return m.lax.linalg.tridiagonal(x, **flags)


def _op(m: Any, name: str, **flags: Any) -> Callable[[Any], Any]:
    """``x -> lax.linalg.<name>(x, **flags)`` of ``m``'s library; ``"eigvals"``
    is ``eig``'s eigenvalues alone."""

    def apply(x: Any) -> Any:
        if name == "eigvals":
            return m.lax.linalg.eig(x, **NO_VECTORS, **flags)[0]
        return getattr(m.lax.linalg, name)(x, **flags)

    return apply


def _jvp_of(m: Any, name: str, **flags: Any) -> Callable[[Any, Any], Any]:
    """``(x, t) -> jvp(lax.linalg.<name>(., **flags), (x,), (t,))``."""

    def apply(x: Any, t: Any) -> Any:
        return m.api.jvp(_op(m, name, **flags), (x,), (t,))

    return apply


def _calling(name: str, x: Any, **flags: Any) -> Callable[[Any], Any]:
    """A case calling ``linalg.<name>(x, **flags)``."""
    return lambda m: getattr(m.lax.linalg, name)(x, **flags)


def _eigvals(m: Any, x: Any) -> Any:
    return m.lax.linalg.eig(x, **NO_VECTORS)[0]


def _grad_eigvals(x: Any, dtype: str, *, jit: bool = False, **flags: bool) -> Callable[[Any], Any]:
    """The gradient of a weighted real sum of the eigenvalues (under ``jit``)."""
    weights = _weights(x.shape[:-1], _complex_of(dtype))

    def run(m: Any) -> Any:
        eigvals = _op(m, "eigvals", **flags)

        def loss(y: Any) -> Any:
            return m.np.real(m.np.sum(eigvals(y) * weights))

        gradient = m.api.grad(loss)
        return (m.api.jit(gradient) if jit else gradient)(x)

    return run


# === values, jit, vmap, jvp and grad against JAX ===


def _eig_cases(dtype: str) -> list[Case]:
    batched = _random((2, 3, 4, 4), dtype)
    single = _random((5, 5), dtype)
    tangent = _random((5, 5), dtype)
    defective, scaled = _nearly_defective(dtype), _badly_scaled(dtype)
    with_nan = np.array(batched[0])
    with_nan[1, 0, 0] = np.nan  # only this entry fails
    vector_tol = 1e-3 if dtype in ("float32", "complex64") else 1e-8
    return [
        case(f"eig-{dtype}_batched", lambda m: _eig(m, batched)),
        case(f"eig-{dtype}_sorted_eigenvalues", lambda m: m.lax.sort(_eigvals(m, batched))),
        case(f"eig-{dtype}_only_right", lambda m: _eig(m, single, **ONLY_RIGHT)),
        case(f"eig-{dtype}_only_left", lambda m: _eig(m, single, compute_right_eigenvectors=False)),
        case(f"eig-{dtype}_no_vectors", lambda m: _eig(m, single, **NO_VECTORS)),
        case(f"eig-{dtype}_nearly_defective", lambda m: m.lax.sort(_eigvals(m, defective)), rtol=1e-4, atol=1e-4),
        case(f"eig-{dtype}_badly_scaled", lambda m: m.lax.sort(_eigvals(m, scaled)), rtol=1e-4, atol=1e-3),
        case(f"eig-{dtype}_repeated", lambda m: _eig(m, host(dtype, np.eye(3) * 2.0))),
        case(f"eig-{dtype}_empty", lambda m: _eig(m, host(dtype, np.zeros((2, 0, 0))))),
        case(f"eig-{dtype}_one_by_one", lambda m: _eig(m, host(dtype, [[3.0]]))),
        case(f"eig_jit-{dtype}", lambda m: m.api.jit(_op(m, "eig"))(batched)),
        case(f"eig_vmap-{dtype}", lambda m: m.api.vmap(_op(m, "eig", **ONLY_RIGHT), in_axes=1, out_axes=1)(batched)),
        case(f"eig_jvp-{dtype}_eigenvalues", lambda m: m.api.jvp(_op(m, "eigvals"), (single,), (tangent,)),
             rtol=1e-4, atol=1e-4),
        case(f"eig_jvp-{dtype}_vectors", lambda m: m.api.jvp(_op(m, "eig", **OPT_IN), (single,), (tangent,)),
             rtol=vector_tol, atol=vector_tol),
        case(f"eig_jvp-{dtype}_batched_right", lambda m: m.api.jvp(
            _op(m, "eig", **ONLY_RIGHT, **OPT_IN), (batched,), (batched[::-1],)), rtol=vector_tol, atol=vector_tol),
        case(f"eig_grad-{dtype}", _grad_eigvals(batched, dtype), rtol=1e-4, atol=1e-4),
        case(f"eig_grad-{dtype}_jit", _grad_eigvals(single, dtype, jit=True), rtol=1e-4, atol=1e-4),
        case(f"eig_jvp-{dtype}_vmap", lambda m: m.api.vmap(_jvp_of(m, "eig", **ONLY_RIGHT, **OPT_IN))(batched[0], batched[1]),
             rtol=vector_tol, atol=vector_tol),
        case(f"eig-{dtype}_failed_entry", lambda m: _eig(m, with_nan)),
        case(f"eig_grad-{dtype}_opt_in", _grad_eigvals(single, dtype, **OPT_IN), rtol=1e-4, atol=1e-4),
    ]  # fmt: skip


def _schur_cases(dtype: str) -> list[Case]:
    batched = _random((2, 3, 4, 4), dtype)
    return [
        case(f"schur-{dtype}_batched", lambda m: _schur(m, batched)),
        case(f"schur-{dtype}_no_vectors", lambda m: _schur(m, batched[0, 0], compute_schur_vectors=False)),
        case(f"schur-{dtype}_empty", lambda m: _schur(m, host(dtype, np.zeros((0, 0))))),
        case(f"schur_jit-{dtype}", lambda m: m.api.jit(_op(m, "schur"))(batched)),
        case(f"schur_vmap-{dtype}", lambda m: m.api.vmap(_op(m, "schur"), in_axes=1)(batched)),
    ]


def _reduction_cases(dtype: str) -> list[Case]:
    general = _random((2, 3, 5, 5), dtype)
    hermitian = _hermitian((2, 5, 5), dtype)
    return [
        case(f"hessenberg-{dtype}_batched", lambda m: m.lax.linalg.hessenberg(general)),
        case(f"hessenberg-{dtype}_one_by_one", lambda m: m.lax.linalg.hessenberg(host(dtype, [[2.0]]))),
        case(f"hessenberg_jit-{dtype}", lambda m: m.api.jit(m.lax.linalg.hessenberg)(general)),
        case(f"hessenberg_vmap-{dtype}", lambda m: m.api.vmap(m.lax.linalg.hessenberg, in_axes=2, out_axes=1)(general)),
        case(f"tridiagonal-{dtype}_lower", lambda m: _tri(m, hermitian)),
        case(f"tridiagonal-{dtype}_upper", lambda m: _tri(m, hermitian, lower=False)),
        # Only the chosen triangle is read: the other is garbage here.
        case(f"tridiagonal-{dtype}_general_lower", lambda m: _tri(m, general)),
        case(f"tridiagonal-{dtype}_general_upper", lambda m: _tri(m, general, lower=False)),
        case(f"tridiagonal-{dtype}_one_by_one", lambda m: _tri(m, host(dtype, [[2.0]]))),
        case(f"tridiagonal_jit-{dtype}", lambda m: m.api.jit(_op(m, "tridiagonal", lower=False))(hermitian)),
        case(f"tridiagonal_vmap-{dtype}", lambda m: m.api.vmap(_op(m, "tridiagonal"), in_axes=1)(general)),
    ]


def _grad_of_eig_with_vectors(x: Any) -> Callable[[Any], Any]:
    def run(m: Any) -> Any:
        eig = _op(m, "eig")

        def loss(y: Any) -> Any:
            return m.np.real(m.np.sum(eig(y)[0]))

        return m.api.grad(loss)(x)

    return run


def _second_order_eigvals(x: Any) -> Callable[[Any], Any]:
    def run(m: Any) -> Any:
        def tangent_of(y: Any) -> Any:
            return m.api.jvp(_op(m, "eigvals"), (y,), (x,))[1]

        return m.api.jvp(tangent_of, (x,), (x,))

    return run


def _traced_error_cases() -> list[Case]:
    f = "float32"
    names = ("eig", "schur", "hessenberg", "tridiagonal")
    square = _random((3, 3), f)
    return [
        *(case(f"error-{name}_int", _calling(name, host("int32", np.eye(3)))) for name in names),
        *(case(f"error-{name}_not_square", _calling(name, host(f, np.ones((3, 4))))) for name in names),
        *(case(f"error-{name}_vector", _calling(name, host(f, np.ones(3)))) for name in names),
        case("error-tridiagonal_empty", _calling("tridiagonal", host(f, np.ones((0, 0))))),
        case("error-eig_jvp_vectors_without_opt_in", lambda m: m.api.jvp(_op(m, "eig"), (square,), (square,))),
        case("error-eig_jvp_right_without_opt_in", lambda m: m.api.jvp(
            _op(m, "eig", **ONLY_RIGHT), (square,), (square,))),
        case("error-eig_grad_vectors_without_opt_in", _grad_of_eig_with_vectors(square)),
        case("error-eig_second_order_without_opt_in", _second_order_eigvals(square)),
        case("error-schur_jvp", lambda m: m.api.jvp(_op(m, "schur"), (square,), (square,))),
        case("error-hessenberg_jvp", lambda m: m.api.jvp(m.lax.linalg.hessenberg, (square,), (square,))),
        case("error-tridiagonal_jvp", lambda m: m.api.jvp(m.lax.linalg.tridiagonal, (square,), (square,))),
    ]  # fmt: skip


def _dispatch_error_cases() -> list[Case]:
    """Errors JAX raises when it lowers (so not inside one jit of the table)."""
    square = _random((3, 3), "float32")

    def eig_by(implementation: str) -> Callable[[Any], Any]:
        return lambda m: _eig(m, square, implementation=getattr(m.lax.linalg.EigImplementation, implementation))

    return [
        *(case(f"error-{name}_{dtype}", _calling(name, host(dtype, np.eye(3))))
          for name in ("eig", "schur", "hessenberg", "tridiagonal") for dtype in ("float16", "bfloat16")),
        case("error-schur_sort", _calling("schur", square, sort_eig_vals=True)),
        case("error-eig_magma", eig_by("MAGMA")),
        case("error-eig_cusolver", eig_by("CUSOLVER")),
        case("eig-lapack_named", eig_by("LAPACK")),
    ]  # fmt: skip


def cases_32() -> list[Case]:
    cases = _traced_error_cases()
    for dtype in ("float32", "complex64"):
        cases += _eig_cases(dtype) + _schur_cases(dtype) + _reduction_cases(dtype)
    return cases


def cases_64() -> list[Case]:
    cases: list[Case] = []
    for dtype in ("float64", "complex128"):
        cases += _eig_cases(dtype) + _schur_cases(dtype) + _reduction_cases(dtype)
    return cases


TABLE_32 = CaseTable("lax_linalg_eig_schur_32", cases_32)
TABLE_64 = CaseTable("lax_linalg_eig_schur_64", cases_64, x64=True)
DISPATCH_ERRORS = CaseTable("lax_linalg_eig_schur_dispatch", _dispatch_error_cases, eager=True)


@pytest.mark.parametrize("group", TABLE_32.params())
def test_32_bit_matches_jax(group: Group) -> None:
    TABLE_32.check(group)


@pytest.mark.parametrize("group", TABLE_64.params())
def test_64_bit_matches_jax(group: Group) -> None:
    TABLE_64.check(group)


@pytest.mark.parametrize("group", DISPATCH_ERRORS.params())
def test_lowering_time_errors_match_jax(group: Group) -> None:
    DISPATCH_ERRORS.check(group)


@pytest.mark.parametrize("name", ["eig", "schur", "hessenberg", "tridiagonal"])
def test_list_input_is_a_type_error(name: str) -> None:
    nested = [[1.0, 2.0], [3.0, 4.0]]
    try:
        getattr(jax.lax.linalg, name)(nested)
    except Exception as error:  # noqa: BLE001 - compared with ours
        expect_same_error(error, lambda: getattr(linalg, name)(nested))
    else:
        pytest.fail(f"JAX accepted a list in {name}")


def test_use_magma_is_deprecated() -> None:
    square = _random((3, 3), "float32")
    with pytest.warns(DeprecationWarning):
        w, _, _ = linalg.eig(square, use_magma=False)
    assert_same_value(w, jax.lax.linalg.eig(square)[0])
    with pytest.warns(DeprecationWarning), pytest.raises(ValueError):
        linalg.eig(square, use_magma=True)


# === jaxtyped alone: what the decompositions satisfy, eager == jit, vmap == loop ===


DTYPES = ("float32", "complex64", "float64", "complex128")


def _tol(dtype: str) -> float:
    return 1e-4 if dtype in ("float32", "complex64") else 1e-10


def _h(x: Any) -> Any:
    return np.conj(np.swapaxes(x, -1, -2))


@pytest.fixture(params=DTYPES)
def dtype(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    if name in ("float64", "complex128"):
        request.getfixturevalue("x64")  # conftest: 64-bit types on, restored after the test
    return name


def test_eig_satisfies_definition(dtype: str) -> None:
    a = _random((3, 5, 5), dtype)
    w, vl, vr = (np.asarray(o) for o in linalg.eig(a))
    assert w.dtype == vl.dtype == vr.dtype == np.dtype(_complex_of(dtype))
    tol = _tol(dtype) * 10
    np.testing.assert_allclose(a @ vr, vr * w[..., None, :], atol=tol)
    np.testing.assert_allclose(_h(vl) @ a, w[..., :, None] * _h(vl), atol=tol)
    for v in (vl, vr):
        np.testing.assert_allclose(np.linalg.norm(v, axis=-2), 1.0, atol=tol)
        largest = np.take_along_axis(v, np.abs(v).argmax(axis=-2)[..., None, :], axis=-2)
        np.testing.assert_allclose(np.imag(largest), 0.0, atol=tol)
    # The eigenvalues are JAX's (sorted, so the order LAPACK gives is not assumed).
    theirs = np.asarray(_eigvals(jax, a))
    np.testing.assert_allclose(np.sort_complex(w), np.sort_complex(theirs), rtol=tol, atol=tol)


def test_schur_reconstructs(dtype: str) -> None:
    a = _random((3, 5, 5), dtype)
    t, q = (np.asarray(o) for o in linalg.schur(a))
    tol = _tol(dtype)
    np.testing.assert_allclose(q @ t @ _h(q), a, atol=tol * 10)
    np.testing.assert_allclose(_h(q) @ q, np.broadcast_to(np.eye(5), q.shape), atol=tol)
    # Complex: triangular; real: quasi-triangular (nothing below the first subdiagonal).
    below = np.tril(t, -1 if np.dtype(dtype).kind == "c" else -2)
    assert not below.any()
    (t_only,) = linalg.schur(a, compute_schur_vectors=False)
    np.testing.assert_allclose(np.sort_complex(np.linalg.eigvals(np.asarray(t_only))),
                               np.sort_complex(np.linalg.eigvals(t)), atol=tol * 10)


def test_hessenberg_and_tridiagonal_keep_the_spectrum(dtype: str) -> None:
    a = np.asarray(_random((2, 5, 5), dtype))
    packed, taus = (np.asarray(o) for o in linalg.hessenberg(a))
    assert taus.shape == (2, 4)
    h = np.triu(packed, -1)
    tol = _tol(dtype) * 10
    np.testing.assert_allclose(np.sort_complex(np.linalg.eigvals(h)), np.sort_complex(np.linalg.eigvals(a)), atol=tol)
    herm = np.asarray(_hermitian((2, 5, 5), dtype))
    for lower in (True, False):
        packed, d, e, taus = (np.asarray(o) for o in linalg.tridiagonal(herm, lower=lower))
        assert d.dtype == e.dtype == np.real(np.zeros((), dtype)).dtype and taus.dtype == np.dtype(dtype)
        np.testing.assert_array_equal(d, np.real(np.diagonal(packed, axis1=-2, axis2=-1)))
        np.testing.assert_array_equal(e, np.real(np.diagonal(packed, -1 if lower else 1, axis1=-2, axis2=-1)))
        band = np.zeros(herm.shape)
        for k in range(2):
            band[k] = np.diag(d[k]) + np.diag(e[k], 1) + np.diag(e[k], -1)
        np.testing.assert_allclose(np.linalg.eigvalsh(band), np.linalg.eigvalsh(herm), atol=tol)


def _bitwise_equal(got: Any, want: Any) -> None:
    for x, y in zip(got, want, strict=True):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))


FUNCTIONS: dict[str, Callable[[Any], Any]] = {
    "eig": lambda x: linalg.eig(x),
    "eig_right": lambda x: linalg.eig(x, compute_left_eigenvectors=False),
    "schur": lambda x: linalg.schur(x),
    "hessenberg": lambda x: linalg.hessenberg(x),
    "tridiagonal": lambda x: linalg.tridiagonal(x, lower=False),
}


@pytest.mark.parametrize("name", FUNCTIONS)
def test_eager_equals_jit_and_vmap_equals_loop(name: str) -> None:
    fn = FUNCTIONS[name]
    a = _random((3, 4, 4), "complex64")
    _bitwise_equal(fn(a), jt.jit(fn)(a))
    batched = jt.vmap(fn, in_axes=2, out_axes=0)(np.moveaxis(np.asarray(a), 0, 2))
    loop = [np.stack(outs) for outs in zip(*(fn(x) for x in a), strict=True)]
    for x, y in zip(batched, loop, strict=True):
        assert_same_value(x, y, rtol=1e-6, atol=1e-6)


def test_jaxprs_name_jax_params() -> None:
    a = np.eye(3, dtype=np.float32)
    text = str(jt.make_jaxpr(_op(jt, "eig", compute_left_eigenvectors=False))(a))
    assert "eig[" in text and "compute_left_eigenvectors=False" in text and "enable_eigvec_derivs=False" in text
    assert "compute_schur_vectors=True" in str(jt.make_jaxpr(linalg.schur)(a))
    assert "tridiagonal[lower=False]" in str(jt.make_jaxpr(_op(jt, "tridiagonal", lower=False))(a))
    assert "hessenberg " in str(jt.make_jaxpr(linalg.hessenberg)(a))


def test_weak_type_follows_the_input() -> None:
    weak = jt.numpy.full((2, 2), 1.5)
    assert weak.weak_type
    for outs in (linalg.eig(weak), linalg.schur(weak), linalg.hessenberg(weak), linalg.tridiagonal(weak)):
        assert all(o.weak_type for o in outs)


def test_failed_entries_are_nan() -> None:
    a = np.stack([np.full((3, 3), np.nan), np.asarray(_random((3, 3), "float32"))]).astype(np.float32)
    w, _, vr = (np.asarray(o) for o in jt.jit(linalg.eig)(a))
    assert np.isnan(w[0]).all() and np.isnan(vr[0]).all() and np.isfinite(w[1]).all() and np.isfinite(vr[1]).all()


# === check_grads ===


GRAD_DTYPES = ("float64", "complex128")


@pytest.mark.parametrize("dtype", GRAD_DTYPES)
def test_eig_check_grads_second_order_with_opt_in(dtype: str, x64: None) -> None:
    a = _random((2, 4, 4), dtype)

    def eigvals(x: jt.Array) -> jt.Array:
        return linalg.eig(x, compute_left_eigenvectors=False, compute_right_eigenvectors=False, enable_eigvec_derivs=True)[0]

    def decomposition(x: jt.Array) -> tuple[jt.Array, ...]:
        return linalg.eig(x, enable_eigvec_derivs=True)

    check_grads(eigvals, (a,), order=2, modes=("fwd", "rev"))
    check_grads(decomposition, (a[0],), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("dtype", GRAD_DTYPES)
def test_eig_eigenvalues_check_grads_first_order(dtype: str, x64: None) -> None:
    a = _random((3, 3), dtype)
    check_grads(_op(jt, "eigvals"), (a,), order=1, modes=("fwd", "rev"))
    with pytest.raises(errors.MissingRuleError, match="enable_eigvec_derivs"):
        check_grads(_op(jt, "eigvals"), (a,), order=2, modes=("fwd",))

