"""Every function of ``jaxtyped.numpy`` against ``jax.numpy`` of the same
name: values, dtype, shape and weak type (and NumPy in float64 for the
elementwise math).

Each case is written once as a function of the namespace (``L`` is either
``jaxtyped.numpy`` or ``jax.numpy``), so both libraries run literally the
same code. JAX evaluates all cases of a table in one ``jax.jit`` (a single,
mostly constant-folded compilation instead of hundreds of eager dispatches);
where JAX raises while tracing a case, we must raise the same kind of error.
"""

import copy
import functools
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp

from oracle import (
    Case,
    CaseTable,
    Group,
    Namespace,
    as_tuple,
    assert_same,
    call,
    host,
    jax,
    jax_numpy,
    tol,
    widen,
)

RNG = np.random.default_rng(0)


def check_case(table: str, group: Group) -> None:
    """Compare the cases of ``group`` (from ``TABLES[table]``) with JAX."""
    TABLES[table].check(group)


# === elementwise unary functions ===

UNARY_FLOAT = (
    "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "cbrt", "cos", "cosh",
    "deg2rad", "degrees", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10",
    "rad2deg", "radians", "reciprocal", "sin", "sinh", "sqrt", "tan", "tanh",
)  # fmt: skip
UNARY_KEEP = (
    "abs", "absolute", "negative", "positive", "sign", "square", "floor", "ceil", "trunc",
    "rint", "round", "around", "isfinite", "isinf", "isnan", "logical_not",
    "real", "imag", "conj", "conjugate",
)  # fmt: skip
UNARY_INT = ("invert", "bitwise_not")
NO_COMPLEX = frozenset({"cbrt", "deg2rad", "degrees", "rad2deg", "radians", "floor", "ceil", "trunc", "exp2", "arctan2"})

DOMAIN: dict[str, list[float]] = {
    "arccos": [-0.9, -0.3, 0.0, 0.5, 0.7], "arcsin": [-0.9, -0.3, 0.0, 0.5, 0.7],
    "arctanh": [-0.9, -0.3, 0.0, 0.5, 0.7], "arccosh": [1.0, 1.5, 2.0, 3.0, 10.0],
    "log": [0.5, 1.0, 2.0, 3.0, 7.0], "log2": [0.5, 1.0, 2.0, 3.0, 8.0],
    "log10": [0.5, 1.0, 2.0, 10.0, 7.0], "log1p": [-0.5, 0.0, 1.0, 2.0, 3.0],
    "sqrt": [0.0, 0.25, 1.0, 2.0, 9.0], "reciprocal": [0.5, -1.0, 2.0, 3.0, -4.0],
    "rint": [-2.5, -0.5, 0.5, 1.5, 2.5], "round": [-2.5, -0.5, 0.5, 1.5, 2.7],
    "around": [-2.5, -0.5, 0.5, 1.5, 2.7],
}  # fmt: skip
DEFAULT_DOMAIN = [-2.5, -0.5, 0.0, 1.5, 2.5]
SPECIALS = [np.inf, -np.inf, np.nan, -0.0, 0.0]


def unary_values(name: str, dtype: str) -> np.ndarray[Any, Any]:
    values = np.asarray(DOMAIN.get(name, DEFAULT_DOMAIN))
    if dtype == "bool":
        return np.asarray(values != 0)
    if dtype == "complex64":
        return host(dtype, values + 0.5j)
    if dtype in ("int32", "int8"):
        return host(dtype, np.round(values))
    if dtype == "uint8":
        return host(dtype, np.abs(np.round(values)))
    return host(dtype, values)


def unary_cases() -> list[Case]:
    cases: list[Case] = []
    for name in (*UNARY_FLOAT, *UNARY_KEEP):
        for dtype in ("float32", "float16", "bfloat16", "int32", "uint8", "bool", "complex64"):
            if dtype == "complex64" and name in NO_COMPLEX:
                continue
            values = unary_values(name, dtype)
            cases.append(
                Case(
                    f"{name}-{dtype}",
                    call(name, values),
                    rtol=tol(dtype),
                    atol=1e-2 if dtype in ("float16", "bfloat16") else 1e-6,
                )
            )
        for label, scalar in (("py_float", float(DOMAIN.get(name, DEFAULT_DOMAIN)[3])), ("py_int", 2), ("py_bool", True)):
            cases.append(Case(f"{name}-{label}", call(name, scalar)))
        cases.append(Case(f"{name}-specials", call(name, np.asarray(SPECIALS, dtype=np.float32)), atol=1e-6))
        cases.append(Case(f"{name}-2d", call(name, RNG_2D), rtol=1e-5))
    for name in UNARY_INT:
        for dtype in ("int32", "int8", "uint8", "bool"):
            cases.append(Case(f"{name}-{dtype}", call(name, host(dtype, [0, 1, 5, 127])), rtol=0))
        cases.append(Case(f"{name}-float32", call(name, np.ones(1, np.float32))))
        cases.append(Case(f"{name}-py_int", call(name, 5)))
    return cases


RNG_2D = np.abs(RNG.standard_normal((2, 3))).astype(np.float32) + 1.0

# NumPy in float64, for the float32 inputs of the elementwise math.
NUMPY_NAMES: dict[str, str] = {"around": "round"}


@pytest.mark.parametrize("name", [*UNARY_FLOAT, *UNARY_KEEP])
def test_unary_against_numpy_float64(name: str) -> None:
    values = np.asarray(DOMAIN.get(name, DEFAULT_DOMAIN), dtype=np.float64)
    ours = getattr(jnp, name)(jnp.asarray(values.astype(np.float32)))
    reference = getattr(np, NUMPY_NAMES.get(name, name))(values)
    np.testing.assert_allclose(widen(ours), widen(reference), rtol=1e-5, atol=1e-6)


# === binary functions: division, remainders, powers, ... ===

DIV_A = [7, -7, 7, -7, 0, 5, -5, 0]
DIV_B = [2, 2, -2, -2, 3, 0, 0, 0]
FDIV_A = [7.5, -7.5, 7.5, -7.5, 0.0, -0.0, np.inf, np.nan, 1.0, -1.0, 3.0]
FDIV_B = [2.0, 2.0, -2.0, -2.0, -3.0, 3.0, 2.0, 2.0, np.inf, np.inf, 0.0]


def division_cases() -> list[Case]:
    cases: list[Case] = []
    int_inputs = {
        "int32": (host("int32", DIV_A), host("int32", DIV_B)),
        "int8": (host("int8", [7, -7, -128, 5, -128, 0]), host("int8", [2, -2, -1, 0, 3, 0])),
        "uint8": (host("uint8", [7, 200, 0, 5]), host("uint8", [2, 3, 0, 0])),
    }
    for fname in ("floor_divide", "remainder", "mod", "fmod", "divmod", "true_divide"):
        for dtype, (a, b) in int_inputs.items():
            cases.append(Case(f"{fname}-{dtype}", call(fname, a, b), rtol=0))
        fa, fb = host("float32", FDIV_A), host("float32", FDIV_B)
        cases.append(Case(f"{fname}-float32", call(fname, fa, fb)))
        cases.append(Case(f"{fname}-float16", call(fname, host("float16", DIV_A[:5]), host("float16", DIV_B[:5])), rtol=1e-3))
        for label, scalar in (("2", 2), ("-2", -2), ("0", 0), ("-2.5", -2.5)):
            cases.append(Case(f"{fname}-int32-by-{label}", call(fname, host("int32", DIV_A), scalar)))
        cases.append(Case(f"{fname}-scalar-by-int32", call(fname, -7, host("int32", DIV_B[:5]))))
        cases.append(Case(f"{fname}-float32-by-0.0", call(fname, host("float32", [1.0, -1.0, 0.0]), 0.0)))
    cases += [
        Case("divide-int32", lambda L: L.divide(L.asarray(host("int32", [1, -3, 0])), L.asarray(host("int32", [2, 2, 0])))),
        Case("divide-py", lambda L: L.divide(1, 4)),
        Case("true_divide-bool", lambda L: L.true_divide(L.asarray([True, False]), True)),
    ]
    return cases


POW_BASE = [2, -2, 3, 0, 1, -1, 5]
POW_EXP = [3, 3, 0, 0, 10, 7, 2]


def power_cases() -> list[Case]:
    a, b = host("int32", POW_BASE), host("int32", POW_EXP)
    f = host("float32", [2.0, 0.5, 3.0, 0.0, 1.0, 4.0, 9.0])
    return [
        Case("power-int32-int32", lambda L: L.power(L.asarray(a), L.asarray(b)), rtol=0),
        Case("power-int32-big", lambda L: L.power(L.asarray(host("int32", [2, 3, -2])), L.asarray(host("int32", [30, 19, 31]))), rtol=0),
        Case("power-int32-overflow", lambda L: L.power(L.asarray(host("int32", [2, 3])), 40), rtol=0),
        Case("power-int32-py_int", lambda L: L.power(L.asarray(a), 3), rtol=0),
        Case("power-int32-0", lambda L: L.power(L.asarray(a), 0), rtol=0),
        Case("power-int32-negative-py_int", lambda L: L.power(L.asarray(a), -1)),
        Case("power-int32-py_float", lambda L: L.power(L.asarray(a), 3.0)),
        Case("power-float32-int32", lambda L: L.power(L.asarray(f), L.asarray(b))),
        Case("power-float32-negative", lambda L: L.power(L.asarray(f), -1)),
        Case("power-float32-py_float", lambda L: L.power(L.asarray(f), 0.5)),
        Case("power-float32-float32", lambda L: L.power(L.asarray(f), L.asarray(host("float32", [0.5, -2.0, 1.5, 2.0, 0.0, -0.5, 0.5])))),
        Case("power-negative-base-fractional", lambda L: L.power(L.asarray(host("float32", [-8.0, -1.0])), 1.0 / 3.0)),
        Case("power-py_int-int32", lambda L: L.power(2, L.asarray(b))),
        Case("power-py_float-int32", lambda L: L.power(2.0, L.asarray(b))),
        Case("pow-float16", lambda L: L.pow(L.asarray(host("float16", [2.0, 3.0])), 2), rtol=1e-3),
        Case("power-complex64", lambda L: L.power(L.asarray(host("complex64", [1 + 1j, 2.0])), 2)),
        Case("square-int8-wraps", lambda L: L.square(L.asarray(host("int8", [100, -12]))), rtol=0),
    ]


NAN_A = host("float32", [1.0, np.nan, -0.0, 2.0, np.inf, -np.inf])
NAN_B = host("float32", [np.nan, 1.0, 0.0, 3.0, 1.0, np.inf])


def other_binary_cases() -> list[Case]:
    i = host("int32", [1, 2, -3, 40, -1])
    s = host("int32", [0, 1, 2, 31, 33])
    cases: list[Case] = []
    for name in ("maximum", "minimum", "arctan2", "hypot", "logaddexp", "add", "subtract", "multiply"):
        cases.append(Case(f"{name}-nan", call(name, NAN_A, NAN_B)))
        cases.append(Case(f"{name}-int32", call(name, i, s)))
        cases.append(Case(f"{name}-broadcast", call(name, RNG_2D, RNG_2D[0])))
    for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        cases.append(Case(f"{name}-nan", call(name, NAN_A, NAN_B)))
        cases.append(Case(f"{name}-int-float", call(name, i, 2.0)))
        cases.append(Case(f"{name}-float-int", call(name, NAN_A, 2)))
    for name in ("logical_and", "logical_or", "logical_xor"):
        cases.append(Case(f"{name}-numbers", call(name, host("float32", [0.0, 2.0, np.nan, 0.0]), host("int32", [0, 0, 1, 3]))))
        cases.append(Case(f"{name}-bool", call(name, np.array([True, True, False]), np.array([True, False, False]))))
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        cases.append(Case(f"{name}-int32", call(name, i, s), rtol=0))
        cases.append(Case(f"{name}-bool", call(name, np.array([True, False]), np.array([True, True])), rtol=0))
        cases.append(Case(f"{name}-uint8-py_int", call(name, host("uint8", [3, 250]), 6), rtol=0))
    for name in ("left_shift", "right_shift"):
        cases.append(Case(f"{name}-int32", call(name, i, s), rtol=0))
        cases.append(Case(f"{name}-negative-amount", call(name, i, host("int32", [-1, -2, -3, -4, -5])), rtol=0))
        cases.append(Case(f"{name}-uint8", call(name, host("uint8", [1, 128, 255]), host("uint8", [1, 1, 9])), rtol=0))
        cases.append(Case(f"{name}-int8", call(name, host("int8", [1, -128, -1]), host("int8", [7, 1, 9])), rtol=0))
        cases.append(Case(f"{name}-py_int", call(name, i, 2), rtol=0))
    return cases


