"""Debug mode (``JAXTYPED_DEBUG=1``): the whole package is under beartype.

Each mode is observed in a fresh interpreter (this file run as a script, once
per mode, reporting JSON), so both pytest gates test both modes:

* on (``python -W error``, every warning an error): importing every module
  warns nothing; every function the package defines is beartype-wrapped, or
  has nothing for beartype to check, or is in :data:`UNCHECKED`; ill-typed
  calls to public functions raise ``DebugTypeError`` before our code runs,
  naming the function, the parameter, the annotation and the actual type.
* off: no public function is a beartype wrapper and beartype is not even
  imported.
"""

import importlib
import inspect
import json
import os
import pkgutil
import subprocess
import sys
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType
from typing import Literal, NamedTuple, TypedDict

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax

# Functions beartype cannot check, each with the reason.
UNCHECKED: dict[str, str] = {
    "jaxtyped._src.debug_flag.read_debug_flag": "imported before the hook: it decides whether to install it",
}

Mode = Literal["debug", "plain"]


def identity(x: object) -> object:
    return x


def enter_disable_jit(disable: bool) -> object:
    # A context manager's arguments are checked when the block is entered.
    return jt.disable_jit(disable).__enter__()


X = jnp.ones(3, dtype=np.float32)


class BadCall(NamedTuple):
    """An ill-typed call, and what its DebugTypeError message must name.

    The call is data (function, arguments) so that the type checkers, which
    would reject it statically, do not see it."""

    function: str  # as the message names it, followed by "()"
    parameter: str
    expected: str  # a fragment of the annotation
    actual: str  # the type name of the bad argument
    fun: Callable[..., object]
    args: tuple[object, ...]
    kwargs: Mapping[str, object]


def bad(function: str, parameter: str, expected: str, actual: str, fun: Callable[..., object], *args: object, **kwargs: object) -> BadCall:
    return BadCall(function, parameter, expected, actual, fun, args, kwargs)


BAD_CALLS: dict[str, BadCall] = {
    "jit": bad("jit", "fun", "Callable", "int", jt.jit, 3),
    "grad": bad("grad", "argnums", "Sequence[int]", "str", jt.grad, identity, argnums="a"),
    "vmap": bad("vmap", "in_axes", "int | None", "float", jt.vmap, identity, in_axes=1.5),
    "value_and_grad": bad("value_and_grad", "has_aux", "bool", "int", jt.value_and_grad, identity, has_aux=3),
    "vjp": bad("vjp", "fun", "Callable", "int", jt.vjp, 3, X),
    "make_jaxpr": bad("make_jaxpr", "fun", "Callable", "int", jt.make_jaxpr, 3),
    "custom_jvp": bad("custom_jvp.__init__", "fun", "Callable", "int", jt.custom_jvp, 3),
    "checkpoint": bad("checkpoint", "policy", "Callable", "int", jt.checkpoint, identity, policy=3),
    "disable_jit": bad("disable_jit", "disable", "bool", "str", enter_disable_jit, "yes"),
    "device_put": bad("device_put", "device", "Device | jaxtyped._src.sharding.Sharding | None", "str", jt.device_put, X, device="cpu"),
    "tree_map": bad("tree_map", "f", "Callable", "int", jt.tree_util.tree_map, 3, [X]),
    "jnp.zeros": bad("zeros", "shape", "SupportsIndex", "str", jnp.zeros, "x"),
    "jnp.reshape": bad("reshape", "shape", "SupportsIndex", "str", jnp.reshape, X, "a"),
    "jnp.sum": bad("sum", "axis", "Sequence[int]", "str", jnp.sum, X, axis="a"),
    "jnp.sin": bad("sin", "x", "Array", "list", jnp.sin, [1.0]),
    "jnp.transpose": bad("transpose", "axes", "Sequence[int]", "str", jnp.transpose, X, axes="a"),
    "lax.add": bad("add", "x", "Array", "list", lax.add, [1.0], X),
    "lax.convert_element_type": bad("convert_element_type", "new_dtype", "dtype", "int", lax.convert_element_type, X, 3),
    "lax.cond": bad("cond", "true_fun", "Callable", "int", lax.cond, True, 3, identity, X),
    "lax.while_loop": bad("while_loop", "cond_fun", "Callable", "int", lax.while_loop, 3, identity, X),
    "lax.scan": bad("scan", "f", "Callable", "int", lax.scan, 3, X, X),
}


