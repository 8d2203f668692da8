"""Set functions, polynomials, dtype names, printing, file I/O and
``vectorize`` of the math/statistics family against ``jax.numpy``.

Set functions and polynomials go through the oracle (values, dtype, weak
type, shape; the kind of error where JAX raises), with ``size=`` under the
libraries' own jit. Printing, ``save``/``load``, the dtype names,
``frompyfunc`` and ``vectorize`` are compared with JAX directly.
"""

import io
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp

from oracle import Case, CaseTable, Group, assert_same, call, grad_of_sum, host, jax, jax_numpy, jitted, library, vmapped

NAN = float("nan")
RNG = np.random.default_rng(5)

A = host("int32", [3, 1, 2, 2, 7])
B = host("float32", [2.0, 5.0, 3.0])
M = host("int32", [[4, 1], [1, 9]])
F = host("float32", [0.5, NAN, 2.0, 0.5])
P = host("float32", [1.0, -3.0, 2.0])
Q = host("int32", [2, 0, 1, 5])
XS = host("float32", np.linspace(-1, 2, 7))
YS = host("float32", 2 * np.linspace(-1, 2, 7) ** 2 - np.linspace(-1, 2, 7) + 0.5 + 0.1 * RNG.standard_normal(7))


def jitted_set(name: str, **kwargs: Any) -> Callable[[Any], Any]:
    """``L.name(A, M, **kwargs)`` under the library's own jit (inputs traced)."""
    return jitted(lambda L, x, y: getattr(L, name)(x, y, **kwargs), A, M)


def set_cases() -> list[Case]:
    """The cases whose result shape depends on the values: JAX runs them
    eagerly (a compilation per operation). Those with ``size=`` are in
    :func:`sized_set_cases`."""
    cases: list[Case] = []
    for name in ("union1d", "setdiff1d", "setxor1d", "intersect1d"):
        for label, (x, y) in {"mixed": (A, B), "2d": (M, A), "nan": (F, B)}.items():
            cases.append(Case(f"{name}-{label}", call(name, x, y)))
        cases.append(Case(f"{name}-jit_no_size", jitted_set(name)))
    return cases + [
        Case("intersect1d-indices", call("intersect1d", M, A, return_indices=True)),
        Case("intersect1d-unique", call("intersect1d", host("int32", [1, 4, 7]), host("int32", [7, 1, 0]), assume_unique=True)),
        Case("setdiff1d-empty", call("setdiff1d", host("int32", []), A)),
        Case("union1d-scalars", call("union1d", 1, 2)),
        Case("isin-values", call("isin", A, B)),
        Case("isin-invert", call("isin", M, A, invert=True)),
        Case("isin-scalar", call("isin", 2, A)),
        Case("isin-nan", call("isin", F, F)),
        Case("isin-list", call("isin", A, [1, 2])),
        # Trimming reads the values: eager only (JAX's jit raises).
        Case("polymul-trim", call("polymul", host("float32", [0.0, 0.0, 1.0]), P, trim_leading_zeros=True)),
        Case("polydiv-trim", call("polydiv", host("float32", [1.0, 2.0, 1.0]), host("float32", [1.0, 1.0]), trim_leading_zeros=True)),
        Case("isin-jit", lambda L: library(L).api.jit(L.isin)(L.asarray(M), L.asarray(A))),
    ]


def sized_set_cases() -> list[Case]:
    """The set functions with ``size=``: traceable, so JAX's side runs in
    the table's one jit (eagerly it compiled every operation, about half of
    this module's time); the same calls as before, unchanged."""
    cases: list[Case] = []
    for name in ("union1d", "setdiff1d", "setxor1d", "intersect1d"):
        cases += [
            Case(f"{name}-size8", call(name, A, M, size=8)),
            Case(f"{name}-fill", call(name, B, A, size=2, fill_value=-1)),
            Case(f"{name}-nans", call(name, F, host("float32", [NAN, 2.0, 7.0]), size=6)),
            Case(f"{name}-jit_size", jitted_set(name, size=6)),
        ]
    return cases + [Case("intersect1d-indices_size", call("intersect1d", A, M, return_indices=True, size=4))]


