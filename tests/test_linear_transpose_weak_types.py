"""Weak types of ``linear_transpose``'s cotangents (and of ``vjp``'s and
``grad``'s for the same functions) against JAX: a weak-typed primal (a
Python scalar, ``asarray(2.0)``, a weak ``ShapeDtypeStruct``) gets a
cotangent typed as JAX's transpose rules type it, eager, under ``jit`` and
through the transposes of a jitted function and of ``cond``/``switch``
(traced at the cotangents' own weak types)."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from oracle import Case, CaseTable, Group, library_case

Lib = Any  # oracle.library(L): .api, .lax, .np of jaxtyped or JAX

# The linear functions, written once against either library.
def _identity(A: Lib) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return x

    return f


def _scale(A: Lib) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return 2.0 * x

    return f


def _scale_strong(A: Lib) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return A.np.float32(2.0) * x

    return f


def _neg(A: Lib) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return -x

    return f


def _sum(A: Lib) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return A.np.sum(x)

    return f


def _zero(A: Lib) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return A.np.zeros((), A.np.float32)

    return f


def _convert(A: Lib) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return x.astype(A.np.float32)

    return f


def _cond(A: Lib) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return A.lax.cond(True, _scale_strong(A), _identity(A), x)

    return f


def _switch(A: Lib) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return A.lax.switch(1, [_identity(A), _scale(A), _scale_strong(A)], x)

    return f


FUNCTIONS: dict[str, Callable[[Lib], Callable[[Any], Any]]] = {
    "identity": _identity,
    "scale": _scale,
    "scalestrong": _scale_strong,
    "neg": _neg,
    "sum": _sum,
    "zero": _zero,
    "convert": _convert,
    "jitidentity": lambda A: A.api.jit(_identity(A)),
    "jitscale": lambda A: A.api.jit(_scale(A)),
    "cond": _cond,
    "switch": _switch,
}

# The primals: weak (Python scalar, weak array, weak ShapeDtypeStruct) and strong.
PRIMALS: dict[str, Callable[[Lib], Any]] = {
    "py": lambda A: 2.0,
    "weakarray": lambda A: A.np.asarray(2.0),
    "strong": lambda A: A.np.float32(2.0),
    "sds": lambda A: A.api.ShapeDtypeStruct((), np.float32),
    "weaksds": lambda A: A.api.ShapeDtypeStruct((), np.float32, weak_type=True),
}

# The output cotangents: weak and strong.
COTANGENTS: dict[str, Callable[[Lib], Any]] = {
    "weakct": lambda A: 1.0,
    "strongct": lambda A: A.np.float32(1.0),
}


def _transpose_case(fn: str, primal: str, ct: str) -> Case:
    def run(A: Lib) -> Any:
        return A.api.linear_transpose(FUNCTIONS[fn](A), PRIMALS[primal](A))(COTANGENTS[ct](A))

    return library_case(f"{fn}-transpose-{primal}-{ct}", run)


def _jit_transpose_case(fn: str, primal: str, ct: str) -> Case:
    def run(A: Lib) -> Any:
        transposed = A.api.linear_transpose(FUNCTIONS[fn](A), PRIMALS[primal](A))
        return A.api.jit(transposed)(COTANGENTS[ct](A))

    return library_case(f"{fn}-jittransposed-{primal}-{ct}", run)


def _vjp_case(fn: str, primal: str, ct: str) -> Case:
    def run(A: Lib) -> Any:
        _, pullback = A.api.vjp(FUNCTIONS[fn](A), PRIMALS[primal](A))
        return pullback(COTANGENTS[ct](A))

    return library_case(f"{fn}-vjp-{primal}-{ct}", run)


def _grad_case(fn: str, primal: str) -> Case:
    def run(A: Lib) -> Any:
        f = FUNCTIONS[fn](A)

        def loss(x: Any) -> Any:
            return A.np.sum(f(x))

        return A.api.grad(loss)(PRIMALS[primal](A))

    return library_case(f"{fn}-grad-{primal}", run)


def _mixed(case_id: str, fn: Callable[[Lib], Callable[..., Any]], primals: Callable[[Lib], tuple[Any, ...]], ct: Callable[[Lib], Any]) -> Case:
    def run(A: Lib) -> Any:
        return A.api.linear_transpose(fn(A), *primals(A))(ct(A))

    return library_case(case_id, run)


def _add(A: Lib) -> Callable[..., Any]:
    def f(x: Any, y: Any) -> Any:
        return x + y

    return f


def _weighted(A: Lib) -> Callable[..., Any]:
    def f(t: Any) -> Any:
        return 2.0 * t["a"] + t["b"]

    return f


def _pair(A: Lib) -> Callable[..., Any]:
    def f(t: Any) -> Any:
        return (t["a"], 3.0 * t["b"])

    return f


def _first(A: Lib) -> Callable[..., Any]:
    def f(x: Any, y: Any) -> Any:
        return 2.0 * x

    return f


def _to_float16(A: Lib) -> Callable[..., Any]:
    def f(x: Any) -> Any:
        return x + A.np.zeros((), A.np.float16)

    return f


def _tree(A: Lib) -> tuple[Any, ...]:
    return ({"a": 1.0, "b": A.np.float32(1.0)},)


def _mixed_cases() -> list[Case]:
    weak: Callable[[Lib], Any] = COTANGENTS["weakct"]
    strong: Callable[[Lib], Any] = COTANGENTS["strongct"]
    return [
        _mixed("mixed-add-weakstrong-strongct", _add, lambda A: (2.0, A.np.float32(1.0)), strong),
        _mixed("mixed-add-weakstrong-weakct", _add, lambda A: (2.0, A.np.float32(1.0)), weak),
        _mixed("mixed-add-weakweak-weakct", _add, lambda A: (2.0, A.np.asarray(3.0)), weak),
        _mixed("mixed-tree-weakct", _weighted, _tree, weak),
        _mixed("mixed-tree-strongct", _weighted, _tree, strong),
        _mixed("mixed-treeout", _pair, _tree, lambda A: (1.0, A.np.float32(1.0))),
        _mixed("mixed-unused-weak", _first, lambda A: (2.0, 3.0), weak),
        _mixed("mixed-unused-strong", _first, lambda A: (2.0, A.np.float32(3.0)), weak),
        # A weak f32 primal meeting f16 takes f16, so the cotangent is f16.
        _mixed("mixed-float16", _to_float16, lambda A: (2.0,), lambda A: A.np.zeros((), A.np.float16)),
        _mixed("mixed-vector", FUNCTIONS["scale"], lambda A: (A.np.asarray([1.0, 2.0]),), lambda A: A.np.ones(2)),
    ]


def _cases() -> list[Case]:
    cases: list[Case] = []
    for fn in FUNCTIONS:
        for primal in PRIMALS:
            for ct in COTANGENTS:
                cases.append(_transpose_case(fn, primal, ct))
                if primal in ("py", "strong"):
                    cases.append(_jit_transpose_case(fn, primal, ct))
                if "sds" not in primal:
                    cases.append(_vjp_case(fn, primal, ct))
            if "sds" not in primal:
                cases.append(_grad_case(fn, primal))
    return cases + _mixed_cases()


# JAX's results from one jit (as every oracle table) and eagerly: JAX's
# eager transposes agree with its jitted ones in every case here.
TABLE = CaseTable("linear_transpose_weak_types", _cases)
EAGER_TABLE = CaseTable("linear_transpose_weak_types_eager", _cases, eager=True)


@pytest.mark.parametrize("group", TABLE.params())
def test_linear_transpose_weak_types(group: Group) -> None:
    TABLE.check(group)


@pytest.mark.parametrize("group", EAGER_TABLE.params())
def test_linear_transpose_weak_types_eager(group: Group) -> None:
    EAGER_TABLE.check(group)
