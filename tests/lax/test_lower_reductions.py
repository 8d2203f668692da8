"""Lowering of the reduction primitives (``lax/reductions.py``):
``jt.jit(f)(x)`` must equal eager ``f(x)`` (same dtype and shape; exact for
integers, booleans, maxima, minima and indices; within a dtype-aware
tolerance for inexact sums and products, whose order XLA may change).

Covers every axes combination of a 3-d operand (the empty tuple included),
0-d operands, zero-size reductions (which give the identity: -inf/+inf,
the integer extremes, False/True, 0, 1), NaN propagation, and argmax/argmin
ties (the first index wins) and NaNs (a NaN counts as the extremum).
"""

from collections.abc import Callable
from itertools import combinations
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped import lax
from jaxtyped.typing import Array, ArrayLike

pytestmark = pytest.mark.usefixtures("x64")

NDArray = np.ndarray[Any, np.dtype[Any]]
Fn = Callable[..., Any]
BF16: np.dtype[Any] = np.dtype(jtnp.bfloat16)
NAN, INF = float("nan"), float("inf")
SHAPE = (3, 4, 5)

REDUCE: dict[str, Fn] = {
    "reduce_sum": lax.reduce_sum,
    "reduce_prod": lax.reduce_prod,
    "reduce_max": lax.reduce_max,
    "reduce_min": lax.reduce_min,
}
ARG: dict[str, Fn] = {"argmax": lax.argmax, "argmin": lax.argmin}
INTS: list[np.dtype[Any]] = [np.dtype(d) for d in ("int8", "uint8", "int32", "uint32", "int64")]
FLOATS: list[np.dtype[Any]] = [np.dtype(np.float16), BF16, np.dtype(np.float32), np.dtype(np.float64)]
COMPLEX: list[np.dtype[Any]] = [np.dtype(np.complex64), np.dtype(np.complex128)]
ORDERED: list[np.dtype[Any]] = [np.dtype(np.bool_), *INTS, *FLOATS]
ALL_AXES = [axes for k in range(4) for axes in combinations(range(3), k)]


def _id(value: object) -> str:
    return value.name if isinstance(value, np.dtype) else str(value)


def accepts(name: str, dtype: np.dtype[Any]) -> bool:
    if name in ("reduce_sum", "reduce_prod"):
        return dtype != np.bool_
    return dtype.kind != "c"


def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype[Any], *, specials: bool = True) -> NDArray:
    """Random values of ``dtype``: small magnitudes (so products stay
    meaningful) with ties, and for floats NaN, infinities and signed zeros."""
    n = int(np.prod(shape))
    if dtype == np.bool_:
        return rng.integers(0, 2, n).astype(np.bool_).reshape(shape)
    if dtype.kind in "iu":
        low = 0 if dtype.kind == "u" else -3
        return rng.integers(low, 4, n).astype(dtype).reshape(shape)
    if dtype.kind == "c":
        out: NDArray = (rng.uniform(0.5, 1.5, n) * rng.choice([-1, 1], n) + 1j * rng.uniform(-1, 1, n)).astype(dtype)
        return out.reshape(shape)
    out = (rng.uniform(0.5, 1.5, n) * rng.choice([-1, 1], n)).astype(dtype)
    if specials and n >= 60:
        # Spread out, so that some rows and columns stay finite.
        out[[0, 7, 13, 21, 22, 40, 41, 59]] = np.array([NAN, INF, -INF, -0.0, 0.0, NAN, -INF, INF], dtype)
    return out.reshape(shape)


def tolerance(dtype: np.dtype[Any]) -> float:
    """Relative tolerance for sums and products in another order."""
    if dtype == np.float16:
        return 2e-3
    if dtype == BF16:
        return 2e-2
    if dtype in (np.dtype(np.float32), np.dtype(np.complex64)):
        return 2e-6
    return 1e-13


def assert_agree(actual: object, expected: object, *, exact: bool) -> None:
    """Same dtype and shape; equal values (NaN matching NaN), exactly when
    ``exact`` or for exact dtypes, else within the dtype's tolerance."""
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.dtype, a.shape) == (e.dtype, e.shape)
    if a.dtype.kind not in "fc" and a.dtype != BF16:
        np.testing.assert_array_equal(a, e)
        return
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    if exact:  # widened: NumPy's NaN-aware equality misses bfloat16
        np.testing.assert_array_equal(a.astype(wide), e.astype(wide))
        return
    rtol = tolerance(a.dtype)
    np.testing.assert_allclose(a.astype(wide), e.astype(wide), rtol=rtol, atol=rtol, equal_nan=True)


