"""Every function of ``jaxtyped.numpy`` against ``jax.numpy`` of the same
name: values, dtype, shape and weak type (and NumPy in float64 for the
elementwise math).

Each case is written once as a function of the namespace (``L`` is either
``jaxtyped.numpy`` or ``jax.numpy``), so both libraries run literally the
same code. JAX evaluates all cases of a table in one ``jax.jit`` (a single,
mostly constant-folded compilation instead of hundreds of eager dispatches);
where JAX raises while tracing a case, we must raise the same kind of error.

Known bugs are strict xfails whose reason starts with ``BUG:``.
"""

import copy
import functools
import inspect
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp

jax: Any = pytest.importorskip("jax")
jax_numpy: Any = pytest.importorskip("jax.numpy")
jax_config: Any = pytest.importorskip("jax._src.config")

# === the oracle ===

Namespace = Any  # jaxtyped.numpy or jax.numpy: same API by contract


@dataclass(frozen=True)
class Case:
    """``fn(L)`` for ``L`` in (jaxtyped.numpy, jax.numpy) must agree."""

    id: str
    fn: Callable[[Namespace], Any]
    rtol: float = 1e-5
    atol: float = 1e-6
    bug: str | None = None  # a strict xfail
    debug_bug: str | None = None  # a strict xfail under JAXTYPED_DEBUG=1 only


def params(cases: Sequence[Case]) -> list[Any]:
    out: list[Any] = []
    for case in cases:
        marks: list[Any] = []
        if case.bug is not None:
            marks.append(pytest.mark.xfail(strict=True, reason=case.bug))
        elif case.debug_bug is not None:
            marks.append(pytest.mark.xfail(jt.DEBUG, strict=True, reason=case.debug_bug))
        out.append(pytest.param(case, id=case.id, marks=marks))
    return out


class Raised:
    """JAX raised this exception while tracing a case."""

    def __init__(self, error: Exception) -> None:
        self.error = error

    def __repr__(self) -> str:
        return f"Raised({type(self.error).__name__}: {self.error})"


@functools.cache
def jax_results(table: str, x64: bool) -> dict[str, Any]:
    """JAX's result of every case of ``TABLES[table]``, from one jit."""
    del x64  # part of the cache key only: JAX reads its flag at trace time
    raised: dict[str, Raised] = {}

    def run_all() -> dict[str, Any]:
        out: dict[str, Any] = {}
        for case in TABLES[table]:
            try:
                out[case.id] = case.fn(jax_numpy)
            except Exception as error:  # noqa: BLE001 - compared with ours
                raised[case.id] = Raised(error)
        return out

    with jax_config.traceback_filtering("off"):
        values: dict[str, Any] = jax.jit(run_all)()
    return {**values, **raised}


def widen(x: Any) -> np.ndarray[Any, Any]:
    """Values as float64 (complex128 for complex): NumPy compares those
    exactly (bfloat16 NaNs, for one, do not compare equal otherwise)."""
    value = np.asarray(x)
    return value.astype(np.complex128 if value.dtype.kind == "c" else np.float64)


def assert_same(ours: Any, theirs: Any, rtol: float, atol: float, where: str = "result") -> None:
    """``ours`` is a jaxtyped Array (or a tuple of them) equal to JAX's
    ``theirs`` in shape, dtype, weak type and values."""
    if isinstance(theirs, (tuple, list)):
        assert isinstance(ours, (tuple, list)) and len(ours) == len(theirs), where  # pyright: ignore[reportUnknownArgumentType]
        for i, (a, b) in enumerate(zip(ours, theirs)):  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
            assert_same(a, b, rtol, atol, f"{where}[{i}]")
        return
    assert isinstance(ours, jt.Array), f"{where}: {type(ours).__name__} is not a jaxtyped Array"
    assert ours.shape == theirs.shape, f"{where}: shape {ours.shape} != JAX's {theirs.shape}"
    assert ours.dtype == theirs.dtype, f"{where}: dtype {ours.dtype} != JAX's {theirs.dtype}"
    assert ours.weak_type == theirs.weak_type, f"{where}: weak_type {ours.weak_type} != JAX's {theirs.weak_type}"
    np.testing.assert_allclose(widen(ours), widen(theirs), rtol=rtol, atol=atol, err_msg=where)


