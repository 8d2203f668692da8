"""Lowering of the transcendental primitives (``lax/transcendental.py``):
``jt.jit(f)(x)`` must equal eager ``f(x)`` (same dtype and shape, values
within a dtype-aware tolerance, NaN where NaN).

Real operands mix seeded random values with the special ones (NaN, the
infinities, signed zeros, +-1, huge and tiny values); complex operands are
finite (XLA's and NumPy's complex functions disagree at infinities and
NaNs, see ``test_complex_non_finite_known_divergence``). Each primitive is
run over every dtype it accepts on a 2-d shape, then over 0-d, empty and
scalar-mixed operands; a few cases are checked against JAX itself.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped import lax

pytestmark = pytest.mark.usefixtures("x64")

NDArray = np.ndarray[Any, np.dtype[Any]]
Fn = Callable[..., Any]
BF16: np.dtype[Any] = np.dtype(jtnp.bfloat16)
NAN, INF = float("nan"), float("inf")
FLOATS: list[np.dtype[Any]] = [np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)]
COMPLEX: list[np.dtype[Any]] = [np.dtype(np.complex64), np.dtype(np.complex128)]
INEXACT = FLOATS + COMPLEX
SHAPE = (4, 6)

UNARY: dict[str, Fn] = {
    "sqrt": lax.sqrt, "rsqrt": lax.rsqrt, "exp": lax.exp, "log": lax.log, "log1p": lax.log1p,
    "expm1": lax.expm1, "sin": lax.sin, "cos": lax.cos, "tan": lax.tan, "tanh": lax.tanh,
    "logistic": lax.logistic, "erf": lax.erf, "asin": lax.asin, "acos": lax.acos, "atan": lax.atan,
    "sinh": lax.sinh, "cosh": lax.cosh, "asinh": lax.asinh, "acosh": lax.acosh, "atanh": lax.atanh,
}  # fmt: skip
REAL_ONLY = {"erf"}


def _dtype_id(dtype: np.dtype[Any]) -> str:
    return dtype.name


def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype[Any]) -> NDArray:
    """Random values of ``dtype`` (finite for complex), the special values
    of its kind first."""
    n = int(np.prod(shape))
    if dtype.kind == "c":
        out: NDArray = (rng.standard_normal(n) * 2 + 1j * rng.standard_normal(n) * 2).astype(dtype)
        specials: list[Any] = [0j, 1 + 0j, -1 + 0j, 1j, 0.5 - 0.5j, complex(1e-4, 1e-4), complex(3, 1e-30), complex(0, 30)]
    else:
        out = (rng.standard_normal(n) * 2).astype(dtype)
        specials = [NAN, INF, -INF, 0.0, -0.0, 1.0, -1.0, 0.5, 1e-6, 100.0, -100.0]
    k = min(n, len(specials))
    out[:k] = np.array(specials[:k], dtype=dtype)
    return out.reshape(shape)


def tolerance(dtype: np.dtype[Any]) -> tuple[float, float]:
    """(rtol, atol) for results of the same function computed by different
    libraries (XLA's kernels vs NumPy's; about 1-4 ulps)."""
    if dtype == np.float16:
        return 4e-3, 1e-3
    if dtype == BF16:
        return 3e-2, 1e-2
    if dtype in (np.dtype(np.float32), np.dtype(np.complex64)):
        return 2e-6, 1e-6
    return 1e-13, 1e-13


def assert_agree(actual: object, expected: object) -> None:
    """Same dtype and shape; equal values, NaN matching NaN, infinities
    matching infinities, the rest within the dtype's tolerance."""
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.dtype, a.shape) == (e.dtype, e.shape)
    if a.dtype.kind not in "fc" and a.dtype != BF16:
        np.testing.assert_array_equal(a, e)
        return
    rtol, atol = tolerance(a.dtype)
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    np.testing.assert_allclose(a.astype(wide), e.astype(wide), rtol=rtol, atol=atol, equal_nan=True)


def check(fn: Fn, *args: object) -> None:
    with np.errstate(all="ignore"):
        expected = fn(*args)
        actual = jt.jit(fn)(*args)
    assert_agree(actual, expected)


def lowered_text(fn: Fn, *args: object) -> str:
    text: str = jt.jit(fn).lower(*args).as_text()
    return text


def _accepted(dtype: np.dtype[Any]) -> list[str]:
    return [name for name in UNARY if not (name in REAL_ONLY and dtype.kind == "c")]


def check_all_unary(x: NDArray) -> None:
    """Every unary primitive accepting ``x`` in one compiled function (one
    XLA compile instead of twenty), each compared with its eager result."""
    names = _accepted(x.dtype)

    def all_unary(x: object) -> list[Any]:
        return [UNARY[name](x) for name in names]

    with np.errstate(all="ignore"):
        expected = all_unary(x)
        actual = jt.jit(all_unary)(x)
    for name, a, e in zip(names, actual, expected, strict=True):
        try:
            assert_agree(a, e)
        except AssertionError as err:
            raise AssertionError(f"{name} on {x.dtype.name}{list(x.shape)}") from err


