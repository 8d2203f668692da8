"""Lowering of the comparison, logical/bitwise and shift primitives
(``lax/comparison.py``): ``jt.jit(f)(x)`` must equal eager ``f(x)`` exactly
(their results are booleans or bit patterns).

Comparisons get operands that are often equal and contain NaN, signed
zeros and infinities; unsigned and boolean operands need the UNSIGNED
comparison type. Shifts get amounts of 0, the bit width and beyond, and
negative ones (XLA reads them as unsigned: everything is shifted out).
"""

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped import lax

pytestmark = pytest.mark.usefixtures("x64")

NDArray = np.ndarray[Any, np.dtype[Any]]
Fn = Callable[..., jt.Array]
Unary = Callable[[jt.Array], jt.Array]
DTypes = list[np.dtype[Any]]
BF16 = np.dtype(jtnp.bfloat16)
NAN, INF = float("nan"), float("inf")

BOOL: DTypes = [np.dtype(np.bool_)]
INTS: DTypes = [np.dtype(d) for d in ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")]
FLOATS: DTypes = [np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)]
COMPLEX: DTypes = [np.dtype(np.complex64), np.dtype(np.complex128)]
SHAPE = (4, 6)


def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype[Any]) -> NDArray:
    """Random values of ``dtype``, the special ones of its kind first."""
    n = math.prod(shape)
    specials: list[Any]
    if dtype == np.bool_:
        out: NDArray = rng.integers(0, 2, n).astype(np.bool_)
        specials = [True, False]
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        out = rng.integers(int(info.min), int(info.max), n, endpoint=True, dtype=dtype)
        specials = [0, 1, int(info.max), int(info.min)] + ([-1] if dtype.kind == "i" else [])
    elif dtype.kind == "c":
        out = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
        specials = [0j, complex(-0.0, 0.0), complex(NAN, 0.0), complex(0.0, NAN), complex(INF, 1.0), 1j, -1.0]
    else:
        out = (rng.standard_normal(n) * 4).astype(dtype)
        specials = [NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0]
    k = min(n, len(specials))
    out[:k] = np.array(specials[:k], dtype=dtype)
    return out.reshape(shape)


def pair(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype[Any]) -> tuple[NDArray, NDArray]:
    """Two operands equal at about a third of the positions (where
    ``-0.0 == 0.0`` and NaN comparisons matter), with the specials of
    ``x`` facing a shuffled copy in ``y``."""
    x = values(rng, shape, dtype)
    y = np.where(rng.random(shape) < 0.35, x, rng.permutation(values(rng, shape, dtype).reshape(-1)).reshape(shape))
    return x, y.astype(dtype)


def check(f: Fn, args: Sequence[NDArray]) -> None:
    """``jt.jit(f)`` and eager ``f`` agree exactly on ``args``."""
    arrays = [jtnp.asarray(a) for a in args]
    actual, expected = np.asarray(jt.jit(f)(*arrays)), np.asarray(f(*arrays))
    assert (actual.dtype, actual.shape) == (expected.dtype, expected.shape)
    np.testing.assert_array_equal(actual, expected)


def check1(f: Unary, x: NDArray) -> None:
    """:func:`check` for a unary function."""
    check(f, [x])


COMPARISONS: dict[str, tuple[Fn, DTypes]] = {
    "eq": (lax.eq, BOOL + INTS + FLOATS + COMPLEX),
    "ne": (lax.ne, BOOL + INTS + FLOATS + COMPLEX),
    "lt": (lax.lt, BOOL + INTS + FLOATS),
    "le": (lax.le, BOOL + INTS + FLOATS),
    "gt": (lax.gt, BOOL + INTS + FLOATS),
    "ge": (lax.ge, BOOL + INTS + FLOATS),
}
BITWISE: dict[str, tuple[Fn, DTypes]] = {
    "and": (lax.bitwise_and, BOOL + INTS),
    "or": (lax.bitwise_or, BOOL + INTS),
    "xor": (lax.bitwise_xor, BOOL + INTS),
}
SHIFTS: dict[str, Fn] = {
    "shift_left": lax.shift_left,
    "shift_right_arithmetic": lax.shift_right_arithmetic,
    "shift_right_logical": lax.shift_right_logical,
}


def _cases(table: dict[str, tuple[Fn, DTypes]]) -> list[Any]:
    return [pytest.param(name, d, id=f"{name}-{d.name}") for name, (_, dts) in table.items() for d in dts]


@pytest.mark.parametrize(("name", "dtype"), _cases(COMPARISONS))
def test_comparison(name: str, dtype: np.dtype[Any]) -> None:
    check(COMPARISONS[name][0], pair(np.random.default_rng(0), SHAPE, dtype))


@pytest.mark.parametrize(("name", "dtype"), _cases(BITWISE))
def test_bitwise(name: str, dtype: np.dtype[Any]) -> None:
    check(BITWISE[name][0], pair(np.random.default_rng(1), SHAPE, dtype))


@pytest.mark.parametrize("dtype", BOOL + INTS, ids=str)
def test_not(dtype: np.dtype[Any]) -> None:
    check(lax.bitwise_not, [values(np.random.default_rng(2), SHAPE, dtype)])


def shift_amounts(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype[Any]) -> NDArray:
    """Shift amounts: in range, the bit width and beyond, negative."""
    bits = dtype.itemsize * 8
    info = np.iinfo(dtype)
    out = rng.integers(0, bits + 3, math.prod(shape)).astype(dtype)
    edges = [0, 1, bits - 1, bits, bits + 1, 2 * bits, int(info.max)]
    edges += [-1, -bits, int(info.min)] if dtype.kind == "i" else []
    k = min(out.size, len(edges))
    out[:k] = np.array(edges[:k], dtype)
    return out.reshape(shape)


