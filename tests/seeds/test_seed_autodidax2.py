"""Seed 002 (Autodidax2 part 1): every example, with its printed output,
written with jaxtyped (``lax.add``/``lax.mul`` play the seed's
interpreter-dispatching ``add``/``mul``)."""

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.core import ClosedJaxpr, Literal, Var, check_closed_jaxpr, eval_jaxpr, jaxpr_as_fun
from jaxtyped.typing import Array, ArrayLike

FOO_JAXPR = "{ lambda ; a:f32[]. let b:f32[] = add a 3.0:f32[]; c:f32[] = mul a b in (c,) }"


def foo(x: ArrayLike) -> Array:
    return lax.mul(x, lax.add(x, 3.0))


def foo_infix(x: Array) -> Array:
    return x * (x + 3.0)


def derivative(f: Callable[[Any], Any], x: ArrayLike) -> Any:
    _, tangent = jt.jvp(f, (x,), (1.0,))
    return tangent


def nth_order_derivative(n: int, f: Callable[[Any], Any], x: ArrayLike) -> Any:
    if n == 0:
        return f(x)
    return derivative(lambda x: nth_order_derivative(n - 1, f, x), x)


def as_float(x: object) -> float:
    assert isinstance(x, jt.Array) and x.shape == ()
    return float(x)


# === evaluation and finite differences ===


def test_foo_evaluates() -> None:
    # print(foo(2.0)) -> 10.0
    out = foo(2.0)
    assert as_float(out) == 10.0
    assert out.dtype == np.float32 and out.weak_type
    assert as_float(foo_infix(jnp.asarray(2.0))) == 10.0


def test_finite_difference_float32() -> None:
    # 7.000009999913458 in float64; float32 rounding makes it much coarser.
    fd = (foo(2.00001) - foo(2.0)) / 0.00001
    assert abs(as_float(fd) - 7.0) <= 0.1


def test_finite_difference_float64_digits(x64: None) -> None:
    # print((foo(2.00001) - foo(2.0)) / 0.00001) -> 7.000009999913458
    # print(foo(2.00001)) -> 10.0000700001
    fd = (foo(2.00001) - foo(2.0)) / 0.00001
    assert fd.dtype == np.float64
    assert abs(as_float(fd) - 7.000009999913458) <= 1e-12
    assert abs(as_float(foo(2.00001)) - 10.0000700001) <= 1e-12


# === dual numbers and jvp ===


@dataclass
class DualNumber:
    primal: float
    tangent: float


def add_dual(x: DualNumber, y: DualNumber) -> DualNumber:
    return DualNumber(x.primal + y.primal, x.tangent + y.tangent)


def mul_dual(x: DualNumber, y: DualNumber) -> DualNumber:
    return DualNumber(x.primal * y.primal, x.primal * y.tangent + x.tangent * y.primal)


def foo_dual(x: DualNumber) -> DualNumber:
    return mul_dual(x, add_dual(x, DualNumber(3.0, 0.0)))


def test_hand_written_dual_numbers_agree_with_jvp() -> None:
    # print(foo_dual(DualNumber(2.0, 1.0))) -> DualNumber(primal=10.0, tangent=7.0)
    dual = foo_dual(DualNumber(2.0, 1.0))
    assert repr(dual) == "DualNumber(primal=10.0, tangent=7.0)"
    primal, tangent = jt.jvp(foo, (2.0,), (1.0,))
    assert (as_float(primal), as_float(tangent)) == (dual.primal, dual.tangent)


@pytest.mark.parametrize("fun", [foo, foo_infix], ids=["lax", "operators"])
def test_jvp_foo(fun: Callable[[Any], Array]) -> None:
    # print(jvp(foo, 2.0, 1.0)) -> (10.0, 7.0)
    primal, tangent = jt.jvp(fun, (2.0,), (1.0,))
    assert (as_float(primal), as_float(tangent)) == (10.0, 7.0)


@pytest.mark.parametrize(("n", "expected"), [(0, 10.0), (1, 7.0), (2, 2.0), (3, 0.0), (4, 0.0)])
def test_nth_order_derivative(n: int, expected: float) -> None:
    # The rest are zero because `foo` is only a second-order polynomial.
    assert as_float(nth_order_derivative(n, foo, 2.0)) == expected


def test_perturbation_confusion_example() -> None:
    # g is constant in its (ignored) argument y: its derivative is zero even
    # though it closes over the outer jvp's value x.
    def f(x: Array) -> Array:
        def g(y: Array) -> Array:
            return x

        should_be_zero = derivative(g, 0.0)
        return lax.mul(x, should_be_zero)

    # print(derivative(f, 0.0)) -> 0.0
    assert as_float(derivative(f, 0.0)) == 0.0


def test_perturbation_confusion_nonzero_variant() -> None:
    # Siskind & Pearlmutter: d/dx (x * d/dy (x * y)) = d/dx x^2 = 2x. A
    # confused implementation adds the inner perturbation to the outer one.
    def f(x: Array) -> Array:
        return lax.mul(x, derivative(lambda y: lax.mul(x, y), 1.0))

    assert as_float(derivative(f, 3.0)) == 6.0


# === staging to a jaxpr ===


def test_make_jaxpr_of_foo_exact_text() -> None:
    # The seed's untyped IR prints `v_1 -> v_2 = Op.add(v_1, 3.0) ...`;
    # jaxtyped (like JAX) prints typed jaxprs.
    closed = jt.make_jaxpr(foo)(2.0)
    assert str(closed) == FOO_JAXPR
    assert str(jt.make_jaxpr(foo_infix)(jnp.asarray(2.0))) == FOO_JAXPR


