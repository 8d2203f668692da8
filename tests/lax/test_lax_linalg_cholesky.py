"""``lax.linalg.cholesky``, ``triangular_solve``, ``cholesky_update`` and
``symmetric_product`` against ``jax.lax.linalg``.

Values in float32/complex64 (and float16 for ``triangular_solve``, which
XLA solves natively) and float64/complex128, batched; every flag
combination of ``triangular_solve``; non-positive-definite entries give
NaN exactly where JAX's do; the errors are of JAX's kinds. Under ``jit``,
``vmap`` (both operands batched, only one, batch axes not in front),
``jvp`` and ``grad``, compared with JAX's own transformations; eager equals
jitted, ``vmap`` equals a Python loop, and ``check_grads`` passes at order
2 in both modes.
"""

import itertools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
from jaxtyped import errors, lax
from jaxtyped.test_util import check_grads

from oracle import Case, CaseTable, Group, assert_same_value, binary_fn, host, unary_fn, library_case as case, random_host

RNG = np.random.default_rng(1414)
NAN = float("nan")
FLAGS = ("left_side", "lower", "transpose_a", "conjugate_a", "unit_diagonal")
COMBOS: list[dict[str, bool]] = [
    dict(zip(FLAGS, bits, strict=True)) for bits in itertools.product((False, True), repeat=len(FLAGS))
]


def _random(shape: tuple[int, ...], dtype: str) -> Any:
    return random_host(RNG, shape, dtype)


def _spd(shape: tuple[int, ...], dtype: str) -> Any:
    """Hermitian positive-definite matrices, well conditioned."""
    x = np.asarray(_random(shape, dtype))
    n = shape[-1]
    return host(dtype, x @ np.conj(np.swapaxes(x, -1, -2)) + n * np.eye(n))


def _triangular(shape: tuple[int, ...], dtype: str) -> Any:
    """Full matrices with a dominant diagonal: either triangle is a well
    conditioned triangular matrix (the solve must ignore the other one)."""
    return host(dtype, np.asarray(_random(shape, dtype)) + 2 * shape[-1] * np.eye(shape[-1]))


def _flags_id(flags: dict[str, bool]) -> str:
    return "".join(name[0] if on else "_" for name, on in flags.items())


def _weights(shape: tuple[int, ...], dtype: str) -> Any:
    values = np.arange(1, 1 + int(np.prod(shape))).reshape(shape) / 7.0
    return host(dtype, values * (1 + 0.5j) if np.dtype(dtype).kind == "c" else values)


def _loss(m: Any, out: Any, weights: Any) -> Any:
    """A real scalar of ``out`` (weighted so that permuted cotangents show)."""
    return m.np.real(m.np.sum(out * weights))


# === values, jit and derivatives against JAX ===


def _solve(flags: dict[str, bool]) -> Callable[[Any, Any, Any], Any]:
    return lambda m, a, b: m.lax.linalg.triangular_solve(a, b, **flags)


def _tri_operands(dtype: str, left_side: bool, batch: tuple[int, ...] = (2,)) -> tuple[Any, Any]:
    a = _triangular((*batch, 4, 4), dtype)
    b = _random((*batch, 4, 3) if left_side else (*batch, 3, 4), dtype)
    return a, b


def _grad2(fn: Callable[[Any, Any, Any], Any], a: Any, b: Any, dtype: str) -> Callable[[Any], Any]:
    def run(m: Any) -> Any:
        out_shape = np.shape(fn(m, m.np.asarray(a), m.np.asarray(b)))
        weights = _weights(out_shape, dtype)
        return m.api.grad(binary_fn(lambda x, y: _loss(m, fn(m, x, y), weights)), argnums=(0, 1))(a, b)

    return run


def _grad1(fn: Callable[[Any, Any], Any], x: Any, dtype: str) -> Callable[[Any], Any]:
    def run(m: Any) -> Any:
        weights = _weights(np.shape(fn(m, m.np.asarray(x))), dtype)
        return m.api.grad(unary_fn(lambda y: _loss(m, fn(m, y), weights)))(x)

    return run


