"""Edge cases and error messages of ``jaxtyped.lax``, with real JAX as the
oracle (compared exactly: NaN positions, signed zeros, integer bits).

The numerical table (random operands, every transformation) is in
``test_lax_table.py``; this file holds the values where semantics are a
choice: integer division by zero, out-of-range shifts, float-to-int
saturation, rounding ties, NaN in max/min/argmax, empty reductions, index
clamping, negative and interior padding, ``select_n`` with integer ``which``,
derivatives at kinks and ties; hypothesis properties over random shapes
(zero-size included) and dtypes (eager vs NumPy, vmap vs a loop); and the
errors raised for bad input, whose builtin class must be JAX's.
"""

import warnings
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped import errors, lax

jax: Any = pytest.importorskip("jax")

NDArray = np.ndarray[Any, Any]
LaxFn = Callable[..., Any]  # fn(lax_module, *operands); built with f0..f3 so lambdas get typed parameters
BF16 = np.dtype(jtnp.bfloat16)
NAN, INF = float("nan"), float("inf")


def _is_float(a: NDArray) -> bool:
    return a.dtype.kind in "fc" or a.dtype == BF16


def assert_bitwise_equal(actual: object, expected: object) -> None:
    """Same shape and dtype and bit-for-bit the same values, except that
    any NaN matches any NaN."""
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.shape, a.dtype) == (e.shape, e.dtype)
    if not _is_float(a):
        np.testing.assert_array_equal(a, e)
        return
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    a64, e64 = a.astype(wide), e.astype(wide)
    nan_a, nan_e = np.isnan(a64), np.isnan(e64)
    np.testing.assert_array_equal(nan_a, nan_e, err_msg="NaN positions differ")
    np.testing.assert_array_equal(a64[~nan_a], e64[~nan_e])
    if a.dtype.kind != "c":
        np.testing.assert_array_equal(np.signbit(a64), np.signbit(e64), err_msg="signs of zero differ")


def both(fn: Callable[[Any], Any]) -> tuple[Any, Any]:
    """``fn`` applied to ``jaxtyped.lax`` and to ``jax.lax``."""
    return fn(lax), fn(jax.lax)


def check(fn: Callable[[Any], Any]) -> None:
    ours, theirs = both(fn)
    assert_bitwise_equal(ours, theirs)


def signed_edges(dtype: np.dtype[Any]) -> tuple[NDArray, NDArray]:
    """Dividends and divisors pairing every awkward case."""
    info = np.iinfo(dtype)
    if dtype.kind == "u":
        x = [0, 1, 7, info.max, info.max, 5, 0, 200]
        y = [0, 0, 0, 0, 1, info.max, 3, 7]
    else:
        x = [0, 1, -1, 7, -7, info.min, info.min, info.max, info.min, 7, -7, 5]
        y = [0, 0, 0, 0, 0, -1, 0, -1, 1, -2, 2, info.min]
    return np.array(x, dtype), np.array(y, dtype)


# === integer division, shifts ===


@pytest.mark.parametrize("op", ["div", "rem"])
@pytest.mark.parametrize("dtype", ["int8", "int32", "uint8", "uint32"])
def test_integer_division_by_zero_and_overflow(op: str, dtype: str) -> None:
    x, y = signed_edges(np.dtype(dtype))
    check(lambda m: getattr(m, op)(x, y))


@pytest.mark.parametrize("op", ["div", "rem"])
def test_float_division_by_zero(op: str) -> None:
    x = np.array([1.0, -1.0, 0.0, -0.0, INF, NAN, 5.5, -5.5, INF], np.float32)
    y = np.array([0.0, 0.0, 0.0, -0.0, 0.0, 1.0, INF, -2.0, INF], np.float32)
    check(lambda m: getattr(m, op)(x, y))


SHIFTS = ["shift_left", "shift_right_arithmetic", "shift_right_logical"]




def _shift_params() -> list[Any]:
    return [
        pytest.param(op, dtype, id=f"{op}-{dtype}")
        for op in SHIFTS
        for dtype in ("int8", "int32", "uint8")
    ]


@pytest.mark.parametrize(("op", "dtype"), _shift_params())
def test_shift_by_bit_width_or_more_and_negative_amounts(op: str, dtype: str) -> None:
    dt = np.dtype(dtype)
    bits = dt.itemsize * 8
    info = np.iinfo(dt)
    amounts = [0, 1, bits - 1, bits, bits + 1, 2 * bits, info.max]
    if dt.kind == "i":
        amounts += [-1, -bits, info.min]
    values = [info.min, info.max, 1, 0, 5] if dt.kind == "u" else [info.min, info.max, -1, 1, -5]
    x = np.array([v for v in values for _ in amounts], dt)
    y = np.array(amounts * len(values), dt)
    check(lambda m: getattr(m, op)(x, y))


# === conversions ===

FLOAT_SPECIALS = [NAN, INF, -INF, 1e10, -1e10, 2.7, -2.7, 0.5, -0.5, -0.0, 255.9, 256.0, -1.0, 2.0**31, -(2.0**31), 65504.0]


@pytest.mark.parametrize(
    ("src", "dst"),
    [("float32", "int8"), ("float32", "int32"), ("float32", "uint8"), ("float32", "uint32"),
     ("float16", "int32"), ("bfloat16", "uint8"), ("float16", "int8")],
)  # fmt: skip
def test_float_to_int_saturates_and_nan_is_zero(src: str, dst: str) -> None:
    with np.errstate(over="ignore"):
        x = np.array(FLOAT_SPECIALS, np.float64).astype(src)
    check(lambda m: m.convert_element_type(x, np.dtype(dst)))


