"""Lowering of ``convert_element_type`` (``lax/elementwise_base.py``):
``jt.jit(f)(x)`` must equal eager ``f(x)`` bit for bit for every pair of
dtypes, on values chosen to hit each special rule: float to int truncates,
saturates out of range and maps NaN to 0; anything to bool tests ``!= 0``
(NaN is true); complex to real keeps the real part; narrowing floats
rounds to nearest even (float64 to float16 once or through float32, as
XLA does on the machine at hand: it differs between CPUs).
"""

import functools
import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped import lax
from jaxtyped._src.lax.elementwise_base import convert_to as convert_to_weak

pytestmark = pytest.mark.usefixtures("x64")

NDArray = np.ndarray[Any, np.dtype[Any]]
BF16 = np.dtype(jtnp.bfloat16)
NAN, INF = float("nan"), float("inf")

DTYPES: list[np.dtype[Any]] = [
    np.dtype(d)
    for d in ("bool", "int8", "int16", "int32", "int64", "uint8", "uint32", "uint64", "float16")
] + [BF16] + [np.dtype(d) for d in ("float32", "float64", "complex64", "complex128")]

FLOAT_SPECIALS = [
    NAN, INF, -INF, 0.0, -0.0, 0.5, -0.5, 0.9999, -1.0, 2.5, -2.7, 127.5, 128.0, -128.0, -129.0,
    255.9, 256.0, 65504.0, 65520.0, 1e5, 2.0**31, -(2.0**31), 2.0**32, 2.0**53 + 2.0, 2.0**63,
    -(2.0**63), 2.0**64, 1e30, -1e30, 1e300, 1 + 2.0**-11 + 2.0**-40, 3.0e-5, 1e-8,
]  # fmt: skip
INT_SPECIALS = [0, 1, -1, 127, -128, 128, 255, 256, 2**15, 2**16 - 1, 2**24 + 1, 2**31 - 1, -(2**31), 2**32 - 1, 2**53 + 1, 2**63 - 1, -(2**63), 2**64 - 1]


def values(rng: np.random.Generator, dtype: np.dtype[Any], n: int = 48) -> NDArray:
    """The special values that ``dtype`` can hold, then random ones."""
    with np.errstate(over="ignore", invalid="ignore"):
        if dtype == np.bool_:
            return np.array([True, False] * (n // 2))
        if dtype.kind in "iu":
            info = np.iinfo(dtype)
            fits = [v for v in INT_SPECIALS if info.min <= v <= info.max]
            rest = rng.integers(int(info.min), int(info.max), n - len(fits), endpoint=True, dtype=dtype)
            return np.concatenate([np.array(fits, dtype), rest])
        wide = dtype in (np.dtype(np.complex128), np.dtype(np.float64))
        part = np.dtype(np.float64) if wide else np.dtype(np.float32)
        specials = np.array(FLOAT_SPECIALS, np.float64).astype(part)
        rest = (rng.standard_normal(n) * np.exp(rng.uniform(-5, 25, n))).astype(part)
        re = np.concatenate([specials, rest])
        if dtype.kind != "c":
            return re.astype(dtype)
        out = np.empty(re.shape, dtype)
        out.real, out.imag = re, rng.permutation(re)
        return out


def assert_identical(actual: object, expected: object) -> None:
    """Same dtype and shape, and the same values bit for bit (signed zeros
    included), NaN matching NaN."""
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.dtype, a.shape) == (e.dtype, e.shape)
    if not (a.dtype.kind in "fc" or a.dtype == BF16):
        np.testing.assert_array_equal(a, e)
        return
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    for part in (np.real, np.imag) if a.dtype.kind == "c" else (np.real,):
        pa, pe = part(a.astype(wide)), part(e.astype(wide))
        np.testing.assert_array_equal(np.isnan(pa), np.isnan(pe), err_msg="NaN positions differ")
        ok = ~np.isnan(pa)
        np.testing.assert_array_equal(pa[ok], pe[ok])
        np.testing.assert_array_equal(np.signbit(pa[ok]), np.signbit(pe[ok]), err_msg="signs of zero differ")


def convert_to(dtype: np.dtype[Any]) -> Callable[[jt.Array], jt.Array]:
    def f(x: jt.Array) -> jt.Array:
        return lax.convert_element_type(x, dtype)

    return f


@pytest.mark.parametrize("dst", DTYPES, ids=str)
@pytest.mark.parametrize("src", DTYPES, ids=str)
def test_convert(src: np.dtype[Any], dst: np.dtype[Any]) -> None:
    x = jtnp.asarray(values(np.random.default_rng(0), src))
    f = convert_to(dst)
    assert_identical(jt.jit(f)(x), f(x))


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3)])
@pytest.mark.parametrize(("src", "dst"), [("float32", "int32"), ("complex64", "bool"), ("int8", "float16")])
def test_convert_shapes(src: str, dst: str, shape: tuple[int, ...]) -> None:
    x = jtnp.asarray(values(np.random.default_rng(1), np.dtype(src))[: math.prod(shape)].reshape(shape))
    f = convert_to(np.dtype(dst))
    assert_identical(jt.jit(f)(x), f(x))