def _cholesky_cases(dtype: str) -> list[Case]:
    chol: Callable[[Any, Any], Any] = lambda m, x: m.lax.linalg.cholesky(x)
    raw: Callable[[Any, Any], Any] = lambda m, x: m.lax.linalg.cholesky(x, symmetrize_input=False)
    spd = _spd((2, 3, 4, 4), dtype)
    single = _spd((5, 5), dtype)
    not_spd = np.array(_spd((3, 3, 3), dtype))
    not_spd[1] = -not_spd[1]  # only the middle entry fails
    lower_only = np.array(single)
    lower_only[np.triu_indices(5, 1)] = 99.0  # the upper triangle is never read
    tangent = _random((5, 5), dtype)  # not symmetric: JAX symmetrises it
    return [
        case(f"cholesky-{dtype}_batched", lambda m: chol(m, spd)),
        case(f"cholesky-{dtype}_single", lambda m: chol(m, single)),
        case(f"cholesky-{dtype}_not_spd", lambda m: chol(m, not_spd)),
        case(f"cholesky-{dtype}_lower_only", lambda m: raw(m, lower_only)),
        case(f"cholesky-{dtype}_empty", lambda m: chol(m, host(dtype, np.zeros((2, 0, 0))))),
        case(f"cholesky_jit-{dtype}", lambda m: m.api.jit(unary_fn(lambda x: chol(m, x)))(spd)),
        case(f"cholesky_vmap-{dtype}", lambda m: m.api.vmap(unary_fn(lambda x: chol(m, x)), in_axes=1)(spd)),
        case(f"cholesky_jvp-{dtype}", lambda m: m.api.jvp(unary_fn(lambda x: chol(m, x)), (single,), (tangent,)), rtol=1e-4, atol=1e-4),
        case(f"cholesky_jvp-{dtype}_raw", lambda m: m.api.jvp(unary_fn(lambda x: raw(m, x)), (single,), (tangent,)), rtol=1e-4, atol=1e-4),
        case(f"cholesky_jvp-{dtype}_not_spd", lambda m: m.api.jvp(unary_fn(lambda x: chol(m, x)), (not_spd,), (not_spd,))),
        case(f"cholesky_grad-{dtype}", _grad1(chol, single, dtype), rtol=1e-4, atol=1e-4),
        case(f"cholesky_grad-{dtype}_raw", _grad1(raw, single, dtype), rtol=1e-4, atol=1e-4),
        case(f"cholesky_grad-{dtype}_batched", _grad1(chol, spd, dtype), rtol=1e-4, atol=1e-4),
    ]


def _combo_cases(dtype: str, flags: dict[str, bool]) -> list[Case]:
    tag = f"{dtype}_{_flags_id(flags)}"
    a, b = _tri_operands(dtype, flags["left_side"])
    solve = _solve(flags)
    return [
        case(f"triangular_solve-{tag}", lambda m: solve(m, a, b)),
        case(f"triangular_solve_grad-{tag}", _grad2(solve, a, b, dtype), rtol=1e-4, atol=1e-4),
    ]


def _transform_cases(dtype: str, flags: dict[str, bool]) -> list[Case]:
    tag = f"{dtype}_{_flags_id(flags)}"
    a, b = _tri_operands(dtype, flags["left_side"])
    ta, tb = _random(a.shape, dtype), _random(b.shape, dtype)
    solve = _solve(flags)
    vector = _random((2, 4), dtype)

    def both(m: Any) -> Callable[[Any, Any], Any]:
        return binary_fn(lambda x, y: solve(m, x, y))

    def b_only(m: Any) -> Callable[[Any], Any]:
        return unary_fn(lambda y: solve(m, a[0], y))

    def a_only(m: Any) -> Callable[[Any], Any]:
        return unary_fn(lambda x: solve(m, x, b[0]))

    def grad_of_vmapped(m: Any) -> Any:
        weights = _weights(b.shape, dtype)
        return m.api.grad(unary_fn(lambda x: _loss(m, m.api.vmap(unary_fn(lambda y: solve(m, x, y)))(b), weights)))(a[0])

    return [
        case(f"triangular_solve_jit-{tag}", lambda m: m.api.jit(both(m))(a, b)),
        case(f"triangular_solve_jvp-{tag}", lambda m: m.api.jvp(both(m), (a, b), (ta, tb)), rtol=1e-4, atol=1e-4),
        case(f"triangular_solve-{tag}_vector_b", lambda m: solve(m, a, vector)),
        case(f"triangular_solve_vmap-{tag}_b_only", lambda m: m.api.vmap(b_only(m))(b)),
        case(f"triangular_solve_vmap-{tag}_b_axis2", lambda m: m.api.vmap(b_only(m), in_axes=2, out_axes=1)(b)),
        case(f"triangular_solve_vmap-{tag}_a_only", lambda m: m.api.vmap(a_only(m))(a)),
        case(f"triangular_solve_vmap-{tag}_both", lambda m: m.api.vmap(both(m), in_axes=(0, 0))(a, b)),
        case(f"triangular_solve_grad-{tag}_vmap_b_only", grad_of_vmapped, rtol=1e-4, atol=1e-4),
    ]


