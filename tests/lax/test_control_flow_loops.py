"""``while_loop`` and ``fori_loop`` against real JAX on the same programs:
eager, ``jit``, ``jvp``, ``linearize``, ``vmap`` (partly batched carries,
batched predicates whose lanes stop at different iterations, batched
consts of ``cond_fun``/``body_fun``), reverse mode (JAX's error for
dynamic trip counts; ``scan`` for static ``fori_loop`` bounds), weak-type
promotion of initial carries, pytree carries, ``disable_jit``, lowering
and user errors.

Each program is written once as a function of an :class:`Impl` (the
``lax``/``numpy``/API namespaces) and run on both libraries.
"""

import functools
import re
from collections.abc import Callable, Iterator
from typing import Any, NamedTuple, cast

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import DebugTypeError, JaxtypedTypeError, JaxtypedValueError
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

RNG = np.random.RandomState(0)
X3 = RNG.uniform(0.2, 0.9, size=3).astype(np.float32)
XB = RNG.uniform(0.2, 0.9, size=(4, 3)).astype(np.float32)
TWO = np.float32(2.0)

# JAX's message, which ours must repeat word for word.
WHILE_REVERSE_ERROR = (
    "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic "
    "start/stop values. Try using lax.scan, or using fori_loop with static start/stop."
)


# JAX may hand back a carry it did not touch as the Python scalar it was
# given: compared as JAX's array.
assert_same = functools.partial(oracle_assert_same, tree=True)


def fn1(f: Callable[[Any], Any]) -> Callable[..., Any]:
    """``f`` as is: gives a lambda's parameter the type Any where the
    callee (JAX's, or a transformation) does not say."""
    return f


