"""Lowering of the structural primitives (``lax/structural.py``):
``jt.jit`` results equal eager evaluation for broadcast_in_dim, reshape,
transpose, squeeze, expand_dims, rev, concatenate, pad, select_n and iota,
over dtypes, shapes (0-d, empty) and parameters."""

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
DTYPES_X64: list[Any] = [np.int64, np.uint64, np.float64, np.complex128]


def _rand(shape: Sequence[int], dtype: Any, seed: int = 0) -> NDArray:
    """Random data of ``dtype``; floats include NaN, infinities and -0.0."""
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
    for i, special in zip(range(flat.size), (np.nan, -0.0, np.inf, -np.inf)):
        flat[-1 - i] = special
    return values.astype(dt)


def _assert_same(actual: object, expected: object) -> None:
    """Same shape and dtype, and the same values (NaN where NaN)."""
    a, e = np.asarray(actual), np.asarray(expected)
    assert (a.shape, a.dtype) == (e.shape, e.dtype), (a.shape, a.dtype, e.shape, e.dtype)
    if a.dtype.kind in "fcV" or a.dtype == ml_dtypes.bfloat16:
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


def _ids(values: Sequence[Any]) -> list[str]:
    return [np.dtype(v).name for v in values]


def _spread(cases: Sequence[Any], dtypes: Sequence[Any], per_case: int = 3) -> list[Any]:
    """``(case, dtype)`` parameters: each case with ``per_case`` dtypes, the
    dtypes rotating so that together the cases cover all of them (a full
    product would cost a compile per pair for no new code path)."""
    params: list[Any] = []
    for i, case in enumerate(cases):
        for j in range(per_case):
            dtype = dtypes[(i * per_case + j) % len(dtypes)]
            params.append(pytest.param(case, dtype, id=f"{case}-{np.dtype(dtype).name}"))
    return params


# === broadcast_in_dim / reshape / transpose / squeeze / expand_dims / rev ===

BROADCASTS = [
    ((), (2, 3), ()),
    ((3,), (2, 3), (1,)),
    ((3,), (3, 2), (0,)),
    ((1, 3), (4, 2, 3), (1, 2)),
    ((2, 1), (2, 5), (0, 1)),
    ((0, 3), (2, 0, 3), (1, 2)),
    ((2, 3), (2, 3, 0), (0, 1)),
]


@pytest.mark.parametrize(("case", "dtype"), _spread(BROADCASTS, DTYPES))
def test_broadcast_in_dim(case: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]], dtype: Any) -> None:
    shape, out, dims = case
    _check(lambda x: lax.broadcast_in_dim(x, out, dims), _rand(shape, dtype))


RESHAPES: list[tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None]] = [
    ((2, 3, 4), (6, 4), None),
    ((2, 3, 4), (4, 6), (2, 0, 1)),
    ((2, 3), (3, 2), (1, 0)),
    ((), (1, 1), None),
    ((1, 1), (), None),
    ((6,), (2, 3), None),
    ((0, 3), (3, 0), None),
    ((0, 3), (3, 0), (1, 0)),
]


@pytest.mark.parametrize(("case", "dtype"), _spread(RESHAPES, DTYPES, 2))
def test_reshape(case: tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...] | None], dtype: Any) -> None:
    shape, new, dims = case
    _check(lambda x: lax.reshape(x, new, dims), _rand(shape, dtype))


@pytest.mark.parametrize(
    ("case", "dtype"), _spread([((2, 3), (1, 0)), ((2, 3, 4), (2, 0, 1)), ((2, 3, 4), (0, 2, 1)), ((0, 2, 1), (1, 2, 0))], DTYPES)
)
def test_transpose(case: tuple[tuple[int, ...], tuple[int, ...]], dtype: Any) -> None:
    shape, perm = case
    _check(lambda x: lax.transpose(x, perm), _rand(shape, dtype))


@pytest.mark.parametrize(
    ("case", "dtype"), _spread([((1,), (0,)), ((1, 3, 1), (0, 2)), ((2, 1, 3), (-2,)), ((1, 0, 1), (2,)), ((1, 1), (0, 1))], DTYPES, 2)
)
def test_squeeze(case: tuple[tuple[int, ...], tuple[int, ...]], dtype: Any) -> None:
    shape, dims = case
    _check(lambda x: lax.squeeze(x, dims), _rand(shape, dtype))