def _triangular_cases(dtype: str) -> list[Case]:
    cases: list[Case] = []
    for flags in COMBOS:
        cases += _combo_cases(dtype, flags)
    for left in (False, True):
        flags = {"left_side": left, "lower": True, "transpose_a": True, "conjugate_a": True}
        cases += _transform_cases(dtype, flags)
    return cases


def _composite_cases(dtype: str) -> list[Case]:
    if np.dtype(dtype).kind == "c":
        return []
    r = host(dtype, np.linalg.cholesky(np.asarray(_spd((4, 4), dtype), np.float64)).T)
    w = _random((4,), dtype)
    a, c = _random((2, 4, 3), dtype), _spd((2, 4, 4), dtype)
    return [
        case(f"cholesky_update-{dtype}", lambda m: m.lax.linalg.cholesky_update(r, w), rtol=1e-4, atol=1e-4),
        case(f"symmetric_product-{dtype}", lambda m: m.lax.linalg.symmetric_product(a, c)),
        case(f"symmetric_product-{dtype}_alpha_beta", lambda m: m.lax.linalg.symmetric_product(a, c, alpha=2.0, beta=-0.5)),
        case(f"symmetric_product-{dtype}_symmetrize",
             lambda m: m.lax.linalg.symmetric_product(a, host(dtype, np.triu(np.asarray(c)) * 3), beta=1.0, symmetrize_output=True)),
    ]