def check_case(table: str, case: Case, x64: bool = False) -> None:
    expected = jax_results(table, x64)[case.id]
    if isinstance(expected, Raised):
        kind = next(k for k in (TypeError, ValueError, IndexError, OverflowError) if isinstance(expected.error, k))
        with pytest.raises(kind):
            case.fn(jnp)
        return
    assert_same(case.fn(jnp), expected, case.rtol, case.atol)


# === inputs ===

RNG = np.random.default_rng(0)


def host(dtype: str, values: Sequence[Any]) -> np.ndarray[Any, Any]:
    """``values`` as a NumPy array of ``dtype`` (bfloat16 included)."""
    return np.asarray(values).astype(jnp.dtype(dtype))


def tol(dtype: str) -> float:
    return 2e-2 if dtype in ("float16", "bfloat16") else 1e-5


# === elementwise unary functions ===

UNARY_FLOAT = (
    "arccos", "arccosh", "arcsin", "arcsinh", "arctan", "arctanh", "cbrt", "cos", "cosh",
    "deg2rad", "degrees", "exp", "exp2", "expm1", "log", "log1p", "log2", "log10",
    "rad2deg", "radians", "reciprocal", "sin", "sinh", "sqrt", "tan", "tanh",
)  # fmt: skip
UNARY_KEEP = (
    "abs", "absolute", "negative", "positive", "sign", "square", "floor", "ceil", "trunc",
    "rint", "round", "around", "isfinite", "isinf", "isnan", "logical_not",
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

BUG_BOOL_SCALAR_WEAK = "BUG: inexact functions of a Python bool (jnp.sin(True)) give weak_type=True; JAX's result is strong"
BUG_RINT_INT = "BUG: jnp.rint of an integer/bool array keeps the dtype; JAX returns float32"
BUG_NO_COMPLEX_ROUND = "BUG: jnp.rint/round/isfinite reject complex64; JAX supports it"
BUG_SQUARE_BOOL = "BUG: jnp.square(bool) raises; JAX gives int32"
BUG_ROUND_BOOL = "BUG: jnp.round(bool array) returns the array; JAX raises ValueError"
BUG_SCALAR_WEAK = "BUG: weak type of {} of a Python scalar differs from JAX's"


def unary_values(name: str, dtype: str) -> np.ndarray[Any, Any]:
    values = np.asarray(DOMAIN.get(name, DEFAULT_DOMAIN))
    if dtype == "bool":
        return values != 0
    if dtype == "complex64":
        return host(dtype, values + 0.5j)
    if dtype in ("int32", "int8"):
        return host(dtype, np.round(values))
    if dtype == "uint8":
        return host(dtype, np.abs(np.round(values)))
    return host(dtype, values)


def unary_bug(name: str, dtype: str) -> str | None:
    if name == "rint" and dtype in ("int32", "uint8", "bool"):
        return BUG_RINT_INT
    if name in ("rint", "round", "around", "isfinite") and dtype == "complex64":
        return BUG_NO_COMPLEX_ROUND
    if name == "square" and dtype == "bool":
        return BUG_SQUARE_BOOL
    if name in ("round", "around") and dtype == "bool":
        return BUG_ROUND_BOOL
    return None


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
                    lambda L, n=name, v=values: getattr(L, n)(L.asarray(v)),
                    rtol=tol(dtype),
                    atol=1e-2 if dtype in ("float16", "bfloat16") else 1e-6,
                    bug=unary_bug(name, dtype),
                )
            )
        for label, scalar in (("py_float", float(DOMAIN.get(name, DEFAULT_DOMAIN)[3])), ("py_int", 2), ("py_bool", True)):
            bug = None
            if label == "py_bool" and name in UNARY_FLOAT:
                bug = BUG_BOOL_SCALAR_WEAK
            elif (name, label) in {("log2", "py_float"), ("log2", "py_int"), ("log10", "py_float"), ("log10", "py_int"), ("isinf", "py_float"), ("isnan", "py_int")}:
                bug = BUG_SCALAR_WEAK.format(name)
            elif name == "rint" and label in ("py_int", "py_bool"):
                bug = BUG_RINT_INT
            elif name == "square" and label == "py_bool":
                bug = BUG_SQUARE_BOOL
            elif name in ("round", "around") and label == "py_bool":
                bug = BUG_ROUND_BOOL
            cases.append(Case(f"{name}-{label}", lambda L, n=name, s=scalar: getattr(L, n)(s), bug=bug))
        cases.append(Case(f"{name}-specials", lambda L, n=name: getattr(L, n)(L.asarray(np.float32(SPECIALS))), atol=1e-6))
        cases.append(Case(f"{name}-2d", lambda L, n=name: getattr(L, n)(L.asarray(RNG_2D)), rtol=1e-5))
    for name in UNARY_INT:
        for dtype in ("int32", "int8", "uint8", "bool"):
            cases.append(Case(f"{name}-{dtype}", lambda L, n=name, d=dtype: getattr(L, n)(L.asarray(host(d, [0, 1, 5, 127]))), rtol=0))
        cases.append(Case(f"{name}-float32", lambda L, n=name: getattr(L, n)(L.asarray(np.float32([1.0])))))
        cases.append(Case(f"{name}-py_int", lambda L, n=name: getattr(L, n)(5)))
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
BUG_FLOOR_DIV_ZERO = "BUG: jnp.floor_divide of floats by zero (or of inf) gives NaN; JAX gives +-inf like NumPy"
BUG_FMOD_INT_ZERO = "BUG: jnp.fmod of integers by zero returns the dividend; JAX returns 0"


