"""``hyp1f1`` (the confluent hypergeometric function) and ``bessel_jn``
(Bessel functions of the first kind, by Miller's backward recurrence)
against ``jax.scipy.special``: for ``hyp1f1`` values (Taylor and asymptotic
branches, the special cases ``a = 0``, ``a = b``, ``b = 0``), dtypes and
weak types, derivatives in all three arguments against JAX's rules, SciPy
for accuracy and where JAX is wrong (negative ``x``); for ``bessel_jn`` values, shapes,
dtypes and weak types in float32 and float64 where JAX's recurrence does not
overflow, under ``jit`` and ``vmap``; derivatives against JAX's (the
composition's) and finite differences; SciPy (``jv``, float64) for the
accuracy and for the small arguments where JAX's float32 values are NaN;
argument errors. ``hyp2f1``, ``wofz`` and ``sph_harm_y`` against JAX where it
is right (one case each per family and dtype; JAX's compilations are slow,
so the tables are lean) and SciPy for accuracy and where JAX is wrong."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import Case, CaseTable, Group, Namespace, library

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy.special as special

jax_special: Any = pytest.importorskip("jax.scipy.special")
scipy_special: Any = pytest.importorskip("scipy.special")

# JAX's float32 recurrence overflows for |z| up to about 3 (NaN), and its
# float32 derivatives are wrong up to about 9: those points are checked
# against SciPy below.
Z32 = [7.5, -8.0, 10.0, 15.0, 20.0, -25.0, 30.0, float("nan")]
Z64 = [0.5, -1.0, 2.5, 3.0, 5.0, -5.0, *Z32]


def special_of(L: Namespace) -> Any:
    return special if L is jnp else jax_special


A = [0.5, 1.0, 2.0, -2.0, 0.0, 1.5, 0.5, 2.5, 1.0, 0.3, 4.0, 1.0]
B = [1.5, 2.0, 1.0, 3.0, 1.0, 1.5, 2.0, 1.0, 1.0, 0.7, 2.5, 0.0]
X = [0.3, -2.0, 5.0, 1.0, 2.0, 3.0, 150.0, 10.0, 0.0, -1.5, 60.0, 1.0]


def _hyp1f1(dtype: str, how: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        f = special_of(L).hyp1f1
        a, b, x = (L.asarray(np.array(v, dtype)) for v in (A, B, X))
        api = library(L).api
        if how == "kinds":
            return f(1, 2, 0.5), f(L.arange(3), 2.0, 1.5)
        if how.startswith("grad"):
            k = int(how[-1])
            return api.vmap(api.grad(f, argnums=k))(a[:4], b[:4], x[:4])
        return f(a, b, x)

    return fn


def _order(f: Any, v: int, index: int | None = None) -> Callable[[Any], Any]:
    """``f(z, v=v)``, or its row ``index``."""

    def g(z: Any) -> Any:
        out = f(z, v=v)
        return out if index is None else out[index]

    return g


def _call(dtype: str, how: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        z = L.asarray(np.array(Z64 if dtype == "float64" else Z32, dtype))
        f = special_of(L).bessel_jn
        api = library(L).api
        if how == "jit":
            return api.jit(_order(f, 4))(z)
        if how == "vmap":
            return api.vmap(_order(f, 2))(z)
        if how == "kinds":
            return f(8.5, v=1), f(L.arange(8, 11), v=2), f(L.asarray(np.full((2, 2), 9.0, dtype)), v=0, n_iter=40)
        if how == "grad":  # JAX's float32 derivatives are wrong below |z| ~ 9
            return api.vmap(api.grad(_order(f, 3, 3)))(z if dtype == "float64" else z[2:])
        return f(z, v=5)

    return fn


# hyp2f1 where JAX's is accurate: |x| <= 0.9 off the special cases, and
# JAX's special cases (x = 0, a = 0, a = c, b = c, x = 1, x > 1, c = 0).
A2 = [0.5, 1.0, 2.0, -2.0, 0.0, 1.5, 1.2, 2.5, 1.0, 0.3, 1.0, 1.5, 0.7, 0.5]
B2 = [1.5, 2.0, 1.0, 3.0, 1.0, 1.5, 0.7, 1.0, 1.0, 0.7, 2.0, 1.0, 2.0, 1.5]
C2 = [2.5, 3.0, 4.5, 1.5, 1.0, 3.0, 3.0, 4.0, 0.0, 1.7, 3.5, 1.0, 3.0, 1.5]
X2 = [0.3, -0.5, 0.6, -3.0, 2.0, 1.0, 0.5, 0.0, 0.5, 0.8, 1.0, -0.7, 1.5, 0.2]


def _hyp2f1(dtype: str, how: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        f = special_of(L).hyp2f1
        a, b, c, x = (L.asarray(np.array(v, dtype)) for v in (A2, B2, C2, X2))
        if how.startswith("grad"):
            return library(L).api.vmap(library(L).api.grad(f, argnums=int(how[-1])))(a[:3], b[:3], c[:3], x[:3])
        return f(a, b, c, x)

    return fn


Z = [0.5 + 0.5j, 3 - 2j, -1.5 + 0.1j, 0j, 20 + 1j, -4 - 3j, 1e-3j, 5.5 - 0.2j, -2 + 7j, 0.2 - 0.1j]


def _wofz(dtype: str, how: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        f = special_of(L).wofz
        z = L.asarray(np.array(Z, dtype))
        if how == "kinds":
            return f(1.5), f(L.arange(3)), f(L.asarray(np.array([0.5, -2.0], "float32")))
        if how == "jvp":
            return library(L).api.jvp(f, (z,), (L.ones_like(z),))
        return f(z)

    return fn


N = [0, 1, 2, 3, 3, 5, 2, 4]
M = [0, -1, 2, -3, 1, -2, 0, 4]
THETA = [0.3, 1.0, 2.0, 0.5, 3.0, 1.2, 0.0, 2.2]
PHI = [0.1, 2.0, 4.0, 1.0, 0.5, 6.0, 1.0, 3.0]


def _sph(dtype: str, how: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        f = special_of(L).sph_harm_y
        n, m = L.asarray(np.array(N)), L.asarray(np.array(M))
        theta, phi = (L.asarray(np.array(v, dtype)) for v in (THETA, PHI))
        if how == "scalar":
            return f(n, m, 0.7, 1.3, n_max=5)
        if how == "grad":  # off theta = 0, where JAX's derivative is NaN (ours: the limit)

            def g(t: Any) -> Any:
                return L.real(f(n, m, t, phi, n_max=5)).sum()

            return library(L).api.grad(g)(L.where(theta == 0.0, 0.4, theta))
        if how == "diff_n":
            return f(n, m, theta, phi, diff_n=1, n_max=5)
        return f(n, m, theta, phi, n_max=5)

    return fn


def _cases(dtype: str) -> list[Case]:
    rtol, atol = (1e-10, 1e-13) if dtype == "float64" else (2e-5, 2e-6)
    cases = [Case(f"hyp1f1-{how}", _hyp1f1(dtype, how), rtol, atol) for how in ("values", "kinds", "grad0", "grad1", "grad2")]
    cases += [Case("hyp1f1-complex", lambda L: special_of(L).hyp1f1(1.0, 2.0, L.asarray(np.array([1 + 1j], np.complex64))))]
    # JAX's compilations of hyp2f1 and sph_harm_y are slow (seconds): the x64
    # table leaves out what the float32 one checks, and hyp2f1's argument kinds
    # are checked below.
    x64 = dtype == "float64"
    hows: tuple[str, ...] = ("values", "grad1", "grad2") if x64 else ("values", "grad0", "grad3")
    cases += [Case(f"hyp2f1-{how}", _hyp2f1(dtype, how), rtol, atol) for how in hows]
    cases += [Case("hyp2f1-complex", lambda L: special_of(L).hyp2f1(1.0, 2.0, 3.0, L.asarray(np.array([0.5j], np.complex64))))]
    complex_dtype = "complex128" if dtype == "float64" else "complex64"
    cases += [Case(f"wofz-{how}", _wofz(complex_dtype, how), rtol * 10, atol) for how in ("values", "jvp")]
    cases += [Case("wofz-kinds", _wofz(complex_dtype, "kinds"), 2e-6, 1e-7)]  # float32 input: complex64
    hows = ("values", "diff_n") if x64 else ("values", "scalar", "grad", "diff_n")
    cases += [Case(f"sph_harm_y-{how}", _sph(dtype, how), rtol, atol) for how in hows]
    return cases + [Case(f"bessel_jn-{how}", _call(dtype, how), rtol, atol) for how in ("values", "jit", "vmap", "kinds", "grad")] + [
        Case("errors-float-order", lambda L: special_of(L).bessel_jn(1.0, v=1.5)),
    ]


VALUES = CaseTable("special_hyper", lambda: _cases("float32"))
VALUES64 = CaseTable("special_hyper_x64", lambda: _cases("float64"), x64=True)


@pytest.mark.parametrize("group", VALUES.params())
def test_values_float32(group: Group) -> None:
    VALUES.check(group)


@pytest.mark.parametrize("group", VALUES64.params())
def test_values_float64(group: Group) -> None:
    VALUES64.check(group)


@pytest.fixture
def x64() -> Any:
    previous = jt.config.jax_enable_x64
    jt.config.update("jax_enable_x64", True)
    yield
    jt.config.update("jax_enable_x64", previous)


def _reference(z: np.ndarray[Any, Any], v: int) -> np.ndarray[Any, Any]:
    return np.array([scipy_special.jv(k, z) for k in range(v + 1)])


@pytest.mark.usefixtures("x64")
def test_accuracy_float64() -> None:
    z = np.array([1e-8, 1e-3, 0.1, 0.5, 1.0, -1.5, 2.0, 4.0, 8.0, -12.0, 16.0, 20.0])
    np.testing.assert_allclose(np.asarray(special.bessel_jn(jnp.asarray(z), v=6)), _reference(z, 6), rtol=1e-12, atol=1e-300)


def test_small_arguments_float32() -> None:
    """Where JAX's float32 recurrence overflows (NaN), ours is right; J_n(0) exact."""
    z = np.array([0.0, -0.0, 1e-6, 0.1, 0.5, 1.0, -2.0], np.float32)
    out = special.bessel_jn(jnp.asarray(z), v=3)
    assert out.dtype == np.float32 and out.shape == (4, 7)
    np.testing.assert_allclose(np.asarray(out), _reference(z.astype(np.float64), 3), rtol=2e-6, atol=1e-7)
    grad = jt.vmap(jt.grad(_order(special.bessel_jn, 2, 2)))(jnp.asarray(z[2:]))
    np.testing.assert_allclose(np.asarray(grad), scipy_special.jvp(2, z[2:].astype(np.float64)), rtol=1e-5, atol=1e-7)