def test_weak_type_change_only() -> None:
    # Only the weak type changes: the dtype is the same, so no op is emitted.
    x = jtnp.asarray(np.array([1.5, -2.0], np.float32))

    def f(a: jt.Array) -> jt.Array:
        return convert_to_weak(a, a.dtype, weak_type=True)

    assert "convert_element_type" in str(jt.make_jaxpr(f)(x))
    assert "stablehlo.convert" not in jt.jit(f).lower(x).as_text()
    assert_identical(jt.jit(f)(x), f(x))


@pytest.mark.parametrize(
    ("src", "dst"),
    [
        ("float32", "int8"), ("float32", "uint32"), ("float64", "int64"), ("float64", "uint64"),
        ("float16", "int32"), ("bfloat16", "uint8"), ("complex64", "int32"), ("complex128", "bool"),
        ("complex64", "float16"), ("float64", "float16"), ("float64", "bfloat16"), ("float32", "bool"),
        ("bool", "float32"), ("int64", "bfloat16"), ("uint64", "float32"),
    ],
)  # fmt: skip
def test_match_jax(src: str, dst: str) -> None:
    jax: Any = pytest.importorskip("jax")
    x = values(np.random.default_rng(2), np.dtype(jtnp.bfloat16) if src == "bfloat16" else np.dtype(src))
    ours = jt.jit(convert_to(np.dtype(jtnp.bfloat16) if dst == "bfloat16" else np.dtype(dst)))(jtnp.asarray(x))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)  # JAX warns that it drops imaginary parts
        theirs = jax.jit(functools.partial(jax.lax.convert_element_type, new_dtype=dst))(x)
    assert_identical(ours, theirs)


@pytest.mark.parametrize(
    ("src", "dst", "needles", "absent"),
    [
        ("complex64", "float32", ("stablehlo.real",), ("stablehlo.convert",)),
        ("complex64", "int32", ("stablehlo.real", "stablehlo.convert"), ()),
        ("complex128", "bool", ("stablehlo.real", "stablehlo.compare"), ("stablehlo.convert",)),
        ("float32", "bool", ("stablehlo.compare", "NE"), ("stablehlo.convert",)),
        ("float32", "int32", ("stablehlo.convert",), ("stablehlo.compare",)),
        ("bool", "float32", ("stablehlo.convert",), ()),
        ("float32", "complex64", ("stablehlo.convert",), ("stablehlo.real",)),
    ],
)
def test_lowered_ops(src: str, dst: str, needles: tuple[str, ...], absent: tuple[str, ...]) -> None:
    text = jt.jit(convert_to(np.dtype(dst))).lower(jtnp.zeros((2,), np.dtype(src))).as_text()
    for needle in needles:
        assert needle in text
    for op in absent:
        assert op not in text
