"""Lowering of the slicing primitives (``lax/slicing.py``): ``jt.jit``
results equal eager evaluation for ``slice`` (with strides),
``dynamic_slice`` and ``dynamic_update_slice`` (start indices of every
integer dtype, clamped into bounds as XLA does), and for ``x[index]``
through ``jaxtyped.numpy``."""

from collections.abc import Callable, Sequence
from typing import Any, Protocol, cast

import ml_dtypes
import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax

NDArray = np.ndarray[Any, np.dtype[Any]]
A = jt.Array
# The functions under test, of fixed arity (so lambdas' parameters are typed)
# or of any number of arrays.
Fun = Callable[[], A] | Callable[[A], A] | Callable[[A, A], A] | Callable[[A, A, A], A] | Callable[[A, A, A, A], A]


class VarFun(Protocol):
    """A function of any number of arrays."""

    def __call__(self, *args: A) -> A: ...

DTYPES: list[Any] = [
    np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.float16, ml_dtypes.bfloat16, np.float32, np.complex64,
]  # fmt: skip
INDEX_DTYPES: list[Any] = [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32]


def _rand(shape: Sequence[int], dtype: Any, seed: int = 0) -> NDArray:
    """Random data of ``dtype`` (floats include NaN and -0.0)."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    shape = tuple(shape)
    if dt == np.bool_:
        return rng.integers(0, 2, shape).astype(dt)
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, shape, dtype=dt, endpoint=True)
    values = rng.standard_normal(shape) * 10
    if dt.kind == "c":
        values = values + 1j * rng.standard_normal(shape)
    flat = values.reshape(-1)
    for i, special in zip(range(flat.size), (np.nan, -0.0)):
        flat[-1 - i] = special
    return values.astype(dt)


def _assert_same(actual: object, expected: object) -> None:
    """Same shape and dtype, and the same values (NaN where NaN)."""
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.shape, a.dtype) == (e.shape, e.dtype), (a.shape, a.dtype, e.shape, e.dtype)
    if a.dtype.kind in "fc" or a.dtype == ml_dtypes.bfloat16:
        wide = np.complex128 if a.dtype.kind == "c" else np.float64
        np.testing.assert_array_equal(a.astype(wide), e.astype(wide))
    else:
        np.testing.assert_array_equal(a, e)


def _check(f: Fun | VarFun, *args: NDArray) -> None:
    """``jt.jit(f)`` equals eager ``f`` on ``args``."""
    arrays = [jnp.asarray(a) for a in args]
    fun = cast(VarFun, f)  # called with as many arrays as it takes
    _assert_same(jt.jit(fun)(*arrays), fun(*arrays))


def _check_var(f: VarFun, *args: NDArray) -> None:
    """:func:`_check` for a function of any number of arrays."""
    _check(f, *args)


def _spread(cases: Sequence[Any], dtypes: Sequence[Any], per_case: int = 3) -> list[Any]:
    """``(case, dtype)`` parameters, each case with ``per_case`` dtypes that
    rotate so that the cases together cover all of them."""
    params: list[Any] = []
    for i, case in enumerate(cases):
        for j in range(per_case):
            dtype = dtypes[(i * per_case + j) % len(dtypes)]
            params.append(pytest.param(case, dtype, id=f"{case}-{np.dtype(dtype).name}"))
    return params


def _index_values(dtype: Any, extra: Sequence[int] = ()) -> list[int]:
    """Start indices of ``dtype``: its extremes, around zero, and ``extra``."""
    info = np.iinfo(dtype)
    wanted = {int(info.min), -3, -1, 0, 1, 2, 7, 250, 298, 299, 300, int(info.max), *extra}
    return sorted(v for v in wanted if info.min <= v <= info.max)


# === slice ===

SLICES: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...] | None]] = [
    ((7,), (1,), (5,), None),
    ((7,), (0,), (7,), (3,)),
    ((7,), (2,), (2,), None),
    ((7,), (6,), (7,), (4,)),
    ((4, 5), (1, 0), (4, 5), (2, 2)),
    ((4, 5), (0, 1), (3, 4), (5, 1)),
    ((0, 5), (0, 1), (0, 5), (1, 3)),
    ((2, 3, 4), (1, 0, 1), (2, 3, 4), (1, 2, 2)),
]


@pytest.mark.parametrize(("case", "dtype"), _spread(SLICES, DTYPES))
def test_slice(case: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...] | None], dtype: Any) -> None:
    shape, start, limit, strides = case
    _check(lambda x: lax.slice(x, start, limit, strides), _rand(shape, dtype))


# === dynamic_slice / dynamic_update_slice ===


@pytest.mark.parametrize("allow_negative", [True, False])
@pytest.mark.parametrize("index_dtype", INDEX_DTYPES, ids=[np.dtype(d).name for d in INDEX_DTYPES])
def test_dynamic_slice_index_dtypes(index_dtype: Any, allow_negative: bool) -> None:
    """Indices past the range of a narrow index dtype (an axis of 300 under
    ``int8``), negative and huge unsigned ones are clamped alike."""
    x = jnp.asarray(_rand((300, 4), np.float32))

    def f(x: jt.Array, i: jt.Array, j: jt.Array) -> jt.Array:
        return lax.dynamic_slice(x, (i, j), (3, 2), allow_negative_indices=allow_negative)

    compiled = jt.jit(f)
    for v in _index_values(index_dtype):
        i, j = jnp.asarray(np.array(v, index_dtype)), jnp.asarray(np.array(v // 100, index_dtype))
        _assert_same(compiled(x, i, j), f(x, i, j))


@pytest.mark.parametrize("allow_negative", [True, False])
@pytest.mark.parametrize("index_dtype", INDEX_DTYPES, ids=[np.dtype(d).name for d in INDEX_DTYPES])
def test_dynamic_update_slice_index_dtypes(index_dtype: Any, allow_negative: bool) -> None:
    x, update = jnp.asarray(_rand((300, 4), np.float32)), jnp.asarray(_rand((3, 2), np.float32, seed=1))

    def f(x: jt.Array, u: jt.Array, i: jt.Array, j: jt.Array) -> jt.Array:
        return lax.dynamic_update_slice(x, u, (i, j), allow_negative_indices=allow_negative)

    compiled = jt.jit(f)
    for v in _index_values(index_dtype):
        i, j = jnp.asarray(np.array(v, index_dtype)), jnp.asarray(np.array(v // 100, index_dtype))
        _assert_same(compiled(x, update, i, j), f(x, update, i, j))


@pytest.mark.parametrize("index_dtype", [np.int64, np.uint64], ids=["int64", "uint64"])
def test_dynamic_slicing_64_bit_indices(index_dtype: Any, x64: None) -> None:
    x, update = jnp.asarray(_rand((300, 4), np.float64)), jnp.asarray(_rand((3, 2), np.float64, seed=1))

    def f(x: jt.Array, u: jt.Array, i: jt.Array) -> tuple[jt.Array, jt.Array]:
        return lax.dynamic_slice(x, (i, 1), (3, 2)), lax.dynamic_update_slice(x, u, (i, i))

    compiled = jt.jit(f)
    for v in _index_values(index_dtype, (2**40, -(2**40), 2**63)):
        i = jnp.asarray(np.array(v, index_dtype))
        for ours, eager in zip(compiled(x, update, i), f(x, update, i), strict=True):
            _assert_same(ours, eager)


DYNAMIC: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]] = [
    # operand shape, slice sizes (= update shape), start indices
    ((), (), ()),
    ((6,), (2,), (5,)),
    ((6,), (6,), (-2,)),
    ((4, 5), (2, 3), (3, -1)),
    ((4, 5), (4, 0), (1, 2)),
    ((0, 3), (0, 2), (1, 1)),
    ((3, 4, 5), (1, 4, 2), (2, 9, -7)),
]


@pytest.mark.parametrize(("case", "dtype"), _spread(DYNAMIC, DTYPES))
def test_dynamic_slice(case: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], dtype: Any) -> None:
    shape, sizes, starts = case
    indices = [np.array(s, np.int32) for s in starts]
    _check_var(lambda *a: lax.dynamic_slice(a[0], a[1:], sizes), _rand(shape, dtype), *indices)


@pytest.mark.parametrize(("case", "dtype"), _spread(DYNAMIC, DTYPES))
def test_dynamic_update_slice(case: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], dtype: Any) -> None:
    shape, sizes, starts = case
    indices = [np.array(s, np.int32) for s in starts]
    _check_var(lambda *a: lax.dynamic_update_slice(a[0], a[1], a[2:]), _rand(shape, dtype), _rand(sizes, dtype, 1), *indices)


def test_dynamic_slicing_mixed_static_and_traced_indices() -> None:
    """Python ints (int32 constants) next to traced int8 and uint16 indices."""
    x, u = _rand((5, 300, 3), np.float32), _rand((2, 3, 1), np.float32, seed=1)
    i, j = np.array(-1, np.int8), np.array(299, np.uint16)
    _check(lambda x, i, j: lax.dynamic_slice(x, (i, j, 7), (2, 3, 1)), x, i, j)
    _check(lambda x, u, i, j: lax.dynamic_update_slice(x, u, (4, i, j)), x, u, i, j)


def test_dynamic_slicing_matches_jax() -> None:
    jax: Any = pytest.importorskip("jax")
    x, u = _rand((6, 5), np.float32), _rand((2, 3), np.float32, seed=1)
    ds: Callable[[A, A, A], A] = lambda x, i, j: lax.dynamic_slice(x, (i, j), (2, 3))
    dus: Callable[[A, A, A, A], A] = lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j))
    jax_ds: Callable[[Any, Any, Any], Any] = lambda x, i, j: jax.lax.dynamic_slice(x, (i, j), (2, 3))
    jax_dus: Callable[[Any, Any, Any, Any], Any] = lambda x, u, i, j: jax.lax.dynamic_update_slice(x, u, (i, j))
    for i, j in ((5, -1), (-9, 3), (2, 100)):
        ii, jj = np.int32(i), np.int32(j)
        ours = jt.jit(ds)(jnp.asarray(x), jnp.asarray(ii), jnp.asarray(jj))
        _assert_same(ours, np.asarray(jax.jit(jax_ds)(x, ii, jj)))
        ours = jt.jit(dus)(*(jnp.asarray(a) for a in (x, u, ii, jj)))
        _assert_same(ours, np.asarray(jax.jit(jax_dus)(x, u, ii, jj)))


def test_vmap_with_unbatched_indices() -> None:
    """vmap over the operand only keeps a dynamic_slice (a new zero start)."""
    x, u, i = _rand((3, 6, 5), np.float32), _rand((3, 2, 2), np.float32, seed=1), np.array(4, np.int8)
    _check(jt.vmap(lambda x, i: lax.dynamic_slice(x, (i, 1), (2, 4)), in_axes=(0, None)), x, i)
    _check(jt.vmap(lambda x, u, i: lax.dynamic_update_slice(x, u, (i, -1)), in_axes=(0, 0, None)), x, u, i)


# === indexing through jaxtyped.numpy ===

STATIC_INDICES: list[Any] = [
    (slice(1, None), None),
    slice(None, None, -1),
    (Ellipsis, slice(None, None, 2)),
    -1,
    (slice(None, None, -2), 1),
    (None, slice(3, 0, -1), Ellipsis, None),
    (slice(0, 0),),
]


@pytest.mark.parametrize("index", STATIC_INDICES, ids=repr)
def test_jnp_static_indexing(index: Any) -> None:
    x = _rand((4, 5), np.float32)
    f: Callable[[A], A] = lambda x: x[index]
    _check(f, x)
    np.testing.assert_array_equal(np.asarray(jt.jit(f)(jnp.asarray(x))), x[index])


def test_jnp_traced_integer_index() -> None:
    """``x[i]`` with a traced int: negative ones wrap, out-of-range ones clamp."""
    x = jnp.asarray(_rand((4, 5), np.float32))

    def f(x: jt.Array, i: jt.Array) -> tuple[jt.Array, jt.Array, jt.Array]:
        return x[i], x[1:, i], x[None, ::-1, i]

    compiled = jt.jit(f)
    for v in (-9, -4, -1, 0, 2, 3, 4, 11):
        i = jnp.asarray(np.int32(v))
        for ours, eager in zip(compiled(x, i), f(x, i), strict=True):
            _assert_same(ours, eager)


def test_jnp_traced_index_matches_jax() -> None:
    jax: Any = pytest.importorskip("jax")
    x = _rand((4, 5), np.float32)
    f: Callable[[A, A], A] = lambda x, i: x[i, ::-2]
    jax_f: Callable[[Any, Any], Any] = lambda x, i: x[i, ::-2]
    for v in (-6, -1, 3, 7):
        ours = jt.jit(f)(jnp.asarray(x), jnp.asarray(np.int32(v)))
        _assert_same(ours, np.asarray(jax.jit(jax_f)(x, np.int32(v))))


# === the emitted ops ===


def test_lowered_text_names_the_ops() -> None:
    x, i = jnp.zeros((6, 5), np.float32), jnp.asarray(np.int32(1))
    sliced: Callable[[A], A] = lambda x: x[1:, ::2]
    assert "stablehlo.slice" in jt.jit(sliced).lower(x).as_text()
    ds: Callable[[A, A], A] = lambda x, i: lax.dynamic_slice(x, (i, i), (2, 2))
    text = jt.jit(ds).lower(x, i).as_text()
    assert "stablehlo.dynamic_slice" in text, text
    dus: Callable[[A, A], A] = lambda x, i: lax.dynamic_update_slice(x, x[:2], (i, 0))
    text = jt.jit(dus).lower(x, i).as_text()
    assert "stablehlo.dynamic_update_slice" in text, text