# === every primitive over every dtype ===


@pytest.mark.parametrize(
    ("name", "dtype"),
    [(name, dtype) for dtype in (np.dtype(np.float32), np.dtype(np.complex64)) for name in _accepted(dtype)],
    ids=str,
)
def test_unary(name: str, dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(sum(map(ord, name)))
    check(UNARY[name], values(rng, SHAPE, dtype))


@pytest.mark.parametrize(
    "dtype", [np.dtype(np.float16), BF16, np.dtype(np.float64), np.dtype(np.complex128)], ids=_dtype_id
)
def test_unary_other_dtypes(dtype: np.dtype[Any]) -> None:
    check_all_unary(values(np.random.default_rng(5), SHAPE, dtype))


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3)], ids=str)
def test_unary_0d_and_empty(shape: tuple[int, ...]) -> None:
    check_all_unary(values(np.random.default_rng(1), shape, np.dtype(np.float32)))


@pytest.mark.parametrize("dtype", FLOATS, ids=_dtype_id)
def test_atan2(dtype: np.dtype[Any]) -> None:
    rng = np.random.default_rng(2)
    x, y = values(rng, SHAPE, dtype), values(rng, SHAPE, dtype)
    check(lax.atan2, x, y[::-1])
    check(lax.atan2, x, np.asarray(-0.0, dtype))  # scalar-mixed operands
    check(lax.atan2, np.asarray(1.5, dtype), y)


def _pow_cases() -> list[tuple[np.dtype[Any], np.dtype[Any]]]:
    same = [(d, d) for d in INEXACT]
    integer: list[tuple[np.dtype[Any], np.dtype[Any]]] = [
        (np.dtype(np.float32), np.dtype(np.int32)),
        (np.dtype(np.float16), np.dtype(np.int8)),
        (BF16, np.dtype(np.uint8)),
        (np.dtype(np.float64), np.dtype(np.int64)),
        (np.dtype(np.complex64), np.dtype(np.int32)),
        (np.dtype(np.complex128), np.dtype(np.uint32)),
    ]
    return same + integer


@pytest.mark.parametrize(("base", "exponent"), _pow_cases(), ids=_dtype_id)
def test_pow(base: np.dtype[Any], exponent: np.dtype[Any]) -> None:
    rng = np.random.default_rng(3)
    x = values(rng, SHAPE, base)
    if exponent.kind in "iu":
        low = 0 if exponent.kind == "u" else -4
        y: NDArray = rng.integers(low, 6, SHAPE).astype(exponent)
    else:
        y = values(rng, SHAPE, exponent)
        # A few exact small exponents (negative bases give numbers, not NaN).
        y.reshape(-1)[-6:] = np.array([0, 1, 2, -1, 3, 0.5], dtype=exponent)
    check(lax.pow, x, y)


@pytest.mark.parametrize(
    ("base", "exponent"),
    [(np.dtype(np.float32), np.dtype(np.float32)), (np.dtype(np.float32), np.dtype(np.int32)), (np.dtype(np.complex64), np.dtype(np.int8))],
    ids=_dtype_id,
)
def test_pow_scalar_mixed_and_empty(base: np.dtype[Any], exponent: np.dtype[Any]) -> None:
    rng = np.random.default_rng(4)
    x = values(rng, SHAPE, base)
    y_array = np.arange(-3, 3, dtype=exponent).reshape(1, 6).repeat(4, 0)
    check(lax.pow, x, np.asarray(2, exponent))
    check(lax.pow, np.asarray(1.5, base), y_array)
    check(lax.pow, np.asarray(-2, base), np.asarray(3, exponent))
    check(lax.pow, np.zeros((0, 2), base), np.zeros((0, 2), exponent))


# === lowered text ===


def test_lowered_ops() -> None:
    f32 = np.ones(3, np.float32)
    assert "stablehlo.sine" in lowered_text(lax.sin, f32)
    assert "chlo.erf" in lowered_text(lax.erf, f32)
    assert "chlo.acosh" in lowered_text(lax.acosh, f32)
    assert "stablehlo.tan" in lowered_text(lax.tan, f32)
    assert "stablehlo.log_plus_one" in lowered_text(lax.log1p, f32)
    powered = lowered_text(lax.pow, f32, np.ones(3, np.int32))
    assert "stablehlo.convert" in powered and "stablehlo.power" in powered
    # Complex cos goes through real functions (see test_complex_sin_cos_match_jax).
    complex_cos = lowered_text(lax.cos, np.ones(3, np.complex64))
    assert "stablehlo.exponential_minus_one" in complex_cos and "stablehlo.complex" in complex_cos


# === against JAX ===