def _error_cases() -> list[Case]:
    f, i = "float32", "int32"

    def tri(m: Any, a: Any, b: Any, **flags: bool) -> Any:
        return m.lax.linalg.triangular_solve(a, b, **flags)

    def z(*shape: int) -> Any:
        return host(f, np.ones(shape))

    return [
        case("error-cholesky_not_square", lambda m: m.lax.linalg.cholesky(z(2, 3))),
        case("error-cholesky_not_square_raw", lambda m: m.lax.linalg.cholesky(z(2, 3), symmetrize_input=False)),
        case("error-cholesky_vector", lambda m: m.lax.linalg.cholesky(z(3))),
        case("error-cholesky_vector_raw", lambda m: m.lax.linalg.cholesky(z(3), symmetrize_input=False)),
        case("error-cholesky_int_raw", lambda m: m.lax.linalg.cholesky(host(i, np.eye(3)), symmetrize_input=False)),
        case("cholesky-int_symmetrized", lambda m: m.lax.linalg.cholesky(host(i, 2 * np.eye(3)))),
        case("error-triangular_solve_b_rows", lambda m: tri(m, z(3, 3), z(4, 2), left_side=True)),
        case("error-triangular_solve_b_cols", lambda m: tri(m, z(3, 3), z(3, 4))),
        case("error-triangular_solve_a_not_square", lambda m: tri(m, z(3, 4), z(3, 4), left_side=True)),
        case("error-triangular_solve_batch_ndim", lambda m: tri(m, z(3, 3), z(2, 3, 4), left_side=True)),
        case("error-triangular_solve_dtypes", lambda m: tri(m, z(3, 3), host("complex64", np.ones((3, 4))), left_side=True)),
        case("error-triangular_solve_int", lambda m: tri(m, host(i, np.eye(3)), host(i, np.ones((3, 4))), left_side=True)),
        case("error-triangular_solve_scalar_b", lambda m: tri(m, z(3, 3), host(f, 1.0), left_side=True)),
        case("error-triangular_solve_vector_a", lambda m: tri(m, z(3), z(3), left_side=True)),
        case("triangular_solve-float16", lambda m: tri(m, host("float16", 2 * np.eye(3) + np.tril(np.ones((3, 3)))),
                                                         host("float16", np.arange(6.0).reshape(3, 2)), left_side=True, lower=True),
             rtol=2e-3, atol=2e-3),
        case("triangular_solve-bfloat16_adjoint", lambda m: tri(m, host("bfloat16", 2 * np.eye(3) + np.triu(np.ones((3, 3)))),
                                                                 host("bfloat16", np.arange(6.0).reshape(3, 2)), left_side=True,
                                                                 transpose_a=True, conjugate_a=True), rtol=2e-2, atol=2e-2),
        case("error-cholesky_update_complex", lambda m: m.lax.linalg.cholesky_update(
            host("complex64", np.eye(3)), host("complex64", np.ones(3)))),
        case("error-cholesky_update_sizes", lambda m: m.lax.linalg.cholesky_update(z(3, 3), z(4))),
        case("error-cholesky_update_batched", lambda m: m.lax.linalg.cholesky_update(z(2, 3, 3), z(2, 3))),
        case("error-symmetric_product_complex", lambda m: m.lax.linalg.symmetric_product(
            host("complex64", np.ones((3, 2))), host("complex64", np.eye(3)))),
        case("error-symmetric_product_int", lambda m: m.lax.linalg.symmetric_product(host(i, np.ones((3, 2))), host(i, np.eye(3)))),
        case("error-symmetric_product_sizes", lambda m: m.lax.linalg.symmetric_product(z(3, 2), z(4, 4))),
        case("triangular_solve-empty", lambda m: tri(m, z(0, 0), z(0, 4), left_side=True)),
        case("triangular_solve-empty_b", lambda m: tri(m, z(3, 3), z(3, 0), left_side=True)),
        case("error-tridiagonal_solve_b_vector", lambda m: m.lax.linalg.tridiagonal_solve(z(3), z(3), z(3), z(3))),
        case("error-tridiagonal_solve_diagonals", lambda m: m.lax.linalg.tridiagonal_solve(z(2), z(3), z(3), z(3, 2))),
        case("error-tridiagonal_solve_b_rows", lambda m: m.lax.linalg.tridiagonal_solve(z(3), z(3), z(3), z(4, 2))),
        case("error-tridiagonal_solve_dtypes", lambda m: m.lax.linalg.tridiagonal_solve(
            z(3), z(3), z(3), host("complex64", np.ones((3, 2))))),
        case("error-tridiagonal_solve_int", lambda m: m.lax.linalg.tridiagonal_solve(
            *(host(i, np.ones(3)),) * 3, host(i, np.ones((3, 2))))),
        case("error-tridiagonal_solve_batch", lambda m: m.lax.linalg.tridiagonal_solve(z(2, 3), z(2, 3), z(2, 3), z(3, 2))),
    ]


def cases_32() -> list[Case]:
    cases = _error_cases()
    for dtype in ("float32", "complex64"):
        cases += _cholesky_cases(dtype) + _triangular_cases(dtype) + _composite_cases(dtype)
    return cases


def _ill_conditioned_cases() -> list[Case]:
    # The Hilbert matrix of order 8 (condition number ~1e10): the same LAPACK
    # kernels, so the results agree with JAX's far beyond its accuracy.
    hilbert = host("float64", 1.0 / (np.arange(8)[:, None] + np.arange(8)[None, :] + 1))
    factor = host("float64", np.linalg.cholesky(np.asarray(hilbert, np.float64)))
    rhs = host("float64", np.ones((8, 2)))
    return [
        case("cholesky-hilbert8", lambda m: m.lax.linalg.cholesky(hilbert), rtol=1e-10, atol=1e-12),
        case("triangular_solve-hilbert8_factor", lambda m: m.lax.linalg.triangular_solve(
            factor, rhs, left_side=True, lower=True), rtol=1e-7, atol=1e-7),
        case("cholesky_grad-hilbert8", _grad1(lambda m, x: m.lax.linalg.cholesky(x), hilbert, "float64"), rtol=1e-6, atol=1e-6),
    ]


