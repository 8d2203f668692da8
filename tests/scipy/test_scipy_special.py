"""``jaxtyped.scipy.special`` against ``jax.scipy.special``.

Each case is ``fn(L)`` for ``L`` in (``jaxtyped.numpy``, ``jax.numpy``);
``special_of(L)`` and ``library(L).api`` give the matching ``scipy.special``
module and transformations. Values (and dtypes, weak types, shapes) over
each domain and at its edges, eager and under ``jit``, in float32 and
float64; ``logsumexp``'s ``b``/``return_sign``/``where``/``keepdims`` and
``-inf`` handling; gradients and jvps at the special points where JAX
defines its own derivative (``logsumexp`` with ``-inf`` entries, ``xlogy``
and ``xlog1py`` at 0, ``entr`` at 0, ``ndtri`` at 0 and 1, ``log_ndtr`` in
the far tails, ``logit``, ``softmax``); JAX's errors.
"""

import functools
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import Case, CaseTable, Group, Namespace, call_in, jax, library

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy.special as special

jax_special: Any = pytest.importorskip("jax.scipy.special")

INF, NAN = float("inf"), float("nan")
EDGES = [0.0, -0.0, 0.5, 1.0, 2.0, -1.0, -2.5, 1e-3, 7.5, 30.0, -30.0, INF, -INF, NAN]
UNIT = [0.0, 1e-6, 0.25, 0.5, 0.75, 0.999, 1.0, -0.5, 1.5, NAN]

UNARY: dict[str, list[float]] = {
    "erf": EDGES, "erfc": EDGES, "erfinv": [-1.0, -0.999, -0.5, 0.0, 0.5, 0.999, 1.0, 2.0, NAN],
    "expit": EDGES, "logit": UNIT, "gammaln": EDGES, "gamma": EDGES[:-3] + [40.0], "gammasgn": EDGES,
    "digamma": EDGES, "i0e": EDGES, "i1e": EDGES, "i0": EDGES[:-5], "i1": EDGES[:-5], "entr": EDGES,
    "ndtr": EDGES, "ndtri": UNIT + [1e-30, 1e-10, 1 - 1e-7], "log_ndtr": EDGES + [-50.0, -15.0, -9.0, 6.0, 12.0],
    "factorial": [0.0, 1.0, 2.0, 5.0, 2.5, -1.0, 20.0, NAN],
}  # fmt: skip


def special_of(L: Namespace) -> Any:
    """The ``scipy.special`` module that goes with the numpy namespace ``L``."""
    return special if L is jnp else jax_special


def _tol(dtype: str, name: str) -> float:
    if dtype == "float64":
        return 1e-9
    # Ours: float64 rounded once (eager) or our compositions (jit); JAX's
    # float32 kernels are a few ulps off, its ndtri a rational approximation.
    return 1e-4 if name in ("ndtri", "gamma", "factorial", "i0", "i1", "log_ndtr") else 2e-5


def _unary(name: str, values: list[float], dtype: str, jit: bool) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        x = L.asarray(np.array(values, dtype))
        f = getattr(special_of(L), name)
        return library(L).api.jit(f)(x) if jit else f(x)

    return fn


def _call(name: str, *args: Any, **kwargs: Any) -> Callable[[Namespace], Any]:
    """``special.name(*args, **kwargs)`` with NumPy arrays converted by ``L.asarray``."""
    return call_in(special_of, name, *args, **kwargs)


