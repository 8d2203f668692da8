# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (each program is written once for jaxtyped and for JAX, whose API is untyped: its values are Any)
"""Ordered effects (JEP 10657, issue 16 item 6): ``ordered=True`` prints and
io_callbacks happen in program order across many jit calls, mixed with
eager ones, from loop bodies and nested jits; the lowered ``main`` threads a
token (an input and an output, as JAX's); the runtime token survives a
failed call and calls from several threads; effects_barrier."""

import threading
from typing import Any

import numpy as np
import pytest
from oracle import jax, printed_by

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped.core import ORDERED_IO
from jaxtyped.errors import CallbackError

Lib = Any  # jaxtyped or jax: the same API by contract

jax_io_callback: Any = pytest.importorskip("jax.experimental").io_callback


def io_callback(J: Lib) -> Any:
    return jt.experimental.io_callback if J is jt else jax_io_callback


def test_ordered_prints_across_calls_as_jax(capsys: pytest.CaptureFixture[str]) -> None:
    def run(J: Lib) -> None:
        f = J.jit(lambda x: (J.debug.print("f {}", x, ordered=True), x + 1)[1])
        g = J.jit(lambda x: (J.debug.print("g {}", x, ordered=True), J.debug.print("g2 {}", x * 2, ordered=True)))
        x = J.numpy.float32(0.0)
        for _ in range(5):
            x = f(x)
            g(x)
            J.debug.print("eager {}", x, ordered=True)

    ours, theirs = printed_by(capsys, run)
    assert ours == theirs
    assert len(ours.splitlines()) == 20


def test_ordered_prints_in_loops_and_nested_jits_as_jax(capsys: pytest.CaptureFixture[str]) -> None:
    def run(J: Lib) -> None:
        def body(c: Any, x: Any) -> Any:
            J.debug.print("a c={} x={}", c, x, ordered=True)
            J.debug.print("b {}", c * x, ordered=True)
            return c + x, c

        inner = J.jit(lambda x: J.debug.print("inner {}", x, ordered=True))
        outer = J.jit(lambda xs: (J.debug.print("before", ordered=True), J.lax.scan(body, 0.0, xs), inner(xs[0]))[1])
        outer(J.numpy.arange(4.0))
        J.jit(lambda: J.lax.fori_loop(0, 3, lambda i, c: (J.debug.print("i {}", i, ordered=True), c)[1], 0))()

    ours, theirs = printed_by(capsys, run)
    assert ours == theirs


def test_ordered_io_callback_sequence() -> None:
    """Side effects of 40 calls of two ordered programs happen in call order."""
    logs: dict[str, list[float]] = {"jt": [], "jax": []}

    def run(J: Lib) -> None:
        log = logs["jt" if J is jt else "jax"]

        def record(x: Any) -> Any:
            log.append(float(np.asarray(x)))
            return np.asarray(x, np.float32)

        f = J.jit(lambda x: io_callback(J)(record, J.ShapeDtypeStruct((), J.numpy.float32), x, ordered=True))
        g = J.jit(lambda x: io_callback(J)(record, J.ShapeDtypeStruct((), J.numpy.float32), -x, ordered=True))
        for i in range(20):
            f(float(i))
            g(float(i))
        J.effects_barrier()

    run(jt)
    run(jax)
    assert logs["jt"] == logs["jax"] == [v for i in range(20) for v in (float(i), -float(i))]


def test_lowered_main_threads_a_token_as_jax() -> None:
    def ordered(J: Lib) -> Any:
        return J.jit(lambda x: (J.debug.print("{}", x, ordered=True), x * 2)[1]).lower(1.0).as_text()

    def unordered(J: Lib) -> Any:
        return J.jit(lambda x: (J.debug.print("{}", x), x * 2)[1]).lower(1.0).as_text()

    for J in (jt, jax):
        text = ordered(J)
        main = next(line for line in text.splitlines() if "func.func public @main" in line)
        params, results = main.split("->", 1)
        assert "%arg0: !stablehlo.token" in params, (J.__name__, main)
        assert results.strip().startswith("(!stablehlo.token"), (J.__name__, main)
        assert "xla_ffi_python_cpu_callback" in text
        assert "!stablehlo.token" not in unordered(J)
        assert "has_side_effect = true" in unordered(J)


def test_ordered_effect_in_the_jaxpr() -> None:
    closed = jt.make_jaxpr(jt.jit(lambda x: jt.debug.print("{}", x, ordered=True)))(1.0)
    assert closed.effects == frozenset({ORDERED_IO})
    closed = jt.make_jaxpr(lambda x: jt.experimental.io_callback(lambda v: v, jt.ShapeDtypeStruct((), jnp.float32), x, ordered=True))(1.0)
    assert closed.effects == frozenset({ORDERED_IO})
    assert jt.make_jaxpr(lambda x: jt.pure_callback(lambda v: v, jt.ShapeDtypeStruct((), jnp.float32), x))(1.0).effects == frozenset()


