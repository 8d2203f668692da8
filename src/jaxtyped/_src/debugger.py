"""``jaxtyped.debug.breakpoint``: an interactive debugger that stops where
traced code runs (JAX's ``jax.debug.breakpoint``; callbacks family).

Note [breakpoints are debug callbacks]: when ``breakpoint()`` is called
(eagerly, or while ``jit``/``vmap``/``grad``/a loop body is being traced)
it walks the Python stack above it and keeps, for each frame, its file,
line, source and local variables. The array leaves of those locals that
are tracers of the current transformations become the operands of one
``debug.callback`` (:mod:`jaxtyped._src.debugging`); every other local is
kept as it is. When the callback runs (at once eagerly, while the compiled
program runs under ``jit``), the frames are rebuilt with the concrete
values and handed to the debugger. So, as in JAX, ``vmap`` stops once per
batch element, ``grad``/``jvp`` show the primal values, loop bodies stop
at every iteration and a ``cond`` branch only when it is taken.

The command-line debugger (backend ``"cli"``) is a :class:`cmd.Cmd` with
JAX's prompt and commands. Where this module deliberately differs from
JAX 0.10.2:

- the end of the input continues the program (JAX's quits, as ``q``
  does: ``SystemExit``);
- expressions see the frame's globals as well as its locals, and so do
  comprehensions and lambdas in them (JAX's see only the locals, and its
  comprehensions not even those);
- ``ll``/``longlist`` (the whole source of the frame) and ``h`` (help)
  are extra commands;
- an unknown backend, or an option the backend does not take, is an error
  when ``breakpoint`` is called (JAX falls back to its default debugger,
  or fails when the program runs); ``"web"`` and ``"colab"`` are JAX's
  backends that need packages or a notebook jaxtyped does not have;
- with ``token=``, ``vmap`` stops once per batch element (JAX refuses).
"""

import cmd
import inspect
import os
import pprint
import sys
import threading
import traceback
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import FrameType
from typing import IO, Final, Protocol, TypeVar, cast, final, overload, runtime_checkable

from jaxtyped._src.callbacks import ShapeDtypeLike, pure_callback
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import to_array
from jaxtyped._src.core.interpreter import ArrayTracer, Interpreter, current_interpreter
from jaxtyped._src.debugging import debug_callback
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.arithmetic import stop_gradient
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten

__all__ = ["DebuggerFrame", "breakpoint", "CliDebugger"]

T = TypeVar("T")

# Frames of jaxtyped itself: its source files, and (in debug mode) the
# wrappers beartype generates around its functions.
_PACKAGE_DIRS: Final[tuple[str, ...]] = tuple(
    {os.path.dirname(os.path.dirname(path)) + os.sep for path in (__file__, os.path.realpath(__file__))}
)
_BEARTYPE_WRAPPER: Final = "<@beartype(jaxtyped."
# JAX's backends that jaxtyped does not provide, and why.
_UNAVAILABLE_BACKENDS: Final[Mapping[str, str]] = {
    "web": "JAX's web debugger needs the web_pdb package, which jaxtyped does not use",
    "colab": "JAX's Colab debugger runs only inside a Colab notebook",
}


@final
@dataclass(frozen=True, slots=True)
class DebuggerFrame:
    """A Python frame as the debugger shows it.

    Attributes:
        filename: the frame's source file.
        locals: its local variables, with concrete values for what was traced.
        globals: its module's globals (the live dictionary).
        source: the lines of the enclosing function (or module), without
            their line ends; empty when the source cannot be found.
        lineno: the line that was running, in the file.
        offset: the index of that line in ``source``; ``None`` without source.
    """

    filename: str
    locals: dict[str, object]
    globals: Mapping[str, object]
    source: tuple[str, ...]
    lineno: int
    offset: int | None


# --- capturing the frames, while tracing ---------------------------------------------------------------------


@final
@dataclass(frozen=True, slots=True)
class _TracedLocal:
    """A local whose pytree has tracer leaves: its structure and leaves,
    with the traced ones (``traced[i]``) replaced by operands when the
    callback runs."""

    tree: PyTreeDef
    leaves: tuple[object, ...]
    traced: tuple[bool, ...]

    def rebuild(self, operands: Iterator[Array]) -> object:
        leaves = [next(operands) if traced else leaf for leaf, traced in zip(self.leaves, self.traced, strict=True)]
        value: object = tree_unflatten(self.tree, leaves)
        return value


