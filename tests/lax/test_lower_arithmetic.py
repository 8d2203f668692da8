"""Lowering of the arithmetic and rounding primitives (``lax/arithmetic.py``):
``jt.jit(f)(x)`` must equal eager ``f(x)`` (same dtype and shape; bit-exact
where both sides round once, within a dtype-aware tolerance otherwise).

Inputs are seeded random values with the awkward ones mixed in (NaN, the
infinities, signed zeros, rounding ties, the integer extremes, zero and -1
divisors). Every primitive is run over each dtype it accepts on a 2-d
shape, then over 0-d, empty and scalar-mixed operands.
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
Binary = Callable[[jt.Array, jt.Array], jt.Array]
BF16 = np.dtype(jtnp.bfloat16)
NAN, INF = float("nan"), float("inf")

DTypes = list[np.dtype[Any]]
# name -> (function, accepted dtypes, whether results are bit-exact for a dtype)
Table = dict[str, tuple[Fn, DTypes, Callable[[np.dtype[Any]], bool]]]
BOOL: DTypes = [np.dtype(np.bool_)]
SIGNED: DTypes = [np.dtype(d) for d in ("int8", "int16", "int32", "int64")]
UNSIGNED: DTypes = [np.dtype(d) for d in ("uint8", "uint32", "uint64")]
FLOATS: DTypes = [np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)]
COMPLEX: DTypes = [np.dtype(np.complex64), np.dtype(np.complex128)]
INTS = SIGNED + UNSIGNED
NUMBER = INTS + FLOATS + COMPLEX
ALL = BOOL + NUMBER
SHAPE = (3, 7)


def _is_inexact(dtype: np.dtype[Any]) -> bool:
    return dtype.kind in "fc" or dtype == BF16


def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype[Any], *, small: bool = False) -> NDArray:
    """Random values of ``dtype`` with the special values of its kind placed
    first (as many as fit). ``small`` keeps magnitudes below ~4 (divisors,
    powers)."""
    with np.errstate(all="ignore"):
        return _values(rng, shape, dtype, small)


def _values(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype[Any], small: bool) -> NDArray:
    n = math.prod(shape)
    specials: list[Any]
    if dtype == np.bool_:
        out: NDArray = rng.integers(0, 2, n).astype(np.bool_)
        specials = [True, False]
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        if small:
            out = rng.integers(0 if dtype.kind == "u" else -4, 5, n).astype(dtype)
        else:
            out = rng.integers(int(info.min), int(info.max), n, endpoint=True, dtype=dtype)
        specials = [0, 1, int(info.max), int(info.min)] + ([-1, int(info.min) + 1] if dtype.kind == "i" else [])
    elif dtype.kind == "c":
        part = np.dtype(np.float64) if dtype == np.complex128 else np.dtype(np.float32)
        # No huge parts: XLA's products may overflow differently (FMA).
        re, im = _values(rng, shape, part, True), _values(rng, shape, part, True)
        out = (re + 1j * rng.permutation(im.reshape(-1)).reshape(shape)).astype(dtype).reshape(-1)
        specials = [0j, complex(-0.0, 0.0), complex(1.0, NAN), complex(NAN, 1.0), complex(INF, 1.0), 1j, -1.0, 3 - 4j]
    else:
        scale = 3.0 if small else 8.0
        out = (rng.standard_normal(n) * scale).astype(dtype)
        big = float(jtnp.finfo(dtype).max)
        specials = [NAN, INF, -INF, 0.0, -0.0, 0.5, -0.5, 1.5, -2.5, 2.5, 1.0, -1.0]
        if not small:
            specials += [big, -big, float(jtnp.finfo(dtype).smallest_normal)]
    k = min(n, len(specials))
    out[:k] = np.array(specials[:k], dtype=dtype)
    return out.reshape(shape)


def tolerance(dtype: np.dtype[Any]) -> float:
    """Relative tolerance for results computed with different rounding."""
    if dtype in (np.dtype(np.float16),):
        return 4e-3
    if dtype == BF16:
        return 3e-2
    if dtype in (np.dtype(np.float32), np.dtype(np.complex64)):
        return 4e-6
    return 1e-13


def flush_subnormals(x: NDArray) -> NDArray:
    """``x`` widened to 64 bits with its subnormal parts replaced by signed
    zeros: XLA on CPU flushes subnormal results to zero, NumPy does not
    (see ``test_subnormal_results_are_flushed``)."""
    tiny = float(jtnp.finfo(x.dtype).smallest_normal)

    def flush(part: NDArray) -> NDArray:
        part = part.astype(np.float64)
        out: NDArray = np.where(np.abs(part) < tiny, np.copysign(0.0, part), part)
        return out

    if x.dtype.kind == "c":
        out = np.empty(x.shape, np.complex128)
        out.real, out.imag = flush(np.real(x)), flush(np.imag(x))
        return out
    return flush(x)


def assert_agree(actual: object, expected: object, *, exact: bool) -> None:
    """Same dtype and shape; equal values (NaN matching NaN), bit-for-bit with
    signed zeros when ``exact``, else within the dtype's tolerance."""
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.dtype, a.shape) == (e.dtype, e.shape)
    if not _is_inexact(a.dtype):
        np.testing.assert_array_equal(a, e)
        return
    a64, e64 = flush_subnormals(a), flush_subnormals(e)
    if not exact:
        np.testing.assert_allclose(a64, e64, rtol=tolerance(a.dtype), atol=0, equal_nan=True)
        return
    np.testing.assert_array_equal(np.isnan(a64), np.isnan(e64), err_msg="NaN positions differ")
    parts = (np.real, np.imag) if a.dtype.kind == "c" else (np.real,)
    for part in parts:
        pa, pe = part(a64), part(e64)
        ok = ~np.isnan(a64)
        np.testing.assert_array_equal(pa[ok], pe[ok])
        np.testing.assert_array_equal(np.signbit(pa[ok]), np.signbit(pe[ok]), err_msg="signs of zero differ")


