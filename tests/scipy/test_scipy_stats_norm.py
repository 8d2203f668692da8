"""``jaxtyped.scipy.stats.norm`` against ``jax.scipy.stats.norm``: values,
dtypes and weak types with ``loc`` and ``scale`` (broadcast, Python
scalars, integers), the tails, ``ppf``/``isf`` at 0 and 1, eager and under
``jit``, and gradients in every argument (including at the tails and the
edges of ``ppf``'s domain)."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import Case, CaseTable, Group, Namespace, expect_same_error, library

import jaxtyped.numpy as jnp
import jaxtyped.scipy.stats.norm as norm

jax_norm: Any = pytest.importorskip("jax.scipy.stats.norm")

INF, NAN = float("inf"), float("nan")
FUNCTIONS = ("pdf", "logpdf", "cdf", "logcdf", "sf", "logsf", "ppf", "isf")
X = [0.0, -0.0, 1.0, -1.5, 3.0, -12.0, 12.0, -40.0, 40.0, INF, -INF, NAN]
Q = [0.0, 1e-6, 0.1, 0.5, 0.9, 0.999, 1.0, -0.1, 1.1, NAN]


def norm_of(L: Namespace) -> Any:
    """The ``norm`` module that goes with the numpy namespace ``L``."""
    return norm if L is jnp else jax_norm


def _case(name: str, dtype: str, jit: bool, *params: Any) -> Callable[[Namespace], Any]:
    points = Q if name in ("ppf", "isf") else X

    def fn(L: Namespace) -> Any:
        x = L.asarray(np.array(points, dtype))
        args = [L.asarray(p) if isinstance(p, np.ndarray) else p for p in params]
        f = getattr(norm_of(L), name)
        return library(L).api.jit(f)(x, *args) if jit else f(x, *args)

    return fn


def _value_cases(dtype: str) -> list[Case]:
    tol = 1e-9 if dtype == "float64" else 1e-4
    cases: list[Case] = []
    for name in FUNCTIONS:
        for jit in (False, True):
            mode = "jit" if jit else "eager"
            cases.append(Case(f"{name}-{dtype}-{mode}", _case(name, dtype, jit), tol, tol))
        cases.append(Case(f"{name}-{dtype}-loc-scale", _case(name, dtype, False, 1.5, 2.0), tol, tol))
        scale = np.full(1, 0.5, dtype)
        cases.append(Case(f"{name}-{dtype}-array-params", _case(name, dtype, False, np.zeros((), dtype), scale), tol, tol))
    return cases


VALUES = CaseTable("norm", lambda: _value_cases("float32"))
VALUES64 = CaseTable("norm_x64", lambda: _value_cases("float64"), x64=True)


@pytest.mark.parametrize("group", VALUES.params())
def test_values_float32(group: Group) -> None:
    VALUES.check(group)


@pytest.mark.parametrize("group", VALUES64.params())
def test_values_float64(group: Group) -> None:
    VALUES64.check(group)


def _grads(name: str, points: list[float]) -> Callable[[Namespace], Any]:
    """Gradients in x, loc and scale at each point (vmap of grad)."""

    def fn(L: Namespace) -> Any:
        api = library(L).api
        f = getattr(norm_of(L), name)
        x = L.asarray(np.array(points, np.float32))
        loc = L.asarray(np.full(len(points), 0.5, np.float32))
        scale = L.asarray(np.full(len(points), 2.0, np.float32))
        return api.vmap(api.grad(f, argnums=(0, 1, 2)))(x, loc, scale)

    return fn


def _grad_cases() -> list[Case]:
    x = [0.0, 1.0, -3.0, -30.0, -100.0, 30.0, 100.0]
    q = [0.0, 1.0, 0.5, 1e-6, 0.9]
    return [Case(f"{name}-grad", _grads(name, q if name in ("ppf", "isf") else x), 1e-4, 1e-5) for name in FUNCTIONS]


GRADS = CaseTable("norm_grads", _grad_cases)


@pytest.mark.parametrize("group", GRADS.params())
def test_gradients_match_jax(group: Group) -> None:
    GRADS.check(group)


def test_weak_types_and_int_inputs() -> None:
    for name in FUNCTIONS:
        for arg in (0.25, 1, np.int32(1), np.array([1, 2], np.int32)):
            try:
                theirs = getattr(jax_norm, name)(arg)
            except TypeError as error:  # ppf/isf of integers: ndtri rejects them
                expect_same_error(error, lambda: getattr(norm, name)(arg))
                continue
            ours = getattr(norm, name)(arg)
            assert (ours.dtype, ours.weak_type, ours.shape) == (theirs.dtype, theirs.weak_type, theirs.shape), (name, arg)
            np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-5)