def _value_cases(dtype: str) -> list[Case]:
    cases: list[Case] = []
    for jit in (False, True):
        mode = "jit" if jit else "eager"
        for name, values in UNARY.items():
            tol = _tol(dtype, name)
            cases.append(Case(f"{name}-{dtype}-{mode}", _unary(name, values, dtype, jit), tol, tol))
    rng = np.random.default_rng(0)
    a, x = rng.uniform(0.1, 10, 8).astype(dtype), rng.uniform(0, 15, 8).astype(dtype)
    b, t = rng.uniform(0.1, 10, 8).astype(dtype), rng.uniform(0, 1, 8).astype(dtype)
    tol = 1e-9 if dtype == "float64" else 1e-4
    cases += [
        Case(f"gammainc-{dtype}", _call("gammainc", a, x), tol, tol),
        Case(f"gammaincc-{dtype}", _call("gammaincc", a, x), tol, tol),
        Case(f"betainc-{dtype}", _call("betainc", a, b, t), tol, tol),
        # JAX's float64 betaln is off by ~5e-7 (SciPy agrees with ours to 1e-15).
        Case(f"betaln-{dtype}", _call("betaln", a, b), max(tol, 1e-6), max(tol, 1e-6)),
        Case(f"polygamma-{dtype}", _call("polygamma", np.array([0, 1, 2, 3, 1, 2, 0, 4]), a), tol, tol),
        Case(f"zeta-{dtype}", _call("zeta", a + 1.5, x + 0.5), tol, tol),
        Case(f"xlogy-{dtype}", _call("xlogy", np.array([0, 0, 1, 2, 0, -1], dtype), np.array([0, NAN, 0, 3, 1, 2], dtype))),
        Case(f"xlog1py-{dtype}", _call("xlog1py", np.array([0, 0, 1, 2, 0, -1], dtype), np.array([-1, NAN, -1, 3, 1, 2], dtype))),
        Case(f"multigammaln-{dtype}", _call("multigammaln", a + 3, 3), tol, tol),
        Case(f"xlogy-scalars-{dtype}", _call("xlogy", 0.0, 0.0)),
        Case(f"gammaln-int-{dtype}", _call("gammaln", np.array([1, 2, 3]))),
        Case(f"expit-scalar-{dtype}", _call("expit", 2.0)),
        Case(f"log_ndtr-series-{dtype}", _call("log_ndtr", np.array([-40.0, -25.0, -12.0], dtype), series_order=5), tol, tol),
    ]  # fmt: skip
    return cases


VALUES = CaseTable("scipy_special", lambda: _value_cases("float32"))
VALUES64 = CaseTable("scipy_special_x64", lambda: _value_cases("float64"), x64=True)


@pytest.mark.parametrize("group", VALUES.params())
def test_values_float32(group: Group) -> None:
    VALUES.check(group)


@pytest.mark.parametrize("group", VALUES64.params())
def test_values_float64(group: Group) -> None:
    VALUES64.check(group)


# === logsumexp, softmax, log_softmax ===


def _logsumexp_cases() -> list[Case]:
    x = np.array([[1.0, 2.0, -INF, 0.5], [-INF, -INF, -INF, -INF], [3.0, INF, 1.0, 0.0]], np.float32)
    finite = np.array([[1.0, 2.0, -1.0, 0.5], [0.0, -3.0, 4.0, 2.0], [3.0, 1.5, 1.0, 0.0]], np.float32)
    b = np.array([1.0, -2.0, 0.0, 0.5], np.float32)
    mask = np.array([True, False, True, True])
    return [
        Case("logsumexp-all", _call("logsumexp", x)),
        Case("logsumexp-axis1", _call("logsumexp", x, axis=1)),
        Case("logsumexp-axis0-keepdims", _call("logsumexp", x, axis=0, keepdims=True)),
        Case("logsumexp-axes-tuple", _call("logsumexp", finite, axis=(0, 1))),
        Case("logsumexp-b", _call("logsumexp", finite, axis=1, b=b)),
        Case("logsumexp-b-sign", _call("logsumexp", finite, axis=1, b=b, return_sign=True)),
        Case("logsumexp-b-sign-keepdims", _call("logsumexp", finite, axis=-1, b=b, return_sign=True, keepdims=True)),
        Case("logsumexp-where", _call("logsumexp", finite, axis=1, where=mask)),
        Case("logsumexp-where-b", _call("logsumexp", finite, axis=1, b=b, where=mask)),
        Case("logsumexp-scalar", _call("logsumexp", 2.0)),
        Case("logsumexp-int", _call("logsumexp", np.array([1, 2, 3]))),
        Case("logsumexp-empty", _call("logsumexp", np.zeros((0, 3), np.float32), axis=0)),
        Case("logsumexp-bad-axis", _call("logsumexp", finite, axis=2)),
        Case("softmax-default", _call("softmax", finite)),
        Case("softmax-axis", _call("softmax", x, axis=1)),
        Case("softmax-axes", _call("softmax", finite, axis=(0, 1))),
        Case("log_softmax-axis", _call("log_softmax", finite, axis=0)),
        Case("log_softmax-neginf", _call("log_softmax", x, axis=1)),
    ]


LOGSUMEXP = CaseTable("scipy_special_logsumexp", _logsumexp_cases)


@pytest.mark.parametrize("group", LOGSUMEXP.params())
def test_logsumexp_and_softmax(group: Group) -> None:
    LOGSUMEXP.check(group)