def check(f: Fn, args: Sequence[NDArray], *, exact: bool) -> None:
    """``jt.jit(f)`` and eager ``f`` agree on ``args``."""
    arrays = [jtnp.asarray(a) for a in args]
    # Eager narrow-float results are computed in float32 and cast back;
    # that cast warns where a result overflows to inf (as XLA's does too).
    with np.errstate(over="ignore"):
        expected = f(*arrays)
    assert_agree(jt.jit(f)(*arrays), expected, exact=exact)


def check1(f: Unary, x: NDArray, *, exact: bool) -> None:
    """:func:`check` for a unary function."""
    check(f, [x], exact=exact)


# === the primitives and the dtypes each accepts ===

def _round(method: lax.RoundingMethod) -> Unary:
    def f(x: jt.Array) -> jt.Array:
        return lax.round(x, method)

    return f


def _stop_gradient(x: jt.Array) -> jt.Array:
    return lax.stop_gradient(x)


UNARY: Table = {
    "neg": (lax.neg, NUMBER, lambda d: True),
    "sign": (lax.sign, NUMBER, lambda d: d.kind != "c"),
    "abs": (lax.abs, SIGNED + FLOATS + COMPLEX, lambda d: d.kind != "c"),
    "floor": (lax.floor, FLOATS, lambda d: True),
    "ceil": (lax.ceil, FLOATS, lambda d: True),
    "round_afz": (_round(lax.RoundingMethod.AWAY_FROM_ZERO), FLOATS, lambda d: True),
    "round_even": (_round(lax.RoundingMethod.TO_NEAREST_EVEN), FLOATS, lambda d: True),
    "is_finite": (lax.is_finite, FLOATS, lambda d: True),
    "stop_gradient": (_stop_gradient, ALL, lambda d: True),
}

BINARY: Table = {
    "add": (lax.add, NUMBER, lambda d: True),
    "sub": (lax.sub, NUMBER, lambda d: True),
    "mul": (lax.mul, NUMBER, lambda d: d.kind != "c"),
    "div": (lax.div, NUMBER, lambda d: d.kind != "c"),
    "rem": (lax.rem, INTS + FLOATS, lambda d: True),
    "max": (lax.max, ALL, lambda d: True),
    "min": (lax.min, ALL, lambda d: True),
}