def poly_cases() -> list[Case]:
    return [
        Case("poly-float", call("poly", P)),
        Case("poly-int", call("poly", Q)),
        Case("poly-scalar", call("poly", 2.0)),
        Case("poly-empty", call("poly", host("float32", []))),
        Case("poly-3d", call("poly", np.zeros((2, 2, 2), np.float32))),
        Case("polyval-float", call("polyval", P, XS)),
        Case("polyval-int", call("polyval", Q, 2)),
        Case("polyval-mixed", call("polyval", Q, 2.5)),
        Case("polyval-scalar_x", call("polyval", P, 3)),
        Case("polyadd-mixed", call("polyadd", P, Q)),
        Case("polyadd-int", call("polyadd", Q, host("int32", [1, 1]))),
        Case("polysub-mixed", call("polysub", P, Q)),
        Case("polysub-scalar", call("polysub", 3, P)),
        Case("polymul-mixed", call("polymul", P, Q)),
        Case("polymul-int", call("polymul", Q, Q)),
        Case("polydiv-float", call("polydiv", Q.astype(np.float32), P)),
        Case("polydiv-int", call("polydiv", Q, host("int32", [1, 1]))),
        Case("polydiv-short", call("polydiv", P, Q.astype(np.float32))),
        Case("polyder-default", call("polyder", Q)),
        Case("polyder-twice", call("polyder", P, m=2)),
        Case("polyder-zero", call("polyder", Q, m=0)),
        Case("polyder-too_many", call("polyder", Q, m=5)),
        Case("polyder-negative", call("polyder", Q, m=-1)),
        Case("polyint-default", call("polyint", Q)),
        Case("polyint-constant", call("polyint", P, m=2, k=3)),
        Case("polyint-constants", call("polyint", P, m=2, k=host("float32", [1.0, 2.0]))),
        Case("polyint-bad_constants", call("polyint", P, m=2, k=host("float32", [1.0, 2.0, 3.0]))),
        Case("polyfit-quadratic", call("polyfit", XS, YS, 2), rtol=1e-4, atol=1e-4),
        Case("polyfit-weights", call("polyfit", XS, YS, 1, w=host("float32", np.arange(1, 8))), rtol=1e-4, atol=1e-4),
        Case("polyfit-columns", call("polyfit", XS, np.stack([YS, 2 * YS], 1), 2), rtol=1e-4, atol=1e-4),
        Case("polyfit-cov", call("polyfit", XS, YS, 2, cov=True), rtol=1e-4, atol=1e-4),
        Case("polyfit-cov_columns", call("polyfit", XS, np.stack([YS, 2 * YS], 1), 2, cov=True), rtol=1e-4, atol=1e-4),
        Case("polyfit-cubic", call("polyfit", host("float32", np.arange(7.0)), host("float32", np.arange(7.0) ** 2), 3), rtol=1e-3, atol=1e-3),
        Case("polyfit-int_x", call("polyfit", host("int32", np.arange(7)), YS, 2)),
        Case("polyfit-2d_x", call("polyfit", M, M, 1)),
        Case("polyfit-lengths", call("polyfit", XS, YS[:3], 1)),
        Case("polyfit-negative_degree", call("polyfit", XS, YS, -1)),
        Case("polyval-grad", grad_of_sum(lambda L, p: L.polyval(p, 1.5), P)),
        Case("polyfit-grad", grad_of_sum(lambda L, y: L.polyfit(L.asarray(XS), y, 2), YS), rtol=1e-3, atol=1e-3),
        Case("polymul-grad", grad_of_sum(lambda L, p: L.polymul(p, p), P)),
        Case("polyval-jit", lambda L: library(L).api.jit(L.polyval)(L.asarray(P), L.asarray(XS))),
        # poly of a square matrix: its characteristic polynomial, complex as JAX's.
        Case("poly-matrix", call("poly", host("float32", [[1.0, 2.0], [3.0, 4.0]])), rtol=1e-4, atol=1e-5),
        Case("poly-matrix_int", call("poly", M), rtol=1e-4, atol=1e-5),
        Case("poly-matrix_complex", call("poly", host("complex64", [[1.0, 2j], [3.0, 4.0]])), rtol=1e-4, atol=1e-5),
        Case("poly-matrix_rotation", call("poly", host("float32", [[0.0, -1.0], [1.0, 0.0]])), atol=1e-6),
        Case("poly-matrix_1x1", call("poly", host("float32", [[5.0]]))),
        Case("poly-matrix_jit", jitted(lambda L, a: L.poly(a), host("float64", [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]])), rtol=1e-4, atol=1e-4),
        # full=True: (coefficients, residuals, rank, singular values, rcond), through lstsq.
        Case("polyfit-full", call("polyfit", XS, YS, 2, full=True), rtol=1e-4, atol=1e-5),
        Case("polyfit-full_columns", call("polyfit", XS, np.stack([YS, 2 * YS], 1), 2, full=True), rtol=1e-4, atol=1e-5),
        Case("polyfit-full_rcond", call("polyfit", XS, YS, 2, None, True), rtol=1e-4, atol=1e-5),
        Case("polyfit-full_rcond_given", call("polyfit", XS, YS, 3, rcond=1e-2, full=True), rtol=1e-4, atol=1e-5),
        Case("polyfit-full_weights", call("polyfit", XS, YS, 1, full=True, w=host("float32", np.arange(1, 8))), rtol=1e-4, atol=1e-5),
        Case("polyfit-full_cov", call("polyfit", XS, YS, 2, full=True, cov=True), rtol=1e-4, atol=1e-5),
        Case("polyfit-full_rank_deficient", call("polyfit", XS[:3], YS[:3], 4, full=True), rtol=1e-3, atol=1e-4),
        Case("polyfit-full_int_x", call("polyfit", host("int32", np.arange(7)), YS, 2, full=True)),
        Case("polyfit-full_jit", jitted(lambda L, x, y: L.polyfit(x, y, 2, full=True), XS, YS), rtol=1e-4, atol=1e-5),
        Case("polyfit-full_grad", grad_of_sum(lambda L, y: L.polyfit(L.asarray(XS), y, 2, full=True)[0], YS), rtol=1e-3, atol=1e-3),
        Case("polyfit-full_grad_residuals", grad_of_sum(lambda L, y: L.polyfit(L.asarray(XS), y, 2, full=True)[1], YS), rtol=1e-3, atol=1e-4),
        # roots without stripping (traceable): leading zeros give NaN roots.
        *(Case(f"roots-traced_{label}", jitted(lambda L, p: sorted_roots(L, L.roots(p, strip_zeros=False)), host("float32", p)), rtol=1e-4, atol=1e-5)
          for label, p in ROOT_POLYNOMIALS.items()),
        Case("roots-vmap", vmapped(lambda L, p: sorted_roots(L, L.roots(p, strip_zeros=False)), host("float32", [[1.0, -3.0, 2.0], [0.0, 1.0, -4.0], [0.0, 0.0, 0.0], [1.0, 0.0, 4.0]])), rtol=1e-4, atol=1e-5),
        Case("roots-grad", grad_of_sum(lambda L, p: L.real(L.roots(p, strip_zeros=False)), P), rtol=1e-4, atol=1e-5),
        Case("roots-grad_complex_pair", grad_of_sum(lambda L, p: L.abs(L.imag(L.roots(p, strip_zeros=False))), host("float32", [1.0, 1.0, 2.0])), rtol=1e-4, atol=1e-5),
        Case("roots-grad_cubic", grad_of_sum(lambda L, p: L.real(L.roots(p, strip_zeros=False)) ** 2, host("float32", [2.0, -3.0, -3.0, 2.0])), rtol=1e-3, atol=1e-4),
    ]