def cases_64() -> list[Case]:
    cases: list[Case] = _ill_conditioned_cases()
    for dtype in ("float64", "complex128"):
        cases += _cholesky_cases(dtype) + _triangular_cases(dtype) + _composite_cases(dtype)
    return cases


# JAX raises these while lowering, which would end the one jit of a table.
LOWERING_ERRORS = CaseTable("lax_linalg_cholesky_lowering_errors", lambda: [
    case("error-cholesky_float16", lambda m: m.lax.linalg.cholesky(host("float16", np.eye(3)))),
    case("error-cholesky_float16_jit", lambda m: m.api.jit(m.lax.linalg.cholesky)(host("float16", np.eye(3)))),
    case("error-tridiagonal_solve_float16", lambda m: m.lax.linalg.tridiagonal_solve(
        *(host("float16", np.ones(3)),) * 3, host("float16", np.ones((3, 2))))),
], eager=True)
TABLE_32 = CaseTable("lax_linalg_cholesky_32", cases_32)
TABLE_64 = CaseTable("lax_linalg_cholesky_64", cases_64, x64=True)


@pytest.mark.parametrize("group", TABLE_32.params())
def test_32_bit_matches_jax(group: Group) -> None:
    TABLE_32.check(group)


@pytest.mark.parametrize("group", LOWERING_ERRORS.params())
def test_errors_jax_raises_while_lowering(group: Group) -> None:
    LOWERING_ERRORS.check(group)


@pytest.mark.parametrize("group", TABLE_64.params())
def test_64_bit_matches_jax(group: Group) -> None:
    TABLE_64.check(group)


# === jaxtyped alone: eager == jit, vmap == loop, check_grads ===


@pytest.mark.parametrize("flags", COMBOS, ids=_flags_id)
def test_triangular_solve_eager_equals_jit_and_solves(flags: dict[str, bool]) -> None:
    a, b = _tri_operands("complex64", flags["left_side"])
    eager = lax.linalg.triangular_solve(a, b, **flags)
    jitted = jt.jit(binary_fn(lambda x, y: lax.linalg.triangular_solve(x, y, **flags)))(a, b)
    np.testing.assert_array_equal(np.asarray(eager), np.asarray(jitted))
    # The solution satisfies op(A) x = b with A the chosen triangle.
    tri = np.tril(a) if flags["lower"] else np.triu(a)
    if flags["unit_diagonal"]:
        tri = tri - np.eye(4) * np.diagonal(a, axis1=-2, axis2=-1)[..., None, :] + np.eye(4)
    op = np.swapaxes(tri, -1, -2) if flags["transpose_a"] else tri
    op = np.conj(op) if flags["conjugate_a"] else op
    x = np.asarray(eager)
    residual = op @ x - b if flags["left_side"] else x @ op - b
    assert np.abs(residual).max() < 1e-4


def test_cholesky_eager_equals_jit_and_reconstructs() -> None:
    a = _spd((3, 6, 6), "complex64")
    eager = lax.linalg.cholesky(a)
    np.testing.assert_array_equal(np.asarray(eager), np.asarray(jt.jit(lax.linalg.cholesky)(a)))
    factor = np.asarray(eager)
    np.testing.assert_allclose(factor @ np.conj(np.swapaxes(factor, -1, -2)), a, rtol=1e-5, atol=1e-4)
    assert np.all(np.triu(factor, 1) == 0)