@pytest.mark.parametrize(
    ("case", "dtype"), _spread([((), (0,)), ((), (0, 1)), ((3,), (0, 2)), ((2, 3), (1,)), ((0, 2), (-1,))], DTYPES, 2)
)
def test_expand_dims(case: tuple[tuple[int, ...], tuple[int, ...]], dtype: Any) -> None:
    shape, dims = case
    _check(lambda x: lax.expand_dims(x, dims), _rand(shape, dtype))


@pytest.mark.parametrize(
    ("case", "dtype"), _spread([((5,), (0,)), ((2, 3, 4), (0, 2)), ((2, 3, 4), (1,)), ((3, 0), (0, 1)), ((2, 2), (0, 1))], DTYPES)
)
def test_rev(case: tuple[tuple[int, ...], tuple[int, ...]], dtype: Any) -> None:
    shape, dims = case
    _check(lambda x: lax.rev(x, dims), _rand(shape, dtype))


@pytest.mark.parametrize("dtype", DTYPES_X64, ids=_ids(DTYPES_X64))
def test_64_bit_dtypes(dtype: Any, x64: None) -> None:
    x = _rand((2, 3), dtype)
    _check(lambda x: lax.rev(lax.transpose(lax.broadcast_in_dim(x, (4, 2, 3), (1, 2)), (2, 0, 1)), (1,)), x)
    _check(lambda x: lax.pad(lax.reshape(x, (3, 2)), lax.convert_element_type(1, x.dtype), ((1, -1, 1), (0, 2, 0))), x)


# === concatenate ===

CONCATS: list[tuple[list[tuple[int, ...]], int]] = [
    ([(2,), (3,)], 0),
    ([(2, 3), (2, 1), (2, 4)], 1),
    ([(2, 3), (1, 3)], 0),
    ([(2, 0), (2, 3), (2, 0)], 1),
    ([(0, 3), (0, 3)], 0),
    ([(1, 2, 3), (1, 2, 2)], 2),
]


@pytest.mark.parametrize(("case", "dtype"), _spread(CONCATS, DTYPES))
def test_concatenate(case: tuple[list[tuple[int, ...]], int], dtype: Any) -> None:
    shapes, dim = case
    _check_var(lambda *xs: lax.concatenate(xs, dim), *(_rand(s, dtype, seed=i) for i, s in enumerate(shapes)))


# === pad ===

PADS: list[tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]]] = [
    ((), ()),
    ((5,), ((1, 2, 0),)),
    ((5,), ((0, 0, 2),)),
    ((5,), ((-2, -1, 0),)),
    ((5,), ((-3, 2, 1),)),
    ((5,), ((2, -6, 1),)),
    ((2, 3), ((1, -1, 2), (-1, 0, 1))),
    ((3, 4), ((-3, 1, 0), (0, 0, 3))),
    ((0, 3), ((1, 1, 2), (0, -1, 0))),
    ((1,), ((0, 0, 5),)),
    ((4,), ((-4, 0, 0),)),
]


@pytest.mark.parametrize(("case", "dtype"), _spread(PADS, DTYPES, 4))
def test_pad(case: tuple[tuple[int, ...], tuple[tuple[int, int, int], ...]], dtype: Any) -> None:
    shape, config = case
    _check(lambda x, v: lax.pad(x, v, config), _rand(shape, dtype), _rand((), dtype, seed=1))


def test_pad_matches_jax() -> None:
    jax: Any = pytest.importorskip("jax")
    x = _rand((4, 5), np.float32)
    config = ((-1, 2, 1), (2, -3, 2))
    f: Callable[[A], A] = lambda x: lax.pad(x, np.float32(7), config)
    ours = jt.jit(f)(jnp.asarray(x))
    theirs = jax.jit(lambda x: jax.lax.pad(x, np.float32(7), config))(x)  # pyright: ignore[reportUnknownLambdaType]  # JAX is untyped
    _assert_same(ours, np.asarray(theirs))