# Polynomials whose roots are compared (real, complex pairs, repeated, zero
# roots, leading and trailing zeros, constants, the zero polynomial).
ROOT_POLYNOMIALS = {
    "quadratic": [1.0, -3.0, 2.0], "complex_pair": [1.0, 1.0, 2.0], "cubic": [2.0, -3.0, -3.0, 2.0],
    "double_root": [1.0, -2.0, 1.0], "leading_zeros": [0.0, 0.0, 1.0, -3.0, 2.0], "trailing_zeros": [1.0, -3.0, 2.0, 0.0, 0.0],
    "both_zeros": [0.0, 1.0, -3.0, 2.0, 0.0], "linear": [2.0, 1.0], "constant": [3.0], "zero": [0.0], "all_zeros": [0.0, 0.0, 0.0],
    "empty": [],
}  # fmt: skip


def sorted_roots(L: Any, r: Any) -> Any:
    """Roots in a canonical order (the eigenvalue order is the solver's):
    by real part rounded, so that conjugate pairs with last-bit different
    real parts sort the same way in both libraries, then by imaginary part
    (NaN roots last)."""
    return r[L.argsort(L.round(L.real(r), 3) * 1000 + L.imag(r))] if r.shape[0] else r


def stripped_roots(p: np.ndarray[Any, Any]) -> Callable[[Any], Any]:
    """A case: the sorted roots of ``p`` with the default ``strip_zeros=True``."""
    return lambda L: sorted_roots(L, L.roots(L.asarray(p)))