@final
@dataclass(frozen=True, slots=True)
class _FrameTemplate:
    """A captured frame whose traced locals wait for their values."""

    filename: str
    locals: tuple[tuple[str, object], ...]  # a value, or a _TracedLocal
    globals: Mapping[str, object]
    source: tuple[str, ...]
    lineno: int
    offset: int | None

    def rebuild(self, operands: Iterator[Array]) -> DebuggerFrame:
        values = {
            name: value.rebuild(operands) if isinstance(value, _TracedLocal) else value for name, value in self.locals
        }
        return DebuggerFrame(self.filename, values, self.globals, self.source, self.lineno, self.offset)


def _is_own_frame(frame: FrameType) -> bool:
    filename = frame.f_code.co_filename
    return filename.startswith(_PACKAGE_DIRS) or filename.startswith(_BEARTYPE_WRAPPER)


def _stack_above(frame: FrameType | None, filter_frames: bool) -> list[FrameType]:
    """The frames from ``frame`` outwards, less the leading ones of
    jaxtyped (the call of ``breakpoint`` itself) and, with
    ``filter_frames``, every other frame of jaxtyped."""
    frames: list[FrameType] = []
    while frame is not None:
        if not (_is_own_frame(frame) and (filter_frames or not frames)):
            frames.append(frame)
        frame = frame.f_back
    return frames


def _source(frame: FrameType) -> tuple[tuple[str, ...], int | None]:
    """The source lines of the code ``frame`` runs, and the index of its line."""
    try:
        lines, start = inspect.getsourcelines(frame)
    except (OSError, TypeError):  # no file (``exec``, the REPL), or a built-in
        return (), None
    source = tuple("".join(lines).split("\n"))
    offset = (frame.f_lineno or 0) - max(start, 1)
    if not 0 <= offset < len(source):
        return (), None
    return source, offset


def _usable(leaf: object, current: Interpreter) -> bool:
    """Whether ``leaf`` is a tracer that can be an operand here: of a
    transformation that is running and encloses the current one."""
    return isinstance(leaf, ArrayTracer) and leaf.interpreter.active and leaf.interpreter.is_ancestor_of(current)


def _capture(frame: FrameType, current: Interpreter, operands: list[Array]) -> _FrameTemplate:
    """``frame`` as a template; its tracer leaves are appended to ``operands``."""
    captured: list[tuple[str, object]] = []
    for name, value in dict(frame.f_locals).items():
        try:
            leaves, tree = tree_flatten(value)
        except Exception:  # noqa: BLE001 - a value that cannot be flattened is shown as it is
            captured.append((name, value))
            continue
        traced = tuple(_usable(leaf, current) for leaf in leaves)
        if not any(traced):
            captured.append((name, value))
            continue
        operands.extend(cast(Array, leaf) for leaf, t in zip(leaves, traced) if t)
        kept = tuple(None if t else leaf for leaf, t in zip(leaves, traced))
        captured.append((name, _TracedLocal(tree, kept, traced)))
    source, offset = _source(frame)
    return _FrameTemplate(
        frame.f_code.co_filename, tuple(captured), frame.f_globals, source, frame.f_lineno or 0, offset
    )


# --- the command-line debugger -----------------------------------------------------------------------------


@runtime_checkable
class _Reader(Protocol):
    """What the debugger reads commands from."""

    def readline(self) -> str: ...