def test_nn_style_softmax_matches_jax_nn() -> None:
    """The ``jax.nn`` signatures (axis=-1, where=) that ``jaxtyped.nn`` exports."""
    from jaxtyped._src.scipy.special import log_softmax, softmax

    x = np.array([[1.0, 2.0, -INF, 0.5], [0.0, 3.0, 1.0, -2.0]], np.float32)
    mask = np.array([True, False, True, True])
    for ours, theirs in ((softmax, jax.nn.softmax), (log_softmax, jax.nn.log_softmax)):
        variants: list[dict[str, Any]] = [{}, {"axis": 0}, {"where": mask}, {"axis": None}]
        for kwargs in variants:
            np.testing.assert_allclose(np.asarray(ours(x, **kwargs)), np.asarray(theirs(x, **kwargs)), rtol=1e-6)

            def loss(v: Any, f: Any = ours, kw: dict[str, Any] = kwargs) -> Any:
                return (f(v, **kw) * np.arange(8.0).reshape(2, 4)).sum()

            def their_loss(v: Any, f: Any = theirs, kw: dict[str, Any] = kwargs) -> Any:
                return (f(v, **kw) * np.arange(8.0).reshape(2, 4)).sum()

            np.testing.assert_allclose(np.asarray(jt.grad(loss)(x)), np.asarray(jax.grad(their_loss)(x)), rtol=1e-5, atol=1e-6)


# === derivatives at special points ===


def _grad(name: str, points: list[float], argnum: int = 0, other: float | None = None, dtype: str = "float32",
          **kwargs: Any) -> Callable[[Namespace], Any]:  # fmt: skip
    """``vmap(grad)`` of ``special.name`` at ``points`` (in argument
    ``argnum``, the other argument fixed at ``other``) and the jvp there."""

    def fn(L: Namespace) -> Any:
        api, sp = library(L).api, special_of(L)
        x = L.asarray(np.array(points, dtype))

        def f(v: Any) -> Any:
            if other is None:
                return getattr(sp, name)(v, **kwargs)
            fixed = L.asarray(np.array(other, dtype))
            return getattr(sp, name)(*((v, fixed) if argnum == 0 else (fixed, v)), **kwargs)

        return api.vmap(api.grad(f))(x), api.jvp(api.vmap(f), (x,), (L.ones_like(x),))[1]

    return fn


def _grad_cases(dtype: str) -> list[Case]:
    tol = 1e-9 if dtype == "float64" else 2e-5
    g = functools.partial(_grad, dtype=dtype)
    cases = [
        Case("xlogy-x-at0", g("xlogy", [0.0, 1.0, -1.0], 0, 0.0)),
        Case("xlogy-y-at0", g("xlogy", [0.0, 1.0, 2.0], 1, 0.0)),
        Case("xlogy-x-y1", g("xlogy", [0.0, 2.0], 0, 1.0)),
        Case("xlog1py-x", g("xlog1py", [0.0, 1.0], 0, -1.0)),
        Case("xlog1py-y", g("xlog1py", [-1.0, 0.0, 1.0], 1, 0.0)),
        Case("entr", g("entr", [0.0, -0.0, 1.0, 0.5, -1.0, INF])),
        Case("ndtri", g("ndtri", [0.0, 1.0, 0.5, 1e-6, 0.99, -0.5, 1.5]), 1e-4, 1e-5),
        Case("log_ndtr", g("log_ndtr", [-100.0, -40.0, -15.0, -9.0, 0.0, 4.0, 9.0, 40.0, INF, -INF]), tol, tol),
        Case("log_ndtr-series", g("log_ndtr", [-40.0, -12.0], series_order=1), tol, tol),
        Case("ndtr", g("ndtr", [0.0, -40.0, 40.0, INF, -INF])),
        Case("logit", g("logit", [0.0, 1.0, 0.5, 0.25])),
        Case("expit", g("expit", [0.0, -100.0, 100.0])),
        Case("erfinv", g("erfinv", [0.0, 1.0, -1.0, 0.5])),
        Case("gammaln", g("gammaln", [0.0, 1.0, 2.0, -1.5, 0.5])),
        Case("gamma", g("gamma", [1.0, 2.0, -1.5, 0.5]), 1e-4, 1e-5),
        Case("digamma", g("digamma", [0.0, 1.0, -1.5, 0.5])),
        Case("i0", g("i0", [0.0, 1.0, -2.0]), 1e-4, 1e-5),
        Case("i1", g("i1", [0.0, 1.0, -2.0]), 1e-4, 1e-5),
        Case("i0e", g("i0e", [0.0, 1.0, -2.0])),
        Case("i1e", g("i1e", [0.0, 1e-10, 1.0, -2.0])),
        Case("erf", g("erf", [0.0, 3.0])),
        Case("erfc", g("erfc", [0.0, 3.0])),
        Case("gammainc-x", g("gammainc", [0.0, 1.0, 5.0], 1, 2.0), 1e-4, 1e-5),
        Case("gammainc-a", g("gammainc", [0.5, 2.0, 5.0], 0, 2.0), 1e-4, 1e-5),
        Case("gammaincc-x", g("gammaincc", [0.0, 1.0, 5.0], 1, 2.0), 1e-4, 1e-5),
        Case("betaln", g("betaln", [0.5, 1.0, 4.0], 0, 2.0), 1e-4, 1e-5),
        Case("factorial", g("factorial", [0.0, 1.0, 3.5]), 1e-4, 1e-5),
        Case("zeta-x", g("zeta", [1.5, 2.0, 3.5, 6.0], 0, 1.5), 1e-4, 1e-5),
        Case("zeta-q", g("zeta", [0.5, 1.0, 4.0, 20.0], 1, 2.5), 1e-4, 1e-5),
        Case("polygamma-x", functools.partial(_polygamma_grad, dtype=dtype)),
    ]  # fmt: skip
    return [Case(f"{c.id}-{dtype}", c.fn, max(c.rtol, tol), max(c.atol, tol)) for c in cases]