def test_make_jaxpr_of_foo_matches_real_jax() -> None:
    # The oracle, untyped and imported by name (type checkers need not resolve it).
    jx: Any = importlib.import_module("jax")

    def jax_foo(x: Any) -> Any:
        return jx.lax.mul(x, jx.lax.add(x, 3.0))

    assert str(jt.make_jaxpr(foo)(2.0)) == str(jx.make_jaxpr(jax_foo)(2.0))


def test_make_jaxpr_of_foo_has_the_seeds_structure() -> None:
    # v_1 ->
    #   v_2 = Op.add(v_1, 3.0)
    #   v_3 = Op.mul(v_1, v_2)
    # v_3
    jaxpr = jt.make_jaxpr(foo)(2.0).jaxpr
    (v1,) = jaxpr.invars
    add_eqn, mul_eqn = jaxpr.eqns
    assert (add_eqn.primitive.name, mul_eqn.primitive.name) == ("add", "mul")
    (v2,) = add_eqn.outvars
    (v3,) = mul_eqn.outvars
    first, three = add_eqn.invars
    assert first == v1
    assert isinstance(three, Literal) and float(three.val) == 3.0
    assert mul_eqn.invars == (v1, v2)
    assert jaxpr.outvars == (v3,)
    assert all(isinstance(v, Var) for v in (v1, v2, v3))
    assert jaxpr.constvars == ()


def test_eval_jaxpr_of_foo() -> None:
    # print(eval_jaxpr(build_jaxpr(foo, 1), (2.0,))) -> 10.0
    closed = jt.make_jaxpr(foo)(2.0)
    (out,) = eval_jaxpr(closed.jaxpr, closed.consts, jnp.asarray(2.0))
    assert as_float(out) == 10.0
    (out,) = jaxpr_as_fun(closed)(jnp.asarray(2.0))
    assert as_float(out) == 10.0


def test_eval_jaxpr_accepts_python_scalars() -> None:
    closed = jt.make_jaxpr(foo)(2.0)
    (out,) = eval_jaxpr(closed.jaxpr, closed.consts, 2.0)
    assert as_float(out) == 10.0


# === the round trip: Python -> jaxpr -> interpretable Python ===


def round_trip(x: ArrayLike) -> Array:
    # jnp.asarray: only for n = 0 below, where x is a Python float (see the
    # xfail above); under transformations x is already a tracer.
    x = jnp.asarray(x)
    closed = jt.make_jaxpr(foo)(x)
    (out,) = eval_jaxpr(closed.jaxpr, closed.consts, x)
    return out


def test_round_trip_jvp() -> None:
    # print(jvp(lambda x: eval_jaxpr(build_jaxpr(foo, 1), (x,)), 2.0, 1.0)) -> (10.0, 7.0)
    primal, tangent = jt.jvp(round_trip, (2.0,), (1.0,))
    assert (as_float(primal), as_float(tangent)) == (10.0, 7.0)


def test_round_trip_higher_order() -> None:
    assert [as_float(nth_order_derivative(n, round_trip, 2.0)) for n in range(4)] == [10.0, 7.0, 2.0, 0.0]


def test_round_trip_vmap() -> None:
    xs = jnp.arange(4.0)
    out = jt.vmap(round_trip)(xs)
    np.testing.assert_array_equal(np.asarray(out), [0.0, 4.0, 10.0, 18.0])
    def round_trip_derivative(x: Array) -> Any:
        return derivative(round_trip, x)

    tangents = jt.vmap(round_trip_derivative)(xs)
    np.testing.assert_array_equal(np.asarray(tangents), [3.0, 5.0, 7.0, 9.0])


def test_make_jaxpr_of_round_trip_is_foos_jaxpr() -> None:
    assert str(jt.make_jaxpr(round_trip)(2.0)) == FOO_JAXPR
    assert jt.make_jaxpr(round_trip)(2.0).jaxpr == jt.make_jaxpr(foo)(2.0).jaxpr


def test_make_jaxpr_of_jvp_of_round_trip() -> None:
    def jvp_of_round_trip(x: Array) -> tuple[Array, Array]:
        return jt.jvp(round_trip, (x,), (jnp.ones_like(x),))

    closed = jt.make_jaxpr(jvp_of_round_trip)(jnp.asarray(2.0))
    assert isinstance(closed, ClosedJaxpr)
    check_closed_jaxpr(closed)
    assert closed.in_avals == jt.make_jaxpr(foo)(2.0).in_avals
    assert [a.str_short() for a in closed.out_avals] == ["f32[]", "f32[]"]
    primal, tangent = jaxpr_as_fun(closed)(jnp.asarray(2.0))
    assert (as_float(primal), as_float(tangent)) == (10.0, 7.0)


def test_make_jaxpr_of_vmap_of_round_trip() -> None:
    closed = jt.make_jaxpr(jt.vmap(round_trip))(jnp.arange(3.0))
    check_closed_jaxpr(closed)
    assert str(closed) == (
        "{ lambda ; a:f32[3]. let\n"
        "    b:f32[3] = add a 3.0:f32[]\n"
        "    c:f32[3] = mul a b\n"
        "  in (c,) }"
    )
    (out,) = jaxpr_as_fun(closed)(jnp.arange(3.0))
    np.testing.assert_array_equal(np.asarray(out), [0.0, 4.0, 10.0])
