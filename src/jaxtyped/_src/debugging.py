"""``jaxtyped.debug``: printing and callbacks from traced code (layer L5;
issue 16).

``debug.print(fmt, *args)`` formats with ``str.format`` on the host, when
the values exist: at once eagerly, while the compiled program runs under
``jit``. Under ``vmap`` each batch element is printed (one call per
element, in order); under ``jvp``/``grad`` the primal values are printed.
Both primitives carry an IO effect (see :mod:`jaxtyped._src.callbacks`),
ordered with ``ordered=True``.
"""

import string
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, final

import numpy as np
from typing_extensions import override

from jaxtyped._src.callbacks import FlatCallback, HostCallPrimitive, flatten_call_args, unroll_batch
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, is_numpy_value, is_python_scalar
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import HostValue, Tangent
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten

__all__ = ["DebugCallback", "DebugPrint", "debug_print", "debug_callback"]


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
    fmt: str
    in_tree: PyTreeDef
    static_args: tuple[tuple[int, object], ...]
    ordered: bool
    np_printoptions: tuple[tuple[str, object], ...]

    @property
    @override
    def is_ordered(self) -> bool:
        return self.ordered

    @override
    def call_host(self, args: tuple[ArrayImpl, ...]) -> tuple[HostValue, ...]:
        if not _has_placeholders(self.fmt):
            # As JAX: a string without fields is printed as it is ("{{" stays).
            print(self.fmt, flush=True)
            return ()
        call_args, call_kwargs = tree_unflatten(self.in_tree, _merge_static(args, self.static_args))
        options: dict[str, Any] = dict(self.np_printoptions)  # NumPy's own option values, as it gave them
        with np.printoptions(**options):
            text = self.fmt.format(*call_args, **call_kwargs)
        print(text, flush=True)
        return ()

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (
            ("fmt", self.fmt),
            ("has_placeholders", _has_placeholders(self.fmt)),
            ("in_tree", self.in_tree),
            ("logging_record", None),
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
    missing argument), and reject positional arguments the string never
    uses, as JAX does."""
    _FieldChecker().format(fmt, *args, **kwargs)
    used: set[int] = set()
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
    unused = [args[i] for i in range(len(args)) if i not in used]
    if unused:
        raise JaxtypedValueError(f"Unused positional arguments to `jaxtyped.debug.print`: {unused}")


def _printoptions() -> tuple[tuple[str, object], ...]:
    options = tuple(np.get_printoptions().items())
    try:
        hash(options)
    except TypeError:  # a custom formatter dict: printed with the defaults
        return ()
    return options


def debug_print(fmt: str, *args: object, ordered: bool = False, **kwargs: object) -> None:
    """Print ``fmt.format(*args, **kwargs)`` with the values the arguments
    have when the program runs (JAX's ``jax.debug.print``); works eagerly
    and under ``jit``, ``vmap`` (one line per batch element), ``grad``
    (the primal values), loops and ``cond``. ``ordered=True`` keeps the
    prints of successive calls in program order.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.debug.print("x = {}", jnp.arange(3.0))
        x = [0. 1. 2.]
    """
    _check_format(fmt, args, kwargs)
    arrays, tree, static = _split_static("debug.print", args, kwargs)
    bind(DebugPrint(fmt, tree, static, bool(ordered), _printoptions()), *arrays)


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

