"""The special-function primitives of ``jaxtyped.lax`` against ``jax.lax``.

Values over each domain and at its edges (0, -0, the poles, +-inf, NaN) in
float32, float16, bfloat16 and float64, eager and under ``jit`` (where the
compositions for ``bessel_i0e``, the incomplete gamma functions and
``betainc`` run in XLA); ``vmap``; ``grad`` and ``jvp`` against JAX's,
including the special points of each derivative; the errors JAX raises.
SciPy (a dependency of JAX) checks the float64 values where installed.
"""

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import Case, CaseTable, Group, Namespace, jax, jax_numpy, jax_with_default_emitters, library

import jaxtyped as jt
import jaxtyped.numpy as jnp

INF, NAN = float("inf"), float("nan")
EDGES = [0.0, -0.0, 1.0, 2.0, -1.0, -2.0, -2.5, 0.5, 1e-3, INF, -INF, NAN, 7.25, 30.0]
UNIT_EDGES = [0.0, -0.0, 0.5, -0.5, 0.999, -0.999, 1.0, -1.0, 1.5, INF, NAN, 1e-4]
A_EDGES = [0.0, 0.0, 1.0, 1.0, -1.0, 2.0, INF, 2.0, 2.0, 1e-3, 3.0, 0.5, 10.0, 10.0]
X_EDGES = [0.0, 1.0, 0.0, INF, 1.0, -1.0, 1.0, NAN, INF, 1.0, 1e-3, 3.0, 9.5, 30.0]

UNARY = ("lgamma", "digamma", "erf_inv", "erfc", "bessel_i0e", "bessel_i1e", "cbrt", "exp2", "square", "reciprocal")
BINARY_GAMMA = ("igamma", "igammac", "igamma_grad_a", "random_gamma_grad")
FLOATS = ("float32", "float16", "bfloat16")


def _rtol(dtype: str, name: str) -> float:
    if dtype in ("float16", "bfloat16"):
        return 2e-2
    if dtype == "float64":
        return 1e-6 if name in ("igamma_grad_a", "random_gamma_grad") else 1e-9
    # Our eager results are float64 rounded once; XLA's float32 kernels are
    # a few ulps off (the incomplete functions more).
    return 1e-4 if name in ("betainc", "igamma", "igammac", "igamma_grad_a", "random_gamma_grad") else 2e-5


def _domain(name: str) -> list[float]:
    if name == "erf_inv":
        return UNIT_EDGES
    rng = np.random.default_rng(len(name))
    return EDGES + list(rng.uniform(-6, 12, 10))


def _apply(name: str, values: list[list[float]], dtype: str, jit: bool) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        args = [L.asarray(np.asarray(v, np.float64).astype(L.dtype(dtype))) for v in values]
        f = getattr(library(L).lax, name)
        return library(L).api.jit(f)(*args) if jit else f(*args)

    return fn