@runtime_checkable
class _Writer(Protocol):
    """What the debugger writes to."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


class CliDebugger(cmd.Cmd):
    """The command-line debugger: JAX's ``jdb`` prompt and commands on the
    captured frames (frame 0 is the one that called ``breakpoint``).

    Without ``stdin`` it reads with ``input()`` (line editing on a
    terminal), from ``sys.stdin`` as it is when the debugger starts; it
    writes to ``stdout``, else to ``sys.stdout`` as it is then.
    """

    prompt = "(jdb) "

    def __init__(
        self,
        frames: Sequence[DebuggerFrame],
        stdin: _Reader | None = None,
        stdout: _Writer | None = None,
        completekey: str = "tab",
    ) -> None:
        # cmd only reads lines from stdin and writes text to stdout.
        super().__init__(completekey, cast("IO[str] | None", stdin), cast("IO[str] | None", stdout))
        self.use_rawinput = stdin is None
        self.frames = tuple(frames)
        self.frame_index = 0
        self.intro = "Entering jdb:"

    def run(self) -> None:
        """Read and run commands until one continues the program."""
        while True:
            try:
                self.cmdloop()
            except KeyboardInterrupt:
                self._say("--KeyboardInterrupt--")
            else:
                return

    def _say(self, text: str) -> None:
        print(text, file=self.stdout)

    def _evaluate(self, expression: str) -> object:
        if not self.frames:
            return eval(expression, {})  # noqa: S307 - the user's own expression, as in pdb
        frame = self.frames[self.frame_index]
        # One namespace (a copy): comprehensions and lambdas typed at the
        # prompt see the locals too.
        return eval(expression, {**frame.globals, **frame.locals})  # noqa: S307 - as above

    def _show(self, expression: str, render: Callable[[object], str]) -> None:
        try:
            value = self._evaluate(expression)
        except Exception as err:  # noqa: BLE001 - reported, as pdb does
            self._say("*** " + traceback.format_exception_only(type(err), err)[-1].strip())
            return
        self._say(render(value))

    def _context(self, around: int | None) -> None:
        """The current frame's place: ``around`` lines after the current
        one and one more before (the whole source for ``None``)."""
        if not self.frames:
            return
        frame = self.frames[self.frame_index]
        lines = [f"> {frame.filename}({frame.lineno})"]
        offset = frame.offset
        if offset is not None:
            first, last = (0, len(frame.source)) if around is None else (offset - 1 - around, offset + around)
            for i, line in enumerate(frame.source):
                if first <= i <= last:
                    lines.append(("->  " if i == offset else "    ") + line)
        self._say("\n".join(lines))

    def default(self, line: str) -> None:
        """A line that is not a command is an expression: print its value."""
        self._show(line, repr)

    def do_p(self, arg: str) -> None:
        """p expression
        Print the repr of the expression's value in the current frame."""
        self._show(arg, repr)

    def do_pp(self, arg: str) -> None:
        """pp expression
        Pretty-print the expression's value in the current frame."""
        self._show(arg, pprint.pformat)

    def do_up(self, arg: str) -> None:
        """u(p)
        Go to the frame that called the current one, and show where it is."""
        if self.frame_index >= len(self.frames) - 1:
            self._say("At topmost frame.")
        else:
            self.frame_index += 1
        self._context(2)

    do_u = do_up

    def do_down(self, arg: str) -> None:
        """d(own)
        Go back to the frame the current one called, and show where it is."""
        if self.frame_index == 0:
            self._say("At bottommost frame.")
        else:
            self.frame_index -= 1
        self._context(2)

    do_d = do_down

    def do_list(self, arg: str) -> None:
        """l(ist)
        Show the source around the current line of the current frame."""
        self._context(5)

    do_l = do_list

    def do_longlist(self, arg: str) -> None:
        """ll | longlist
        Show the whole source of the current frame's function."""
        self._context(None)

    do_ll = do_longlist

    def do_where(self, arg: str) -> None:
        """w(here) | bt
        Show the stack, the outermost frame first."""
        lines = ["Traceback:"]
        for frame in reversed(self.frames):
            lines.append(f'  File "{frame.filename}", line {frame.lineno}')
            lines.append("    <no source>" if frame.offset is None else f"    {frame.source[frame.offset].strip()}")
        self._say("\n".join(lines))

    do_w = do_bt = do_where

    def do_continue(self, arg: str) -> bool:
        """c(ont(inue))
        Leave the debugger and let the program go on."""
        return True

    do_c = do_cont = do_continue

    def do_quit(self, arg: str) -> None:
        """q(uit) | exit
        Stop the program (``SystemExit``; under ``jit`` the jitted call
        raises ``CallbackError`` with it as the cause)."""
        sys.exit(0)

    do_q = do_exit = do_quit

    def do_EOF(self, arg: str) -> bool:  # noqa: N802 - cmd's name for the end of input
        """EOF
        The end of the input: leave the debugger and let the program go on."""
        self._say("")
        return True

    def do_help(self, arg: str) -> None:
        """h(elp) [command]
        Without an argument, list the commands; with one, explain it."""
        method = getattr(self, "do_" + arg.strip(), None) if arg.strip() else None
        doc = inspect.getdoc(method) if method is not None else None
        if doc is None:
            super().do_help(arg)
            return
        usage, _, text = doc.partition("\n")
        self._say("\n".join([usage, *("    " + line for line in text.splitlines())]))

    do_h = do_help