# round with decimals, clip, where
def selection_cases() -> list[Case]:
    x = host("float32", [1.2345, -2.5551, 15.0, 25.0, -0.0051, 1234.5678])
    n = host("int32", [15, 25, -15, 1234])
    return [
        *[Case(f"round-decimals{d}", call("round", x, d)) for d in (0, 1, 2, -1, -2)],
        Case("round-int-decimals1", lambda L: L.round(L.asarray(n), 1), rtol=0),
        Case("around-decimals1", lambda L: L.around(L.asarray(x), 1)),
        Case("round-float16", lambda L: L.round(L.asarray(host("float16", [1.25, 2.5])), 1), rtol=1e-3),
        Case("clip-both", lambda L: L.clip(L.asarray(x), -1.0, 2.0)),
        Case("clip-min", lambda L: L.clip(L.asarray(x), min=0.0)),
        Case("clip-max", lambda L: L.clip(L.asarray(x), max=0.0)),
        Case("clip-arrays", lambda L: L.clip(L.asarray(RNG_2D), L.asarray(host("float32", [1.2, 1.5, 2.0])), 1.8)),
        Case("clip-int-int", lambda L: L.clip(L.asarray(n), 0, 100), rtol=0),
        Case("clip-int-float", lambda L: L.clip(L.asarray(n), 0.5, 100.5)),
        Case("clip-none", lambda L: L.clip(L.asarray(n)), rtol=0),
        Case("clip-nan", lambda L: L.clip(L.asarray(NAN_A), -1.0, 1.0)),
        Case("where-broadcast-all", lambda L: L.where(L.asarray(host("bool", [[True], [False]])), L.asarray(host("float32", [1.0, 2.0, 3.0])), L.asarray(host("float32", [[9.0], [8.0]])))),
        Case("where-scalars", lambda L: L.where(L.asarray(host("bool", [True, False, True])), 1.0, 0)),
        Case("where-scalar-cond", lambda L: L.where(True, L.asarray(RNG_2D), 0.0)),
        Case("where-int-cond", lambda L: L.where(L.asarray(host("int32", [0, 2, -1])), L.asarray(host("int8", [1, 2, 3])), L.asarray(host("uint8", [7, 8, 9]))), rtol=0),
        Case("where-float-cond", lambda L: L.where(L.asarray(host("float32", [0.0, 0.5, np.nan])), 1, 2), rtol=0),
        Case("where-weak", lambda L: L.where(L.asarray(host("bool", [True, False])), 1, 2), rtol=0),
        Case("where-mixed", lambda L: L.where(L.asarray(host("bool", [True, False])), L.asarray(host("int32", [1, 2])), 2.5)),
    ]


def test_round_integers_to_negative_decimals_like_numpy() -> None:
    # A deliberate, additive difference from JAX: jax.numpy.round of an integer
    # array with decimals < 0 raises NotImplementedError; ours rounds like
    # NumPy, to a multiple of 10**-decimals with ties to even.
    n = host("int32", [15, 25, -15, 1234])
    for decimals in (-1, -2):
        result = jnp.round(jnp.asarray(n), decimals)
        expected = np.round(n, decimals)
        assert isinstance(result, jt.Array)
        assert result.dtype == expected.dtype and not result.weak_type
        np.testing.assert_array_equal(np.asarray(result), expected)
    np.testing.assert_array_equal(np.asarray(jnp.round(jnp.array([15, 25]), -1)), [20, 20])


# === reductions ===

X3 = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 10.5) / 3
MASK = np.array([[True, False, True, False], [False, False, True, True], [True, True, True, True]])
REDUCTIONS = ("sum", "prod", "max", "min", "mean", "all", "any", "amax", "amin")
ARG_REDUCTIONS = ("argmax", "argmin")
AXES: list[dict[str, Any]] = [
    {}, {"axis": 0}, {"axis": -1}, {"axis": (0, 2)}, {"axis": (-1, 0)}, {"axis": 1, "keepdims": True},
    {"axis": None, "keepdims": True}, {"axis": ()}, {"axis": (2, 1, 0)},
]  # fmt: skip


def reduction_cases() -> list[Case]:
    cases: list[Case] = []
    for name in REDUCTIONS:
        for kwargs in AXES:
            key = ",".join(f"{k}={v}" for k, v in kwargs.items()).replace(" ", "")
            cases.append(Case(f"{name}-{key or 'all'}", call(name, X3, **kwargs)))
        cases.append(Case(f"{name}-py_float", call(name, 2.5)))
        cases.append(Case(f"{name}-py_int", call(name, 3)))
    for name in ARG_REDUCTIONS:
        for kwargs in ({}, {"axis": 0}, {"axis": -1}, {"axis": 1, "keepdims": True}, {"keepdims": True}):
            key = ",".join(f"{k}={v}" for k, v in kwargs.items())
            cases.append(Case(f"{name}-{key or 'all'}", call(name, X3, **kwargs), rtol=0))
        cases.append(Case(f"{name}-ties-nan", call(name, host("float32", [1.0, 3.0, 3.0, np.nan, 0.0])), rtol=0))
        cases.append(Case(f"{name}-bool", call(name, np.array([False, True, True])), rtol=0))
    for dtype in ("bool", "int8", "uint8", "int16", "int32", "uint32", "float16", "bfloat16"):
        values = host(dtype, np.arange(6) % 3)
        for name in ("sum", "prod", "mean", "max", "min", "argmax", "all", "any"):
            cases.append(Case(f"{name}-dtype-{dtype}", call(name, values), rtol=1e-2))
        cases.append(Case(f"sum-{dtype}-dtype=int8", call("sum", values, dtype="int8"), rtol=0))
        cases.append(Case(f"sum-{dtype}-dtype=float32", call("sum", values, dtype="float32")))
    y = X3[0]
    cases += [
        Case("sum-initial", lambda L: L.sum(L.asarray(y), initial=5.0)),
        Case("sum-initial-axis", lambda L: L.sum(L.asarray(y), axis=0, initial=1.0)),
        Case("prod-initial", lambda L: L.prod(L.asarray(y), initial=2.0)),
        Case("max-initial", lambda L: L.max(L.asarray(y), initial=100.0)),
        Case("min-initial", lambda L: L.min(L.asarray(y), axis=1, initial=-100.0)),
        Case("sum-where", lambda L: L.sum(L.asarray(y), where=L.asarray(MASK))),
        Case("sum-where-axis", lambda L: L.sum(L.asarray(y), where=L.asarray(MASK), axis=1)),
        Case("sum-where-broadcast", lambda L: L.sum(L.asarray(y), where=L.asarray(MASK[0]), axis=0)),
        Case("prod-where", lambda L: L.prod(L.asarray(y), where=L.asarray(MASK), axis=1)),
        Case("mean-where", lambda L: L.mean(L.asarray(y), where=L.asarray(MASK))),
        Case("mean-where-axis", lambda L: L.mean(L.asarray(y), where=L.asarray(MASK), axis=0)),
        Case("max-where-initial", lambda L: L.max(L.asarray(y), where=L.asarray(MASK), initial=-1e9)),
        Case("max-where-initial-axis", lambda L: L.max(L.asarray(y), where=L.asarray(MASK), initial=-1e9, axis=1)),
        Case("max-where-no-initial", lambda L: L.max(L.asarray(y), where=L.asarray(MASK))),
        Case("sum-axis-dtype-int32", lambda L: L.sum(L.asarray(y), axis=1, dtype=L.int32), rtol=0),
        Case("mean-all-dtype-float16", lambda L: L.mean(L.asarray(y), dtype=L.float16), rtol=1e-3),
        Case("mean-int", lambda L: L.mean(L.asarray(host("int32", [1, 2, 4]))),),
        Case("all-where", lambda L: L.all(L.asarray(y), where=L.asarray(MASK))),
        Case("any-where", lambda L: L.any(L.asarray(y), where=L.asarray(MASK), axis=1)),
        Case("all-nan", lambda L: L.all(L.asarray(host("float32", [np.nan, 1.0])))),
        Case("sum-complex", lambda L: L.sum(L.asarray(host("complex64", [1 + 2j, 3j])))),
        Case("prod-int8-overflow", lambda L: L.prod(L.asarray(host("int8", [100, 100, 3]))), rtol=0),
        Case("sum-weak-array", lambda L: L.sum(L.asarray(2.0))),
    ]
    empty = np.zeros((0, 3), np.float32)
    for name, kwargs in (
        ("sum", {}), ("prod", {}), ("mean", {"axis": 1}), ("all", {}), ("any", {}), ("max", {"initial": 0.0}),
        ("max", {"axis": 1}), ("min", {"axis": 1}), ("argmax", {"axis": 1}), ("sum", {"axis": 0}),
        ("max", {}), ("min", {"axis": 0}), ("argmax", {}), ("argmin", {"axis": 0}), ("amax", {}),
    ):  # fmt: skip
        key = ",".join(f"{k}={v}" for k, v in kwargs.items())
        cases.append(Case(f"{name}-empty-{key}", call(name, empty, **kwargs)))
    return cases


def test_mean_of_empty_is_nan() -> None:
    with np.errstate(invalid="ignore"):
        result = jnp.mean(jnp.zeros((0,)))
    assert np.isnan(float(result))


# === creation ===

