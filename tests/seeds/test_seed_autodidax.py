"""Seed 000 (Autodidax part 1): every example, with its printed output,
written with jaxtyped.

The seed runs in NumPy float64; jaxtyped is 32-bit by default like JAX, so
each numerical example runs twice: in the default mode (float32, compared
at float32 tolerance) and under the ``x64`` fixture, where the seed's
printed float64 digits must match to ~1e-12.
"""

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array, ArrayLike

# === precision modes ===


@dataclass(frozen=True)
class Mode:
    """The floating dtype results must have and the tolerance for the
    seed's printed float64 values."""

    dtype: np.dtype[Any]
    rtol: float
    atol: float


@pytest.fixture(params=["f32", "x64"])
def mode(request: pytest.FixtureRequest) -> Iterator[Mode]:
    if request.param == "x64":
        request.getfixturevalue("x64")
        yield Mode(np.dtype("float64"), 1e-12, 1e-12)
    else:
        yield Mode(np.dtype("float32"), 1e-6, 1e-6)


def assert_value(x: object, expected: float, mode: Mode) -> None:
    """``x`` is a 0-d Array of the mode's dtype equal to the seed's value."""
    assert isinstance(x, jt.Array)
    assert x.shape == ()
    assert x.dtype == mode.dtype
    np.testing.assert_allclose(float(x), expected, rtol=mode.rtol, atol=mode.atol)


# === the seed's programs, written with jaxtyped ===


def f(x: ArrayLike) -> Array:
    y = jnp.sin(x) * 2.0
    z = -y + x
    return z


def f_primitives(x: ArrayLike) -> Array:
    # The same program spelled with the primitive-level wrappers, as the
    # seed's `sin`, `mul`, `neg`, `add` are.
    x = jnp.asarray(x)
    y = lax.mul(lax.sin(x), 2.0)
    return lax.add(lax.neg(y), x)


def deriv(fun: Callable[[Any], Any]) -> Callable[[Any], Any]:
    return lambda x: jt.jvp(fun, (x,), (1.0,))[1]


def f_control_flow(x: Array) -> Array:
    if x > 0.0:  # Python control flow
        return 2.0 * x
    else:
        return x


def f_pytree(x: ArrayLike) -> dict[str, Any]:
    y = jnp.sin(x) * 2.0
    z = -y + x
    return {"hi": z, "there": [x, y]}


def add_one_to_a_scalar(scalar: Any) -> Any:
    # Any: vmap keeps the signature, and the seed maps it over a NumPy array.
    # The seed writes np.ndim; jnp.ndim is the typed spelling (a jaxtyped
    # Array is not a NumPy array-like to a type checker).
    assert jnp.ndim(scalar) == 0
    return 1 + scalar


def seed_jacfwd(fun: Callable[[Any], Any], x: np.ndarray[Any, Any]) -> Any:
    """The seed's own jacfwd: vmap of a jvp pushforward over ``eye``.

    Row i is the pushforward of the i-th basis vector, i.e. column i of the
    Jacobian: this is the *transpose* of ``jax.jacfwd``'s layout (the same
    for the seed's diagonal example).
    """
    primal: Any = x

    def pushfwd(v: Any) -> Any:
        return jt.jvp(fun, (primal,), (v,))[1]

    vecs_in = np.eye(np.size(x)).reshape(np.shape(x) * 2)
    return jt.vmap(pushfwd, (0,))(vecs_in)


# === evaluation ===


def test_f_evaluates_to_printed_value(mode: Mode) -> None:
    # print(f(3.0)) -> 2.7177599838802657
    out = f(3.0)
    assert_value(out, 2.7177599838802657, mode)
    assert out.weak_type  # a Python scalar in, a weakly typed array out (as in JAX)
    assert_value(f_primitives(3.0), 2.7177599838802657, mode)


def test_f_float64_digits_exact(x64: None) -> None:
    assert abs(float(f(3.0)) - 2.7177599838802657) <= 1e-15


# === jvp ===


def test_jvp_sin_is_cos(mode: Mode) -> None:
    # y, sin_deriv_at_3 = jvp_v1(sin, (3.0,), (1.0,)); print(sin_deriv_at_3); print(cos(3.0))
    y, sin_deriv_at_3 = jt.jvp(jnp.sin, (3.0,), (1.0,))
    assert_value(y, np.sin(3.0), mode)
    assert_value(sin_deriv_at_3, -0.9899924966004454, mode)
    assert_value(jnp.cos(3.0), -0.9899924966004454, mode)
    _, lax_deriv = jt.jvp(lax.sin, (jnp.asarray(3.0),), (jnp.asarray(1.0),))
    assert_value(lax_deriv, -0.9899924966004454, mode)


@pytest.mark.parametrize("fun", [f, f_primitives], ids=["operators", "lax"])
def test_jvp_f(fun: Callable[[Any], Array], mode: Mode) -> None:
    # print(y); print(ydot) -> 2.7177599838802657, 2.979984993200891
    y, ydot = jt.jvp(fun, (3.0,), (1.0,))
    assert_value(y, 2.7177599838802657, mode)
    assert_value(ydot, 2.979984993200891, mode)


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        (1, -0.9899924966004454),
        (2, -0.1411200080598672),
        (3, 0.9899924966004454),
        (4, 0.1411200080598672),
    ],
)
def test_nested_deriv_of_sin(order: int, expected: float, mode: Mode) -> None:
    fun: Callable[[Any], Any] = jnp.sin
    for _ in range(order):
        fun = deriv(fun)
    assert_value(fun(3.0), expected, mode)


