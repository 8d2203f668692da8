#!/usr/bin/env python3
"""Find ``Any`` in jaxtyped's public signatures (usage: ``check_public_types.py [--allowlist FILE]``).

What is public: every module importable under ``jaxtyped`` with no
``_``-prefixed component (so nothing under ``jaxtyped._src``); in each, the
names of ``__all__`` (or, without one, the names not starting with ``_``)
whose object jaxtyped defines (``__module__`` under ``jaxtyped``; re-exports
of NumPy's or jaxlib's objects are theirs). For those objects:

- a function: its signature; if it has ``typing.get_overloads`` overloads,
  those instead (checkers only ever see the overloads of an overloaded
  function, never its implementation signature);
- a class: the methods, properties and class-level annotations (attributes)
  of the class and of its jaxtyped base classes; public names and dunders
  (not the methods ``dataclass`` and ``NamedTuple`` generate: checkers type
  those from the fields);
- a module-level annotated variable (``jnp.float32: Final[ScalarType]``) or
  an instance of a jaxtyped class: its annotation, and its class.

Annotations are resolved with ``typing.get_type_hints(..., include_extras=True)``
(a name that does not resolve is an error: debug mode needs them too), and
so are the string values of ``TypeAliasType`` aliases (recursive aliases).

The rule: a type *contains Any* when ``typing.Any`` occurs anywhere in it,
however deeply nested (``Callable[P, Any]``, ``tuple[Any, ...]``,
``dict[str, Any]``, ``type[Any]``), including inside the value of a type
alias (``TypeAliasType``) it names, with one exception: ``Any`` that is
*itself a type argument of a NumPy generic class* (``np.dtype[Any]``,
``np.ndarray[Any, np.dtype[Any]]``) is NumPy's way of saying "any dtype" or
"any shape" and is not counted (``np.ndarray[tuple[Any, ...], ...]`` still
is). Not looked into: ``Annotated`` metadata, ``Literal`` values, and the
bounds of type variables (a ``T`` bound to ``Callable[..., Any]`` hands the
caller's own type back, not ``Any``).

Where it counts:
- a return annotation, a property's type or an attribute's annotation
  containing Any is an error (there is no allowlist for results);
- a parameter annotation containing Any must be listed in the allowlist
  (``tools/public_any_params.txt``: one ``qualified.name(param)`` per line,
  each with a ``# reason``), which must match exactly: an unlisted
  parameter and a stale entry are both errors.

Missing annotations (an implicit ``Any``) are errors too. Exit status: 0
when clean, 1 otherwise.
"""

import argparse
import importlib
import inspect
import pkgutil
import sys
import types
import typing
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import typing_extensions

ROOT: Final = "jaxtyped"
DEFAULT_ALLOWLIST: Final = Path(__file__).resolve().parent / "public_any_params.txt"
_ANY_OBJECTS: Final[tuple[object, ...]] = (typing.Any, typing_extensions.Any)
_ALIAS_TYPES: Final[tuple[type, ...]] = tuple(
    {t for t in (getattr(typing, "TypeAliasType", None), typing_extensions.TypeAliasType) if isinstance(t, type)}
)
# Dunders in a class's namespace that are not API to check: data the class
# machinery stores, and hooks whose types object fixes.
_SKIPPED_DUNDERS: Final = frozenset(
    {
        "__dict__", "__weakref__", "__doc__", "__module__", "__slots__", "__annotations__", "__qualname__",
        "__orig_bases__", "__parameters__", "__firstlineno__", "__static_attributes__", "__match_args__",
        "__dataclass_fields__", "__dataclass_params__", "__protocol_attrs__", "__abstractmethods__",
        "__non_callable_proto_members__", "__hash__", "__init_subclass__", "__class_getitem__",
        "__subclasshook__",
    }
)  # fmt: skip