@pytest.mark.usefixtures("x64")
def test_float64_to_int64_saturates() -> None:
    x = np.array([*FLOAT_SPECIALS, 2.0**63, -(2.0**63), 9.2e18, -9.3e18], np.float64)
    check(lambda m: m.convert_element_type(x, np.int64))


# Subnormal inputs are left out: XLA on CPU flushes them to zero (so JAX's
# floor(-1e-45) is -0.0 and bool(1e-45) is False) where NumPy does not.


@pytest.mark.parametrize("src", ["float32", "int32", "uint8", "bfloat16"])
def test_to_bool_is_nonzero(src: str) -> None:
    values: list[Any] = [0, 3, 1, 255] if src == "uint8" else [0, 3, -1, 1]
    if src in ("float32", "bfloat16"):
        values += [-0.0, NAN, INF, 1e-30, 0.5]
    x = np.array(values).astype(src)
    check(lambda m: m.convert_element_type(x, np.bool_))




@pytest.mark.parametrize(
    "dst", ["float32", "float16", "int32", "bool"]
)
def test_complex_to_real_keeps_the_real_part(dst: str) -> None:
    x = np.array([1.5 + 2j, -2.5 - 1j, 0 + 1j, NAN + 0j, 3e5 + 1j], np.complex64)
    ours = lax.convert_element_type(x, np.dtype(dst))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        theirs = jax.lax.convert_element_type(x, np.dtype(dst))
    assert_bitwise_equal(ours, theirs)


@pytest.mark.parametrize("dst", ["float16", "bfloat16", "float32"])
def test_float_narrowing_rounds_and_overflows_like_jax(dst: str) -> None:
    x = np.array([1e5, -1e5, 65520.0, 3.4e38, 1e-8, 1.0 + 2.0**-11, 1.0 + 3 * 2.0**-11, NAN, -0.0], np.float32)
    check(lambda m: m.convert_element_type(x, np.dtype(dst)))


# === rounding ===

TIES = [-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 3.5, 0.49999997, -0.49999997, -0.0, 0.0, NAN, INF, -INF, 1e30, 8388609.0]


@pytest.mark.parametrize("method", [0, 1], ids=["away_from_zero", "to_nearest_even"])
@pytest.mark.parametrize("dtype", ["float32", "float16", "bfloat16"])
def test_round_ties(method: int, dtype: str) -> None:
    with np.errstate(over="ignore"):
        x = np.array(TIES, np.float64).astype(dtype)
    check(lambda m: m.round(x, m.RoundingMethod(method)))




@pytest.mark.parametrize(
    "op", ["floor", "ceil", "sign", "is_finite", "neg", "abs"]
)
def test_unary_specials(op: str) -> None:
    x = np.array([-0.0, 0.0, NAN, INF, -INF, -0.5, 0.5, -1e-30, 3.7], np.float32)
    check(lambda m: getattr(m, op)(x))


@pytest.mark.parametrize("op", ["neg", "abs", "sign"])
def test_int_min_wraps(op: str) -> None:
    x = np.array([np.iinfo(np.int32).min, -1, 0, 1, np.iinfo(np.int32).max], np.int32)
    check(lambda m: getattr(m, op)(x))


# === max / min / argmax ===


@pytest.mark.parametrize("op", ["max", "min"])
def test_max_min_propagate_nan(op: str) -> None:
    x = np.array([NAN, 1.0, NAN, INF, -INF, 2.0], np.float32)
    y = np.array([1.0, NAN, NAN, NAN, 3.0, 2.0], np.float32)
    check(lambda m: getattr(m, op)(x, y))


@pytest.mark.parametrize("op", ["max", "min"])
def test_max_min_order_signed_zeros(op: str) -> None:
    x = np.array([-0.0, 0.0], np.float32)
    y = np.array([0.0, -0.0], np.float32)
    check(lambda m: getattr(m, op)(x, y))


def test_max_of_complex() -> None:
    x = np.array([1 + 2j, 1 + 1j, 2 - 1j], np.complex64)
    check(lambda m: m.max(x, x[::-1].copy()))


ARG_ROWS = np.array(
    [[1.0, NAN, 3.0, NAN], [2.0, 2.0, 1.0, 2.0], [-INF, -INF, -INF, -INF],
     [NAN, NAN, 0.0, 1.0], [0.0, -0.0, 0.0, 1.0], [INF, 1.0, INF, -INF]],
    np.float32,
)  # fmt: skip


@pytest.mark.parametrize("op", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [0, 1])
def test_argmax_argmin_nan_and_ties(op: str, axis: int) -> None:
    check(lambda m: getattr(m, op)(ARG_ROWS, axis, np.int32))


@pytest.mark.parametrize("dtype", ["int32", "bool"])
def test_argmax_argmin_integer_ties(dtype: str) -> None:
    x = np.array([[1, 0, 1, 1], [0, 0, 0, 0], [0, 1, 1, 0]]).astype(dtype)
    for op in ("argmax", "argmin"):
        check(lambda m: getattr(m, op)(x, 1, np.int32))


# === reductions of empty arrays ===


@pytest.mark.parametrize("op", ["reduce_max", "reduce_min"])
@pytest.mark.parametrize("dtype", ["float32", "int32", "uint8", "bool", "float16"])
def test_empty_max_min_give_the_identity(op: str, dtype: str) -> None:
    x = np.zeros((2, 0), dtype)
    check(lambda m: getattr(m, op)(x, (1,)))


