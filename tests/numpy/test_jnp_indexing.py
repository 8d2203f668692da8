"""``x[index]`` for ``jaxtyped.Array``: basic indexing against NumPy (random
indices from hypothesis), traced and batched integer indices against JAX,
JAX's clamping of out-of-range indices, and the errors."""

from types import EllipsisType
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.core import jaxpr_as_fun
from jaxtyped.errors import JaxtypedError, JaxtypedIndexError

jax: Any = pytest.importorskip("jax")
jax_numpy: Any = pytest.importorskip("jax.numpy")

IndexItem = int | slice | None | EllipsisType


def check(x: np.ndarray[Any, Any], index: Any) -> None:
    """``jnp.asarray(x)[index]`` equals NumPy's ``x[index]`` (a view) in
    shape, dtype and values, and is a strong jaxtyped Array."""
    expected = x[index]
    result = jnp.asarray(x)[index]
    assert isinstance(result, jt.Array)
    assert result.shape == expected.shape, (index, result.shape, expected.shape)
    assert result.dtype == expected.dtype and not result.weak_type
    np.testing.assert_array_equal(np.asarray(result), expected)


# === basic indexing: fixed cases ===

X3 = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
BASIC: list[Any] = [
    0, -1, 1, (1, 2), (1, -1, 3), (-2, -3, -4), slice(None), slice(None, None, -1),
    (slice(None), slice(None, None, -2)), (Ellipsis, 0), (None, 0), (0, None, Ellipsis, None),
    slice(5, 1, -1), slice(-10, 10), slice(2, 2), slice(1, 0), slice(None, None, 3),
    (Ellipsis, None), (Ellipsis,), (), (0, 0, 0), np.int32(1), np.int64(-1),
    (np.int8(1), slice(None)), (slice(None), None, slice(None, 1)), (Ellipsis, slice(-1, None), 2),
    (1, Ellipsis, -1), (None, None), (slice(1, None), Ellipsis, slice(None, None, -3)),
    (slice(-1, -4, -1), 0), (slice(10, None, -1),), (slice(None, -10, -1),),
    (0, slice(0, 3, 2), None, slice(3, 0, -2)),
]  # fmt: skip


@pytest.mark.parametrize("index", BASIC, ids=repr)
def test_basic_index_matches_numpy(index: Any) -> None:
    check(X3, index)


@pytest.mark.parametrize("dtype", ["bool", "int8", "uint8", "float16", "bfloat16", "float32", "complex64"])
def test_indexing_keeps_dtype(dtype: str) -> None:
    x = np.arange(6).reshape(2, 3).astype(jnp.dtype(dtype))
    result = jnp.asarray(x)[1, ::-1]
    assert result.dtype == x.dtype
    wide = np.complex128 if dtype == "complex64" else np.float64
    np.testing.assert_array_equal(np.asarray(result).astype(wide), x[1, ::-1].astype(wide))


def test_indexing_a_weak_array_stays_weak() -> None:
    # JAX: jnp.full((3,), 1.0)[0] is weakly typed, like the array it came from.
    weak = jnp.full((3,), 1.0)
    expected = jax_numpy.full((3,), 1.0)
    assert weak.weak_type == expected.weak_type
    assert weak[0].weak_type == expected[0].weak_type
    assert weak[1:].weak_type == expected[1:].weak_type


def test_zero_size_arrays() -> None:
    x = np.zeros((0, 3), np.float32)
    for index in (slice(None), (slice(None), 1), (Ellipsis, None), (slice(1, 5),), (slice(None, None, -1), slice(1, 2))):
        check(x, index)
    with pytest.raises(IndexError):
        jnp.asarray(x)[0]


# === basic indexing: random indices (hypothesis) ===


