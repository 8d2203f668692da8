"""Debug-mode type checks of the IR's node constructors (layer L1).

In debug mode beartype checks every dataclass-generated ``__init__``, but
only one randomly chosen item of a ``tuple[Var, ...]`` field per call (its
O(1) strategy; linear-time checking is not implemented). A jaxpr node with
one ill-typed item among many would then fail far from where it was built.
:func:`checked_fields` checks every item, deterministically, and only in
debug mode: otherwise it returns the class untouched, so node construction
costs nothing more.
"""

import dataclasses
import inspect
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

from jaxtyped._src.debug_flag import DEBUG
from jaxtyped._src.errors import DebugTypeError

__all__ = ["checked_fields", "field_checker"]

T = TypeVar("T")

# A check returns None when the value fits, else (path inside the value,
# expected type, offending value).
_Violation = tuple[str, str, object]
_Check = Callable[[object], _Violation | None]


def _accept_all(value: object) -> _Violation | None:
    return None


def _instance_check(cls: type) -> _Check:
    expected = _class_name(cls)

    def check(value: object) -> _Violation | None:
        return None if isinstance(value, cls) else ("", expected, value)

    return check


def _union_check(alternatives: tuple[object, ...]) -> _Check:
    checks = [field_checker(alt) for alt in alternatives]
    expected = " | ".join(_type_name(alt) for alt in alternatives)

    def check(value: object) -> _Violation | None:
        if any(c(value) is None for c in checks):
            return None
        return ("", expected, value)

    return check


def _tuple_check(items: tuple[object, ...]) -> _Check:
    # tuple[X, ...] (homogeneous) or tuple[X, Y] (fixed length).
    homogeneous = len(items) == 2 and items[1] is Ellipsis
    checks = [field_checker(items[0])] if homogeneous else [field_checker(item) for item in items]

    def check(value: object) -> _Violation | None:
        if not isinstance(value, tuple):
            return ("", "tuple", value)
        elements: tuple[object, ...] = value  # pyright: ignore[reportUnknownVariableType]  # a tuple of anything
        if not homogeneous and len(elements) != len(checks):
            return ("", f"tuple of length {len(checks)}", elements)
        for i, element in enumerate(elements):
            found = checks[0 if homogeneous else i](element)
            if found is not None:
                path, expected, bad = found
                return (f"[{i}]{path}", expected, bad)
        return None

    return check


def _class_name(cls: type) -> str:
    # numpy.dtype, not dtype; builtins and jaxtyped's own classes unqualified.
    package = cls.__module__.split(".")[0]
    return cls.__name__ if package in {"builtins", "jaxtyped"} else f"{package}.{cls.__name__}"


def _type_name(hint: object) -> str:
    origin = typing.get_origin(hint)
    if isinstance(hint, type) and origin is None:
        return _class_name(hint)
    if isinstance(origin, type):
        return _class_name(origin)
    return repr(hint)


def field_checker(hint: object) -> _Check:
    """A deep check of a value against ``hint``: classes, unions, tuples
    (every item), parametrised classes (``np.dtype[Any]``: by origin) and
    ``object``/``Any`` (anything), type variables (their bound). Other hints raise ``TypeError``, so a
    node field of a new kind is noticed rather than left unchecked."""
    if hint is Any or hint is object:
        return _accept_all
    if isinstance(hint, TypeVar):
        # A generic node's field (ClosedJaxpr's consts): checked against the bound.
        return _accept_all if hint.__bound__ is None else field_checker(hint.__bound__)
    origin = typing.get_origin(hint)
    if origin is tuple:
        return _tuple_check(typing.get_args(hint))
    if origin is types.UnionType or origin is typing.Union:
        return _union_check(typing.get_args(hint))
    if isinstance(hint, type) and origin is None:
        return _instance_check(hint)
    if isinstance(origin, type):
        return _instance_check(origin)
    raise TypeError(f"checked_fields: cannot check the annotation {hint!r}")


def _short_repr(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def checked_fields(cls: type[T]) -> type[T]:
    """Class decorator for dataclasses: in debug mode, calling the class
    checks every constructor argument against its field's annotation (each
    item of a tuple included) and raises :class:`DebugTypeError` naming the
    class, the field (and item) and the expected and actual types. Outside
    debug mode it returns ``cls`` unchanged.

    Apply it above ``@dataclass`` (it wraps the generated ``__init__``).
    """
    if not DEBUG:
        return cls
    if not dataclasses.is_dataclass(cls):
        raise TypeError(f"checked_fields: {cls.__name__} is not a dataclass")
    hints = typing.get_type_hints(cls)
    checks = [(f.name, field_checker(hints[f.name])) for f in dataclasses.fields(cls) if f.init]
    names = [name for name, _ in checks]
    init: Callable[..., None] = getattr(cls, "__init__")

    def __init__(self: object, *args: object, **kwargs: object) -> None:
        # Check before the generated __init__ runs: a __post_init__ (the
        # aval's hash) could fail first with a less clear error.
        given = dict(zip(names, args))
        given.update(kwargs)
        for name, check in checks:
            if name in given and (found := check(given[name])) is not None:
                path, expected, bad = found
                raise DebugTypeError(
                    f"{cls.__name__}(): argument {name}{path} must be {expected}, "
                    f"got {type(bad).__name__} {_short_repr(bad)}"
                )
        init(self, *args, **kwargs)

    __init__.__qualname__ = f"{cls.__qualname__}.__init__"
    setattr(__init__, "__signature__", inspect.signature(init))
    setattr(__init__, "__jaxtyped_checked_fields__", True)
    setattr(cls, "__init__", __init__)
    return cls
