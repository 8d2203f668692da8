"""Tests for tools/check_public_types.py: which annotations count as
containing ``Any``, what the scanner visits, and the allowlist comparison."""

import json
import sys
import types
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal, Optional, TypeVar, get_type_hints, overload

import numpy as np
import pytest
from typing_extensions import Concatenate, ParamSpec, TypeAliasType

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

import jaxtyped.numpy as jnp  # noqa: E402
from tools.check_api_types import missing_from_wheel, required_wheel_files, stub_modules, verifytypes_report  # noqa: E402
from tools.check_public_types import Finding, Scanner, compare, contains_any, main, read_allowlist  # noqa: E402

P = ParamSpec("P")
T = TypeVar("T")
TAny = TypeVar("TAny", bound=Callable[..., Any])
WithAny = TypeAliasType("WithAny", "int | list[WithAny] | dict[str, Any]")
WithoutAny = TypeAliasType("WithoutAny", "int | list[WithoutAny]")
NDArray = np.ndarray[Any, np.dtype[Any]]


def _generic_hints(
    returns_any: Callable[P, Any], prefixed: Callable[Concatenate[Any, P], int], clean: Callable[P, int]
) -> None:
    """Holds the hints that mention the ParamSpec P (only valid in a signature)."""


_P_HINTS = get_type_hints(_generic_hints)


# --- the rule ---


@pytest.mark.parametrize(
    "hint",
    [
        Any,
        Optional[Any],
        int | Any,
        list[Any],
        tuple[Any, ...],
        dict[str, Any],
        Mapping[Any, int],
        type[Any],
        _P_HINTS["returns_any"],
        Callable[[Any], int],
        Callable[[int], list[Any]],
        _P_HINTS["prefixed"],
        Annotated[Any, "metadata"],
        np.ndarray[tuple[Any, ...], np.dtype[Any]],  # the shape's elements are not NumPy's parameter
        list[np.dtype[Any]] | tuple[int, dict[str, Any]],
        WithAny,
        list[WithAny],
    ],
)
def test_contains_any(hint: object) -> None:
    assert contains_any(hint)


@pytest.mark.parametrize(
    "hint",
    [
        int,
        None,
        list[int] | None,
        Callable[..., int],
        _P_HINTS["clean"],
        Callable[[int, str], tuple[int, ...]],
        np.dtype[Any],  # NumPy's "any dtype"
        NDArray,
        dict[str, NDArray],
        Literal["Any"],
        Annotated[int, Any],  # metadata are not types
        T,
        TAny,  # a bound is not looked into: the caller's type comes back
        WithoutAny,  # recursive: the walk terminates
        type[object],
        object,
    ],
)
def test_does_not_contain_any(hint: object) -> None:
    assert not contains_any(hint)


# --- the scanner, on a synthetic module of objects defined here ---


def returns_any(x: int) -> Any:
    return x


def takes_any(x: Any, y: int) -> int:
    return y


def returns_nested(x: int) -> Callable[..., dict[str, Any]]:
    raise NotImplementedError


def clean(x: NDArray, y: Callable[..., int]) -> tuple[int, ...]:
    return ()


def _defined_here(source: str) -> dict[str, object]:
    """Define what the checkers would reject (the scanner must catch it) as
    if in this module."""
    namespace: dict[str, object] = {"__name__": __name__}
    exec(source, namespace)  # noqa: S102 - fixed test source
    return namespace


BAD = _defined_here(
    "from typing_extensions import TypeAliasType\n"
    "def unannotated(x, y: int):\n    return y\n"
    "def unresolvable(x: 'Nope') -> int:\n    return 0\n"
    "Broken = TypeAliasType('Broken', 'int | Nope')\n"
    "def returns_broken() -> Broken:\n    return 0\n"
)


@overload
def overloaded(x: int) -> int: ...
@overload
def overloaded(x: str) -> dict[str, Any]: ...
def overloaded(x: int | str) -> Any:  # the implementation is not public: not reported
    return x


class Model:
    """A class with every kind of member."""

    attribute: Any
    counter: int
    _private_attribute: Any

    def method(self, x: list[Any]) -> list[Any]:
        return x

    def fine(self, x: int) -> int:
        return x

    def _private(self) -> Any:
        return None

    def __call__(self, x: int) -> Any:
        return x

    @property
    def prop(self) -> Any:
        return None

    @staticmethod
    def static(x: Any) -> int:
        return 0