@dataclass(frozen=True, order=True)
class Finding:
    """One annotation containing ``Any`` (or missing).

    ``where`` is ``"return"`` (also properties and attributes) or
    ``"param"``; ``name`` is ``qualified.name`` for results and
    ``qualified.name(param)`` for parameters (the allowlist's key).
    """

    where: str
    name: str
    detail: str

    def __str__(self) -> str:
        return f"{self.name}: {self.detail}"


# --- the rule ---------------------------------------------------------------


def contains_any(hint: object) -> bool:
    """Whether ``hint`` contains ``Any`` by the module's rule."""
    return _contains_any(hint, set())


def _alias_value(alias: object) -> object:
    """The value of a ``TypeAliasType``; a string value (how a recursive
    alias is written before Python 3.12) is evaluated in the alias's module.

    Raises:
        NameError: the string names something its module does not define.
    """
    value: object = getattr(alias, "__value__")
    if not isinstance(value, str):
        return value
    module = sys.modules.get(str(getattr(alias, "__module__", "")))
    namespace = dict(vars(module)) if module is not None else {}
    return eval(value, namespace)  # noqa: S307 - a type expression from our own source


def _is_numpy_generic(origin: object) -> bool:
    return isinstance(origin, type) and origin.__module__.split(".")[0] == "numpy"


def _contains_any(hint: object, seen: set[int]) -> bool:
    if any(hint is a for a in _ANY_OBJECTS):
        return True
    if isinstance(hint, _ALIAS_TYPES):
        if id(hint) in seen:  # a recursive alias: its body is being looked at already
            return False
        seen.add(id(hint))
        return _contains_any(_alias_value(hint), seen)
    if isinstance(hint, list):  # the parameter list of Callable[[A, B], R]
        items: list[object] = list(typing.cast("list[object]", hint))
        return any(_contains_any(h, seen) for h in items)
    origin = typing.get_origin(hint)
    if origin is None:
        return False
    if origin is typing.Literal:
        return False
    args: tuple[object, ...] = typing.get_args(hint)
    if origin is typing.Annotated:
        return _contains_any(args[0], seen)
    if _is_numpy_generic(origin):
        args = tuple(a for a in args if not any(a is x for x in _ANY_OBJECTS))
    return any(_contains_any(a, seen) for a in args)


# --- discovery ----------------------------------------------------------------


def public_modules(root: str = ROOT) -> list[types.ModuleType]:
    """``root`` and every importable submodule with no private component."""
    package = importlib.import_module(root)
    modules = [package]
    for info in pkgutil.walk_packages(getattr(package, "__path__", []), prefix=root + ".", onerror=lambda _: None):
        if any(part.startswith("_") for part in info.name.split(".")):
            continue
        modules.append(importlib.import_module(info.name))
    return sorted(modules, key=lambda m: m.__name__)


def public_names(module: types.ModuleType) -> list[str]:
    """``__all__``, or the names not starting with ``_``."""
    names: object = getattr(module, "__all__", None)
    if isinstance(names, (list, tuple)):
        return [str(n) for n in typing.cast("Iterable[object]", names)]
    return [n for n in vars(module) if not n.startswith("_")]


def _ours(obj: object, root: str) -> bool:
    module = getattr(obj, "__module__", None)
    return isinstance(module, str) and (module == root or module.startswith(root + "."))


# --- checking -------------------------------------------------------------------


