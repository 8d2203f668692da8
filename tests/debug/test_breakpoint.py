# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (each program is written once for jaxtyped and for JAX, whose API is untyped: its values are Any)
"""``debug.breakpoint`` against JAX's: the same program is run with
``jaxtyped`` and with ``jax`` under the same scripted ``jdb`` session
(``sys.stdin`` replaced by a ``StringIO``), and the transcripts are
compared: eager, under jit, vmap, grad, jvp, in scan/while_loop bodies and
cond branches, moving between frames, printing locals. Then what jaxtyped
does on purpose differently (the end of the input continues; unknown
backends and options are errors when ``breakpoint`` is called; ``ll``,
``h``; ``token`` under ``vmap``)."""

import functools
import io
import re
import sys
from collections.abc import Callable
from typing import Any

import pytest
from oracle import jax

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.core import ORDERED_IO, UNORDERED_IO
from jaxtyped.errors import CallbackError, JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError

Lib = Any  # jaxtyped or jax: the same API by contract


def inner(J: Lib, x: Any) -> Any:
    y = x * 2
    z = [y, "label"]
    J.debug.breakpoint(num_frames=2)
    return y + len(z) - 1


def outer(J: Lib, x: Any) -> Any:
    w = x + 10
    return inner(J, w)


@functools.cache
def jitted_outer(J: Lib) -> Callable[[Any], Any]:
    """One compiled program per library, shared by the jit sessions (its
    frames are those of its first trace, as in JAX: hence ``num_frames``)."""
    compiled: Callable[[Any], Any] = J.jit(functools.partial(outer, J))
    return compiled


def branchy(J: Lib, x: Any) -> Any:
    def positive() -> Any:
        J.debug.breakpoint(num_frames=1)
        return x

    return J.lax.cond(x > 0, positive, lambda: -x)


@functools.cache
def jitted_branchy(J: Lib) -> Callable[[Any], Any]:
    compiled: Callable[[Any], Any] = J.jit(functools.partial(branchy, J))
    return compiled


def scan_body(J: Lib, c: Any, x: Any) -> tuple[Any, Any]:
    J.debug.breakpoint(num_frames=1)
    return c + x, c


def while_body(J: Lib, c: Any) -> Any:
    J.debug.breakpoint(num_frames=1)
    return c + 1


def arange(J: Lib) -> Any:
    return J.numpy.arange(3.0)