@dataclass(frozen=True)
class Point:
    """Its generated __init__/__eq__/__repr__ are not checked; its fields are."""

    x: int
    y: Any


class Handle:
    """Only reachable through an exported instance."""

    def get(self) -> Any:
        return None


def _module(**objects: object) -> types.ModuleType:
    module = types.ModuleType("fake")
    module.__all__ = list(objects)  # type: ignore[attr-defined]  # a synthetic module  # pyright: ignore[reportAttributeAccessIssue]
    for name, obj in objects.items():
        setattr(module, name, obj)
    return module


def _scan(**objects: object) -> set[tuple[str, str]]:
    scanner = Scanner(root=__name__)
    scanner.scan_module(_module(**objects))
    return {(f.where, f.name) for f in scanner.findings}


def test_functions() -> None:
    found = _scan(returns_any=returns_any, takes_any=takes_any, returns_nested=returns_nested, clean=clean)
    assert found == {
        ("return", "fake.returns_any"),
        ("param", "fake.takes_any(x)"),
        ("return", "fake.returns_nested"),
    }


def test_missing_and_unresolvable_annotations_are_errors() -> None:
    found = _scan(unannotated=BAD["unannotated"], unresolvable=BAD["unresolvable"])
    assert found == {
        ("error", "fake.unannotated(x)"),
        ("error", "fake.unannotated"),
        ("error", "fake.unresolvable"),
        ("error", "fake.unresolvable(x)"),
    }


def test_overloads_are_checked_instead_of_the_implementation() -> None:
    scanner = Scanner(root=__name__)
    scanner.scan_module(_module(overloaded=overloaded))
    assert [(f.where, f.name, f.detail) for f in scanner.findings] == [
        ("return", "fake.overloaded", "return [overload 2]: dict[str, Any]")
    ]


def test_class_members() -> None:
    assert _scan(Model=Model) == {
        ("return", "fake.Model.attribute"),
        ("param", "fake.Model.method(x)"),
        ("return", "fake.Model.method"),
        ("return", "fake.Model.__call__"),
        ("return", "fake.Model.prop"),
        ("param", "fake.Model.static(x)"),
    }


def test_dataclass_fields_but_not_generated_methods() -> None:
    assert _scan(Point=Point) == {("return", "fake.Point.y")}


def test_instances_are_checked_through_their_class() -> None:
    assert _scan(handle=Handle()) == {("return", "fake.handle.__class__.get")}


def test_each_object_once_and_only_our_own() -> None:
    found = _scan(returns_any=returns_any, alias=returns_any, dumps=__import__("json").dumps, np_dtype=np.dtype)
    assert found == {("return", "fake.returns_any")}


def test_module_annotations_are_results() -> None:
    module = _module(x=1)
    module.__annotations__ = {"x": dict[str, Any]}
    scanner = Scanner(root=__name__)
    scanner.scan_module(module)
    assert [(f.where, f.name) for f in scanner.findings] == [("return", "fake.x")]


# --- the allowlist ---


def test_read_allowlist() -> None:
    entries, errors = read_allowlist(
        [
            "# a comment",
            "",
            "pkg.f(x)  # a reason",
            "pkg.g(y)",
            "pkg.f(x)  # twice",
            "pkg.h  # not a parameter",
        ]
    )
    assert entries == {"pkg.f(x)", "pkg.g(y)", "pkg.h"}
    assert errors == [
        "allowlist line 4: 'pkg.g(y)' has no '# reason'",
        "allowlist line 5: 'pkg.f(x)' is listed twice",
        "allowlist line 6: 'pkg.h' is not 'qualified.name(param)'",
    ]


def test_compare() -> None:
    findings = [
        Finding("param", "pkg.f(x)", "parameter: Any"),
        Finding("param", "pkg.f(x)", "parameter [overload 2]: Any"),
        Finding("param", "pkg.g(y)", "parameter: list[Any]"),
        Finding("return", "pkg.h", "return: Any"),
        Finding("error", "pkg.k", "return has no annotation"),
    ]
    problems = compare(findings, {"pkg.f(x)", "pkg.stale(z)"})
    assert problems == [
        "error: pkg.k: return has no annotation",
        "parameter not in the allowlist: pkg.g(y): parameter: list[Any]",
        "Any in a result: pkg.h: return: Any",
        "stale allowlist entry (no such parameter with Any): pkg.stale(z)",
    ]
    assert compare(findings[:3], {"pkg.f(x)", "pkg.g(y)"}) == []