def creation_cases() -> list[Case]:
    codes: list[tuple[str, Callable[[Namespace], Any]]] = [
        ("array-list-int", lambda L: L.array([1, 2, 3])),
        ("array-list-mixed", lambda L: L.array([1.0, 2, 3])),
        ("array-nested-list", lambda L: L.array([[1, 2], [3, 4]])),
        ("array-nested-tuple", lambda L: L.array(((1, 2), (3, 4)))),
        ("array-bools", lambda L: L.array([True, False])),
        ("array-complex", lambda L: L.array([1, 2.5j])),
        ("array-py_int", lambda L: L.array(3)),
        ("array-py_float", lambda L: L.array(3.0)),
        ("array-py_bool", lambda L: L.array(True)),
        ("array-py_complex", lambda L: L.array(1j)),
        ("array-np-float64-scalar", lambda L: L.array(np.float64(3.0))),
        ("array-np-float64", lambda L: L.array(np.arange(3.0))),
        ("array-np-int64", lambda L: L.array(np.arange(3))),
        ("array-np-int64-scalar", lambda L: L.array(np.int64(5))),
        ("array-np-scalars-in-list", lambda L: L.array([np.float32(1), 2])),
        ("array-empty-list", lambda L: L.array([])),
        ("array-dtype-int", lambda L: L.array(3.0, dtype=L.int32)),
        ("array-dtype-truncates", lambda L: L.array([1.7, -1.7], dtype=L.int32)),
        ("array-dtype-str", lambda L: L.array([1, 2], dtype="float16")),
        ("array-dtype-python", lambda L: L.array([1, 2], dtype=float)),
        ("array-ndmin", lambda L: L.array([1, 2], ndmin=3)),
        ("array-of-arrays", lambda L: L.array([L.array(1.0), L.array(2.0)])),
        ("array-of-array-and-int", lambda L: L.array([L.array(1.0), 2])),
        ("array-of-vectors", lambda L: L.array([L.ones(2), L.zeros(2)])),
        ("array-int8-and-list", lambda L: L.array([L.ones(2, L.int8), [1, 2]])),
        ("array-of-array", lambda L: L.array(L.array(2.0))),
        ("array-of-array-dtype", lambda L: L.array(L.array(2.0), dtype=L.float16)),
        ("array-ragged", lambda L: L.array([[1, 2], [3]])),
        ("asarray-list", lambda L: L.asarray([1, 2])),
        ("asarray-py_float", lambda L: L.asarray(2.5)),
        ("asarray-dtype", lambda L: L.asarray(L.ones(2), dtype=L.int32)),
        ("asarray-np-float16", lambda L: L.asarray(np.ones(2, np.float16))),
        ("asarray-bfloat16", lambda L: L.asarray(host("bfloat16", [1.5, 2.0]))),
        ("zeros-int", lambda L: L.zeros(3)),
        ("zeros-shape-dtype", lambda L: L.zeros((2, 3), L.int32)),
        ("zeros-0d-bool", lambda L: L.zeros((), dtype=bool)),
        ("ones-empty", lambda L: L.ones((2, 0))),
        ("ones-bfloat16", lambda L: L.ones(3, dtype="bfloat16")),
        ("ones-np-int", lambda L: L.ones(np.int64(2))),
        ("full-py_int", lambda L: L.full((2, 2), 3)),
        ("full-py_float", lambda L: L.full((2, 2), 3.0)),
        ("full-py_bool", lambda L: L.full((2,), True)),
        ("full-array", lambda L: L.full((2, 3), L.array([1, 2, 3]))),
        ("full-dtype", lambda L: L.full((2, 3), 7, dtype=L.float16)),
        ("full-0d", lambda L: L.full((), 2.5)),
        ("full-np-scalar", lambda L: L.full(3, np.float64(2))),
        ("full-bad-broadcast", lambda L: L.full((2, 3), L.array([1, 2]))),
        ("zeros_like-int8", lambda L: L.zeros_like(L.ones((2, 3), L.int8))),
        ("zeros_like-py_float", lambda L: L.zeros_like(3.0)),
        ("zeros_like-py_int", lambda L: L.zeros_like(3)),
        ("ones_like-weak", lambda L: L.ones_like(L.array(2.0))),
        ("ones_like-numpy", lambda L: L.ones_like(np.ones(2))),
        ("ones_like-dtype", lambda L: L.ones_like(L.ones(3), dtype=L.int32)),
        ("full_like-int-fill", lambda L: L.full_like(L.ones(3), 7)),
        ("full_like-truncates", lambda L: L.full_like(L.ones(3, L.int32), 2.7)),
        ("full_like-py_float", lambda L: L.full_like(3.0, 2)),
        ("full_like-shape", lambda L: L.full_like(L.ones(3), 2, shape=(2, 2))),
        ("zeros_like-shape", lambda L: L.zeros_like(L.ones(3), shape=4)),
        ("empty-shape", lambda L: L.empty((2, 3)) * 0),
        ("empty_like-int8", lambda L: L.empty_like(L.ones(2, L.int8)) * 0),
        ("arange-stop", lambda L: L.arange(5)),
        ("arange-float-stop", lambda L: L.arange(5.0)),
        ("arange-start-stop", lambda L: L.arange(2, 7)),
        ("arange-step", lambda L: L.arange(2, 7, 2)),
        ("arange-negative-step", lambda L: L.arange(7, 2, -2)),
        ("arange-float-step", lambda L: L.arange(0, 1, 0.25)),
        ("arange-float-negative-step", lambda L: L.arange(1.5, -1, -0.5)),
        ("arange-dtype", lambda L: L.arange(5, dtype=L.float32)),
        ("arange-tenths", lambda L: L.arange(0.0, 1.0, 0.1)),
        ("arange-negative-stop", lambda L: L.arange(-3)),
        ("arange-empty", lambda L: L.arange(3, 3)),
        ("arange-np-int", lambda L: L.arange(np.int32(4))),
        ("arange-int-dtype-float-step", lambda L: L.arange(1, 2.5, 0.5, dtype=L.int32)),
        ("arange-uint8", lambda L: L.arange(10, dtype="uint8")),
        ("arange-zero-step", lambda L: L.arange(0, 3, 0)),
        ("linspace-basic", lambda L: L.linspace(0, 1, 5)),
        ("linspace-no-endpoint", lambda L: L.linspace(0, 1, 5, endpoint=False)),
        ("linspace-int-dtype", lambda L: L.linspace(0, 10, 4, dtype=L.int32)),
        ("linspace-int-dtype-negative", lambda L: L.linspace(0, -10, 4, dtype=L.int32)),
        ("linspace-num1", lambda L: L.linspace(2.0, 3.0, 1)),
        ("linspace-num0", lambda L: L.linspace(2.0, 3.0, 0)),
        ("linspace-float16", lambda L: L.linspace(0, 1, 3, dtype=L.float16)),
        ("linspace-arrays", lambda L: L.linspace(L.array(0.0), L.array(1.0), 3)),
        ("linspace-ten", lambda L: L.linspace(1, 10, 10)),
        ("linspace-negative-num", lambda L: L.linspace(0, 1, -1)),
        ("eye-3", lambda L: L.eye(3)),
        ("eye-M", lambda L: L.eye(2, 3)),
        ("eye-k", lambda L: L.eye(3, k=1)),
        ("eye-M-k-negative", lambda L: L.eye(3, 4, k=-1)),
        ("eye-k-outside", lambda L: L.eye(3, k=5)),
        ("eye-dtype", lambda L: L.eye(2, dtype=L.int32)),
        ("eye-empty", lambda L: L.eye(0)),
        ("identity-3", lambda L: L.identity(3)),
        ("identity-bool", lambda L: L.identity(2, dtype=bool)),
    ]
    return [Case(name, fn, rtol=1e-6) for name, fn in codes]


# === shape manipulation ===

X234 = np.arange(24, dtype=np.float32).reshape(2, 3, 4)


def shape_cases() -> list[Case]:
    x = X234
    codes: list[tuple[str, Callable[[Namespace], Any]]] = [
        ("reshape-minus-one-last", lambda L: L.reshape(L.asarray(x), (4, -1))),
        ("reshape-flat", lambda L: L.reshape(L.asarray(x), -1)),
        ("reshape-minus-one-first", lambda L: L.reshape(L.asarray(x), (-1, 2, 3))),
        ("reshape-not-dividing", lambda L: L.reshape(L.asarray(x), (5, -1))),
        ("reshape-two-unknowns", lambda L: L.reshape(L.asarray(x), (-1, -1))),
        ("reshape-wrong-size", lambda L: L.reshape(L.asarray(x), (3, 3))),
        ("reshape-scalar", lambda L: L.reshape(3.0, (1, 1))),
        ("reshape-empty", lambda L: L.reshape(L.zeros((0, 3)), (3, 0))),
        ("reshape-method-args", lambda L: L.asarray(x).reshape(6, 4)),
        ("reshape-method-tuple", lambda L: L.asarray(x).reshape((6, 4))),
        ("reshape-method-minus-one", lambda L: L.asarray(x).reshape(-1)),
        ("reshape-int8", lambda L: L.reshape(L.asarray(host("int8", [1, 2, 3, 4])), (2, 2))),
        ("transpose-default", lambda L: L.transpose(L.asarray(x))),
        ("transpose-perm", lambda L: L.transpose(L.asarray(x), (1, 0, 2))),
        ("transpose-negative-perm", lambda L: L.transpose(L.asarray(x), (-1, 0, 1))),
        ("transpose-short-perm", lambda L: L.transpose(L.asarray(x), (0, 1))),
        ("transpose-repeated-perm", lambda L: L.transpose(L.asarray(x), (0, 0, 1))),
        ("transpose-T", lambda L: L.asarray(x).T),
        ("transpose-method-args", lambda L: L.asarray(x).transpose(2, 0, 1)),
        ("transpose-method-tuple", lambda L: L.asarray(x).transpose((2, 0, 1))),
        ("transpose-1d", lambda L: L.transpose(L.arange(3))),
        ("broadcast_to-row", lambda L: L.broadcast_to(L.arange(3), (2, 3))),
        ("broadcast_to-bad", lambda L: L.broadcast_to(L.arange(3), (2, 4))),
        ("broadcast_to-scalar", lambda L: L.broadcast_to(3.0, (2,))),
        ("broadcast_to-unit-axes", lambda L: L.broadcast_to(L.ones((3, 1)), (2, 3, 5))),
        ("broadcast_to-int-shape", lambda L: L.broadcast_to(L.ones((3,)), 3)),
        ("broadcast_to-fewer-dims", lambda L: L.broadcast_to(L.ones((3,)), (3, 1))),
        ("expand_dims-0", lambda L: L.expand_dims(L.asarray(x), 0)),
        ("expand_dims-negative", lambda L: L.expand_dims(L.asarray(x), -1)),
        ("expand_dims-tuple", lambda L: L.expand_dims(L.asarray(x), (0, 2))),
        ("expand_dims-tuple-negative", lambda L: L.expand_dims(L.asarray(x), (-1, 0))),
        ("expand_dims-repeated", lambda L: L.expand_dims(L.asarray(x), (0, 0))),
        ("expand_dims-out-of-range", lambda L: L.expand_dims(L.asarray(x), 5)),
        ("expand_dims-scalar", lambda L: L.expand_dims(2.0, 0)),
        ("squeeze-all", lambda L: L.squeeze(L.ones((1, 3, 1)))),
        ("squeeze-axis", lambda L: L.squeeze(L.ones((1, 3, 1)), 0)),
        ("squeeze-tuple", lambda L: L.squeeze(L.ones((1, 3, 1)), (0, -1))),
        ("squeeze-not-one", lambda L: L.squeeze(L.ones((1, 3, 1)), 1)),
        ("squeeze-out-of-range", lambda L: L.squeeze(L.ones((1, 3, 1)), 3)),
        ("squeeze-0d", lambda L: L.squeeze(L.ones(()))),
        ("ravel-3d", lambda L: L.ravel(L.asarray(x))),
        ("ravel-scalar", lambda L: L.ravel(3)),
        ("ravel-flatten", lambda L: L.asarray(x).flatten()),
        ("moveaxis-first-last", lambda L: L.moveaxis(L.asarray(x), 0, -1)),
        ("moveaxis-tuples", lambda L: L.moveaxis(L.asarray(x), (0, 1), (2, 0))),
        ("moveaxis-last-first", lambda L: L.moveaxis(L.asarray(x), -1, 0)),
        ("moveaxis-out-of-range", lambda L: L.moveaxis(L.asarray(x), 0, 3)),
        ("swapaxes-0-2", lambda L: L.swapaxes(L.asarray(x), 0, 2)),
        ("swapaxes-negative", lambda L: L.swapaxes(L.asarray(x), -1, 1)),
        ("concatenate-1d", lambda L: L.concatenate([L.ones(2), L.zeros(3)])),
        ("concatenate-axis1", lambda L: L.concatenate([L.ones((2, 2)), L.zeros((2, 1))], axis=1)),
        ("concatenate-axis-negative", lambda L: L.concatenate([L.ones((2, 2)), L.zeros((2, 1))], axis=-1)),
        ("concatenate-axis-none", lambda L: L.concatenate([L.ones((2, 2)), L.zeros((3,))], axis=None)),
        ("concatenate-promotes", lambda L: L.concatenate([L.ones(2, L.int8), L.ones(2, L.float16)])),
        ("concatenate-numpy", lambda L: L.concatenate([L.ones(2, L.int32), np.ones(2)])),
        ("concatenate-dtype", lambda L: L.concatenate([L.ones(2), L.ones(2)], dtype=L.int32)),
        ("concatenate-bad-shapes", lambda L: L.concatenate([L.ones((2, 2)), L.zeros((2, 1))], axis=0)),
        ("concatenate-one", lambda L: L.concatenate([L.ones(2)])),
        ("concatenate-none", lambda L: L.concatenate([])),
        ("concatenate-0d", lambda L: L.concatenate([L.ones(()), L.ones(())])),
        ("concatenate-tuple", lambda L: L.concatenate((L.arange(2), L.arange(3)))),
        ("concatenate-list-operand", lambda L: L.concatenate([L.arange(2), [5, 6]])),
        ("concatenate-weak", lambda L: L.concatenate([L.asarray(2.0)[None], L.asarray(3.0)[None]])),
        ("stack-0", lambda L: L.stack([L.ones(2), L.zeros(2)])),
        ("stack-1", lambda L: L.stack([L.ones(2), L.zeros(2)], axis=1)),
        ("stack-negative", lambda L: L.stack([L.ones(2), L.zeros(2)], axis=-1)),
        ("stack-bad-shapes", lambda L: L.stack([L.ones(2), L.zeros(3)])),
        ("stack-scalars", lambda L: L.stack([1.0, 2.0])),
        ("stack-promotes", lambda L: L.stack([L.ones(2, L.int8), L.ones(2, L.uint8)])),
        ("stack-dtype", lambda L: L.stack([L.ones(2), L.zeros(2)], dtype=L.int32)),
        ("stack-0d", lambda L: L.stack([L.ones(()), L.zeros(())])),
        ("stack-axis-out-of-range", lambda L: L.stack([L.ones(2), L.zeros(2)], axis=2)),
    ]
    return [Case(name, fn, rtol=0) for name, fn in codes]


def test_shape_ndim_size() -> None:
    for value in (np.ones((2, 3)), 3.0, [1, 2], np.float32(1)):
        jax_value = value if isinstance(value, (float, np.generic)) else np.asarray(value)
        ours_value = value if isinstance(value, (float, np.generic)) else np.asarray(value)
        assert jnp.shape(ours_value) == jax_numpy.shape(jax_value)
        assert jnp.ndim(ours_value) == jax_numpy.ndim(jax_value)
        assert jnp.size(ours_value) == jax_numpy.size(jax_value)
    x = jnp.zeros((2, 0, 3))
    assert (jnp.shape(x), jnp.ndim(x), jnp.size(x)) == ((2, 0, 3), 3, 0)
    assert isinstance(jnp.shape(x), tuple) and isinstance(jnp.size(x), int)


# === products ===