# --- breakpoint ---------------------------------------------------------------------------------------------


@final
@dataclass(frozen=True, slots=True)
class _CliOptions:
    """The ``cli`` backend's keyword arguments (JAX's ``CliDebugger``'s)."""

    stdin: _Reader | None = None
    stdout: _Writer | None = None
    completekey: str = "tab"


def _cli_options(kwargs: Mapping[str, object]) -> _CliOptions:
    unknown = sorted(set(kwargs) - {"stdin", "stdout", "completekey"})
    if unknown:
        raise JaxtypedTypeError(
            f"debug.breakpoint: unexpected keyword argument {unknown[0]!r} for backend 'cli' "
            "(it takes stdin, stdout and completekey)"
        )
    stdin = kwargs.get("stdin")
    stdout = kwargs.get("stdout")
    completekey = kwargs.get("completekey", "tab")
    if stdin is not None and not isinstance(stdin, _Reader):
        raise JaxtypedTypeError(f"debug.breakpoint: stdin must have a readline method, got {type(stdin).__name__}")
    if stdout is not None and not isinstance(stdout, _Writer):
        raise JaxtypedTypeError(
            f"debug.breakpoint: stdout must have write and flush methods, got {type(stdout).__name__}"
        )
    if not isinstance(completekey, str):
        raise JaxtypedTypeError(f"debug.breakpoint: completekey must be a str, got {type(completekey).__name__}")
    return _CliOptions(stdin, stdout, completekey)


def _backend_options(backend: object, kwargs: Mapping[str, object]) -> _CliOptions:
    if backend is None or backend == "cli":
        return _cli_options(kwargs)
    if isinstance(backend, str) and backend in _UNAVAILABLE_BACKENDS:
        raise JaxtypedNotImplementedError(
            f"debug.breakpoint: backend={backend!r} is not available: {_UNAVAILABLE_BACKENDS[backend]}; "
            "use backend='cli' (the default)"
        )
    if isinstance(backend, str):
        raise JaxtypedValueError(f"debug.breakpoint: unknown backend={backend!r}; the available backend is 'cli'")
    raise JaxtypedTypeError(f"debug.breakpoint: backend must be a str or None, got {type(backend).__name__}")


# One debugger at a time: programs on several threads may stop together
# (reentrant: an expression typed at the prompt may run a breakpoint too).
_DEBUGGER_LOCK: Final = threading.RLock()


@final
class _BreakpointCallback:
    """The callback a breakpoint compiles to: it rebuilds the captured
    frames with the operands' values and runs the debugger on them."""

    __slots__ = ("frames", "options")

    def __init__(self, frames: tuple[_FrameTemplate, ...], options: _CliOptions) -> None:
        self.frames = frames
        self.options = options

    def __call__(self, *operands: Array) -> None:
        values = iter(operands)
        frames = [frame.rebuild(values) for frame in self.frames]
        options = self.options
        with _DEBUGGER_LOCK:
            CliDebugger(frames, options.stdin, options.stdout, options.completekey).run()

    def __repr__(self) -> str:
        return f"<jaxtyped.debug.breakpoint callback at 0x{id(self):x}>"