def _value_cases(dtypes: tuple[str, ...]) -> list[Case]:
    cases: list[Case] = []
    rng = np.random.default_rng(0)
    for dtype in dtypes:
        for jit in (False, True):
            mode = "jit" if jit else "eager"
            for name in UNARY:
                tol = _rtol(dtype, name)
                cases.append(Case(f"{name}-{dtype}-{mode}", _apply(name, [_domain(name)], dtype, jit), tol, tol))
            a = A_EDGES + list(rng.uniform(0.1, 20, 8))
            x = X_EDGES + list(rng.uniform(0, 30, 8))
            for name in BINARY_GAMMA:
                if name == "random_gamma_grad" and dtype != "float32" and dtype != "float64":
                    continue  # JAX computes it in the narrow dtype itself: digits are lost
                tol = _rtol(dtype, name)
                cases.append(Case(f"{name}-{dtype}-{mode}", _apply(name, [a, x], dtype, jit), tol, tol))
            m = [0.0, 1.0, 2.0, 3.0, 1.5, -1.0, 1.0, 1.0, 4.0, 1.0, 2.0, 1.0]
            q = [1.0, 1.0, 1.0, 2.5, 1.0, 1.0, 0.0, -1.0, 0.3, -INF, -INF, INF]
            cases.append(Case(f"polygamma-{dtype}-{mode}", _apply("polygamma", [m, q], dtype, jit), _rtol(dtype, ""), 1e-6))
            s = [1.0, 2.0, 0.5, -1.0, 2.0, 2.0, 3.0, 4.5, 2.0, 6.0, 2.0, 3.0, 2.0]
            cases.append(Case(f"zeta-{dtype}-{mode}", _apply("zeta", [s, q + [7.0]], dtype, jit), _rtol(dtype, ""), 1e-6))
            ab = [[1.0, 2.0, 0.0, -1.0, 1.0, 1.0, 1.0, 2.0, 0.5, 5.0, 20.0], [1.0, 3.0, 1.0, 1.0, 0.0, 1.0, 1.0, 3.0, 0.5, 2.0, 30.0]]
            t = [0.5, 0.2, 0.5, 0.5, 0.5, 0.0, 1.0, 1.5, 0.3, 0.9, 0.4]
            tol = _rtol(dtype, "betainc")
            cases.append(Case(f"betainc-{dtype}-{mode}", _apply("betainc", [*ab, t], dtype, jit), tol, tol))
            n = [0.0, -0.0, 1.0, -1.0, 2.5, INF, -INF, NAN, 65000.0]
            cases.append(Case(f"nextafter-{dtype}-{mode}", _apply("nextafter", [n, n[::-1]], dtype, jit), 0.0, 0.0))
            lo, hi = [-1.0] * 9, [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 1.0, -2.0]
            cases.append(Case(f"clamp-{dtype}-{mode}", _apply("clamp", [lo, n, hi], dtype, jit), 0.0, 0.0))
    return cases


TABLE = CaseTable("lax_special", lambda: _value_cases(FLOATS))
TABLE64 = CaseTable("lax_special_x64", lambda: _value_cases(("float64",)), x64=True)


@pytest.mark.parametrize("group", TABLE.params())
def test_values_narrow_floats(group: Group) -> None:
    TABLE.check(group)


@pytest.mark.parametrize("group", TABLE64.params())
def test_values_float64(group: Group) -> None:
    TABLE64.check(group)


# === integer bit counts, reduce_precision ===


def _bits_cases() -> list[Case]:
    cases: list[Case] = []
    values = [0, 1, -1, 2, 255, 1024, 7, -100, 12345, 77]
    for dtype in ("int32", "uint8", "int8", "uint32", "int16"):
        for name in ("population_count", "clz", "square"):
            # XLA's constant folder gets clz of negative numbers wrong (-32 for
            # int32; its kernels and JAX's eager mode give 0): clz sees the
            # non-negative values only.
            chosen = [0, 1, 2, 7, 77, 100] if name == "clz" else values
            cases.append(Case(f"{name}-{dtype}", _ints(name, chosen, dtype)))
    # No subnormals: XLA flushes them to zero in JAX's jit (not in ours).
    edges = [0.0, -0.0, 1.0, 1.0 + 2**-12, 3.14159, 65504.0, 70000.0, 1e-3, -1e20, INF, -INF, NAN]
    for dtype in ("float32", "float16", "bfloat16"):
        for exponent_bits, mantissa_bits in ((5, 10), (8, 7), (4, 3), (5, 2), (8, 0), (2, 1)):
            # XLA's constant folder (which runs JAX's side of this table) turns
            # NaN into inf without mantissa bits; its kernels keep NaN (tested below).
            floats = edges if mantissa_bits else edges[:-1]
            cases.append(Case(f"reduce_precision-{dtype}-{exponent_bits}-{mantissa_bits}",
                              _reduce(floats, dtype, exponent_bits, mantissa_bits), 0.0, 0.0))  # fmt: skip
    return cases