SHAPES: list[tuple[int, ...]] = [(), (3,), (4,), (2, 3), (3, 4), (2, 3, 4), (5, 1, 4, 2)]
OPERANDS: dict[tuple[int, ...], np.ndarray[Any, Any]] = {s: RNG.standard_normal(s).astype(np.float32) for s in SHAPES}
def product_cases() -> list[Case]:
    cases: list[Case] = []
    for name in ("dot", "matmul", "inner", "vdot", "outer", "tensordot"):
        for sa in SHAPES:
            for sb in SHAPES:
                if name == "tensordot" and not (sa and sb):
                    continue  # axes=1 needs an axis on each side: see the explicit cases
                a, b = OPERANDS[sa], OPERANDS[sb]
                sid = "x".join(map(str, sa)) or "0d"
                tid = "x".join(map(str, sb)) or "0d"
                kwargs = {"axes": 1} if name == "tensordot" else {}
                cases.append(
                    Case(
                        f"{name}-{sid}-{tid}",
                        call(name, a, b, **kwargs),
                        rtol=1e-4,
                        atol=1e-5,
                    )
                )
    cases += [
        Case("dot-py-scalars", lambda L: L.dot(2, 3)),
        Case("dot-scalar-vector", lambda L: L.dot(2.0, L.ones(3))),
        Case("dot-int8", lambda L: L.dot(L.ones(3, L.int8), L.ones(3, L.int8))),
        Case("dot-bool", lambda L: L.dot(L.asarray([True, False]), L.asarray([True, True]))),
        Case("matmul-int8-uint8", lambda L: L.matmul(L.ones(3, L.int8), L.ones((3, 2), L.uint8))),
        Case("matmul-operator", lambda L: L.ones((2, 3)) @ L.ones(3)),
        Case("matmul-numpy-left", lambda L: np.ones((2, 3)) @ L.ones(3)),
        Case("matmul-numpy-right", lambda L: L.ones(3) @ np.ones((3, 2))),
        Case("dot-method", lambda L: L.ones((2, 3)).dot(L.ones(3))),
        Case("dot-half-bfloat16", lambda L: L.dot(L.ones((2, 3), L.float16), L.ones(3, L.bfloat16)), rtol=1e-2),
        Case("vdot-complex", lambda L: L.vdot(L.array([1 + 2j, 3j]), L.array([1j, 2.0]))),
        Case("inner-scalar", lambda L: L.inner(2.0, L.ones(3))),
        Case("outer-2d-1d", lambda L: L.outer(L.ones((2, 2)), L.arange(3))),
        Case("tensordot-axes2", lambda L: L.tensordot(L.ones((2, 3, 4)), L.ones((3, 4, 5)), axes=2)),
        Case("tensordot-pairs", lambda L: L.tensordot(L.asarray(OPERANDS[(2, 3, 4)]), L.asarray(OPERANDS[(3, 4)]), axes=([1], [0])), rtol=1e-4),
        Case("tensordot-negative-axes", lambda L: L.tensordot(L.asarray(OPERANDS[(2, 3, 4)]), L.asarray(OPERANDS[(2, 3)]), axes=([-3, -2], [0, 1])), rtol=1e-4),
        Case("tensordot-lists", lambda L: L.tensordot(L.ones((2, 3, 4)), L.ones((4, 3, 5)), axes=([1, 2], [1, 0]))),
        Case("tensordot-axes1", lambda L: L.tensordot(L.ones((2, 3)), L.ones((3, 2)), axes=1)),
        Case("tensordot-axes0", lambda L: L.tensordot(L.ones((2, 3)), L.ones((4, 5)), axes=0)),
        Case("tensordot-int-pair", lambda L: L.tensordot(L.ones((2, 3)), L.ones((3, 2)), axes=(1, 0))),
        Case("tensordot-default-axes", lambda L: L.tensordot(L.asarray(OPERANDS[(2, 3, 4)]), L.asarray(OPERANDS[(3, 4)])), rtol=1e-4),
        Case("tensordot-too-many-axes", lambda L: L.tensordot(L.ones(3), L.ones(3))),
        Case("matmul-mismatch", lambda L: L.matmul(L.ones((2, 3)), L.ones((4, 2)))),
        Case("matmul-0d", lambda L: L.matmul(L.ones(()), L.ones(3))),
        # preferred_element_type: int8 products accumulate in int32 (no wrap),
        # bfloat16 ones in float32, a narrower type rounds the result; never weak.
        Case("dot-preferred-int8", lambda L: L.dot(L.full(3, 100, L.int8), L.full(3, 100, L.int8), preferred_element_type=L.int32)),
        Case("dot-preferred-weak", lambda L: L.dot(2.0, 3.0, preferred_element_type=L.float32)),
        Case("dot-preferred-method", lambda L: L.full((2, 3), 100, L.int8).dot(L.full(3, 100, L.int8), preferred_element_type=L.int32)),
        Case("matmul-preferred-bf16", lambda L: L.matmul(L.asarray(OPERANDS[(2, 3)], L.bfloat16), L.asarray(OPERANDS[(3, 4)], L.bfloat16), preferred_element_type=L.float32), rtol=1e-2),
        Case("matmul-preferred-narrower", lambda L: L.matmul(L.asarray(OPERANDS[(2, 3)]), L.asarray(OPERANDS[(3, 4)]), preferred_element_type=L.float16), rtol=1e-2),
        Case("matmul-preferred-batched", lambda L: L.matmul(L.full((2, 2, 3), 100, L.int8), L.full((3, 2), 100, L.int8), preferred_element_type=L.int32)),
        Case("vdot-preferred", lambda L: L.vdot(L.full(4, 100, L.int8), L.full(4, 100, L.int8), preferred_element_type=L.int32, precision="highest")),
        Case("inner-preferred", lambda L: L.inner(L.full((2, 3), 100, L.int8), L.full(3, 100, L.int8), preferred_element_type=L.int32, precision=None)),
        Case("tensordot-preferred", lambda L: L.tensordot(L.full((2, 3), 100, L.int8), L.full((3, 2), 100, L.int8), axes=1, preferred_element_type=L.int32)),
        Case("vecdot-preferred", lambda L: L.vecdot(L.full((2, 3), 100, L.int8), L.full(3, 100, L.int8), preferred_element_type=L.int32)),
        Case("dot-precision-bad", lambda L: L.dot(L.ones(3), L.ones(3), precision="fastest")),
    ]
    return cases


# === Array methods ===


def method_cases() -> list[Case]:
    x, i = X234, host("int32", [[3, -1, 2], [0, 5, -4]])
    codes: list[tuple[str, Callable[[Namespace], Any]]] = [
        ("method-sum-axis0", lambda L: L.asarray(x).sum(axis=0)),
        ("method-sum-all", lambda L: L.asarray(x).sum()),
        ("method-sum-dtype-keepdims", lambda L: L.asarray(i).sum(axis=1, dtype=L.float32, keepdims=True)),
        ("method-prod", lambda L: L.asarray(i).prod(axis=-1)),
        ("method-mean", lambda L: L.asarray(x).mean()),
        ("method-mean-axis", lambda L: L.asarray(i).mean(axis=(0, 1))),
        ("method-max", lambda L: L.asarray(x).max(axis=1, keepdims=True)),
        ("method-min", lambda L: L.asarray(i).min()),
        ("method-all", lambda L: L.asarray(i).all(axis=0)),
        ("method-any", lambda L: L.asarray(i).any()),
        ("method-argmax", lambda L: L.asarray(x).argmax()),
        ("method-argmax-axis", lambda L: L.asarray(i).argmax(axis=1)),
        ("method-argmin-keepdims", lambda L: L.asarray(i).argmin(axis=0, keepdims=True)),
        ("method-astype-int", lambda L: L.asarray(x).astype(L.int32)),
        ("method-astype-str", lambda L: L.asarray(i).astype("float16")),
        ("method-astype-bool", lambda L: L.asarray(i).astype(bool)),
        ("method-astype-bfloat16", lambda L: L.asarray(x).astype(L.bfloat16)),
        ("method-astype-complex", lambda L: L.asarray(i).astype(L.complex64)),
        ("method-astype-weak", lambda L: L.asarray(2.0).astype(L.float32)),
        ("method-flatten", lambda L: L.asarray(x).flatten()),
        ("method-ravel", lambda L: L.asarray(i).ravel()),
        ("method-squeeze", lambda L: L.asarray(x)[:1].squeeze()),
        ("method-squeeze-axis", lambda L: L.asarray(x)[:, :1].squeeze(axis=1)),
        ("method-T", lambda L: L.asarray(i).T),
        ("method-transpose", lambda L: L.asarray(x).transpose()),
        ("method-dot", lambda L: L.asarray(i).dot(L.asarray(i).T)),
        ("method-neg-abs-invert", lambda L: (-L.asarray(i), abs(L.asarray(i)), ~L.asarray(i), +L.asarray(i))),
        ("method-shape-props", lambda L: L.asarray([L.asarray(x).ndim, L.asarray(x).size, *L.asarray(x).shape])),
    ]
    return [Case(name, fn) for name, fn in codes]


# === the tables ===

TABLES: dict[str, CaseTable] = {
    "unary": CaseTable("unary", unary_cases),
    "division": CaseTable("division", division_cases),
    "power": CaseTable("power", power_cases),
    "binary": CaseTable("binary", other_binary_cases),
    "selection": CaseTable("selection", selection_cases),
    "reductions": CaseTable("reductions", reduction_cases),
    "creation": CaseTable("creation", creation_cases),
    "shape": CaseTable("shape", shape_cases),
    "products": CaseTable("products", product_cases),
    "methods": CaseTable("methods", method_cases),
}


@pytest.mark.parametrize("group", TABLES["unary"].params())
def test_unary(group: Group) -> None:
    check_case("unary", group)


@pytest.mark.parametrize("group", TABLES["division"].params())
def test_division(group: Group) -> None:
    with np.errstate(all="ignore"):
        check_case("division", group)


@pytest.mark.parametrize("group", TABLES["power"].params())
def test_power(group: Group) -> None:
    with np.errstate(all="ignore"):
        check_case("power", group)


@pytest.mark.parametrize("group", TABLES["binary"].params())
def test_binary(group: Group) -> None:
    check_case("binary", group)


@pytest.mark.parametrize("group", TABLES["selection"].params())
def test_selection(group: Group) -> None:
    check_case("selection", group)


@pytest.mark.parametrize("group", TABLES["reductions"].params())
def test_reductions(group: Group) -> None:
    with np.errstate(all="ignore"):
        check_case("reductions", group)


@pytest.mark.parametrize("group", TABLES["creation"].params())
def test_creation(group: Group) -> None:
    check_case("creation", group)


@pytest.mark.parametrize("group", TABLES["shape"].params())
def test_shape_ops(group: Group) -> None:
    check_case("shape", group)


@pytest.mark.parametrize("group", TABLES["products"].params())
def test_products(group: Group) -> None:
    check_case("products", group)


@pytest.mark.parametrize("group", TABLES["methods"].params())
def test_array_methods(group: Group) -> None:
    check_case("methods", group)


# === dtype objects ===

def dtype_object_cases() -> list[Case]:
    codes: list[tuple[str, Callable[[Namespace], Any]]] = [
        ("float32-int", lambda L: L.float32(3)),
        ("float32-float", lambda L: L.float32(3.7)),
        ("int32-truncates", lambda L: L.int32(3.7)),
        ("int8-overflow", lambda L: L.int8(300)),
        ("uint8-negative", lambda L: L.uint8(-1)),
        ("bool_-int", lambda L: L.bool_(2)),
        ("float16-list", lambda L: L.float16([1, 2])),
        ("bfloat16-float", lambda L: L.bfloat16(1.5)),
        ("complex64-int", lambda L: L.complex64(1)),
        ("int32-array", lambda L: L.int32(L.asarray(host("float32", [2.5, -1.5])))),
        ("uint32-numpy", lambda L: L.uint32(np.arange(3))),
    ]
    return [Case(name, fn) for name, fn in codes]


DTYPE_SPELLINGS: dict[str, Callable[[Namespace], Any]] = {
    "scalar-type": lambda L: L.float16,
    "numpy-type": lambda L: np.float16,
    "string": lambda L: "float16",
    "numpy-dtype": lambda L: np.dtype("float16"),
    "jnp-dtype": lambda L: L.dtype("float16"),
}
DTYPE_TAKERS: dict[str, Callable[[Namespace, Any], Any]] = {
    "zeros": lambda L, d: L.zeros(3, dtype=d),
    "ones": lambda L, d: L.ones((2, 1), d),
    "full": lambda L, d: L.full(2, 7, dtype=d),
    "empty": lambda L, d: L.empty(2, dtype=d),
    "zeros_like": lambda L, d: L.zeros_like(L.ones(2), dtype=d),
    "ones_like": lambda L, d: L.ones_like(L.ones(2), dtype=d),
    "full_like": lambda L, d: L.full_like(L.ones(2), 3, dtype=d),
    "empty_like": lambda L, d: L.empty_like(L.ones(2), dtype=d),
    "array": lambda L, d: L.array([1, 2], dtype=d),
    "asarray": lambda L, d: L.asarray(3, dtype=d),
    "arange": lambda L, d: L.arange(4, dtype=d),
    "linspace": lambda L, d: L.linspace(0, 1, 3, dtype=d),
    "eye": lambda L, d: L.eye(2, dtype=d),
    "identity": lambda L, d: L.identity(2, dtype=d),
    "sum": lambda L, d: L.sum(L.ones(3), dtype=d),
    "prod": lambda L, d: L.prod(L.ones(3), dtype=d),
    "mean": lambda L, d: L.mean(L.ones(3), dtype=d),
    "concatenate": lambda L, d: L.concatenate([L.ones(2), L.ones(1)], dtype=d),
    "stack": lambda L, d: L.stack([L.ones(2), L.ones(2)], dtype=d),
    "astype": lambda L, d: L.ones(2).astype(d),
    "sum-method": lambda L, d: L.ones(2).sum(dtype=d),
}