@dataclass
class Scanner:
    """Walks public objects once each (by identity), collecting findings."""

    root: str = ROOT

    def __post_init__(self) -> None:
        self.findings: list[Finding] = []
        self.annotations_checked = 0
        self._seen: set[int] = set()

    def scan_module(self, module: types.ModuleType) -> None:
        """Check the public names of ``module``."""
        annotations = _hints(module, module.__name__, self.findings)
        for name in public_names(module):
            qualified = f"{module.__name__}.{name}"
            if name in annotations:
                self._result(qualified, annotations[name], "annotation")
            obj: object = getattr(module, name, None)
            if isinstance(obj, types.ModuleType):
                continue
            self.scan_object(obj, qualified)

    def scan_object(self, obj: object, qualified: str) -> None:
        """Check one public object (a function, class or instance)."""
        if inspect.isclass(obj):
            if _ours(obj, self.root) and self._first(obj):
                self.scan_class(obj, qualified)
        elif inspect.isfunction(obj) or inspect.ismethod(obj):
            if _ours(obj, self.root) and self._first(obj):
                self.scan_function(obj, qualified)
        elif _ours(type(obj), self.root) and self._first(type(obj)):
            self.scan_class(type(obj), f"{qualified}.__class__")

    def scan_class(self, cls: type, qualified: str) -> None:
        """Check the methods, properties and attributes of ``cls`` and of its
        jaxtyped bases (the first definition of a name wins, as in the MRO)."""
        done: set[str] = set()
        attributes = _hints(cls, qualified, self.findings)
        for name, hint in attributes.items():
            if not name.startswith("_"):
                self._result(f"{qualified}.{name}", hint, "attribute")
        for base in cls.__mro__:
            if not _ours(base, self.root):
                continue
            for name, member in vars(base).items():
                if name in done or not _is_public_member(name):
                    continue
                done.add(name)
                self._member(member, f"{qualified}.{name}")

    def _member(self, member: object, qualified: str) -> None:
        if _wraps_a_function(member):
            inner: object = getattr(member, "__func__")
            member = inner
        if isinstance(member, property):
            if member.fget is not None:
                hints = _hints(member.fget, qualified, self.findings)
                self._result(qualified, hints.get("return", _MISSING), "property")
            if member.fset is not None:
                self.scan_function(member.fset, qualified + ".setter", returns=False)
            return
        if inspect.isfunction(member) and _ours(member, self.root) and not _synthesized(member):
            self.scan_function(member, qualified)

    def scan_function(self, fun: Callable[..., object], qualified: str, *, returns: bool = True) -> None:
        """Check ``fun``'s overloads if it has any, else its own signature."""
        overloads = typing.get_overloads(getattr(fun, "__func__", fun))
        for i, variant in enumerate(overloads or [fun]):
            label = f" [overload {i + 1}]" if overloads else ""
            self._signature(variant, qualified, label, returns)

    def _signature(self, fun: Callable[..., object], qualified: str, label: str, returns: bool) -> None:
        hints = _hints(fun, qualified, self.findings)
        try:
            params = list(inspect.signature(fun).parameters.values())
        except (TypeError, ValueError):
            params = []
        for i, param in enumerate(params):
            if i == 0 and param.name in ("self", "cls") and param.name not in hints:
                continue  # implicitly typed by the class
            hint = hints.get(param.name, _MISSING)
            self.annotations_checked += 1
            if hint is _MISSING:
                self.findings.append(Finding("error", f"{qualified}({param.name})", f"parameter{label} has no annotation"))
            elif self._contains_any(hint, f"{qualified}({param.name})"):
                self.findings.append(Finding("param", f"{qualified}({param.name})", f"parameter{label}: {_show(hint)}"))
        if returns and not qualified.endswith(".__init__"):
            self._result(qualified, hints.get("return", _MISSING), f"return{label}")

    def _result(self, qualified: str, hint: object, what: str) -> None:
        self.annotations_checked += 1
        if hint is _MISSING:
            self.findings.append(Finding("error", qualified, f"{what} has no annotation"))
        elif self._contains_any(hint, qualified):
            self.findings.append(Finding("return", qualified, f"{what}: {_show(hint)}"))

    def _contains_any(self, hint: object, qualified: str) -> bool:
        try:
            return contains_any(hint)
        except NameError as error:  # a type alias's string value names something undefined
            self.findings.append(Finding("error", qualified, f"a type alias does not resolve: {error}"))
            return False

    def _first(self, obj: object) -> bool:
        if id(obj) in self._seen:
            return False
        self._seen.add(id(obj))
        return True


_MISSING: Final = object()


def _wraps_a_function(member: object) -> bool:
    # Not a narrowing isinstance at the call: pyright would type the
    # staticmethod's parameters as unknown.
    return isinstance(member, (staticmethod, classmethod))


