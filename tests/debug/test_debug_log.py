# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (each program is written once for jaxtyped and for JAX, whose API is untyped: its values are Any)
"""``debug.log`` and the newer forms of ``debug.print`` against JAX 0.10.2's:
the records each library's logger receives (message, level, file and
line of the user's call) eagerly and under jit, vmap, grad and scan, the
two-call form with ``ordered=True``, ``skip_format_check`` and its
errors; the equation as ``make_jaxpr`` prints it."""

import logging
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from oracle import jax, printed_by, raises_as_jax

import jaxtyped as jt

Lib = Any  # jaxtyped or jax: the same API by contract

LOGGERS = {"jaxtyped": "jaxtyped._src.debugging", "jax": "jax._src.debugging"}


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.NOTSET)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def logged_by(run: Callable[[Lib], object]) -> tuple[list[tuple[str, int, str, int]], list[tuple[str, int, str, int]]]:
    """(message, level, file, line) of each record ``run(jaxtyped)`` and
    ``run(jax)`` log, after each library's effects barrier."""
    found: list[list[tuple[str, int, str, int]]] = []
    for lib, name in ((jt, LOGGERS["jaxtyped"]), (jax, LOGGERS["jax"])):
        handler, logger = _Records(), logging.getLogger(name)
        logger.addHandler(handler)
        try:
            run(lib)
            lib.effects_barrier()
        finally:
            logger.removeHandler(handler)
        found.append([(r.getMessage(), r.levelno, r.pathname, r.lineno) for r in handler.records])
    return found[0], found[1]


def logs(J: Lib, x: Any) -> Any:
    J.debug.log("x={x} twice={}", x * 2, x=x)
    return x + 1


def ordered_two_call(J: Lib, x: Any) -> Any:
    J.debug.log(ordered=True)("first {}", x)
    J.debug.log(ordered=True)("second {}", x + 1)
    return x


PROGRAMS: dict[str, Callable[[Lib], object]] = {
    "eager": lambda J: logs(J, J.numpy.arange(3.0)),
    "jit": lambda J: J.jit(lambda x: logs(J, x))(J.numpy.arange(3.0)),
    "vmap": lambda J: J.vmap(lambda x: logs(J, x))(J.numpy.arange(3.0)),
    "grad": lambda J: J.grad(lambda x: logs(J, x) ** 2)(2.0),
    "scan": lambda J: J.lax.scan(lambda c, x: (logs(J, c), x), 0.0, J.numpy.arange(2.0)),
    "ordered-two-call-jit": lambda J: J.jit(lambda x: ordered_two_call(J, x))(1.0),
    "skip-format-check": lambda J: J.debug.log("plain", 1.0, 2, skip_format_check=True),
    "partitioned": lambda J: J.jit(lambda x: J.debug.log("p {}", x, partitioned=True))(1.0),
}


@pytest.fixture(autouse=True)
def _quiet_root() -> Iterator[None]:
    # The records propagate to the root logger; keep them out of the test output.
    root = logging.getLogger()
    level = root.level
    root.setLevel(logging.CRITICAL)
    yield
    root.setLevel(level)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_logs_as_jax(name: str) -> None:
    ours, theirs = logged_by(PROGRAMS[name])
    assert theirs, "JAX logged nothing: the case would pass vacuously"
    assert ours == theirs


def test_records_bypass_the_logger_level_as_jax() -> None:
    # JAX hands the record to the logger's handlers without a level check.
    loggers = [logging.getLogger(n) for n in LOGGERS.values()]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.ERROR)
    try:
        ours, theirs = logged_by(lambda J: J.debug.log("{}", 1))
    finally:
        for lg, level in zip(loggers, levels, strict=True):
            lg.setLevel(level)
    assert [m for m, *_ in ours] == [m for m, *_ in theirs] == ["1"]


def test_log_prints_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    ours, theirs = printed_by(capsys, lambda J: J.jit(lambda x: logs(J, x))(1.0))
    assert ours == theirs == ""


PRINTS: dict[str, Callable[[Lib], object]] = {
    "two-call": lambda J: J.debug.print(ordered=True)("a {} b {b}", 1.0, b=2),
    "two-call-jit": lambda J: J.jit(lambda x: J.debug.print(ordered=True)("x {}", x))(3.0),
    "skip-format-check-join": lambda J: J.debug.print("plain", 1.0, "s", skip_format_check=True),
    "skip-format-check-extra": lambda J: J.debug.print("{} only", 1, 2, skip_format_check=True),
    "skip-format-check-jit": lambda J: J.jit(lambda x: J.debug.print("v", x, skip_format_check=True))(J.numpy.ones(2)),
}


@pytest.mark.parametrize("name", list(PRINTS))
def test_print_forms_as_jax(capsys: pytest.CaptureFixture[str], name: str) -> None:
    ours, theirs = printed_by(capsys, PRINTS[name])
    assert theirs
    assert ours == theirs


ERRORS: dict[str, Callable[[Lib], object]] = {
    "two-call-with-arguments": lambda J: J.debug.print(None, 1.0),
    "two-call-options-again": lambda J: J.debug.print(ordered=True)("{}", 1.0, ordered=True),
    "log-unused-positional": lambda J: J.debug.log("plain", 1.0),
    "log-missing-keyword": lambda J: J.jit(lambda x: J.debug.log("{y}", x=x))(1.0),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_jax(name: str) -> None:
    raises_as_jax(ERRORS[name])


def test_make_jaxpr_prints_the_logging_record_as_jax() -> None:
    def f(J: Lib, x: Any) -> Any:
        J.debug.log("x={}", x)
        return x

    ours = str(jt.make_jaxpr(lambda x: f(jt, x))(1.0))
    theirs = str(jax.make_jaxpr(lambda x: f(jax, x))(1.0))
    assert "logging_record=<LogRecord: jaxtyped._src.debugging, 20, " in ours
    assert ours == re.sub(r"LogRecord: jax\._src", "LogRecord: jaxtyped._src", theirs)