def fn2(f: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    """As :func:`fn1`, for two parameters."""
    return f


# === programs ===


def tanh_loop(impl: Impl) -> Callable[[Any, Any], Any]:
    """A while loop over a pytree carry (a counter, a dict with a None
    leaf, a running total); ``n`` is the trip count, Python or traced."""

    def f(x: Any, n: Any) -> Any:
        def cond(c: Any) -> Any:
            return c[0] < n

        def body(c: Any) -> Any:
            i, state, total = c
            h = impl.np.tanh(state["h"] * 1.5 + x)
            return i + 1, {"h": h, "none": None}, total + (h * h).sum()

        return impl.lax.while_loop(cond, body, (0, {"h": x, "none": None}, 0.0))

    return f


def grow_until(impl: Impl) -> Callable[[Any, Any, Any], Any]:
    """Multiply until a limit: the trip count depends on every argument,
    so a batched one batches the predicate and lanes stop at different
    iterations. ``lim`` is closed over by ``cond_fun``, ``s`` by
    ``body_fun``."""

    def f(x: Any, lim: Any, s: Any) -> Any:
        def cond(c: Any) -> Any:
            return c[1] < lim

        def body(c: Any) -> Any:
            return c[0] + 1, c[1] * s + 0.25, c[2] + impl.np.sin(c[1])

        return impl.lax.while_loop(cond, body, (0, x, x * 0.0))

    return f


def power_loop(impl: Impl) -> Callable[[Any, Any], Any]:
    """``fori_loop`` whose body closes over the differentiated ``x`` and
    uses the loop index."""

    def f(x: Any, upper: Any) -> Any:
        return impl.lax.fori_loop(0, upper, fn2(lambda i, c: c * x + 0.5 * i), x)

    return f


# === while_loop: eager, jit, jvp, linearize ===


@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_while_pytree_carry_matches_jax(mode: str) -> None:
    if mode == "eager":
        ours, theirs = tanh_loop(OURS)(X3, 4), tanh_loop(JAX)(X3, 4)
    else:
        ours, theirs = jt.jit(tanh_loop(OURS))(X3, np.int32(4)), jax.jit(tanh_loop(JAX))(X3, np.int32(4))
    assert_same(ours, theirs)
    assert ours[1]["none"] is None


def test_while_jvp_matches_jax() -> None:
    t = np.ones(3, np.float32)
    ours = jt.jvp(lambda x: tanh_loop(OURS)(x, 3), (X3,), (t,))
    theirs = jax.jvp(fn1(lambda x: tanh_loop(JAX)(x, 3)), (X3,), (t,))
    assert_same(ours, theirs)


def test_jit_of_jvp_of_while_with_traced_trip_count() -> None:
    # The counter's tangent (float0) is an output of the jitted function.
    def ours(x: Any, n: Any) -> Any:
        return jt.jvp(lambda y: tanh_loop(OURS)(y, n), (x,), (x,))

    def theirs(x: Any, n: Any) -> Any:
        return jax.jvp(fn1(lambda y: tanh_loop(JAX)(y, n)), (x,), (x,))

    assert_same(jt.jit(ours)(X3, np.int32(5)), jax.jit(theirs)(X3, np.int32(5)))


def counter_times_x(impl: Impl) -> Callable[[Any], Any]:
    """Every float carry has a tangent from the start."""

    def f(x: Any) -> Any:
        return impl.lax.while_loop(fn1(lambda c: c[0] < 4), fn1(lambda c: (c[0] + 1, c[1] * x + 0.5)), (0, x))

    return f


def tangent_appears_in_loop(impl: Impl) -> Callable[[Any], Any]:
    """The product's initial value is a constant (zero tangent); its
    tangent becomes non-zero in the loop."""

    def f(x: Any) -> Any:
        return impl.lax.while_loop(fn1(lambda c: c[1] < 5), fn1(lambda c: (c[0] * x, c[1] + 1)), (1.0, 0))

    return f


@pytest.mark.parametrize("program", [counter_times_x, tangent_appears_in_loop])
def test_while_linearize_matches_jax(program: Callable[[Impl], Callable[[Any], Any]]) -> None:
    x = np.float32(0.7)
    ours_out, ours_lin = jt.linearize(program(OURS), x)
    theirs_out, theirs_lin = jax.linearize(program(JAX), x)
    assert_same(ours_out, theirs_out)
    for t in (np.float32(1.0), np.float32(-2.5)):
        ours_t, theirs_t = ours_lin(t), theirs_lin(t)
        # JAX's linear function keeps the weak type of the literal 1.0.
        # ours_t is Any, for which the overloads disagree: say object, check the leaves.
        for a, b in zip(jt.tree_util.tree_leaves(cast(object, ours_t)), jax.tree_util.tree_leaves(theirs_t), strict=True):
            assert isinstance(a, jt.Array)
            if a.dtype != jnp.float0:
                np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-5)


def test_linearize_of_while_runs_the_loop_once_now() -> None:
    # The linear function is the loop over tangents only: it stages no
    # primal work, so applying it twice gives the jvp's tangent each time.
    x = np.float32(0.7)
    _, lin = jt.linearize(counter_times_x(OURS), x)
    (_, expected_t) = jt.jvp(counter_times_x(OURS), (x,), (np.float32(3.0),))
    np.testing.assert_allclose(np.asarray(lin(np.float32(3.0))[1]), np.asarray(expected_t[1]), rtol=1e-6)


# === while_loop: vmap ===


def test_vmap_while_batched_init_in_some_carries_only() -> None:
    # Only h (and the total computed from it) become batched; the counter
    # and the predicate stay unbatched.
    ours = jt.vmap(fn1(lambda x: tanh_loop(OURS)(x, 3)))(XB)
    theirs = jax.vmap(fn1(lambda x: tanh_loop(JAX)(x, 3)))(XB)
    assert_same(ours, theirs)
    # The loop carries an unbatched counter, a batched h and a total
    # batched by h (a fixed point); an unbatched predicate needs no
    # masking of finished lanes.
    text = str(jt.make_jaxpr(jt.vmap(fn1(lambda x: tanh_loop(OURS)(x, 3))))(XB))
    assert re.search(r"\w+:i32\[\] \w+:f32\[4,3\] \w+:f32\[4\] = while\[", text), text
    assert "select_n" not in text
    masked = jt.make_jaxpr(jt.vmap(grow_until(OURS), in_axes=(0, None, None)))(STARTS, np.float32(5), np.float32(2))
    assert "select_n" in str(masked)


