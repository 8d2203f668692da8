"""``jaxtyped.experimental.jet`` against JAX's ``jax.experimental.jet.jet``
(values, dtypes and weak types in float32, orders 1-4, both
``factorial_scaled`` settings, output pytrees, under ``jit`` and ``vmap``)
and against repeated ``jvp`` in float64 (``d^k/dt^k f(x(t))`` at ``t = 0``
by nested ``jax.jvp``, one row per primitive family, including ``cond``,
``scan`` and ``while``, which JAX's jet lacks); errors by kind."""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from oracle import Case, CaseTable, Group, Raised, assert_same, jax, jax_numpy, library, raises_as_jax

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.experimental.jet import jet

jax_jet: Any = pytest.importorskip("jax.experimental.jet").jet

Fn = Callable[..., Any]


def jet_of(L: Any) -> Any:
    """The ``jet`` of the library ``L`` belongs to."""
    return jet if L is jnp else jax_jet


def _rng_series(seed: int, shape: tuple[int, ...], order: int, dtype: str, n: int) -> list[list[np.ndarray[Any, Any]]]:
    rng = np.random.default_rng(seed)
    return [[rng.uniform(-1.0, 1.0, shape).astype(dtype) for _ in range(order)] for _ in range(n)]


def _args(primals: Sequence[Any], dtype: str) -> list[np.ndarray[Any, Any]]:
    return [np.asarray(p, dtype) for p in primals]


# === against JAX's jet (float32) ===


def jet_case(
    id_: str, fn: Callable[[Any], Fn], primals: Sequence[Any], order: int = 3, scaled: bool = True, seed: int = 0,
    rtol: float = 1e-4, atol: float = 1e-5,
) -> Case:
    """``jet(fn(lib), primals, random series)`` in both libraries."""
    xs = _args(primals, "float32")
    series = _rng_series(seed, xs[0].shape, order, "float32", len(xs))
    return Case(id_, lambda L: jet_of(L)(fn(library(L)), xs, series, factorial_scaled=scaled), rtol, atol)


X = [0.3, 0.7, 1.2]
Y = [0.9, 1.3, 0.4]
M = [[0.5, -0.2, 0.8], [0.1, 0.9, -0.4]]


def _custom_vjp_sin(l: Any) -> Fn:
    """``sin`` with a (wrong) custom vjp: jet differentiates the function."""

    def sin(x: Any) -> Any:
        return l.np.sin(x)

    f: Any = l.api.custom_vjp(sin)
    f.defvjp(lambda x: (f(x), x), lambda r, g: (g * 0.0,))
    result: Fn = f
    return result