def test_complex_sin_cos_match_jax() -> None:
    """XLA's own complex sine/cosine drop tiny imaginary parts and give NaN
    for large ones; JAX (and so our lowering) avoids both."""
    jax = pytest.importorskip("jax")
    x = np.array([complex(1, 1e-30), complex(-3, 1e-20), 800j, complex(-0.0, -800), complex(2, -3), 1e-30 + 0j])
    for ours, theirs in ((lax.sin, jax.lax.sin), (lax.cos, jax.lax.cos)):
        got = np.asarray(jt.jit(ours)(x))
        np.testing.assert_allclose(got, np.asarray(jax.jit(theirs)(x)), rtol=1e-14, atol=0)
        np.testing.assert_allclose(got, np.asarray(ours(x)), rtol=1e-14, atol=0)


@pytest.mark.parametrize(
    ("name", "points"),
    [
        # XLA's complex sqrt/asin/acos/asinh/acosh ignore the sign of a zero
        # part on their branch cuts (NumPy does not).
        ("sqrt", [complex(-4, -0.0), complex(-4, 0.0), complex(-0.0, -0.0)]),
        ("asin", [complex(2, -0.0), complex(-3, -0.0)]),
        ("acos", [complex(2, -0.0), complex(-3, -0.0)]),
        ("asinh", [complex(-0.0, 2), complex(-0.0, -3)]),
        ("acosh", [complex(0.5, -0.0), complex(-2, -0.0), complex(-0.0, -0.0)]),
        # These respect it.
        ("log", [complex(-1, -0.0), complex(-1, 0.0)]),
        ("atanh", [complex(2, -0.0), complex(2, 0.0)]),
        # Overflow on the real axis keeps a zero imaginary part.
        ("expm1", [complex(800, 0), complex(-800, 0), complex(1, 0)]),
        ("logistic", [complex(-800, 1), complex(-800, -100), complex(800, 1)]),
        ("rsqrt", [0j, complex(-1, -0.0), complex(-1, 0.0)]),
        ("log1p", [complex(1e-4, 1e-4), complex(-5e-9, 1e-4), complex(-1, 1e-30), complex(1e-30, 0)]),
    ],
)
def test_complex_edges_match_jax(name: str, points: list[complex]) -> None:
    """Eager rules fixed to follow XLA; compiled and eager agree with JAX."""
    jax = pytest.importorskip("jax")
    x = np.array(points, np.complex128)
    expected = np.asarray(jax.jit(getattr(jax.lax, name))(x))
    for got in (UNARY[name](x), jt.jit(UNARY[name])(x)):
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12, atol=1e-300, equal_nan=True)
    with np.errstate(all="ignore"):
        # Same NaN-ness per part (assert_allclose compares complex NaNs as a whole).
        got_parts = np.asarray(UNARY[name](x)).view(np.float64)
    np.testing.assert_array_equal(np.isnan(got_parts), np.isnan(expected.view(np.float64)))


def test_pow_matches_jax() -> None:
    """Complex ``0 ** y`` is NaN when y is not real and Re(y) > 0 (NumPy says
    0); an integer exponent is converted to the base's dtype."""
    jax = pytest.importorskip("jax")
    x = np.array([0j, 0j, 0j, -0j, 2 + 1j, -1 + 0j, 0j], np.complex128)
    y = np.array([1 + 1j, 2 + 0j, -1 + 1j, 0.5 - 2j, 0.5 + 0.5j, 3 + 0j, 0j], np.complex128)
    expected = np.asarray(jax.jit(jax.lax.pow)(x, y))
    for got in (lax.pow(x, y), jt.jit(lax.pow)(x, y)):
        np.testing.assert_allclose(np.asarray(got), expected, rtol=1e-12, equal_nan=True)
    base, exponent = np.array([2.0, -3.0, 0.0, 0.5], np.float32), np.array([3, -2, -1, 7], np.int32)
    np.testing.assert_allclose(
        np.asarray(jt.jit(lax.pow)(base, exponent)), np.asarray(jax.jit(jax.lax.pow)(base, exponent)), rtol=1e-6
    )


# === known divergence ===


@pytest.mark.xfail(
    strict=True,
    reason="complex functions at infinite or NaN parts: XLA's formulas give NaN where NumPy's C99 "
    "special cases give infinities or zeros (e.g. exp(inf+infj), tanh(infj), atan(nanj)); JAX agrees with XLA",
)
@pytest.mark.parametrize(
    ("name", "point"), [("exp", complex(INF, INF)), ("tanh", complex(0, INF)), ("atan", complex(0, NAN))]
)
def test_complex_non_finite_known_divergence(name: str, point: complex) -> None:
    x = np.array([point], np.complex128)
    with np.errstate(all="ignore"):
        eager = np.asarray(UNARY[name](x)).view(np.float64)
    compiled = np.asarray(jt.jit(UNARY[name])(x)).view(np.float64)
    np.testing.assert_array_equal(compiled, eager)