LIMITS = np.array([3.0, 5.0, 20.0, 0.4], np.float32)
STARTS = np.array([0.5, 1.0, 2.0, 3.5], np.float32)
SCALES = np.array([1.5, 2.0, 1.2, 3.0], np.float32)


@pytest.mark.parametrize(
    "in_axes",
    [(0, None, None), (None, 0, None), (None, None, 0), (0, 0, 0)],
    ids=["batched-init", "batched-cond-const", "batched-body-const", "all"],
)
def test_vmap_while_lanes_stop_at_different_iterations(in_axes: tuple[int | None, ...]) -> None:
    args = tuple(b if ax == 0 else b[1] for ax, b in zip(in_axes, (STARTS, LIMITS, SCALES)))
    ours = jt.vmap(grow_until(OURS), in_axes=in_axes)(*args)
    theirs = jax.vmap(grow_until(JAX), in_axes=in_axes)(*args)
    assert_same(ours, theirs)
    # The trip counts really differ between lanes (and one lane never runs).
    counts = np.asarray(ours[0])
    assert len(set(counts.tolist())) > 1


def test_vmap_while_in_axes_not_zero_and_jit() -> None:
    starts = np.stack([STARTS, STARTS * 0.5], axis=0)  # batch on axis 1

    def program(impl: Impl) -> Callable[[Any, Any, Any], Any]:
        return lambda x, lim, s: grow_until(impl)(x.sum(), lim, s)

    f_ours = jt.jit(jt.vmap(program(OURS), in_axes=(1, None, 0)))
    f_jax = jax.jit(jax.vmap(program(JAX), in_axes=(1, None, 0)))
    assert_same(f_ours(starts, np.float32(6.0), SCALES), f_jax(starts, np.float32(6.0), SCALES))


def test_jvp_of_vmap_of_while_with_batched_predicate() -> None:
    f_ours = jt.vmap(fn1(lambda x: grow_until(OURS)(x, np.float32(5.0), np.float32(1.5))))
    f_jax = jax.vmap(fn1(lambda x: grow_until(JAX)(x, np.float32(5.0), np.float32(1.5))))
    assert_same(jt.jvp(f_ours, (STARTS,), (SCALES,)), jax.jvp(f_jax, (STARTS,), (SCALES,)))


def test_vmap_of_jvp_of_while_with_batched_predicate() -> None:
    def ours(x: Any) -> Any:
        return jt.jvp(fn1(lambda y: grow_until(OURS)(y, np.float32(5.0), np.float32(1.5))), (x,), (np.float32(1.0),))

    def theirs(x: Any) -> Any:
        return jax.jvp(fn1(lambda y: grow_until(JAX)(y, np.float32(5.0), np.float32(1.5))), (x,), (np.float32(1.0),))

    assert_same(jt.vmap(ours)(STARTS), jax.vmap(theirs)(STARTS))


def test_vmap_while_over_an_outer_tracer_closed_over() -> None:
    # The limit closed over by cond_fun is an outer vmap tracer, and the
    # body closes over an outer jvp tracer.
    def ours(lim: Any) -> Any:
        return jt.jvp(fn1(lambda s: grow_until(OURS)(np.float32(1.0), lim, s)), (np.float32(1.5),), (np.float32(1.0),))

    def theirs(lim: Any) -> Any:
        return jax.jvp(fn1(lambda s: grow_until(JAX)(np.float32(1.0), lim, s)), (np.float32(1.5),), (np.float32(1.0),))

    assert_same(jt.vmap(ours)(LIMITS), jax.vmap(theirs)(LIMITS))


# === reverse mode ===