def reducer(name: str, axes: tuple[int, ...]) -> Callable[[ArrayLike], Array]:
    """``x -> lax.<name>(x, axes)``."""
    fn = REDUCE[name]

    def reduce(x: ArrayLike) -> Array:
        result: Array = fn(x, axes)
        return result

    return reduce


def arg_reducer(name: str, axis: int, index_dtype: type[np.generic] | np.dtype[Any] = np.int32) -> Callable[[ArrayLike], Array]:
    """``x -> lax.<name>(x, axis, index_dtype)``."""
    fn = ARG[name]

    def reduce(x: ArrayLike) -> Array:
        result: Array = fn(x, axis, index_dtype)
        return result

    return reduce


def jax_jit(name: str, x: NDArray, *params: object) -> NDArray:
    """Real JAX's jitted ``jax.lax.<name>(x, *params)``."""
    jax = pytest.importorskip("jax")
    fn = getattr(jax.lax, name)

    def apply(v: Any) -> Any:
        return fn(v, *params)

    return np.asarray(jax.jit(apply)(x))


def lowered(fn: Callable[[ArrayLike], Array], x: NDArray) -> str:
    text: str = jt.jit(fn).lower(x).as_text()
    return text


def check(fn: Fn, x: NDArray, *, exact: bool) -> None:
    with np.errstate(all="ignore"):
        expected = fn(x)
    assert_agree(jt.jit(fn)(x), expected, exact=exact)


def _reduce_cases() -> list[tuple[str, np.dtype[Any], tuple[int, ...]]]:
    cases: list[tuple[str, np.dtype[Any], tuple[int, ...]]] = []
    for name in REDUCE:
        for dtype in ORDERED + COMPLEX:
            if not accepts(name, dtype):
                continue
            # Every axes combination on two dtypes, a few on the others.
            several = dtype in (np.dtype(np.float32), np.dtype(np.int32))
            for axes in ALL_AXES if several else [(1,), (0, 2)]:
                cases.append((name, dtype, axes))
    return cases


# === reduce_sum / reduce_prod / reduce_max / reduce_min ===


@pytest.mark.parametrize(("name", "dtype", "axes"), _reduce_cases(), ids=_id)
def test_reduce(name: str, dtype: np.dtype[Any], axes: tuple[int, ...]) -> None:
    x = values(np.random.default_rng(len(axes)), SHAPE, dtype)
    exact = name in ("reduce_max", "reduce_min")
    check(reducer(name, axes), x, exact=exact)


ZERO_SIZE_DTYPES: list[np.dtype[Any]] = [np.dtype(d) for d in ("float32", "int8", "uint32", "bool")] + [BF16]


@pytest.mark.parametrize(
    ("name", "dtype"), [(n, d) for n in REDUCE for d in ZERO_SIZE_DTYPES if accepts(n, d)], ids=_id
)
def test_zero_size_reductions_give_the_identity(name: str, dtype: np.dtype[Any]) -> None:
    """Reducing over a zero-size axis gives the identity (the initial value
    of the lowered reduce); other zero-size shapes stay empty."""
    fn = REDUCE[name]

    def reductions(v: object) -> tuple[Any, ...]:
        return fn(v, (1,)), fn(v, (0, 1, 2)), fn(v, (0,))

    x = np.zeros((2, 0, 3), dtype)
    expected = reductions(x)
    for a, e in zip(jt.jit(reductions)(x), expected, strict=True):
        assert_agree(a, e, exact=True)
    assert np.asarray(expected[0]).shape == (2, 3)
    assert np.asarray(expected[2]).shape == (0, 3)


@pytest.mark.parametrize("name", list(REDUCE))
def test_reduce_0d(name: str) -> None:
    check(reducer(name, ()), np.asarray(-2.5, np.float32), exact=True)


def test_nan_propagates_through_max_and_min() -> None:
    x = np.array([[1.0, NAN, 3.0], [-INF, 2.0, INF], [NAN, NAN, NAN]], np.float32)
    for name in REDUCE:
        check(reducer(name, (1,)), x, exact=True)


def test_integer_overflow_wraps() -> None:
    x = np.array([[100, 100, 100], [-128, -1, 2], [127, 127, 127]], np.int8)
    check(reducer("reduce_sum", (1,)), x, exact=True)
    check(reducer("reduce_prod", (1,)), x, exact=True)


# === argmax / argmin ===