def _jax_cases() -> list[Case]:
    cases: list[Case] = []
    unary: dict[str, Callable[[Any], Fn]] = {
        "linear": lambda l: lambda x: l.np.concatenate([-x[::-1], l.np.pad(x, 1)[1:-1], l.np.cumsum(x)]).reshape(3, 3).T.sum(0),
        "dynamic": lambda l: lambda x: l.lax.dynamic_update_slice(x, l.lax.dynamic_slice(x, (1,), (2,)) * 2.0, (0,)),
        "gather": lambda l: lambda x: x[np.array([2, 0, 1, 1])] + l.np.zeros(4).at[np.array([0, 0, 3])].add(x),
        "exp": lambda l: l.np.exp,
        "log": lambda l: l.np.log,
        "sin": lambda l: l.np.sin,
        "cos": lambda l: l.np.cos,
        "sinh": lambda l: l.np.sinh,
        "cosh": lambda l: l.np.cosh,
        "tanh": lambda l: l.np.tanh,
        "logistic": lambda l: l.lax.logistic,
        "sqrt": lambda l: l.np.sqrt,
        "rsqrt": lambda l: l.lax.rsqrt,
        "square": lambda l: l.np.square,
        "ipow": lambda l: lambda x: x**3 + x**-2 + x**1,
        "expm1": lambda l: l.np.expm1,
        "log1p": lambda l: l.np.log1p,
        "asinh": lambda l: l.np.arcsinh,
        "atanh": lambda l: lambda x: l.np.arctanh(x / 2),
        "acosh": lambda l: lambda x: l.np.arccosh(x + 1.5),
        "erf": lambda l: l.lax.erf,
        "erfc": lambda l: l.lax.erfc,
        "erfinv": lambda l: lambda x: l.lax.erf_inv(x / 2),
        "abs": lambda l: lambda x: l.np.abs(x - 0.5),
        "reducemax": lambda l: lambda x: l.np.max(l.np.stack([x, x[::-1], x * 0.5]), axis=0),
        "reducemin": lambda l: lambda x: l.np.min(l.np.stack([x, x[::-1]]), axis=1),
        "zero": lambda l: lambda x: l.np.floor(x) + l.np.sign(x) + l.np.round(x) + l.lax.stop_gradient(x) * x,
        "jit": lambda l: l.api.jit(lambda x: l.np.sin(x) * x),
        "cumulative": lambda l: lambda x: l.lax.cumprod(x, reverse=True) + l.lax.cummax(x) + l.lax.cummin(x, reverse=True),
        "rem": lambda l: lambda x: l.lax.rem(x * 3.0, x + 2.0),
        "windowsum": lambda l: lambda x: l.lax.reduce_window(x, 0.0, l.lax.add, (2,), (1,), "VALID"),
        "fft": lambda l: lambda x: l.np.fft.fft(x.astype(l.np.complex64)).real + l.lax.complex(x, x * 2.0).imag,
        "bitcast": lambda l: lambda x: l.lax.bitcast_convert_type(l.lax.bitcast_convert_type(x, l.np.int32), l.np.float32) * x,
        # a scalar operand (JAX's min rule fails on one: see the jvp table)
        "scalarmax": lambda l: lambda x: l.np.maximum(x - 0.5, 0.0) + l.np.maximum(1.0, x),
    }
    for name, fn in unary.items():
        cases.append(jet_case(f"{name}-o4", fn, [X], order=4))
        cases.append(jet_case(f"{name}-o2-unscaled", fn, [X], order=2, scaled=False, seed=1))
    binary: dict[str, Callable[[Any], Fn]] = {
        "mul": lambda l: lambda x, y: x * y * 3.0,
        "div": lambda l: lambda x, y: x / y + 2.0 / y + x / 4.0,
        "pow": lambda l: lambda x, y: x**y,
        "atan2": lambda l: l.np.arctan2,
        "max": lambda l: lambda x, y: l.np.maximum(x, y) + l.np.maximum(x, x),
        "min": lambda l: lambda x, y: l.np.minimum(x, y) + l.np.minimum(y, y),
        "select": lambda l: lambda x, y: l.np.where(x > 0.5, x, y),
        "clamp": lambda l: lambda x, y: l.lax.clamp(y * 0.5, x, y),
        "dot": lambda l: lambda x, y: l.np.dot(x, y) + l.np.outer(x, y).sum(),
        "conv": lambda l: lambda x, y: l.lax.conv_general_dilated(x.reshape(1, 1, 3), y[None, None, :2], (1,), "VALID"),
    }
    for name, fn in binary.items():
        cases.append(jet_case(f"{name}-o4", fn, [X, Y], order=4))
        cases.append(jet_case(f"{name}-o3-unscaled", fn, [X, Y], order=3, scaled=False, seed=1))
    # every order, both scalings, on one composite
    composite: Callable[[Any], Fn] = lambda l: lambda x, y: l.np.exp(-x * y) * l.np.sin(x) / (1.0 + y * y)
    for order in range(1, 5):
        for scaled in (True, False):
            cases.append(jet_case(f"orders-{order}-{scaled}", composite, [X, Y], order=order, scaled=scaled, seed=order))
    # custom derivatives: the primal function is differentiated (JAX's jet
    # means to, but raises an UnexpectedTracerError in 0.10.2: compared with
    # JAX's jet of the same function without the custom rule)
    def custom(L: Any) -> Any:
        l = library(L)
        f = (lambda x: _custom_vjp_sin(l)(x) + l.api.nn.softplus(x)) if L is jnp else (lambda x: l.np.sin(x) + l.np.log1p(l.np.exp(x)))
        return jet_of(L)(f, _args([X], "float32"), _rng_series(5, (3,), 3, "float32", 1))

    cases.append(Case("custom-vjp-jvp", custom, 1e-4, 1e-5))
    # output pytrees; matrices
    tree: Callable[[Any], Fn] = lambda l: lambda x: {"a": l.np.sin(x), "b": (x * 2.0, [l.np.exp(x).sum()])}
    cases.append(jet_case("tree-dict", tree, [X]))
    cases.append(jet_case("matrix-matmul", lambda l: lambda m: l.np.tanh(m @ m.T), [M]))
    return cases