@pytest.mark.parametrize("op", ["reduce_sum", "reduce_prod"])
def test_empty_sum_prod(op: str) -> None:
    x = np.zeros((0, 3), np.float32)
    check(lambda m: getattr(m, op)(x, (0,)))


def test_reduce_max_min_propagate_nan() -> None:
    x = np.array([[1.0, NAN, 3.0], [INF, -INF, 0.0]], np.float32)
    for op in ("reduce_max", "reduce_min"):
        check(lambda m: getattr(m, op)(x, (1,)))


# === index clamping ===

X45 = np.arange(20, dtype=np.float32).reshape(4, 5)
UPDATE = -np.arange(1, 7, dtype=np.float32).reshape(2, 3)
# Starts in range, too large (clamped), and negative (JAX's wrappers first
# add the axis size, like Python indexing, then clamp).
STARTS = [(0, 0), (2, 2), (3, 4), (10, 10), (2, 100), (np.iinfo(np.int32).max, 0),
          (-1, 0), (0, -2), (-2, -3), (-4, -5), (-10, 2), (np.iinfo(np.int32).min, 1)]  # fmt: skip


def _index_params() -> list[Any]:
    return [pytest.param(i, j, id=f"{i},{j}") for i, j in STARTS]


@pytest.mark.parametrize(("i", "j"), _index_params())
def test_dynamic_slice_index_clamping(i: int, j: int) -> None:
    starts = (np.int32(i), np.int32(j))
    check(lambda m: m.dynamic_slice(X45, starts, (2, 3)))


@pytest.mark.parametrize(("i", "j"), _index_params())
def test_dynamic_update_slice_index_clamping(i: int, j: int) -> None:
    starts = (np.int32(i), np.int32(j))
    check(lambda m: m.dynamic_update_slice(X45, UPDATE, starts))


def test_dynamic_slice_python_int_and_uint_indices() -> None:
    check(lambda m: m.dynamic_slice(X45, (3, 1), (2, 3)))
    check(lambda m: m.dynamic_slice(X45, (np.uint8(3), np.uint8(250)), (2, 3)))


@pytest.mark.parametrize("keepdims", [True, False])
def test_dynamic_index_in_dim_negative_axis(keepdims: bool) -> None:
    check(lambda m: m.dynamic_slice_in_dim(X45, np.int32(1), 2, -1))
    check(lambda m: m.dynamic_index_in_dim(X45, np.int32(1), -1, keepdims))


def test_slice_in_dim_negative_bounds_and_axis() -> None:
    check(lambda m: m.slice_in_dim(X45, -3, None, 2, -1))
    check(lambda m: m.dynamic_slice_in_dim(X45, np.int32(-1), 2, 0))


@pytest.mark.parametrize("operand", [X45, np.float32(1.0)], ids=["out_of_range", "scalar"])
def test_concatenate_single_operand_is_checked(operand: NDArray) -> None:
    dimension = 5 if operand.ndim else 0
    with pytest.raises(TypeError):
        jax.lax.concatenate([operand], dimension)
    with pytest.raises(TypeError, match="concatenate"):
        lax.concatenate([operand], dimension)


def test_slice_checks_strides_length() -> None:
    with pytest.raises(TypeError):
        jax.lax.slice(X45, (0, 0), (4, 5), (1,))
    with pytest.raises(TypeError, match="slice"):
        lax.slice(X45, (0, 0), (4, 5), (1,))


# === pad ===


@pytest.mark.parametrize(
    "config",
    [((1, 2, 0), (0, 0, 0)), ((0, 0, 2), (1, 1, 1)), ((-1, 0, 0), (0, -2, 0)), ((-1, -1, 1), (2, -3, 2)),
     ((-4, 1, 1), (0, 0, 3)), ((0, -7, 2), (-5, 0, 0)), ((2, -3, 0), (-2, 2, 1))],
    ids=str,
)  # fmt: skip
def test_pad_negative_and_interior(config: tuple[tuple[int, int, int], ...]) -> None:
    check(lambda m: m.pad(X45, np.float32(-1.5), config))


def test_pad_of_empty_operand() -> None:
    x = np.zeros((0, 2), np.int32)
    check(lambda m: m.pad(x, np.int32(7), ((1, 1, 3), (0, 1, 1))))


# === select_n ===


def test_select_n_int32_which_with_three_cases() -> None:
    cases = [np.full((2, 3), k, np.float32) + np.arange(6, dtype=np.float32).reshape(2, 3) / 10 for k in range(3)]
    which = np.array([[0, 1, 2], [2, 1, 0]], np.int32)
    check(lambda m: m.select_n(which, *cases))
    for k in range(3):
        check(lambda m: m.select_n(np.int32(k), *cases))


def test_select_n_one_case_and_bool_scalar() -> None:
    case = np.arange(3, dtype=np.float32)
    check(lambda m: m.select_n(np.array([True, False, True]), case))
    check(lambda m: m.select_n(np.True_, case, -case))


@pytest.mark.parametrize("dtype", ["uint8", "int8"])
def test_select_n_narrow_integer_which(dtype: str) -> None:
    cases = [np.full(3, k, np.float32) for k in range(3)]
    check(lambda m: m.select_n(np.array([2, 0, 1], dtype), *cases))


# === other dtypes JAX accepts ===


def test_dot_general_mixed_dtypes() -> None:
    lhs, rhs = np.ones((2, 3), np.float32), np.arange(6, dtype=np.int32).reshape(3, 2)
    check(lambda m: m.dot_general(lhs, rhs, (((1,), (0,)), ((), ()))))