@pytest.mark.usefixtures("x64")
def test_derivatives_match_finite_differences() -> None:
    z, h = np.array([0.3, 1.0, 2.5, 6.0, -9.0]), 1e-6

    def f(x: Any) -> Any:
        return special.bessel_jn(x, v=3)[3]

    expected = (np.asarray(f(jnp.asarray(z + h))) - np.asarray(f(jnp.asarray(z - h)))) / (2 * h)
    np.testing.assert_allclose(np.asarray(jt.vmap(jt.grad(f))(jnp.asarray(z))), expected, rtol=1e-7, atol=1e-10)


def test_argument_errors() -> None:
    with pytest.raises(jt.errors.JaxtypedValueError, match="non-negative"):
        special.bessel_jn(1.0, v=-1)
    with pytest.raises(jt.errors.JaxtypedValueError, match="n_iter"):
        special.bessel_jn(1.0, v=10, n_iter=5)
    with pytest.raises(TypeError):
        special.bessel_jn(1.0, v=True)
    # JAX computes a meaningless result for complex z; ours refuses.
    with pytest.raises(jt.errors.JaxtypedValueError, match="complex"):
        special.bessel_jn(jnp.asarray(np.array([1 + 1j], np.complex64)), v=1)


@pytest.mark.usefixtures("x64")
def test_hyp1f1_accuracy_float64() -> None:
    """Including negative x (Kummer's transformation, where JAX's series
    cancels), x <= -100 and a terminating series at large x (JAX: NaN)."""
    a = np.array([0.5, 1.0, 2.0, -2.0, 1.5, 0.5, 2.0, 1.0, -3.0, 2.5, 0.3, -2.5, 4.0, 0.1])
    b = np.array([1.5, 2.0, 1.0, 3.0, 1.5, 2.0, 5.0, 2.0, 4.0, 1.0, 0.7, 1.5, 2.5, 3.0])
    x = np.array([0.3, -2.0, 5.0, 1.0, 3.0, 150.0, -50.0, -150.0, 200.0, 10.0, -20.0, -5.0, 60.0, 99.0])
    out = special.hyp1f1(jnp.asarray(a), jnp.asarray(b), jnp.asarray(x))
    np.testing.assert_allclose(np.asarray(out), scipy_special.hyp1f1(a, b, x), rtol=1e-13)