def roots_cases() -> list[Case]:
    """``roots`` with ``strip_zeros=True`` reads the coefficients: eager."""
    return [
        *(Case(f"roots-{label}", stripped_roots(host("float32", p)), rtol=1e-4, atol=1e-5) for label, p in ROOT_POLYNOMIALS.items()),
        Case("roots-int", stripped_roots(Q), rtol=1e-4, atol=1e-5),
        Case("roots-bool", call("roots", host("bool", [True, False]))),
        Case("roots-complex", stripped_roots(host("complex64", [1.0, 1j, 2.0])), rtol=1e-4, atol=1e-5),
        Case("roots-float64", stripped_roots(host("float64", [1.0, 0.0, -2.0])), rtol=1e-6, atol=1e-7),
        Case("roots-python_scalar", call("roots", 3.0)),
        Case("roots-list", call("roots", [1.0, -3.0, 2.0])),
        Case("roots-matrix", call("roots", np.ones((2, 2), np.float32))),
        Case("roots-jit_strip", jitted(lambda L, p: L.roots(p), P)),
        Case("roots-vmap_strip", vmapped(lambda L, p: L.roots(p), np.stack([P, P]))),
        # Under grad the coefficients are concrete: stripping works there too.
        Case("roots-grad_strip", grad_of_sum(lambda L, p: L.real(L.roots(p)), host("float32", [0.0, 1.0, -3.0, 2.0, 0.0])), rtol=1e-4, atol=1e-5),
    ]


SETS = CaseTable("sets", set_cases, eager=True)
SIZED_SETS = CaseTable("sized_sets", sized_set_cases)
POLYNOMIALS = CaseTable("polynomials", poly_cases)
ROOTS = CaseTable("roots", roots_cases, eager=True)


@pytest.mark.parametrize("group", SETS.params())
def test_set_functions(group: Group) -> None:
    SETS.check(group)


@pytest.mark.parametrize("group", SIZED_SETS.params())
def test_set_functions_with_size(group: Group) -> None:
    SIZED_SETS.check(group)


@pytest.mark.parametrize("group", POLYNOMIALS.params())
def test_polynomials(group: Group) -> None:
    POLYNOMIALS.check(group)


@pytest.mark.parametrize("group", ROOTS.params())
def test_roots(group: Group) -> None:
    ROOTS.check(group)


