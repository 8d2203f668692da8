# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (each program is written once for jaxtyped and for JAX, whose API is untyped: its values are Any)
"""``debug.print`` against JAX's (issue 16, item 6): the same program is run
with ``jaxtyped`` and with ``jax`` and what each prints is compared, eager
and under jit, vmap, grad, jvp, scan/fori_loop bodies and cond branches;
format errors raised while tracing; the ``debug_print`` equation as
``make_jaxpr`` prints it."""

from typing import Any

import numpy as np
import pytest
from oracle import jax, printed_by, raises_as_jax

import jaxtyped as jt
from jaxtyped.core import ORDERED_IO, UNORDERED_IO
from jaxtyped.typing import ArrayLike

Lib = Any  # jaxtyped or jax: the same API by contract


def show(J: Lib, x: Any) -> Any:
    J.debug.print("x={x} twice={}", x * 2, x=x)
    return x + 1


def arange(J: Lib) -> Any:
    return J.numpy.arange(3.0)


def checkpointed(J: Lib, policy: str | None) -> Any:
    """A checkpointed function printing an input and a value it computes:
    JAX replays a print when the backward pass recomputes (policy None,
    dots_saveable), or when its values are the checkpoint's inputs
    (everything_saveable replays only the first)."""

    def f(x: Any) -> Any:
        J.debug.print("x={}", x)
        y = x * x * 3.0
        J.debug.print("y={}", y)
        return J.numpy.sin(y)

    return J.checkpoint(f, policy=None if policy is None else getattr(J.checkpoint_policies, policy))