@pytest.mark.parametrize("spelling", DTYPE_SPELLINGS)
@pytest.mark.parametrize("taker", DTYPE_TAKERS)
def test_dtype_argument_spellings(taker: str, spelling: str) -> None:
    """Every function with a ``dtype=`` accepts every spelling of a dtype."""
    result = DTYPE_TAKERS[taker](jnp, DTYPE_SPELLINGS[spelling](jnp))
    assert isinstance(result, jt.Array)
    assert result.dtype == np.float16 and result.weak_type is False


@pytest.mark.parametrize(
    ("taker", "python_type"),
    [
        pytest.param(t, p, id=f"{t}-{p.__name__}")
        for t in ("zeros", "array", "arange", "astype", "sum")
        for p in (bool, int, float, complex)
    ],
)  # fmt: skip
def test_dtype_argument_python_types(taker: str, python_type: type) -> None:
    """Python types as dtypes mean the default type of their kind (32-bit)."""
    try:
        expected = jax.eval_shape(lambda: DTYPE_TAKERS[taker](jax_numpy, python_type))
    except TypeError:  # jnp.arange(4, dtype=bool)
        with pytest.raises(TypeError):
            DTYPE_TAKERS[taker](jnp, python_type)
        return
    result = DTYPE_TAKERS[taker](jnp, python_type)
    assert (result.dtype, result.weak_type) == (expected.dtype, expected.weak_type)


DTYPE_NAMES = ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32", "float16", "bfloat16", "float32", "complex64")
CATEGORIES = ("generic", "number", "inexact", "floating", "complexfloating", "integer", "signedinteger", "unsignedinteger")


def test_issubdtype_matches_jax() -> None:
    for name in DTYPE_NAMES:
        for category in CATEGORIES:
            ours = jnp.issubdtype(getattr(jnp, name if name != "bool" else "bool_"), getattr(jnp, category))
            assert ours == jax_numpy.issubdtype(jnp.dtype(name), getattr(jax_numpy, category)), (name, category)
            assert jnp.issubdtype(name, getattr(jnp, category)) == ours
        for other in DTYPE_NAMES:
            assert jnp.issubdtype(name, other) == jax_numpy.issubdtype(name, other), (name, other)
    assert jnp.issubdtype(jnp.bfloat16, jnp.floating)
    assert not jnp.issubdtype(jnp.int32, jnp.floating)


@pytest.mark.parametrize("name", ["float16", "bfloat16", "float32"])
def test_finfo_matches_jax(name: str) -> None:
    ours, theirs = jnp.finfo(getattr(jnp, name)), jax_numpy.finfo(getattr(jax_numpy, name))
    for attribute in ("bits", "eps", "max", "min", "tiny", "resolution", "dtype"):
        assert getattr(ours, attribute) == getattr(theirs, attribute), attribute
    assert jnp.finfo(name).eps == theirs.eps
    assert jnp.finfo(jnp.ones(2, name)).eps == theirs.eps


@pytest.mark.parametrize("name", ["int8", "int16", "int32", "uint8", "uint16", "uint32"])
def test_iinfo_matches_jax(name: str) -> None:
    ours, theirs = jnp.iinfo(getattr(jnp, name)), jax_numpy.iinfo(getattr(jax_numpy, name))
    assert (ours.bits, ours.min, ours.max) == (theirs.bits, theirs.min, theirs.max)
    assert jnp.iinfo(name).max == theirs.max


@pytest.mark.parametrize(
    "spec",
    [
        "float32", "int8", "bfloat16", np.float16, np.dtype("uint8"), jnp.float32, float, int, bool,
    ],
    ids=repr,
)  # fmt: skip
def test_dtype_function_matches_jax(spec: Any) -> None:
    theirs = spec if not isinstance(spec, type(jnp.float32)) else jax_numpy.float32
    assert jnp.dtype(spec) == jax_numpy.dtype(theirs)


def test_scalar_types_are_dtypes() -> None:
    assert jnp.dtype(jnp.float32) == np.float32
    assert jnp.ones(2, jnp.float32).dtype == jnp.float32.dtype
    same = jnp.float32
    assert jnp.float32 == same
    assert jnp.float32 != jnp.float16
    assert hash(jnp.int8) == hash(jnp.int8)
    x = jnp.float32(3)
    assert type(x).__name__ == "ArrayImpl"
    assert x.dtype == np.float32 and x.shape == () and not x.weak_type
    assert float(x) == 3.0
    assert jnp.ndarray is jt.Array and isinstance(jnp.ones(2), jnp.ndarray)


def test_constants_match_jax() -> None:
    for name in ("pi", "e", "inf", "euler_gamma"):
        assert getattr(jnp, name) == getattr(jax_numpy, name)
    assert np.isnan(jnp.nan) and jnp.newaxis is None


# === repr, str, format ===

REPR_CASES: dict[str, Callable[[Namespace], Any]] = {
    "float-1d": lambda L: L.arange(3.0),
    "weak-0d": lambda L: L.array(1.0),
    "weak-1d": lambda L: L.full((2,), 1.5),
    "int-2d": lambda L: L.arange(6).reshape(2, 3),
    "bool": lambda L: L.array([True, False]),
    "int-0d": lambda L: L.array(3),
    "strong-0d": lambda L: L.float32(2),
    "uint8": lambda L: L.array([1, 2], dtype=L.uint8),
    "bfloat16": lambda L: L.array([1.5, 2], dtype=L.bfloat16),
    "float16": lambda L: L.array([1.5, -2], dtype=L.float16),
    "complex": lambda L: L.array([1 + 2j]),
    "int-3d": lambda L: L.ones((2, 2, 2), L.int32),
    "long": lambda L: L.arange(2000),
    "decimals": lambda L: L.asarray(np.asarray([[0.0, 1 / 7], [2 / 7, 3 / 7]], dtype=np.float32)),
    "nan-inf": lambda L: L.asarray(np.asarray([np.nan, np.inf, -np.inf, 1e-8], dtype=np.float32)),
    "empty-1d": lambda L: L.zeros((0,)),
    "empty-2d": lambda L: L.zeros((2, 0)),
}


@pytest.mark.parametrize("name", REPR_CASES)
def test_repr_and_str_match_jax(name: str) -> None:
    ours, theirs = REPR_CASES[name](jnp), REPR_CASES[name](jax_numpy)
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)


def test_format() -> None:
    x, y = jnp.asarray(np.float32(2.5)), jax_numpy.asarray(np.float32(2.5))
    for spec in (".2f", "", "8.3e", ">10"):
        assert format(x, spec) == format(y, spec), spec
    assert f"{jnp.array(3):03d}" == f"{jax_numpy.array(3):03d}"
    assert f"{jnp.arange(3.0)}" == f"{jax_numpy.arange(3.0)}"


# === vmap against a Python loop ===

B3 = RNG.standard_normal((3, 4)).astype(np.float32)
POS3 = (np.abs(B3) + 1.1).astype(np.float32)
UNIT3 = (np.tanh(B3) * 0.9).astype(np.float32)


def vmap_arg(name: str) -> np.ndarray[Any, Any]:
    if name in ("arccosh",):
        return POS3
    if name in ("log", "log2", "log10", "sqrt", "log1p", "reciprocal"):
        return POS3
    if name in ("arccos", "arcsin", "arctanh"):
        return UNIT3
    return B3


Fn = Callable[[Any], Any] | Callable[[Any, Any], Any] | Callable[[Any, Any, Any], Any]
VmapCase = tuple[Fn, tuple[np.ndarray[Any, Any], ...], Any]


def reduce_last_axis(name: str) -> Callable[[Any], Any]:
    def fn(a: Any) -> Any:
        return getattr(jnp, name)(a.reshape(2, 2), axis=-1, keepdims=True)

    return fn