def test_roots_reconstruct_the_polynomial() -> None:
    """The roots of a random degree-6 polynomial rebuild it (``poly``), in
    eager and jit, and match NumPy's as a set."""
    coefficients = host("float32", RNG.standard_normal(7))
    eager = jnp.roots(jnp.asarray(coefficients))

    def traceable(p: jt.Array) -> jt.Array:
        return jnp.roots(p, strip_zeros=False)

    traced = jt.jit(traceable)(jnp.asarray(coefficients))
    # The companion matrices may differ in the last bit (XLA divides by a
    # reciprocal under jit), which moves the eigenvalues by about that much.
    np.testing.assert_allclose(np.asarray(eager), np.asarray(traced), rtol=1e-5, atol=1e-6)
    assert eager.dtype == np.complex64 and eager.shape == (6,)
    rebuilt = np.asarray(jnp.poly(eager)) * coefficients[0]
    np.testing.assert_allclose(rebuilt, coefficients, atol=1e-4)
    np.testing.assert_allclose(np.sort_complex(np.asarray(eager)), np.sort_complex(np.roots(coefficients.astype(np.float64))), atol=1e-4)


# === dtype names ===

SCALAR_NAMES = ("bool", "float_", "int_", "uint", "complex_", "double", "single", "cdouble", "csingle")


@pytest.mark.parametrize("name", SCALAR_NAMES)
@pytest.mark.filterwarnings("ignore:Explicitly requested dtype")  # JAX warns of 64-bit names without x64
def test_scalar_type_names_match_jax(name: str) -> None:
    assert np.dtype(getattr(jnp, name).dtype) == np.dtype(getattr(jax_numpy, name).dtype)
    assert_same(getattr(jnp, name)(1), getattr(jax_numpy, name)(1))
    assert jnp.zeros(2, getattr(jnp, name)).dtype == jax_numpy.zeros(2, getattr(jax_numpy, name)).dtype


def test_numpy_kinds_and_warning_are_numpys() -> None:
    for name in ("object_", "flexible", "character", "ComplexWarning"):
        assert getattr(jnp, name) is getattr(jax_numpy, name)


# === frompyfunc and vectorize ===


def _multiply_add(a: Any, b: Any) -> Any:
    return a * b + 1


def _matvec(a: Any, b: Any) -> Any:
    return a @ b


def test_frompyfunc_matches_jax() -> None:
    ours = jnp.frompyfunc(_multiply_add, nin=2, nout=1, identity=0)
    theirs = jax_numpy.frompyfunc(_multiply_add, nin=2, nout=1, identity=0)
    x, ones = host("float32", [1.0, 2.0, 3.0, 4.0]), np.ones((2, 3), np.float32)
    assert (ours.nin, ours.nout, ours.nargs, ours.identity) == (theirs.nin, theirs.nout, theirs.nargs, theirs.identity)
    assert_same(ours(jnp.asarray(x), 2.0), theirs(jax_numpy.asarray(x), 2.0))
    assert_same(ours.outer(jnp.asarray(x[:2]), jnp.asarray(x)), theirs.outer(jax_numpy.asarray(x[:2]), jax_numpy.asarray(x)))
    assert_same(ours.reduce(jnp.asarray(x)), theirs.reduce(jax_numpy.asarray(x)))
    assert_same(ours.accumulate(jnp.asarray(x)), theirs.accumulate(jax_numpy.asarray(x)))
    assert_same(ours.reduce(jnp.asarray(ones), axis=1, keepdims=True), theirs.reduce(jax_numpy.asarray(ones), axis=1, keepdims=True))


def _vectorize_results(L: Any) -> list[Any]:
    lib = library(L)

    def sum_and_double(a: Any) -> tuple[Any, Any]:
        return L.sum(a), a * 2

    def scale(x: Any, factor: Any = 1.0) -> Any:
        return x * factor

    def increment(a: Any) -> Any:
        return a + 1

    matvec = L.vectorize(_matvec, signature="(n,m),(m)->(n)")
    pair = L.vectorize(sum_and_double, signature="(n)->(),(n)")
    scaled = L.vectorize(scale, excluded={1})
    keyword = L.vectorize(scale, excluded={"factor"})
    elementwise = L.vectorize(L.maximum)

    def total(x: Any) -> Any:
        return L.sum(elementwise(x, L.ones(4)))

    ones = L.ones((4, 1, 2, 3))
    return [
        matvec(ones, L.ones((5, 3))),
        matvec(L.ones((4, 2, 3)), L.arange(3.0)),
        *pair(L.ones((5, 3))),
        scaled(L.arange(3.0), 2.0),
        keyword(L.arange(3.0), factor=3.0),
        elementwise(L.ones((3, 1)), L.arange(4.0)),
        L.vectorize(increment)(1.0),
        lib.api.jit(elementwise)(L.ones((3, 1)), L.arange(4.0)),
        lib.api.grad(total)(L.arange(4.0) - 1.0),
    ]


