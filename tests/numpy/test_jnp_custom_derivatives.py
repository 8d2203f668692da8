"""The ``jnp`` functions JAX differentiates by their own rules
(``logaddexp``, ``logaddexp2``, ``sinc``) and ``hypot``'s kinks, against
JAX: values (dtypes, weak types), ``grad`` and ``jvp`` at 0, at ties
``x1 == x2``, at infinities and large magnitudes, and second derivatives.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import ArrayLike

from oracle import Case, CaseTable, Group, Namespace, call, host, library, tol

INF, NAN = np.inf, np.nan
# (x1, x2) pairs: ties, zeros, infinities of each sign, NaN, large and
# tiny magnitudes, and a wide gap.
PAIRS = [
    (0.0, 0.0), (1.0, 1.0), (-3.0, -3.0), (100.0, 100.0), (0.0, 1.0), (2.0, -1.0),
    (INF, INF), (-INF, -INF), (INF, -INF), (INF, 1.0), (-INF, 1.0), (1.0, -INF),
    (1e30, -1e30), (-1e30, -1e30), (80.0, -80.0), (1e-30, -1e-30), (NAN, 1.0),
]  # fmt: skip
X1 = np.array([p[0] for p in PAIRS])
X2 = np.array([p[1] for p in PAIRS])
# Derivatives skip the pairs whose float32 intermediates over- or underflow
# (1e30**2): there even JAX's eager and compiled results follow XLA's
# rewrites rather than the formula.
SAFE = np.array([abs(a) not in (1e30, 1e-30) for a, _ in PAIRS])


def binary(name: str, dtype: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        return getattr(L, name)(L.asarray(host(dtype, X1)), L.asarray(host(dtype, X2)))

    return fn


def binary_grads(name: str, order: int = 1, x1: np.ndarray[Any, Any] = X1[SAFE], x2: np.ndarray[Any, Any] = X2[SAFE]) -> Callable[[Namespace], Any]:
    """``vmap`` of the gradient in both arguments (of order ``order`` in
    the first, for order 2: d2/dx1^2 and d2/dx1 dx2)."""

    def fn(L: Namespace) -> Any:
        T = library(L).api

        def f(a: Any, b: Any) -> Any:
            return getattr(L, name)(a, b)

        if order == 1:
            g = T.grad(f, argnums=(0, 1))
        else:
            g = T.grad(T.grad(f, argnums=0), argnums=(0, 1))
        return T.vmap(g)(L.asarray(host("float32", x1)), L.asarray(host("float32", x2)))

    return fn


def binary_jvp(name: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        def f(a: Any, b: Any) -> Any:
            return getattr(L, name)(a, b)

        xs = (L.asarray(host("float32", X1[SAFE])), L.asarray(host("float32", X2[SAFE])))
        ts = (L.asarray(host("float32", np.linspace(-1, 1, int(SAFE.sum())))), L.ones_like(xs[1]))
        return library(L).api.jvp(f, xs, ts)

    return fn


COMPLEX_A = np.array([1 + 2j, -1 + 0.5j, 3 - 4j, 10 + 10j, -30 + 1j], np.complex64)
COMPLEX_B = np.array([0.5 - 1j, 2 + 3j, 3 - 4j, -5 - 20j, 1 + 1j], np.complex64)


def complex_jvp(name: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        def f(a: Any, b: Any) -> Any:
            return getattr(L, name)(a, b)

        xs = (L.asarray(COMPLEX_A), L.asarray(COMPLEX_B))
        return library(L).api.jvp(f, xs, (L.ones_like(xs[0]), L.asarray(COMPLEX_B * 1j)))

    return fn


SINC_POINTS = host("float32", [0.0, -0.0, 0.5, -1.0, 1.0, 2.5, 1e-3, 100.0, INF, -INF, NAN])
# The quotient's derivatives cancel catastrophically near (not at) 0, in
# float32 in both libraries: derivatives are compared away from there.
SINC_GRAD_POINTS = host("float32", [0.0, -0.0, 0.5, -1.0, 1.0, 2.5, 100.0, INF, -INF, NAN])


def sinc_derivative(order: int, points: np.ndarray[Any, Any] = SINC_GRAD_POINTS) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        T = library(L).api
        f: Any = L.sinc
        for _ in range(order):
            f = T.grad(f)
        return T.vmap(f)(L.asarray(points))

    return fn


def _cases() -> list[Case]:
    cases: list[Case] = []
    for name in ("logaddexp", "logaddexp2", "hypot"):
        for dtype in ("float32", "float16", "bfloat16"):
            cases.append(Case(f"{name}-{dtype}", binary(name, dtype), rtol=tol(dtype), atol=tol(dtype)))
        cases += [
            Case(f"{name}-weak", call(name, 1.0, 2.0)),
            Case(f"{name}-int", call(name, np.arange(3, dtype=np.int32), 2)),
            Case(f"{name}-broadcast", call(name, host("float32", [[0.0], [1.0]]), host("float32", [0.0, 1.0, -1.0]))),
            Case(f"{name}-grad", binary_grads(name), rtol=1e-5),
            Case(f"{name}-jvp", binary_jvp(name), rtol=1e-5),
        ]
    # Complex operands: the imaginary part wrapped into one period.
    for name in ("logaddexp", "logaddexp2"):
        cases += [
            Case(f"{name}-complex", call(name, COMPLEX_A, COMPLEX_B)),
            Case(f"{name}-complex_jvp", complex_jvp(name), rtol=1e-5),
        ]
    # Second derivatives where they are finite (away from hypot's kink).
    cases += [
        Case("logaddexp-grad2", binary_grads("logaddexp", 2)),
        Case("logaddexp2-grad2", binary_grads("logaddexp2", 2)),
        Case("hypot-grad2", binary_grads("hypot", 2, np.array([3.0, 1.0, -2.0, 1e3]), np.array([4.0, 1.0, 0.5, 1e3]))),
        Case("hypot-complex", lambda L: L.hypot(L.asarray(np.array([1 + 1j], np.complex64)), 1.0)),
        Case("sinc-values", lambda L: L.sinc(L.asarray(SINC_POINTS))),
        Case("sinc-f16", lambda L: L.sinc(L.asarray(host("float16", [0.0, 0.5, 1.5]))), rtol=2e-2, atol=2e-3),
        Case("sinc-weak", lambda L: L.sinc(0.0)),
        Case("sinc-int", lambda L: L.sinc(L.asarray(np.arange(-2, 3, dtype=np.int32)))),
        Case("sinc-grad", sinc_derivative(1), rtol=1e-5, atol=1e-6),
        Case("sinc-grad2", sinc_derivative(2), rtol=1e-4, atol=1e-5),
        # Higher orders at 0 only: the quotient rule is exact there by the
        # Taylor-series rule, and catastrophically cancels a little away.
        Case("sinc-grad3", sinc_derivative(3, host("float32", [0.0, 1.0])), rtol=1e-4, atol=1e-4),
        Case("sinc-grad4", sinc_derivative(4, host("float32", [0.0])), rtol=1e-5),
    ]
    return cases


TABLE = CaseTable("custom-derivatives", _cases)


@pytest.mark.parametrize("group", TABLE.params())
def test_matches_jax(group: Group) -> None:
    TABLE.check(group)


def test_logaddexp_gradient_at_a_tie_is_one_half() -> None:
    """The issue's regression: the composition with max/abs/log1p gave 1.0."""
    def f(z: ArrayLike) -> jt.Array:
        return jnp.logaddexp(0.0, z)

    g = jt.grad(f)(0.0)
    assert float(np.asarray(g)) == 0.5