def test_token_survives_a_failed_call(capsys: pytest.CaptureFixture[str]) -> None:
    def boom(x: Any) -> Any:
        raise ValueError("boom")

    f = jt.jit(lambda x: jt.debug.print("before {}", x, ordered=True))
    bad = jt.jit(lambda x: jt.experimental.io_callback(boom, None, x, ordered=True))
    f(1.0)
    with pytest.raises(CallbackError, match="boom"):
        bad(1.0)
    f(2.0)
    jt.effects_barrier()
    assert capsys.readouterr().out == "before 1.0\nbefore 2.0\n"


def test_ordered_calls_from_threads(capsys: pytest.CaptureFixture[str]) -> None:
    """Each thread's prints keep their order; nothing deadlocks or crashes."""
    f = jt.jit(lambda t, i: jt.debug.print("t{} {}", t, i, ordered=True))
    f(0, 0)
    capsys.readouterr()

    def work(t: int) -> None:
        for i in range(10):
            f(t, i)

    threads = [threading.Thread(target=work, args=(t,)) for t in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    jt.effects_barrier()
    lines = capsys.readouterr().out.splitlines()
    assert sorted(lines) == sorted(f"t{t} {i}" for t in range(3) for i in range(10))
    for t in range(3):
        assert [line for line in lines if line.startswith(f"t{t} ")] == [f"t{t} {i}" for i in range(10)]


def test_callback_may_run_an_ordered_program(capsys: pytest.CaptureFixture[str]) -> None:
    """A callback that itself dispatches an ordered program (re-entrant)."""
    inner = jt.jit(lambda x: jt.debug.print("inner {}", x, ordered=True))

    def callback(x: Any) -> None:
        inner(x)

    jt.jit(lambda x: jt.debug.callback(callback, x, ordered=True))(3.0)
    jt.effects_barrier()
    assert capsys.readouterr().out == "inner 3.0\n"


def test_effects_barrier_without_effects() -> None:
    jt.effects_barrier()
    jax.effects_barrier()


def test_compiled_stage_and_disable_jit_keep_order(capsys: pytest.CaptureFixture[str]) -> None:
    def f(x: Any) -> Any:
        jt.debug.print("o {}", x, ordered=True)
        return x * 2

    compiled = jt.jit(f).lower(1.0).compile()
    assert float(compiled(2.0)) == 4.0
    with jt.disable_jit():
        jt.jit(f)(3.0)
    jt.clear_caches()
    jt.jit(f)(4.0)
    jt.effects_barrier()
    assert capsys.readouterr().out == "o 2.0\no 3.0\no 4.0\n"


def test_donation_with_an_ordered_print(capsys: pytest.CaptureFixture[str]) -> None:
    """The token comes first in main; donated buffers are still reused."""

    def f(x: jt.Array) -> jt.Array:
        jt.debug.print("d {}", x, ordered=True)
        return x + 1

    # An output of a program (a host array's buffer may alias NumPy memory,
    # which XLA copies rather than reuses).
    x = jt.jit(lambda: jnp.arange(3.0))()
    assert isinstance(x, ArrayImpl)
    pointer = x.unsafe_buffer_pointer()
    y = jt.jit(f, donate_argnums=0)(x)
    assert isinstance(y, ArrayImpl)
    assert y.unsafe_buffer_pointer() == pointer and x.is_deleted()
    jt.effects_barrier()
    assert capsys.readouterr().out == "d [0. 1. 2.]\n"


def test_ordered_prints_around_a_cond_without_results(capsys: pytest.CaptureFixture[str]) -> None:
    """The cond is lowered inside a one-branch case whose result the next
    ordered print waits for."""

    def run(J: Lib) -> None:
        def f(x: Any) -> Any:
            J.debug.print("before", ordered=True)
            J.lax.cond(x > 0, lambda: J.debug.print("pos", ordered=True), lambda: J.debug.print("neg", ordered=True))
            J.debug.print("after", ordered=True)
            return x

        J.jit(f)(1.0)
        J.jit(f)(-1.0)
        J.jit(lambda x: J.lax.fori_loop(0, 2, lambda i, c: (f(x), c)[1], 0))(3.0)

    ours, theirs = printed_by(capsys, run)
    assert ours == theirs


def test_ordered_prints_around_a_cond_with_results(capsys: pytest.CaptureFixture[str]) -> None:
    def run(J: Lib) -> None:
        def f(x: Any) -> Any:
            J.debug.print("before", ordered=True)
            y = J.lax.cond(
                x > 0,
                lambda: (J.debug.print("pos {}", x, ordered=True), x)[1],
                lambda: (J.debug.print("neg {}", x, ordered=True), -x)[1],
            )
            J.debug.print("after {}", y, ordered=True)
            return y

        J.jit(f)(1.0)
        J.jit(f)(-2.0)

    ours, theirs = printed_by(capsys, run)
    assert ours == theirs