class BadCallResult(TypedDict):
    error: str  # the exception's module and name, "" if none was raised
    is_type_error: bool
    message: str


class Report(TypedDict):
    modules: int
    functions: dict[str, int]  # "wrapped", "nothing to check", "unchecked": counts
    unchecked: list[str]
    public_functions: int
    public_wrapped: list[str]
    beartype_imported: bool
    bad_calls: dict[str, BadCallResult]


# === what the child interpreter does ===


def _chain(fun: object) -> list[object]:
    """``fun`` and what it wraps (``__wrapped__``), outermost first."""
    chain: list[object] = []
    while fun is not None and all(fun is not seen for seen in chain):
        chain.append(fun)
        fun = getattr(fun, "__wrapped__", None)
    return chain


def _is_beartype_wrapper(fun: object) -> bool:
    return any(hasattr(f, "__beartype_wrapper") for f in _chain(fun))


def _accessors(member: object) -> list[object]:
    """The functions behind a class attribute."""
    if isinstance(member, staticmethod | classmethod):
        return [member.__func__]  # pyright: ignore[reportUnknownMemberType]  # a descriptor of anything
    if isinstance(member, property):
        return [f for f in (member.fget, member.fset, member.fdel) if f is not None]
    return [member] if callable(member) and not inspect.isclass(member) else []


def _defined_here(fun: object) -> bool:
    """A function of jaxtyped's (not a builtin or beartype's own helper)."""
    chain = _chain(fun)
    return bool(chain) and inspect.isfunction(chain[-1]) and chain[-1].__module__.split(".")[0] == "jaxtyped"


def _functions(module: ModuleType) -> Iterator[tuple[str, object]]:
    """Every function ``module`` defines, at top level and in its classes
    (methods, static and class methods, property accessors), by name."""
    for value in list(vars(module).values()):
        if inspect.isclass(value):
            if value.__module__ != module.__name__:
                continue
            for key, member in vars(value).items():
                for fun in _accessors(member):
                    if _defined_here(fun):
                        yield f"{value.__module__}.{value.__qualname__}.{key}", fun
        elif _defined_here(value):
            innermost = _chain(value)[-1]
            if getattr(innermost, "__module__", None) == module.__name__:
                yield f"{module.__name__}.{getattr(value, '__qualname__', '?')}", value


def _all_modules() -> list[ModuleType]:
    names = ["jaxtyped"] + sorted(m.name for m in pkgutil.walk_packages(jt.__path__, "jaxtyped."))
    return [importlib.import_module(name) for name in names]


def _public_functions() -> Iterator[tuple[str, object]]:
    """What users reach: every name in ``__all__`` of each public module
    (no ``_``-prefixed component), and the methods of public classes."""
    for module in _all_modules():
        if any(part.startswith("_") for part in module.__name__.split(".")):
            continue
        for name in getattr(module, "__all__", ()):
            value = getattr(module, name)
            if inspect.isclass(value):
                for key, member in vars(value).items():
                    for fun in _accessors(member):
                        if _defined_here(fun):
                            yield f"{module.__name__}.{name}.{key}", fun
            elif _defined_here(value):
                yield f"{module.__name__}.{name}", value


def _coverage(report: Report) -> None:
    from beartype import beartype

    seen: set[int] = set()
    for module in _all_modules():
        for name, fun in _functions(module):
            if id(fun) in seen:
                continue
            seen.add(id(fun))
            innermost = _chain(fun)[-1]
            assert callable(innermost)
            if _is_beartype_wrapper(fun):
                kind = "wrapped"
            elif beartype(innermost) is innermost:  # beartype returns as it is a function it has nothing to check in
                kind = "nothing to check"
            else:
                kind = "unchecked"
                report["unchecked"].append(name)
            report["functions"][kind] = report["functions"].get(kind, 0) + 1


