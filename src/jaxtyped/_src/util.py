"""Small helpers shared by every layer (layer L0): strict zips, axis
normalisation, and descriptions of user functions for error messages."""

import functools
import inspect
import types
import operator
from collections.abc import Callable, Iterable, Sequence
from typing import Any, SupportsIndex, TypeVar, cast, final

from typing_extensions import TypeGuard, TypeIs

import numpy as np

from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError

__all__ = [
    "arg_names",
    "safe_zip",
    "unzip2",
    "split_list",
    "canonicalize_axis",
    "index_arg",
    "axis_tuple",
    "canonicalize_axes",
    "describe_function",
    "prod",
    "is_int",
    "is_tuple",
    "is_list_or_tuple",
    "normalize_argnames",
    "check_argnames",
    "match_static",
    "AnyOnly",
    "Unannotated",
]

T = TypeVar("T")
U = TypeVar("U")


@final
class Unannotated:
    """A type no value has, so that only ``Any`` (a parameter without an
    annotation, a lambda's) matches a class's type argument bound to it."""


# A type variable only Any matches: for a function returning Any,
# Callable[..., AnyOnly] solves it to Any (eval_shape, grad's classes); an
# argument typed Any matches a first overload's AnyOnly parameter, which
# gives the user's Any back (Note [Any in, Any out] in api_tree); for any
# other type it does not match.
AnyOnly = TypeVar("AnyOnly", bound=Unannotated)
F = TypeVar("F", bound=Callable[..., object])


def safe_zip(xs: Sequence[T], ys: Sequence[U]) -> list[tuple[T, U]]:
    """``zip`` that insists both sequences have the same length."""
    if len(xs) != len(ys):
        raise ValueError(f"safe_zip: length mismatch {len(xs)} != {len(ys)}")
    return list(zip(xs, ys))


def unzip2(pairs: Iterable[tuple[T, U]]) -> tuple[tuple[T, ...], tuple[U, ...]]:
    """Split an iterable of pairs into a pair of tuples."""
    firsts: list[T] = []
    seconds: list[U] = []
    for first, second in pairs:
        firsts.append(first)
        seconds.append(second)
    return tuple(firsts), tuple(seconds)


def split_list(xs: Sequence[T], sizes: Sequence[int]) -> list[list[T]]:
    """Split ``xs`` into consecutive pieces of the given sizes plus the rest."""
    pieces: list[list[T]] = []
    start = 0
    for size in sizes:
        pieces.append(list(xs[start : start + size]))
        start += size
    pieces.append(list(xs[start:]))
    return pieces


def is_int(x: object) -> TypeGuard[int | np.integer[Any]]:
    """Whether ``x`` is a Python or NumPy integer (``bool`` excluded)."""
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool)


def is_tuple(x: object) -> TypeIs[tuple[object, ...]]:
    """Whether ``x`` is a tuple (narrowing its items to ``object``)."""
    return isinstance(x, tuple)


def is_list_or_tuple(x: object) -> TypeIs[list[object] | tuple[object, ...]]:
    """Whether ``x`` is a list or a tuple (narrowing its items to ``object``)."""
    return isinstance(x, (list, tuple))


def prod(xs: Iterable[int]) -> int:
    """Product of integers (1 for an empty iterable)."""
    result = 1
    for x in xs:
        result *= x
    return result


def index_arg(value: object, where: str) -> int:
    """``value`` as an ``int`` where an integer argument (an axis, a size, a
    count) is required: Python and NumPy integers (anything with
    ``__index__``) pass; floats, strings and the rest raise.

    Raises:
        JaxtypedTypeError: naming ``where`` (the function and argument) and
            the value given, as JAX raises a TypeError there.
    """
    if type(value) is int:  # the common case, first: this runs on every eager op with an axis
        return value
    if isinstance(value, SupportsIndex) and not isinstance(value, (float, complex)):
        return operator.index(value)
    raise JaxtypedTypeError(f"{where} must be an integer, got {value!r} of type {type(value).__name__}")


def axis_tuple(axis: object, where: str) -> tuple[int, ...]:
    """An ``axis`` argument that is one integer or a sequence of them, as a
    tuple of ints (not yet canonicalised).

    Raises:
        JaxtypedTypeError: an entry is not an integer (see :func:`index_arg`).
    """
    if is_list_or_tuple(axis):
        return tuple(index_arg(a, where) for a in axis)
    return (index_arg(axis, where),)


def canonicalize_axis(axis: int, ndim: int, *, where: str = "axis") -> int:
    """Map a possibly negative ``axis`` into ``range(ndim)``.

    Args:
        axis: the axis as the user wrote it.
        ndim: the rank of the array it indexes.
        where: the function and argument named in the error message.

    Raises:
        JaxtypedTypeError: the axis is not an integer (``1.5``, ``"a"``).
        JaxtypedValueError: the axis is out of range for ``ndim``.
    """
    axis = index_arg(axis, where)
    if not -ndim <= axis < ndim:
        raise JaxtypedValueError(
            f"{where}: axis {axis} is out of bounds for an array of rank {ndim}"
        )
    return axis + ndim if axis < 0 else axis


def canonicalize_axes(axes: Sequence[int], ndim: int, *, where: str = "axes") -> tuple[int, ...]:
    """Canonicalise several axes and reject repeats."""
    result = tuple(canonicalize_axis(axis, ndim, where=where) for axis in axes)
    if len(set(result)) != len(result):
        raise JaxtypedValueError(f"{where}: repeated axis in {tuple(axes)}")
    return result