@pytest.mark.parametrize("dtype", INTS, ids=str)
@pytest.mark.parametrize("name", list(SHIFTS))
def test_shift(name: str, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(3)
    check(SHIFTS[name], [values(rng, SHAPE, dtype), shift_amounts(rng, SHAPE, dtype)])


# === shapes: 0-d, empty, scalar operands mixed with arrays ===

BINARY: dict[str, tuple[Fn, np.dtype[Any]]] = {
    **{name: (fn, np.dtype(np.float32)) for name, (fn, _) in COMPARISONS.items()},
    **{name: (fn, np.dtype(np.int32)) for name, (fn, _) in BITWISE.items()},
    **{name: (fn, np.dtype(np.int8)) for name, fn in SHIFTS.items()},
}


@pytest.mark.parametrize(
    ("x_shape", "y_shape"), [((), ()), ((0, 3), (0, 3)), ((3, 2), ()), ((), (3, 2)), ((0,), ())]
)
@pytest.mark.parametrize("name", list(BINARY))
def test_binary_shapes(name: str, x_shape: tuple[int, ...], y_shape: tuple[int, ...]) -> None:
    fn, dtype = BINARY[name]
    rng = np.random.default_rng(4)
    y = shift_amounts(rng, y_shape, dtype) if name in SHIFTS else values(rng, y_shape, dtype)
    check(fn, [values(rng, x_shape, dtype), y])


@pytest.mark.parametrize("shape", [(), (0,), (2, 0)])
def test_not_shapes(shape: tuple[int, ...]) -> None:
    check(lax.bitwise_not, [values(np.random.default_rng(5), shape, np.dtype(np.uint16))])


@pytest.mark.parametrize("name", list(BINARY))
def test_python_scalar_operand(name: str) -> None:
    fn, dtype = BINARY[name]
    x = values(np.random.default_rng(6), (2, 5), dtype)
    three, one = (3.0, 1.0) if dtype.kind == "f" else (3, 1)
    check1(lambda a: fn(a, three), x)
    check1(lambda a: fn(one, a), x)


# === against real JAX ===


@pytest.mark.parametrize("dtype", [np.dtype(d) for d in ("int8", "uint8", "int32", "uint64")], ids=str)
def test_shifts_match_jax(dtype: np.dtype[Any]) -> None:
    jax: Any = pytest.importorskip("jax")
    rng = np.random.default_rng(7)
    x, y = values(rng, SHAPE, dtype), shift_amounts(rng, SHAPE, dtype)
    for name, fn in SHIFTS.items():
        ours = np.asarray(jt.jit(fn)(jtnp.asarray(x), jtnp.asarray(y)))
        np.testing.assert_array_equal(ours, np.asarray(jax.jit(getattr(jax.lax, name))(x, y)))


def test_comparisons_with_nan_signed_zero_and_complex_match_jax() -> None:
    jax: Any = pytest.importorskip("jax")
    cases = [
        (np.array([NAN, 0.0, -0.0, INF, 1.0], np.float32), np.array([NAN, -0.0, 0.0, INF, NAN], np.float32)),
        (np.array([complex(NAN, 0), 1j, complex(-0.0, 0.0), 1 + 1j], np.complex64), np.array([complex(NAN, 0), 1j, 0j, 1 - 1j], np.complex64)),
        (np.array([True, False, True]), np.array([False, False, True])),
        (np.array([0, 255, 128], np.uint8), np.array([1, 0, 127], np.uint8)),
    ]
    for x, y in cases:
        names = ("eq", "ne") if x.dtype.kind == "c" else tuple(COMPARISONS)
        for name in names:
            ours = np.asarray(jt.jit(COMPARISONS[name][0])(jtnp.asarray(x), jtnp.asarray(y)))
            np.testing.assert_array_equal(ours, np.asarray(jax.jit(getattr(jax.lax, name))(x, y)), err_msg=f"{name} {x.dtype}")


# === the ops chosen ===


@pytest.mark.parametrize(
    ("fn", "dtype", "needles"),
    [
        (lax.lt, np.uint8, ("stablehlo.compare", "LT", "UNSIGNED")),
        (lax.ge, np.bool_, ("stablehlo.compare", "GE", "UNSIGNED")),
        (lax.gt, np.int32, ("stablehlo.compare", "GT", "SIGNED")),
        (lax.eq, np.complex64, ("stablehlo.compare", "EQ", "FLOAT")),
        (lax.ne, np.float16, ("stablehlo.compare", "NE", "FLOAT")),
        (lax.bitwise_and, np.bool_, ("stablehlo.and",)),
        (lax.bitwise_or, np.int8, ("stablehlo.or",)),
        (lax.bitwise_xor, np.uint32, ("stablehlo.xor",)),
        (lax.shift_left, np.int32, ("stablehlo.shift_left",)),
        (lax.shift_right_arithmetic, np.uint8, ("stablehlo.shift_right_arithmetic",)),
        (lax.shift_right_logical, np.int8, ("stablehlo.shift_right_logical",)),
    ],
)
def test_lowered_op(fn: Fn, dtype: type[Any], needles: tuple[str, ...]) -> None:
    x = jtnp.zeros((2,), dtype)
    text = jt.jit(fn).lower(x, x).as_text()
    for needle in needles:
        assert needle in text


def test_not_lowers_to_not() -> None:
    assert "stablehlo.not" in jt.jit(lax.bitwise_not).lower(jtnp.zeros((2,), np.bool_)).as_text()