def vmap_cases() -> dict[str, VmapCase]:
    cases: dict[str, VmapCase] = {}
    for name in (*UNARY_FLOAT, *UNARY_KEEP):
        cases[name] = (getattr(jnp, name), (vmap_arg(name),), 0)
    for name in UNARY_INT:
        cases[name] = (getattr(jnp, name), (host("int32", B3 * 10),), 0)
    binary = (
        "add", "subtract", "multiply", "divide", "true_divide", "floor_divide", "remainder", "mod",
        "fmod", "maximum", "minimum", "arctan2", "hypot", "logaddexp", "equal", "not_equal", "less",
        "less_equal", "greater", "greater_equal", "logical_and", "logical_or", "logical_xor",
    )  # fmt: skip
    for name in binary:
        cases[name] = (getattr(jnp, name), (B3, POS3), 0)
        cases[f"{name}-unbatched-rhs"] = (getattr(jnp, name), (B3, POS3[0]), (0, None))
    ints = (host("int32", B3 * 10), host("int32", np.abs(B3) * 3))
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor", "left_shift", "right_shift"):
        cases[name] = (getattr(jnp, name), ints, 0)
    cases["power"] = (jnp.power, (POS3, B3), 0)
    cases["pow"] = (lambda a: jnp.pow(a, 3), (B3,), 0)
    cases["divmod"] = (jnp.divmod, (B3, POS3), 0)
    cases["round"] = (lambda a: jnp.round(a, 2), (B3,), 0)
    cases["around"] = (lambda a: jnp.around(a, 1), (B3,), 0)
    cases["clip"] = (lambda a, lo: jnp.clip(a, lo, 1.0), (B3, B3[:, 0] - 0.5), 0)
    cases["where"] = (lambda c, a, b: jnp.where(c > 0, a, b), (B3, POS3, UNIT3[0]), (0, 0, None))
    for name in (*REDUCTIONS, *ARG_REDUCTIONS):
        cases[name] = (getattr(jnp, name), (B3,), 0)
        cases[f"{name}-axis"] = (reduce_last_axis(name), (B3,), 0)
    cases["sum-in-axis-1"] = (lambda a: jnp.sum(a, axis=0), (B3,), 1)
    cases["mean-where"] = (lambda a: jnp.mean(a, where=a > 0), (B3,), 0)
    cases["reshape"] = (lambda a: jnp.reshape(a, (2, 2)), (B3,), 0)
    cases["transpose"] = (lambda a: jnp.transpose(a.reshape(2, 2)), (B3,), 0)
    cases["broadcast_to"] = (lambda a: jnp.broadcast_to(a, (2, 4)), (B3,), 0)
    cases["expand_dims"] = (lambda a: jnp.expand_dims(a, (0, 2)), (B3,), 0)
    cases["squeeze"] = (lambda a: jnp.squeeze(a[None, :, None]), (B3,), 0)
    cases["ravel"] = (lambda a: jnp.ravel(a.reshape(2, 2)), (B3,), 0)
    cases["moveaxis"] = (lambda a: jnp.moveaxis(a.reshape(2, 2, 1), 0, -1), (B3,), 0)
    cases["swapaxes"] = (lambda a: jnp.swapaxes(a.reshape(2, 2), 0, 1), (B3,), 0)
    cases["concatenate"] = (lambda a, b: jnp.concatenate([a, b, a]), (B3, POS3), 0)
    cases["stack"] = (lambda a, b: jnp.stack([a, b], axis=1), (B3, POS3), 0)
    cases["dot"] = (jnp.dot, (B3, POS3), 0)
    cases["dot-matrix"] = (lambda a, m: jnp.dot(a, m), (B3, RNG.standard_normal((4, 2)).astype(np.float32)), (0, None))
    cases["matmul"] = (lambda a, b: jnp.outer(a, b) @ b, (B3, POS3), 0)
    cases["vdot"] = (jnp.vdot, (B3, POS3), 0)
    cases["inner"] = (jnp.inner, (B3, POS3), 0)
    cases["outer"] = (jnp.outer, (B3, POS3), 0)
    cases["tensordot"] = (lambda a, b: jnp.tensordot(a.reshape(2, 2), b.reshape(2, 2), axes=1), (B3, POS3), 0)
    cases["zeros_like"] = (jnp.zeros_like, (B3,), 0)
    cases["ones_like"] = (jnp.ones_like, (B3,), 0)
    cases["full_like"] = (lambda a: jnp.full_like(a, 2.0), (B3,), 0)
    cases["empty_like"] = (lambda a: jnp.empty_like(a) * 0, (B3,), 0)
    cases["full"] = (lambda a: jnp.full((2, 4), a), (B3,), 0)
    cases["array"] = (lambda a, b: jnp.array([a, b]), (B3, POS3), 0)
    cases["asarray"] = (lambda a: jnp.asarray(a, dtype=jnp.float16), (B3,), 0)
    cases["linspace"] = (lambda a: jnp.linspace(a[0], a[1], 5), (B3,), 0)
    cases["astype"] = (lambda a: a.astype(jnp.int32), (B3 * 5,), 0)
    cases["methods"] = (lambda a: a.reshape(2, 2).T.sum(axis=0) + a.mean() + a.max(), (B3,), 0)
    # einsum family
    cases["einsum"] = (lambda a, b: jnp.einsum("i,ji->j", a, b), (B3, B3 + 1), (0, None))
    cases["einsum_path"] = (lambda a: jnp.einsum("i,i", a, a, optimize=jnp.einsum_path("i,i", a, a)[0]), (B3,), 0)
    cases["logaddexp2"] = (lambda a, b: jnp.logaddexp2(a, b), (B3, B3 * 2), (0, 0))
    cases["sinc"] = (lambda a: jnp.sinc(a), (B3 - 2,), 1)
    # array manipulation family (per example: a vector of 4; m22 its 2x2 reshape)
    def m22(a: jt.Array) -> jt.Array:
        return a.reshape(2, 2)

    manipulation: dict[str, Fn] = {
        "append": lambda a: jnp.append(a, 1.0), "array_split": lambda a: jnp.array_split(a, 3),
        "apply_along_axis": lambda a: jnp.apply_along_axis(jnp.cumsum, 1, m22(a)),
        "apply_over_axes": lambda a: jnp.apply_over_axes(jnp.sum, m22(a), [1]),
        "atleast_1d": jnp.atleast_1d, "atleast_2d": jnp.atleast_2d, "atleast_3d": jnp.atleast_3d,
        "block": lambda a: jnp.block([[m22(a), m22(a)]]), "broadcast_arrays": lambda a: jnp.broadcast_arrays(a, m22(a)[:, :1]),
        "column_stack": lambda a: jnp.column_stack([a, a]), "concat": lambda a: jnp.concat([a, a]),
        "copy": jnp.copy, "cross": lambda a: jnp.cross(a[:3], a[1:]), "delete": lambda a: jnp.delete(a, 1),
        "diag": jnp.diag, "diagflat": lambda a: jnp.diagflat(m22(a), 1), "diagonal": lambda a: jnp.diagonal(m22(a), -1),
        "dsplit": lambda a: jnp.dsplit(a.reshape(1, 1, 4), 2), "dstack": lambda a: jnp.dstack([a, a]),
        "flip": jnp.flip, "fliplr": lambda a: jnp.fliplr(m22(a)), "flipud": jnp.flipud,
        "hsplit": lambda a: jnp.hsplit(a, 2), "hstack": lambda a: jnp.hstack([a, a]),
        "insert": lambda a: jnp.insert(a, 2, a[:2]), "kaiser": lambda a: jnp.kaiser(5, jnp.abs(a[0]) + 1),
        "kron": lambda a: jnp.kron(m22(a), m22(a)), "logspace": lambda a: jnp.logspace(a[0], a[1], 4),
        "geomspace": lambda a: jnp.geomspace(jnp.abs(a[0]) + 1, jnp.abs(a[1]) + 2, 4),
        "matrix_transpose": lambda a: jnp.matrix_transpose(m22(a)), "matvec": lambda a: jnp.matvec(m22(a), a[:2]),
        "meshgrid": lambda a: jnp.meshgrid(a, a[:2]), "packbits": lambda a: jnp.packbits(a > 0),
        "pad": lambda a: jnp.pad(a, (2, 3), mode="symmetric"), "permute_dims": lambda a: jnp.permute_dims(m22(a), (1, 0)),
        "repeat": lambda a: jnp.repeat(a, 2), "resize": lambda a: jnp.resize(a, (3, 3)), "roll": lambda a: jnp.roll(a, 1),
        "rollaxis": lambda a: jnp.rollaxis(m22(a), 1), "rot90": lambda a: jnp.rot90(m22(a)),
        "split": lambda a: jnp.split(a, 2), "tile": lambda a: jnp.tile(a, (2, 1)), "trace": lambda a: jnp.trace(m22(a)),
        "tril": lambda a: jnp.tril(m22(a)), "triu": lambda a: jnp.triu(m22(a), 1),
        "unpackbits": lambda a: jnp.unpackbits(jnp.astype(jnp.abs(a) * 50, jnp.uint8)), "unstack": jnp.unstack,
        "vander": lambda a: jnp.vander(a, 3), "vecdot": lambda a: jnp.vecdot(m22(a), a[:2]),
        "vecmat": lambda a: jnp.vecmat(a[:2], m22(a)), "vsplit": lambda a: jnp.vsplit(m22(a), 2),
        "vstack": lambda a: jnp.vstack([a, a]),
    }  # fmt: skip
    for name, fun in manipulation.items():
        cases[name] = (fun, (B3,), 0)
    # advanced indexing family (per example: a vector of 4; value-dependent
    # functions with a static size, masks of place on the host)
    picks = np.array([2, 0, 3], np.int32)

    def as_index(a: jt.Array, scale: float) -> jt.Array:
        return jnp.astype(jnp.abs(a) * scale, jnp.int32)

    indexing: dict[str, Fn] = {
        "take": lambda a: jnp.take(a, picks), "take_along_axis": lambda a: jnp.take_along_axis(m22(a), as_index(m22(a), 1.5), 1),
        "put": lambda a: jnp.put(a, picks, a[:3] * 2, inplace=False),
        "put_along_axis": lambda a: jnp.put_along_axis(m22(a), as_index(m22(a)[:, :1], 1.5), a[:2, None], 1, inplace=False),
        "choose": lambda a: jnp.choose(as_index(a, 1.5), [a, -a, 2 * a], mode="clip"),
        "compress": lambda a: jnp.compress(a > 0, a, size=4), "extract": lambda a: jnp.extract(a > 0, a, size=4),
        "place": lambda a: jnp.place(a, np.array([True, False, True, False]), a[:2] + 1, inplace=False),
        "nonzero": lambda a: jnp.nonzero(a > 0, size=4), "flatnonzero": lambda a: jnp.flatnonzero(a > 0, size=4),
        "argwhere": lambda a: jnp.argwhere(m22(a) > 0, size=4, fill_value=-1),
        "select": lambda a: jnp.select([a > 0, a < -1], [a, -a], 0.5),
        "piecewise": lambda a: jnp.piecewise(a, [a > 0], [jnp.sin, jnp.cos]),
        "ix_": lambda a: jnp.ix_(as_index(a, 2), picks), "unravel_index": lambda a: jnp.unravel_index(as_index(a, 5), (3, 4)),
        "ravel_multi_index": lambda a: jnp.ravel_multi_index((as_index(a, 3), as_index(a, 2)), (5, 4), mode="clip"),
        "fill_diagonal": lambda a: jnp.fill_diagonal(m22(a), a[0], inplace=False),
    }  # fmt: skip
    for name, fun in indexing.items():
        cases[name] = (fun, (B3,), 0)
    # math, statistics, logic, set and polynomial functions family (per
    # example: a vector of 4; set functions with a static size)
    knots = jnp.array([-2.0, 0.0, 1.0, 3.0])

    def small_ints(a: jt.Array) -> jt.Array:
        return jnp.astype(jnp.abs(a) * 7, jnp.int32)

    math_stats: dict[str, Fn] = {
        "heaviside": lambda a: jnp.heaviside(a, 0.5), "copysign": lambda a: jnp.copysign(1.5, a),
        "ldexp": lambda a: jnp.ldexp(a, small_ints(a)), "frexp": jnp.frexp, "modf": jnp.modf,
        "gcd": lambda a: jnp.gcd(small_ints(a), 6), "lcm": lambda a: jnp.lcm(small_ints(a), 4),
        "fmax": lambda a: jnp.fmax(a, a[::-1]), "fmin": lambda a: jnp.fmin(a, 0.0), "fabs": jnp.fabs,
        "float_power": lambda a: jnp.float_power(jnp.abs(a), 1.5), "spacing": jnp.spacing,
        "nextafter": lambda a: jnp.nextafter(a, 0.0), "i0": jnp.i0, "angle": jnp.angle, "nan_to_num": jnp.nan_to_num,
        "interp": lambda a: jnp.interp(a, knots, a), "unwrap": lambda a: jnp.unwrap(a * 4),
        "diff": lambda a: jnp.diff(a, n=2), "ediff1d": lambda a: jnp.ediff1d(a, to_begin=a[:1]),
        "gradient": jnp.gradient, "trapezoid": lambda a: jnp.trapezoid(a, knots),
        "bitwise_count": lambda a: jnp.bitwise_count(small_ints(a)), "bitwise_invert": lambda a: jnp.bitwise_invert(small_ints(a)),
        "bitwise_left_shift": lambda a: jnp.bitwise_left_shift(small_ints(a), 2),
        "bitwise_right_shift": lambda a: jnp.bitwise_right_shift(small_ints(a), 1),
        "acos": lambda a: jnp.acos(jnp.tanh(a)), "acosh": lambda a: jnp.acosh(jnp.abs(a) + 1), "asin": lambda a: jnp.asin(jnp.tanh(a)),
        "asinh": jnp.asinh, "atan": jnp.atan, "atanh": lambda a: jnp.atanh(jnp.tanh(a)), "atan2": lambda a: jnp.atan2(a, a[::-1]),
        "allclose": lambda a: jnp.allclose(a, a + 1e-9), "isclose": lambda a: jnp.isclose(a, 0.5, atol=0.6),
        "array_equal": lambda a: jnp.array_equal(a, jnp.round(a)), "array_equiv": lambda a: jnp.array_equiv(a, a[:1]),
        "isneginf": lambda a: jnp.isneginf(a / 0.0), "isposinf": lambda a: jnp.isposinf(a / 0.0), "isreal": jnp.isreal,
        "iscomplex": lambda a: jnp.iscomplex(a * 1j), "signbit": jnp.signbit,
        "var": jnp.var, "std": lambda a: jnp.std(a, ddof=1), "median": jnp.median, "percentile": lambda a: jnp.percentile(a, 30),
        "quantile": lambda a: jnp.quantile(a, jnp.array([0.2, 0.9]), method="midpoint"), "nanmedian": jnp.nanmedian,
        "nanpercentile": lambda a: jnp.nanpercentile(a, 70), "nanquantile": lambda a: jnp.nanquantile(a, 0.4),
        "average": lambda a: jnp.average(a, weights=knots + 3), "ptp": jnp.ptp, "count_nonzero": lambda a: jnp.count_nonzero(a > 0),
        "nansum": jnp.nansum, "nanprod": jnp.nanprod, "nanmean": jnp.nanmean, "nanvar": jnp.nanvar, "nanstd": jnp.nanstd,
        "nanmax": jnp.nanmax, "nanmin": jnp.nanmin, "nanargmax": jnp.nanargmax, "nanargmin": jnp.nanargmin,
        "corrcoef": lambda a: jnp.corrcoef(m22(a)), "cov": lambda a: jnp.cov(m22(a)),
        "histogram": lambda a: jnp.histogram(a, bins=3, range=(-2.0, 2.0)), "histogram_bin_edges": lambda a: jnp.histogram_bin_edges(a, 3),
        "histogram2d": lambda a: jnp.histogram2d(a, a[::-1], bins=2), "histogramdd": lambda a: jnp.histogramdd(m22(a), bins=2)[0],
        "bincount": lambda a: jnp.bincount(small_ints(a), length=8), "isin": lambda a: jnp.isin(jnp.round(a), knots),
        "intersect1d": lambda a: jnp.intersect1d(jnp.round(a), knots, size=4),
        "union1d": lambda a: jnp.union1d(jnp.round(a), knots, size=8), "setdiff1d": lambda a: jnp.setdiff1d(jnp.round(a), knots, size=4),
        "setxor1d": lambda a: jnp.setxor1d(jnp.round(a), knots, size=8), "poly": jnp.poly, "polyval": lambda a: jnp.polyval(a, knots),
        "polyadd": lambda a: jnp.polyadd(a, a[:2]), "polysub": lambda a: jnp.polysub(a[:3], a), "polymul": lambda a: jnp.polymul(a, a[:2]),
        "polydiv": lambda a: jnp.polydiv(a, jnp.array([1.0, 2.0])), "polyder": jnp.polyder, "polyint": lambda a: jnp.polyint(a, k=1.0),
        "polyfit": lambda a: jnp.polyfit(knots, a, 1),
        "roots": lambda a: jnp.sort_complex(jnp.roots(a, strip_zeros=False)),
    }  # fmt: skip
    for name, fun in math_stats.items():
        cases[name] = (fun, (B3,), 0)
    # sorting and convolution families (per example: a vector of 4; unique
    # with a static size)
    edges = jnp.array([-1.0, 0.0, 1.0])
    sorting: dict[str, Fn] = {
        "sort": jnp.sort, "argsort": lambda a: jnp.argsort(a, descending=True), "partition": lambda a: jnp.partition(a, 2),
        "argpartition": lambda a: jnp.argpartition(a, 1), "lexsort": lambda a: jnp.lexsort((a, jnp.round(a))),
        "sort_complex": jnp.sort_complex, "searchsorted": lambda a: jnp.searchsorted(edges, a),
        "digitize": lambda a: jnp.digitize(a, edges), "cumsum": jnp.cumsum, "cumprod": jnp.cumprod,
        "cumulative_sum": lambda a: jnp.cumulative_sum(a, include_initial=True), "cumulative_prod": jnp.cumulative_prod,
        "nancumsum": lambda a: jnp.nancumsum(jnp.where(a > 1, jnp.nan, a)),
        "nancumprod": lambda a: jnp.nancumprod(jnp.where(a > 1, jnp.nan, a)),
        "unique": lambda a: jnp.unique(jnp.round(a), size=4, fill_value=0.0),
        "unique_values": lambda a: jnp.unique_values(jnp.round(a), size=4, fill_value=0.0),
        "unique_counts": lambda a: jnp.unique_counts(jnp.round(a), size=4, fill_value=0.0),
        "unique_inverse": lambda a: jnp.unique_inverse(jnp.round(a), size=4, fill_value=0.0),
        "unique_all": lambda a: jnp.unique_all(jnp.round(a), size=4, fill_value=0.0),
        "convolve": lambda a: jnp.convolve(a, a[:2]), "correlate": lambda a: jnp.correlate(a, a[1:], mode="same"),
    }  # fmt: skip
    for name, fun in sorting.items():
        cases[name] = (fun, (B3,), 0)
    return cases