def test_logistic_regression_first_step_is_symmetric() -> None:
    """At zero weights the logistic loss ``softplus(-y w.x)`` has gradient
    ``-mean(y x) / 2`` (each example's sigmoid is 1/2)."""
    x = jnp.asarray(np.array([[1.0, 2.0], [-1.0, 0.5], [0.5, -1.0]], np.float32))
    y = jnp.asarray(np.array([1.0, -1.0, 1.0], np.float32))

    def loss(w: jt.Array) -> jt.Array:
        return jnp.mean(jnp.logaddexp(0.0, -y * (x @ w)))

    g = np.asarray(jt.grad(loss)(jnp.zeros(2)))
    expected = -np.mean(np.asarray(y)[:, None] * np.asarray(x), axis=0) / 2
    np.testing.assert_allclose(g, expected, rtol=1e-6)


def test_hypot_of_inf_and_nan_is_inf() -> None:
    assert float(np.asarray(jnp.hypot(jnp.inf, jnp.nan))) == np.inf
    assert float(np.asarray(jnp.hypot(jnp.nan, -jnp.inf))) == np.inf
    assert np.isnan(np.asarray(jnp.hypot(jnp.nan, 1.0)))


def test_under_jit_equal_to_eager() -> None:
    a, b = jnp.asarray(host("float32", X1)), jnp.asarray(host("float32", X2))
    for name in ("logaddexp", "logaddexp2", "hypot"):
        fn = getattr(jnp, name)
        np.testing.assert_allclose(np.asarray(jt.jit(fn)(a, b)), np.asarray(fn(a, b)), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jt.jit(jnp.sinc)(SINC_POINTS)), np.asarray(jnp.sinc(SINC_POINTS)), rtol=1e-6)