def _polygamma_grad(L: Namespace, dtype: str) -> Any:
    def f(v: Any) -> Any:
        return special_of(L).polygamma(1, v)

    return library(L).api.grad(f)(L.asarray(np.array(2.0, dtype)))


def _logsumexp_grad(L: Namespace) -> Any:
    api, sp = library(L).api, special_of(L)
    x = L.asarray(np.array([[1.0, -INF, 2.0], [-INF, -INF, -INF], [0.0, 0.0, 0.0]], np.float32))
    b = L.asarray(np.array([1.0, -0.5, 2.0], np.float32))
    losses: list[Callable[[Any], Any]] = [
        lambda v: sp.logsumexp(v),
        lambda v: sp.logsumexp(v, axis=1).sum(),
        lambda v: sp.logsumexp(v, axis=1, b=b, return_sign=True)[0].sum(),
        lambda v: sp.softmax(v, axis=1)[0, 2],
        lambda v: sp.log_softmax(v, axis=1)[2, 1],
    ]
    grads = [api.grad(loss)(x) for loss in losses]

    def in_b(w: Any) -> Any:
        return sp.logsumexp(x, axis=1, b=w)[0]

    return (*grads, api.grad(in_b)(b))


SPECIAL_POINTS = CaseTable("scipy_special_grads", lambda: [*_grad_cases("float32"), Case("logsumexp-grad", _logsumexp_grad)])
SPECIAL_POINTS64 = CaseTable("scipy_special_grads_x64", lambda: _grad_cases("float64"), x64=True)


@pytest.mark.parametrize("group", SPECIAL_POINTS.params())
def test_derivatives_at_special_points(group: Group) -> None:
    SPECIAL_POINTS.check(group)


@pytest.mark.parametrize("group", SPECIAL_POINTS64.params())
def test_derivatives_at_special_points_float64(group: Group) -> None:
    SPECIAL_POINTS64.check(group)


# === errors ===


def _error_cases() -> list[Case]:
    x = np.array([0.5, 1.5], np.float32)
    return [
        Case("error-polygamma-float-n", _call("polygamma", 1.0, x)),
        Case("error-zeta-riemann", _call("zeta", x)),
        Case("error-ndtr-int", _call("ndtr", np.array([1, 2]))),
        Case("error-ndtri-int", _call("ndtri", np.array([1, 2]))),
        Case("error-log_ndtr-float-order", _call("log_ndtr", x, series_order=1.5)),
        Case("error-log_ndtr-negative-order", _call("log_ndtr", x, series_order=-1)),
        Case("error-log_ndtr-big-order", _call("log_ndtr", x, series_order=31)),
        Case("error-factorial-exact", _call("factorial", x, exact=True)),
        Case("error-entr-complex", _call("entr", np.array([1 + 1j], np.complex64))),
        Case("error-betainc-complex", _call("betainc", x, x, np.array([0.5j, 0.1], np.complex64))),
        Case("error-betainc-grad-a", _betainc_grad_a),
    ]


def _betainc_grad_a(L: Namespace) -> Any:
    def f(a: Any) -> Any:
        return special_of(L).betainc(a, 1.0, 0.5)

    return library(L).api.grad(f)(1.0)


ERRORS = CaseTable("scipy_special_errors", _error_cases)


@pytest.mark.parametrize("group", ERRORS.params())
def test_errors_match_jax(group: Group) -> None:
    ERRORS.check(group)


def test_module_surface() -> None:
    """Every name of jax.scipy.special we claim is there, and callable."""
    for name in special.__all__:
        assert callable(getattr(special, name)), name
        assert hasattr(jax_special, name), name
