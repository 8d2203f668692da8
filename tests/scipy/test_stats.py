"""``jaxtyped.scipy.stats`` distributions other than ``norm`` (``uniform``,
``expon``, ``laplace``, ``logistic``) against ``jax.scipy.stats``: every
function at points inside and outside the support, at its edges, in the
tails and at NaN; with default, scalar and broadcast ``loc``/``scale``;
Python-scalar inputs (weak types), float32 and float64, eager and under
``jit``; gradients in every argument."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import Case, CaseTable, Group, Namespace, library

import jaxtyped.numpy as jnp
import jaxtyped.scipy.stats as stats

jax_stats: Any = pytest.importorskip("jax.scipy.stats")

INF, NAN = float("inf"), float("nan")
X = [0.0, -0.0, 0.5, 1.0, 1.5, -1.0, 3.0, -30.0, 30.0, INF, -INF, NAN]
Q = [0.0, 1e-6, 0.25, 0.5, 0.9, 1.0, -0.1, 1.1, NAN]

FUNCTIONS: dict[str, tuple[str, ...]] = {
    "uniform": ("logpdf", "pdf", "cdf", "ppf"),
    "expon": ("logpdf", "pdf", "cdf", "logcdf", "sf", "logsf", "ppf"),
    "laplace": ("logpdf", "pdf", "cdf"),
    "logistic": ("logpdf", "pdf", "cdf", "sf", "ppf", "isf"),
}
QUANTILE = ("ppf", "isf")
PARAMS: dict[str, tuple[Any, ...]] = {
    "default": (),
    "scalars": (0.5, 2.0),
    "broadcast": (np.array([[-1.0], [1.0]]), np.array([2.0])),
}


def stats_of(L: Namespace) -> Any:
    return stats if L is jnp else jax_stats


def _case(dist: str, name: str, params: tuple[Any, ...], dtype: str, jit: bool) -> Callable[[Namespace], Any]:
    points = Q if name in QUANTILE else X

    def fn(L: Namespace) -> Any:
        x = L.asarray(np.array(points, dtype))
        args = [L.asarray(p.astype(dtype)) if isinstance(p, np.ndarray) else p for p in params]
        f = getattr(getattr(stats_of(L), dist), name)
        return library(L).api.jit(f)(x, *args) if jit else f(x, *args)

    return fn


def _value_cases(dtype: str) -> list[Case]:
    tol = 1e-9 if dtype == "float64" else 2e-6
    cases = [
        Case(f"{dist}.{name}-{label}-{'jit' if jit else 'eager'}", _case(dist, name, params, dtype, jit), tol, tol)
        for dist, names in FUNCTIONS.items()
        for name in names
        for label, params in PARAMS.items()
        for jit in (False, True)
    ]
    cases += [
        Case(f"{dist}.{name}-python-scalar", _scalar(dist, name), tol, tol)
        for dist, names in FUNCTIONS.items()
        for name in names
    ]
    return cases


def _scalar(dist: str, name: str) -> Callable[[Namespace], Any]:
    point = 0.25 if name in QUANTILE else 1.5
    return lambda L: getattr(getattr(stats_of(L), dist), name)(point, 1, 2)


VALUES = CaseTable("stats", lambda: _value_cases("float32"))
VALUES64 = CaseTable("stats_x64", lambda: _value_cases("float64"), x64=True)


@pytest.mark.parametrize("group", VALUES.params())
def test_values_float32(group: Group) -> None:
    VALUES.check(group)


@pytest.mark.parametrize("group", VALUES64.params())
def test_values_float64(group: Group) -> None:
    VALUES64.check(group)


def _grad(dist: str, name: str, argnums: int, point: float) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        f = getattr(getattr(stats_of(L), dist), name)
        return library(L).api.grad(f, argnums=argnums)(L.float32(point), L.float32(0.25), L.float32(1.5))

    return fn


def _grad_cases() -> list[Case]:
    return [
        Case(f"{dist}.{name}-grad{argnums}-{point}", _grad(dist, name, argnums, point), 1e-5, 1e-6)
        for dist, names in FUNCTIONS.items()
        for name in names
        for argnums in (0, 1, 2)
        for point in ((0.3, 0.75) if name in QUANTILE else (-0.5, 0.5, 1.0))
    ]


GRADS = CaseTable("stats_grads", _grad_cases)


@pytest.mark.parametrize("group", GRADS.params())
def test_gradients(group: Group) -> None:
    GRADS.check(group)


def test_module_surface() -> None:
    for dist, names in FUNCTIONS.items():
        ours = getattr(stats, dist)
        assert sorted(ours.__all__) == sorted(names)
        assert sorted(ours.__all__) == sorted(n for n in dir(getattr(jax_stats, dist)) if not n.startswith("_"))