def test_hyp1f1_jit_vmap_and_finite_differences(x64: Any) -> None:
    a, b, x = jnp.asarray(np.array([0.5, 1.5, 2.0])), jnp.asarray(np.array([1.5, 2.5, 4.0])), jnp.asarray(np.array([0.7, -3.0, 12.0]))
    eager = special.hyp1f1(a, b, x)
    np.testing.assert_allclose(np.asarray(jt.jit(special.hyp1f1)(a, b, x)), np.asarray(eager), rtol=1e-14)
    np.testing.assert_allclose(np.asarray(jt.vmap(special.hyp1f1)(a, b, x)), np.asarray(eager), rtol=1e-14)
    h = 1e-6
    for k in range(3):
        step = [jnp.zeros(3), jnp.zeros(3), jnp.zeros(3)]
        step[k] = jnp.full((3,), h)
        up = special.hyp1f1(a + step[0], b + step[1], x + step[2])
        down = special.hyp1f1(a - step[0], b - step[1], x - step[2])
        expected = (np.asarray(up) - np.asarray(down)) / (2 * h)
        got = jt.vmap(jt.grad(special.hyp1f1, argnums=k))(a, b, x)
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-6)


@pytest.mark.usefixtures("x64")
def test_hyp2f1_accuracy_float64() -> None:
    """Against SciPy, also where JAX's is wrong: x < -1 (JAX sums a
    divergent series; ours uses Pfaff's transformation), 0.9 < x < 1 (JAX's
    250 terms fall short; ours sums in 1 - x, with the logarithmic case for
    integer c - a - b), a polynomial at x = 1 (JAX: NaN) and one that ends
    before the pole of c (JAX: inf)."""
    a = np.array([0.5, 1.5, 3.8, 0.7, 1.2, 2.5, 0.5, 1.0, -1.0, -1.0, -2.0, -2.0, 2.0, 0.3, -2.6])
    b = np.array([1.5, 2.0, 3.9, 1.3, 0.4, 1.0, 0.5, 2.0, 3.0, 2.0, 3.0, 3.0, 1.0, 0.4, -0.6])
    c = np.array([2.5, 3.2, 0.8, 3.0, 2.6, 4.0, 1.0, 5.0, 1.0, -2.0, -2.5, 1.5, 3.0, 0.9, -5.2])
    x = np.array([-3.0, -20.0, -20.0, 0.95, 0.999, 0.97, 0.99, 0.9999, 1.0, 0.5, 3.0, -30.0, -1.5, -0.99, 0.9])
    out = special.hyp2f1(*(jnp.asarray(v) for v in (a, b, c, x)))
    np.testing.assert_allclose(np.asarray(out), scipy_special.hyp2f1(a, b, c, x), rtol=1e-12)


