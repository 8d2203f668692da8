"""``jaxtyped.debug``: printing and callbacks from traced code (layer L5;
issue 16).

``debug.print(fmt, *args)`` formats with ``str.format`` on the host, when
the values exist: at once eagerly, while the compiled program runs under
``jit``; ``debug.log`` hands the same text to Python's ``logging`` (an
INFO record of the ``jaxtyped._src.debugging`` logger, at the user's line). Under ``vmap`` each batch element is printed (one call per
element, in order); under ``jvp``/``grad`` the primal values are printed.
Both primitives carry an IO effect (see :mod:`jaxtyped._src.callbacks`),
ordered with ``ordered=True``.
"""

import copy
import inspect
import logging
import os
import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, Final, Protocol, final, overload, runtime_checkable

import numpy as np
from typing_extensions import override

from jaxtyped._src.callbacks import FlatCallback, HostCallPrimitive, flatten_call_args, unroll_batch
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, is_numpy_value, is_python_scalar
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import HostValue, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten

__all__ = ["DebugCallback", "DebugPrint", "DebugPrinter", "debug_print", "debug_log", "debug_callback"]

_LOGGER: Final = logging.getLogger(__name__)


class _DebugPrimitive(HostCallPrimitive):
    """What the two debug primitives share: no results, the callback sees
    the primal values under ``jvp``, and each batch element under ``vmap``."""

    __slots__ = ()
    replayed_when_recomputed: ClassVar[bool] = True

    @property
    @override
    def result_avals(self) -> tuple[ShapedArray, ...]:
        return ()

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        bind(self, *primals)
        return (), ()

    @override
    def batch(
        self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]
    ) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        unroll_batch(self, axis, args, dims)
        return (), ()


@final
class _Static:
    """A static leaf that does not hash (a set), held by identity so that
    the primitive holding it still hashes."""

    __slots__ = ("value",)

    def __init__(self, value: object) -> None:
        self.value = value

    def __repr__(self) -> str:
        return repr(self.value)


def _hashable(value: object) -> object:
    try:
        hash(value)
    except TypeError:
        return _Static(value)
    return value


def _merge_static(arrays: tuple[ArrayImpl, ...], static_args: tuple[tuple[int, object], ...]) -> list[object]:
    """The flat leaves: the arrays, with the static leaves put back at their positions."""
    leaves: list[object] = list(arrays)
    for position, value in static_args:
        leaves.insert(position, value.value if isinstance(value, _Static) else value)
    return leaves


@final
@dataclass(frozen=True, slots=True)
class DebugCallback(_DebugPrimitive):
    """A call of a Python function for its side effect (JAX's
    ``debug_callback``).

    Attributes:
        callback: the user's function on the flat arguments.
        static_args: the non-array leaves (``(position, value)``), passed as they are.
        ordered: whether calls keep program order.
    """

    name: ClassVar[str] = "debug_callback"
    several_results = True
    callback: FlatCallback
    static_args: tuple[tuple[int, object], ...]
    ordered: bool

    @property
    @override
    def is_ordered(self) -> bool:
        return self.ordered

    @override
    def call_host(self, args: tuple[ArrayImpl, ...]) -> tuple[HostValue, ...]:
        self.callback(_merge_static(args, self.static_args))
        return ()

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (
            ("callback", self.callback.callback_func),
            ("effect", "OrderedDebug" if self.ordered else "Debug"),
            ("partitioned", False),
        )


@final
@dataclass(frozen=True, slots=True)
class DebugPrint(_DebugPrimitive):
    """``str.format`` and print on the host (JAX's ``debug_print``).

    Attributes:
        fmt: the format string.
        in_tree: the tree of ``(args, kwargs)``.
        static_args: the non-array leaves (``(position, value)``).
        ordered: whether prints keep program order.
        np_printoptions: NumPy's print options when the print was traced
            (arrays print with them).
    """

    name: ClassVar[str] = "debug_print"
    several_results = True
    fmt: str
    in_tree: PyTreeDef
    static_args: tuple[tuple[int, object], ...]
    ordered: bool
    np_printoptions: tuple[tuple[str, object], ...]
    logging_record: logging.LogRecord | None = None

    @property
    @override
    def is_ordered(self) -> bool:
        return self.ordered

    @override
    def call_host(self, args: tuple[ArrayImpl, ...]) -> tuple[HostValue, ...]:
        call_args, call_kwargs = tree_unflatten(self.in_tree, _merge_static(args, self.static_args))
        options: dict[str, Any] = dict(self.np_printoptions)  # NumPy's own option values, as it gave them
        with np.printoptions(**options):
            if _has_placeholders(self.fmt):
                text = self.fmt.format(*call_args, **call_kwargs)
            else:
                # As JAX: a string without fields is printed as it is ("{{"
                # stays), followed by the positional arguments (only there
                # with skip_format_check).
                text = " ".join((self.fmt, *(str(a) for a in call_args)))
        if self.logging_record is None:
            print(text, flush=True)
        else:
            record = copy.copy(self.logging_record)  # one record per trace, one message per run
            record.msg = text
            _LOGGER.handle(record)
        return ()

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (
            ("fmt", self.fmt),
            ("has_placeholders", _has_placeholders(self.fmt)),
            ("in_tree", self.in_tree),
            ("logging_record", self.logging_record),
            ("np_printoptions", self.np_printoptions),
            ("ordered", self.ordered),
            ("partitioned", False),
            ("static_args", tuple(v for _, v in self.static_args)),
        )