# === powers ===


def test_pow_specials() -> None:
    x = np.array([0.0, 0.0, -2.0, 0.0, NAN, 1.0, -8.0, INF, -0.0], np.float32)
    y = np.array([0.0, -1.0, 0.5, 2.0, 0.0, NAN, 1 / 3, -1.0, -3.0], np.float32)
    ours, theirs = both(lambda m: m.pow(x, y))
    _assert_close_specials(ours, theirs)


def test_pow_integer_exponent_specials() -> None:
    x = np.array([0.0, -2.0, -2.0, 0.0, NAN, -0.0, 3.0], np.float32)
    y = np.array([0, 3, -3, -1, 0, -3, 40], np.int32)
    ours, theirs = both(lambda m: m.pow(x, y))
    _assert_close_specials(ours, theirs)


@pytest.mark.parametrize("y", [-3, -2, 0, 5])
def test_integer_pow_specials(y: int) -> None:
    x = np.array([0.0, -0.0, NAN, INF, -INF, -2.0, 1e10], np.float32)
    ours, theirs = both(lambda m: m.integer_pow(x, y))
    _assert_close_specials(ours, theirs)


def test_integer_pow_int_overflow_wraps() -> None:
    x = np.array([3, -3, 7, np.iinfo(np.int32).min], np.int32)
    check(lambda m: m.integer_pow(x, 25))


def _assert_close_specials(actual: object, expected: object) -> None:
    # NaN/inf positions exactly; finite values to float32 rounding (pow is
    # computed by different algorithms in NumPy and XLA).
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.shape, a.dtype) == (e.shape, e.dtype)
    np.testing.assert_array_equal(np.isnan(a), np.isnan(e))
    np.testing.assert_array_equal(np.isinf(a) * np.sign(a), np.isinf(e) * np.sign(e))
    finite = np.isfinite(e)
    np.testing.assert_allclose(a[finite], e[finite], rtol=2e-6)


def test_logistic_and_exp_extremes() -> None:
    x = np.array([-1e4, -80.0, -50.0, 0.0, 50.0, 88.0, 100.0, 1e4, NAN], np.float32)
    for op in ("logistic", "exp", "expm1", "tanh"):
        ours, theirs = both(lambda m: getattr(m, op)(x))
        _assert_close_specials(ours, theirs)


# === derivatives at kinks and ties (vs jax.jvp) ===


def f0(fn: Callable[[Any], Any]) -> LaxFn:
    return fn


def f1(fn: Callable[[Any, Any], Any]) -> LaxFn:
    return fn


def f2(fn: Callable[[Any, Any, Any], Any]) -> LaxFn:
    return fn


def f3(fn: Callable[[Any, Any, Any, Any], Any]) -> LaxFn:
    return fn


def _jvps(fn: LaxFn, primals: Sequence[NDArray], tangents: Sequence[NDArray]) -> tuple[Any, Any]:
    def on_ours(*a: Any) -> Any:
        return fn(lax, *a)

    def on_jax(*a: Any) -> Any:
        return fn(jax.lax, *a)

    return jt.jvp(on_ours, tuple(primals), tuple(tangents)), jax.jvp(on_jax, tuple(primals), tuple(tangents))


def _check_jvp(fn: LaxFn, primals: Sequence[NDArray], tangents: Sequence[NDArray]) -> None:
    (p, t), (jp, jt_) = _jvps(fn, primals, tangents)
    assert_bitwise_equal(p, jp)
    a, e = np.asarray(t), np.asarray(jt_)
    assert (a.shape, a.dtype) == (e.shape, e.dtype)
    np.testing.assert_allclose(a, e, rtol=1e-6, equal_nan=True)


V = np.array([1.0, 2.0, -1.0, 0.0], np.float32)
W = np.array([1.0, 3.0, -1.0, 0.0], np.float32)  # ties at 0, 2 and 3
TX = np.array([0.5, -1.0, 2.0, 4.0], np.float32)
TY = np.array([1.5, 2.0, -3.0, 1.0], np.float32)
SPECIAL_JVPS: dict[str, tuple[Callable[..., Any], tuple[NDArray, ...], tuple[NDArray, ...]]] = {
    "max_ties": (f2(lambda m, a, b: m.max(a, b)), (V, W), (TX, TY)),
    "min_ties": (f2(lambda m, a, b: m.min(a, b)), (V, W), (TX, TY)),
    "reduce_max_ties": (f1(lambda m, a: m.reduce_max(a, (0,))), (np.array([1.0, 3.0, 3.0, 3.0], np.float32),), (TX,)),
    "reduce_min_ties": (f1(lambda m, a: m.reduce_min(a, (0,))), (np.array([-1.0, 3.0, -1.0, 3.0], np.float32),), (TX,)),
    "abs_at_zero_scalar": (f1(lambda m, a: m.abs(a)), (np.array(0.0, np.float32),), (np.array(2.0, np.float32),)),
    "sqrt_at_zero": (f1(lambda m, a: m.sqrt(a)), (np.array([0.0, 0.0, 4.0], np.float32),), (np.array([1.0, 0.0, 1.0], np.float32),)),
    # pow at (0, 0) is left out: JAX's tangent there is NaN, jaxtyped's 0.
    "pow_at_zero_base": (f2(lambda m, a, b: m.pow(a, b)), (np.array([0.0, 0.0, 2.0], np.float32), np.array([2.0, 0.5, 0.0], np.float32)), (TX[:3], TY[:3])),
    "integer_pow_0_at_zero": (f1(lambda m, a: m.integer_pow(a, 0)), (np.array([0.0, 2.0], np.float32),), (np.array([1.0, 1.0], np.float32),)),
    "integer_pow_2_at_zero": (f1(lambda m, a: m.integer_pow(a, 2)), (np.array([0.0, -0.0], np.float32),), (np.array([1.0, 1.0], np.float32),)),
    "logistic_tails": (f1(lambda m, a: m.logistic(a)), (np.array([-50.0, 100.0, -1e4, 1e4], np.float32),), (TX,)),
    "select_n_int_which": (f3(lambda m, a, b, c: m.select_n(np.array([2, 0, 1, 2], np.int32), a, b, c)), (V, W, TX), (TX, TY, V)),
    "dynamic_update_slice_clamped": (f2(lambda m, a, u: m.dynamic_update_slice(a, u, (np.int32(3),))), (V, W[:2]), (TX, TY[:2])),
    "rem_at_multiple": (f2(lambda m, a, b: m.rem(a, b)), (np.array([4.0, -3.0], np.float32), np.array([2.0, 1.5], np.float32)), (TX[:2], TY[:2])),
    "atan2_at_origin": (f2(lambda m, a, b: m.atan2(a, b)), (np.zeros(2, np.float32), np.array([0.0, -0.0], np.float32)), (TX[:2], TY[:2])),
}  # fmt: skip