@overload
def breakpoint(  # noqa: A001 - JAX's name
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: None = None,
    **kwargs: object,
) -> None: ...
@overload
def breakpoint(  # noqa: A001 - JAX's name
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: T,
    **kwargs: object,
) -> T: ...
def breakpoint(  # noqa: A001 - JAX's name
    *,
    backend: str | None = None,
    filter_frames: bool = True,
    num_frames: int | None = None,
    ordered: bool = False,
    token: object = None,
    **kwargs: object,
) -> object:
    r"""Stop in an interactive debugger when this point of the program runs
    (JAX's ``jax.debug.breakpoint``).

    Eagerly it stops at once; under ``jit`` it stops while the compiled
    program runs, and the frames' traced local arrays have their concrete
    values. Under ``vmap`` it stops once per batch element, under
    ``grad``/``jvp`` it shows the primal values, in a loop body at every
    iteration, in a ``cond`` branch when the branch is taken.

    The ``jdb`` prompt takes ``p expr``, ``pp expr``, a bare expression,
    ``u``/``up``, ``d``/``down``, ``l``/``list``, ``ll``/``longlist``,
    ``w``/``where``/``bt``, ``c``/``cont``/``continue``,
    ``q``/``quit``/``exit`` (raises ``SystemExit``) and ``h``/``help``; the
    end of the input continues.

    Args:
        backend: the debugger: ``"cli"`` (the default, also for ``None``).
        filter_frames: leave out jaxtyped's own frames.
        num_frames: keep only this many frames, the innermost first.
        ordered: keep program order with other ordered effects.
        token: instead of ``ordered``, a pytree of arrays: the breakpoint
            runs once its value is computed, and it is returned (as new
            arrays with its values, which the rest of the program should
            use: an unused result lets the breakpoint be dropped).
        \*\*kwargs: options of the backend; ``"cli"`` takes ``stdin`` (an
            object with ``readline``), ``stdout`` (with ``write`` and
            ``flush``) and ``completekey``.

    Returns:
        ``None``, or with ``token`` a pytree like it.

    Raises:
        JaxtypedValueError: an unknown backend, or both ``ordered`` and ``token``.
        JaxtypedNotImplementedError: a JAX backend jaxtyped does not provide
            (``"web"``, ``"colab"``).
        JaxtypedTypeError: an option the backend does not take.
    """
    options = _backend_options(backend, kwargs)
    if token is not None and ordered:
        raise JaxtypedValueError("debug.breakpoint: `ordered` and `token` are mutually exclusive arguments")
    _check_num_frames(num_frames)
    current = current_interpreter()
    operands: list[Array] = []
    stack = _stack_above(inspect.currentframe(), bool(filter_frames))
    try:
        templates = tuple(_capture(frame, current, operands) for frame in stack[:num_frames])
    finally:
        del stack  # no reference cycles through the frames
    callback = _BreakpointCallback(templates, options)
    if token is None:
        debug_callback(callback, *operands, ordered=bool(ordered))
        return None
    return _with_token(callback, token, operands)


def _check_num_frames(num_frames: object) -> None:
    if num_frames is not None and (isinstance(num_frames, bool) or not isinstance(num_frames, int)):
        raise JaxtypedTypeError(f"debug.breakpoint: num_frames must be an int or None, got {type(num_frames).__name__}")


def _with_token(callback: _BreakpointCallback, token: object, operands: list[Array]) -> object:
    """Run ``callback`` once ``token`` is computed; the token's values come
    back (a ``pure_callback``, so an unused result drops the breakpoint)."""
    leaves, tree = tree_flatten(token)
    arrays: list[Array] = []
    for leaf in leaves:
        try:
            arrays.append(to_array(leaf, "debug.breakpoint token"))
        except TypeError:
            raise JaxtypedTypeError(
                f"debug.breakpoint: token must be an array or a pytree of arrays, got a leaf {type(leaf).__name__}"
            ) from None
    stopped_token, stopped_operands = stop_gradient((arrays, operands))
    count = len(stopped_token)

    def call(*values: Array) -> list[Array]:
        callback(*values[count:])
        return list(values[:count])

    shapes: list[ShapeDtypeLike] = list(stopped_token)
    outs = pure_callback(call, shapes, *stopped_token, *stopped_operands, vmap_method="sequential")
    result: object = tree_unflatten(tree, outs)
    return result