def test_vectorize_matches_jax() -> None:
    assert_same(_vectorize_results(jnp), _vectorize_results(jax_numpy))


def test_vectorize_core_dimension_errors_match_jax() -> None:
    from oracle import expect_same_error

    for bad in ((np.ones((4, 2, 3)), np.ones(2)), (np.ones(3), np.ones(3))):
        try:
            jax_numpy.vectorize(_matvec, signature="(n,m),(m)->(n)")(*map(jax_numpy.asarray, bad))
        except Exception as theirs:  # noqa: BLE001 - compared with ours
            expect_same_error(theirs, lambda: jnp.vectorize(_matvec, signature="(n,m),(m)->(n)")(*map(jnp.asarray, bad)))
        else:
            pytest.fail("JAX accepted mismatched core dimensions")


# === printing and I/O ===

VALUES = np.array([1.123456, -2.0, 1e-9], np.float32)


def test_printoptions_affect_array_repr_as_in_jax() -> None:
    ours, theirs = jnp.asarray(VALUES), jax_numpy.asarray(VALUES)
    with jnp.printoptions(precision=2, suppress=True):
        with jax_numpy.printoptions(precision=2, suppress=True):
            assert repr(ours) == repr(theirs)
            assert str(ours) == str(theirs)
    assert jnp.get_printoptions() == jax_numpy.get_printoptions()
    with np.printoptions():  # restores the options on exit
        jnp.set_printoptions(precision=3)
        assert jax_numpy.get_printoptions()["precision"] == 3
        assert repr(ours) == repr(theirs)


def test_array_repr_and_str_match_jax() -> None:
    ours, theirs = jnp.asarray(VALUES), jax_numpy.asarray(VALUES)
    assert jnp.array_str(ours, precision=3) == jax_numpy.array_str(theirs, precision=3)
    # JAX's array_repr names its implementation class (ArrayImpl); ours the public one.
    assert jnp.array_repr(ours, precision=1) == jax_numpy.array_repr(theirs, precision=1).replace("ArrayImpl(", "Array(")


@pytest.mark.parametrize("dtype", ["float32", "int8", "bool", "bfloat16", "complex64"])
def test_save_load_round_trip_as_jax(dtype: str) -> None:
    value = host(dtype, [[1, 0], [2, 3]])
    ours, theirs = io.BytesIO(), io.BytesIO()
    jnp.save(ours, jnp.asarray(value))
    jax_numpy.save(theirs, jax_numpy.asarray(value))
    assert ours.getvalue() == theirs.getvalue()
    ours.seek(0)
    theirs.seek(0)
    assert_same(jnp.load(ours), jax_numpy.load(theirs))


def test_savez_writes_numpys_format() -> None:
    buffer = io.BytesIO()
    jnp.savez(buffer, jnp.arange(3), named=jnp.ones(2))
    buffer.seek(0)
    archive = np.load(buffer)
    np.testing.assert_array_equal(archive["arr_0"], np.arange(3))
    np.testing.assert_array_equal(archive["named"], np.ones(2, np.float32))


def test_load_returns_a_jaxtyped_array_usable_under_jit() -> None:
    buffer = io.BytesIO()
    np.save(buffer, np.arange(4.0, dtype=np.float32))
    buffer.seek(0)
    loaded = jnp.load(buffer)
    assert isinstance(loaded, jt.Array)
    assert_same(jt.jit(_double)(loaded), jax.jit(_double)(jax_numpy.arange(4.0)))