def test_hyp2f1_kinds_and_special_values() -> None:
    """Argument kinds as JAX's (float32, never weak), JAX's special cases, vmap."""
    out = special.hyp2f1(jnp.arange(3), 2, 3.0, 0.25)
    assert out.dtype == np.float32 and not out.weak_type and out.shape == (3,)
    # x > 1, x = 1 with c - a - b <= 0, a pole of c: inf; x = 0: 1; b = c: (1 - x)**(-a).
    # NaN in, NaN out (JAX: 1 for these); 2F1(1, 1; 2; x) = -log(1 - x) / x -> 0 at -inf (JAX: -inf).
    special_args = np.array([
        (1.0, 2.0, 3.0, 1.5), (1.0, 2.0, 3.0, 1.0), (1.0, 1.0, -2.0, 0.5), (1.0, 1.0, 0.0, 0.0), (-0.5, 0.5, 0.5, 0.75),
        (np.nan, 1.0, 2.0, 0.5), (1.0, 1.0, 2.0, np.nan), (1.0, 1.0, 2.0, -np.inf),
    ])  # fmt: skip
    got = special.hyp2f1(*(jnp.asarray(column) for column in special_args.T.astype(np.float32)))
    np.testing.assert_allclose(np.asarray(got), [np.inf, np.inf, np.inf, 1.0, 0.5, np.nan, np.nan, 0.0], rtol=1e-6)
    # vmap (jit costs seconds of compilation here; the table's cases run under JAX's jit).
    got = jt.vmap(special.hyp2f1, in_axes=(None, None, None, 0))(0.5, 1.5, 2.5, jnp.asarray([0.3, -2.0]))
    np.testing.assert_allclose(np.asarray(got), scipy_special.hyp2f1(0.5, 1.5, 2.5, [0.3, -2.0]), rtol=2e-6)