def division_cases() -> list[Case]:
    cases: list[Case] = []
    int_inputs = {
        "int32": (host("int32", DIV_A), host("int32", DIV_B)),
        "int8": (host("int8", [7, -7, -128, 5, -128, 0]), host("int8", [2, -2, -1, 0, 3, 0])),
        "uint8": (host("uint8", [7, 200, 0, 5]), host("uint8", [2, 3, 0, 0])),
    }
    for fname in ("floor_divide", "remainder", "mod", "fmod", "divmod", "true_divide"):
        for dtype, (a, b) in int_inputs.items():
            bug = BUG_FMOD_INT_ZERO if fname == "fmod" else None
            cases.append(Case(f"{fname}-{dtype}", lambda L, f=fname, a=a, b=b: getattr(L, f)(L.asarray(a), L.asarray(b)), rtol=0, bug=bug))
        fa, fb = host("float32", FDIV_A), host("float32", FDIV_B)
        bug = BUG_FLOOR_DIV_ZERO if fname in ("floor_divide", "divmod") else None
        cases.append(Case(f"{fname}-float32", lambda L, f=fname: getattr(L, f)(L.asarray(fa), L.asarray(fb)), bug=bug))
        cases.append(Case(f"{fname}-float16", lambda L, f=fname: getattr(L, f)(L.asarray(host("float16", DIV_A[:5])), L.asarray(host("float16", DIV_B[:5]))), rtol=1e-3))
        for label, scalar in (("2", 2), ("-2", -2), ("0", 0), ("-2.5", -2.5)):
            bug = None
            if fname == "fmod" and scalar == 0:
                bug = BUG_FMOD_INT_ZERO
            cases.append(Case(f"{fname}-int32-by-{label}", lambda L, f=fname, s=scalar: getattr(L, f)(L.asarray(host("int32", DIV_A)), s), bug=bug))
        cases.append(Case(f"{fname}-scalar-by-int32", lambda L, f=fname: getattr(L, f)(-7, L.asarray(host("int32", DIV_B[:5])))))
        cases.append(
            Case(
                f"{fname}-float32-by-0.0",
                lambda L, f=fname: getattr(L, f)(L.asarray(host("float32", [1.0, -1.0, 0.0])), 0.0),
                bug=BUG_FLOOR_DIV_ZERO if fname in ("floor_divide", "divmod") else None,
            )
        )
    cases += [
        Case("divide-int32", lambda L: L.divide(L.asarray(host("int32", [1, -3, 0])), L.asarray(host("int32", [2, 2, 0])))),
        Case("divide-py", lambda L: L.divide(1, 4)),
        Case("true_divide-bool", lambda L: L.true_divide(L.asarray([True, False]), True)),
    ]
    return cases


POW_BASE = [2, -2, 3, 0, 1, -1, 5]
POW_EXP = [3, 3, 0, 0, 10, 7, 2]
BUG_WEAK_PROMOTION = "BUG: a strong integer array promoted to a weak float result (int32[3] ** 3.0) is strong; JAX's is weak"
BUG_POWER_WEAK_BASE = "BUG: Python int base ** integer array gives a weak result; JAX's is strong"
BUG_DEBUG_SHIFT = "BUG (JAXTYPED_DEBUG=1 only): integer power/shift by a 0-d amount: _shift_amount returns np.bool_, annotated ndarray"


