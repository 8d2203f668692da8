"""The exponential, sine/cosine, Fresnel and Dawson integrals, the
dilogarithm and Owen's T (``exp1``, ``expi``, ``expn``, ``spence``,
``sici``, ``dawsn``, ``fresnel``, ``owens_t``) against
``jax.scipy.special``: values at ordinary points, at each branch switch of
the piecewise expansions and at the edges (0, negatives, infinities, NaN),
dtypes and weak types (Python scalars, integers) in float32 and float64,
under ``jit`` and ``vmap``; derivatives against JAX's rules and against
finite differences; complex-input errors. SciPy (float64) is the second
reference: for the accuracy of the expansions, and where JAX is wrong (the
differences listed on the compatibility page)."""

from collections.abc import Callable
from typing import Any, cast

import numpy as np
import pytest
from oracle import Case, CaseTable, Group, Namespace, library

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy.special as special

jax_special: Any = pytest.importorskip("jax.scipy.special")
scipy_special: Any = pytest.importorskip("scipy.special")

INF, NAN = float("inf"), float("nan")
# Ordinary points and the branch switches (expi: 2, 4, ..., 64; sici: 4, 8;
# dawsn: 3.25, 6.25; fresnel: x**2 = 2.5625), where JAX agrees with SciPy.
POSITIVE = [1e-3, 0.5, 1.0, 1.6, 2.0, 2.5, 3.25, 4.0, 4.1, 6.25, 8.0, 16.0, 33.0, 64.0, 65.0, 100.0]
SIGNED = [-INF, -10.0, -1.0, -1e-3, -0.0, 0.0, *POSITIVE, 1e10, INF, NAN]
UNARY: dict[str, list[float]] = {
    "exp1": [-1.0, 0.0, *POSITIVE, 700.0, NAN],
    "expi": [-50.0, -1.0, -1e-3, *POSITIVE, 700.0, NAN],
    "spence": [-1.0, 0.0, *POSITIVE, 1e10, NAN],
    "dawsn": SIGNED,
    "sici": SIGNED,
    "fresnel": SIGNED + [36974.0, 5e4],
}
EXPN_N = [0.0, 1.0, 2.0, 3.0, 5.0, 10.0, 1.0, 2.0, 3.0, 30.0, 1.0, 0.0, 1.0, 5000.0, 6000.0, 4999.0, -1.0, 2.0, 3.0]
EXPN_X = [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 2.0, 2.0, 2.0, 2.0, 30.0, 0.0, 0.0, 10.0, 1.0, 1.0, 1.0, -1.0, 700.0]
OWENS_H = [0.0, 0.5, 1.0, 2.0, 5.0, 0.1, 3.0, 1.0, -1.0, 0.5, 10.0, 0.2, 0.0, 1.0, NAN, 1.0, 0.3, 0.67]
OWENS_A = [0.5, 0.3, 1.0, 2.0, 10.0, -0.7, 0.2, 100.0, 0.5, INF, 0.5, 5.0, 0.0, 0.0, 1.0, NAN, -3.0, 1.0]


SLOW = ("exp1", "expi")  # JAX's while loops (through expn) compile slowly


def special_of(L: Namespace) -> Any:
    return special if L is jnp else jax_special