def _synthesized(fun: Callable[..., object]) -> bool:
    """Whether ``fun`` was generated from a string (``dataclass``'s
    ``__eq__``/``__setattr__``, ``NamedTuple``'s ``__new__``): checkers derive
    their types from the fields, which are checked as attributes."""
    code = getattr(inspect.unwrap(fun), "__code__", None)  # dataclass wraps __repr__ in reprlib's guard
    return isinstance(code, types.CodeType) and code.co_filename.startswith("<")


def _is_public_member(name: str) -> bool:
    if name.startswith("__") and name.endswith("__"):
        return name not in _SKIPPED_DUNDERS
    return not name.startswith("_")


def _hints(obj: object, qualified: str, findings: list[Finding]) -> dict[str, object]:
    """``obj``'s resolved annotations ({} if it has none); a failure to
    resolve them is recorded as an error."""
    try:
        return dict(typing.get_type_hints(obj, include_extras=True))
    except Exception as error:  # NameError, TypeError from a bad annotation, ...
        findings.append(Finding("error", qualified, f"annotations do not resolve: {type(error).__name__}: {error}"))
        return {}


def _show(hint: object) -> str:
    text = repr(hint) if not isinstance(hint, type) else hint.__qualname__
    return text.replace("typing.", "").replace("collections.abc.", "")


# --- the allowlist ----------------------------------------------------------------


def read_allowlist(lines: Iterable[str]) -> tuple[set[str], list[str]]:
    """The ``qualified.name(param)`` entries of an allowlist, and the errors
    in it (an entry without a ``# reason``, a duplicate, a malformed line)."""
    entries: set[str] = set()
    errors: list[str] = []
    for number, raw in enumerate(lines, 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        entry, _, reason = line.partition("#")
        entry = entry.strip()
        if not reason.strip():
            errors.append(f"allowlist line {number}: {entry!r} has no '# reason'")
        if not (entry.endswith(")") and "(" in entry):
            errors.append(f"allowlist line {number}: {entry!r} is not 'qualified.name(param)'")
        if entry in entries:
            errors.append(f"allowlist line {number}: {entry!r} is listed twice")
        entries.add(entry)
    return entries, errors


def compare(findings: Iterable[Finding], allowed: set[str]) -> list[str]:
    """The problems: every error and ``Any`` result, every parameter not in
    ``allowed``, and every entry of ``allowed`` that matches no parameter."""
    problems: list[str] = []
    params: set[str] = set()
    for finding in sorted(set(findings)):
        if finding.where == "param":
            params.add(finding.name)
            if finding.name not in allowed:
                problems.append(f"parameter not in the allowlist: {finding}")
        elif finding.where == "return":
            problems.append(f"Any in a result: {finding}")
        else:
            problems.append(f"error: {finding}")
    problems += [f"stale allowlist entry (no such parameter with Any): {entry}" for entry in sorted(allowed - params)]
    return problems


def scan(root: str = ROOT) -> Scanner:
    """A scanner that has been over every public module of ``root``."""
    scanner = Scanner(root)
    for module in public_modules(root):
        scanner.scan_module(module)
    return scanner


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--allowlist", type=Path, default=DEFAULT_ALLOWLIST)
    parser.add_argument("--root", default=ROOT, help="the package to check (default: jaxtyped)")
    args = parser.parse_args(argv)
    allowlist: Path = args.allowlist
    allowed, problems = read_allowlist(allowlist.read_text().splitlines() if allowlist.exists() else [])
    scanner = scan(str(args.root))
    problems += compare(scanner.findings, allowed)
    params = len({f.name for f in scanner.findings if f.where == "param"})
    for problem in problems:
        print(problem)
    print(
        f"check_public_types: {scanner.annotations_checked} annotations checked; "
        f"{params} parameter(s) with Any ({len(allowed)} allowed); {len(problems)} problem(s)"
    )
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