@pytest.mark.parametrize("name", sorted(SPECIAL_JVPS))
def test_jvp_at_special_points_matches_jax(name: str) -> None:
    fn, primals, tangents = SPECIAL_JVPS[name]
    _check_jvp(fn, primals, tangents)


def test_jvp_of_abs_at_zero_array() -> None:
    _check_jvp(f1(lambda m, a: m.abs(a)), (np.array([0.0, -0.0, 1.0, -1.0], np.float32),), (TX,))


def test_jvp_of_integer_output_gives_float0() -> None:
    x = np.array([1.5, -2.5], np.float32)
    (_, tangent), (_, expected) = _jvps(f1(lambda m, a: m.convert_element_type(a, np.int32)), (x,), (x,))
    assert_bitwise_equal(tangent, expected)


# === hypothesis properties: random shapes (zero-size included) and dtypes ===


@st.composite
def shapes(draw: st.DrawFn) -> tuple[int, ...]:
    return tuple(draw(st.lists(st.integers(0, 4), max_size=3)))


PROPERTY_DTYPES = ("float32", "int32", "uint8", "bool")
ELEMENTWISE: dict[str, tuple[int, Callable[..., Any], tuple[str, ...]]] = {
    "add": (2, np.add, ("float32", "int32", "uint8")),
    "mul": (2, np.multiply, ("float32", "int32")),
    "max": (2, np.maximum, PROPERTY_DTYPES),
    "eq": (2, np.equal, PROPERTY_DTYPES),
    "bitwise_xor": (2, np.bitwise_xor, ("int32", "bool")),
    "neg": (1, np.negative, ("float32", "int32")),
    "exp": (1, np.exp, ("float32",)),
}


def _operand(seed: int, shape: tuple[int, ...], dtype: str) -> NDArray:
    rng = np.random.default_rng(seed)
    if dtype == "bool":
        return rng.random(shape) < 0.5
    if dtype in ("int32", "uint8"):
        return rng.integers(0 if dtype == "uint8" else -3, 4, shape).astype(dtype)
    values: NDArray = rng.uniform(-3.0, 3.0, shape)
    return values.astype(dtype)


def assert_close(actual: object, expected: object) -> None:
    """Same shape and dtype; exact but for float rounding (1e-6)."""
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.shape, a.dtype) == (e.shape, e.dtype)
    if _is_float(a):
        np.testing.assert_allclose(a, e, rtol=1e-6, atol=1e-6, equal_nan=True)
    else:
        np.testing.assert_array_equal(a, e)


def _check_vmap(f: Callable[..., Any], batched: Sequence[NDArray]) -> None:
    got = np.asarray(jt.vmap(f)(*batched))
    size = batched[0].shape[0]
    loop = [np.asarray(f(*(x[b] for x in batched))) for b in range(size)]
    assert_close(got, np.stack(loop) if loop else np.zeros(got.shape, got.dtype))
    assert got.shape[0] == size


@settings(max_examples=20, deadline=None)
@given(name=st.sampled_from(sorted(ELEMENTWISE)), shape=shapes(), data=st.data(), seed=st.integers(0, 2**16))
def test_property_elementwise(name: str, shape: tuple[int, ...], data: st.DataObject, seed: int) -> None:
    arity, ref, dtypes_ = ELEMENTWISE[name]
    dtype = data.draw(st.sampled_from(dtypes_))
    f = getattr(lax, name)
    operands = [_operand(seed + i, shape, dtype) for i in range(arity)]
    got = np.asarray(f(*operands))
    with np.errstate(all="ignore"):
        want = np.asarray(ref(*operands)).astype(got.dtype)
    assert_close(got, want)
    size = data.draw(st.sampled_from((0, 1, 3)))
    _check_vmap(f, [_operand(seed + 7 + i, (size, *shape), dtype) for i in range(arity)])