# === select_n ===


def _select_n(*args: A) -> A:
    """``select_n(which, *cases)`` as a function of any number of arrays."""
    return lax.select_n(args[0], *args[1:])


@pytest.mark.parametrize(("shape", "dtype"), _spread([(), (3, 4), (0, 2)], DTYPES))
def test_select_n_bool(shape: tuple[int, ...], dtype: Any) -> None:
    which = _rand(shape, np.bool_, seed=5)
    _check(lambda w, a, b: lax.select_n(w, a, b), which, _rand(shape, dtype, 1), _rand(shape, dtype, 2))


@pytest.mark.parametrize("dtype", [np.int8, np.float32, np.complex64], ids=_ids([np.int8, np.float32, np.complex64]))
def test_select_n_bool_scalar_which(dtype: Any) -> None:
    a, b = _rand((3, 4), dtype, 1), _rand((3, 4), dtype, 2)
    for which in (np.bool_(True), np.bool_(False)):
        _check(lambda w, a, b: lax.select_n(w, a, b), np.asarray(which), a, b)
    _check(lambda w, a: lax.select_n(w, a), np.asarray(True), a)


@pytest.mark.parametrize("which_dtype", [np.int32, np.int8, np.uint8, np.uint32], ids=_ids([np.int32, np.int8, np.uint8, np.uint32]))
@pytest.mark.parametrize("n", [1, 2, 3, 5, 7])
def test_select_n_int(n: int, which_dtype: Any) -> None:
    """Out-of-range indices pick the first (negative) or last case."""
    rng = np.random.default_rng(n)
    low = -3 if np.issubdtype(which_dtype, np.signedinteger) else 0
    which = rng.integers(low, n + 3, (4, 5)).astype(which_dtype)
    cases = [_rand((4, 5), np.float32, seed=k) for k in range(n)]
    _check_var(_select_n, which, *cases)


@pytest.mark.parametrize("dtype", [np.bool_, np.uint8, ml_dtypes.bfloat16, np.complex64], ids=_ids([np.bool_, np.uint8, ml_dtypes.bfloat16, np.complex64]))
def test_select_n_int_cases_dtypes(dtype: Any) -> None:
    which = np.random.default_rng(0).integers(-1, 5, (6,)).astype(np.int32)
    _check_var(_select_n, which, *(_rand((6,), dtype, seed=k) for k in range(4)))


def test_select_n_int_scalar_which() -> None:
    """A 0-d integer ``which`` against array cases: one compiled function
    evaluated at every index, in range and out of it."""
    cases = [jnp.asarray(_rand((2, 3), np.float32, seed=k)) for k in range(5)]
    f = jt.jit(_select_n)
    for w in (-2, 0, 1, 2, 3, 4, 9):
        which = jnp.asarray(np.int32(w))
        _assert_same(f(which, *cases), lax.select_n(which, *cases))


def test_select_n_int_wide_which(x64: None) -> None:
    which = np.array([-(2**40), 0, 1, 2, 2**40], np.int64)
    cases = [_rand((5,), np.float64, seed=k) for k in range(3)]
    _check_var(_select_n, which, *cases)
    _check_var(_select_n, np.array([0, 2, 7, 2**63], np.uint64), *(c[:4] for c in cases))


def test_select_n_int_matches_jax() -> None:
    jax: Any = pytest.importorskip("jax")
    which = np.random.default_rng(1).integers(-2, 7, (3, 4)).astype(np.int32)
    cases = [_rand((3, 4), np.float32, seed=k) for k in range(5)]
    ours = jt.jit(_select_n)(*(jnp.asarray(a) for a in (which, *cases)))
    theirs = jax.jit(jax.lax.select_n)(which, *cases)
    _assert_same(ours, np.asarray(theirs))


# === iota ===

IOTA_DTYPES: list[Any] = [
    np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32, np.float16, ml_dtypes.bfloat16, np.float32, np.complex64,
]  # fmt: skip