def _cases(table: Table) -> list[Any]:
    return [pytest.param(name, dtype, id=f"{name}-{dtype.name}") for name, (_, dts, _) in table.items() for dtype in dts]


@pytest.mark.parametrize(("name", "dtype"), _cases(UNARY))
def test_unary(name: str, dtype: np.dtype[Any]) -> None:
    fn, _, exact = UNARY[name]
    rng = np.random.default_rng(0)
    check(fn, [values(rng, SHAPE, dtype)], exact=exact(dtype))


@pytest.mark.parametrize(("name", "dtype"), _cases(BINARY))
def test_binary(name: str, dtype: np.dtype[Any]) -> None:
    fn, _, exact = BINARY[name]
    rng = np.random.default_rng(1)
    x = values(rng, SHAPE, dtype)
    # Half the divisors are small (0, -1 and friends), half anything.
    y = np.where(rng.random(SHAPE) < 0.5, values(rng, SHAPE, dtype, small=True), values(rng, SHAPE, dtype))
    check(fn, [x, y], exact=exact(dtype))


def _pow_cases() -> list[Any]:
    ints: DTypes = [np.dtype(np.int8), np.dtype(np.int32), np.dtype(np.uint8), np.dtype(np.uint64)]
    cases = [(y, d) for d in FLOATS + COMPLEX for y in (-3, -2, -1, 0, 1, 2, 3, 7)]
    cases += [(y, d) for d in ints for y in (0, 1, 2, 3, 7)]
    return [pytest.param(y, d, id=f"{d.name}-{y}") for y, d in cases]


@pytest.mark.parametrize(("y", "dtype"), _pow_cases())
def test_integer_pow(y: int, dtype: np.dtype[Any]) -> None:
    # Repeated multiplication rounds at each step, NumPy's power once.
    rng = np.random.default_rng(2)
    x = values(rng, SHAPE, dtype, small=_is_inexact(dtype))
    check1(lambda a: lax.integer_pow(a, y), x, exact=not _is_inexact(dtype) or y in (0, 1, -1, 2))


# === shapes: 0-d, empty, scalar operands mixed with arrays ===

SHAPE_DTYPES: DTypes = [np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.uint8)]


def _shape_cases(table: Table) -> list[Any]:
    out: list[Any] = []
    for name, (_, dts, _) in table.items():
        dtype = next(d for d in SHAPE_DTYPES if d in dts)
        out.append(pytest.param(name, dtype, id=f"{name}-{dtype.name}"))
    return out


@pytest.mark.parametrize("shape", [(), (0,), (2, 0, 3)])
@pytest.mark.parametrize(("name", "dtype"), _shape_cases(UNARY))
def test_unary_shapes(name: str, dtype: np.dtype[Any], shape: tuple[int, ...]) -> None:
    fn, _, exact = UNARY[name]
    check(fn, [values(np.random.default_rng(3), shape, dtype)], exact=exact(dtype))


@pytest.mark.parametrize(
    ("x_shape", "y_shape"), [((), ()), ((0, 2), (0, 2)), ((4, 3), ()), ((), (4, 3)), ((0,), ())]
)
@pytest.mark.parametrize(("name", "dtype"), _shape_cases(BINARY))
def test_binary_shapes(name: str, dtype: np.dtype[Any], x_shape: tuple[int, ...], y_shape: tuple[int, ...]) -> None:
    fn, _, exact = BINARY[name]
    rng = np.random.default_rng(4)
    check(fn, [values(rng, x_shape, dtype), values(rng, y_shape, dtype, small=True)], exact=exact(dtype))


@pytest.mark.parametrize("name", list(BINARY))
def test_binary_with_python_scalar(name: str) -> None:
    # A Python scalar becomes a literal: a 0-d constant broadcast in the module.
    fn, _, exact = BINARY[name]
    x = values(np.random.default_rng(5), (2, 5), np.dtype(np.float32))
    check1(lambda a: fn(a, 2.5), x, exact=exact(x.dtype))
    check1(lambda a: fn(-0.0, a), x, exact=exact(x.dtype))