VMAP_CASES = vmap_cases()


@pytest.mark.parametrize("name", VMAP_CASES)
def test_vmap_matches_loop(name: str) -> None:
    case_fun, args, in_axes = VMAP_CASES[name]
    fun: Callable[..., Any] = case_fun
    axes: tuple[Any, ...] = (in_axes,) * len(args) if in_axes is None or isinstance(in_axes, int) else in_axes
    size = next(a.shape[ax] for a, ax in zip(args, axes) if ax is not None)
    with np.errstate(all="ignore"):
        batched = jt.vmap(fun, in_axes=in_axes)(*(jnp.asarray(a) for a in args))
        per_example = [
            fun(*(jnp.asarray(a if ax is None else np.take(a, i, axis=ax)) for a, ax in zip(args, axes))) for i in range(size)
        ]
    outs = as_tuple(batched)
    for k, out in enumerate(outs):
        expected = [as_tuple(p)[k] for p in per_example]
        assert isinstance(out, jt.Array)
        assert out.shape == (size, *expected[0].shape) and out.dtype == expected[0].dtype
        assert out.weak_type == expected[0].weak_type
        np.testing.assert_allclose(widen(out), np.stack([widen(e) for e in expected]), rtol=1e-5, atol=1e-6)


def test_vmap_out_axes_and_names_are_covered() -> None:
    """Every function of jnp.__all__ that takes arrays appears under vmap."""
    creation_only = {"arange", "eye", "identity", "zeros", "ones", "empty", "linspace"}
    creation_only |= {  # array manipulation family: no array arguments (trim_zeros: concrete only)
        "tri", "bartlett", "blackman", "hamming", "hanning", "fromfunction", "frombuffer", "fromfile", "fromiter",
        "fromstring", "from_dlpack", "broadcast_shapes", "trim_zeros",
    }
    creation_only |= {  # advanced indexing family: index builders from shapes (or an array's shape)
        "indices", "diag_indices", "tril_indices", "triu_indices", "mask_indices", "diag_indices_from",
        "tril_indices_from", "triu_indices_from",
    }
    shape_queries = {"shape", "ndim", "size", "result_type", "promote_types", "issubdtype", "finfo", "iinfo", "dtype"}
    shape_queries |= {  # math/statistics family: static answers, printing, files
        "isrealobj", "iscomplexobj", "isscalar", "iterable", "can_cast", "isdtype", "printoptions", "set_printoptions",
        "get_printoptions", "array_repr", "array_str", "save", "savez", "load", "frompyfunc",
    }
    missing = [
        name
        for name in public_functions()
        if name not in creation_only | shape_queries and not any(k == name or k.startswith(name + "-") for k in VMAP_CASES)
    ]
    assert not missing


# === jvp against JAX ===

JVP_X = (np.abs(RNG.standard_normal((2, 3))) + 0.5).astype(np.float32)
JVP_Y = RNG.standard_normal((2, 3)).astype(np.float32)
JVP_T = RNG.standard_normal((2, 3)).astype(np.float32)

JVP_CASES: dict[str, tuple[Callable[[Namespace], Fn], int]] = {
    "sin": (lambda L: L.sin, 1),
    "exp": (lambda L: L.exp, 1),
    "log": (lambda L: L.log, 1),
    "tanh": (lambda L: L.tanh, 1),
    "sqrt": (lambda L: L.sqrt, 1),
    "arctan": (lambda L: L.arctan, 1),
    "square": (lambda L: L.square, 1),
    "reciprocal": (lambda L: L.reciprocal, 1),
    "cbrt": (lambda L: L.cbrt, 1),
    "abs": (lambda L: L.abs, 1),
    "multiply": (lambda L: L.multiply, 2),
    "divide": (lambda L: L.divide, 2),
    "power": (lambda L: L.power, 2),
    "power-int": (lambda L: lambda a: L.power(a, 3), 1),
    "maximum": (lambda L: L.maximum, 2),
    "arctan2": (lambda L: L.arctan2, 2),
    "hypot": (lambda L: L.hypot, 2),
    "logaddexp": (lambda L: L.logaddexp, 2),
    "where": (lambda L: lambda a, b: L.where(a > 1.0, a * b, b), 2),
    "clip": (lambda L: lambda a: L.clip(a, 0.7, 1.2), 1),
    "sum": (lambda L: lambda a: L.sum(a, axis=0), 1),
    "mean": (lambda L: L.mean, 1),
    "prod": (lambda L: lambda a: L.prod(a, axis=1), 1),
    "max": (lambda L: lambda a: L.max(a, axis=1), 1),
    "dot": (lambda L: lambda a, b: L.dot(a, b.T), 2),
    "matmul": (lambda L: lambda a, b: a.T @ b, 2),
    "shape-ops": (lambda L: lambda a: L.concatenate([L.transpose(a), L.reshape(a, (3, 2))], axis=1), 1),
    "greater": (lambda L: lambda a, b: a > b, 2),
    "argmax": (lambda L: lambda a: (L.argmax(a), L.sum(a)), 1),
    "astype-int": (lambda L: lambda a: a.astype(L.int32), 1),
}


@functools.cache
def jax_jvps() -> dict[str, Any]:
    def run_all() -> dict[str, Any]:
        out: dict[str, Any] = {}
        for name, (make, arity) in JVP_CASES.items():
            primals = (jax_numpy.asarray(JVP_X), jax_numpy.asarray(JVP_Y))[:arity]
            tangents = (jax_numpy.asarray(JVP_T), jax_numpy.asarray(JVP_T * 2))[:arity]
            out[name] = jax.jvp(make(jax_numpy), primals, tangents)
        return out

    result: dict[str, Any] = jax.jit(run_all)()
    return result


@pytest.mark.parametrize("name", JVP_CASES)
def test_jvp_matches_jax(name: str) -> None:
    make, arity = JVP_CASES[name]
    fun: Callable[..., Any] = make(jnp)
    primals = (jnp.asarray(JVP_X), jnp.asarray(JVP_Y))[:arity]
    tangents = (jnp.asarray(JVP_T), jnp.asarray(JVP_T * 2))[:arity]
    primal_out, tangent_out = jt.jvp(fun, primals, tangents)
    expected_primal, expected_tangent = jax_jvps()[name]
    assert_same(primal_out, expected_primal, 1e-5, 1e-6, "primal")
    ours_t, theirs_t = as_tuple(tangent_out), as_tuple(expected_tangent)
    for mine, theirs in zip(ours_t, theirs_t):
        if theirs.dtype == jax.dtypes.float0:
            assert isinstance(mine, jt.Array) and mine.dtype == theirs.dtype and mine.shape == theirs.shape
        else:
            assert_same(mine, theirs, 1e-4, 1e-5, "tangent")


# === x64 ===

def x64_cases() -> list[Case]:
    codes: list[tuple[str, Callable[[Namespace], Any]]] = [
        ("sin-int8", lambda L: L.sin(L.asarray(host("int8", [1, 2])))),
        ("sin-int32", lambda L: L.sin(L.asarray(host("int32", [1, 2])))),
        ("sin-int64", lambda L: L.sin(L.asarray(host("int64", [1, 2])))),
        ("sin-py_float", lambda L: L.sin(1.0)),
        ("divide-int64", lambda L: L.divide(L.asarray(host("int64", [1, 2])), 3)),
        ("divide-bool", lambda L: L.divide(L.asarray([True]), L.asarray([True]))),
        ("mean-int32", lambda L: L.mean(L.asarray(host("int32", [1, 2])))),
        ("mean-int64", lambda L: L.mean(L.asarray(host("int64", [1, 2])))),
        ("sum-int32", lambda L: L.sum(L.asarray(host("int32", [1, 2])))),
        ("sum-uint8", lambda L: L.sum(L.asarray(host("uint8", [1, 2])))),
        ("sum-bool", lambda L: L.sum(L.asarray([True, True]))),
        ("argmax", lambda L: L.argmax(L.asarray(host("float64", [1.0, 2.0])))),
        ("arange", lambda L: L.arange(5)),
        ("arange-float", lambda L: L.arange(0.0, 1.0, 0.25)),
        ("linspace", lambda L: L.linspace(0, 1, 3)),
        ("zeros", lambda L: L.zeros(2)),
        ("eye", lambda L: L.eye(2)),
        ("array-py_float", lambda L: L.array(1.5)),
        ("array-list", lambda L: L.array([1, 2])),
        ("array-numpy-float64", lambda L: L.asarray(np.arange(2.0))),
        ("full-py_int", lambda L: L.full(2, 3)),
        ("float64-type", lambda L: L.float64(1.5)),
        ("int64-type", lambda L: L.int64(2)),
        ("power-int64", lambda L: L.power(L.asarray(host("int64", [2, 3])), L.asarray(host("int64", [3, 2])))),
        ("floor_divide-int64", lambda L: L.floor_divide(L.asarray(host("int64", [7, -7])), 2)),
        ("remainder-int64", lambda L: L.remainder(L.asarray(host("int64", [7, -7])), 2)),
        ("dot-float64", lambda L: L.dot(L.asarray(np.arange(3.0)), L.asarray(np.arange(3.0)))),
        ("astype-float", lambda L: L.ones(2).astype(float)),
        ("where-weak", lambda L: L.where(L.asarray([True, False]), 1.0, 2)),
        ("round-float64", lambda L: L.round(L.asarray(np.asarray([1.25, 2.5])), 1)),
    ]
    # float64 results are compared to 1e-12; the float32 ones (sin of int8 and
    # int32 stays float32, as in JAX) to float32 precision: NumPy's and XLA's
    # float32 sin may differ in the last place.
    float32_results = {"sin-int8", "sin-int32", "mean-int32", "sin-py_float"}
    return [Case(name, fn, rtol=1e-6 if name in float32_results else 1e-12, atol=0.0) for name, fn in codes]


TABLES["dtype-objects"] = CaseTable("dtype-objects", dtype_object_cases)
TABLES["x64"] = CaseTable("x64", x64_cases, x64=True)


@pytest.mark.parametrize("group", TABLES["dtype-objects"].params())
def test_dtype_objects(group: Group) -> None:
    check_case("dtype-objects", group)


@pytest.mark.parametrize("group", TABLES["x64"].params())
def test_x64(x64: None, group: Group) -> None:
    check_case("x64", group)


# === coverage of the namespace ===

