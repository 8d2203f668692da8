"""Lowering of ``dot_general`` (``lax/dot.py``): ``jt.jit(f)(x, y)`` must
equal eager ``f(x, y)`` (same dtype and shape; exact for integers and
booleans, within a dtype-aware tolerance for inexact results, whose
summation order XLA may change).

Covers the dimension-number cases (plain, batch, several contracting and
batch axes, axes in unusual orders, outer products, 0-d and zero-size
operands), every operand dtype, ``preferred_element_type`` (widening,
float to int, real to complex, complex to real) and mixed operand dtypes,
checking the dtype rules and values against JAX too.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped import lax
from jaxtyped.errors import JaxtypedTypeError
from jaxtyped.typing import Array, ArrayLike

pytestmark = pytest.mark.usefixtures("x64")

NDArray = np.ndarray[Any, np.dtype[Any]]
Fn = Callable[..., Any]
Numbers = tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]
BF16 = np.dtype(jtnp.bfloat16)
MATMUL: Numbers = (((1,), (0,)), ((), ()))

# (lhs shape, rhs shape, dimension numbers)
CASES: dict[str, tuple[tuple[int, ...], tuple[int, ...], Numbers]] = {
    "matmul": ((3, 4), (4, 5), MATMUL),
    "vector_dot": ((4,), (4,), (((0,), (0,)), ((), ()))),
    "matvec": ((3, 4), (4,), (((1,), (0,)), ((), ()))),
    "outer": ((3,), (5,), (((), ()), ((), ()))),
    "scalars": ((), (), (((), ()), ((), ()))),
    "scalar_times_matrix": ((), (2, 3), (((), ()), ((), ()))),
    "transposed_contraction": ((4, 3), (5, 4), (((0,), (1,)), ((), ()))),
    "batch": ((2, 3, 4), (2, 4, 5), (((2,), (1,)), ((0,), (0,)))),
    "batch_in_the_middle": ((3, 2, 4), (4, 2, 5), (((2,), (0,)), ((1,), (1,)))),
    "batch_only": ((2, 3), (2, 5), (((), ()), ((0,), (0,)))),
    "two_contracting": ((2, 3, 4), (3, 4, 5), (((1, 2), (0, 1)), ((), ()))),
    "two_contracting_swapped": ((2, 3, 4), (4, 5, 3), (((1, 2), (2, 0)), ((), ()))),
    "two_batch": ((2, 3, 4, 5), (3, 2, 5, 6), (((3,), (2,)), ((0, 1), (1, 0)))),
    "everything": ((2, 3, 4, 5), (5, 2, 6, 4), (((2, 3), (3, 0)), ((0,), (1,)))),
    "zero_size_contraction": ((3, 0), (0, 5), MATMUL),
    "zero_size_free": ((0, 4), (4, 5), MATMUL),
    "zero_size_batch": ((0, 3, 4), (0, 4, 2), (((2,), (1,)), ((0,), (0,)))),
}

DTYPES = [np.dtype(d) for d in ("bool", "int8", "uint8", "int32", "uint32", "int64", "float16")] + [
    BF16,
    *(np.dtype(d) for d in ("float32", "float64", "complex64", "complex128")),
]


def _id(value: object) -> str:
    return value.name if isinstance(value, np.dtype) else str(value)


def values(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype[Any]) -> NDArray:
    """Random values of ``dtype`` (integers spanning the whole range, so
    that sums wrap around)."""
    n = int(np.prod(shape))
    if dtype == np.bool_:
        out: NDArray = rng.integers(0, 2, n).astype(np.bool_)
    elif dtype.kind in "iu":
        info = np.iinfo(dtype)
        out = rng.integers(int(info.min), int(info.max), n, endpoint=True, dtype=dtype)
    elif dtype.kind == "c":
        out = (rng.standard_normal(n) + 1j * rng.standard_normal(n)).astype(dtype)
    else:
        out = (rng.standard_normal(n) * 3).astype(dtype)
    return out.reshape(shape)


def tolerance(dtype: np.dtype[Any]) -> float:
    if dtype == np.float16:
        return 4e-3
    if dtype == BF16:
        return 3e-2
    if dtype in (np.dtype(np.float32), np.dtype(np.complex64)):
        return 1e-5
    return 1e-12


def assert_agree(actual: object, expected: object) -> None:
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.dtype, a.shape) == (e.dtype, e.shape)
    if a.dtype.kind not in "fc" and a.dtype != BF16:
        np.testing.assert_array_equal(a, e)
        return
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    # Sums of terms of magnitude ~10: the tolerance is relative to them.
    rtol = tolerance(a.dtype)
    np.testing.assert_allclose(a.astype(wide), e.astype(wide), rtol=rtol, atol=rtol * 30)


def dot_fn(numbers: Numbers, preferred: np.dtype[Any] | None = None) -> Fn:
    def fn(x: ArrayLike, y: ArrayLike) -> Array:
        return lax.dot_general(x, y, numbers, preferred_element_type=preferred)

    return fn


def jax_dot(x: NDArray, y: NDArray, preferred: np.dtype[Any] | None) -> NDArray:
    """Real JAX's jitted ``dot_general`` with the MATMUL dimension numbers."""
    jax = pytest.importorskip("jax")

    def fn(a: Any, b: Any) -> Any:
        return jax.lax.dot_general(a, b, MATMUL, preferred_element_type=preferred)

    return np.asarray(jax.jit(fn)(x, y))