def _has_placeholders(fmt: str) -> bool:
    return any(field is not None for _, field, _, _ in string.Formatter().parse(fmt))


def _is_array_leaf(leaf: object) -> bool:
    return isinstance(leaf, Array) or is_python_scalar(leaf) or is_numpy_value(leaf)


def _split_static(
    name: str, args: tuple[object, ...], kwargs: dict[str, object]
) -> tuple[list[Array], PyTreeDef, tuple[tuple[int, object], ...]]:
    """The array leaves of ``(args, kwargs)``, their tree, and the other
    leaves (strings, ...) with their positions, which stay static."""
    leaves, tree = tree_flatten((args, kwargs))
    static = tuple((i, _hashable(leaf)) for i, leaf in enumerate(leaves) if not _is_array_leaf(leaf))
    array_leaves = [leaf for leaf in leaves if _is_array_leaf(leaf)]
    arrays, _ = flatten_call_args(name, tuple(array_leaves), {})
    return arrays, tree, static


@final
class _FieldChecker(string.Formatter):
    """Resolves every field (so a missing argument or attribute raises
    while tracing, as JAX's check does) without formatting any value."""

    def format_field(self, value: object, format_spec: str) -> str:
        return ""


def _check_format(fmt: str, args: tuple[object, ...], kwargs: dict[str, object]) -> None:
    """Raise now, while tracing, what formatting would raise later (a
    missing argument), and reject arguments the string never uses, as JAX
    does (a keyword argument left over is most often an f-string's)."""
    _FieldChecker().format(fmt, *args, **kwargs)
    used: set[int] = set()
    used_names: set[str] = set()
    auto = 0
    for _, field, _, _ in string.Formatter().parse(fmt):
        if field is None:
            continue
        head = field.split(".")[0].split("[")[0]
        if head == "":
            used.add(auto)
            auto += 1
        elif head.isdigit():
            used.add(int(head))
        else:
            used_names.add(head)
    unused = [args[i] for i in range(len(args)) if i not in used]
    if unused:
        raise JaxtypedValueError(f"Unused positional arguments to `jaxtyped.debug.print`: {unused}")
    unused_names = [name for name in kwargs if name not in used_names]
    if unused_names:
        raise JaxtypedValueError(
            f"Unused keyword arguments to `jaxtyped.debug.print`: {unused_names}. You may be passing an f-string "
            '(i.e, `f"{x}"`) into `jaxtyped.debug.print` and instead should pass in a regular string.'
        )


def _printoptions() -> tuple[tuple[str, object], ...]:
    options = tuple(np.get_printoptions().items())
    try:
        hash(options)
    except TypeError:  # a custom formatter dict: printed with the defaults
        return ()
    return options


@runtime_checkable  # the debug mode checks results against it
class DebugPrinter(Protocol):
    """The second call of ``debug.print``'s and ``debug.log``'s two-call
    form: ``jt.debug.print(ordered=True)("x = {}", x)``."""

    def __call__(self, fmt: str, /, *args: object, **kwargs: object) -> None: ...


def _user_logging_record() -> logging.LogRecord:
    """An INFO record at the innermost frame outside jaxtyped (the line
    calling ``debug.log``, found while tracing, as JAX's)."""
    frame = inspect.currentframe()  # the caller chain, without the cost of inspect.stack()
    while frame is not None and frame.f_back is not None and frame.f_code.co_filename.startswith(_LIBRARY_FILES):
        frame = frame.f_back
    file_name, line = (frame.f_code.co_filename, frame.f_lineno) if frame is not None else ("(unknown file)", 0)
    return _LOGGER.makeRecord(_LOGGER.name, logging.INFO, file_name, line, "", (), None)


# jaxtyped's own files, and the wrappers the debug mode's beartype generates
# around its functions (their code has a name of this form, not a file).
_LIBRARY_FILES: Final = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep, "<@beartype(")


