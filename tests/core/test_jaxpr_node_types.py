"""Jaxpr node constructors check their arguments' types in debug mode.

The nodes are every dataclass defined in ``_src/core/jaxpr.py`` and
``_src/core/avals.py``, found by inspection, so a new node class is covered
without editing this file. For each, a fresh debug-mode interpreter (this
file run as a script, once, reporting JSON) builds it from well-typed sample
arguments, then with each field in turn given a value of the wrong type and,
for tuple fields, a tuple whose last item is of the wrong type: every
ill-typed call must raise ``DebugTypeError`` naming the class, the field (and
item) and the expected and actual types. Outside debug mode the constructors
are the plain dataclass ones (no cost).
"""

import dataclasses
import json
import os
import subprocess
import sys
import types
import typing
from typing import Any, NamedTuple, TypedDict

import numpy as np
import pytest

import jaxtyped as jt
from jaxtyped._src.core import avals as avals_module
from jaxtyped._src.core import jaxpr as jaxpr_module
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, array_from_numpy
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.jaxpr import Eqn, Jaxpr, Literal, Var
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.lax.transcendental import Sin

NODE_MODULES = (jaxpr_module, avals_module)
TUPLE_LENGTH = 9  # the wrong item is the last: beartype's one-random-item check would miss it 8 times in 9


class NotANode:
    """A value of a type no field accepts."""

    def __repr__(self) -> str:
        return "NotANode()"


def node_classes() -> list[type]:
    return [
        value
        for module in NODE_MODULES
        for value in vars(module).values()
        if isinstance(value, type) and dataclasses.is_dataclass(value) and value.__module__ == module.__name__
    ]


def init_fields(cls: type) -> list[tuple[str, object]]:
    """(name, annotation) of each constructor argument."""
    hints = typing.get_type_hints(cls)
    assert dataclasses.is_dataclass(cls)
    return [(f.name, hints[f.name]) for f in dataclasses.fields(cls) if f.init]


def samples() -> dict[object, object]:
    """A well-typed value of each class a node field names."""
    f32 = ShapedArray((), np.dtype("float32"))
    x = array_from_numpy(np.asarray(np.float32(1.0)))
    a, b = Var(0, f32), Var(1, f32)
    eqn = Eqn(Sin(), (a,), (b,))
    return {
        int: 1,
        bool: False,
        object: None,
        np.generic: np.float32(1.0),
        np.dtype: np.dtype("float32"),
        ShapedArray: f32,
        ArrayImpl: x,
        Array: x,
        Primitive: Sin(),
        Var: a,
        Literal: Literal.from_array(x),
        Eqn: eqn,
        Jaxpr: Jaxpr((), (a,), (b,), (eqn,)),
        frozenset: frozenset({"a"}),  # ShapedArray.vma (sharding family, issue 17)
    }


def sample(hint: object, table: dict[object, object]) -> object:
    origin = typing.get_origin(hint)
    if origin is tuple:
        return (sample(typing.get_args(hint)[0], table),)
    if origin is types.UnionType or origin is typing.Union:
        return sample(typing.get_args(hint)[0], table)
    if isinstance(hint, typing.TypeVar):  # a generic node's field (ClosedJaxpr's consts): its bound
        return sample(hint.__bound__, table)
    key = origin if isinstance(origin, type) else hint
    assert key in table, f"no sample value for the node field type {hint!r}: add one to samples()"
    return table[key]


class Case(NamedTuple):
    cls: str
    field: str  # "" for the well-typed call
    kind: str  # "valid", "wrong type" or "wrong item"


def cases() -> list[Case]:
    out: list[Case] = []
    for cls in node_classes():
        out.append(Case(cls.__name__, "", "valid"))
        for name, hint in init_fields(cls):
            if hint is object or hint is Any:
                continue  # nothing is of the wrong type
            out.append(Case(cls.__name__, name, "wrong type"))
            if typing.get_origin(hint) is tuple:
                out.append(Case(cls.__name__, name, "wrong item"))
    return out


def case_id(case: Case) -> str:
    return f"{case.cls}-{case.field or 'ok'}-{case.kind.replace(' ', '_')}"


class Result(TypedDict):
    error: str  # the exception's module and name, "" if none was raised
    message: str


class Report(TypedDict):
    checked_classes: list[str]
    results: dict[str, Result]


def run_case(case: Case, table: dict[object, object]) -> Result:
    cls = next(c for c in node_classes() if c.__name__ == case.cls)
    kwargs = {name: sample(hint, table) for name, hint in init_fields(cls)}
    if case.kind == "wrong type":
        kwargs[case.field] = NotANode()
    elif case.kind == "wrong item":
        good = kwargs[case.field]
        assert isinstance(good, tuple)
        kwargs[case.field] = good * (TUPLE_LENGTH - 1) + (NotANode(),)
    try:
        cls(**kwargs)
    except Exception as e:  # noqa: BLE001 - every outcome is reported
        return {"error": f"{type(e).__module__}.{type(e).__qualname__}", "message": str(e)}
    return {"error": "", "message": ""}


def child() -> Report:
    """Run in a fresh debug-mode interpreter."""
    assert jt.DEBUG
    table = samples()
    return {
        "checked_classes": [
            c.__name__ for c in node_classes() if hasattr(getattr(c, "__init__"), "__jaxtyped_checked_fields__")
        ],
        "results": {case_id(case): run_case(case, table) for case in cases()},
    }


# === the tests ===


@pytest.fixture(scope="module")
def report() -> Report:
    env = {**os.environ, "JAXTYPED_DEBUG": "1"}
    done = subprocess.run([sys.executable, "-W", "error", __file__], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and done.stderr == "", done.stderr
    result: Report = json.loads(done.stdout)
    return result


def test_node_classes_are_found() -> None:
    names = {c.__name__ for c in node_classes()}
    assert {"Var", "Literal", "Eqn", "Jaxpr", "ClosedJaxpr", "ShapedArray", "Zero", "UndefinedPrimal", "BatchAxis"} <= names


def test_every_node_class_checks_its_fields_in_debug_mode(report: Report) -> None:
    assert sorted(report["checked_classes"]) == sorted(c.__name__ for c in node_classes())


@pytest.mark.parametrize("case", cases(), ids=case_id)
def test_node_constructor_rejects_wrong_types_in_debug_mode(case: Case, report: Report) -> None:
    result = report["results"][case_id(case)]
    if case.kind == "valid":
        assert result == {"error": "", "message": ""}
        return
    assert result["error"] == "jaxtyped.errors.DebugTypeError", result
    item = f"[{TUPLE_LENGTH - 1}]" if case.kind == "wrong item" else ""
    # e.g. "Jaxpr(): argument invars[8] must be Var, got NotANode NotANode()"
    assert result["message"].startswith(f"{case.cls}(): argument {case.field}{item} must be "), result
    assert result["message"].endswith(", got NotANode NotANode()"), result


@pytest.mark.skipif(jt.DEBUG, reason="checks the constructors outside debug mode")
def test_constructors_are_plain_dataclass_ones_outside_debug_mode() -> None:
    for cls in node_classes():
        init = getattr(cls, "__init__")
        assert not hasattr(init, "__jaxtyped_checked_fields__"), cls
        assert not hasattr(init, "__wrapped__"), cls
    # So an ill-typed node is built without complaint (check_jaxpr is what
    # validates jaxprs outside debug mode).
    not_an_int: Any = "a"
    assert Var(not_an_int, ShapedArray((), np.dtype("float32"))).count is not_an_int


if __name__ == "__main__":
    print(json.dumps(child()))
