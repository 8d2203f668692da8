"""``jaxtyped.test_util.check_grads``: passes on correct derivatives and
fails, naming the mode and the order, on wrong ones.

Wrong derivatives come from tiny primitives defined in the tests, whose
``jvp`` or ``transpose`` rule is deliberately off, so that a checker that
compares nothing cannot pass.
"""

import doctest
from dataclasses import dataclass
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np
import pytest
from typing_extensions import override

import jaxtyped._src.test_util as test_util_module
import jaxtyped.numpy as jnp
from jaxtyped import custom_vjp, lax
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.avals import ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped.errors import JaxtypedValueError
from jaxtyped.test_util import check_grads

X = np.array([0.3, -1.2, 2.0], np.float32)


def unary(f: Callable[[Array], Any]) -> Callable[..., Any]:
    """Types a lambda's parameter for the checker's ``Callable[..., Any]``."""
    return f


# === correct functions pass ===


def test_docstring_example_runs() -> None:
    failures, tried = doctest.testmod(test_util_module, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert tried > 0 and failures == 0


@pytest.mark.parametrize("order", [1, 2])
def test_passes_on_a_correct_function(order: int) -> None:
    check_grads(unary(lambda x: jnp.sin(x) * jnp.exp(x)), (X,), order=order)


def test_passes_on_pytrees_and_several_arguments() -> None:
    def f(params: dict[str, Any], x: Array, scale: float) -> tuple[Array, dict[str, Array]]:
        w, (b,) = params["w"], params["b"]
        y = jnp.tanh(x @ w + b) * scale
        return y, {"norm": jnp.sum(y * y)}

    params = {"w": np.arange(6.0, dtype=np.float32).reshape(3, 2) / 6, "b": (np.array([0.1, -0.2], np.float32),)}
    check_grads(f, (params, X, 1.5), order=2)


def test_passes_with_integer_inputs_and_outputs_held_fixed() -> None:
    def f(x: Array, n: Array) -> tuple[Array, Array]:
        return jnp.sin(x) * n, n * 2

    check_grads(f, (X, np.array([1, 2, 3], np.int32)), order=2)


def test_passes_on_complex_functions() -> None:
    z = np.array([0.5 + 1j, -1.0 + 0.2j], np.complex64)
    check_grads(unary(lambda z: jnp.sin(z) * jnp.conj(z)), (z,), order=2)
    check_grads(unary(lambda z: jnp.abs(z)), (z,), order=2)


def test_passes_in_float64(x64: None) -> None:
    check_grads(unary(lambda x: jnp.log1p(x * x) / (1 + x)), (X.astype(np.float64),), order=2)


@pytest.mark.parametrize("modes", [("fwd",), ("rev",), ["fwd", "rev"]])
def test_modes(modes: Any) -> None:
    check_grads(unary(lambda x: x * x * x), (X,), order=2, modes=modes)


def test_rejects_invalid_arguments() -> None:
    with pytest.raises(JaxtypedValueError, match="order"):
        check_grads(jnp.sin, (X,), order=0)
    with pytest.raises(JaxtypedValueError, match="modes"):
        check_grads(jnp.sin, (X,), order=1, modes=("backward",))
    with pytest.raises(JaxtypedValueError, match="modes"):
        check_grads(jnp.sin, (X,), order=1, modes="fwd")


# === wrong derivatives fail ===


def _triple_primitive(jvp_factor: float, transpose_factor: float) -> Primitive:
    """``y = 3 x`` whose jvp is ``jvp_factor * triple(t)`` and whose
    transpose is ``transpose_factor * triple(ct)``: right with factors 1; a
    wrong jvp factor alone still has a consistent transpose (the factor is
    a ``mul``, transposed by its own rule)."""

    @dataclass(frozen=True, slots=True)
    class Triple(Primitive):
        name: ClassVar[str] = "test_triple"

        @override
        def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
            return avals

        @override
        def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
            return (np.multiply(args[0], np.asarray(3, args[0].dtype)),)

        @override
        def jvp(
            self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
        ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
            (x,), (t,) = primals, tangents
            assert not isinstance(t, Zero)
            return (bind1(self, x),), (lax.mul(bind1(self, t), np.float32(jvp_factor)),)

        @override
        def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
            (ct,), (x,) = cts, args
            assert not isinstance(ct, Zero) and isinstance(x, UndefinedPrimal)
            return (lax.mul(bind1(self, ct), np.float32(transpose_factor)),)

        @override
        def lower(
            self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
        ) -> tuple[HloValue, ...]:
            # Only so that the lowering census, which walks every subclass
            # of Primitive in the process, finds a rule.
            return (ctx.op1("stablehlo.multiply", (args[0], ctx.full_like(3, args[0])), out_avals[0]),)

    return Triple()


def _call(prim: Primitive) -> Any:
    def f(x: Array) -> Array:
        return bind1(prim, jnp.asarray(x))

    return f


def test_the_test_primitive_is_right_with_factor_one() -> None:
    check_grads(_call(_triple_primitive(1.0, 1.0)), (X,), order=2)


def test_a_wrong_jvp_fails_in_forward_mode() -> None:
    f = _call(_triple_primitive(1.05, 1.0))
    with pytest.raises(AssertionError, match=r"fwd mode, order 1 \(JVP\): tangent output: max difference"):
        check_grads(f, (X,), order=1, modes=("fwd",))


def test_a_wrong_jvp_fails_in_reverse_mode_alone() -> None:
    # The transpose rule is right, so vjp (the transpose of the jvp's
    # linear map, scaling included) agrees with the wrong jvp: only finite
    # differences can tell.
    f = _call(_triple_primitive(1.05, 1.0))
    with pytest.raises(AssertionError, match=r"rev mode, order 1 \(VJP\): .* by finite differences: max difference"):
        check_grads(f, (X,), order=1, modes=("rev",))


def test_a_wrong_transpose_fails_in_reverse_mode_only() -> None:
    f = _call(_triple_primitive(1.0, 0.9))
    check_grads(f, (X,), order=2, modes=("fwd",))
    with pytest.raises(AssertionError, match=r"rev mode, order 1 \(VJP\): .* with J v from jvp: max difference"):
        check_grads(f, (X,), order=1, modes=("fwd", "rev"))
    # Reverse mode alone compares with finite differences only, as JAX's check_vjp.
    with pytest.raises(AssertionError, match=r"rev mode, order 1 \(VJP\): .* by finite differences: max difference"):
        check_grads(f, (X,), order=1, modes=("rev",))


def test_reverse_mode_alone_needs_no_forward_mode() -> None:
    # A custom_vjp function has no forward mode; JAX's check_grads(modes=["rev"])
    # checks it against finite differences, and so does ours.
    @custom_vjp
    def cube(x: Array) -> Array:
        return x**3

    def cube_fwd(x: Array) -> tuple[Array, Array]:
        return x**3, x

    def cube_bwd(x: Array, g: Array) -> tuple[Array]:
        return (3 * x**2 * g,)

    cube.defvjp(cube_fwd, cube_bwd)
    check_grads(cube, (X,), order=2, modes=("rev",))

    @custom_vjp
    def wrong(x: Array) -> Array:
        return x**3

    wrong.defvjp(cube_fwd, lambda x, g: (2 * x**2 * g,))
    with pytest.raises(AssertionError, match=r"rev mode, order 1 \(VJP\): .* by finite differences"):
        check_grads(wrong, (X,), order=1, modes=("rev",))


def test_a_wrong_second_derivative_fails_at_order_two_only() -> None:
    wrong = _triple_primitive(1.1, 1.1)  # a wrong derivative of 3x

    def f(x: Array) -> Array:
        # x**2 * 1.5, differentiated as 3 x t through `wrong`: right at
        # first order, wrong at second.
        return CubeLike.apply(jnp.asarray(x), wrong)

    check_grads(f, (X,), order=1)
    with pytest.raises(AssertionError, match=r"fwd mode, order 2 \(JVP of JVP\)"):
        check_grads(f, (X,), order=2, modes=("fwd",))
    with pytest.raises(AssertionError, match=r"rev mode, order 2 \(VJP of VJP\)"):
        check_grads(f, (X,), order=2, modes=("rev",))


class CubeLike:
    """``1.5 x**2`` as a primitive whose jvp multiplies the tangent by a
    given (possibly wrong) primitive applied to ``x``."""

    @staticmethod
    def apply(x: Array, derivative: Primitive) -> Array:
        @dataclass(frozen=True, slots=True)
        class HalfSquare(Primitive):
            name: ClassVar[str] = "test_scaled_square"

            @override
            def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
                return avals

            @override
            def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
                x = args[0]
                return (np.multiply(np.multiply(x, x), np.asarray(1.5, x.dtype)),)

            @override
            def jvp(
                self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
            ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
                (x,), (t,) = primals, tangents
                assert not isinstance(t, Zero)
                return (bind1(self, x),), (lax.mul(t, bind1(derivative, x)),)

            @override
            def lower(
                self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
            ) -> tuple[HloValue, ...]:
                # Only for the lowering census (see _triple_primitive).
                square = ctx.op1("stablehlo.multiply", (args[0], args[0]), out_avals[0])
                return (ctx.op1("stablehlo.multiply", (square, ctx.full_like(1.5, square)), out_avals[0]),)

        return bind1(HalfSquare(), x)


def test_the_message_names_mode_order_and_difference() -> None:
    f = _call(_triple_primitive(2.0, 2.0))
    with pytest.raises(AssertionError) as info:
        check_grads(f, (X,), order=1, modes=("fwd",))
    message = str(info.value)
    assert "fwd mode" in message and "order 1" in message and "max difference" in message
    # The expected tangent is 3 v, ours 6 v: the difference is 3 |v| at most.
    assert "got:" in message and "expected:" in message


def test_tolerances_can_be_loosened() -> None:
    f = _call(_triple_primitive(1.0005, 1.0005))
    with pytest.raises(AssertionError):
        check_grads(f, (X,), order=1, atol=1e-6, rtol=1e-6)
    check_grads(f, (X,), order=1, atol={np.float32: 1e-2}, rtol={np.float32: 1e-2})


def test_eps_is_used() -> None:
    # With a huge step, finite differences of a cubic are off by eps**2.
    with pytest.raises(AssertionError, match="fwd mode"):
        check_grads(unary(lambda x: x * x * x), (X,), order=1, modes=("fwd",), eps=0.5)
    check_grads(unary(lambda x: x * x * x), (X,), order=1, modes=("fwd",), eps=1e-3)