@settings(max_examples=20, deadline=None)
@given(shape=shapes(), data=st.data(), seed=st.integers(0, 2**16))
def test_property_structural(shape: tuple[int, ...], data: st.DataObject, seed: int) -> None:
    dtype = data.draw(st.sampled_from(PROPERTY_DTYPES))
    x = _operand(seed, shape, dtype)
    rank = len(shape)
    perm = tuple(data.draw(st.permutations(range(rank))))
    axes = tuple(sorted(data.draw(st.sets(st.integers(0, max(rank - 1, 0)), max_size=rank))))
    cases: list[tuple[Callable[[Any], Any], NDArray]] = [
        (lambda a: lax.transpose(a, perm), np.transpose(x, perm)),
        (lambda a: lax.rev(a, axes), np.flip(x, axes)),
        (lambda a: lax.reshape(a, (x.size,)), x.reshape(-1)),
        (lambda a: lax.expand_dims(a, (0,)), x[None]),
        (lambda a: lax.broadcast_in_dim(a, (2, *shape), tuple(range(1, rank + 1))), np.broadcast_to(x, (2, *shape))),
        (lambda a: lax.pad(a, np.zeros((), dtype), [(1, 0, 1)] * rank), _np_pad_interior(x)),
        (lambda a: lax.reduce_max(a, axes), _np_reduce_max(x, axes)),
    ]  # fmt: skip
    if dtype != "bool":
        cases.append((lambda a: lax.reduce_sum(a, axes), np.sum(x, axis=axes, dtype=x.dtype)))
    size = data.draw(st.sampled_from((0, 1, 3)))
    batched = _operand(seed + 1, (size, *shape), dtype)
    for f, want in cases:
        assert_close(f(x), want)
        _check_vmap(f, [batched])


def _np_pad_interior(x: NDArray) -> NDArray:
    # lax.pad(x, 0, [(1, 0, 1)] * ndim): a zero before each element (and
    # one zero along an empty axis).
    out = np.zeros(tuple(max(2 * d, 1) for d in x.shape), x.dtype)
    out[tuple(slice(1, None, 2) for _ in x.shape)] = x
    return out


def _np_reduce_max(x: NDArray, axes: tuple[int, ...]) -> NDArray:
    initial: Any = False if x.dtype == np.bool_ else np.iinfo(x.dtype).min if x.dtype.kind in "iu" else -np.inf
    result: NDArray = np.max(x, axis=axes, initial=initial)
    return result


# === errors ===


def f32(*shape: int) -> NDArray:
    return np.ones(shape, np.float32)


def i32(*shape: int) -> NDArray:
    return np.ones(shape, np.int32)