def session(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], J: Lib, commands: str,
            run: Callable[[Lib], object]) -> str:  # fmt: skip
    """What ``run(J)`` prints while the debugger reads ``commands``."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(commands))
    capsys.readouterr()
    run(J)
    J.effects_barrier()
    return capsys.readouterr().out


def both(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], commands: str,
         run: Callable[[Lib], object]) -> tuple[str, str]:  # fmt: skip
    return session(monkeypatch, capsys, jt, commands, run), session(monkeypatch, capsys, jax, commands, run)


# name: (commands, program, a line our transcript must have)
SESSIONS: dict[str, tuple[str, Callable[[Lib], object], str]] = {
    "eager": (
        "p x\npp z\nx + 1\nz[1]\nu\np w\np y\nd\nd\nu\nu\nfoo\np\nl\nw\nbt\n\nc\n",
        lambda J: outer(J, arange(J)),
        "(jdb) [Array([20., 22., 24.], dtype=float32), 'label']",
    ),
    "jit": (
        "p x\npp z\nu\np w\nl\nw\nc\n",
        lambda J: jitted_outer(J)(arange(J)),
        "(jdb) Array([10., 11., 12.], dtype=float32)",
    ),
    "jit-new-values": (
        "p y\nc\n",
        lambda J: jitted_outer(J)(arange(J) + 5.0),
        "(jdb) Array([30., 32., 34.], dtype=float32)",
    ),
    "vmap": (
        "p x\nc\np x\nc\np (x, y)\nc\n",
        lambda J: J.vmap(lambda v: outer(J, v))(arange(J)),
        "(jdb) (Array(12., dtype=float32), Array(24., dtype=float32))",
    ),
    "grad": (
        "p x\nu\np w\nc\n",
        lambda J: J.grad(lambda v: J.numpy.sum(outer(J, v)))(arange(J)),
        "(jdb) Array([10., 11., 12.], dtype=float32)",
    ),
    "jvp": (
        "p y\nc\n",
        lambda J: J.jvp(lambda v: outer(J, v), (arange(J),), (J.numpy.ones(3),)),
        "(jdb) Array([20., 22., 24.], dtype=float32)",
    ),
    "scan": (
        "p (c, x)\nc\np c\nc\np x\nc\n",
        lambda J: J.lax.scan(functools.partial(scan_body, J), 0.0, arange(J)),
        "(jdb) Array(2., dtype=float32)",
    ),
    "while": (
        "p c\nc\np c\nc\n",
        lambda J: J.lax.while_loop(lambda c: c < 2, functools.partial(while_body, J), 0),
        "(jdb) Array(1, dtype=int32)",
    ),
    "cond-jit": (
        "p x\nc\n",
        lambda J: [jitted_branchy(J)(v) for v in (1.5, -2.0)],  # stops only in the taken branch
        "(jdb) Array(1.5, dtype=float32)",
    ),
    "nested-jit": (
        "p x\nu\np w\nc\n",
        lambda J: J.jit(lambda v: outer(J, J.jit(lambda u: u * 3.0)(v)))(arange(J)),
        "(jdb) Array([10., 13., 16.], dtype=float32)",
    ),
    "token-jit": (
        "p x\nc\n",
        lambda J: J.jit(lambda x: J.debug.breakpoint(token=x, num_frames=1) * 2.0)(arange(J)),
        "(jdb) Array([0., 1., 2.], dtype=float32)",
    ),
}


@pytest.mark.parametrize("name", list(SESSIONS))
def test_sessions_as_jax(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], name: str) -> None:
    commands, run, expected = SESSIONS[name]
    ours, theirs = both(monkeypatch, capsys, commands, run)
    assert expected in ours.splitlines()
    assert ours == theirs


def test_the_eager_session_transcript(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = session(monkeypatch, capsys, jt, "p y\nu\nu\nd\nd\nfoo\nc\n", lambda J: outer(J, arange(J)))
    lines = out.splitlines()
    assert lines[:2] == ["Entering jdb:", "(jdb) Array([20., 22., 24.], dtype=float32)"]
    assert lines[2] == f"(jdb) > {__file__}({outer.__code__.co_firstlineno + 2})"
    assert "->      return inner(J, w)" in lines
    assert "(jdb) At topmost frame." in lines and "(jdb) At bottommost frame." in lines
    assert "->      J.debug.breakpoint(num_frames=2)" in lines
    assert "(jdb) *** NameError: name 'foo' is not defined" in lines
    assert lines[-1] == "(jdb) "


def test_quit_raises_system_exit_eagerly_as_jax(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for J in (jt, jax):
        with pytest.raises(SystemExit) as raised:
            session(monkeypatch, capsys, J, "p x\nq\n", lambda J: outer(J, arange(J)))
        assert raised.value.code == 0


def test_quit_under_jit_is_a_callback_error(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # JAX raises its JaxRuntimeError (a RuntimeError) there; ours is a RuntimeError too.
    for command in ("q", "quit", "exit"):
        with pytest.raises(CallbackError) as raised:
            session(monkeypatch, capsys, jt, f"{command}\n", lambda J: jitted_outer(J)(arange(J)))
        assert isinstance(raised.value.__cause__, SystemExit)


def test_end_of_input_continues(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # JAX exits the process there; a script without input must not stop or hang.
    results: list[Any] = []
    out = session(monkeypatch, capsys, jt, "p x\n", lambda J: results.append(jitted_outer(J)(arange(J))))
    assert out == "Entering jdb:\n(jdb) Array([10., 11., 12.], dtype=float32)\n(jdb) \n"
    assert jnp.array_equal(results[0], jnp.array([21.0, 23.0, 25.0]))
    assert session(monkeypatch, capsys, jt, "", lambda J: outer(J, 1.0)) == "Entering jdb:\n(jdb) \n"


def test_continue_aliases(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    run = lambda J: J.vmap(lambda v: outer(J, v))(arange(J))  # noqa: E731 - one program, three stops
    assert session(monkeypatch, capsys, jt, "c\ncont\ncontinue\n", run) == "Entering jdb:\n(jdb) " * 3


def test_keyboard_interrupt_restarts_the_prompt_as_jax(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Interrupted:
        """Input whose first line is an interrupt (Ctrl-C)."""

        def __init__(self, text: str) -> None:
            self.lines = io.StringIO(text)
            self.interrupted = False

        def readline(self) -> str:
            if not self.interrupted:
                self.interrupted = True
                raise KeyboardInterrupt
            return self.lines.readline()

    outs: list[str] = []
    for J in (jt, jax):
        monkeypatch.setattr(sys, "stdin", Interrupted("p 1 + 1\nc\n"))
        capsys.readouterr()
        J.debug.breakpoint(num_frames=1)
        outs.append(capsys.readouterr().out)
    assert outs[0] == outs[1] == "Entering jdb:\n(jdb) --KeyboardInterrupt--\nEntering jdb:\n(jdb) 2\n(jdb) "


def test_explicit_stdin_and_stdout_as_jax(capsys: pytest.CaptureFixture[str]) -> None:
    texts: list[str] = []
    for J in (jt, jax):
        out = io.StringIO()
        J.debug.breakpoint(stdin=io.StringIO("p 1 + 1\nc\n"), stdout=out, num_frames=1)
        texts.append(out.getvalue())
    assert texts[0] == texts[1] == "Entering jdb:\n(jdb) 2\n(jdb) "
    assert capsys.readouterr().out == ""


def test_help_lists_jax_commands(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    ours, theirs = both(monkeypatch, capsys, "help\nc\n", lambda J: J.debug.breakpoint(num_frames=1))

    def commands(text: str) -> set[str]:
        listing = text.split("========================================\n")[1].split("\n\n")[0]
        return set(listing.split())

    assert commands(theirs) <= commands(ours)
    assert commands(ours) - commands(theirs) == {"h", "ll", "longlist"}
    out = session(monkeypatch, capsys, jt, "help p\nh up\n? pp\nc\n", lambda J: J.debug.breakpoint(num_frames=1))
    assert "(jdb) p expression\n    Print the repr" in out
    assert "(jdb) u(p)\n    Go to the frame that called" in out
    assert "(jdb) pp expression\n" in out


def test_longlist_shows_the_whole_function(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    for command in ("ll", "longlist"):
        out = session(monkeypatch, capsys, jt, f"{command}\nc\n", lambda J: outer(J, 1.0))
        assert out.splitlines()[1:7] == [
            f"(jdb) > {__file__}({inner.__code__.co_firstlineno + 3})",
            "    def inner(J: Lib, x: Any) -> Any:",
            "        y = x * 2",
            '        z = [y, "label"]',
            "->      J.debug.breakpoint(num_frames=2)",
            "        return y + len(z) - 1",
        ]


def test_expressions_see_globals_and_locals_in_comprehensions(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # JAX's debugger sees only the locals, and its comprehensions not even those.
    commands = "p jnp.sum(y)\n[int(v) * int(x[0]) for v in y]\nc\n"
    out = session(monkeypatch, capsys, jt, commands, lambda J: outer(J, arange(J)))
    assert out.splitlines()[1:3] == ["(jdb) Array(66., dtype=float32)", "(jdb) [200, 220, 240]"]


def test_frames_are_filtered(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def run(filter_frames: bool) -> str:
        return session(
            monkeypatch, capsys, jt, "w\nc\n",
            lambda J: J.vmap(lambda v: J.debug.breakpoint(filter_frames=filter_frames))(J.numpy.ones(1)),
        )  # fmt: skip

    package = jt.__file__.rsplit("/", 1)[0]
    filtered, unfiltered = run(True), run(False)
    assert package not in filtered and "<@beartype" not in filtered
    assert package + "/_src/" in unfiltered
    assert f'File "{__file__}"' in filtered
    # The innermost frame is the caller of breakpoint, either way.
    for text in (filtered, unfiltered):
        assert text.split("(jdb) ")[1].splitlines()[-2:][0].startswith(f'  File "{__file__}"')


def test_no_frames(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = session(monkeypatch, capsys, jt, "w\np 1 + 2\nu\nd\nl\nc\n", lambda J: J.debug.breakpoint(num_frames=0))
    assert out == (
        "Entering jdb:\n(jdb) Traceback:\n(jdb) 3\n(jdb) At topmost frame.\n(jdb) At bottommost frame.\n(jdb) (jdb) "
    )


def test_token_is_returned(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    a = jnp.arange(2.0)
    token = {"a": a, "b": 3}
    results: list[Any] = []
    out = session(monkeypatch, capsys, jt, "p token\nc\n", lambda J: results.append(J.debug.breakpoint(token=token)))
    assert "(jdb) {'a': Array([0., 1.], dtype=float32), 'b': 3}" in out.splitlines()
    assert set(results[0]) == {"a", "b"} and jnp.array_equal(results[0]["a"], a)
    assert int(results[0]["b"]) == 3


def test_token_under_vmap_stops_per_element(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    # JAX refuses (its pure_callback has no vmap_method).
    results: list[Any] = []
    out = session(
        monkeypatch, capsys, jt, "p x\nc\np x\nc\n",
        lambda J: results.append(J.vmap(lambda x: J.debug.breakpoint(token=x, num_frames=1))(J.numpy.arange(2.0))),
    )  # fmt: skip
    assert out.splitlines() == [
        "Entering jdb:", "(jdb) Array(0., dtype=float32)", "(jdb) Entering jdb:", "(jdb) Array(1., dtype=float32)", "(jdb) "
    ]  # fmt: skip
    assert jnp.array_equal(results[0], jnp.arange(2.0))


def test_the_jaxpr_as_jax() -> None:
    def f(J: Lib, x: Any) -> Any:
        J.debug.breakpoint()
        J.debug.breakpoint(ordered=True)
        return x + 1

    def masked(text: str) -> str:
        return re.sub(r"callback=<.*? at 0xX+>", "callback=<...>", text)

    closed = jt.make_jaxpr(lambda x: f(jt, x))(jnp.arange(3.0))
    assert [eqn.primitive.name for eqn in closed.eqns[:2]] == ["debug_callback", "debug_callback"]
    assert closed.effects == frozenset({UNORDERED_IO, ORDERED_IO})
    assert masked(str(closed)) == masked(str(jax.make_jaxpr(lambda x: f(jax, x))(jax.numpy.arange(3.0))))


BAD: dict[str, tuple[Callable[[], object], type[Exception], str]] = {
    "unknown-backend": (lambda: jt.debug.breakpoint(backend="bogus"), JaxtypedValueError, "backend='bogus'"),
    "web-backend": (lambda: jt.debug.breakpoint(backend="web"), JaxtypedNotImplementedError, "web_pdb"),
    "colab-backend": (lambda: jt.debug.breakpoint(backend="colab"), JaxtypedNotImplementedError, "Colab"),
    "unknown-option": (lambda: jt.debug.breakpoint(foo=3), JaxtypedTypeError, "'foo'"),
    "bad-stdin": (lambda: jt.debug.breakpoint(stdin="p x"), JaxtypedTypeError, "stdin"),
    "ordered-and-token": (lambda: jt.debug.breakpoint(ordered=True, token=1.0), JaxtypedValueError, "mutually exclusive"),
    "bad-token": (lambda: jt.debug.breakpoint(token="x"), JaxtypedTypeError, "token"),
}


@pytest.mark.parametrize("name", list(BAD))
def test_bad_arguments_raise_when_called(capsys: pytest.CaptureFixture[str], name: str) -> None:
    call, kind, text = BAD[name]
    with pytest.raises(kind, match=re.escape(text)) as raised:
        call()
    assert "debug.breakpoint" in str(raised.value)
    assert capsys.readouterr().out == ""  # raised before any debugger started


def test_ordered_and_token_is_a_value_error_in_jax() -> None:
    with pytest.raises(ValueError):
        jax.debug.breakpoint(ordered=True, token=1.0)