TABLE = CaseTable("jet", _jax_cases)


@pytest.mark.parametrize("group", TABLE.params())
def test_against_jax_jet(group: Group) -> None:
    TABLE.check(group)


# === against repeated jvp (float64) ===


def _derivatives_by_jvp(f: Fn, primals: Sequence[Any], series: Sequence[Sequence[Any]]) -> tuple[Any, list[Any]]:
    """``f(x(t))`` and its derivatives at ``t = 0`` by nested ``jax.jvp``,
    ``x(t) = x0 + sum_k x_k t^k / k!`` (``jet``'s factorial-scaled terms)."""
    order = len(series[0])

    def g(t: Any) -> Any:
        return f(*[p + sum(s[k] * t ** (k + 1) / math.factorial(k + 1) for k in range(order)) for p, s in zip(primals, series)])

    def stack(n: int) -> Callable[[Any], list[Any]]:
        if n == 0:
            return lambda t: [g(t)]
        inner = stack(n - 1)

        def outer(t: Any) -> list[Any]:
            outs, tangents = jax.jvp(inner, (t,), (np.float64(1.0),))
            return [*outs, tangents[-1]]

        return outer

    values = stack(order)(np.float64(0.0))
    return values[0], values[1:]


def jvp_case(id_: str, fn: Callable[[Any], Fn], primals: Sequence[Any], order: int = 4, seed: int = 0) -> Case:
    """Our ``jet`` against JAX's nested ``jvp`` in float64."""
    xs = _args(primals, "float64")
    series = _rng_series(seed, xs[0].shape, order, "float64", len(xs))

    def run(L: Any) -> Any:
        if L is jnp:
            return jet(fn(library(L)), xs, series)
        return _derivatives_by_jvp(fn(library(L)), [jax_numpy.asarray(x) for x in xs], series)

    return Case(id_, run, 1e-9, 1e-9)