def reverse_error_cases() -> list[Any]:
    def while_case(impl: Impl) -> Any:
        return impl.api.grad(fn1(lambda x: counter_times_x(impl)(x)[1]))(np.float32(0.7))

    def while_case_total(impl: Impl) -> Any:
        return impl.api.grad(fn1(lambda x: tanh_loop(impl)(x, 3)[2]))(X3)

    def fori_case(impl: Impl) -> Any:
        # Under jit the bound is traced: the loop is a while_loop.
        f = impl.api.jit(power_loop(impl))
        return impl.api.grad(f)(np.float32(1.2), np.int32(3))

    return [
        pytest.param(while_case, id="while_loop"),
        pytest.param(fori_case, id="fori_loop-traced-bounds"),
        pytest.param(while_case_total, id="while_loop-tangent-appears"),
    ]


@pytest.mark.parametrize("run", reverse_error_cases())
def test_reverse_mode_of_dynamic_loop_raises_jax_error(run: Callable[[Impl], Any]) -> None:
    with pytest.raises(ValueError) as theirs:
        run(JAX)
    assert str(theirs.value) == WHILE_REVERSE_ERROR
    with pytest.raises(JaxtypedValueError) as ours:
        run(OURS)
    assert isinstance(ours.value, ValueError)
    assert str(ours.value) == WHILE_REVERSE_ERROR


@pytest.mark.parametrize("bounds", ["python", "int32-arrays"])
def test_fori_loop_static_bounds_reverse_mode_matches_jax(bounds: str) -> None:
    lo_o, hi_o = (0, 4) if bounds == "python" else (jnp.int32(0), jnp.int32(4))
    lo_j, hi_j = (0, 4) if bounds == "python" else (jax_numpy.int32(0), jax_numpy.int32(4))

    def ours(x: Any) -> Any:
        return OURS.lax.fori_loop(lo_o, hi_o, fn2(lambda i, c: c * x + 0.5 * i), x)

    def theirs(x: Any) -> Any:
        return jax.lax.fori_loop(lo_j, hi_j, fn2(lambda i, c: c * x + 0.5 * i), x)

    x = np.float32(1.2)
    assert_same(jt.grad(ours)(x), jax.grad(theirs)(x))
    out, pullback = jt.vjp(ours, x)
    out_j, pullback_j = jax.vjp(theirs, x)
    np.testing.assert_allclose(np.asarray(out), np.asarray(out_j), rtol=1e-6)
    ct = np.float32(2.0)
    np.testing.assert_allclose(np.asarray(pullback(ct)[0]), np.asarray(pullback_j(ct)[0]), rtol=1e-6)
    # Static bounds make a scan, as in JAX: the grad's program holds the
    # forward and the transposed scan, no while.
    text = str(jt.make_jaxpr(jt.grad(ours))(x))
    assert text.count("scan[") == 2 and "while[" not in text


def test_fori_loop_python_bounds_stay_a_scan_under_tracing() -> None:
    # Python bounds are static even inside jit (as in JAX), so jit and
    # reverse mode compose in either order.
    f_ours, f_jax = power_loop(OURS), power_loop(JAX)
    x = np.float32(1.2)
    ours, theirs = fn1(lambda y: f_ours(y, 4)), fn1(lambda y: f_jax(y, 4))
    text = str(jt.make_jaxpr(ours)(x))
    assert "scan[" in text and "while[" not in text
    assert_same(jt.jit(jt.grad(ours))(x), jax.jit(jax.grad(theirs))(x))
    assert_same(jt.grad(jt.jit(ours))(x), jax.grad(jax.jit(theirs))(x))


# === fori_loop: values, trip counts, vmap ===


@pytest.mark.parametrize("mode", ["eager", "jit-python-bounds", "jit-traced-bounds"])
@pytest.mark.parametrize("bounds", [(0, 4), (2, 5), (3, 3), (5, 2)], ids=["0-4", "2-5", "empty", "negative"])
def test_fori_loop_matches_jax(mode: str, bounds: tuple[int, int]) -> None:
    lo, hi = bounds

    def program(impl: Impl) -> Callable[[Any, Any, Any], Any]:
        def f(x: Any, a: Any, b: Any) -> Any:
            return impl.lax.fori_loop(a, b, fn2(lambda i, c: (c[0] * x + i, c[1] + 1)), (x, np.int32(0)))

        return f

    if mode == "eager":
        ours, theirs = program(OURS)(X3, lo, hi), program(JAX)(X3, lo, hi)
    elif mode == "jit-python-bounds":
        ours = jt.jit(fn1(lambda x: program(OURS)(x, lo, hi)))(X3)
        theirs = jax.jit(fn1(lambda x: program(JAX)(x, lo, hi)))(X3)
    else:
        a, b = np.int32(lo), np.int32(hi)
        ours, theirs = jt.jit(program(OURS))(X3, a, b), jax.jit(program(JAX))(X3, a, b)
    assert_same(ours, theirs)
    assert int(np.asarray(ours[1])) == max(hi - lo, 0)