def check(fn: Fn, x: NDArray, y: NDArray) -> None:
    with np.errstate(all="ignore"):
        expected = fn(x, y)
    assert_agree(jt.jit(fn)(x, y), expected)


# === dimension numbers and dtypes ===


@pytest.mark.parametrize("case", list(CASES))
def test_dimension_numbers(case: str) -> None:
    lhs_shape, rhs_shape, numbers = CASES[case]
    rng = np.random.default_rng(len(case))
    check(dot_fn(numbers), values(rng, lhs_shape, np.dtype(np.float32)), values(rng, rhs_shape, np.dtype(np.float32)))


@pytest.mark.parametrize("case", ["matmul", "batch_in_the_middle", "two_contracting_swapped"])
@pytest.mark.parametrize("dtype", DTYPES, ids=_id)
def test_dtypes(dtype: np.dtype[Any], case: str) -> None:
    lhs_shape, rhs_shape, numbers = CASES[case]
    rng = np.random.default_rng(3)
    check(dot_fn(numbers), values(rng, lhs_shape, dtype), values(rng, rhs_shape, dtype))


PREFERRED = [
    ("int8", "int32"),
    ("uint8", "uint32"),
    ("uint8", "int32"),
    ("int32", "int64"),
    ("int32", "float32"),
    ("bool", "int32"),
    ("bool", "float32"),
    ("bfloat16", "float32"),
    ("float16", "float32"),
    ("float32", "float64"),
    ("float64", "float32"),
    ("float32", "float16"),
    ("float32", "bfloat16"),
    ("float32", "int32"),
    ("float32", "uint8"),
    ("float32", "bool"),
    ("float32", "complex64"),
    ("complex64", "float32"),
]


@pytest.mark.parametrize(("operands", "preferred"), PREFERRED)
def test_preferred_element_type(operands: str, preferred: str) -> None:
    dtype = BF16 if operands == "bfloat16" else np.dtype(operands)
    out = BF16 if preferred == "bfloat16" else np.dtype(preferred)
    rng = np.random.default_rng(4)
    lhs_shape, rhs_shape, numbers = CASES["batch"]
    check(dot_fn(numbers, out), values(rng, lhs_shape, dtype), values(rng, rhs_shape, dtype))