# name -> (function of a lax module and operands, operands, pattern of our message)
ErrorCase = tuple[Callable[..., Any], tuple[NDArray, ...], str]
ERROR_CASES: dict[str, ErrorCase] = {
    "add_shapes": (f2(lambda m, a, b: m.add(a, b)), (f32(3), f32(4)), r"add .*f32\[3\] vs f32\[4\]"),
    "mul_shapes_2d": (f2(lambda m, a, b: m.mul(a, b)), (f32(2, 3), f32(3, 2)), r"mul .*f32\[2,3\] vs f32\[3,2\]"),
    "max_scalar_vs_array_ok_but_rank_mismatch": (f2(lambda m, a, b: m.max(a, b)), (f32(2, 3), f32(3)), r"max .*f32\[2,3\] vs f32\[3\]"),
    "add_dtypes": (f2(lambda m, a, b: m.add(a, b)), (f32(3), i32(3)), r"add requires arguments to have the same dtypes, got float32, int32"),
    "sin_int32": (f1(lambda m, a: m.sin(a)), (i32(3),), r"sin does not accept dtype int32"),
    "floor_int32": (f1(lambda m, a: m.floor(a)), (i32(3),), r"floor does not accept dtype int32"),
    "shift_bool": (f1(lambda m, a: m.shift_left(a, a)), (np.ones(3, bool),), r"shift_left does not accept dtype bool"),
    "rem_complex": (f1(lambda m, a: m.rem(a, a)), (np.ones(3, np.complex64),), r"rem does not accept dtype complex64"),
    "integer_pow_negative_int": (f1(lambda m, a: m.integer_pow(a, -2)), (i32(3),), r"negative powers.*i32\[3\]"),
    "reshape_size": (f1(lambda m, a: m.reshape(a, (4,))), (f32(2, 3),), r"reshape.*f32\[2,3\].*\(4,\)"),
    "squeeze_not_one": (f1(lambda m, a: m.squeeze(a, (0,))), (f32(2, 3),), r"squeeze.*\(0,\).*f32\[2,3\].*size 1"),
    "squeeze_out_of_range": (f1(lambda m, a: m.squeeze(a, (2,))), (f32(2, 1),), r"squeeze.*axis 2"),
    "broadcast_in_dim_sizes": (f1(lambda m, a: m.broadcast_in_dim(a, (3, 2), (0, 1))), (f32(2, 3),), r"broadcast_in_dim.*f32\[2,3\].*\(3, 2\)"),
    "broadcast_in_dim_rank": (f1(lambda m, a: m.broadcast_in_dim(a, (2, 3), (0,))), (f32(2, 3),), r"broadcast_in_dim.*f32\[2,3\]"),
    "transpose_repeated": (f1(lambda m, a: m.transpose(a, (0, 0))), (f32(2, 3),), r"transpose.*\(0, 0\).*f32\[2,3\]"),
    "transpose_short": (f1(lambda m, a: m.transpose(a, (0,))), (f32(2, 3),), r"transpose.*\(0,\).*f32\[2,3\]"),
    "concatenate_shapes": (f2(lambda m, a, b: m.concatenate([a, b], 0)), (f32(2, 3), f32(3, 2)), r"concatenate.*f32\[2,3\], f32\[3,2\]"),
    "concatenate_dtypes": (f2(lambda m, a, b: m.concatenate([a, b], 0)), (f32(2, 3), i32(2, 3)), r"concatenate.*f32\[2,3\], i32\[2,3\]"),
    "concatenate_dimension": (f1(lambda m, a: m.concatenate([a, a], 2)), (f32(2, 3),), r"concatenate.*dimension 2"),
    "dot_general_contracting": (f2(lambda m, a, b: m.dot_general(a, b, (((1,), (0,)), ((), ())))), (f32(2, 3), f32(4, 2)), r"dot_general.*f32\[2,3\], f32\[4,2\]"),
    "select_n_which_shape": (f2(lambda m, w, a: m.select_n(w, a, a)), (np.ones(3, bool), f32(4)), r"select_n.*bool\[3\].*f32\[4\]"),
    "select_n_case_dtypes": (f3(lambda m, w, a, b: m.select_n(w, a, b)), (np.ones(3, bool), f32(3), i32(3)), r"select_n.*f32\[3\], i32\[3\]"),
    "select_n_bool_three_cases": (f2(lambda m, w, a: m.select_n(w, a, a, a)), (np.ones(3, bool), f32(3)), r"select_n.*bool.*3 cases"),
    "select_n_float_which": (f1(lambda m, w: m.select_n(w, w, w)), (f32(3),), r"select_n.*f32\[3\]"),
    "dynamic_slice_index_count": (f1(lambda m, a: m.dynamic_slice(a, (np.int32(0),), (2, 2))), (f32(4, 5),), r"dynamic_slice.*2 start indices.*f32\[4,5\]"),
    "dynamic_slice_sizes": (f1(lambda m, a: m.dynamic_slice(a, (np.int32(0), np.int32(0)), (5, 2))), (f32(4, 5),), r"dynamic_slice.*\(5, 2\).*f32\[4,5\]"),
    "dynamic_slice_float_index": (f1(lambda m, a: m.dynamic_slice(a, (np.float32(0), np.float32(0)), (2, 2))), (f32(4, 5),), r"dynamic_slice.*integer.*f32\[\]"),
    "dynamic_update_slice_dtype": (f2(lambda m, a, u: m.dynamic_update_slice(a, u, (np.int32(0), np.int32(0)))), (f32(4, 5), i32(2, 2)), r"dynamic_update_slice.*i32\[2,2\].*f32\[4,5\]"),
    "dynamic_update_slice_too_big": (f2(lambda m, a, u: m.dynamic_update_slice(a, u, (np.int32(0), np.int32(0)))), (f32(4, 5), f32(5, 2)), r"dynamic_update_slice.*f32\[5,2\].*f32\[4,5\]"),
    "slice_out_of_bounds": (f1(lambda m, a: m.slice(a, (0, 0), (5, 5))), (f32(4, 5),), r"slice.*\(5, 5\).*f32\[4,5\]"),
    "reduce_axis_out_of_range": (f1(lambda m, a: m.reduce_sum(a, (2,))), (f32(2, 3),), r"reduce_sum.*axis 2"),
    "reduce_negative_axis": (f1(lambda m, a: m.reduce_sum(a, (-1,))), (f32(2, 3),), r"reduce_sum: axis -1 is out of bounds for operand f32\[2,3\]"),
    "argmax_negative_axis": (f1(lambda m, a: m.argmax(a, -1, np.int32)), (f32(2, 3),), r"argmax: axis -1 is out of bounds"),
    "reduce_repeated_axes": (f1(lambda m, a: m.reduce_max(a, (0, 0))), (f32(2, 3),), r"reduce_max.*\(0, 0\)"),
    "reduce_sum_bool": (f1(lambda m, a: m.reduce_sum(a, (0,))), (np.ones(3, bool),), r"reduce_sum does not accept dtype bool"),
    "argmax_axis": (f1(lambda m, a: m.argmax(a, 2, np.int32)), (f32(2, 3),), r"argmax.*axis 2"),
    "argmax_empty_axis": (f1(lambda m, a: m.argmax(a, 0, np.int32)), (f32(0, 3),), r"argmax.*f32\[0,3\]"),
    "argmax_float_index": (f1(lambda m, a: m.argmax(a, 0, np.float32)), (f32(2, 3),), r"argmax.*index_dtype.*float32"),
    "expand_dims_out_of_range": (f1(lambda m, a: m.expand_dims(a, (3,))), (f32(2, 3),), r"expand_dims.*axis 3"),
    "rev_repeated": (f1(lambda m, a: m.rev(a, (0, 0))), (f32(2, 3),), r"rev.*\(0, 0\).*f32\[2,3\]"),
    "rev_out_of_range": (f1(lambda m, a: m.rev(a, (2,))), (f32(2, 3),), r"rev.*2.*f32\[2,3\]"),
    "pad_config_length": (f1(lambda m, a: m.pad(a, np.float32(0), [(0, 0, 0)])), (f32(2, 3),), r"pad.*f32\[2,3\]"),
    "pad_negative_interior": (f1(lambda m, a: m.pad(a, np.float32(0), [(0, 0, -1), (0, 0, 0)])), (f32(2, 3),), r"pad.*interior"),
    "pad_value_dtype": (f1(lambda m, a: m.pad(a, np.int32(0), [(0, 0, 0), (0, 0, 0)])), (f32(2, 3),), r"pad.*f32\[2,3\].*i32\[\]"),
    "pad_value_shape": (f2(lambda m, a, v: m.pad(a, v, [(0, 0, 0), (0, 0, 0)])), (f32(2, 3), f32(1)), r"pad.*f32\[1\]"),
    "pad_negative_result": (f1(lambda m, a: m.pad(a, np.float32(0), [(-3, 0, 0), (0, 0, 0)])), (f32(2, 3),), r"pad.*negative shape \(-1, 3\)"),
    "pow_exponent_dtype": (f2(lambda m, a, b: m.pow(a, b)), (f32(3), np.ones(3, np.float16)), r"pow.*float32.*float16"),
    "atan2_int": (f1(lambda m, a: m.atan2(a, a)), (i32(3),), r"atan2 does not accept dtype int32"),
    "dot_general_negative_axis": (f2(lambda m, a, b: m.dot_general(a, b, (((-1,), (-1,)), ((), ())))), (f32(2, 3), f32(2, 3)), r"dot_general.*\(\[-1\], \[-1\]\).*f32\[2,3\], f32\[2,3\]"),
    "dot_rank_3": (f2(lambda m, a, b: m.dot(a, b)), (f32(2, 2, 2), f32(2)), r"dot.*f32\[2,2,2\].*f32\[2\]"),
    "broadcast_in_dim_too_many_dims": (f1(lambda m, a: m.broadcast_in_dim(a, (2, 3), (0, 1, 2))), (f32(2, 3),), r"broadcast_in_dim.*\(0, 1, 2\)"),
    "iota_bool": (f0(lambda m: m.iota(np.bool_, 3)), (), r"iota.*bool"),
    "iota_negative_size": (f0(lambda m: m.iota(np.int32, -1)), (), r"iota.*negative.*\(-1,\)"),
}  # fmt: skip
BUILTINS = (TypeError, ValueError, IndexError, OverflowError)