@pytest.mark.parametrize(
    ("case", "dtype"), _spread([((5,), 0), ((3, 4), 0), ((3, 4), 1), ((2, 0, 3), 2), ((0,), 0), ((2, 3, 4), 1)], IOTA_DTYPES, 4)
)
def test_iota(case: tuple[tuple[int, ...], int], dtype: Any) -> None:
    shape, dim = case
    _check(lambda: lax.broadcasted_iota(dtype, shape, dim))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.float16, ml_dtypes.bfloat16], ids=_ids([np.int8, np.uint8, np.float16, ml_dtypes.bfloat16]))
def test_iota_past_the_dtype_range(dtype: Any) -> None:
    """Narrow integers wrap and narrow floats round, eager and compiled alike."""
    _check(lambda: lax.iota(dtype, 3000))


@pytest.mark.parametrize("dtype", [np.int64, np.uint64, np.float64, np.complex128], ids=_ids([np.int64, np.uint64, np.float64, np.complex128]))
def test_iota_64_bit(dtype: Any, x64: None) -> None:
    _check(lambda: lax.broadcasted_iota(dtype, (3, 5), 1))


# === the emitted ops ===

LOWERED: list[tuple[str, Callable[[A], A], tuple[int, ...]]] = [
    ("stablehlo.broadcast_in_dim", lambda x: lax.broadcast_in_dim(x, (2, 3, 4), (1, 2)), (3, 4)),
    ("stablehlo.reshape", lambda x: lax.reshape(x, (4, 3)), (3, 4)),
    ("stablehlo.transpose", lambda x: lax.reshape(x, (4, 3), (1, 0)), (3, 4)),
    ("stablehlo.transpose", lambda x: lax.transpose(x, (1, 0)), (3, 4)),
    ("stablehlo.reshape", lambda x: lax.squeeze(x, (0,)), (1, 4)),
    ("stablehlo.reshape", lambda x: lax.expand_dims(x, (1,)), (3, 4)),
    ("stablehlo.reverse", lambda x: lax.rev(x, (1,)), (3, 4)),
    ("stablehlo.concatenate", lambda x: lax.concatenate([x, x], 1), (3, 4)),
    ("stablehlo.pad", lambda x: lax.pad(x, np.float32(0), ((1, -1, 1), (0, 0, 0))), (3, 4)),
    ("stablehlo.select", lambda x: lax.select_n(x > 0, x, -x), (3, 4)),
    ("stablehlo.iota", lambda x: x + lax.broadcasted_iota(np.float32, (3, 4), 1), (3, 4)),
]


@pytest.mark.parametrize("case", LOWERED, ids=[f"{op}-{i}" for i, (op, _, _) in enumerate(LOWERED)])
def test_lowered_text_names_the_op(case: tuple[str, Callable[[A], A], tuple[int, ...]]) -> None:
    op, f, shape = case
    text = jt.jit(f).lower(jnp.zeros(shape, np.float32)).as_text()
    assert op in text, text


def test_select_n_int_lowers_to_a_tree_of_selects() -> None:
    which, x = jnp.zeros((3,), np.int32), jnp.zeros((3,), np.float32)
    f: Callable[[A, A], A] = lambda w, x: lax.select_n(w, x, x + 1, x + 2, x + 3)
    text = jt.jit(f).lower(which, x).as_text()
    assert text.count("stablehlo.select") == 3 and "stablehlo.compare" in text, text


# === composed: vmap and jvp rules under jit ===


def test_vmap_of_pad_with_batched_padding_value() -> None:
    x, v = _rand((3, 4), np.float32), _rand((3,), np.float32, seed=1)
    _check(jt.vmap(lambda x, v: lax.pad(x, v, ((1, -1, 1),))), x, v)


def test_jvp_of_structural_chain() -> None:
    def f(x: jt.Array, t: jt.Array) -> jt.Array:
        g: Callable[[A], A] = lambda y: lax.rev(lax.pad(lax.transpose(y, (1, 0)), np.float32(0), ((1, 0, 1), (0, -1, 0))), (0,))
        return jt.jvp(g, (x,), (t,))[1]

    _check(f, _rand((3, 4), np.float32), _rand((3, 4), np.float32, seed=1))