def test_integer_pow_scalar_and_empty() -> None:
    check1(lambda a: lax.integer_pow(a, 5), np.array(1.5, np.float32), exact=False)
    check1(lambda a: lax.integer_pow(a, -2), np.zeros((0, 3), np.float64), exact=True)
    check1(lambda a: lax.integer_pow(a, 0), np.array([NAN, INF, 0.0], np.float32), exact=True)


# === integer division and rounding edge cases, also against real JAX ===


def _division_edges(dtype: np.dtype[Any]) -> tuple[NDArray, NDArray]:
    info = np.iinfo(dtype)
    if dtype.kind == "u":
        return np.array([0, 1, 7, info.max, 5, 200], dtype), np.array([0, 0, 3, 1, info.max, 7], dtype)
    x = [0, 1, -1, 7, -7, info.min, info.min, info.max, 7, -7, 5, -5]
    y = [0, 0, 0, -2, 2, -1, 0, -1, -2, -3, info.min, 3]
    return np.array(x, dtype), np.array(y, dtype)


@pytest.mark.parametrize("dtype", [np.dtype(d) for d in ("int8", "int64", "uint8", "uint32")], ids=str)
@pytest.mark.parametrize("name", ["div", "rem"])
def test_integer_division_edges_match_jax(name: str, dtype: np.dtype[Any]) -> None:
    jax: Any = pytest.importorskip("jax")
    fn = BINARY[name][0]
    x, y = _division_edges(dtype)
    check(fn, [x, y], exact=True)
    ours = np.asarray(jt.jit(fn)(jtnp.asarray(x), jtnp.asarray(y)))
    theirs = np.asarray(jax.jit(getattr(jax.lax, name))(x, y))
    np.testing.assert_array_equal(ours, theirs)


def test_rounding_and_minmax_match_jax() -> None:
    jax: Any = pytest.importorskip("jax")
    x = np.array([0.5, -0.5, 1.5, 2.5, -2.5, -0.0, 0.0, NAN, 1.0, -3.0], np.float32)
    y = np.array([-0.0, 0.0, NAN, 2.5, -2.5, 0.0, -0.0, 1.0, NAN, -3.0], np.float32)
    pairs: list[tuple[Binary, Callable[[Any, Any], Any]]] = [
        (lambda a, b: lax.round(a), lambda a, b: jax.lax.round(a)),
        (lambda a, b: lax.round(a, 1), lambda a, b: jax.lax.round(a, 1)),
        (lambda a, b: lax.sign(a), lambda a, b: jax.lax.sign(a)),
        (lax.max, jax.lax.max),
        (lax.min, jax.lax.min),
    ]
    for ours_fn, jax_fn in pairs:
        ours = jt.jit(ours_fn)(jtnp.asarray(x), jtnp.asarray(y))
        assert_agree(ours, jax.jit(jax_fn)(x, y), exact=True)


def test_complex_minmax_ties_and_nan_match_jax() -> None:
    # The lexicographic order lets y win ties and NaN comparisons, as in JAX.
    jax: Any = pytest.importorskip("jax")
    x = np.array([complex(1, NAN), complex(NAN, 1), 1 + 1j, complex(-0.0, 0.0), 2 + 1j], np.complex64)
    y = np.array([1 + 2j, 2 + 0j, complex(NAN, 0), complex(0.0, -0.0), 2 - 1j], np.complex64)
    for name in ("max", "min"):
        ours_fn = BINARY[name][0]
        eager = ours_fn(jtnp.asarray(x), jtnp.asarray(y))
        compiled = jt.jit(ours_fn)(jtnp.asarray(x), jtnp.asarray(y))
        theirs = getattr(jax.lax, name)(x, y)
        assert_agree(eager, theirs, exact=True)
        assert_agree(compiled, theirs, exact=True)


def _complex_grid(dtype: np.dtype[Any]) -> NDArray:
    parts = [0.0, -0.0, 1.0, -2.0, INF, -INF, NAN]
    return np.array([complex(a, b) for a in parts for b in parts], dtype)


