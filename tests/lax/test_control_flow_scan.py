"""``scan`` and ``map`` against real JAX on the same programs: eager,
``jit``, ``jvp``, ``grad``/``vjp`` (with respect to the initial carry, the
scanned inputs and closed-over consts), ``vmap`` (batched ``xs``, batched
init, batched consts, ``in_axes`` other than 0), ``linearize``,
``reverse``, ``unroll``, ``length`` without ``xs``, pytree ``xs``/``ys``,
``None`` outputs, lengths 0 and 1, integer carries, second-order
derivatives, nested scans, ``disable_jit``, lowering and user errors.

Each program is written once as a function of an :class:`Impl` (the
``lax``/``numpy``/API namespaces) and run on both libraries.
"""

import functools
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import JaxtypedTypeError, JaxtypedValueError
from oracle import assert_same as oracle_assert_same

jax: Any = pytest.importorskip("jax")
jax_numpy: Any = pytest.importorskip("jax.numpy")


class Impl(NamedTuple):
    """One library's namespaces, so that a program is written once."""

    api: Any  # ``jaxtyped`` or ``jax``
    lax: Any
    np: Any


OURS = Impl(jt, jt.lax, jnp)
JAX = Impl(jax, jax.lax, jax_numpy)

T = 7  # not divisible by the unroll factors 2 and 3
RNG = np.random.RandomState(1)
H0 = RNG.randn(3).astype(np.float32)
W = (RNG.randn(3, 3) * 0.5).astype(np.float32)
XS: dict[str, Any] = {"a": RNG.randn(T, 3).astype(np.float32), "b": (RNG.randn(T).astype(np.float32),)}
HB = RNG.randn(4, 3).astype(np.float32)
WB = (RNG.randn(4, 3, 3) * 0.5).astype(np.float32)
XSB: dict[str, Any] = {"a": RNG.randn(4, T, 3).astype(np.float32), "b": (RNG.randn(4, T).astype(np.float32),)}
SEQ = np.arange(1.0, 5.0, dtype=np.float32)
TWO = np.float32(2.0)


def xs_lane(k: int) -> dict[str, Any]:
    """Lane ``k`` of the batched ``XSB``, shaped like ``XS``."""
    return {"a": XSB["a"][k], "b": (XSB["b"][0][k],)}


assert_same = functools.partial(oracle_assert_same, tree=True, atol=1e-5)


def oracle(thunk: Callable[[], Any]) -> Any:
    """JAX's result of ``thunk`` (a JAX computation), compiled as one
    program: JAX's own eager transformations of loops are slow."""
    return jax.jit(thunk)()


def fn1(f: Callable[[Any], Any]) -> Callable[..., Any]:
    """``f`` as is: gives a lambda's parameter the type Any where the
    callee (JAX's, or a transformation) does not say."""
    return f


def fn2(f: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    """As :func:`fn1`, for two parameters."""
    return f


# === programs ===


def rnn(impl: Impl, reverse: bool = False, unroll: int | bool = 1) -> Callable[[Any, Any, Any], Any]:
    """A tanh recurrence over pytree ``xs`` with pytree ``ys`` (a None
    leaf included); ``w`` is closed over by the body."""

    def f(h: Any, xs: Any, w: Any) -> Any:
        def body(c: Any, x: Any) -> Any:
            h2 = impl.np.tanh(impl.np.dot(w, c) + x["a"] * x["b"][0])
            return h2, {"y": (h2 * h2).sum(), "pair": (c * x["a"], None)}

        return impl.lax.scan(body, h, xs, reverse=reverse, unroll=unroll)

    return f


def rnn_loss(impl: Impl, reverse: bool = False, unroll: int | bool = 1) -> Callable[[Any, Any, Any], Any]:
    def loss(h: Any, xs: Any, w: Any) -> Any:
        final, ys = rnn(impl, reverse, unroll)(h, xs, w)
        return ys["y"].sum() + (final * final).sum() + ys["pair"][0][1].sum()

    return loss


# === values: eager and jit, reverse, unroll ===


@pytest.mark.parametrize("unroll", [1, 2, 3, True], ids=["unroll1", "unroll2", "unroll3", "unrollTrue"])
@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "reverse"])
def test_scan_matches_jax(unroll: int | bool, reverse: bool) -> None:
    assert_same(rnn(OURS, reverse, unroll)(H0, XS, W), rnn(JAX, reverse, unroll)(H0, XS, W))