MIXED = [
    ("int32", "float32", None),
    ("uint8", "int8", None),
    ("uint8", "int8", "int32"),
    ("float16", "bfloat16", None),
    ("float16", "bfloat16", "float32"),
    ("complex64", "float32", None),
    ("bool", "float32", None),
    ("int8", "int32", None),
    ("float32", "int32", "int32"),
]


def _dtype(name: str) -> np.dtype[Any]:
    return BF16 if name == "bfloat16" else np.dtype(name)


@pytest.mark.parametrize(("lhs", "rhs", "preferred"), MIXED)
def test_mixed_operand_dtypes_match_jax(lhs: str, rhs: str, preferred: str | None) -> None:
    """Mixed operands: the result is the operand dtype of higher precision
    (XLA's rule: uint8 with int8 gives int8, float16 with bfloat16 gives
    bfloat16) or the preferred one, and both operands are converted to it
    first, as JAX lowers them."""
    rng = np.random.default_rng(5)
    x, y = values(rng, (3, 4), _dtype(lhs)), values(rng, (4, 5), _dtype(rhs))
    out = None if preferred is None else _dtype(preferred)
    fn = dot_fn(MATMUL, out)
    check(fn, x, y)
    assert_agree(jt.jit(fn)(x, y), jax_dot(x, y, out))


def test_float_operands_with_integer_result_match_jax() -> None:
    """The products are summed as floats and the sum converted (truncated,
    saturated), not the operands."""
    rng = np.random.default_rng(6)
    x, y = values(rng, (3, 6), np.dtype(np.float32)), values(rng, (6, 4), np.dtype(np.float32))
    for out in (np.dtype(np.int32), np.dtype(np.uint8), np.dtype(np.bool_)):
        expected = jax_dot(x, y, out)
        fn = dot_fn(MATMUL, out)
        np.testing.assert_array_equal(np.asarray(fn(x, y)), expected)
        np.testing.assert_array_equal(np.asarray(jt.jit(fn)(x, y)), expected)


@pytest.mark.parametrize(("operands", "preferred"), [("int32", "int8"), ("int64", "int32"), ("complex64", "float16")])
def test_narrower_preferred_type_is_rejected_like_jax(operands: str, preferred: str) -> None:
    jax = pytest.importorskip("jax")
    x = np.ones((2, 2), operands)
    with pytest.raises(TypeError, match="narrower"):
        jax.lax.dot_general(x, x, MATMUL, preferred_element_type=np.dtype(preferred))
    with pytest.raises(JaxtypedTypeError, match="narrower"):
        lax.dot_general(x, x, MATMUL, preferred_element_type=np.dtype(preferred))


# === lowered text ===


def test_lowered_text() -> None:
    x, y = np.ones((2, 3, 4), np.float32), np.ones((2, 4, 5), np.float32)
    text = jt.jit(dot_fn(CASES["batch"][2])).lower(x, y).as_text()
    assert "stablehlo.dot_general" in text
    assert "batching_dims = [0] x [0]" in text and "contracting_dims = [2] x [1]" in text
    # Narrow floats are summed in float32 and rounded once.
    narrow = jt.jit(dot_fn(MATMUL)).lower(np.ones((2, 3), BF16), np.ones((3, 4), BF16)).as_text()
    assert "-> tensor<2x4xf32>" in narrow and "stablehlo.convert" in narrow


def test_non_finite_products_are_silent_and_match_jit() -> None:
    """inf * 0 is NaN and a product overflows to inf, eagerly as under XLA,
    without NumPy's RuntimeWarning (the suite turns warnings into errors)."""
    a = jtnp.array([[np.inf, 1.0], [0.0, 3e38]], dtype=jtnp.float32)
    eager = np.asarray(a @ a)
    def square(x: Array) -> Array:
        return x @ x

    compiled = np.asarray(jt.jit(square)(a))
    np.testing.assert_array_equal(eager, compiled)
    assert np.isnan(eager[1, 0]) and np.isinf(eager[1, 1])