def power_cases() -> list[Case]:
    a, b = host("int32", POW_BASE), host("int32", POW_EXP)
    f = host("float32", [2.0, 0.5, 3.0, 0.0, 1.0, 4.0, 9.0])
    return [
        Case("power-int32-int32", lambda L: L.power(L.asarray(a), L.asarray(b)), rtol=0, debug_bug=BUG_DEBUG_SHIFT),
        Case("power-int32-big", lambda L: L.power(L.asarray(host("int32", [2, 3, -2])), L.asarray(host("int32", [30, 19, 31]))), rtol=0, debug_bug=BUG_DEBUG_SHIFT),
        Case("power-int32-overflow", lambda L: L.power(L.asarray(host("int32", [2, 3])), 40), rtol=0),
        Case("power-int32-py_int", lambda L: L.power(L.asarray(a), 3), rtol=0),
        Case("power-int32-0", lambda L: L.power(L.asarray(a), 0), rtol=0),
        Case("power-int32-negative-py_int", lambda L: L.power(L.asarray(a), -1)),
        Case("power-int32-py_float", lambda L: L.power(L.asarray(a), 3.0), bug=BUG_WEAK_PROMOTION),
        Case("power-float32-int32", lambda L: L.power(L.asarray(f), L.asarray(b))),
        Case("power-float32-negative", lambda L: L.power(L.asarray(f), -1)),
        Case("power-float32-py_float", lambda L: L.power(L.asarray(f), 0.5)),
        Case("power-float32-float32", lambda L: L.power(L.asarray(f), L.asarray(host("float32", [0.5, -2.0, 1.5, 2.0, 0.0, -0.5, 0.5])))),
        Case("power-negative-base-fractional", lambda L: L.power(L.asarray(host("float32", [-8.0, -1.0])), 1.0 / 3.0)),
        Case("power-py_int-int32", lambda L: L.power(2, L.asarray(b)), bug=BUG_POWER_WEAK_BASE),
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
        cases.append(Case(f"{name}-nan", lambda L, n=name: getattr(L, n)(L.asarray(NAN_A), L.asarray(NAN_B))))
        cases.append(Case(f"{name}-int32", lambda L, n=name: getattr(L, n)(L.asarray(i), L.asarray(s))))
        cases.append(Case(f"{name}-broadcast", lambda L, n=name: getattr(L, n)(L.asarray(RNG_2D), L.asarray(RNG_2D[0]))))
    for name in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal"):
        cases.append(Case(f"{name}-nan", lambda L, n=name: getattr(L, n)(L.asarray(NAN_A), L.asarray(NAN_B))))
        cases.append(Case(f"{name}-int-float", lambda L, n=name: getattr(L, n)(L.asarray(i), 2.0)))
    for name in ("logical_and", "logical_or", "logical_xor"):
        cases.append(Case(f"{name}-numbers", lambda L, n=name: getattr(L, n)(L.asarray(host("float32", [0.0, 2.0, np.nan, 0.0])), L.asarray(host("int32", [0, 0, 1, 3])))))
        cases.append(Case(f"{name}-bool", lambda L, n=name: getattr(L, n)(L.asarray([True, True, False]), L.asarray([True, False, False]))))
    for name in ("bitwise_and", "bitwise_or", "bitwise_xor"):
        cases.append(Case(f"{name}-int32", lambda L, n=name: getattr(L, n)(L.asarray(i), L.asarray(s)), rtol=0))
        cases.append(Case(f"{name}-bool", lambda L, n=name: getattr(L, n)(L.asarray([True, False]), L.asarray([True, True])), rtol=0))
        cases.append(Case(f"{name}-uint8-py_int", lambda L, n=name: getattr(L, n)(L.asarray(host("uint8", [3, 250])), 6), rtol=0))
    for name in ("left_shift", "right_shift"):
        cases.append(Case(f"{name}-int32", lambda L, n=name: getattr(L, n)(L.asarray(i), L.asarray(s)), rtol=0))
        cases.append(Case(f"{name}-negative-amount", lambda L, n=name: getattr(L, n)(L.asarray(i), L.asarray(host("int32", [-1, -2, -3, -4, -5]))), rtol=0))
        cases.append(Case(f"{name}-uint8", lambda L, n=name: getattr(L, n)(L.asarray(host("uint8", [1, 128, 255])), L.asarray(host("uint8", [1, 1, 9]))), rtol=0))
        cases.append(Case(f"{name}-int8", lambda L, n=name: getattr(L, n)(L.asarray(host("int8", [1, -128, -1])), L.asarray(host("int8", [7, 1, 9]))), rtol=0))
        cases.append(Case(f"{name}-py_int", lambda L, n=name: getattr(L, n)(L.asarray(i), 2), rtol=0, debug_bug=BUG_DEBUG_SHIFT))
    return cases


# round with decimals, clip, where
def selection_cases() -> list[Case]:
    x = host("float32", [1.2345, -2.5551, 15.0, 25.0, -0.0051, 1234.5678])
    n = host("int32", [15, 25, -15, 1234])
    return [
        *[Case(f"round-decimals{d}", lambda L, d=d: L.round(L.asarray(x), d)) for d in (0, 1, 2, -1, -2)],
        Case("round-int-decimals-1", lambda L: L.round(L.asarray(n), -1), rtol=0, bug="BUG: jnp.round(int array, decimals<0) returns the input; JAX rounds to tens"),
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


# === reductions ===

X3 = (np.arange(24, dtype=np.float32).reshape(2, 3, 4) - 10.5) / 3
MASK = np.array([[True, False, True, False], [False, False, True, True], [True, True, True, True]])
REDUCTIONS = ("sum", "prod", "max", "min", "mean", "all", "any", "amax", "amin")
ARG_REDUCTIONS = ("argmax", "argmin")
AXES: list[dict[str, Any]] = [
    {}, {"axis": 0}, {"axis": -1}, {"axis": (0, 2)}, {"axis": (-1, 0)}, {"axis": 1, "keepdims": True},
    {"axis": None, "keepdims": True}, {"axis": ()}, {"axis": (2, 1, 0)},
]  # fmt: skip
BUG_ALL_ANY_WHERE = "BUG: jnp.all/jnp.any do not accept where= (JAX's do)"
BUG_ALL_ANY_SCALAR = "BUG: jnp.all/jnp.any of a Python scalar give weak_type=True; JAX's are strong"


def reduction_cases() -> list[Case]:
    cases: list[Case] = []
    for name in REDUCTIONS:
        for kwargs in AXES:
            key = ",".join(f"{k}={v}" for k, v in kwargs.items()).replace(" ", "")
            cases.append(Case(f"{name}-{key or 'all'}", lambda L, n=name, kw=kwargs: getattr(L, n)(L.asarray(X3), **kw)))
        bug = BUG_ALL_ANY_SCALAR if name in ("all", "any") else None
        cases.append(Case(f"{name}-py_float", lambda L, n=name: getattr(L, n)(2.5), bug=bug))
        cases.append(Case(f"{name}-py_int", lambda L, n=name: getattr(L, n)(3), bug=bug))
    for name in ARG_REDUCTIONS:
        for kwargs in ({}, {"axis": 0}, {"axis": -1}, {"axis": 1, "keepdims": True}, {"keepdims": True}):
            key = ",".join(f"{k}={v}" for k, v in kwargs.items())
            cases.append(Case(f"{name}-{key or 'all'}", lambda L, n=name, kw=kwargs: getattr(L, n)(L.asarray(X3), **kw), rtol=0))
        cases.append(Case(f"{name}-ties-nan", lambda L, n=name: getattr(L, n)(L.asarray(host("float32", [1.0, 3.0, 3.0, np.nan, 0.0]))), rtol=0))
        cases.append(Case(f"{name}-bool", lambda L, n=name: getattr(L, n)(L.asarray([False, True, True])), rtol=0))
    for dtype in ("bool", "int8", "uint8", "int16", "int32", "uint32", "float16", "bfloat16"):
        values = host(dtype, np.arange(6) % 3)
        for name in ("sum", "prod", "mean", "max", "min", "argmax", "all", "any"):
            cases.append(Case(f"{name}-dtype-{dtype}", lambda L, n=name, v=values: getattr(L, n)(L.asarray(v)), rtol=1e-2))
        cases.append(Case(f"sum-{dtype}-dtype=int8", lambda L, v=values: L.sum(L.asarray(v), dtype=L.int8), rtol=0))
        cases.append(Case(f"sum-{dtype}-dtype=float32", lambda L, v=values: L.sum(L.asarray(v), dtype="float32")))
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
        Case("sum-dtype-int32", lambda L: L.sum(L.asarray(y), axis=1, dtype=L.int32), rtol=0),
        Case("mean-dtype-float16", lambda L: L.mean(L.asarray(y), dtype=L.float16), rtol=1e-3),
        Case("mean-int", lambda L: L.mean(L.asarray(host("int32", [1, 2, 4]))),),
        Case("all-where", lambda L: L.all(L.asarray(y), where=L.asarray(MASK)), bug=BUG_ALL_ANY_WHERE),
        Case("any-where", lambda L: L.any(L.asarray(y), where=L.asarray(MASK), axis=1), bug=BUG_ALL_ANY_WHERE),
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
        cases.append(Case(f"{name}-empty-{key}", lambda L, n=name, kw=kwargs: getattr(L, n)(L.asarray(empty), **kw)))
    return cases


def test_mean_of_empty_is_nan() -> None:
    with np.errstate(invalid="ignore"):
        result = jnp.mean(jnp.zeros((0,)))
    assert np.isnan(float(result))


# === creation ===

BUG_ARRAY_OF_ARRAYS_WEAK = "BUG: jnp.array([weak 0-d arrays]) is weakly typed; JAX's result is strong"
BUG_ARRAY_NESTED_PYTHON = "BUG: Python ints in a list next to an int8 array promote to int32; JAX keeps int8 (they are weak)"


def creation_cases() -> list[Case]:
    codes: list[tuple[str, Callable[[Namespace], Any]] | tuple[str, Callable[[Namespace], Any], str]] = [
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
        ("array-of-arrays", lambda L: L.array([L.array(1.0), L.array(2.0)]), BUG_ARRAY_OF_ARRAYS_WEAK),
        ("array-of-array-and-int", lambda L: L.array([L.array(1.0), 2]), BUG_ARRAY_OF_ARRAYS_WEAK),
        ("array-of-vectors", lambda L: L.array([L.ones(2), L.zeros(2)])),
        ("array-int8-and-list", lambda L: L.array([L.ones(2, L.int8), [1, 2]]), BUG_ARRAY_NESTED_PYTHON),
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
        ("arange-array", lambda L: L.arange(L.array(4))),
        ("arange-int-dtype-float-step", lambda L: L.arange(1, 2.5, 0.5, dtype=L.int32), "BUG: jnp.arange(1, 2.5, 0.5, dtype=int32) is [1, 1, 2]; JAX (and NumPy) give [1, 1, 1]"),
        ("arange-uint8", lambda L: L.arange(10, dtype="uint8")),
        ("arange-zero-step", lambda L: L.arange(0, 3, 0)),
        ("linspace-basic", lambda L: L.linspace(0, 1, 5)),
        ("linspace-no-endpoint", lambda L: L.linspace(0, 1, 5, endpoint=False)),
        ("linspace-int-dtype", lambda L: L.linspace(0, 10, 4, dtype=L.int32)),
        ("linspace-int-dtype-negative", lambda L: L.linspace(0, -10, 4, dtype=L.int32)),
        ("linspace-num1", lambda L: L.linspace(2.0, 3.0, 1), "BUG: jnp.linspace(2.0, 3.0, 1) is [3.]; JAX (and NumPy) give [2.]"),
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
    cases: list[Case] = []
    for entry in codes:
        bug = entry[2] if len(entry) == 3 else None
        cases.append(Case(entry[0], entry[1], rtol=1e-6, bug=bug))
    return cases


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

SHAPES: list[tuple[int, ...]] = [(), (3,), (4,), (2, 3), (3, 4), (4, 3), (2, 3, 4), (5, 4, 2), (1, 3, 4), (5, 1, 4, 2)]
OPERANDS: dict[tuple[int, ...], np.ndarray[Any, Any]] = {s: RNG.standard_normal(s).astype(np.float32) for s in SHAPES}
BUG_OUTER = "BUG: jnp.outer broadcasts its operands instead of flattening them (outer(f32[3], f32[4]) raises)"
BUG_VDOT_CONJ = "BUG: jnp.vdot does not conjugate its first argument for complex inputs"


def product_cases() -> list[Case]:
    cases: list[Case] = []
    for name in ("dot", "matmul", "inner", "vdot", "outer", "tensordot"):
        for sa in SHAPES:
            for sb in SHAPES:
                a, b = OPERANDS[sa], OPERANDS[sb]
                bug = BUG_OUTER if name == "outer" and not (sa == sb and len(sa) <= 1) else None
                sid = "x".join(map(str, sa)) or "0d"
                tid = "x".join(map(str, sb)) or "0d"
                cases.append(
                    Case(f"{name}-{sid}-{tid}", lambda L, n=name, a=a, b=b: getattr(L, n)(L.asarray(a), L.asarray(b)), rtol=1e-4, atol=1e-5, bug=bug)
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
        Case("vdot-complex", lambda L: L.vdot(L.array([1 + 2j, 3j]), L.array([1j, 2.0])), bug=BUG_VDOT_CONJ),
        Case("inner-scalar", lambda L: L.inner(2.0, L.ones(3))),
        Case("outer-2d-1d", lambda L: L.outer(L.ones((2, 2)), L.arange(3)), bug=BUG_OUTER),
        Case("tensordot-axes2", lambda L: L.tensordot(L.ones((2, 3, 4)), L.ones((3, 4, 5)), axes=2)),
        Case("tensordot-pairs", lambda L: L.tensordot(L.asarray(OPERANDS[(2, 3, 4)]), L.asarray(OPERANDS[(3, 4)]), axes=([1], [0])), rtol=1e-4),
        Case("tensordot-lists", lambda L: L.tensordot(L.ones((2, 3, 4)), L.ones((4, 3, 5)), axes=([1, 2], [1, 0]))),
        Case("tensordot-axes1", lambda L: L.tensordot(L.ones((2, 3)), L.ones((3, 2)), axes=1)),
        Case("tensordot-axes0", lambda L: L.tensordot(L.ones((2, 3)), L.ones((4, 5)), axes=0)),
        Case("tensordot-int-pair", lambda L: L.tensordot(L.ones((2, 3)), L.ones((3, 2)), axes=(1, 0))),
        Case("matmul-mismatch", lambda L: L.matmul(L.ones((2, 3)), L.ones((4, 2)))),
        Case("matmul-0d", lambda L: L.matmul(L.ones(()), L.ones(3))),
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

TABLES: dict[str, list[Case]] = {
    "unary": unary_cases(),
    "division": division_cases(),
    "power": power_cases(),
    "binary": other_binary_cases(),
    "selection": selection_cases(),
    "reductions": reduction_cases(),
    "creation": creation_cases(),
    "shape": shape_cases(),
    "products": product_cases(),
    "methods": method_cases(),
}


@pytest.mark.parametrize("case", params(TABLES["unary"]))
def test_unary(case: Case) -> None:
    check_case("unary", case)


@pytest.mark.parametrize("case", params(TABLES["division"]))
def test_division(case: Case) -> None:
    with np.errstate(all="ignore"):
        check_case("division", case)


@pytest.mark.parametrize("case", params(TABLES["power"]))
def test_power(case: Case) -> None:
    with np.errstate(all="ignore"):
        check_case("power", case)


@pytest.mark.parametrize("case", params(TABLES["binary"]))
def test_binary(case: Case) -> None:
    check_case("binary", case)


@pytest.mark.parametrize("case", params(TABLES["selection"]))
def test_selection(case: Case) -> None:
    check_case("selection", case)


@pytest.mark.parametrize("case", params(TABLES["reductions"]))
def test_reductions(case: Case) -> None:
    with np.errstate(all="ignore"):
        check_case("reductions", case)


@pytest.mark.parametrize("case", params(TABLES["creation"]))
def test_creation(case: Case) -> None:
    check_case("creation", case)


@pytest.mark.parametrize("case", params(TABLES["shape"]))
def test_shape_ops(case: Case) -> None:
    check_case("shape", case)


@pytest.mark.parametrize("case", params(TABLES["products"]))
def test_products(case: Case) -> None:
    check_case("products", case)


@pytest.mark.parametrize("case", params(TABLES["methods"]))
def test_array_methods(case: Case) -> None:
    check_case("methods", case)