def test_python_control_flow_under_jvp(mode: Mode) -> None:
    # jvp tracers carry concrete primals, so `if x > 0.` works (as in JAX).
    assert_value(deriv(f_control_flow)(3.0), 2.0, mode)
    assert_value(deriv(f_control_flow)(-3.0), 1.0, mode)


# === pytrees ===


def test_jvp_pytree_output(mode: Mode) -> None:
    # {'hi': 2.7177599838802657, 'there': [3.0, 0.2822400161197344]}
    # {'hi': 2.979984993200891, 'there': [1.0, -1.9799849932008908]}
    y, ydot = jt.jvp(f_pytree, (3.0,), (1.0,))
    for tree in (y, ydot):
        assert str(jt.tree_util.tree_structure(tree)) == "PyTreeDef({'hi': *, 'there': [*, *]})"
    assert_value(y["hi"], 2.7177599838802657, mode)
    assert_value(y["there"][0], 3.0, mode)
    assert_value(y["there"][1], 0.2822400161197344, mode)
    assert_value(ydot["hi"], 2.979984993200891, mode)
    assert_value(ydot["there"][0], 1.0, mode)
    assert_value(ydot["there"][1], -1.9799849932008908, mode)


def test_jvp_pytree_inputs() -> None:
    # Nested containers in: the seed's user-facing jvp flattens them.
    def g(args: dict[str, Any]) -> Any:
        a, (b, c) = args["a"], args["bc"]
        return a * b + jnp.sin(c)

    primals = ({"a": 2.0, "bc": (3.0, 0.5)},)
    tangents = ({"a": 1.0, "bc": (0.0, 1.0)},)
    y, ydot = jt.jvp(g, primals, tangents)
    np.testing.assert_allclose(float(y), 6.0 + np.sin(0.5), rtol=1e-6)
    np.testing.assert_allclose(float(ydot), 3.0 + np.cos(0.5), rtol=1e-6)


# === vmap ===


def test_vmap_add_one_to_a_scalar(mode: Mode) -> None:
    vector_in = np.arange(3.0)
    vector_out = jt.vmap(add_one_to_a_scalar, (0,))(vector_in)
    # print(vector_in); print(vector_out) -> [0. 1. 2.]  [1. 2. 3.]
    assert str(vector_in) == "[0. 1. 2.]"
    assert str(vector_out) == "[1. 2. 3.]"
    assert isinstance(vector_out, jt.Array)
    assert vector_out.shape == (3,) and vector_out.dtype == mode.dtype
    np.testing.assert_array_equal(np.asarray(vector_out), [1.0, 2.0, 3.0])


# === jacfwd ===

# The seed's printed result of jacfwd(f, np.arange(3.)) with f = sin:
#   array([[ 1.        ,  0.        , -0.        ],
#          [ 0.        ,  0.54030231, -0.        ],
#          [ 0.        ,  0.        , -0.41614684]])
SEED_JACOBIAN = np.array(
    [
        [1.0, 0.0, -0.0],
        [0.0, 0.54030231, -0.0],
        [0.0, 0.0, -0.41614684],
    ]
)


def test_seed_jacfwd_formula_reproduces_printed_matrix(mode: Mode) -> None:
    out = seed_jacfwd(jnp.sin, np.arange(3.0))
    assert isinstance(out, jt.Array)
    assert out.shape == (3, 3) and out.dtype == mode.dtype
    np.testing.assert_allclose(np.asarray(out), SEED_JACOBIAN, atol=5e-9 if mode.rtol < 1e-9 else 1e-6)
    # Even the signs of the zeros are the seed's (cos(2) * 0.0 is -0.0).
    np.testing.assert_array_equal(np.signbit(np.asarray(out)), np.signbit(SEED_JACOBIAN))


def test_jt_jacfwd_of_sin_matches_printed_matrix(mode: Mode) -> None:
    out = jt.jacfwd(jnp.sin)(np.arange(3.0))
    assert out.shape == (3, 3) and out.dtype == mode.dtype
    np.testing.assert_allclose(np.asarray(out), SEED_JACOBIAN, atol=5e-9 if mode.rtol < 1e-9 else 1e-6)
    np.testing.assert_allclose(np.asarray(out), np.asarray(seed_jacfwd(jnp.sin, np.arange(3.0))))


def test_seed_jacfwd_formula_is_transpose_of_jt_jacfwd() -> None:
    # A non-symmetric Jacobian shows the seed's formula stacks pushforwards
    # (columns of J) as rows.
    def g(x: ArrayLike) -> Array:
        x = jnp.asarray(x)
        return jnp.sin(x) * (x[0] + 2.0 * x)

    x = np.array([0.3, -1.2, 2.0])
    ours = np.asarray(jt.jacfwd(g)(x))
    seed = np.asarray(seed_jacfwd(g, x))
    np.testing.assert_allclose(seed, ours.T, rtol=1e-6, atol=1e-6)
    assert not np.allclose(ours, ours.T)
    # Cross-check J by finite differences (float64 NumPy oracle).
    def g_np(v: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
        out: np.ndarray[Any, Any] = np.sin(v) * (v[0] + 2.0 * v)
        return out

    eps = 1e-6
    fd = np.stack([(g_np(x + eps * e) - g_np(x - eps * e)) / (2 * eps) for e in np.eye(3)], axis=1)
    np.testing.assert_allclose(ours, fd, rtol=1e-4, atol=1e-4)