@pytest.mark.usefixtures("x64")
def test_wofz_accuracy_and_infinities() -> None:
    z = np.array([0.5 + 0.5j, 3 - 2j, -1.5 + 0.1j, 0j, 20 + 1j, -4 - 3j, 1e-3j, 1e4 + 1e4j, 5.5 - 0.2j, 1e6 + 3j, -8 + 0.5j, 0.1 - 5j])
    out = special.wofz(jnp.asarray(z))
    assert out.dtype == np.complex128
    np.testing.assert_allclose(np.asarray(out), scipy_special.wofz(z), rtol=1e-12)
    # JAX: NaN; the limits are 0 in the closed upper half-plane.
    edges = np.array([complex(np.inf, 0.0), complex(0.0, np.inf), complex(-np.inf, 1.0)])
    np.testing.assert_array_equal(np.asarray(special.wofz(jnp.asarray(edges))), np.zeros(3, complex))
    assert special.wofz(1.0).dtype == np.complex128 and special.wofz(np.float32(1.0)).dtype == np.complex64


def test_sph_harm_y_against_scipy() -> None:
    """Broadcasting (JAX pairs n[k] with theta[k] only), |m| > n (0; JAX:
    undefined), degrees clipped to n_max, jit with a static n_max."""
    n, m = np.array([0, 1, 2, 3, 3, 5, 2, 12, 30, 2]), np.array([0, -1, 2, -3, 1, -2, 0, -7, 15, 3])
    theta = np.array([0.3, 1.0, 2.0, 0.5, 3.0, 1.2, 0.0, 2.2, 1.4, 0.5], np.float32)
    phi = np.array([0.1, 2.0, 4.0, 1.0, 0.5, 6.0, 1.0, 3.0, 4.0, 0.2], np.float32)
    reference = scipy_special.sph_harm_y(n, m, theta.astype(np.float64), phi.astype(np.float64))
    out = special.sph_harm_y(jnp.asarray(n), jnp.asarray(m), jnp.asarray(theta), jnp.asarray(phi))
    assert out.dtype == np.complex64 and out.shape == (10,)
    np.testing.assert_allclose(np.asarray(out), reference, rtol=2e-5, atol=1e-6)
    one = special.sph_harm_y(jnp.asarray([2]), jnp.asarray([1]), jnp.asarray([0.5, 0.6]), jnp.asarray([0.2, 0.3]))
    np.testing.assert_allclose(np.asarray(one), scipy_special.sph_harm_y(2, 1, [0.5, 0.6], [0.2, 0.3]), rtol=1e-5)
    def degree_four_as_two(k: jt.Array) -> jt.Array:
        return special.sph_harm_y(k, jnp.asarray([1]), jnp.asarray([0.5]), jnp.asarray([0.2]), n_max=2)

    clipped = jt.jit(degree_four_as_two)(jnp.asarray([4]))
    np.testing.assert_allclose(np.asarray(clipped), [scipy_special.sph_harm_y(2, 1, 0.5, 0.2)], rtol=1e-5)


def test_new_argument_errors() -> None:
    with pytest.raises(TypeError, match="complex"):
        special.hyp2f1(1.0, 2.0, 3.0, jnp.asarray([0.5j]))
    with pytest.raises(NotImplementedError):
        special.sph_harm_y(jnp.asarray([1]), jnp.asarray([0]), 0.5, 0.5, diff_n=1)
    with pytest.raises(ValueError, match="integer"):
        special.sph_harm_y(jnp.asarray([1.0]), jnp.asarray([0]), 0.5, 0.5)
    def no_n_max(k: jt.Array) -> jt.Array:
        return special.sph_harm_y(k, jnp.asarray([0]), 0.5, 0.5)

    with pytest.raises(TypeError, match="n_max"):
        jt.jit(no_n_max)(jnp.asarray([1]))
    with pytest.raises(ValueError, match="real"):
        special.sph_harm_y(jnp.asarray([1]), jnp.asarray([0]), jnp.asarray([0.5j]), 0.5)