def _bind_print(
    where: str, fmt: str, args: tuple[object, ...], kwargs: dict[str, object], ordered: bool, skip_format_check: bool, log: bool
) -> None:
    if not isinstance(fmt, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # untyped callers
        raise JaxtypedTypeError(f"{where}: fmt must be a str, got {type(fmt).__name__}")
    if not skip_format_check:
        _check_format(fmt, args, kwargs)
    arrays, tree, static = _split_static(where, args, kwargs)
    record = _user_logging_record() if log else None
    bind(DebugPrint(fmt, tree, static, bool(ordered), _printoptions(), record), *arrays)


def _print_or_printer(
    where: str,
    fmt: str | None,
    args: tuple[object, ...],
    kwargs: dict[str, object],
    ordered: bool,
    skip_format_check: bool,
    log: bool,
) -> DebugPrinter | None:
    if fmt is not None:
        _bind_print(where, fmt, args, kwargs, ordered, skip_format_check, log)
        return None
    if args or kwargs:
        raise JaxtypedTypeError(f"{where} received unexpected arguments in the two-call form: {args=} {kwargs=}")

    def printer(fmt: str, /, *args: object, **kwargs: object) -> None:
        _bind_print(where, fmt, args, kwargs, ordered, skip_format_check, log)

    return printer


@overload
def debug_print(
    fmt: None = None, *, ordered: bool = False, partitioned: bool = False, skip_format_check: bool = False
) -> DebugPrinter: ...
@overload
def debug_print(
    fmt: str,
    *args: object,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    **kwargs: object,
) -> None: ...
def debug_print(
    fmt: str | None = None,
    *args: object,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    **kwargs: object,
) -> DebugPrinter | None:
    """Print ``fmt.format(*args, **kwargs)`` with the values the arguments
    have when the program runs (JAX's ``jax.debug.print``); works eagerly
    and under ``jit``, ``vmap`` (one line per batch element), ``grad``
    (the primal values), loops and ``cond``. ``ordered=True`` keeps the
    prints of successive calls in program order.

    Without ``fmt``, the options are taken first and a printer is
    returned (JAX's two-call form: ``debug.print(ordered=True)("{}", x)``).
    Arguments the string does not use raise while tracing, unless
    ``skip_format_check``; a string without fields is printed followed by
    the positional arguments. ``partitioned`` is accepted for JAX's
    signature (one device: no effect).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.debug.print("x = {}", jnp.arange(3.0))
        x = [0. 1. 2.]
    """
    return _print_or_printer("debug.print", fmt, args, kwargs, ordered, skip_format_check, log=False)


@overload
def debug_log(
    fmt: None = None, *, ordered: bool = False, partitioned: bool = False, skip_format_check: bool = False
) -> DebugPrinter: ...
@overload
def debug_log(
    fmt: str,
    *args: object,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    **kwargs: object,
) -> None: ...
def debug_log(
    fmt: str | None = None,
    *args: object,
    ordered: bool = False,
    partitioned: bool = False,
    skip_format_check: bool = False,
    **kwargs: object,
) -> DebugPrinter | None:
    """:func:`debug_print` through Python's ``logging`` (JAX's
    ``jax.debug.log``): each time the program runs, an INFO record of the
    ``jaxtyped._src.debugging`` logger carrying the formatted text, with
    the file and line that called ``debug.log``. As JAX's, the record is
    handed to the logger's handlers without a level check; a program that
    configures no logging handler sees nothing.

    Example:
        >>> import logging, sys, jaxtyped as jt
        >>> handler = logging.StreamHandler(sys.stdout)
        >>> logging.getLogger("jaxtyped._src.debugging").addHandler(handler)
        >>> jt.debug.log("step {}", 3)
        step 3
        >>> logging.getLogger("jaxtyped._src.debugging").removeHandler(handler)
    """
    return _print_or_printer("debug.log", fmt, args, kwargs, ordered, skip_format_check, log=True)


def debug_callback(
    callback: Callable[..., object], *args: object, ordered: bool = False, partitioned: bool = False, **kwargs: object
) -> None:
    """Call ``callback(*args, **kwargs)`` for its side effect with the
    values the arguments have when the program runs (JAX's
    ``jax.debug.callback``): arrays arrive as ``jaxtyped.Array``\\ s, other
    leaves (strings) as they are. Like :func:`debug_print` under every
    transformation; ``ordered=True`` keeps program order. ``partitioned``
    is accepted for JAX's signature (one device: no effect).
    """
    arrays, tree, static = _split_static("debug.callback", args, kwargs)
    bind(DebugCallback(FlatCallback(callback, tree), static, bool(ordered)), *arrays)