def _unary(name: str, xs: list[float], dtype: str, how: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        f = getattr(special_of(L), name)
        if how == "kinds":  # a Python scalar and an integer array (spence: float only)
            if name == "spence":
                return f(1.5), f(L.asarray(np.float32(2.0)))
            return f(L.arange(1, 4)) if name in SLOW else (f(1.5), f(L.arange(1, 4)))
        return f(L.asarray(np.array(xs, dtype)))

    return fn


def _expn(dtype: str, how: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        f = special_of(L).expn
        if how == "kinds":
            return f(L.arange(4), 2)
        return f(L.asarray(np.array(EXPN_N, dtype)), L.asarray(np.array(EXPN_X, dtype)))

    return fn


def _owens_t(dtype: str, how: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        f = special_of(L).owens_t
        if how == "kinds":
            return f(L.arange(3), 1), f(0.5, 2.0)
        return f(L.asarray(np.array(OWENS_H, dtype)), L.asarray(np.array(OWENS_A, dtype)))

    return fn


def _value_cases(dtype: str) -> list[Case]:
    # jit and vmap are checked against our own eager results below: JAX's
    # side runs in one jit anyway, and its while loops are slow to compile.
    rtol = 1e-12 if dtype == "float64" else 3e-6
    # Near the zeros of Ci (3.38) and at large x the last bits differ: absolute.
    atol = 1e-15 if dtype == "float64" else 1e-7
    # The input kinds once (float32 table) for the functions with JAX's slow loops.
    kinds = ("values", "kinds")
    cases = [
        Case(f"{name}-{how}", _unary(name, xs, dtype, how), rtol, atol)
        for name, xs in UNARY.items()
        for how in (kinds if dtype == "float32" or name not in SLOW else ("values",))
    ]
    cases += [Case(f"expn-{how}", _expn(dtype, how), rtol, atol) for how in (kinds if dtype == "float32" else ("values",))]
    # JAX's float64 Owen's T can come out of its jit cache with float32-rounded
    # quadrature nodes (~1e-9 off); SciPy checks ours to 1e-12 below.
    owens_rtol = 1e-8 if dtype == "float64" else rtol
    cases += [Case(f"owens_t-{how}", _owens_t(dtype, how), owens_rtol, atol) for how in ("values", "kinds")]
    return cases


VALUES = CaseTable("special_integrals", lambda: _value_cases("float32"))
VALUES64 = CaseTable("special_integrals_x64", lambda: _value_cases("float64"), x64=True)


@pytest.mark.parametrize("group", VALUES.params())
def test_values_float32(group: Group) -> None:
    VALUES.check(group)


@pytest.mark.parametrize("group", VALUES64.params())
def test_values_float64(group: Group) -> None:
    VALUES64.check(group)


# === derivatives against JAX's ===

GRAD_POINTS: dict[str, list[float]] = {
    "exp1": [1e-3, 0.5, 1.0, 2.0, 30.0],
    "expi": [-2.0, 1e-3, 2.0, 4.0, 64.0, 100.0],
    "spence": [0.25, 0.5, 3.0, 10.0],  # JAX's is NaN on (1, 2]: see below
    "dawsn": [-1.0, 0.0, 0.5, 3.25, 6.25, 10.0],
    "sici": [-2.0, 0.5, 4.0, 8.0, 20.0],
    "fresnel": [-1.0, 0.0, 1.6, 2.0, 5.0],
}


def _leaves(out: Any) -> tuple[Any, ...]:
    if isinstance(out, tuple):
        return tuple(cast("tuple[Any, ...]", out))  # type: ignore[redundant-cast]  # pyright needs it
    return (out,)


def _sum_outputs(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
    """Both outputs of ``sici``/``fresnel`` in one scalar (weights 1 and 2)."""

    def g(x: Any) -> Any:
        parts = _leaves(f(x))
        return parts[0] + 2 * parts[1] if len(parts) == 2 else parts[0]

    return g


def _grad_vmap(name: str, xs: list[float], dtype: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        api = library(L).api
        return api.vmap(api.grad(_sum_outputs(getattr(special_of(L), name))))(L.asarray(np.array(xs, dtype)))

    return fn


def _grad_at(name: str, x: float, dtype: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        return library(L).api.grad(_sum_outputs(getattr(special_of(L), name)))(L.asarray(np.array(x, dtype)))

    return fn


def _expn_grad(dtype: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        api = library(L).api
        n, x = L.asarray(np.array([1.0, 2.0, 3.0, 5.0], dtype)), L.asarray(np.array([0.5, 2.0, 0.25, 3.0], dtype))
        return api.vmap(api.grad(special_of(L).expn, argnums=1))(n, x)

    return fn


def _owens_grad(argnums: int, dtype: str) -> Callable[[Namespace], Any]:
    def fn(L: Namespace) -> Any:
        api = library(L).api
        h, a = L.asarray(np.array([0.0, 0.5, 1.0, -2.0], dtype)), L.asarray(np.array([0.5, 1.0, 3.0, -0.5], dtype))
        return api.vmap(api.grad(special_of(L).owens_t, argnums=argnums))(h, a)

    return fn


def _grad_cases(dtype: str) -> list[Case]:
    rtol, atol = (1e-10, 1e-14) if dtype == "float64" else (1e-4, 1e-6)
    cases = [Case(f"{name}-grad-vmap", _grad_vmap(name, xs, dtype), rtol, atol) for name, xs in GRAD_POINTS.items()]
    cases += [Case(f"{name}-grad-{xs[1]}", _grad_at(name, xs[1], dtype), rtol, atol) for name, xs in GRAD_POINTS.items()]
    cases += [Case("expn-grad", _expn_grad(dtype), rtol, atol)]
    cases += [Case(f"owens_t-grad-{k}", _owens_grad(k, dtype), rtol, atol) for k in (0, 1)]
    return cases


GRADS = CaseTable("special_integrals_grads", lambda: _grad_cases("float32"))
GRADS64 = CaseTable("special_integrals_grads_x64", lambda: _grad_cases("float64"), x64=True)


@pytest.mark.parametrize("group", GRADS.params())
def test_gradients(group: Group) -> None:
    GRADS.check(group)


@pytest.mark.parametrize("group", GRADS64.params())
def test_gradients_float64(group: Group) -> None:
    GRADS64.check(group)


def _same(ours: Any, reference: Any) -> None:
    for got, want in zip(_leaves(ours), _leaves(reference)):
        assert got.dtype == want.dtype and not got.weak_type
        np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6, atol=1e-7, equal_nan=True)


@pytest.mark.parametrize("name", [*UNARY, "expn", "owens_t"])
def test_jit_and_vmap_match_eager(name: str) -> None:
    f = getattr(special, name)
    if name == "expn":
        args: tuple[Any, ...] = (jnp.asarray(np.array(EXPN_N, np.float32)), jnp.asarray(np.array(EXPN_X, np.float32)))
    elif name == "owens_t":
        args = (jnp.asarray(np.array(OWENS_H, np.float32)), jnp.asarray(np.array(OWENS_A, np.float32)))
    else:
        args = (jnp.asarray(np.array(UNARY[name], np.float32)),)
    eager = f(*args)
    _same(jt.jit(f)(*args), eager)
    _same(jt.vmap(f)(*args), eager)


@pytest.mark.parametrize("name", [*UNARY, "expn", "owens_t"])
def test_python_scalars_give_strong_float32(name: str) -> None:
    f = getattr(special, name)
    out: Any = f(2, 1.5) if name == "expn" else f(0.5, 2.0) if name == "owens_t" else f(1.5)
    for leaf in _leaves(out):
        assert leaf.dtype == np.float32 and not leaf.weak_type


def _complex_call(name: str, z: np.ndarray[Any, Any]) -> Callable[[Namespace], Any]:
    return lambda L: getattr(special_of(L), name)(L.asarray(z))


def _error_cases() -> list[Case]:
    z = np.array([1 + 1j], np.complex64)
    cases = [Case(f"{name}-complex", _complex_call(name, z)) for name in UNARY]
    cases += [
        Case("expn-complex", lambda L: special_of(L).expn(2, L.asarray(z))),
        Case("spence-int", lambda L: special_of(L).spence(L.arange(3))),
        Case("spence-pyint", lambda L: special_of(L).spence(2)),
    ]
    return cases


ERRORS = CaseTable("special_integrals_errors", _error_cases)


@pytest.mark.parametrize("group", ERRORS.params())
def test_errors_match_jax(group: Group) -> None:
    ERRORS.check(group)


def test_owens_t_rejects_complex() -> None:
    """JAX returns a complex number; ours is a clear error."""
    with pytest.raises(jt.errors.JaxtypedValueError, match="complex"):
        special.owens_t(jnp.asarray(np.array([1 + 1j], np.complex64)), 0.5)


# === accuracy and the edges against SciPy (float64) ===


@pytest.fixture
def x64() -> Any:
    previous = jt.config.jax_enable_x64
    jt.config.update("jax_enable_x64", True)
    yield
    jt.config.update("jax_enable_x64", previous)


GRID = np.concatenate([-np.geomspace(1e-6, 700, 60), [0.0], np.geomspace(1e-6, 700, 120), np.linspace(0.1, 70.0, 90)])


def _close(ours: Any, theirs: Any, rtol: float, atol: float = 0.0) -> None:
    np.testing.assert_allclose(np.asarray(ours), theirs, rtol=rtol, atol=atol, equal_nan=True)


@pytest.mark.parametrize("name", ["exp1", "expi", "spence", "dawsn"])
@pytest.mark.usefixtures("x64")
def test_unary_accuracy_float64(name: str) -> None:
    x = GRID if name != "spence" else np.abs(GRID)
    with np.errstate(all="ignore"):
        expected = getattr(scipy_special, name)(x)
    _close(getattr(special, name)(jnp.asarray(x)), expected, 1e-13)


@pytest.mark.parametrize("name", ["sici", "fresnel"])
@pytest.mark.usefixtures("x64")
def test_pair_accuracy_float64(name: str) -> None:
    ours = getattr(special, name)(jnp.asarray(GRID))
    expected = getattr(scipy_special, name)(GRID)
    for got, want in zip(ours, expected):
        _close(got, want, 1e-12, 1e-15)


@pytest.mark.usefixtures("x64")
def test_expn_accuracy_float64() -> None:
    n = np.repeat(np.arange(0.0, 12.0), 12)
    x = np.tile(np.array([1e-8, 1e-3, 0.1, 0.5, 0.99, 1.0, 1.01, 2.0, 5.0, 20.0, 80.0, 600.0]), 12)
    _close(special.expn(jnp.asarray(n), jnp.asarray(x)), scipy_special.expn(n.astype(int), x), 1e-13, 1e-300)


@pytest.mark.usefixtures("x64")
def test_owens_t_accuracy_float64() -> None:
    h = np.repeat(np.array([-3.0, -0.5, 0.0, 0.1, 0.5, 1.0, 2.0, 4.0]), 8)
    a = np.tile(np.array([-2.0, -0.3, 0.0, 0.2, 0.7, 1.0, 1.5, 20.0]), 8)
    _close(special.owens_t(jnp.asarray(h), jnp.asarray(a)), scipy_special.owens_t(h, a), 1e-12, 1e-16)


@pytest.mark.usefixtures("x64")
def test_where_jax_differs() -> None:
    """The edges where JAX's values are wrong (the compatibility page's
    list): ours are SciPy's."""
    edges = np.array([-INF, -0.0, 0.0, INF])
    _close(special.expi(jnp.asarray(edges)), scipy_special.expi(edges), 0.0)
    _close(special.exp1(jnp.asarray(np.array([INF]))), np.array([0.0]), 0.0)
    n, x = np.array([2.0, 3.0, 10.0]), np.zeros(3)
    _close(special.expn(jnp.asarray(n), jnp.asarray(x)), scipy_special.expn(n.astype(int), x), 1e-15)


def _expn_integrand(n: float, x: float) -> Callable[[float], float]:
    return lambda t: float(np.exp(-x * t) / t**n)


@pytest.mark.usefixtures("x64")
def test_expn_non_integer_order() -> None:
    """Real orders (JAX: NaN for x <= 1) from the integral's quadrature."""
    integrate: Any = pytest.importorskip("scipy.integrate")
    for n, x in [(2.5, 0.5), (0.5, 0.1), (2.5, 2.0), (1.5, 1.0), (3.7, 0.01)]:
        expected = integrate.quad(_expn_integrand(n, x), 1, np.inf, epsabs=0, epsrel=1e-13)[0]
        _close(special.expn(n, x), np.array(expected), 1e-10)


@pytest.mark.usefixtures("x64")
def test_derivatives_match_finite_differences() -> None:
    def part(name: str, i: int) -> Callable[[Any], Any]:
        return lambda x: getattr(special, name)(x)[i]

    funs: dict[str, Callable[[Any], Any]] = {
        "exp1": special.exp1, "expi": special.expi, "spence": special.spence, "dawsn": special.dawsn,
        "si": part("sici", 0), "ci": part("sici", 1), "fresnel_s": part("fresnel", 0), "fresnel_c": part("fresnel", 1),
        "expn3": lambda x: special.expn(3, x), "expn0": lambda x: special.expn(0, x),
        "owens_h": lambda h: special.owens_t(h, 0.7), "owens_a": lambda a: special.owens_t(0.8, a),
    }  # fmt: skip
    # The points include the branch switches and spence's x = 1.
    xs = np.array([0.3, 1.0, 1.7, 2.0, 3.25, 4.0, 6.0])
    h = 1e-6
    for f in funs.values():
        expected = (np.asarray(f(jnp.asarray(xs + h))) - np.asarray(f(jnp.asarray(xs - h)))) / (2 * h)
        _close(jt.vmap(jt.grad(f))(jnp.asarray(xs)), expected, 1e-6, 1e-9)


@pytest.mark.usefixtures("x64")
def test_derivatives_where_jax_differs() -> None:
    """spence: the exact log(x) / (1 - x) (JAX: 0 at x = 1, NaN on (1.5, 2]);
    exp1 at inf: 0 (JAX: NaN); expn(0, x): -e**-x (1 + x) / x**2 (JAX: NaN)."""
    _close(jt.vmap(jt.grad(special.spence))(jnp.asarray(np.array([1.0, 1.6, 2.0]))), np.array([-1.0, np.log(1.6) / -0.6, -np.log(2.0)]), 1e-14)
    _close(jt.grad(special.exp1)(INF), np.array(0.0), 0.0)
    _close(jt.grad(lambda x: special.expn(0, x))(2.0), np.array(-np.exp(-2.0) * 3 / 4), 1e-14)
