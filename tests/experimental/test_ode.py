"""``jaxtyped.experimental.ode.odeint`` against JAX's ``jax.experimental.ode``
(the same Dormand–Prince solver, so values agree to rounding) and SciPy's
``solve_ivp`` (DOP853 at 1e-12, for accuracy): exponential decay against its
closed form, a pytree state, Lotka–Volterra and a damped pendulum with
arguments, a stiff-ish Van der Pol oscillator, complex states, float32 and
float64; reverse-mode derivatives (adjoint method) with respect to ``y0``,
the arguments, the times and closed-over values against JAX's and finite
differences; ``jit`` and ``vmap``; ``mxstep`` exhaustion and ``hmax``;
argument errors by kind. JAX's compilations are slow: the tables are lean."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import Case, CaseTable, Group, Namespace, library, raises_as_jax

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.experimental import ode

jax_ode: Any = pytest.importorskip("jax.experimental.ode")
scipy_integrate: Any = pytest.importorskip("scipy.integrate")


def odeint_of(L: Namespace) -> Any:
    return ode.odeint if L is jnp else jax_ode.odeint


def odeint_in(lib: Any) -> Any:
    """``odeint`` of the library module (``jaxtyped`` or ``jax``)."""
    return ode.odeint if lib is jt else jax_ode.odeint


# === problems, written once for both libraries ===


def decay(y: Any, t: Any) -> Any:
    return -y


def lotka_volterra(L: Namespace) -> Callable[..., Any]:
    def f(y: dict[str, Any], t: Any, a: Any, b: Any) -> dict[str, Any]:
        prey, predator = y["prey"], y["predator"]
        return {"prey": a * prey - b * prey * predator, "predator": -predator + b * prey * predator}

    return f


def pendulum(L: Namespace) -> Callable[..., Any]:
    def f(y: tuple[Any, Any], t: Any, params: tuple[Any, Any]) -> tuple[Any, Any]:
        theta, omega = y
        damping, gravity = params
        return omega, -damping * omega - gravity * L.sin(theta)

    return f


def van_der_pol(L: Namespace) -> Callable[..., Any]:
    def f(y: Any, t: Any, mu: Any) -> Any:
        return L.stack([y[1], mu * (1.0 - y[0] ** 2) * y[1] - y[0]])

    return f


def forced(L: Namespace) -> Callable[..., Any]:
    def f(y: Any, t: Any, a: Any) -> Any:
        return -a * y * y + L.sin(t)

    return f


T32 = np.linspace(0.0, 2.0, 5, dtype=np.float32)
LV_Y0 = {"prey": np.array([1.0, 2.0], np.float32), "predator": np.array([0.5, 1.0], np.float32)}
PEND_Y0 = (np.float64(2.0), np.float64(0.0))


def _grad_case(L: Namespace) -> Any:
    lib, odeint = library(L), odeint_of(L)

    def loss(y0: Any, params: Any, ts: Any) -> Any:
        theta, omega = odeint(pendulum(L), y0, ts, params)
        return L.sum(theta**2) + L.sum(omega)

    y0, params = (np.float32(2.0), np.float32(0.0)), (np.float32(0.25), np.float32(5.0))
    return lib.api.grad(loss, argnums=(0, 1, 2))(y0, params, T32)


def _closure_grad_case(L: Namespace) -> Any:
    lib, odeint = library(L), odeint_of(L)

    def loss(a: Any) -> Any:
        def f(y: Any, t: Any) -> Any:
            return -a * y

        return L.sum(odeint(f, np.array([1.0, 2.0], np.float32), T32)[-1])

    return lib.api.grad(loss)(np.float32(0.7))


def rotation(y: Any, t: Any) -> Any:
    return 1j * y


def _vmap_case(L: Namespace) -> Any:
    def solve(a: Any) -> Any:
        return odeint_of(L)(forced(L), np.array([1.0], np.float32), T32, a)

    return library(L).api.vmap(solve)(np.array([0.5, 1.0, 2.0], np.float32))


def _jit_case(L: Namespace) -> Any:
    def solve(y0: Any, a: Any) -> Any:
        return odeint_of(L)(forced(L), y0, T32, a)

    return library(L).api.jit(solve)(np.array([1.0, 0.5], np.float32), np.float32(0.7))


def _cases32() -> list[Case]:
    return [
        Case("decay-array", lambda L: odeint_of(L)(decay, np.array([1.0, -2.0], np.float32), T32, rtol=1e-6, atol=1e-7), 1e-6, 1e-7),
        Case("decay-one_time", lambda L: odeint_of(L)(decay, np.array([3.0], np.float32), T32[:1]), 0.0, 0.0),
        Case("pytree-lotka_volterra", lambda L: odeint_of(L)(lotka_volterra(L), LV_Y0, T32, np.float32(1.1), 0.4), 5e-6, 1e-6),
        Case("complex-rotation", lambda L: odeint_of(L)(rotation, np.array([1.0, 1j], np.complex64), T32), 1e-6, 1e-6),
        # mxstep=2 per interval cannot reach the times: the last step's
        # interpolant is extrapolated, as JAX does.
        Case("mxstep-exhausted", lambda L: odeint_of(L)(forced(L), np.array([1.0], np.float32), T32, np.float32(0.7), mxstep=2), 1e-5, 1e-6),
        Case("hmax-small", lambda L: odeint_of(L)(forced(L), np.array([1.0], np.float32), T32, np.float32(0.7), hmax=0.05), 1e-6, 1e-6),
        Case("grad-y0_args_t", _grad_case, 1e-5, 1e-6),
        Case("grad-closure", _closure_grad_case, 1e-5, 1e-6),
        Case("transforms-vmap", _vmap_case, 1e-6, 1e-6),
        Case("transforms-jit", _jit_case, 1e-6, 1e-6),
    ]


def _cases64() -> list[Case]:
    t = np.linspace(0.0, 3.0, 4)
    return [
        Case("decay64-array", lambda L: odeint_of(L)(decay, np.array([1.0, -2.0]), t, rtol=1e-10, atol=1e-10), 1e-12, 1e-14),
        Case(
            "pendulum64-args",
            lambda L: odeint_of(L)(pendulum(L), PEND_Y0, t, (0.25, np.float64(5.0)), rtol=1e-10, atol=1e-10),
            1e-11,
            1e-12,
        ),
        Case(
            "vanderpol64-stiffish",
            lambda L: odeint_of(L)(van_der_pol(L), np.array([2.0, 0.0]), t, 5.0, rtol=1e-10, atol=1e-10),
            1e-9,
            1e-10,
        ),
    ]


VALUES32 = CaseTable("ode-float32", _cases32)
VALUES64 = CaseTable("ode-float64", _cases64, x64=True)


@pytest.mark.parametrize("group", VALUES32.params())
def test_matches_jax_float32(group: Group) -> None:
    VALUES32.check(group)


@pytest.mark.parametrize("group", VALUES64.params())
def test_matches_jax_float64(group: Group) -> None:
    VALUES64.check(group)


# === accuracy: closed forms and SciPy ===


def _scipy(f: Callable[[np.ndarray[Any, Any], float], np.ndarray[Any, Any]], y0: list[float], t: np.ndarray[Any, Any]) -> Any:
    def rhs(s: float, y: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        return f(y, s)

    sol = scipy_integrate.solve_ivp(rhs, (t[0], t[-1]), y0, method="DOP853", t_eval=t, rtol=1e-12, atol=1e-12)
    return sol.y.T


def test_decay_closed_form_float32() -> None:
    ys = ode.odeint(decay, np.array([1.0, -2.0], np.float32), T32, rtol=1e-6, atol=1e-7)
    assert ys.shape == (5, 2) and ys.dtype == jnp.float32
    np.testing.assert_allclose(np.asarray(ys), np.exp(-T32)[:, None] * [1.0, -2.0], rtol=2e-6, atol=1e-7)


def test_pytree_lotka_volterra_against_scipy() -> None:
    ys = ode.odeint(lotka_volterra(jnp), LV_Y0, T32, np.float32(1.1), 0.4)
    assert sorted(ys) == ["predator", "prey"] and ys["prey"].shape == (5, 2) and ys["predator"].shape == (5, 2)

    def f(y: np.ndarray[Any, Any], t: float) -> np.ndarray[Any, Any]:
        prey, predator = y[:2], y[2:]
        return np.concatenate([1.1 * prey - 0.4 * prey * predator, -predator + 0.4 * prey * predator])

    expected = _scipy(f, [1.0, 2.0, 0.5, 1.0], T32.astype(np.float64))
    np.testing.assert_allclose(np.asarray(ys["prey"]), expected[:, :2], rtol=2e-5)
    np.testing.assert_allclose(np.asarray(ys["predator"]), expected[:, 2:], rtol=2e-5)


def test_float64_against_scipy() -> None:
    t = np.linspace(0.0, 3.0, 4)
    with jt.enable_x64(True):
        pend = ode.odeint(pendulum(jnp), PEND_Y0, t, (0.25, np.float64(5.0)), rtol=1e-10, atol=1e-10)
        vdp = ode.odeint(van_der_pol(jnp), jnp.array([2.0, 0.0]), t, 5.0, rtol=1e-10, atol=1e-10)
        assert vdp.dtype == jnp.float64
    expected_pend = _scipy(lambda y, s: np.array([y[1], -0.25 * y[1] - 5.0 * np.sin(y[0])]), [2.0, 0.0], t)
    np.testing.assert_allclose(np.stack([np.asarray(pend[0]), np.asarray(pend[1])], axis=1), expected_pend, rtol=1e-8, atol=1e-9)
    expected_vdp = _scipy(lambda y, s: np.array([y[1], 5.0 * (1.0 - y[0] ** 2) * y[1] - y[0]]), [2.0, 0.0], t)
    np.testing.assert_allclose(np.asarray(vdp), expected_vdp, rtol=1e-7, atol=1e-8)


def test_gradients_against_finite_differences() -> None:
    t = np.linspace(0.0, 2.0, 3)
    y0, a, eps = np.array([1.0, 2.0]), 0.7, 1e-6

    def loss(y0: Any, a: Any, ts: Any) -> Any:
        return jnp.sum(ode.odeint(forced(jnp), y0, ts, a, rtol=1e-11, atol=1e-11) ** 2)

    with jt.enable_x64(True):
        grads: Any = jt.grad(loss, argnums=(0, 1, 2))(y0, a, t)
        g_y0, g_a, g_t = (np.asarray(g) for g in grads)

        def fd(shift: Callable[[float], tuple[Any, Any, Any]]) -> float:
            return (float(loss(*shift(eps))) - float(loss(*shift(-eps)))) / (2 * eps)

        unit = np.eye(2)
        for i in range(2):
            np.testing.assert_allclose(float(g_y0[i]), fd(lambda e: (y0 + e * unit[i], a, t)), rtol=1e-6)
        np.testing.assert_allclose(float(g_a), fd(lambda e: (y0, a + e, t)), rtol=1e-6)
        # The last time moves the last output; the first moves the start.
        for i in (0, 2):
            shift_t = np.eye(3)[i]
            np.testing.assert_allclose(float(g_t[i]), fd(lambda e: (y0, a, t + e * shift_t)), rtol=1e-5, atol=1e-8)


# === argument errors, by JAX's kinds ===


def decay_with(y: Any, t: Any, a: Any) -> Any:
    return -y


def three(y: Any, t: Any) -> Any:
    return np.ones(3, np.float32)


ERRORS: dict[str, Callable[[Any], object]] = {
    "not_callable": lambda lib: odeint_in(lib)(3, np.ones(2, np.float32), T32),
    "integer_y0": lambda lib: odeint_in(lib)(decay, np.array([1, 2], np.int32), T32),
    "string_y0": lambda lib: odeint_in(lib)(decay, "y", T32),
    "integer_t": lambda lib: odeint_in(lib)(decay, np.ones(2, np.float32), np.arange(3, dtype=np.int32)),
    "t_2d": lambda lib: odeint_in(lib)(decay, np.ones(2, np.float32), np.ones((2, 2), np.float32)),
    "t_0d": lambda lib: odeint_in(lib)(decay, np.ones(2, np.float32), np.float32(1.0)),
    "t_empty": lambda lib: odeint_in(lib)(decay, np.ones(2, np.float32), T32[:0]),
    "string_arg": lambda lib: odeint_in(lib)(decay_with, np.ones(2, np.float32), T32, "a"),
    "object_arg": lambda lib: odeint_in(lib)(decay_with, np.ones(2, np.float32), T32, object()),
    "wrong_output_size": lambda lib: odeint_in(lib)(three, np.ones(2, np.float32), T32),
}
ILL_TYPED = {"not_callable", "string_y0", "t_0d", "string_arg", "object_arg"}


@pytest.mark.parametrize("name", sorted(ERRORS))
def test_errors_match_jax(name: str) -> None:
    raises_as_jax(ERRORS[name], ill_typed=name in ILL_TYPED)


def test_error_messages_name_odeint_and_the_argument() -> None:
    with pytest.raises(jt.errors.JaxtypedTypeError, match=r"odeint: y0 must be floating point.*int32\[2\]"):
        ode.odeint(decay, jnp.array([1, 2]), jnp.asarray(T32))
    with pytest.raises(jt.errors.JaxtypedTypeError, match=r"odeint: t must be an array of floats, got int32\[3\]"):
        ode.odeint(decay, jnp.ones(2), jnp.arange(3))
    with pytest.raises(jt.errors.JaxtypedTypeError, match=r"odeint: t must be a 1-D array of times, got float32\[2,2\]"):
        ode.odeint(decay, jnp.ones(2), jnp.ones((2, 2)))
    with pytest.raises(jt.errors.JaxtypedTypeError, match=r"odeint: the contents of \*args .* args\[0\]\['k'\] is of type str"):
        ode.odeint(decay_with, jnp.ones(2), jnp.asarray(T32), {"k": "v"})
    with pytest.raises(jt.errors.JaxtypedTypeError, match=r"odeint: func's output has shape \(3,\), but .* shape \(2,\)"):
        ode.odeint(lambda y, t: jnp.ones(3), jnp.ones(2), jnp.asarray(T32))
    with pytest.raises(jt.errors.JaxtypedTypeError, match=r"odeint: func's output has dtype float64"):
        with jt.enable_x64(True):
            ode.odeint(lambda y, t: jnp.ones(2, jnp.float64), jnp.ones(2, jnp.float32), jnp.asarray(T32))
    with pytest.raises(jt.errors.JaxtypedTypeError, match="rtol"):
        ode.odeint(decay, jnp.ones(2), jnp.asarray(T32), rtol="tight")  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]  # the error tested