def _arg_cases() -> list[tuple[str, np.dtype[Any], int]]:
    cases: list[tuple[str, np.dtype[Any], int]] = []
    for name in ARG:
        for dtype in ORDERED:
            for axis in range(3) if dtype == np.float32 else [1]:
                cases.append((name, dtype, axis))
    return cases


@pytest.mark.parametrize(("name", "dtype", "axis"), _arg_cases(), ids=_id)
def test_arg_reduce(name: str, dtype: np.dtype[Any], axis: int) -> None:
    # Small integers give many ties; the floats carry NaNs and infinities.
    x = values(np.random.default_rng(axis), SHAPE, dtype)
    check(arg_reducer(name, axis), x, exact=True)


@pytest.mark.parametrize("name", list(ARG))
@pytest.mark.parametrize("index_dtype", [np.dtype(np.int8), np.dtype(np.uint8), np.dtype(np.int64), np.dtype(np.uint32)], ids=_id)
def test_arg_reduce_index_dtype(name: str, index_dtype: np.dtype[Any]) -> None:
    x = values(np.random.default_rng(7), (6, 9), np.dtype(np.float32))
    check(arg_reducer(name, 1, index_dtype), x, exact=True)


@pytest.mark.parametrize("name", list(ARG))
def test_arg_reduce_ties_nans_and_extremes(name: str) -> None:
    """First index on ties; the first NaN wins over numbers; rows made of
    the identity value itself (-inf for argmax) give 0."""
    x = np.array(
        [
            [1.0, 3.0, 3.0, -1.0, -1.0],
            [1.0, NAN, 3.0, NAN, -5.0],
            [-INF, -INF, -INF, -INF, -INF],
            [INF, INF, INF, INF, INF],
            [0.0, -0.0, 0.0, -0.0, 0.0],
            [NAN, NAN, NAN, NAN, NAN],
            [2.0, 2.0, 2.0, 2.0, NAN],
        ],
        np.float32,
    )
    check(arg_reducer(name, 1), x, exact=True)
    ints = np.array([[-128, -128, 5, 5], [127, 127, -128, 127], [0, 0, 0, 0]], np.int8)
    check(arg_reducer(name, 1), ints, exact=True)
    bools = np.array([[False, True, True], [True, False, False], [False, False, False], [True, True, True]])
    check(arg_reducer(name, 1), bools, exact=True)


def test_arg_reduce_long_row_with_many_nans() -> None:
    """XLA may combine a long row in any order: the index must still be
    the first NaN / the first maximum."""
    rng = np.random.default_rng(8)
    x = rng.integers(0, 3, (4, 4096)).astype(np.float32)
    x[1, rng.integers(100, 4096, 50)] = NAN
    x[1, 57] = NAN
    for name in ARG:
        check(arg_reducer(name, 1), x, exact=True)


# === lowered text and JAX ===


def test_lowered_ops() -> None:
    x = np.ones((2, 3), np.float32)
    summed = lowered(reducer("reduce_sum", (1,)), x)
    assert "stablehlo.reduce" in summed and "stablehlo.add" in summed
    assert "stablehlo.maximum" in lowered(reducer("reduce_max", (0,)), x)
    assert "stablehlo.or" in lowered(reducer("reduce_max", (0,)), x > 0)
    arg = lowered(arg_reducer("argmax", 1), x)
    assert "stablehlo.iota" in arg and "stablehlo.reduce" in arg
    # Narrow floats are summed in float32.
    assert "tensor<2x3xf32>" in lowered(reducer("reduce_sum", (1,)), x.astype(np.float16))
    # No reduce at all for the empty axes tuple.
    assert "stablehlo.reduce" not in lowered(reducer("reduce_sum", ()), x)


def test_matches_jax() -> None:
    x = np.array([[1.0, NAN, 3.0, NAN], [2.0, 5.0, 5.0, -INF], [-INF, -INF, -INF, -INF]], np.float32)
    for name in ARG:
        expected = jax_jit(name, x, 1, np.int32)
        np.testing.assert_array_equal(np.asarray(jt.jit(arg_reducer(name, 1))(x)), expected)
    empty = np.zeros((3, 0), np.float32)
    for name in REDUCE:
        np.testing.assert_array_equal(np.asarray(jt.jit(reducer(name, (1,)))(empty)), jax_jit(name, empty, (1,)))
    ints = np.zeros((0, 2), np.int16)
    np.testing.assert_array_equal(np.asarray(jt.jit(reducer("reduce_max", (0,)))(ints)), jax_jit("reduce_max", ints, (0,)))