@st.composite
def basic_indices(draw: st.DrawFn) -> tuple[np.ndarray[Any, Any], tuple[IndexItem, ...]]:
    """An array of rank 1-3 and a random basic index for it: in-range ints,
    slices with any bounds and (non-zero) steps, None and at most one
    Ellipsis."""
    shape = tuple(draw(st.lists(st.integers(0, 4), min_size=1, max_size=3)))
    x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    bound = st.none() | st.integers(-7, 7)
    step = st.none() | st.integers(-3, 3).filter(lambda s: s != 0)
    items: list[IndexItem] = []
    axis = 0
    used_ellipsis = False
    for _ in range(draw(st.integers(0, len(shape) + 2))):
        kind = draw(st.sampled_from(["int", "slice", "none", "ellipsis"]))
        if kind == "none":
            items.append(None)
        elif kind == "ellipsis" and not used_ellipsis:
            items.append(Ellipsis)
            used_ellipsis = True
            axis = len(shape) - sum(1 for i in items if isinstance(i, (int, slice)))
        elif axis < len(shape) and kind == "int" and shape[axis] > 0:
            items.append(draw(st.integers(-shape[axis], shape[axis] - 1)))
            axis += 1
        elif axis < len(shape):
            items.append(slice(draw(bound), draw(bound), draw(step)))
            axis += 1
    # An Ellipsis may have used up axes that items after it index: drop extras.
    while sum(1 for i in items if isinstance(i, (int, slice))) > len(shape):
        items.pop()
    return x, tuple(items)


@settings(max_examples=20, deadline=None)
@given(basic_indices())
def test_random_basic_indices_match_numpy(case: tuple[np.ndarray[Any, Any], tuple[IndexItem, ...]]) -> None:
    x, index = case
    try:
        expected = x[index]
    except IndexError:  # an int on an axis an Ellipsis already covers
        with pytest.raises(IndexError):
            jnp.asarray(x)[index]
        return
    result = jnp.asarray(x)[index]
    assert result.shape == expected.shape
    np.testing.assert_array_equal(np.asarray(result), expected)


@settings(max_examples=20, deadline=None)
@given(
    st.integers(0, 5),
    st.none() | st.integers(-8, 8),
    st.none() | st.integers(-8, 8),
    st.none() | st.integers(-4, 4).filter(lambda s: s != 0),
)
def test_random_slices_match_numpy(size: int, start: int | None, stop: int | None, step: int | None) -> None:
    check(np.arange(size, dtype=np.float32), slice(start, stop, step))


# === integer scalar arrays as indices: JAX clamps ===


@pytest.mark.parametrize("value", [0, 2, -1, -3, 3, 5, -4, -5, 100, -100])
@pytest.mark.parametrize("dtype", ["int32", "int8", "uint8", "int16"])
def test_array_index_wraps_and_clamps_like_jax(value: int, dtype: str) -> None:
    if dtype == "uint8" and value < 0:
        return
    index = np.array(value).astype(dtype)
    candidates: list[Any] = [jnp.asarray(index), index]
    for as_index in candidates:  # a jaxtyped array and a NumPy scalar array
        result = jnp.arange(3)[as_index]
        expected = jax_numpy.arange(3)[jax_numpy.asarray(index)]
        assert int(result) == int(expected), (value, dtype)
        assert result.dtype == expected.dtype and result.shape == ()
    if dtype == "int32":
        x = np.arange(12.0, dtype=np.float32).reshape(3, 4)
        got = jnp.asarray(x)[jnp.asarray(index), 1:]
        np.testing.assert_array_equal(np.asarray(got), np.asarray(jax_numpy.asarray(x)[jax_numpy.asarray(index), 1:]))


@pytest.mark.parametrize("index", [3, 5, -4, 100, (0, 7), (Ellipsis, -9)], ids=repr)
def test_static_out_of_range_int_clamps_like_jax(index: Any) -> None:
    """JAX clamps static out-of-range ints as it clamps array indices (the
    brief this suite was written from expected NumPy's IndexError; the API
    contract says JAX's behaviour wins)."""
    expected = jax_numpy.arange(12).reshape(3, 4)[index]
    got = jnp.arange(12).reshape(3, 4)[index]
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))


def test_out_of_range_errors_that_jax_raises_too() -> None:
    # No axis length to clamp to (size 0), or more indices than axes.
    for index in ((0,), (1, 1, 1, 0)):
        with pytest.raises(IndexError) as info:
            jnp.zeros((0, 3) if index == (0,) else (3, 4))[index]
        assert isinstance(info.value, JaxtypedError)


