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
argument errors."""

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


def _cases(dtype: str) -> list[Case]:
    rtol, atol = (1e-10, 1e-13) if dtype == "float64" else (2e-5, 2e-6)
    cases = [Case(f"hyp1f1-{how}", _hyp1f1(dtype, how), rtol, atol) for how in ("values", "kinds", "grad0", "grad1", "grad2")]
    cases += [Case("hyp1f1-complex", lambda L: special_of(L).hyp1f1(1.0, 2.0, L.asarray(np.array([1 + 1j], np.complex64))))]
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