@pytest.mark.parametrize("reverse, unroll", [(False, 1), (True, 2), (False, True)])
def test_jit_of_scan_matches_jax(reverse: bool, unroll: int | bool) -> None:
    assert_same(jt.jit(rnn(OURS, reverse, unroll))(H0, XS, W), jax.jit(rnn(JAX, reverse, unroll))(H0, XS, W))


def test_reverse_scans_from_the_last_slice() -> None:
    # Independently of JAX: reverse=True is the forward scan of the
    # flipped xs, with ys flipped back.
    f = fn2(lambda c, x: (c * 0.5 + x, c))
    carry_r, ys_r = jt.lax.scan(f, np.float32(1.0), SEQ, reverse=True)
    carry_f, ys_f = jt.lax.scan(f, np.float32(1.0), SEQ[::-1].copy())
    np.testing.assert_allclose(np.asarray(carry_r), np.asarray(carry_f))
    np.testing.assert_allclose(np.asarray(ys_r), np.asarray(ys_f)[::-1])


@pytest.mark.parametrize("unroll, whiles, calls", [(1, 1, 0), (3, 1, 4), (True, 0, T)], ids=["1", "3", "True"])
def test_lowering_unrolls_the_body(unroll: int | bool, whiles: int, calls: int) -> None:
    text = jt.jit(rnn(OURS, False, unroll)).lower(H0, XS, W).as_text()
    assert text.count("stablehlo.while") == whiles
    # unroll=3 over 7 steps: three steps per trip, and the odd one after;
    # an unrolled body is one private function called once per step (as
    # JAX's closed_call), so the module holds the body once.
    assert len(re.findall(r"call @closed_call\b", text)) == calls
    assert text.count("stablehlo.tanh") == 1
    if whiles:
        assert "stablehlo.dynamic_slice" in text and "stablehlo.dynamic_update_slice" in text


# === differentiation ===


def test_scan_jvp_matches_jax() -> None:
    tangents = (HB[0], xs_lane(0), WB[0])
    ours = jt.jvp(rnn(OURS), (H0, XS, W), tangents)
    theirs = oracle(lambda: jax.jvp(rnn(JAX), (H0, XS, W), tangents))
    assert_same(ours, theirs)


@pytest.mark.parametrize("reverse, unroll", [(False, 1), (True, 2)])
def test_scan_grad_wrt_init_xs_and_consts_matches_jax(reverse: bool, unroll: int | bool) -> None:
    ours = jt.grad(rnn_loss(OURS, reverse, unroll), argnums=(0, 1, 2))(H0, XS, W)
    theirs = oracle(lambda: jax.grad(rnn_loss(JAX, reverse, unroll), argnums=(0, 1, 2))(H0, XS, W))
    assert_same(ours, theirs)


def test_scan_vjp_of_every_output_matches_jax() -> None:
    ct = (HB[1], {"y": XSB["b"][0][1], "pair": (XSB["a"][1], None)})
    out, pullback = jt.vjp(rnn(OURS), H0, XS, W)

    def theirs() -> Any:
        out_j, pullback_j = jax.vjp(rnn(JAX), H0, XS, W)
        return out_j, pullback_j(ct)

    assert_same((out, pullback(ct)), oracle(theirs))


def test_scan_linearize_matches_jax() -> None:
    t = (HB[2], xs_lane(2), WB[2])
    out, lin = jt.linearize(rnn(OURS), H0, XS, W)

    def theirs() -> Any:
        out_j, lin_j = jax.linearize(rnn(JAX), H0, XS, W)
        return out_j, lin_j(*t)

    assert_same((out, lin(*t)), oracle(theirs))


def test_scan_linearize_with_a_tangent_that_appears_in_the_loop() -> None:
    # c[1]'s initial tangent is zero and becomes non-zero through c[0].
    def program(impl: Impl) -> Callable[[Any], Any]:
        init = (np.float32(1.0), np.float32(2.0))
        return fn1(lambda s: impl.lax.scan(fn2(lambda c, x: ((c[0] * s, c[0] + c[1]), c[1] * x)), init, SEQ))

    out, lin = jt.linearize(program(OURS), np.float32(0.5))
    out_j, lin_j = jax.linearize(program(JAX), np.float32(0.5))
    assert_same(out, out_j)
    assert_same(lin(np.float32(1.0)), lin_j(np.float32(1.0)))