def _ints(name: str, values: list[int], dtype: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        x = L.asarray(np.array(values).astype(dtype))  # wraps for unsigned dtypes
        return getattr(library(L).lax, name)(x), library(L).api.jit(getattr(library(L).lax, name))(x)

    return fn


def _reduce(values: list[float], dtype: str, exponent_bits: int, mantissa_bits: int) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        with np.errstate(over="ignore"):
            x = L.asarray(np.array(values).astype(L.dtype(dtype)))

        def reduce(v: Any) -> Any:
            return library(L).lax.reduce_precision(v, exponent_bits, mantissa_bits)

        return reduce(x), library(L).api.jit(reduce)(x)

    return fn


BITS = CaseTable("lax_special_bits", _bits_cases)


def test_reduce_precision_keeps_nan_and_clz_of_negatives() -> None:
    """Against JAX's compiled kernels (operands passed at run time, so
    XLA's constant folder does not decide): the eager rule against XLA's
    default emitters, as users' programs compile (XLA's classic emitters,
    which the test run uses, turn NaN into inf with no mantissa bits), the
    jitted program against JAX's compiled as this run compiles."""
    x = np.array([np.nan, 1.5, -2.75, np.inf], np.float32)
    for exponent_bits, mantissa_bits in ((8, 0), (5, 2)):

        def reduce(v: jt.Array, e: int = exponent_bits, m: int = mantissa_bits) -> jt.Array:
            return jt.lax.reduce_precision(v, e, m)

        as_users_compile = jax_with_default_emitters(jax.lax.reduce_precision, x, exponent_bits, mantissa_bits, static_argnums=(1, 2))
        np.testing.assert_array_equal(np.asarray(reduce(jnp.asarray(x))), as_users_compile)
        if mantissa_bits == 0:
            np.testing.assert_array_equal(as_users_compile[0], np.float32(np.nan))
        as_this_run_compiles = np.asarray(jax.jit(jax.lax.reduce_precision, static_argnums=(1, 2))(x, exponent_bits, mantissa_bits))
        np.testing.assert_array_equal(np.asarray(jt.jit(reduce)(jnp.asarray(x))), as_this_run_compiles)
    ints = np.array([-1, -100, 5, 0], np.int32)
    expected_clz = np.asarray(jax.jit(jax.lax.clz)(ints))
    np.testing.assert_array_equal(np.asarray(jt.lax.clz(ints)), expected_clz)
    np.testing.assert_array_equal(np.asarray(jt.jit(jt.lax.clz)(ints)), expected_clz)


@pytest.mark.parametrize("group", BITS.params())
def test_bits_and_reduce_precision(group: Group) -> None:
    BITS.check(group)


# === derivatives at special points, vmap, errors ===


def _grad_at(f: Callable[[Any, Any], Any], points: list[float], dtype: str = "float32") -> Callable[[Namespace], Any]:
    """``vmap(grad(x -> f(lax, x)))`` at ``points``, and the jvp there."""

    def fn(L: Namespace) -> Any:
        api, lax = library(L).api, library(L).lax
        x = L.asarray(np.array(points, dtype))
        def at(v: Any) -> Any:
            return f(lax, v)

        grads = api.vmap(api.grad(at))(x)
        _, tangent = api.jvp(at, (x,), (L.ones_like(x),))
        return grads, tangent

    return fn


def _c(lax: Any, value: float, like: Any) -> Any:
    return lax.convert_element_type(value, like.dtype)


def _grad_cases(dtype: str) -> list[Case]:
    pts = [0.5, 1.0, 2.0, -2.5, 0.0, 1e-3, 7.0, -0.5]
    unit = [0.0, 0.5, -0.9, 1.0, -1.0, 0.999]
    bessel = [0.0, 1e-9, 1.0, -1.0, 40.0, -3.0]
    g: list[tuple[str, Callable[[Any, Any], Any], list[float]]] = [
        ("lgamma", lambda lax, v: lax.lgamma(v), pts),
        ("digamma", lambda lax, v: lax.digamma(v), pts),
        ("polygamma", lambda lax, v: lax.polygamma(_c(lax, 2, v), v), pts),
        ("erf_inv", lambda lax, v: lax.erf_inv(v), unit),
        ("erfc", lambda lax, v: lax.erfc(v), [0.0, 1.0, -3.0, 10.0, -10.0]),
        ("bessel_i0e", lambda lax, v: lax.bessel_i0e(v), bessel),
        ("bessel_i1e", lambda lax, v: lax.bessel_i1e(v), bessel),
        ("igamma_x", lambda lax, v: lax.igamma(_c(lax, 2, v), v), [0.0, 0.5, 3.0, 20.0]),
        ("igamma_x1", lambda lax, v: lax.igamma(_c(lax, 1, v), v), [0.0, 0.5, 3.0]),
        ("igamma_a", lambda lax, v: lax.igamma(v, _c(lax, 2, v)), [0.5, 1.0, 3.0, 8.0]),
        ("igammac_a", lambda lax, v: lax.igammac(v, _c(lax, 2, v)), [0.5, 1.0, 3.0, 8.0]),
        ("igammac_x", lambda lax, v: lax.igammac(_c(lax, 3, v), v), [0.0, 0.5, 3.0, 20.0]),
        ("betainc_x", lambda lax, v: lax.betainc(_c(lax, 2, v), _c(lax, 3, v), v), [0.0, 0.3, 0.9, 1.0]),
        ("cbrt", lambda lax, v: lax.cbrt(v), [1.0, -8.0, 0.0, 1e-3]),
        ("exp2", lambda lax, v: lax.exp2(v), [0.0, 1.0, -3.5]),
        ("square", lambda lax, v: lax.square(v), [0.0, -2.0, 3.0]),
        ("reciprocal", lambda lax, v: lax.reciprocal(v), [1.0, -2.0, 0.5]),
        ("reduce_precision", lambda lax, v: lax.reduce_precision(v, 5, 10), [1.0, -2.0, 3.3]),
        ("clamp", lambda lax, v: lax.clamp(_c(lax, -1, v), v, _c(lax, 1, v)), [-2.0, -1.0, 0.0, 1.0, 2.0]),
        ("clamp_lo", lambda lax, v: lax.clamp(v, _c(lax, 0, v), _c(lax, 1, v)), [-2.0, 0.0, 0.5, 1.0, 2.0]),
        ("clamp_hi", lambda lax, v: lax.clamp(_c(lax, -1, v), _c(lax, 0, v), v), [-2.0, -1.0, 0.0, 1.0]),
        ("zeta", lambda lax, v: lax.zeta(_c(lax, 2, v), v), [1.0]),  # no rule: NotImplementedError
        ("polygamma_m", lambda lax, v: lax.polygamma(v, _c(lax, 2, v)), [1.0]),  # ValueError
        ("betainc_a", lambda lax, v: lax.betainc(v, _c(lax, 2, v), _c(lax, 0.5, v)), [1.0]),  # ValueError
    ]
    if dtype == "float64":
        return [Case(f"{name}-grad64", _grad_at(f, p, dtype), 1e-6, 1e-9) for name, f, p in g[:14]]
    return [Case(f"{name}-grad", _grad_at(f, p, dtype), 1e-4, 1e-5) for name, f, p in g]


GRADS = CaseTable("lax_special_grads", lambda: _grad_cases("float32"))
GRADS64 = CaseTable("lax_special_grads64", lambda: _grad_cases("float64"), x64=True)


@pytest.mark.parametrize("group", GRADS.params())
def test_derivatives_match_jax(group: Group) -> None:
    GRADS.check(group)


@pytest.mark.parametrize("group", GRADS64.params())
def test_derivatives_match_jax_float64(group: Group) -> None:
    GRADS64.check(group)


def _vmap_cases() -> list[Case]:
    def igamma_rows(L: Namespace) -> Any:
        api, lax = library(L).api, library(L).lax
        a = L.asarray(np.array([[0.5, 1.0, 2.0], [3.0, 4.0, 5.0]], np.float32))
        x = L.asarray(np.array([0.3, 1.5, 4.0], np.float32))
        return (api.vmap(lax.igamma, in_axes=(0, None))(a, x), api.vmap(lax.betainc, in_axes=(None, 1, 0))(x, a, x / 5),
                api.vmap(lambda v: lax.clamp(v[0], v, v[2]))(a), api.vmap(lax.bessel_i0e, out_axes=0)(a))  # fmt: skip  # pyright: ignore[reportUnknownLambdaType]  # rows of Any

    def errors(L: Namespace, which: int) -> Any:
        lax = library(L).lax
        x = L.asarray(np.ones((3,), np.float32))
        bad: list[Callable[[], Any]] = [
            lambda: lax.lgamma(L.asarray(np.ones(3, np.int32))),
            lambda: lax.clamp(L.asarray(np.zeros(2, np.float32)), x, x),
            lambda: lax.igamma(x, L.asarray(np.ones(3, np.float16))),
            lambda: lax.population_count(x),
            lambda: lax.nextafter(x, L.asarray(np.ones(3, np.int32))),
        ]
        return bad[which]()

    cases = [Case("vmap-igamma-betainc-clamp", igamma_rows, 1e-4, 1e-6)]
    cases += [Case(f"errors-{i}", functools.partial(errors, which=i)) for i in range(5)]
    return cases


MISC = CaseTable("lax_special_misc", _vmap_cases)


@pytest.mark.parametrize("group", MISC.params())
def test_vmap_and_errors(group: Group) -> None:
    MISC.check(group)


def test_float64_values_match_scipy(x64: None) -> None:
    """Our float64 evaluation against SciPy's, away from the edges."""
    special: Any = pytest.importorskip("scipy.special")
    rng = np.random.default_rng(1)
    x = rng.uniform(-10, 40, 64)
    a, t = rng.uniform(0.05, 40, 64), rng.uniform(0, 60, 64)
    b, u = rng.uniform(0.05, 30, 64), rng.uniform(0, 1, 64)
    pairs: list[tuple[Any, Any]] = [
        (jt.lax.lgamma(x), special.gammaln(x)),
        (jt.lax.digamma(x), special.digamma(x)),
        (jt.lax.erf_inv(u * 2 - 1), special.erfinv(u * 2 - 1)),
        (jt.lax.erfc(x / 4), special.erfc(x / 4)),
        (jt.lax.bessel_i0e(x * 3), special.i0e(x * 3)),
        (jt.lax.bessel_i1e(x * 3), special.i1e(x * 3)),
        (jt.lax.igamma(a, t), special.gammainc(a, t)),
        (jt.lax.igammac(a, t), special.gammaincc(a, t)),
        (jt.lax.betainc(a, b, u), special.betainc(a, b, u)),
        (jt.lax.zeta(a + 1.1, b), special.zeta(a + 1.1, b)),
        (jt.lax.polygamma(np.floor(u * 4), b), special.polygamma(np.floor(u * 4), b)),
    ]
    for i, (ours, theirs) in enumerate(pairs):
        assert np.asarray(ours).dtype == np.float64
        np.testing.assert_allclose(np.asarray(ours), theirs, rtol=1e-11, atol=1e-300, err_msg=str(i))


def test_jaxpr_names_and_lowering() -> None:
    x = jnp.ones((2,))
    def f(v: jt.Array) -> jt.Array:
        return jt.lax.igamma(v, v) + jt.lax.lgamma(v) + jt.lax.clamp(0.0, v, 1.0)

    def g(v: jt.Array) -> jt.Array:
        return jt.lax.lgamma(v) + jt.lax.bessel_i1e(v)

    text = str(jt.make_jaxpr(f)(x))
    assert "igamma" in text and "lgamma" in text and "clamp" in text
    lowered = jt.jit(g).lower(x).as_text()
    assert "chlo.lgamma" in lowered and "chlo.bessel_i1e" in lowered
    assert jax_numpy is not None