# === traced indices: make_jaxpr, vmap, jvp ===

XT = np.arange(12.0, dtype=np.float32).reshape(3, 4)


def take(a: Any, i: Any) -> Any:
    return a[i]


def take_row_tail(a: jt.Array, i: jt.Array) -> jt.Array:
    return a[i, 1:]


def static_row(a: jt.Array) -> jt.Array:
    return a[1, ::-2]


def row_of_x(i: jt.Array) -> jt.Array:
    return jnp.asarray(XT)[i]


@pytest.mark.parametrize("value", [0, 2, -1, -3, 3, 7, -9])
def test_traced_scalar_index_under_make_jaxpr(value: int) -> None:
    """A traced integer index stages a dynamic_slice; evaluating the jaxpr
    gives JAX's (clamped) result."""
    x = jnp.asarray(XT)
    closed = jt.make_jaxpr(take_row_tail)(x, jnp.asarray(np.int32(value)))
    text = str(closed)
    assert "dynamic_slice" in text
    expected = jax_numpy.asarray(XT)[jax_numpy.asarray(np.int32(value)), 1:]
    (staged,) = jaxpr_as_fun(closed)(x, jnp.asarray(np.int32(value)))
    np.testing.assert_array_equal(np.asarray(staged), np.asarray(expected))
    eager = x[jnp.asarray(np.int32(value)), 1:]
    np.testing.assert_array_equal(np.asarray(eager), np.asarray(expected))


def test_python_int_index_is_static_under_make_jaxpr() -> None:
    closed = jt.make_jaxpr(static_row)(jnp.asarray(XT))
    assert "dynamic_slice" not in str(closed)


@pytest.mark.parametrize(
    "indices",
    [[0, 2, 1], [2, -1, -3], [5, -7, 0], [0, 0, 0]],
    ids=str,
)
def test_batched_index_under_vmap(indices: list[int]) -> None:
    """``vmap`` over an index array: one dynamic index per example (JAX's
    semantics, clamping included), against a Python loop and JAX."""
    x = jnp.asarray(XT)
    idx = np.array(indices, dtype=np.int32)
    got = jt.vmap(row_of_x)(jnp.asarray(idx))
    expected = jax.vmap(lambda i: jax_numpy.asarray(XT)[i])(jax_numpy.asarray(idx))  # pyright: ignore[reportUnknownLambdaType]  # JAX is untyped here
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))
    loop = np.stack([np.asarray(x[jnp.asarray(np.int32(i))]) for i in indices])
    np.testing.assert_array_equal(np.asarray(got), loop)


def test_batched_operand_and_index_under_vmap() -> None:
    idx = np.array([0, 3, -1], dtype=np.int32)
    got = jt.vmap(take)(jnp.asarray(XT), jnp.asarray(idx))
    expected = jax.vmap(take)(jax_numpy.asarray(XT), jax_numpy.asarray(idx))
    np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))


INDICES_OF_BATCHED: list[Any] = [1, (slice(None, None, -1), None), (Ellipsis, slice(1, 3)), (None, -1)]


@pytest.mark.parametrize("in_axes", [0, 1])
def test_basic_indexing_of_batched_operand(in_axes: int) -> None:
    for index in INDICES_OF_BATCHED:

        def fun(a: Any) -> Any:
            return a[index]  # noqa: B023 - used right away

        got = jt.vmap(fun, in_axes=in_axes)(jnp.asarray(XT.reshape(3, 2, 2)))
        expected = jax.vmap(fun, in_axes=in_axes)(jax_numpy.asarray(XT.reshape(3, 2, 2)))
        assert got.shape == expected.shape
        np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))


def test_jvp_of_indexing() -> None:
    x, t = jnp.asarray(XT), jnp.asarray(XT * 0.5)
    primal, tangent = jt.jvp(lambda a: a[1:, ::-2], (x,), (t,))
    np.testing.assert_array_equal(np.asarray(primal), XT[1:, ::-2])
    np.testing.assert_array_equal(np.asarray(tangent), (XT * 0.5)[1:, ::-2])
    primal, tangent = jt.jvp(lambda a: a[jnp.asarray(np.int32(-1))], (x,), (t,))
    np.testing.assert_array_equal(np.asarray(tangent), (XT * 0.5)[-1])