def test_second_order_derivatives_through_scan_match_jax() -> None:
    def inner(impl: Impl) -> Callable[[Any], Any]:
        return lambda h: rnn_loss(impl)(h, XS, W)

    assert_same(jt.hessian(inner(OURS))(H0), oracle(lambda: jax.hessian(inner(JAX))(H0)), rtol=1e-4, atol=1e-5)

    def grad_of_grad(impl: Impl) -> Any:
        g = impl.api.grad(fn1(lambda s: impl.api.grad(fn1(lambda w: rnn_loss(impl)(H0, XS, w * s)))(W).sum()))
        return g(np.float32(0.7))

    assert_same(grad_of_grad(OURS), oracle(lambda: grad_of_grad(JAX)), rtol=1e-4)


def test_int_carry_alongside_float_carry_under_grad() -> None:
    def program(impl: Impl) -> Callable[[Any], Any]:
        def f(s: Any) -> Any:
            def body(c: Any, x: Any) -> Any:
                i, v = c
                return (i + 1, v * x * s + i), i * 2

            (count, v), ys = impl.lax.scan(body, (np.int32(0), np.float32(1.0)), SEQ)
            return v + count, ys

        return f

    assert_same(program(OURS)(np.float32(0.5)), program(JAX)(np.float32(0.5)))
    grad_o = jt.grad(fn1(lambda s: program(OURS)(s)[0]))(np.float32(0.5))
    assert_same(grad_o, oracle(lambda: jax.grad(fn1(lambda s: program(JAX)(s)[0]))(np.float32(0.5))))
    jac_o = jt.jacfwd(fn1(lambda s: program(OURS)(s)[0]))(np.float32(0.5))
    np.testing.assert_allclose(np.asarray(jac_o), np.asarray(grad_o), rtol=1e-6)


# === vmap ===


VMAP_CASES: list[Any] = [
    pytest.param((None, 0, None), (H0, XSB, W), id="batched-xs"),
    pytest.param((0, None, None), (HB, XS, W), id="batched-init"),
    pytest.param((None, None, 0), (H0, XS, WB), id="batched-consts"),
    pytest.param((0, 0, 0), (HB, XSB, WB), id="all"),
    pytest.param(
        (None, {"a": 2, "b": (1,)}, None),
        (H0, {"a": np.moveaxis(XSB["a"], 0, 2), "b": (np.moveaxis(XSB["b"][0], 0, 1),)}, W),
        id="xs-in-axes-not-0",
    ),
    pytest.param((1, None, 2), (HB.T, XS, np.moveaxis(WB, 0, 2)), id="init-and-consts-in-axes-not-0"),
]


@pytest.mark.parametrize("in_axes, args", VMAP_CASES)
def test_vmap_of_scan_matches_jax(in_axes: tuple[Any, ...], args: tuple[Any, ...]) -> None:
    theirs = oracle(lambda: jax.vmap(rnn(JAX), in_axes=in_axes)(*args))
    assert_same(jt.vmap(rnn(OURS), in_axes=in_axes)(*args), theirs)


def test_vmap_of_scan_with_out_axes_and_jit() -> None:
    ours = jt.jit(jt.vmap(rnn(OURS), in_axes=(0, None, None), out_axes=1))(HB, XS, W)
    theirs = jax.jit(jax.vmap(rnn(JAX), in_axes=(0, None, None), out_axes=1))(HB, XS, W)
    assert_same(ours, theirs)


def test_batched_xs_make_an_unbatched_carry_batched() -> None:
    # The carry starts unbatched; the batched xs batch it from the first
    # step on (the fixed point), and the scan carries it batched.
    text = str(jt.make_jaxpr(jt.vmap(rnn(OURS), in_axes=(None, 0, None)))(H0, XSB, W))
    # Outputs of the scan: the batched carry, then ys with the batch second.
    assert re.search(r"\w+:f32\[4,3\] \w+:f32\[7,4,3\] \w+:f32\[7,4\] = scan\[", text), text
    ours = jt.vmap(rnn(OURS), in_axes=(None, 0, None))(H0, XSB, W)
    for k in range(4):
        one = rnn(OURS)(H0, xs_lane(k), W)
        np.testing.assert_allclose(np.asarray(ours[0][k]), np.asarray(one[0]), rtol=1e-6)