ELSEWHERE = {
    "shape": "test_shape_ndim_size", "ndim": "test_shape_ndim_size", "size": "test_shape_ndim_size",
    "dtype": "test_dtype_function_matches_jax", "finfo": "test_finfo_matches_jax",
    "iinfo": "test_iinfo_matches_jax", "issubdtype": "test_issubdtype_matches_jax",
    "promote_types": "test_jnp_promotion.py", "result_type": "test_jnp_promotion.py",
    # einsum family
    "einsum": "test_jnp_einsum.py", "einsum_path": "test_jnp_einsum.py",
    "logaddexp2": "test_jnp_custom_derivatives.py", "sinc": "test_jnp_custom_derivatives.py",
    # advanced indexing family
    "argwhere": "test_jnp_index_functions.py", "c_": "test_jnp_index_functions.py",
    "choose": "test_jnp_index_functions.py", "compress": "test_jnp_index_functions.py",
    "diag_indices": "test_jnp_index_functions.py", "diag_indices_from": "test_jnp_index_functions.py",
    "extract": "test_jnp_index_functions.py", "fill_diagonal": "test_jnp_index_functions.py",
    "flatnonzero": "test_jnp_index_functions.py", "index_exp": "test_jnp_index_functions.py",
    "indices": "test_jnp_index_functions.py", "ix_": "test_jnp_index_functions.py",
    "mask_indices": "test_jnp_index_functions.py", "mgrid": "test_jnp_index_functions.py",
    "nonzero": "test_jnp_index_functions.py", "ogrid": "test_jnp_index_functions.py",
    "piecewise": "test_jnp_index_functions.py", "place": "test_jnp_index_functions.py",
    "put": "test_jnp_index_functions.py", "put_along_axis": "test_jnp_index_functions.py",
    "r_": "test_jnp_index_functions.py", "ravel_multi_index": "test_jnp_index_functions.py",
    "s_": "test_jnp_index_functions.py", "select": "test_jnp_index_functions.py",
    "take": "test_jnp_index_functions.py", "take_along_axis": "test_jnp_index_functions.py",
    "tril_indices": "test_jnp_index_functions.py", "tril_indices_from": "test_jnp_index_functions.py",
    "triu_indices": "test_jnp_index_functions.py", "triu_indices_from": "test_jnp_index_functions.py",
    "unravel_index": "test_jnp_index_functions.py",
    # sorting family
    **{name: "test_jnp_sorting.py" for name in (
        "argpartition", "argsort", "cumprod", "cumsum", "cumulative_prod", "cumulative_sum", "digitize",
        "lexsort", "nancumprod", "nancumsum", "partition", "searchsorted", "sort", "sort_complex",
        "unique", "unique_all", "unique_counts", "unique_inverse", "unique_values",
    )},
    # math, statistics, logic, set and polynomial functions, dtype names, printing and I/O family
    **{name: "test_jnp_math_extra.py" for name in (
        "acos", "acosh", "allclose", "angle", "array_equal", "array_equiv", "asin", "asinh", "atan",
        "atan2", "atanh", "bitwise_count", "bitwise_invert", "bitwise_left_shift", "bitwise_right_shift",
        "can_cast", "copysign", "diff", "ediff1d", "fabs", "float_power", "fmax", "fmin", "frexp", "gcd",
        "gradient", "heaviside", "i0", "interp", "iscomplex", "iscomplexobj", "isclose", "isdtype",
        "isneginf", "isposinf", "isreal", "isrealobj", "isscalar", "iterable", "lcm", "ldexp", "modf",
        "nan_to_num", "nextafter", "signbit", "spacing", "trapezoid", "unwrap",
    )},
    **{name: "test_jnp_statistics.py" for name in (
        "average", "bincount", "corrcoef", "count_nonzero", "cov", "histogram", "histogram2d",
        "histogram_bin_edges", "histogramdd", "median", "nanargmax", "nanargmin", "nanmax", "nanmean",
        "nanmedian", "nanmin", "nanpercentile", "nanprod", "nanquantile", "nanstd", "nansum", "nanvar",
        "percentile", "ptp", "quantile", "std", "var",
    )},
    **{name: "test_jnp_setops_poly_io.py" for name in (
        "array_repr", "array_str", "frompyfunc", "get_printoptions", "intersect1d", "isin", "load",
        "poly", "polyadd", "polyder", "polydiv", "polyfit", "polyint", "polymul", "polysub", "polyval",
        "printoptions", "roots", "save", "savez", "set_printoptions", "setdiff1d", "setxor1d", "union1d",
    )},
    # array manipulation family
    **{name: "test_jnp_manipulation.py" for name in (
        "append", "apply_along_axis", "apply_over_axes", "array_split", "astype", "atleast_1d",
        "atleast_2d", "atleast_3d", "bartlett", "blackman", "block", "broadcast_arrays",
        "broadcast_shapes", "column_stack", "concat", "copy", "cross", "delete", "diag", "diagflat",
        "diagonal", "dsplit", "dstack", "flip", "fliplr", "flipud", "from_dlpack", "frombuffer",
        "fromfile", "fromfunction", "fromiter", "fromstring", "geomspace", "hamming", "hanning", "hsplit",
        "hstack", "insert", "kaiser", "kron", "logspace", "matrix_transpose", "matvec", "meshgrid",
        "packbits", "pad", "permute_dims", "repeat", "resize", "roll", "rollaxis", "rot90", "split",
        "tile", "trace", "tri", "tril", "trim_zeros", "triu", "unpackbits", "unstack", "vander",
        "vecdot", "vecmat", "vsplit", "vstack",
    )},
    # windowed reductions and convolutions family
    "convolve": "test_jnp_convolve.py", "correlate": "test_jnp_convolve.py",
}  # fmt: skip


def public_functions() -> list[str]:
    return [
        name
        for name in jnp.__all__
        if inspect.isfunction(getattr(jnp, name)) or inspect.isbuiltin(getattr(jnp, name))
    ]


def test_every_function_is_compared_with_jax() -> None:
    """Every function in ``jaxtyped.numpy.__all__`` has a case above (a new
    function needs one) and exists in ``jax.numpy``."""
    ids = {case.id.split("-")[0] for table in TABLES.values() for case in table.cases}
    missing = [name for name in public_functions() if name not in ids and name not in ELSEWHERE]
    assert not missing
    assert [name for name in public_functions() if not hasattr(jax_numpy, name)] == []


def test_deepcopy_of_cases_is_not_needed() -> None:
    # Arrays are immutable: reusing host inputs across cases is safe.
    x = jnp.asarray(X234)
    assert copy.deepcopy(x) is x or np.array_equal(np.asarray(copy.deepcopy(x)), X234)


# Signatures (keyword names, positional order) are compared with JAX's for
# every public module in tests/api/test_signature_parity.py.


# exp2, log2 and log10 are composed as JAX composes them (log2 divides by a
# log equation, log10 multiplies by 1/log(10), exp2 is lax.exp2), so under
# jit they are JAX's bit for bit, real and complex, and print JAX's jaxprs.
@pytest.mark.parametrize("name", ["exp2", "log2", "log10"])
@pytest.mark.parametrize("dtype", ["float32", "complex64"])
def test_exp2_log2_log10_compiled_are_jaxs_bit_for_bit(name: str, dtype: str) -> None:
    rng = np.random.default_rng(7)
    values = rng.uniform(0.1, 6.0, 64) + (1j * rng.uniform(-2.0, 2.0, 64) if dtype == "complex64" else 0)
    x = values.astype(dtype)
    ours = np.asarray(jt.jit(getattr(jnp, name))(x))
    theirs = np.asarray(jax.jit(getattr(jax_numpy, name))(x))
    assert ours.dtype == theirs.dtype
    assert ours.tobytes() == theirs.tobytes()
    ours_eqns = [e.primitive.name for e in jt.make_jaxpr(getattr(jnp, name))(x[0]).jaxpr.eqns]
    theirs_eqns = [e.primitive.name for e in jax.make_jaxpr(getattr(jax_numpy, name))(x[0]).jaxpr.eqns]
    assert ours_eqns == theirs_eqns


# linspace computes start * (1 - i/n) + stop * i/n, as JAX's does, over
# array bounds too (one sequence per element, along a new axis); logspace
# and geomspace build on it as JAX's do. Under jit the samples are JAX's
# bit for bit (eagerly, NumPy's pow may round the last bit differently).
_SPACES: dict[str, Callable[[Namespace], Any]] = {
    "linspace": lambda L: L.linspace(0.5, 3.0, 7),
    "linspace-no-endpoint": lambda L: L.linspace(-2.0, 5.0, 13, endpoint=False),
    "linspace-int": lambda L: L.linspace(0, -10, 4, dtype=L.int32),
    "linspace-one": lambda L: L.linspace(2.0, 3.0, 1),
    "linspace-empty-arrays": lambda L: L.linspace(L.zeros(3), 1.0, 0),
    "linspace-complex": lambda L: L.linspace(0, 1 + 2j, 5),
    "linspace-arrays": lambda L: L.linspace(L.array([0.0, 1.0]), L.array([[2.0, 3.0], [4.0, 5.0]]), 5),
    "linspace-arrays-axis1": lambda L: L.linspace(L.array([0.0, 1.0]), L.array([[2.0, 3.0], [4.0, 5.0]]), 5, axis=1),
    "linspace-arrays-axis-1": lambda L: L.linspace(L.array([0.0, 1.0]), 3.0, 5, axis=-1),
    "linspace-retstep": lambda L: L.linspace(L.array([0.0, 1.0]), 3.0, 5, retstep=True),
    "linspace-retstep-one": lambda L: L.linspace(0.0, 3.0, 1, endpoint=False, retstep=True),
    "logspace": lambda L: L.logspace(0.5, 3.0, 7),
    "logspace-base2-int": lambda L: L.logspace(0, 10, 11, base=2, dtype=L.int32),
    "geomspace": lambda L: L.geomspace(0.5, 30.0, 7),
    "geomspace-arrays-axis1": lambda L: L.geomspace(L.array([1.0, 2.0]), 100.0, 5, axis=1),
}


@pytest.mark.parametrize("name", sorted(_SPACES))
def test_spaces_match_jax_and_compile_to_its_bits(name: str) -> None:
    make = _SPACES[name]
    assert_same(make(jnp), make(jax_numpy), rtol=2e-6, atol=1e-6)
    compiled: object = jt.jit(lambda: make(jnp))()  # object: tree_leaves's overloads are ambiguous for Any
    ours = [np.asarray(v) for v in jt.tree_util.tree_leaves(compiled)]
    theirs = [np.asarray(v) for v in jax.tree_util.tree_leaves(jax.jit(lambda: make(jax_numpy))())]
    assert [(a.dtype, a.shape) for a in ours] == [(b.dtype, b.shape) for b in theirs]
    assert all(a.tobytes() == b.tobytes() for a, b in zip(ours, theirs, strict=True))


def test_linspace_rejects_an_axis_out_of_bounds() -> None:
    with pytest.raises(jt.errors.JaxtypedValueError, match=r"jnp.linspace: axis 2 is out of bounds .* 2 dimensions"):
        jnp.linspace(jnp.zeros(3), 1.0, 4, axis=2)


@pytest.mark.parametrize("endpoint", [True, False])
@pytest.mark.parametrize("num", [0, 1, 4])
def test_linspace_step_matches_jax(num: int, endpoint: bool) -> None:
    assert_same(jnp.linspace(1.0, 3.0, num, endpoint=endpoint, retstep=True)[1], jax_numpy.linspace(1.0, 3.0, num, endpoint=endpoint, retstep=True)[1])


# Copies are new arrays, as JAX's: a copy handed to a donating jit is
# deleted, and the original stays usable (they were the same object, so
# donating "the copy" deleted the original).
COPIES: dict[str, Callable[[Any, Any], Any]] = {
    "x.copy()": lambda lib, x: x.copy(),
    "jnp.copy": lambda lib, x: lib.numpy.copy(x),
    "jnp.array": lambda lib, x: lib.numpy.array(x),
    "jnp.asarray(copy=True)": lambda lib, x: lib.numpy.asarray(x, copy=True),
}


@pytest.mark.parametrize("placed", [False, True], ids=["host", "device"])
@pytest.mark.parametrize("how", sorted(COPIES))
def test_a_copy_is_a_new_array_as_in_jax(how: str, placed: bool) -> None:
    def run(lib: Any) -> tuple[bool, list[float], list[float], bool]:
        x = lib.numpy.arange(4.0)
        if placed:
            x = lib.device_put(x)
        y = COPIES[how](lib, x)
        def double(a: Any) -> Any:
            return a * 2

        doubled = lib.jit(double, donate_argnums=0)(y)
        return y is x, np.asarray(doubled).tolist(), np.asarray(x + 1).tolist(), y.is_deleted()

    ours, theirs = run(jt), run(jax)
    assert ours[:3] == theirs[:3] == (False, [0.0, 2.0, 4.0, 6.0], [1.0, 2.0, 3.0, 4.0])
    # On the CPU JAX keeps a donated input it cannot alias; jaxtyped deletes it (a deliberate difference).
    assert ours[3]


def test_asarray_and_array_copy_false_return_the_array_itself_as_in_jax() -> None:
    for lib in (jt, jax):
        x = lib.numpy.arange(3.0)
        assert lib.numpy.asarray(x) is x and lib.numpy.array(x, copy=False) is x