# === errors ===


def test_too_many_indices() -> None:
    with pytest.raises(IndexError, match="Too many indices"):
        jnp.zeros((2, 3))[0, 0, 0]
    with pytest.raises(IndexError, match="Too many indices"):
        jnp.zeros(())[0]
    with pytest.raises(IndexError):
        jax_numpy.zeros((2, 3))[0, 0, 0]


def test_two_ellipses() -> None:
    with pytest.raises(IndexError, match="single ellipsis"):
        jnp.zeros((2, 3))[..., 0, ...]


def test_list_index_is_a_type_error_like_jax() -> None:
    indices: list[Any] = [[0, 1], [[0, 1]], [slice(None), 0]]
    for index in indices:
        with pytest.raises(TypeError, match="non-tuple sequence"):
            jnp.zeros((2, 3))[index]
        with pytest.raises(TypeError):
            jax_numpy.zeros((2, 3))[index]


@pytest.mark.parametrize(
    "index",
    [
        pytest.param(1.0, id="float"),
        pytest.param("a", id="str"),
        pytest.param(slice(1.0, 2), id="float-slice"),
        pytest.param(np.array(1.0), id="float-array"),
        pytest.param(jnp.asarray(np.float32(1.0)), id="float-jnp-array"),
    ],
)  # fmt: skip
def test_non_integer_index_is_a_type_error_like_jax(index: Any) -> None:
    jax_index = index if not isinstance(index, jt.Array) else jax_numpy.asarray(np.asarray(index))
    with pytest.raises(TypeError):
        jax_numpy.zeros((2, 3))[jax_index]
    with pytest.raises(TypeError):
        jnp.zeros((2, 3))[index]


@pytest.mark.parametrize(
    "index",
    [(np.array([0, 1]),), (np.array([[1]]),), (0, np.array([0, 1])), (np.array([True, False]),)],
    ids=["int-vector", "int-matrix", "mixed", "bool-mask"],
)
def test_advanced_indexing_matches_jax(index: tuple[Any, ...]) -> None:
    """Integer/boolean array indices gather (more forms in
    test_jnp_advanced_indexing.py), with NumPy or jaxtyped index arrays."""
    x = jnp.zeros((2, 3)) + jnp.arange(3.0)
    expected = np.asarray((jax_numpy.zeros((2, 3)) + jax_numpy.arange(3.0))[index])
    as_jnp = tuple(i if isinstance(i, int) else jnp.asarray(i) for i in index)
    for idx in (index, as_jnp):
        result = x[idx]
        assert result.shape == expected.shape
        np.testing.assert_array_equal(np.asarray(result), expected)


@pytest.mark.parametrize("index", [True, False, np.array(True)], ids=repr)
def test_boolean_scalar_index(index: Any) -> None:
    expected = jax_numpy.asarray(XT)[index]
    result = jnp.asarray(XT)[index]
    assert result.shape == expected.shape


def test_concrete_array_slice_bounds() -> None:
    expected = jax_numpy.asarray(XT)[jax_numpy.asarray(1) : 3]
    result = jnp.asarray(XT)[jnp.asarray(1) : 3]
    np.testing.assert_array_equal(np.asarray(result), np.asarray(expected))


def slice_from(a: Any, i: Any) -> Any:
    return a[i:]


def test_traced_slice_bounds_are_a_clear_error() -> None:
    with pytest.raises((JaxtypedError, TypeError, IndexError)):
        jt.make_jaxpr(slice_from)(jnp.asarray(XT), 1)


def test_arrays_do_not_support_item_assignment() -> None:
    x = jnp.zeros(3)
    with pytest.raises(TypeError):
        x[0] = 1.0  # type: ignore[index]  # pyright: ignore[reportIndexIssue]  # deliberately ill-typed
    assert isinstance(JaxtypedIndexError("x"), IndexError)