def _jvp_cases() -> list[Case]:
    families: dict[str, tuple[Callable[[Any], Fn], list[Any]]] = {
        "linear": (lambda l: lambda x, y: l.np.concatenate([x - y, l.np.pad(-x, 1)[2:], l.np.cumsum(x)[::-1]]).reshape(3, 3).T.sum(1), [X, Y]),
        "indexing": (lambda l: lambda x, y: l.lax.dynamic_update_slice(x[np.array([2, 0, 1])], l.lax.dynamic_slice(y, (1,), (2,)), (1,)), [X, Y]),
        "bilinear": (lambda l: lambda x, y: x * y + l.np.dot(x, y) + l.lax.conv_general_dilated(x.reshape(1, 1, 3), y[None, None, :2], (1,), "VALID").sum(), [X, Y]),
        "div": (lambda l: lambda x, y: x / y, [X, Y]),
        "explog": (lambda l: lambda x: l.np.exp(x) + l.np.log(x) + l.np.expm1(x) + l.np.log1p(x), [X]),
        "sincos": (lambda l: lambda x: l.np.sin(x) * 2.0 + l.np.cos(x), [X]),
        "sinhcosh": (lambda l: lambda x: l.np.sinh(x) * 2.0 + l.np.cosh(x), [X]),
        "tanh": (lambda l: lambda x: l.np.tanh(x) + l.lax.logistic(x), [X]),
        "sqrt": (lambda l: lambda x: l.np.sqrt(x) + l.lax.rsqrt(x), [X]),
        "pow": (lambda l: lambda x, y: x**y, [X, Y]),
        "ipow": (lambda l: lambda x: x**5 + x**-3 + l.np.square(x), [X]),
        "inverse": (lambda l: lambda x: l.np.arcsinh(x) + l.np.arccosh(x + 1.5) + l.np.arctanh(x * 0.5), [X]),
        "atan2": (lambda l: l.np.arctan2, [X, Y]),
        "erf": (lambda l: lambda x: l.lax.erf(x) + l.lax.erfc(x) * 2.0 + l.lax.erf_inv(x * 0.5), [X]),
        "abs": (lambda l: lambda x: l.np.abs(x - 0.5), [X]),
        "extrema": (lambda l: lambda x, y: l.np.maximum(x, y) + l.np.minimum(x, y) * 2.0 + l.np.max(x * y) + l.np.minimum(x, 1.0), [X, Y]),
        "clamp": (lambda l: lambda x: l.lax.clamp(0.5, x, 1.0), [X]),
        "zero": (lambda l: lambda x: l.np.ceil(x) * x + l.np.where(l.np.isfinite(x), 1.0, 0.0), [X]),
        "jit": (lambda l: l.api.jit(lambda x, y: l.np.exp(x) * y), [X, Y]),
        "cond": (lambda l: lambda x: l.lax.cond(x.sum() > 0, l.np.sin, lambda v: v * v, x), [X]),
        "customjvp": (lambda l: lambda x: l.api.nn.softplus(x) + l.api.nn.relu(x - 0.5), [X]),
        "scan": (lambda l: lambda x, y: l.lax.scan(lambda c, a: (l.np.sin(c) * a + y, l.np.exp(c) * a), x, l.np.stack([y, x * 2.0]))[1].sum(0), [X, Y]),
        "while": (lambda l: lambda x: l.lax.while_loop(lambda c: c[0] < 3, lambda c: (c[0] + 1, l.np.tanh(c[1]) * x), (0, x))[1], [X]),
        "fori": (lambda l: lambda x: l.lax.fori_loop(0, 3, lambda i, c: l.np.cos(c) * x, x), [X]),
    }
    return [jvp_case(f"{name}-o4", fn, primals) for name, (fn, primals) in families.items()]


JVP_TABLE = CaseTable("jet-jvp", _jvp_cases, x64=True)


@pytest.mark.parametrize("group", JVP_TABLE.params())
def test_against_repeated_jvp(group: Group) -> None:
    JVP_TABLE.check(group)


def test_every_case_runs_in_jax() -> None:
    # A case that raised in both libraries would pass vacuously.
    for table in (TABLE, JVP_TABLE):
        raised = [key for key, value in table.jax_results.items() if isinstance(value, Raised)]
        assert not raised, f"{table.name}: JAX raised on {raised}"


# === transformations around jet ===


def test_jet_under_jit() -> None:
    xs = _args([X], "float32")
    (s1, s2, s3), = _rng_series(3, (3,), 3, "float32", 1)

    def program(J: Any, L: Any, jet_fn: Any) -> Any:
        return J.jit(lambda x, a, b, c: jet_fn(lambda v: L.sin(v) * L.exp(v), (x,), ((a, b, c),)))(xs[0], s1, s2, s3)

    assert_same(program(jt, jnp, jet), program(jax, jax_numpy, jax_jet), 1e-5, 1e-5)


def test_jet_of_jit_is_staged() -> None:
    # A jit call's jet is one jit call of the jet of its jaxpr.
    f = jt.jit(lambda v: jnp.sin(v) * v)
    x = np.float32(0.5)
    jaxpr = jt.make_jaxpr(lambda a, b: jet(f, (a,), ((b, b),)))(x, x).jaxpr
    assert [e.primitive.name for e in jaxpr.eqns].count("jit") == 1
    _, series = jet(f, (x,), ((x, x),))
    _, expected = jax_jet(jax.jit(lambda v: jax_numpy.sin(v) * v), (x,), ((x, x),))
    assert_same(series, expected, 1e-6, 1e-6)