def name_function(fun: F, name: str, doc: str | None = None) -> F:
    """Give a function made by a factory its public name (and docstring).

    In debug mode ``fun`` is beartype's wrapper of the function the factory
    defined; the original (``__wrapped__``) is named too, because beartype's
    violation messages name the original.
    """
    targets: list[object] = [fun]
    original = getattr(fun, "__wrapped__", None)
    if original is not None:
        targets.append(original)
    for target in targets:
        setattr(target, "__name__", name)  # noqa: B010 - any function object
        setattr(target, "__qualname__", name)  # noqa: B010
        if doc is not None:
            setattr(target, "__doc__", doc)  # noqa: B010
    return fun


class _PredicateMeta(type):
    # isinstance(x, cls) asks the predicate the class was made with.
    def __instancecheck__(cls, instance: object) -> bool:
        accepts: Callable[[object], bool] = getattr(cls, "_accepts")
        return accepts(instance)


def predicate_class(name: str, doc: str, accepts: Callable[[object], bool]) -> type:
    """A class whose ``isinstance`` check is ``accepts``: the run-time face of
    a recursive type alias (beartype cannot resolve such an alias's forward
    references from other modules, but checks any class with isinstance)."""
    namespace = {"__doc__": doc, "__module__": accepts.__module__, "_accepts": staticmethod(accepts)}
    return _PredicateMeta(name, (), namespace)


def describe_function(fun: Callable[..., object]) -> str:
    """A short description of a user function for error messages:
    its qualified name and, where Python knows it, ``file:line``."""
    target: object = fun
    while isinstance(target, functools.partial):
        target = target.func
    name = getattr(target, "__qualname__", None) or getattr(target, "__name__", None)
    if not isinstance(name, str):
        name = type(target).__name__
    if not isinstance(target, types.FunctionType):
        return _describe_source(target, name)
    # Finding the source file stats the file system: once per code object
    # (the function, not its code, is asked: inspect finds the source of a
    # function defined in a doctest or by exec through its module).
    key = (target.__code__, name)
    described = _described_functions.get(key)
    if described is None:
        described = _describe_source(target, name)
        if len(_described_functions) >= _DESCRIBED_MAX:
            _described_functions.clear()
        _described_functions[key] = described
    return described


_described_functions: dict[tuple[types.CodeType, str], str] = {}
_DESCRIBED_MAX = 4096


def _describe_source(target: object, name: str) -> str:
    """``name`` with ``file:line`` of ``target`` where Python knows them."""
    try:
        source_file = inspect.getsourcefile(target)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # any callable is accepted at run time
        _, line = inspect.getsourcelines(target)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # same: raises TypeError for builtins
    except (TypeError, OSError):
        return name
    if source_file is None:
        return name
    return f"{name} at {source_file}:{line}"


def arg_names(fun: Callable[..., object], nargs: int) -> list[str]:
    """Names of the first ``nargs`` positional arguments of ``fun`` (its
    parameter names where Python knows them, else ``args[i]``)."""
    names = [f"args[{i}]" for i in range(nargs)]
    try:
        parameters = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return names
    for i, parameter in enumerate(parameters[:nargs]):
        if parameter.kind is inspect.Parameter.VAR_POSITIONAL:
            break
        if parameter.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD):
            names[i] = parameter.name
    return names


def normalize_argnames(value: object, where: str, what: str) -> tuple[str, ...]:
    """A ``static_argnames``-style option (a name, names, or None) as a
    tuple of names; the error names the function ``where`` and the option."""
    if value is None:
        return ()
    items: tuple[object, ...] = (value,)
    if not isinstance(value, str) and isinstance(value, Iterable):
        items = tuple(cast("Iterable[object]", value))
    names: list[str] = []
    for name in items:
        if not isinstance(name, str):
            raise JaxtypedTypeError(f"{where}: {what} must be a str or a sequence of str, got {value!r}")
        names.append(name)
    return tuple(names)


def check_argnames(fun: Callable[..., object], names: tuple[str, ...], where: str, what: str) -> None:
    """Names must be parameters of ``fun`` (unless it takes ``**kwargs`` or
    has no readable signature), as in JAX."""
    if not names:
        return
    try:
        params = inspect.signature(fun).parameters.values()
    except (TypeError, ValueError):
        return
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
        return
    unknown = set(names) - {p.name for p in params}
    if unknown:
        raise JaxtypedValueError(f"{where}: {what} names {sorted(unknown)}, which {describe_function(fun)} does not take")


def match_static(
    fun: Callable[..., object], nums: tuple[int, ...], names: tuple[str, ...]
) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """Complete static positions from names and names from positions using
    ``fun``'s signature (positional-or-keyword parameters only)."""
    if not nums and not names:
        return nums, names  # nothing to complete: no signature to read (jit(f)(x) inline pays this per call)
    try:
        params = list(inspect.signature(fun).parameters.values())
    except (TypeError, ValueError):
        return nums, names
    positional = [p for p in params if p.kind in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    all_nums = set(nums)
    all_names = set(names)
    for i in nums:
        if 0 <= i < len(positional) and positional[i].kind is inspect.Parameter.POSITIONAL_OR_KEYWORD:
            all_names.add(positional[i].name)
    for i, p in enumerate(positional):
        if p.name in names:
            all_nums.add(i)
    return tuple(sorted(all_nums)), tuple(sorted(all_names))