@pytest.mark.parametrize("dtype", COMPLEX, ids=str)
def test_complex_special_values_match_jax(dtype: np.dtype[Any]) -> None:
    # Infinite, NaN and zero parts: NumPy's complex abs, sign and division
    # differ from XLA's there, and the eager rules follow XLA as users'
    # programs compile (its default emitters: the classic ones this run
    # compiles with give some products' zero parts the other sign); the
    # jitted programs agree with JAX's compiled as this run compiles.
    jax: Any = pytest.importorskip("jax")
    from oracle import jax_with_default_emitters  # needs JAX, as this test does
    grid = _complex_grid(dtype)
    x, y = np.repeat(grid, grid.size), np.tile(grid, grid.size)
    unary: list[tuple[Unary, Callable[[Any], Any]]] = [
        (lax.abs, jax.lax.abs),
        (lax.sign, jax.lax.sign),
        (lambda a: lax.integer_pow(a, -3), lambda a: jax.lax.integer_pow(a, -3)),
        (lambda a: lax.integer_pow(a, 6), lambda a: jax.lax.integer_pow(a, 6)),
    ]
    cases: list[tuple[Fn, Callable[..., Any], list[NDArray]]] = [(f, g, [grid]) for f, g in unary] + [
        (lax.mul, jax.lax.mul, [x, y]),
        (lax.div, jax.lax.div, [x, y]),
    ]
    for ours, theirs, args in cases:
        arrays = [jtnp.asarray(a) for a in args]
        assert_agree(ours(*arrays), jax_with_default_emitters(theirs, *args), exact=True)
        assert_agree(jt.jit(ours)(*arrays), np.asarray(jax.jit(theirs)(*args)), exact=True)


@pytest.mark.xfail(strict=True, reason="XLA on CPU flushes subnormal results to zero (as in JAX); the NumPy eager path keeps them")
def test_subnormal_results_are_flushed() -> None:
    x, y = np.array([1e-300, -1e-30]), np.array([1e-10, 1e-290])
    arrays = [jtnp.asarray(x), jtnp.asarray(y)]
    np.testing.assert_array_equal(np.asarray(jt.jit(lax.mul)(*arrays)), np.asarray(lax.mul(*arrays)))


# === the ops chosen ===


LOWERED_OPS: list[tuple[Unary, type[Any], str]] = [
        (lax.neg, np.float32, "stablehlo.negate"),
        (lax.abs, np.complex64, "stablehlo.abs"),
        (lax.sign, np.int32, "stablehlo.sign"),
        (lax.sign, np.uint8, "stablehlo.select"),
        (lax.round, np.float32, "stablehlo.round_nearest_afz"),
        (lambda x: lax.round(x, 1), np.float32, "stablehlo.round_nearest_even"),
        (lax.is_finite, np.float32, "stablehlo.is_finite"),
        (lambda x: lax.sub(x, x), np.float32, "stablehlo.subtract"),
        (lambda x: lax.div(x, x), np.int32, "stablehlo.divide"),
        (lambda x: lax.rem(x, x), np.int32, "stablehlo.remainder"),
        (lambda x: lax.max(x, x), np.float32, "stablehlo.maximum"),
        (lambda x: lax.min(x, x), np.complex64, "stablehlo.imag"),
        (lambda x: lax.integer_pow(x, 3), np.float32, "stablehlo.multiply"),
]


@pytest.mark.parametrize(("fn", "dtype", "op"), LOWERED_OPS)
def test_lowered_op(fn: Unary, dtype: type[Any], op: str) -> None:
    text = jt.jit(fn).lower(jtnp.zeros((2,), dtype)).as_text()
    assert op in text


def test_stop_gradient_and_integer_pow_emit_no_extra_ops() -> None:
    x = jtnp.zeros((2,), np.float32)
    assert "stablehlo." not in jt.jit(lax.stop_gradient).lower(x).as_text()
    pow8: Unary = lambda a: lax.integer_pow(a, 8)  # noqa: E731
    text = jt.jit(pow8).lower(x).as_text()
    assert text.count("stablehlo.multiply") == 3  # x^2, x^4, x^8