def test_jet_under_vmap() -> None:
    xs = np.asarray([X, Y], np.float32)
    ts = np.asarray([Y, X], np.float32)

    def program(J: Any, L: Any, jet_fn: Any) -> Any:
        return J.vmap(lambda x, t: jet_fn(L.tanh, (x,), ((t, t * 2.0),)))(xs, ts)

    assert_same(program(jt, jnp, jet), program(jax, jax_numpy, jax_jet), 1e-5, 1e-6)


def test_grad_of_jet_and_nested_jet() -> None:
    def second(L: Any, jet_fn: Any) -> Any:
        return lambda x: jet_fn(L.sin, (x,), ((1.0, 0.0),))[1][1]  # -sin x

    x = np.float32(0.5)
    grad_ours: Any = jt.grad(second(jnp, jet))
    assert_same(grad_ours(x), jax.grad(second(jax_numpy, jax_jet))(x), 1e-6, 1e-6)
    ours = jet(second(jnp, jet), (x,), ((np.float32(1.0),),))
    assert_same(ours, jax_jet(lambda v: -jax_numpy.sin(v), (x,), ((np.float32(1.0),),)), 1e-6, 1e-6)


def test_integer_outputs_have_zero_series() -> None:
    series: Any = jet(lambda v: (v * 2.0, jnp.argmax(v)), (np.float32(1.5),), ((np.float32(1.0), np.float32(2.0)),))[1]
    assert [int(t) for t in series[1]] == [0, 0]
    assert series[1][0].dtype == np.dtype(np.int32)


def test_constant_output() -> None:
    primal, series = jet(lambda v: jnp.ones(2), (np.float32(1.0),), ((np.float32(1.0),),))
    assert_same((primal, series), jax_jet(lambda v: jax_numpy.ones(2), (np.float32(1.0),), ((np.float32(1.0),),)))


# === errors ===


def _error_program(primals: Any, series: Any, fn: Callable[[Any], Fn] = lambda L: L.np.sin) -> Callable[[Any], object]:
    def program(lib: Any) -> object:
        L = library(jnp if lib is jt else jax_numpy)
        return (jet if lib is jt else jax_jet)(fn(L), primals, series)

    return program


@pytest.mark.parametrize(
    ("primals", "series"),
    [
        pytest.param((1.0, 2.0), ((1.0, 2.0), (1.0,)), id="inconsistent-orders"),
        pytest.param(((1.0, 2.0),), (((1.0, 2.0),),), id="pytree-primal"),
        pytest.param((1.0,), (((1.0, 2.0), 3.0),), id="pytree-term"),
        pytest.param((1.0,), (), id="no-series"),
    ],
)
def test_errors_as_jax(primals: Any, series: Any) -> None:
    # A pytree where an array belongs is outside jet's static types: under
    # the debug mode beartype may report it first.
    raises_as_jax(_error_program(primals, series, lambda L: lambda *xs: L.np.sin(xs[0])), ill_typed=True)


def test_python_control_flow_on_primals() -> None:
    # A difference from JAX, whose jet tracers are abstract (as under jvp here).
    with pytest.raises(TypeError):
        jax_jet(lambda x: x if x > 0 else -x, (-1.0,), ((1.0, 2.0),))
    assert_same(jet(lambda x: x if x > 0 else -x, (-1.0,), ((1.0, 2.0),)), jax_jet(lambda x: -x, (-1.0,), ((1.0, 2.0),)))


def test_unsupported_primitive() -> None:
    with pytest.raises(NotImplementedError, match="Jet rule for 'tan' not implemented"):
        jet(jnp.tan, (np.float32(1.0),), ((np.float32(1.0),),))
    with pytest.raises(KeyError):  # JAX: a KeyError naming the primitive
        jax_jet(jax_numpy.tan, (np.float32(1.0),), ((np.float32(1.0),),))