PROGRAMS: dict[str, Any] = {
    "grad-checkpoint": lambda J: J.grad(checkpointed(J, None))(1.5),
    "grad-checkpoint-everything-saveable": lambda J: J.grad(checkpointed(J, "everything_saveable"))(1.5),
    "grad-checkpoint-dots-saveable": lambda J: J.grad(checkpointed(J, "dots_saveable"))(1.5),
    "jit-grad-checkpoint": lambda J: J.jit(J.grad(checkpointed(J, None)))(1.5),
    "jvp-checkpoint": lambda J: J.jvp(checkpointed(J, None), (1.5,), (1.0,)),
    "eager": lambda J: show(J, arange(J)),
    "jit": lambda J: J.jit(lambda x: show(J, x))(arange(J)),
    "nested-jit": lambda J: J.jit(lambda x: J.jit(lambda y: show(J, y))(x) * 2)(arange(J)),
    "vmap": lambda J: J.vmap(lambda x: show(J, x))(arange(J)),
    "vmap-2d-axis1": lambda J: J.vmap(lambda x: show(J, x), in_axes=1)(J.numpy.arange(6.0).reshape(2, 3)),
    "vmap-unbatched-arg": lambda J: J.vmap(lambda x, y: J.debug.print("{} {}", x, y), in_axes=(0, None))(
        arange(J), 7.0
    ),
    "grad": lambda J: J.grad(lambda x: J.numpy.sum(show(J, x) ** 2))(arange(J)),
    "jit-grad": lambda J: J.jit(J.grad(lambda x: J.numpy.sum(show(J, x) ** 2)))(arange(J)),
    "jvp": lambda J: J.jvp(lambda x: show(J, x), (arange(J),), (J.numpy.ones(3),)),
    "scan": lambda J: J.lax.scan(lambda c, x: (J.debug.print("c={} x={}", c, x), (c + x, c))[1], 0.0, arange(J)),
    "jit-scan": lambda J: J.jit(
        lambda xs: J.lax.scan(lambda c, x: (J.debug.print("c={} x={}", c, x), (c + x, c))[1], 0.0, xs)
    )(arange(J)),
    "fori": lambda J: J.jit(
        lambda x: J.lax.fori_loop(0, 3, lambda i, c: (J.debug.print("i={} c={}", i, c), c * 2)[1], x)
    )(1.5),
    "while": lambda J: J.lax.while_loop(
        lambda c: c < 3, lambda c: (J.debug.print("c={}", c), c + 1)[1], J.numpy.int32(0)
    ),
    "cond": lambda J: [
        J.jit(
            lambda x: J.lax.cond(x > 0, lambda: J.debug.print("pos {}", x), lambda: J.debug.print("neg {}", x))
        )(v)
        for v in (1.0, -2.0)
    ],
    "formats": lambda J: J.debug.print(
        "{x:.2f} and {y} and {0} {1!r}", J.numpy.int32(3), "s", x=1.5, y=J.numpy.array([True, False])
    ),
    "containers": lambda J: J.debug.print("{} {a}", [1.0, J.numpy.ones(2)], a=(1, 2)),
    "containers-jit": lambda J: J.jit(lambda x: J.debug.print("{} {a}", [x, J.numpy.ones(2)], a=(1, 2)))(1.0),
    "dtypes": lambda J: J.jit(lambda: J.debug.print("{} {} {}", J.numpy.uint8(7), 1 + 2j, J.numpy.float16(0.5)))(),
    "no-args": lambda J: J.jit(lambda: J.debug.print("plain {{braces}}"))(),
    "ordered": lambda J: [J.jit(lambda x: J.debug.print("o {}", x, ordered=True))(float(i)) for i in range(4)],
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_prints_as_jax(capsys: pytest.CaptureFixture[str], name: str) -> None:
    ours, theirs = printed_by(capsys, PROGRAMS[name])
    assert theirs, "the program prints nothing in JAX"
    assert ours == theirs


def test_grad_of_scan_prints_in_forward_order(capsys: pytest.CaptureFixture[str]) -> None:
    def run(J: Lib) -> None:
        def body(c: Any, _: None) -> Any:
            J.debug.print("c={}", c)
            return c * 2.0, None

        J.grad(lambda x: J.lax.scan(body, x, None, length=3)[0])(1.0)

    ours, theirs = printed_by(capsys, run)
    assert ours == theirs


def test_vmap_under_jit_prints_every_element(capsys: pytest.CaptureFixture[str]) -> None:
    # XLA may run the per-element prints of jit(vmap) in any order (JAX's do
    # come out of order): the same lines, in some order.
    ours, theirs = printed_by(capsys, lambda J: J.jit(J.vmap(lambda x: show(J, x)))(arange(J)))
    assert sorted(ours.splitlines()) == sorted(theirs.splitlines())
    assert len(ours.splitlines()) == 3


def test_print_options_are_those_at_trace_time(capsys: pytest.CaptureFixture[str]) -> None:
    def run(J: Lib) -> None:
        f = J.jit(lambda x: J.debug.print("{}", x))
        with np.printoptions(precision=2):
            J.debug.print("{}", J.numpy.array([1.23456, 2.0]))
            f(J.numpy.array([1.23456, 2.0]))
            J.effects_barrier()

    ours, theirs = printed_by(capsys, run)
    assert ours == theirs == "[1.23 2.  ]\n[1.23 2.  ]\n"


ERRORS: dict[str, Any] = {
    "missing-positional": lambda J: J.debug.print("{} {}", 1.0),
    "missing-positional-jit": lambda J: J.jit(lambda x: J.debug.print("{} {}", x))(1.0),
    "unused-positional": lambda J: J.debug.print("plain", 1.0),
    "unused-with-keyword": lambda J: J.debug.print("{x}", 1.0, x=2.0),
    "keyword-only-auto": lambda J: J.debug.print("{}", x=1.0),
    "unused-keyword": lambda J: J.debug.print("x {}", 1.0, y=2.0),
    "unused-keyword-plain": lambda J: J.jit(lambda x: J.debug.print("plain", x=x))(1.0),
    "missing-keyword": lambda J: J.jit(lambda x: J.debug.print("{y}", x=x))(1.0),
    "bad-attribute": lambda J: J.jit(lambda x: J.debug.print("{x.bogus}", x=x))(1.0),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_format_errors_as_jax(capsys: pytest.CaptureFixture[str], name: str) -> None:
    raises_as_jax(ERRORS[name])
    jt.effects_barrier()
    assert capsys.readouterr().out == ""  # nothing half-printed


def test_make_jaxpr_prints_debug_print_as_jax() -> None:
    def f(J: Lib, x: Any) -> Any:
        J.debug.print("x={x} y={}", x * 2, x=x)
        J.debug.print("o {}", x, ordered=True)
        return x + 1

    ours = str(jt.make_jaxpr(lambda x: f(jt, x))(jt.numpy.arange(3.0)))
    theirs = str(jax.make_jaxpr(lambda x: f(jax, x))(jax.numpy.arange(3.0)))
    assert ours == theirs


def test_effects_in_the_jaxpr() -> None:
    def prints(x: ArrayLike) -> ArrayLike:
        jt.debug.print("{}", x)
        jt.debug.print("{}", x, ordered=True)
        return x

    closed = jt.make_jaxpr(prints)(1.0)
    assert [eqn.effects for eqn in closed.eqns] == [frozenset({UNORDERED_IO}), frozenset({ORDERED_IO})]
    assert closed.effects == frozenset({UNORDERED_IO, ORDERED_IO})

    def unused(x: ArrayLike) -> ArrayLike:
        jt.debug.print("{}", x)
        return x

    # A print is kept by dead-code elimination: jit runs it though nothing uses it.
    assert jt.make_jaxpr(jt.jit(unused))(1.0).effects == frozenset({UNORDERED_IO})


def test_eager_and_jit_print_the_same(capsys: pytest.CaptureFixture[str]) -> None:
    x = jt.numpy.array([[1, 2], [3, 4]], dtype=jt.numpy.int8)
    jt.debug.print("{}", x)
    eager = capsys.readouterr().out
    jt.jit(lambda y: jt.debug.print("{}", y))(x)
    jt.effects_barrier()
    assert capsys.readouterr().out == eager == "[[1 2]\n [3 4]]\n"