def _jax_builtin(fn: Callable[..., Any], operands: tuple[NDArray, ...], name: str) -> type[Exception]:
    if name == "reshape_size":
        # JAX 0.10's lax.reshape defers the size check to lowering (a
        # ValueError from the verifier); jnp.reshape and older JAX raise TypeError.
        return TypeError
    with pytest.raises(Exception) as info:
        fn(jax.lax, *operands)
    return next(b for b in BUILTINS if isinstance(info.value, b))


def _error_params() -> list[Any]:
    return [
        pytest.param(name, id=name)
        for name in ERROR_CASES
    ]


@pytest.mark.parametrize("name", _error_params())
def test_error_class_and_message(name: str) -> None:
    fn, operands, pattern = ERROR_CASES[name]
    builtin = _jax_builtin(fn, operands, name)
    with pytest.raises(builtin, match=pattern) as eager:
        fn(lax, *operands)
    assert isinstance(eager.value, errors.JaxtypedError)
    if operands:  # the same error when the operands are traced
        with pytest.raises(type(eager.value)) as traced:
            jt.make_jaxpr(lambda *a: fn(lax, *a))(*operands)
        assert str(traced.value) == str(eager.value)


def test_error_classes_are_builtin_subclasses() -> None:
    assert issubclass(errors.ShapeMismatchError, TypeError)
    assert issubclass(errors.DTypeMismatchError, TypeError)
    assert issubclass(errors.JaxtypedValueError, ValueError)
    assert issubclass(errors.MissingRuleError, NotImplementedError)


def test_list_operand_is_a_type_error() -> None:
    # In debug mode beartype rejects the list first, with a DebugTypeError.
    expected = "violates type hint" if jt.DEBUG else r"lax\.add operand 0: expected an array or a scalar, got list"
    with pytest.raises(TypeError, match=expected) as info:
        lax.add([1.0, 2.0], f32(2))  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the error under test
    assert isinstance(info.value, errors.JaxtypedTypeError)
    with pytest.raises(TypeError):
        jax.lax.add([1.0, 2.0], f32(2))


def test_bfloat16_scalar_operand() -> None:
    scalar = np.asarray(1.5, BF16)[()]
    x = np.ones(3, BF16)
    check(f0(lambda m: m.add(x, scalar)))


# === complex parts: linear primitives, so jvp(f)(x; t) == f(t) ===


def test_complex_primitives_jvp_are_linear() -> None:
    z = np.array([1 + 2j, -3 + 0.5j], np.complex64)
    dz = np.array([0.5 - 1j, 2 + 1j], np.complex64)
    for f, ref in ((lax.real, np.real), (lax.imag, np.imag), (lax.conj, np.conj)):
        out, tangent = jt.jvp(f, (z,), (dz,))
        np.testing.assert_allclose(np.asarray(out), ref(z))
        np.testing.assert_allclose(np.asarray(tangent), ref(dz))
    x, y = np.array([1.0, 2.0], np.float32), np.array([3.0, -1.0], np.float32)
    dx, dy = np.array([0.5, 1.0], np.float32), np.array([-2.0, 4.0], np.float32)
    out, tangent = jt.jvp(lax.complex, (x, y), (dx, dy))
    np.testing.assert_allclose(np.asarray(out), x + 1j * y)
    np.testing.assert_allclose(np.asarray(tangent), dx + 1j * dy)
    # A zero tangent in one operand is a symbolic zero, instantiated.
    _, only_x = jt.jvp(lambda a: lax.complex(a, y), (x,), (dx,))
    np.testing.assert_allclose(np.asarray(only_x), dx + 0j)


def test_complex_rejects_narrow_floats_like_jax() -> None:
    half = np.ones(2, np.float16)
    with pytest.raises(TypeError, match=r"complex: operands must be float32 or float64"):
        lax.complex(half, half)
    with pytest.raises(TypeError):
        jax.lax.complex(half, half)