def test_while_loop_whose_predicate_starts_false_returns_init() -> None:
    init = (np.float32(3.0), {"k": X3})
    cond, body = fn1(lambda c: c[0] < 0), fn1(lambda c: (c[0] + 1, {"k": c[1]["k"] * 2}))
    assert_same(jt.lax.while_loop(cond, body, init), jax.lax.while_loop(cond, body, init))


def test_fori_loop_jvp_and_vmap_of_the_upper_bound() -> None:
    uppers = np.array([0, 1, 3, 6], np.int32)  # batched bound: a batched predicate
    ours = jt.vmap(power_loop(OURS), in_axes=(None, 0))(np.float32(1.1), uppers)
    theirs = jax.vmap(power_loop(JAX), in_axes=(None, 0))(np.float32(1.1), uppers)
    assert_same(ours, theirs)
    t = np.float32(1.0)
    assert_same(
        jt.jvp(fn1(lambda x: power_loop(OURS)(x, 4)), (np.float32(1.1),), (t,)),
        jax.jvp(fn1(lambda x: power_loop(JAX)(x, 4)), (np.float32(1.1),), (t,)),
    )


def test_jit_vmap_grad_of_fori_loop_with_static_bounds() -> None:
    def loss(impl: Impl) -> Callable[[Any, Any], Any]:
        def f(w: Any, x: Any) -> Any:
            return impl.lax.fori_loop(0, 3, fn2(lambda i, h: impl.np.tanh(w * h + x)), x).sum()

        return f

    xs = XB
    ours = jt.jit(jt.vmap(jt.grad(loss(OURS)), in_axes=(None, 0)))(np.float32(0.8), xs)
    theirs = jax.jit(jax.vmap(jax.grad(loss(JAX)), in_axes=(None, 0)))(np.float32(0.8), xs)
    assert_same(ours, theirs)


# === weak types of initial carries ===


def weak_case(loop: str, cond: Callable[[Any], Any], body: Callable[..., Any], init: Any) -> Callable[[Any], Any]:
    """A loop, given the ``lax`` module to run it with."""
    if loop == "fori_loop":
        return lambda lax: lax.fori_loop(0, 3, body, init)
    return lambda lax: lax.while_loop(cond, body, init)


def below3(c: Any) -> Any:
    return c < 3


WEAK_CASES: list[Any] = [
    pytest.param(weak_case("while_loop", fn1(lambda c: c < 10), fn1(lambda c: c * TWO), 1.0), id="weak-f32-times-f32"),
    pytest.param(weak_case("while_loop", below3, fn1(lambda c: c + TWO), 0), id="weak-int-plus-f32"),
    pytest.param(weak_case("while_loop", below3, fn1(lambda c: c + np.int32(1)), 0), id="weak-int-plus-i32"),
    pytest.param(
        weak_case("while_loop", below3, fn1(lambda c: (c + 1.0).astype(np.int32)), np.int32(0)), id="strong-i32"
    ),
    pytest.param(weak_case("while_loop", below3, fn1(lambda c: c + 1), 0), id="weak-int-stays-weak"),
    pytest.param(
        weak_case("while_loop", fn1(lambda c: c[0] < 3), fn1(lambda c: (c[0] + 1, 2.0)), (0, np.float32(1.0))),
        id="strong-init-weak-body",
    ),
    pytest.param(weak_case("fori_loop", below3, fn2(lambda i, c: c * TWO), 1.0), id="fori-weak-f32"),
    pytest.param(weak_case("while_loop", below3, fn1(lambda c: c + 1.0), 0), id="weak-int-plus-weak-float"),
    pytest.param(
        weak_case("while_loop", fn1(lambda c: c[0] < 3), fn1(lambda c: (c[0] + 1, c[1] * TWO, c[2] + 0.5)), (0, 1.0, 0)),
        id="tuple",
    ),
]