@pytest.mark.parametrize("composition", ["jit(vmap(grad))", "vmap(jit(grad))", "grad(jit)"])
def test_compositions_of_grad_of_scan_match_jax(composition: str) -> None:
    def build(impl: Impl) -> Any:
        api = impl.api
        per_example = api.grad(rnn_loss(impl), argnums=2)
        if composition == "jit(vmap(grad))":
            return api.jit(api.vmap(per_example, in_axes=(0, 0, None)))(HB, XSB, W)
        if composition == "vmap(jit(grad))":
            return api.vmap(api.jit(per_example), in_axes=(0, 0, None))(HB, XSB, W)
        return api.grad(api.jit(rnn_loss(impl)), argnums=(0, 2))(H0, XS, W)

    assert_same(build(OURS), oracle(lambda: build(JAX)))


# === shapes of inputs and outputs ===


def test_length_without_xs_and_carry_only_scans() -> None:
    def program(impl: Impl) -> Any:
        counted = impl.lax.scan(fn2(lambda c, _: (c * TWO + 1.0, c)), np.float32(1.0), None, length=4)
        pair = (np.float32(0.0), np.float32(1.0))
        carry_only = impl.lax.scan(fn2(lambda c, x: ((c[0] + x, c[1] * x), None)), pair, SEQ)
        empty_ys = impl.lax.scan(fn2(lambda c, x: (c + x, ())), np.float32(0.0), SEQ)
        return counted, carry_only, empty_ys

    ours, theirs = program(OURS), program(JAX)
    assert_same(ours, theirs)
    assert ours[1][1] is None and ours[2][1] == ()


def test_multiple_xs_and_ys_as_pytrees() -> None:
    def program(impl: Impl) -> Any:
        def body(c: Any, x: Any) -> Any:
            (a, (b, d)) = x
            return c + a * b, {"ab": a * b, "rest": [d["k"] + c, (a - c,)]}

        xs = (SEQ, (SEQ * 2, {"k": SEQ[:, None] * np.ones((1, 2), np.float32)}))
        return impl.lax.scan(body, np.float32(0.5), xs)

    assert_same(program(OURS), program(JAX))


@pytest.mark.parametrize("n", [0, 1], ids=["length0", "length1"])
@pytest.mark.parametrize("mode", ["eager", "jit", "grad"])
def test_scans_of_length_zero_and_one(n: int, mode: str) -> None:
    def program(impl: Impl) -> Callable[[Any, Any], Any]:
        def f(s: Any, xs: Any) -> Any:
            final, ys = impl.lax.scan(fn2(lambda c, x: (c * s + x, {"c": c, "x": x * s})), s, xs)
            return final, ys

        return f

    xs = SEQ[:n]
    s = np.float32(1.5)
    if mode == "eager":
        assert_same(program(OURS)(s, xs), program(JAX)(s, xs))
    elif mode == "jit":
        assert_same(jt.jit(program(OURS))(s, xs), jax.jit(program(JAX))(s, xs))
    else:

        def loss(impl: Impl) -> Callable[[Any], Any]:
            return lambda t: program(impl)(t, xs)[0] + program(impl)(t, xs)[1]["x"].sum()

        assert_same(jt.grad(loss(OURS))(s), oracle(lambda: jax.grad(loss(JAX))(s)))


# === nesting ===


def nested(impl: Impl) -> Callable[[Any, Any], Any]:
    """A scan whose body scans the whole sequence again with the outer
    carry closed over (an outer tracer inside the inner body)."""

    def f(s: Any, xs: Any) -> Any:
        def outer(c: Any, x: Any) -> Any:
            inner_final, inner_ys = impl.lax.scan(fn2(lambda c2, y: (c2 * 0.5 + y * c, c2)), x, xs)
            return c * s + inner_final, inner_ys.sum()

        return impl.lax.scan(outer, np.float32(1.0), xs)

    return f