def _run_bad_calls(report: Report) -> None:
    for case, call in BAD_CALLS.items():
        try:
            call.fun(*call.args, **call.kwargs)
        except Exception as e:  # noqa: BLE001 - every outcome is reported
            error = f"{type(e).__module__}.{type(e).__qualname__}"
            report["bad_calls"][case] = {"error": error, "is_type_error": isinstance(e, TypeError), "message": str(e)}
        else:
            report["bad_calls"][case] = {"error": "", "is_type_error": False, "message": ""}


def child(mode: Mode) -> Report:
    """Run in a fresh interpreter whose jaxtyped was imported in ``mode``."""
    assert jt.DEBUG == (mode == "debug")
    report: Report = {
        "modules": len(_all_modules()),
        "functions": {},
        "unchecked": [],
        "public_functions": 0,
        "public_wrapped": [],
        "beartype_imported": False,
        "bad_calls": {},
    }
    publics = dict(_public_functions())
    report["public_functions"] = len(publics)
    report["public_wrapped"] = [name for name, fun in publics.items() if _is_beartype_wrapper(fun)]
    # Every module is imported by now (_all_modules).
    report["beartype_imported"] = any(m.split(".")[0] == "beartype" for m in sys.modules)
    if mode == "debug":
        _coverage(report)
        _run_bad_calls(report)
    return report


# === the tests ===


def _run_child(mode: Mode) -> Report:
    env = {**os.environ, "JAXTYPED_DEBUG": "1" if mode == "debug" else "0"}
    done = subprocess.run(
        [sys.executable, "-W", "error", __file__, mode], env=env, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"the {mode} child failed:\n{done.stderr}"
    assert done.stderr == "", f"the {mode} child wrote to stderr (warnings are errors):\n{done.stderr}"
    report: Report = json.loads(done.stdout)
    return report


@pytest.fixture(scope="module")
def debug_report() -> Report:
    return _run_child("debug")


@pytest.fixture(scope="module")
def plain_report() -> Report:
    return _run_child("plain")


def test_debug_mode_checks_every_function(debug_report: Report) -> None:
    # Importing every module with warnings as errors succeeded (_run_child).
    assert debug_report["modules"] >= 60
    assert debug_report["functions"]["wrapped"] >= 1000
    assert sorted(debug_report["unchecked"]) == sorted(UNCHECKED)
    assert debug_report["beartype_imported"]


def test_public_functions_are_beartype_wrappers_only_in_debug_mode(debug_report: Report, plain_report: Report) -> None:
    # The positive control: the same walk finds the wrappers in debug mode.
    assert {"jaxtyped.jit", "jaxtyped.grad", "jaxtyped.numpy.sum", "jaxtyped.lax.cond"} <= set(debug_report["public_wrapped"])
    assert plain_report["public_functions"] == debug_report["public_functions"] >= 300
    assert plain_report["public_wrapped"] == []


def test_flag_off_does_not_import_beartype(plain_report: Report) -> None:
    # The plain child imported every jaxtyped module, public and private.
    assert plain_report["modules"] >= 60
    assert not plain_report["beartype_imported"]


@pytest.mark.parametrize("case", sorted(BAD_CALLS))
def test_ill_typed_call_raises_debug_type_error(case: str, debug_report: Report) -> None:
    bad = BAD_CALLS[case]
    result = debug_report["bad_calls"][case]
    assert result["error"] == "jaxtyped.errors.DebugTypeError", result
    assert result["is_type_error"]
    message = result["message"]
    # beartype's message: '... jaxtyped._src.api_jit.jit() parameter fun=3
    # violates type hint collections.abc.Callable[~P, ~R], as int 3 not ...'
    assert f".{bad.function}() parameter {bad.parameter}=" in message, message
    assert "violates type hint" in message and bad.expected in message.split("violates type hint")[1], message
    assert f", as {bad.actual} " in message, message


def test_debug_type_error_is_public() -> None:
    assert issubclass(jt.errors.DebugTypeError, jt.errors.JaxtypedTypeError)
    assert issubclass(jt.errors.DebugTypeError, TypeError)
    assert jt.errors.DebugTypeError.__module__ == "jaxtyped.errors"


if __name__ == "__main__":
    print(json.dumps(child("debug" if sys.argv[1] == "debug" else "plain")))