@pytest.mark.parametrize("program", WEAK_CASES)
def test_weak_initial_carries_are_promoted_as_in_jax(program: Callable[[Any], Any]) -> None:
    assert_same(program(jt.lax), program(jax.lax))


def test_fori_loop_index_is_weakly_typed_as_in_jax() -> None:
    body = fn2(lambda i, c: c + i)
    assert_same(jt.lax.fori_loop(0, 3, body, 0), jax.lax.fori_loop(0, 3, body, 0))
    # Traced bounds keep their type.
    ours = jt.jit(fn1(lambda n: jt.lax.fori_loop(0, n, body, 0)))(np.int32(3))
    assert_same(ours, jax.jit(fn1(lambda n: jax.lax.fori_loop(0, n, body, 0)))(np.int32(3)))


def test_fori_loop_index_with_concrete_array_bounds_is_weakly_typed_as_in_jax() -> None:
    body = fn2(lambda i, c: c + i)
    ours = jt.lax.fori_loop(jnp.int32(0), jnp.int32(3), body, 0)
    assert_same(ours, jax.lax.fori_loop(jax_numpy.int32(0), jax_numpy.int32(3), body, 0))


@pytest.mark.parametrize("unroll, sines", [(2, 3), (True, 5)])
def test_fori_loop_unroll_matches_jax(unroll: int | bool, sines: int) -> None:
    body = fn2(lambda i, c: jnp.sin(c) * TWO + i if isinstance(c, jt.Array) else jax_numpy.sin(c) * TWO + i)
    ours = jt.lax.fori_loop(0, 5, body, np.float32(0.5), unroll=unroll)
    assert_same(ours, jax.lax.fori_loop(0, 5, body, np.float32(0.5), unroll=unroll))
    # Five steps, ``unroll`` per trip of the compiled loop (and the odd one
    # after): each a call of the body, emitted once as a private function.
    text = jt.jit(fn1(lambda x: OURS.lax.fori_loop(0, 5, body, x, unroll=unroll))).lower(np.float32(0.5)).as_text()
    assert text.count("call @closed_call") == sines
    assert text.count("stablehlo.sine") == 1


# === disable_jit and lowering ===


