"""Lowering of gather, scatter and scatter-add (``lax/gather.py``):
``jt.jit`` results equal eager evaluation in every ``GatherScatterMode``
(clip; fill, with default and given fill values; promise_in_bounds), for
the dimension numbers that indexing and the vmap rules of the dynamic
slices produce (collapsed and window axes, batching dimensions, 0-d
operands, empty indices), over operand and index dtypes."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
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
GDN = lax.GatherDimensionNumbers
SDN = lax.ScatterDimensionNumbers
MODES = ("clip", "fill", "promise_in_bounds")

DTYPES: list[Any] = [
    np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.float16, ml_dtypes.bfloat16, np.float32, np.complex64,
]  # fmt: skip
INDEX_DTYPES: list[Any] = [np.int8, np.int16, np.int32, np.uint8, np.uint16, np.uint32]


def _data(shape: Sequence[int], dtype: Any, seed: int = 0) -> NDArray:
    """Small integer values of ``dtype``: sums are exact in any order."""
    values = np.random.default_rng(seed).integers(-9, 10, size=tuple(shape))
    dt = np.dtype(dtype)
    if dt == np.bool_:
        return (values % 2).astype(dt)
    if np.issubdtype(dt, np.unsignedinteger):
        return np.abs(values).astype(dt)
    if dt.kind == "c":
        return (values + 1j * values[::-1]).astype(dt)
    return values.astype(dt)


def _i(*rows: object) -> NDArray:
    return np.array(rows, dtype=np.int32)


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


# === gather ===


@dataclass(frozen=True)
class GatherCase:
    """An operand shape, start indices (some out of bounds), dimension
    numbers and slice sizes."""

    id: str
    shape: tuple[int, ...]
    indices: NDArray
    dnums: GDN
    slice_sizes: tuple[int, ...]


GATHERS = [
    # x[i] on a vector and on the rows / columns of a matrix.
    GatherCase("take_1d", (6,), _i([0], [5], [3], [-1], [6], [2]), GDN((), (0,), (0,)), (1,)),
    GatherCase("rows", (5, 4), _i([4], [0], [2], [7], [-2]), GDN((1,), (0,), (0,)), (1, 4)),
    GatherCase("cols", (3, 5), _i([1], [4], [9], [-3]), GDN((0,), (1,), (1,)), (3, 1)),
    # Points: a 2-d batch of index vectors, every operand axis collapsed.
    GatherCase("points", (4, 5), _i([[0, 0], [3, 4], [1, 2]], [[4, 0], [2, -1], [0, 5]]), GDN((), (0, 1), (0, 1)), (1, 1)),
    # Windows (vmap of dynamic_slice with batched starts): partly out of bounds.
    GatherCase("windows", (6, 7), _i([0, 0], [4, 4], [5, 6], [-1, 2], [3, 5]), GDN((1, 2), (), (0, 1)), (2, 3)),
    GatherCase("reversed_map", (6, 7), _i([0, 0], [3, 5], [1, 2], [9, 0]), GDN((1, 2), (), (1, 0)), (2, 3)),
    # Offset axes between the index batch axes.
    GatherCase("middle_axis", (4, 5, 6), _i([[1], [4]], [[0], [7]]), GDN((1, 3), (1,), (1,)), (4, 1, 6)),
    # take_along_axis, and vmap of dynamic_slice over operand and starts:
    # batching dimensions pair operand slices with index rows.
    GatherCase("along_axis", (3, 5), _i([[0], [4], [-1]], [[1], [3], [5]], [[4], [0], [9]]),
               GDN((), (1,), (1,), (0,), (0,)), (1, 1)),
    GatherCase("batched_windows", (3, 6, 5), _i([0, 1], [5, 4], [-2, 2]), GDN((1, 2), (), (1, 2), (0,), (0,)), (1, 2, 3)),
    GatherCase("batching_not_first", (3, 5, 2), np.array([[[i % 6 - 1]] * 3 for i in range(4)], np.int32),
               GDN((2,), (1,), (1,), (0,), (1,)), (1, 1, 2)),
    # Degenerate: a 0-d operand, no indices, empty windows, an empty axis.
    GatherCase("scalar_operand", (), np.zeros((3, 0), np.int32), GDN((), (), ()), ()),
    GatherCase("no_indices", (5, 4), np.zeros((0, 1), np.int32), GDN((1,), (0,), (0,)), (1, 4)),
    GatherCase("empty_window", (5, 4), _i([1], [7], [-1]), GDN((1,), (0,), (0,)), (1, 0)),
    GatherCase("empty_axis", (0, 4), _i([0], [1], [-1]), GDN((1, 2), (), (0,)), (0, 2)),
]  # fmt: skip


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", GATHERS, ids=[c.id for c in GATHERS])
def test_gather(case: GatherCase, mode: str) -> None:
    x = _data(case.shape, np.float32)
    _check(lambda x, i: lax.gather(x, i, case.dnums, case.slice_sizes, mode=mode), x, case.indices)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES, ids=[np.dtype(d).name for d in DTYPES])
def test_gather_operand_dtypes(dtype: Any, mode: str) -> None:
    """The default fill: NaN, the most negative or largest integer, True."""
    case = GATHERS[1]
    _check(lambda x, i: lax.gather(x, i, case.dnums, case.slice_sizes, mode=mode), _data(case.shape, dtype), case.indices)


@pytest.mark.parametrize(
    ("dtype", "fill"), [(np.float32, -1.5), (np.int8, 100), (np.uint8, 7), (np.bool_, False), (np.complex64, 2 - 1j)]
)
def test_gather_fill_value(dtype: Any, fill: Any) -> None:
    case = GATHERS[4]

    def f(x: jt.Array, i: jt.Array) -> jt.Array:
        return lax.gather(x, i, case.dnums, case.slice_sizes, mode="fill", fill_value=fill)

    _check(f, _data(case.shape, dtype), case.indices)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("index_dtype", INDEX_DTYPES, ids=[np.dtype(d).name for d in INDEX_DTYPES])
def test_gather_index_dtypes(index_dtype: Any, mode: str) -> None:
    """Indices of every integer dtype against an axis longer than ``int8``
    reaches: extremes, negative and huge unsigned values."""
    info = np.iinfo(index_dtype)
    values = [v for v in (info.min, -1, 0, 1, 127, 250, 298, 299, 300, info.max) if info.min <= v <= info.max]
    indices = np.array([[v, v % 3] for v in values], index_dtype)
    dnums = GDN((1,), (0,), (0, 1))
    _check(lambda x, i: lax.gather(x, i, dnums, (1, 2), mode=mode), _data((300, 4), np.float32), indices)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("index_dtype", [np.int64, np.uint64], ids=["int64", "uint64"])
def test_gather_64_bit_indices(index_dtype: Any, mode: str, x64: None) -> None:
    info = np.iinfo(index_dtype)
    values = [v for v in (info.min, -(2**40), -1, 0, 3, 4, 2**40, 2**63, info.max) if info.min <= v <= info.max]
    indices = np.array(values, index_dtype).reshape(-1, 1)
    dnums = GDN((1,), (0,), (0,))
    _check(lambda x, i: lax.gather(x, i, dnums, (1, 3), mode=mode), _data((5, 3), np.float64), indices)


def test_gather_sorted_unique_flags() -> None:
    dnums = GDN((1,), (0,), (0,))

    def f(x: jt.Array, i: jt.Array) -> jt.Array:
        return lax.gather(x, i, dnums, (1, 4), indices_are_sorted=True, unique_indices=True, mode="promise_in_bounds")

    x, indices = _data((6, 4), np.float32), _i([0], [2], [3], [5])
    _check(f, x, indices)
    text = jt.jit(f).lower(jnp.asarray(x), jnp.asarray(indices)).as_text()
    assert "stablehlo.gather" in text and "indices_are_sorted = true" in text, text


@pytest.mark.parametrize("mode", MODES)
def test_gather_matches_jax(mode: str) -> None:
    jax: Any = pytest.importorskip("jax")
    case = GATHERS[4]
    dn = case.dnums
    jax_dn = jax.lax.GatherDimensionNumbers(dn.offset_dims, dn.collapsed_slice_dims, dn.start_index_map)
    x = _data(case.shape, np.float32)
    f: Callable[[A, A], A] = lambda x, i: lax.gather(x, i, dn, case.slice_sizes, mode=mode)
    jax_f: Callable[[Any, Any], Any] = lambda x, i: jax.lax.gather(x, i, jax_dn, case.slice_sizes, mode=mode)
    ours = jt.jit(f)(jnp.asarray(x), jnp.asarray(case.indices))
    theirs = jax.jit(jax_f)(x, case.indices)
    _assert_same(ours, np.asarray(theirs))


# === scatter and scatter-add ===


@dataclass(frozen=True)
class ScatterCase:
    """An operand shape, scatter indices, updates shape and dimension
    numbers. Unless ``repeats``, the windows stay disjoint after clamping
    (XLA leaves the order of overlapping replacements unspecified)."""

    id: str
    shape: tuple[int, ...]
    indices: NDArray
    updates_shape: tuple[int, ...]
    dnums: SDN
    repeats: bool = False


SCATTERS = [
    ScatterCase("set_1d", (6,), _i([1], [3], [5]), (3,), SDN((), (0,), (0,))),
    ScatterCase("rows", (5, 4), _i([4], [0], [2]), (3, 4), SDN((1,), (0,), (0,))),
    ScatterCase("rows_oob", (5, 4), _i([-2], [2], [9], [3]), (4, 4), SDN((1,), (0,), (0,))),
    ScatterCase("cols", (3, 5), _i([1], [-1], [3]), (3, 3), SDN((0,), (1,), (1,))),
    # Windows partly out of bounds: clipped into bounds, or dropped whole.
    ScatterCase("windows", (6, 7), _i([0, 0], [4, 4], [5, 1], [2, 9]), (4, 2, 3), SDN((1, 2), (), (0, 1))),
    ScatterCase("points", (4, 5), _i([[0, 0], [3, 4], [1, 2]], [[2, 2], [0, 9], [3, 0]]), (2, 3), SDN((), (0, 1), (0, 1))),
    ScatterCase("batch_2d", (5, 4), _i([[1], [3]], [[-1], [9]]), (2, 2, 4), SDN((2,), (0,), (0,))),
    # Batching dimensions (vmap over operand and indices; dynamic_update_slice's rule).
    ScatterCase("along_axis", (3, 5), _i([[0], [4]], [[1], [-3]], [[7], [2]]), (3, 2), SDN((), (1,), (1,), (0,), (0,))),
    ScatterCase("batched_windows", (3, 6, 5), _i([0, 1], [5, 4], [-2, 2]), (3, 2, 3), SDN((1, 2), (), (1, 2), (0,), (0,))),
    ScatterCase("scalar_operand", (), np.zeros((1, 0), np.int32), (1,), SDN((), (), ())),
    ScatterCase("no_indices", (5, 4), np.zeros((0, 1), np.int32), (0, 4), SDN((1,), (0,), (0,))),
    ScatterCase("rows_repeated", (5, 4), _i([4], [0], [4], [9], [-1], [0]), (6, 4), SDN((1,), (0,), (0,)), repeats=True),
]  # fmt: skip
SCATTERS_UNIQUE = [c for c in SCATTERS if not c.repeats]


def _scatter_fun(add: bool, dnums: SDN, mode: str, **flags: bool) -> Callable[[A, A, A], A]:
    op = lax.scatter_add if add else lax.scatter
    return lambda x, i, u: op(x, i, u, dnums, mode=mode, **flags)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", SCATTERS, ids=[c.id for c in SCATTERS])
def test_scatter_add(case: ScatterCase, mode: str) -> None:
    x, u = _data(case.shape, np.float32), _data(case.updates_shape, np.float32, seed=1)
    _check(_scatter_fun(True, case.dnums, mode), x, case.indices, u)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", SCATTERS_UNIQUE, ids=[c.id for c in SCATTERS_UNIQUE])
def test_scatter(case: ScatterCase, mode: str) -> None:
    x, u = _data(case.shape, np.float32), _data(case.updates_shape, np.float32, seed=1)
    _check(_scatter_fun(False, case.dnums, mode), x, case.indices, u)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("dtype", DTYPES, ids=[np.dtype(d).name for d in DTYPES])
def test_scatter_operand_dtypes(dtype: Any, mode: str) -> None:
    case = SCATTERS[2]
    x, u = _data(case.shape, dtype), _data(case.updates_shape, dtype, seed=1)
    _check(_scatter_fun(False, case.dnums, mode), x, case.indices, u)
    if dtype != np.bool_:  # scatter-add rejects bool
        _check(_scatter_fun(True, case.dnums, mode), x, case.indices, u)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("index_dtype", INDEX_DTYPES, ids=[np.dtype(d).name for d in INDEX_DTYPES])
def test_scatter_add_index_dtypes(index_dtype: Any, mode: str) -> None:
    info = np.iinfo(index_dtype)
    values = [v for v in (info.min, -1, 0, 1, 127, 250, 298, 299, 300, info.max) if info.min <= v <= info.max]
    indices = np.array([[v, v % 3] for v in values], index_dtype)
    dnums = SDN((1,), (0,), (0, 1))
    x, u = _data((300, 4), np.float32), _data((len(values), 2), np.float32, seed=1)
    _check(_scatter_fun(True, dnums, mode), x, indices, u)


@pytest.mark.parametrize("index_dtype", [np.int8, np.uint8, np.uint32], ids=["int8", "uint8", "uint32"])
def test_scatter_narrow_unsigned_indices(index_dtype: Any) -> None:
    """Replace-scatter with indices that stay distinct when clipped."""
    indices = np.array([[0], [5], [255 if index_dtype != np.int8 else 127], [1]], index_dtype)
    dnums = SDN((1,), (0,), (0,))
    x, u = _data((300, 2), np.float32), _data((4, 2), np.float32, seed=1)
    for mode in MODES:
        _check(_scatter_fun(False, dnums, mode), x, indices, u)


@pytest.mark.parametrize("index_dtype", [np.int64, np.uint64], ids=["int64", "uint64"])
def test_scatter_64_bit_indices(index_dtype: Any, x64: None) -> None:
    info = np.iinfo(index_dtype)
    values = [v for v in (info.min, -1, 2, 4, 2**40, info.max) if info.min <= v <= info.max]
    indices = np.array(values, index_dtype).reshape(-1, 1)
    dnums = SDN((1,), (0,), (0,))
    x, u = _data((5, 3), np.float64), _data((len(values), 3), np.float64, seed=1)
    for mode in MODES:
        _check(_scatter_fun(True, dnums, mode), x, indices, u)


def test_scatter_sorted_unique_flags() -> None:
    case = SCATTERS[1]
    f = _scatter_fun(False, case.dnums, "promise_in_bounds", indices_are_sorted=True, unique_indices=True)
    indices = _i([0], [2], [4])
    x, u = _data(case.shape, np.float32), _data(case.updates_shape, np.float32, seed=1)
    _check(f, x, indices, u)
    text = jt.jit(f).lower(*(jnp.asarray(a) for a in (x, indices, u))).as_text()
    assert "stablehlo.scatter" in text and "unique_indices = true" in text, text


@pytest.mark.parametrize("mode", MODES)
def test_scatter_add_matches_jax(mode: str) -> None:
    jax: Any = pytest.importorskip("jax")
    case = SCATTERS[4]
    dn = case.dnums
    jax_dn = jax.lax.ScatterDimensionNumbers(dn.update_window_dims, dn.inserted_window_dims, dn.scatter_dims_to_operand_dims)
    x, u = _data(case.shape, np.float32), _data(case.updates_shape, np.float32, seed=1)
    ours = jt.jit(_scatter_fun(True, dn, mode))(*(jnp.asarray(a) for a in (x, case.indices, u)))
    jax_f: Callable[[Any, Any, Any], Any] = lambda x, i, u: jax.lax.scatter_add(x, i, u, jax_dn, mode=mode)
    theirs = jax.jit(jax_f)(x, case.indices, u)
    _assert_same(ours, np.asarray(theirs))


# === what the vmap and jvp rules produce, under jit ===


def test_vmap_of_dynamic_slice_with_batched_starts() -> None:
    """A clipping gather, with batching dimensions when the operand is
    batched too."""
    x, xs = _data((6, 5), np.float32), _data((4, 6, 5), np.float32)
    i, j = np.array([0, 5, -1, 9], np.int32), np.array([-3, 1, 4, 2], np.int8)
    f: Callable[[A, A, A], A] = lambda x, i, j: lax.dynamic_slice(x, (i, j), (2, 3))
    _check(jt.vmap(f, in_axes=(None, 0, 0)), x, i, j)
    _check(jt.vmap(f, in_axes=(0, 0, None)), xs, i, np.array(3, np.int8))
    _check(jt.vmap(f, in_axes=(0, 0, 0)), xs, i, j)


def test_vmap_of_dynamic_update_slice_with_batched_starts() -> None:
    """A clipping scatter with batching dimensions."""
    xs, u = _data((4, 6, 5), np.float32), _data((2, 3), np.float32, seed=1)
    i, j = np.array([0, 5, -1, 9], np.int32), np.array([253, 1, 4, 2], np.uint8)
    _check(jt.vmap(lambda x, u, i, j: lax.dynamic_update_slice(x, u, (i, j)), in_axes=(0, None, 0, 0)), xs, u, i, j)


def test_vmap_of_gather_and_scatter() -> None:
    case = GATHERS[1]
    xs, idx = _data((3, *case.shape), np.float32), np.stack([case.indices, case.indices[::-1], case.indices + 1])
    for mode in MODES:
        _check(jt.vmap(lambda x, i: lax.gather(x, i, case.dnums, case.slice_sizes, mode=mode)), xs, idx)
    s = SCATTERS[2]
    u = _data((3, *s.updates_shape), np.float32, seed=1)
    sidx = np.stack([s.indices, s.indices[::-1], s.indices])
    _check(jt.vmap(_scatter_fun(True, s.dnums, "fill")), xs, sidx, u)


@pytest.mark.parametrize("mode", MODES)
def test_jvp_of_gather_and_scatter(mode: str) -> None:
    """Gather's jvp (fill 0 where filled) and scatter's jvp through scatter
    ids, a clipping gather and masked scatter-adds."""
    g, s = GATHERS[4], SCATTERS[4]

    def f(x: jt.Array, t: jt.Array, u: jt.Array, tu: jt.Array) -> tuple[jt.Array, ...]:
        gathered = jt.jvp(lambda x: lax.gather(x, jnp.asarray(g.indices), g.dnums, g.slice_sizes, mode=mode), (x,), (t,))
        scattered = jt.jvp(lambda x, u: lax.scatter(x, jnp.asarray(s.indices), u, s.dnums, mode=mode), (x, u), (t, tu))
        return (*gathered, *scattered)

    x, t = _data((6, 7), np.float32), _data((6, 7), np.float32, seed=1)
    u, tu = _data(s.updates_shape, np.float32, seed=2), _data(s.updates_shape, np.float32, seed=3)
    args = [jnp.asarray(a) for a in (x, t, u, tu)]
    for ours, eager in zip(jt.jit(f)(*args), f(*args), strict=True):
        _assert_same(ours, eager)