def _double(x: Any) -> Any:
    return x * 2


# === ml_dtypes' narrow types ===

NARROW_JIT = (
    "float8_e4m3fn", "float8_e5m2", "float8_e4m3b11fnuz", "float8_e4m3fnuz", "float8_e5m2fnuz", "float8_e3m4",
    "float8_e4m3", "float8_e8m0fnu", "float4_e2m1fn", "int4", "uint4", "int2", "uint2",
)  # fmt: skip
NARROW_EAGER_ONLY = ("float6_e2m3fn", "float6_e3m2fn", "int1", "uint1")  # JAX's CPU backend cannot hold these


def _narrow_program(L: Any, name: str) -> list[Any]:
    dtype = getattr(L, name)
    x = L.array([1, 0, 1], dtype=dtype)
    return [x, x.astype(L.float32), L.asarray(host("float32", [1.0, 0.0])).astype(dtype), dtype(1), L.zeros(2, dtype)]


@pytest.mark.parametrize("name", NARROW_JIT)
def test_narrow_dtypes_are_creatable_convertible_and_printable_as_in_jax(name: str) -> None:
    ours, theirs = _narrow_program(jnp, name), _narrow_program(jax_numpy, name)
    assert_same(ours, theirs)
    assert [repr(a) for a in ours] == [repr(a) for a in theirs]
    assert np.dtype(getattr(jnp, name).dtype) == np.dtype(getattr(jax_numpy, name).dtype)
    assert jnp.dtype(name).itemsize == jax_numpy.dtype(name).itemsize


@pytest.mark.parametrize("name", NARROW_EAGER_ONLY)
def test_narrow_dtypes_jax_cannot_place_work_eagerly(name: str) -> None:
    dtype = getattr(jnp, name)
    values = np.array([0, -1] if name == "int1" else [0, 1], dtype=np.dtype(dtype.dtype))
    x = jnp.asarray(values)
    assert repr(x) == f"Array({np.array2string(values, separator=', ', prefix='Array(')}, dtype={name})"
    np.testing.assert_array_equal(np.asarray(x.astype(jnp.float32)), values.astype(np.float32))
    with pytest.raises(TypeError, match=name):
        jt.jit(_to_float32)(x)


def _to_float32(x: jt.Array) -> jt.Array:
    return x.astype(jnp.float32)


@pytest.mark.parametrize("name", NARROW_JIT)
def test_narrow_dtypes_under_jit_match_jax(name: str) -> None:
    def program(L: Any, x: Any) -> Any:
        return (x * 1).astype(L.float32) + x.astype(L.float32), (x.astype(L.float32) * 0 + 1).astype(getattr(L, name))

    def ours_program(x: Any) -> Any:
        return program(jnp, x)

    def theirs_program(x: Any) -> Any:
        return program(jax_numpy, x)

    value = host(name, [1, 0, 1])
    ours = jt.jit(ours_program)(jnp.asarray(value))
    theirs = jax.jit(theirs_program)(jax_numpy.asarray(value))
    assert_same(ours, theirs)


@pytest.mark.parametrize("name", ("float8_e4m3fn", "int4"))
def test_narrow_dtypes_promote_only_with_python_scalars_as_in_jax(name: str) -> None:
    from oracle import expect_same_error

    dtype_ours, dtype_theirs = getattr(jnp, name), getattr(jax_numpy, name)
    assert_same(jnp.ones(2, dtype_ours) + 1, jax_numpy.ones(2, dtype_theirs) + 1)
    try:
        _ = jax_numpy.ones(2, dtype_theirs) + jax_numpy.ones(2, jax_numpy.float32)
    except Exception as error:  # noqa: BLE001 - compared with ours
        expect_same_error(error, lambda: jnp.ones(2, dtype_ours) + jnp.ones(2, jnp.float32))
    else:
        pytest.fail("JAX promoted a narrow dtype implicitly")