@pytest.mark.parametrize("transform", ["eager", "jit", "grad", "vmap", "jvp"])
def test_scan_inside_scan_matches_jax(transform: str) -> None:
    def run(impl: Impl) -> Any:
        api, f = impl.api, nested(impl)
        s = np.float32(0.7)
        if transform == "eager":
            return f(s, SEQ)
        if transform == "jit":
            return api.jit(f)(s, SEQ)
        if transform == "grad":
            return api.grad(fn2(lambda t, xs: f(t, xs)[1].sum()), argnums=(0, 1))(s, SEQ)
        if transform == "vmap":
            return api.vmap(f, in_axes=(0, None))(SEQ * 0.2, SEQ)
        return api.jvp(f, (s, SEQ), (np.float32(1.0), SEQ))

    assert_same(run(OURS), oracle(lambda: run(JAX)), rtol=2e-5)


# === map ===


def map_program(impl: Impl) -> Callable[[Any, Any], Any]:
    def f(w: Any, xs: Any) -> Any:
        return impl.lax.map(fn1(lambda x: {"tanh": impl.np.tanh(impl.np.dot(w, x[0])), "sum": x[1].sum()}), xs)

    return f


@pytest.mark.parametrize("transform", ["eager", "jit", "grad", "vmap"])
def test_map_matches_jax(transform: str) -> None:
    xs = (XSB["a"][0], XSB["a"][1])

    def run(impl: Impl) -> Any:
        api, f = impl.api, map_program(impl)
        if transform == "eager":
            return f(W, xs)
        if transform == "jit":
            return api.jit(f)(W, xs)
        if transform == "grad":
            return api.grad(fn2(lambda w, x: f(w, x)["tanh"].sum() * f(w, x)["sum"].sum()), argnums=(0, 1))(W, xs)
        return api.vmap(f, in_axes=(0, None))(WB, xs)

    assert_same(run(OURS), oracle(lambda: run(JAX)))


# === disable_jit ===