def test_vmap_equals_loop() -> None:
    a, b = _tri_operands("float32", True, batch=(3,))
    flags = {"left_side": True, "lower": False, "transpose_a": True}
    for in_axes in ((0, 0), (None, 0), (0, None)):
        a_i = [a[k] if in_axes[0] == 0 else a[0] for k in range(3)]
        b_i = [b[k] if in_axes[1] == 0 else b[0] for k in range(3)]
        batched = jt.vmap(binary_fn(lambda x, y: lax.linalg.triangular_solve(x, y, **flags)), in_axes=in_axes)(
            a if in_axes[0] == 0 else a[0], b if in_axes[1] == 0 else b[0])
        loop = np.stack([np.asarray(lax.linalg.triangular_solve(x, y, **flags)) for x, y in zip(a_i, b_i)])
        assert_same_value(batched, loop, rtol=1e-6, atol=1e-6, where=f"in_axes={in_axes}")
    spd = _spd((3, 4, 4), "float32")
    assert_same_value(jt.vmap(lax.linalg.cholesky)(spd), np.stack([np.asarray(lax.linalg.cholesky(x)) for x in spd]))


GRAD_DTYPES = ("float64", "complex128")


@pytest.mark.parametrize("dtype", GRAD_DTYPES)
def test_cholesky_check_grads(dtype: str, x64: None) -> None:
    spd = _spd((2, 3, 3), dtype)
    check_grads(unary_fn(lambda x: lax.linalg.cholesky(x)), (spd,), order=2, modes=("fwd", "rev"))


@pytest.mark.parametrize("dtype", GRAD_DTYPES)
@pytest.mark.parametrize("flags", COMBOS[::5] + [COMBOS[-1]], ids=_flags_id)
def test_triangular_solve_check_grads(dtype: str, flags: dict[str, bool], x64: None) -> None:
    a, b = _tri_operands(dtype, flags["left_side"], batch=())
    check_grads(binary_fn(lambda x, y: lax.linalg.triangular_solve(x, y, **flags)), (a, b), order=2, modes=("fwd", "rev"))


def test_composites_check_grads(x64: None) -> None:
    r = np.linalg.cholesky(np.asarray(_spd((3, 3), "float64"))).T
    check_grads(lax.linalg.cholesky_update, (r, _random((3,), "float64")), order=2, modes=("fwd", "rev"))
    check_grads(binary_fn(lambda a, c: lax.linalg.symmetric_product(a, c, alpha=2.0, beta=0.5)),
                (_random((3, 2), "float64"), _random((3, 3), "float64")), order=2, modes=("fwd", "rev"))


def test_jaxpr_names_jax_params() -> None:
    text = str(jt.make_jaxpr(binary_fn(lambda a, b: lax.linalg.triangular_solve(a, b, lower=True, left_side=True)))(
        np.eye(3, dtype=np.float32), np.ones((3, 2), np.float32)))
    assert "triangular_solve[" in text and "lower=True" in text and "left_side=True" in text
    assert "cholesky " in str(jt.make_jaxpr(lax.linalg.cholesky)(np.eye(3, dtype=np.float32)))


def test_mismatched_batch_dimensions_are_a_value_error() -> None:
    # JAX fails only while lowering (a sharding-rule error); ours is checked
    # when the solve is applied, eager or traced.
    a, b = np.ones((2, 3, 3), np.float32), np.ones((4, 3, 2), np.float32)
    with pytest.raises(errors.JaxtypedValueError, match="triangular_solve: incompatible shapes f32\\[2,3,3\\] and f32\\[4,3,2\\]"):
        lax.linalg.triangular_solve(a, b, left_side=True)
    with pytest.raises(errors.JaxtypedValueError):
        jt.jit(binary_fn(lambda x, y: lax.linalg.triangular_solve(x, y, left_side=True)))(a, b)


def test_not_positive_definite_is_nan_not_crash() -> None:
    bad = np.array([[[1.0, 2.0], [2.0, 1.0]], [[4.0, 2.0], [2.0, 3.0]]], np.float32)
    out = np.asarray(jt.jit(lax.linalg.cholesky)(bad))
    assert np.isnan(out[0][np.tril_indices(2)]).all() and out[0, 0, 1] == 0
    np.testing.assert_allclose(out[1], [[2.0, 0.0], [1.0, np.sqrt(2.0)]], rtol=1e-6)