# --- end to end, on a small package ---

PACKAGE: dict[str, str] = {
    "pkg_h2/__init__.py": "from typing import Any\n\ndef api(x: Any) -> int:\n    return 0\n",
    "pkg_h2/public.py": "from typing import Any\n\n__all__ = ['helper']\n\ndef helper(y: list[Any]) -> int:\n    return 0\n",
    "pkg_h2/_private.py": "from typing import Any\n\ndef hidden() -> Any:\n    return 0\n",
}


@pytest.mark.parametrize(
    ("allowlist", "status"),
    [
        ("pkg_h2.api(x)  # r\npkg_h2.public.helper(y)  # r\n", 0),
        ("pkg_h2.api(x)  # r\n", 1),  # helper(y) unlisted
        ("pkg_h2.api(x)  # r\npkg_h2.public.helper(y)  # r\npkg_h2.gone(z)  # r\n", 1),  # stale
        ("pkg_h2.api(x)\npkg_h2.public.helper(y)  # r\n", 1),  # no reason
    ],
)
def test_main(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], allowlist: str, status: int) -> None:
    for name, text in PACKAGE.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "allow.txt").write_text(allowlist)
    monkeypatch.setattr(sys, "path", [str(tmp_path), *sys.path])
    try:
        assert main(["--root", "pkg_h2", "--allowlist", str(tmp_path / "allow.txt")]) == status
    finally:
        for name in [m for m in sys.modules if m == "pkg_h2" or m.startswith("pkg_h2.")]:
            del sys.modules[name]
    out = capsys.readouterr().out
    assert "hidden" not in out  # under a private module
    assert "; 2 parameter(s) with Any" in out.splitlines()[-1]



def test_unresolvable_alias_is_an_error() -> None:
    assert _scan(returns_broken=BAD["returns_broken"]) == {("error", "fake.returns_broken")}


# --- tools/check_api_types.py's helpers ---


def test_wheel_must_hold_py_typed_and_every_stub(tmp_path: Path) -> None:
    for name in ("pkg/__init__.py", "pkg/py.typed", "pkg/top.pyi", "pkg/sub/deep.pyi", "other/x.pyi"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    required = required_wheel_files(tmp_path, "pkg")
    assert required == ["pkg/py.typed", "pkg/sub/deep.pyi", "pkg/top.pyi"]
    assert missing_from_wheel(["pkg/__init__.py", "pkg/py.typed", "pkg/top.pyi"], required) == ["pkg/sub/deep.pyi"]
    assert missing_from_wheel([*required, "pkg/__init__.py"], required) == []


def test_stub_modules(tmp_path: Path) -> None:
    for name in ("lib/__init__.pyi", "lib/sub/mod.pyi", "single.pyi", "lib/notes.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert stub_modules([tmp_path]) == ["lib", "lib.sub.mod", "single"]


def _verifytypes_json(score: float, errors: list[str]) -> str:
    diagnostics = [{"severity": "error", "message": message} for message in errors]
    symbols = [{"name": "pkg.f", "diagnostics": diagnostics}] if errors else []
    return json.dumps(
        {"typeCompleteness": {"completenessScore": score, "exportedSymbolCounts": {}, "symbols": symbols}}
    )


def test_verifytypes_report() -> None:
    assert verifytypes_report(_verifytypes_json(1.0, []))[0]
    ok, report = verifytypes_report(_verifytypes_json(0.99, ["Return type is partially unknown\n  more"]))
    assert not ok
    assert "pkg.f: Return type is partially unknown" in report
    assert not verifytypes_report(_verifytypes_json(1.0, ["Type is missing type annotation"]))[0]
    assert not verifytypes_report("not json")[0]


# --- found by stubtest on the package (stubs/README.md) ---


def test_array_method_positional_keepdims_matches_declaration() -> None:
    x = jnp.ones((2, 3))
    # JAX's order: out comes before keepdims (and must be None).
    assert x.sum(0, None, None, True).shape == (1, 3)
    assert x.max(0, None, True).shape == (1, 3)
    assert x.argmax(1, None, True).shape == (2, 1)
    assert x.mean(0, None, None, True).shape == (1, 3)