@pytest.fixture
def no_compiled_loops(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Make the compiled eager path of loops fail, to prove a loop ran op
    by op in Python."""
    from jaxtyped._src.lax.control_flow import loops, scan

    def fail(*_: object) -> object:
        raise AssertionError("a loop was compiled under disable_jit")

    monkeypatch.setattr(loops, "evaluate_compiled", fail)
    monkeypatch.setattr(scan, "evaluate_compiled", fail)
    yield


@pytest.mark.usefixtures("no_compiled_loops")
def test_disable_jit_runs_loops_op_by_op_with_the_same_values() -> None:
    with jt.disable_jit():
        assert_same(tanh_loop(OURS)(X3, 3), tanh_loop(JAX)(X3, 3))
        assert_same(power_loop(OURS)(np.float32(1.1), 4), power_loop(JAX)(np.float32(1.1), 4))
        # Even a jitted function runs eagerly.
        ours = jt.jit(grow_until(OURS))(np.float32(0.5), np.float32(4.0), np.float32(1.5))
    assert_same(ours, grow_until(JAX)(np.float32(0.5), np.float32(4.0), np.float32(1.5)))


def test_compiled_loop_is_refused_without_disable_jit(no_compiled_loops: None) -> None:
    # The fixture above really guards the compiled path.
    with pytest.raises(AssertionError, match="compiled under disable_jit"):
        tanh_loop(OURS)(X3, 3)


@pytest.mark.parametrize("which", ["while_loop", "fori_loop"])
def test_lowering_contains_stablehlo_while(which: str) -> None:
    if which == "while_loop":
        text = jt.jit(tanh_loop(OURS)).lower(X3, np.int32(3)).as_text()
    else:
        text = jt.jit(fn1(lambda x: power_loop(OURS)(x, 4))).lower(np.float32(1.0)).as_text()
    assert "stablehlo.while" in text


# === errors ===


def _body_error(body: Callable[[Any], Any], init: Any) -> str:
    with pytest.raises(JaxtypedTypeError) as ours:
        jt.lax.while_loop(fn1(lambda c: False), body, init)
    with pytest.raises(TypeError):
        jax.lax.while_loop(fn1(lambda c: False), body, init)
    return str(ours.value)


def test_body_changing_a_carry_shape_names_the_path_and_both_types() -> None:
    msg = _body_error(lambda c: (c[0] + 1, {"h": np.zeros(3, np.float32)}), (0, {"h": np.zeros(2, np.float32)}))
    assert "body_fun" in msg and "carry[1]['h']" in msg
    assert "f32[2]" in msg and "f32[3]" in msg and "shapes" in msg


def test_body_changing_a_carry_dtype_names_the_path_and_both_types() -> None:
    msg = _body_error(lambda c: {"a": c["a"], "b": c["b"].astype(np.int32)}, {"a": 0, "b": np.zeros(2, np.float32)})
    assert "carry['b']" in msg and "f32[2]" in msg and "i32[2]" in msg and "dtypes" in msg


def test_body_returning_a_different_structure() -> None:
    msg = _body_error(lambda c: [c[0], c[1]], (np.float32(0), np.float32(1)))
    assert "structure" in msg and "body_fun" in msg


@pytest.mark.parametrize(
    "cond, got",
    [
        (fn1(lambda c: c), "i32[]"),
        (fn1(lambda c: c * 1.0), "f32[]"),
        (fn1(lambda c: (c + np.zeros(2, np.int32)) < 3), "bool[2]"),
    ],
    ids=["int", "float", "non-scalar"],
)
def test_cond_fun_must_return_a_boolean_scalar(cond: Callable[[Any], Any], got: str) -> None:
    with pytest.raises(JaxtypedTypeError) as ours:
        jt.lax.while_loop(cond, lambda c: c + 1, np.int32(0))
    with pytest.raises(TypeError):
        jax.lax.while_loop(cond, fn1(lambda c: c + 1), np.int32(0))
    msg = str(ours.value)
    assert "cond_fun" in msg and "boolean scalar" in msg and re.search(re.escape(got), msg)


@pytest.mark.parametrize(
    "lower, upper, name, got",
    [
        (0.0, 3, "lower", "f32[]"),
        (0, 3.5, "upper", "f32[]"),
        (np.zeros(2, np.int32), 3, "lower", "i32[2]"),
    ],
    ids=["float-lower", "float-upper", "non-scalar"],
)
def test_fori_loop_bounds_must_be_integer_scalars(lower: Any, upper: Any, name: str, got: str) -> None:
    with pytest.raises(JaxtypedTypeError) as ours:
        jt.lax.fori_loop(lower, upper, lambda i, c: c, np.float32(0))
    with pytest.raises((TypeError, ValueError)):
        jax.lax.fori_loop(lower, upper, fn2(lambda i, c: c), np.float32(0))
    msg = str(ours.value)
    assert "fori_loop" in msg and name in msg and got in msg


@pytest.mark.parametrize("role", ["cond_fun", "body_fun"])
def test_non_callable_functions_are_rejected(role: str) -> None:
    bad: Any = 3
    cond, body = (bad, fn1(lambda c: c)) if role == "cond_fun" else (fn1(lambda c: c < 1), bad)
    with pytest.raises(JaxtypedTypeError) as ours:
        jt.lax.while_loop(cond, body, 0)
    # Under JAXTYPED_DEBUG=1 the annotations reject the call first.
    if not isinstance(ours.value, DebugTypeError):
        assert f"{role} is not callable (got int)" in str(ours.value)