@pytest.fixture
def no_compiled_loops(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make the compiled eager path of scan (and while) fail, to prove a
    loop ran op by op in Python."""
    from jaxtyped._src.lax.control_flow import loops, scan

    def fail(*_: object) -> object:
        raise AssertionError("a loop was compiled under disable_jit")

    monkeypatch.setattr(loops, "evaluate_compiled", fail)
    monkeypatch.setattr(scan, "evaluate_compiled", fail)
    yield


@pytest.mark.usefixtures("no_compiled_loops")
@pytest.mark.parametrize("reverse, unroll", [(False, 1), (True, 2)])
def test_disable_jit_runs_scan_op_by_op_with_the_same_values(reverse: bool, unroll: int) -> None:
    with jt.disable_jit():
        ours = rnn(OURS, reverse, unroll)(H0, XS, W)
        grads = jt.grad(rnn_loss(OURS, reverse, unroll), argnums=(0, 2))(H0, XS, W)
        mapped = jt.jit(map_program(OURS))(W, (XSB["a"][0], XSB["a"][1]))
    assert_same(ours, rnn(JAX, reverse, unroll)(H0, XS, W))
    assert_same(grads, oracle(lambda: jax.grad(rnn_loss(JAX, reverse, unroll), argnums=(0, 2))(H0, XS, W)))
    assert_same(mapped, map_program(JAX)(W, (XSB["a"][0], XSB["a"][1])))


# === weak types of initial carries ===


def weak_case(body: Callable[[Any, Any], Any], init: Any, xs: Any) -> Callable[[Any], Any]:
    """A scan of ``body`` (3 steps without ``xs``), given the ``lax``
    module to run it with."""
    return lambda lax: lax.scan(body, init, xs, length=None if xs is not None else 3)


SCAN_WEAK_CASES: list[Any] = [
    pytest.param(weak_case(fn2(lambda c, x: (c + x, c * 2)), 0, SEQ), id="weak-int-plus-x"),
    pytest.param(weak_case(fn2(lambda c, x: (c + x, None)), np.int32(0), SEQ.astype(np.int32)), id="strong-int"),
    pytest.param(weak_case(fn2(lambda c, x: (c + 1, c)), 0, None), id="weak-int-stays-weak"),
    pytest.param(weak_case(fn2(lambda c, x: (2.0, c)), np.float32(1.0), SEQ), id="strong-init-weak-body"),
    pytest.param(weak_case(fn2(lambda c, x: (c * 2.0, c)), 1.0, SEQ), id="weak-stays-weak"),
    pytest.param(weak_case(fn2(lambda c, x: (c + 1.0, c)), 0, SEQ), id="weak-int-plus-weak-float"),
    pytest.param(weak_case(fn2(lambda c, x: (c * x, c)), 1.0, SEQ), id="weak-f32-times-f32"),
]


@pytest.mark.parametrize("program", SCAN_WEAK_CASES)
def test_weak_initial_carries_are_promoted_as_in_jax(program: Callable[[Any], Any]) -> None:
    assert_same(program(jt.lax), program(jax.lax))


# === errors ===


def both_raise(ours_type: type[Exception], jax_type: type[Exception], run: Callable[[Impl], Any]) -> str:
    """Run on both libraries; both must raise; the message of ours."""
    with pytest.raises(jax_type):
        run(JAX)
    with pytest.raises(ours_type) as ours:
        run(OURS)
    if jax_type is not IndexError:  # JAX's IndexError is an accident of its implementation
        assert isinstance(ours.value, jax_type)
    return str(ours.value)


def keep(c: Any, x: Any) -> tuple[Any, None]:
    return c, None


def test_xs_with_different_leading_sizes() -> None:
    msg = both_raise(
        JaxtypedValueError, ValueError, lambda i: i.lax.scan(keep, 0.0, (SEQ, np.zeros(3, np.float32)))
    )
    assert "xs[0]" in msg and "xs[1]" in msg and "4" in msg and "3" in msg and "f32[3]" in msg


def test_length_that_does_not_match_xs() -> None:
    msg = both_raise(JaxtypedValueError, ValueError, lambda i: i.lax.scan(keep, 0.0, SEQ, length=3))
    assert "length=3" in msg and "4" in msg


def test_no_xs_and_no_length() -> None:
    msg = both_raise(JaxtypedValueError, ValueError, lambda i: i.lax.scan(keep, 0.0, None))
    assert "length" in msg


def test_scalar_x() -> None:
    # JAX fails with an IndexError from inside its implementation.
    msg = both_raise(
        JaxtypedValueError, IndexError, lambda i: i.lax.scan(keep, 0.0, {"k": np.float32(1.0)})
    )
    assert "xs['k']" in msg and "f32[]" in msg


@pytest.mark.parametrize("body", [fn2(lambda c, x: c + x), fn2(lambda c, x: (c, x, x))], ids=["one-output", "triple"])
def test_f_not_returning_a_pair(body: Callable[[Any, Any], Any]) -> None:
    msg = both_raise(JaxtypedTypeError, TypeError, lambda i: i.lax.scan(body, np.float32(0.0), SEQ))
    assert "pair" in msg and "f (" in msg


def test_carry_type_change_names_the_path_and_both_types() -> None:
    def body(c: Any, x: Any) -> Any:
        return {"n": c["n"] + 1, "h": (c["h"][0] + x, c["h"][1].astype(np.int32))}, None

    init = {"n": np.int32(0), "h": (np.float32(0.0), np.zeros(2, np.float32))}
    msg = both_raise(JaxtypedTypeError, TypeError, lambda i: i.lax.scan(body, init, SEQ))
    assert "carry['h'][1]" in msg and "f32[2]" in msg and "i32[2]" in msg and "dtypes" in msg


def test_carry_shape_change_names_the_path_and_both_types() -> None:
    body = fn2(lambda c, x: ((c[0], c[1] * x), None))
    xs = np.zeros((4, 2), np.float32)
    msg = both_raise(JaxtypedTypeError, TypeError, lambda i: i.lax.scan(body, (0.0, np.float32(0)), xs))
    assert "carry[1]" in msg and "f32[]" in msg and "f32[2]" in msg and "shapes" in msg


def test_carry_structure_change() -> None:
    body = fn2(lambda c, x: ([c[0], c[1]], None))
    msg = both_raise(JaxtypedTypeError, TypeError, lambda i: i.lax.scan(body, (0.0, 1.0), SEQ))
    assert "structure" in msg


def test_map_of_a_scalar() -> None:
    msg = both_raise(JaxtypedValueError, IndexError, lambda i: i.lax.map(fn1(lambda x: x), np.float32(1.0)))
    assert "scalar" in msg
