"""The newer ``jaxtyped.scipy.special`` functions (``beta``, ``loggamma``,
``rel_entr``, ``kl_div``, ``poch``, ``comb``, ``boxcox``, ``boxcox1p``,
``erfcx`` across its two branches and both tails, ``bernoulli``)
against ``jax.scipy.special``: values over each domain and at its edges
(zeros, negatives, infinities, NaN), dtypes and weak types, in float32 and
float64, under ``jit`` and ``vmap``; gradients (``poch`` at ``m == 0``,
where JAX's own rule applies; ``rel_entr`` at ``p == 0``); complex-input
errors."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import Case, CaseTable, Group, Namespace, library

import jaxtyped.numpy as jnp
import jaxtyped.scipy.special as special

jax_special: Any = pytest.importorskip("jax.scipy.special")

INF, NAN = float("inf"), float("nan")
A = [0.5, 1.0, 2.5, 7.0, -0.5, -1.5, 0.0, 30.0, INF, NAN]
B = [1.5, 0.25, 3.0, 2.0, 2.5, 0.5, 1.0, 0.5, 1.0, 1.0]
P = [0.0, 0.0, 0.3, 1.0, 2.0, -1.0, 0.5, INF, NAN, 1e-30]
Q = [0.0, 1.0, 0.7, 0.0, 0.5, 1.0, -1.0, 1.0, 1.0, 1e-30]
N = [5.0, 5.0, 10.0, 3.0, -1.0, 4.5, 0.0, 60.0, 2.0, 6.0]
K = [2.0, 0.0, 3.0, 5.0, 1.0, 2.0, 0.0, 30.0, -1.0, 6.0]
LAMBDA = [0.0, 0.5, -1.0, 2.0, 0.0, 1e-7, -0.5, 3.0, 0.0, 1.0]
X = [1.0, 2.0, 0.5, 3.0, 0.0, 1e-6, 10.0, 0.25, -1.0, INF]
ERFCX = [-10.0, -3.0, -1.0, 0.0, 0.5, 1.0, 3.0, 7.9, 8.0, 10.0, 30.0, 1e5, INF, -INF, NAN]

BINARY: dict[str, tuple[list[float], list[float]]] = {
    "beta": (A, B), "rel_entr": (P, Q), "kl_div": (P, Q), "poch": (A, [v - 0.5 for v in B]),
    "boxcox": (X, LAMBDA), "boxcox1p": (X, LAMBDA),
}  # fmt: skip


def special_of(L: Namespace) -> Any:
    return special if L is jnp else jax_special


def _binary(name: str, xs: list[float], ys: list[float], dtype: str, how: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        x, y = L.asarray(np.array(xs, dtype)), L.asarray(np.array(ys, dtype))
        f = getattr(special_of(L), name)
        api = library(L).api
        if how == "jit":
            return api.jit(f)(x, y)
        if how == "vmap":
            return api.vmap(f)(x, y)
        if how == "scalar":
            return f(float(xs[2]), y)  # a Python scalar first: the array's dtype wins
        return f(x, y)

    return fn


def _value_cases(dtype: str) -> list[Case]:
    tol = 1e-9 if dtype == "float64" else 3e-5
    cases = [
        Case(f"{name}-{how}", _binary(name, xs, ys, dtype, how), tol, tol)
        for name, (xs, ys) in BINARY.items()
        for how in ("eager", "jit", "vmap", "scalar")
    ]
    cases += [
        Case("loggamma-values", lambda L: special_of(L).loggamma(L.asarray(np.array(A + [-2.0, 1e-3], dtype))), tol, tol),
        Case("loggamma-int", lambda L: special_of(L).loggamma(L.arange(1, 5))),
        Case("loggamma-scalar", lambda L: special_of(L).loggamma(3.5), tol, tol),
        Case("comb-values", lambda L: special_of(L).comb(L.asarray(np.array(N, dtype)), L.asarray(np.array(K, dtype))), 1e-4, tol),
        Case("comb-repetition", lambda L: special_of(L).comb(L.asarray(np.array(N, dtype)), L.asarray(np.array(K, dtype)), repetition=True), 1e-4, tol),
        Case("comb-ints", lambda L: special_of(L).comb(L.arange(8), 3)),
        Case("beta-ints", lambda L: special_of(L).beta(L.arange(1, 4), 2)),
        Case("erfcx-values", lambda L: special_of(L).erfcx(L.asarray(np.array(ERFCX, dtype))), 1e-5 if dtype == "float32" else 1e-9, 0.0),
        Case("erfcx-jit", lambda L: library(L).api.jit(special_of(L).erfcx)(L.asarray(np.array(ERFCX, dtype))), 1e-5 if dtype == "float32" else 1e-9, 0.0),
        Case("erfcx-int", lambda L: special_of(L).erfcx(L.arange(-2, 3)), 1e-5, 0.0),
        Case("bernoulli-values", lambda L: special_of(L).bernoulli(12), 1e-5, 1e-7),
        Case("bernoulli-zero", lambda L: special_of(L).bernoulli(0)),
        Case("kl_div-broadcast", lambda L: special_of(L).kl_div(L.ones((2, 1)), L.asarray(np.array([0.5, 2.0], dtype)))),
    ]  # fmt: skip
    return cases


VALUES = CaseTable("special_more", lambda: _value_cases("float32"))
VALUES64 = CaseTable("special_more_x64", lambda: _value_cases("float64"), x64=True)


@pytest.mark.parametrize("group", VALUES.params())
def test_values_float32(group: Group) -> None:
    VALUES.check(group)


@pytest.mark.parametrize("group", VALUES64.params())
def test_values_float64(group: Group) -> None:
    VALUES64.check(group)


def _grad(name: str, argnums: int, x: float, y: float) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        api = library(L).api
        return api.grad(getattr(special_of(L), name), argnums=argnums)(L.float32(x), L.float32(y))

    return fn


def _grad_cases() -> list[Case]:
    points = {
        "poch": [(2.5, 0.0), (2.5, 1.5), (0.5, 3.0)],
        "beta": [(0.5, 1.5), (2.0, 3.0), (-0.5, 2.5)],
        "rel_entr": [(0.3, 0.7), (0.0, 0.5), (1.0, 2.0)],
        "kl_div": [(0.3, 0.7), (0.0, 0.5)],
        "boxcox": [(2.0, 0.0), (2.0, 0.5), (0.5, -1.0)],
        "boxcox1p": [(1.0, 0.0), (1e-3, 0.5)],
    }
    return [
        Case(f"{name}-d{argnums}-{x}-{y}", _grad(name, argnums, x, y), 1e-4, 1e-5)
        for name, pts in points.items()
        for x, y in pts
        for argnums in (0, 1)
    ] + [
        Case("loggamma-grad", lambda L: library(L).api.grad(special_of(L).loggamma)(L.float32(2.5)), 1e-5, 1e-6),
        Case("erfcx-grad", lambda L: library(L).api.vmap(library(L).api.grad(special_of(L).erfcx))(L.asarray(np.array([-2.0, 0.0, 1.0, 7.5, 9.0, 40.0], np.float32))), 1e-4, 1e-7),
        Case("comb-grad", lambda L: library(L).api.grad(special_of(L).comb)(L.float32(5.0), L.float32(2.0)), 1e-4, 1e-5),
    ]


GRADS = CaseTable("special_more_grads", _grad_cases)


@pytest.mark.parametrize("group", GRADS.params())
def test_gradients(group: Group) -> None:
    GRADS.check(group)


def _complex_call(name: str) -> Callable[[Namespace], Any]:
    z = np.array([1 + 1j], np.complex64)
    return lambda L: getattr(special_of(L), name)(L.asarray(z), L.asarray(z))


def _error_cases() -> list[Case]:
    return [Case(f"{name}-complex", _complex_call(name)) for name in ("beta", "rel_entr", "kl_div", "poch")] + [
        Case("bernoulli-negative", lambda L: special_of(L).bernoulli(-1)),
    ]


ERRORS = CaseTable("special_more_errors", _error_cases)


@pytest.mark.parametrize("group", ERRORS.params())
def test_errors_match_jax(group: Group) -> None:
    ERRORS.check(group)
