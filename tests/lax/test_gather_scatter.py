"""Tests of ``lax.gather``, ``lax.scatter`` and ``lax.scatter_add`` (real JAX
as the oracle), their jvp and batching rules, and of vmap over
``dynamic_slice`` / ``dynamic_update_slice`` / ``x[i]`` with batched indices,
which batch to gathers and scatters."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.core import eval_jaxpr
from jaxtyped.errors import JaxtypedTypeError

jax: Any = pytest.importorskip("jax")

NDArray = np.ndarray[Any, np.dtype[Any]]
GDN = lax.GatherDimensionNumbers
SDN = lax.ScatterDimensionNumbers
MODES = ("clip", "fill", "promise_in_bounds")


def _np(x: object) -> NDArray:
    return np.asarray(x)


def _jt(*arrays: NDArray) -> list[jt.Array]:
    """The arrays as jaxtyped Arrays (what the annotated test functions take)."""
    return [jnp.asarray(a) for a in arrays]


def _data(shape: Sequence[int], dtype: Any = np.float32, seed: int = 0) -> NDArray:
    """Small integer-valued data, so sums are exact in any order."""
    return np.random.default_rng(seed).integers(-9, 10, size=tuple(shape)).astype(dtype)


def _jax_gdn(dn: GDN) -> Any:
    return jax.lax.GatherDimensionNumbers(
        dn.offset_dims, dn.collapsed_slice_dims, dn.start_index_map,
        dn.operand_batching_dims, dn.start_indices_batching_dims,
    )


def _jax_sdn(dn: SDN) -> Any:
    return jax.lax.ScatterDimensionNumbers(
        dn.update_window_dims, dn.inserted_window_dims, dn.scatter_dims_to_operand_dims,
        dn.operand_batching_dims, dn.scatter_indices_batching_dims,
    )


def _close(actual: object, expected: object, tol: float = 0.0) -> None:
    a, e = _np(actual), _np(expected)
    assert a.shape == e.shape and a.dtype == e.dtype, (a.shape, a.dtype, e.shape, e.dtype)
    np.testing.assert_allclose(a.astype(np.complex128), e.astype(np.complex128), rtol=tol, atol=tol)


# === the configuration tables ===


@dataclass(frozen=True)
class GatherCase:
    """An operand shape, start indices (some out of bounds), dimension
    numbers and slice sizes."""

    id: str
    shape: tuple[int, ...]
    indices: NDArray
    dnums: GDN
    slice_sizes: tuple[int, ...]


def _i(*rows: object) -> NDArray:
    return np.array(rows, dtype=np.int32)


GATHER_CASES = [
    # JAX's docstring example: x[indices] on a vector.
    GatherCase("take_1d", (3,), _i([0], [1], [1], [2], [2], [2], [-1], [3]), GDN((), (0,), (0,)), (1,)),
    # numpy-style take along axis 0 and axis 1.
    GatherCase("take_rows", (5, 4), _i([4], [0], [2], [7], [-2]), GDN((1,), (0,), (0,)), (1, 4)),
    GatherCase("take_cols", (3, 5), _i([1], [4], [9], [-3]), GDN((0,), (1,), (1,)), (3, 1)),
    # Points of a matrix, a 2-d batch of index vectors.
    GatherCase("points", (4, 5), _i([[0, 0], [3, 4], [1, 2]], [[4, 0], [2, -1], [0, 5]]), GDN((), (0, 1), (0, 1)), (1, 1)),
    # Windows: no collapsed dims, reversed index map, offset dims between batch dims.
    GatherCase("windows", (6, 7), _i([0, 0], [4, 4], [5, 6], [-1, 2]), GDN((1, 2), (), (0, 1)), (2, 3)),
    GatherCase("reversed_map", (6, 7), _i([0, 0], [3, 5], [1, 2], [9, 0]), GDN((1, 2), (), (1, 0)), (2, 3)),
    GatherCase("middle_axis", (4, 5, 6), _i([[1], [4]], [[0], [7]]), GDN((1, 3), (1,), (1,)), (4, 1, 6)),
    GatherCase("offset_inside", (5, 6), _i([[0], [4], [2]], [[1], [-1], [6]]), GDN((1,), (0,), (0,)), (1, 6)),
    # take_along_axis: batching dims pair operand rows with index rows.
    GatherCase("along_axis", (3, 5), _i([[0], [4], [2], [-1]], [[1], [1], [3], [5]], [[4], [0], [9], [2]]),
               GDN((), (1,), (1,), (0,), (0,)), (1, 1)),
    GatherCase("batching_not_first", (3, 5, 2), np.array([[[i % 6 - 1]] * 3 for i in range(4)], np.int32),
               GDN((2,), (1,), (1,), (0,), (1,)), (1, 1, 2)),
    GatherCase("empty_indices", (5, 4), np.zeros((0, 1), np.int32), GDN((1,), (0,), (0,)), (1, 4)),
    GatherCase("int8_indices", (5, 4), np.array([[1], [-128], [127]], np.int8), GDN((1,), (0,), (0,)), (1, 2)),
]  # fmt: skip


@dataclass(frozen=True)
class ScatterCase:
    """An operand shape, scatter indices, updates shape and dimension
    numbers. ``unique`` marks indices whose clamped windows never overlap."""

    id: str
    shape: tuple[int, ...]
    indices: NDArray
    updates_shape: tuple[int, ...]
    dnums: SDN
    unique: bool


SCATTER_CASES = [
    # JAX's docstring example: x.at[indices].set(values).
    ScatterCase("set_1d", (5,), _i([1], [2], [4]), (3,), SDN((), (0,), (0,)), True),
    ScatterCase("set_1d_oob", (5,), _i([1], [-1], [4], [7]), (4,), SDN((), (0,), (0,)), False),
    ScatterCase("rows", (5, 4), _i([4], [0], [2]), (3, 4), SDN((1,), (0,), (0,)), True),
    ScatterCase("rows_repeated", (5, 4), _i([4], [0], [4], [9], [-1], [0]), (6, 4), SDN((1,), (0,), (0,)), False),
    ScatterCase("cols", (3, 5), _i([1], [4]), (3, 2), SDN((0,), (1,), (1,)), True),
    ScatterCase("windows", (6, 7), _i([0, 0], [3, 4], [5, 6], [-1, 2]), (4, 2, 3), SDN((1, 2), (), (0, 1)), False),
    ScatterCase("windows_disjoint", (6, 7), _i([0, 0], [4, 4]), (2, 2, 3), SDN((1, 2), (), (0, 1)), True),
    ScatterCase("points", (4, 5), _i([[0, 0], [3, 4], [1, 2]], [[2, 2], [0, 1], [3, 0]]), (2, 3), SDN((), (0, 1), (0, 1)), True),
    ScatterCase("along_axis", (3, 5), _i([[0], [4]], [[1], [3]], [[4], [0]]), (3, 2),
                SDN((), (1,), (1,), (0,), (0,)), True),
    ScatterCase("along_axis_oob", (3, 5), _i([[0], [7]], [[1], [1]], [[-2], [0]]), (3, 2),
                SDN((), (1,), (1,), (0,), (0,)), False),
]  # fmt: skip


def _gather_ids(cases: Sequence[GatherCase]) -> list[str]:
    return [c.id for c in cases]


# === gather and scatter against JAX ===


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", GATHER_CASES, ids=_gather_ids(GATHER_CASES))
def test_gather_matches_jax(case: GatherCase, mode: str) -> None:
    x = _data(case.shape)
    ours = lax.gather(x, case.indices, case.dnums, case.slice_sizes, mode=mode)
    theirs = jax.lax.gather(x, case.indices, _jax_gdn(case.dnums), case.slice_sizes, mode=mode)
    _close(ours, theirs)


@pytest.mark.parametrize(
    ("dtype", "fill"),
    [(np.float32, None), (np.float32, -1.5), (np.int32, None), (np.uint8, None), (np.bool_, None), (np.int32, 7)],
)
def test_gather_fill_values(dtype: Any, fill: float | None) -> None:
    case = GATHER_CASES[1]
    x = _data(case.shape, dtype)
    ours = lax.gather(x, case.indices, case.dnums, case.slice_sizes, mode="fill", fill_value=fill)
    theirs = jax.lax.gather(x, case.indices, _jax_gdn(case.dnums), case.slice_sizes, mode="fill", fill_value=fill)
    _close(ours, theirs)


def test_gather_default_mode_clamps_like_jax() -> None:
    case = GATHER_CASES[1]
    x = _data(case.shape)
    ours = lax.gather(x, case.indices, case.dnums, case.slice_sizes)
    _close(ours, jax.lax.gather(x, case.indices, _jax_gdn(case.dnums), case.slice_sizes))


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("case", SCATTER_CASES, ids=[c.id for c in SCATTER_CASES])
def test_scatter_add_matches_jax(case: ScatterCase, mode: str) -> None:
    x, updates = _data(case.shape), _data(case.updates_shape, seed=1)
    ours = lax.scatter_add(x, case.indices, updates, case.dnums, mode=mode)
    theirs = jax.lax.scatter_add(x, case.indices, updates, _jax_sdn(case.dnums), mode=mode)
    _close(ours, theirs)


@pytest.mark.parametrize("mode", ["clip", "fill", None])
@pytest.mark.parametrize("case", [c for c in SCATTER_CASES if c.unique], ids=[c.id for c in SCATTER_CASES if c.unique])
def test_scatter_matches_jax(case: ScatterCase, mode: str | None) -> None:
    x, updates = _data(case.shape), _data(case.updates_shape, seed=1)
    ours = lax.scatter(x, case.indices, updates, case.dnums, mode=mode)
    theirs = jax.lax.scatter(x, case.indices, updates, _jax_sdn(case.dnums), mode=mode)
    _close(ours, theirs)


def test_scatter_drops_out_of_bounds_windows_like_jax() -> None:
    # Out-of-bounds windows are dropped, so the remaining ones do not overlap.
    for case in (SCATTER_CASES[1], SCATTER_CASES[9]):
        x, updates = _data(case.shape), _data(case.updates_shape, seed=1)
        ours = lax.scatter(x, case.indices, updates, case.dnums, mode="fill")
        theirs = jax.lax.scatter(x, case.indices, updates, _jax_sdn(case.dnums), mode="fill")
        _close(ours, theirs)


def test_scatter_repeated_indices_last_update_wins() -> None:
    x = np.zeros(4, np.float32)
    out = lax.scatter(x, _i([1], [1], [3]), np.array([5.0, 6.0, 7.0], np.float32), SDN((), (0,), (0,)))
    _close(out, np.array([0.0, 6.0, 0.0, 7.0], np.float32))


def test_scatter_python_scalar_update_and_bool_operand() -> None:
    dn = SDN((), (0,), (0,))
    # One index vector, so the update is a scalar: a Python float adopts f16.
    _close(lax.scatter(np.zeros(3, np.float16), np.array([1], np.int32), 2.0, dn), np.array([0, 2, 0], np.float16))
    flags = lax.scatter(np.zeros(3, np.bool_), _i([2]), np.array([True]), dn)
    _close(flags, np.array([False, False, True]))


# === errors ===


@pytest.mark.parametrize(
    ("call", "match"),
    [
        (lambda: lax.gather(np.zeros((3, 4), np.float32), _i([0]), GDN((1,), (0,), (0, 1)), (1, 4)),
         r"gather with dimension_numbers=GatherDimensionNumbers\(offset_dims=\(1,\).*\(f32\[3,4\], i32\[1,1\]\).*start_index_map"),
        (lambda: lax.gather(np.zeros((3, 4), np.float32), np.zeros((1, 1), np.float32), GDN((1,), (0,), (0,)), (1, 4)),
         r"integer dtype.*f32\[1,1\]"),
        (lambda: lax.gather(np.zeros((3, 4), np.float32), _i([0]), GDN((1,), (0,), (0,)), (2, 4)),
         r"collapsed_slice_dims must have slice size 1"),
        (lambda: lax.gather(np.zeros((3, 4), np.float32), _i([0]), GDN((1,), (0,), (0,)), (1, 5)),
         r"slice sizes must be within"),
        (lambda: lax.gather(np.zeros((3, 4), np.float32), _i([0]), GDN((2,), (0,), (0,)), (1, 4)),
         r"offset_dims \(2,\) out of range"),
        (lambda: lax.gather(np.zeros((3, 4), np.float32), _i([0], [0]), GDN((1,), (), (1,), (0,), (0,)), (1, 4)),
         r"batching dimensions have sizes \(3,\).*\(2,\)"),
        (lambda: lax.scatter_add(np.zeros(3, np.float32), _i([0]), np.zeros(1, np.int32), SDN((), (0,), (0,))),
         r"scatter-add with dimension_numbers=ScatterDimensionNumbers.*f32\[3\], i32\[1,1\], i32\[1\]"),
        (lambda: lax.scatter(np.zeros(3, np.float32), _i([0], [1]), np.zeros(3, np.float32), SDN((), (0,), (0,))),
         r"scatter axes of updates have sizes \(3,\).*\(2,\)"),
        (lambda: lax.scatter(np.zeros((3, 2), np.float32), _i([0]), np.zeros((1, 3), np.float32), SDN((1,), (0,), (0,))),
         r"do not fit the operand"),
        (lambda: lax.scatter_add(np.zeros(3, np.bool_), _i([0]), np.zeros(1, np.bool_), SDN((), (0,), (0,))),
         r"does not accept dtype bool"),
    ],
)  # fmt: skip
def test_shape_errors(call: Callable[[], object], match: str) -> None:
    with pytest.raises(JaxtypedTypeError, match=match):
        call()


def test_unknown_mode() -> None:
    with pytest.raises(ValueError, match="Unknown gather mode"):
        lax.gather(np.zeros(3, np.float32), _i([0]), GDN((), (0,), (0,)), (1,), mode="wrap")


# === jvp ===


def _finite_difference(f: Callable[..., jt.Array], args: Sequence[NDArray], tangents: Sequence[NDArray]) -> NDArray:
    eps = 1e-6
    plus = f(*_jt(*(a + eps * t for a, t in zip(args, tangents))))
    minus = f(*_jt(*(a - eps * t for a, t in zip(args, tangents))))
    return (_np(plus) - _np(minus)) / (2 * eps)


def _check_jvp(f: Callable[..., jt.Array], args: Sequence[NDArray], seed: int = 3) -> None:
    rng = np.random.default_rng(seed)
    tangents: list[NDArray] = [np.asarray(rng.normal(size=np.shape(a))) for a in args]
    out, tangent = jt.jvp(f, tuple(_jt(*args)), tuple(_jt(*tangents)))
    _close(out, f(*_jt(*args)))
    np.testing.assert_allclose(_np(tangent), _finite_difference(f, args, tangents), rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("mode", ["clip", "promise_in_bounds"])
@pytest.mark.parametrize("case", GATHER_CASES, ids=_gather_ids(GATHER_CASES))
def test_gather_jvp(case: GatherCase, mode: str, x64: None) -> None:
    def f(x: jt.Array) -> jt.Array:
        return jnp.sin(lax.gather(x * x, case.indices, case.dnums, case.slice_sizes, mode=mode))

    _check_jvp(f, [_data(case.shape, np.float64) / 3])


def test_gather_jvp_fill_matches_jax(x64: None) -> None:
    case = GATHER_CASES[1]
    x, t = _data(case.shape, np.float64), _data(case.shape, np.float64, seed=2)

    def f(x: Any) -> Any:
        return lax.gather(x, case.indices, case.dnums, case.slice_sizes, mode="fill")

    def g(x: Any) -> Any:
        return jax.lax.gather(x, case.indices, _jax_gdn(case.dnums), case.slice_sizes, mode="fill")

    ours, theirs = jt.jvp(f, (x,), (t,)), jax.jvp(g, (x,), (t,))
    _close(ours[0], theirs[0])
    _close(ours[1], theirs[1])  # filled windows have zero tangent, not NaN


@pytest.mark.parametrize("case", SCATTER_CASES, ids=[c.id for c in SCATTER_CASES])
def test_scatter_add_jvp(case: ScatterCase, x64: None) -> None:
    def f(x: jt.Array, u: jt.Array) -> jt.Array:
        return lax.scatter_add(x * x, case.indices, jnp.sin(u), case.dnums, mode="clip")

    _check_jvp(f, [_data(case.shape, np.float64) / 3, _data(case.updates_shape, np.float64, seed=1) / 3])


# unique_indices=True (the simple jvp) only where the indices keep that promise.
SCATTER_JVP_PARAMS = [(c, u) for c in SCATTER_CASES for u in (False, True) if c.unique or not u]


@pytest.mark.parametrize("mode", ["clip", "fill"])
@pytest.mark.parametrize(("case", "unique"), SCATTER_JVP_PARAMS, ids=[f"{c.id}-unique={u}" for c, u in SCATTER_JVP_PARAMS])
def test_scatter_jvp(case: ScatterCase, unique: bool, mode: str, x64: None) -> None:
    def f(x: jt.Array, u: jt.Array) -> jt.Array:
        out = lax.scatter(x * x, case.indices, jnp.sin(u), case.dnums, mode=mode, unique_indices=unique)
        return out * 2.0

    _check_jvp(f, [_data(case.shape, np.float64) / 3, _data(case.updates_shape, np.float64, seed=1) / 3])


def test_scatter_jvp_matches_jax_with_repeats(x64: None) -> None:
    case = SCATTER_CASES[3]  # repeated, out-of-bounds rows: JAX's id-based jvp applies
    x, u = _data(case.shape, np.float64), _data(case.updates_shape, np.float64, seed=1)
    tx, tu = _data(case.shape, np.float64, seed=5), _data(case.updates_shape, np.float64, seed=6)

    def f(x: jt.Array, u: jt.Array) -> jt.Array:
        return lax.scatter(x, case.indices, u, case.dnums, mode="fill")

    def g(x: Any, u: Any) -> Any:
        return jax.lax.scatter(x, case.indices, u, _jax_sdn(case.dnums), mode="fill")

    ours = jt.jvp(f, (jnp.asarray(x), jnp.asarray(u)), (jnp.asarray(tx), jnp.asarray(tu)))
    theirs = jax.jvp(g, (x, u), (tx, tu))
    # Which repeated update wins is unspecified; both sides pick consistently.
    rows = [1, 2, 3]  # rows no repeated index writes to
    _close(_np(ours[0])[rows], _np(theirs[0])[rows])
    _close(_np(ours[1])[rows], _np(theirs[1])[rows])
    np.testing.assert_array_equal(np.isin(_np(ours[1])[4], [tu[0], tu[2]]), True)


# === vmap ===


def _loop(f: Callable[..., object], args: Sequence[NDArray], axes: Sequence[int | None]) -> NDArray:
    """``f`` applied to one batch element at a time (elements as arrays, so
    a scalar index stays a traced-style array index)."""
    size = next(a.shape[ax] for a, ax in zip(args, axes) if ax is not None)
    results = [
        _np(f(*_jt(*(a if ax is None else np.take(a, k, axis=ax) for a, ax in zip(args, axes)))))
        for k in range(size)
    ]
    return np.stack(results)


def _vmap(f: Callable[..., jt.Array], args: Sequence[NDArray], axes: Sequence[int | None]) -> jt.Array:
    return jt.vmap(f, in_axes=tuple(axes))(*_jt(*args))


def _check_vmap(f: Callable[..., jt.Array], args: Sequence[NDArray], axes: Sequence[int | None]) -> None:
    _close(_vmap(f, args, axes), _loop(f, args, axes))


def _stack_indices(indices: NDArray, size: int, seed: int, axis: int) -> NDArray:
    """``size`` perturbed copies of ``indices`` (some out of bounds), along ``axis``."""
    rng = np.random.default_rng(seed)
    copies: list[NDArray] = []
    for _ in range(size):
        noise: NDArray = np.asarray(rng.integers(-2, 3, size=indices.shape), dtype=indices.dtype)
        copies.append(indices + noise)
    return np.stack(copies, axis=axis)


AXES = [(0, None), (None, 0), (0, 0), (1, 0), (2, 1)]


@pytest.mark.parametrize("mode", ["clip", "fill"])
@pytest.mark.parametrize("axes", AXES, ids=str)
@pytest.mark.parametrize("case", GATHER_CASES[:10], ids=_gather_ids(GATHER_CASES[:10]))
def test_gather_vmap(case: GatherCase, axes: tuple[int | None, int | None], mode: str) -> None:
    x_axis, i_axis = axes
    x = _data(case.shape) if x_axis is None else np.stack([_data(case.shape, seed=k) for k in range(3)], min(x_axis, len(case.shape)))
    idx = case.indices if i_axis is None else _stack_indices(case.indices, 3, 4, min(i_axis, case.indices.ndim))

    def f(x: jt.Array, i: jt.Array) -> jt.Array:
        return lax.gather(x, i, case.dnums, case.slice_sizes, mode=mode)

    _check_vmap(f, [x, idx], [None if x_axis is None else min(x_axis, len(case.shape)),
                             None if i_axis is None else min(i_axis, case.indices.ndim)])


def _batched(a: NDArray, axis: int | None, seed: int) -> NDArray:
    if axis is None:
        return a
    return np.stack([_data(a.shape, a.dtype, seed=seed + k) for k in range(3)], min(axis, a.ndim))


ScatterAxes = tuple[int | None, int | None, int | None]
SCATTER_AXES: list[ScatterAxes] = [(0, None, None), (None, 0, None), (None, None, 0), (0, 0, 0), (1, None, 1), (None, 1, 0)]
# scatter (replace) only on windows that never overlap (perturbed indices may,
# and then which update wins is unspecified).
SCATTER_VMAP_PARAMS = [
    (c, axes, prim)
    for c in SCATTER_CASES
    for axes in SCATTER_AXES
    for prim in ("scatter", "scatter_add")
    if prim == "scatter_add" or (c.unique and axes[1] is None)
]


@pytest.mark.parametrize(
    ("case", "axes", "prim"), SCATTER_VMAP_PARAMS, ids=[f"{c.id}-{a}-{p}" for c, a, p in SCATTER_VMAP_PARAMS]
)
def test_scatter_vmap(case: ScatterCase, axes: ScatterAxes, prim: str) -> None:
    x_axis, i_axis, u_axis = axes
    op = lax.scatter if prim == "scatter" else lax.scatter_add
    x = _batched(_data(case.shape), x_axis, 10)
    u = _batched(_data(case.updates_shape, seed=1), u_axis, 20)
    idx = case.indices if i_axis is None else _stack_indices(case.indices, 3, 4, min(i_axis, case.indices.ndim))
    args = [x, idx, u]
    in_axes = [None if ax is None else min(ax, a.ndim - 1) for a, ax in zip(args, axes)]

    def f(x: jt.Array, i: jt.Array, u: jt.Array) -> jt.Array:
        return op(x, i, u, case.dnums, mode="fill")

    _check_vmap(f, args, in_axes)


def test_nested_vmap_and_jvp_of_vmap(x64: None) -> None:
    case = GATHER_CASES[8]  # take_along_axis, with batching dims already
    xs = np.stack([_data(case.shape, np.float64, seed=k) for k in range(2)])
    idx = np.stack([_stack_indices(case.indices, 2, k, 0) for k in range(2)])

    def f(x: jt.Array, i: jt.Array) -> jt.Array:
        return lax.gather(x, i, case.dnums, case.slice_sizes, mode="clip")

    nested = _vmap(jt.vmap(f, in_axes=(None, 0)), [xs, idx], [0, 0])
    expected = np.stack([np.stack([_np(f(*_jt(xs[a], idx[a, b]))) for b in range(2)]) for a in range(2)])
    _close(nested, expected)
    first = jnp.asarray(idx[:, 0])

    def g(x: jt.Array) -> jt.Array:
        return jt.vmap(f)(x * x, first)

    _, tangent = jt.jvp(g, (jnp.asarray(xs),), (jnp.ones(xs.shape, xs.dtype),))
    _close(tangent, _vmap(f, [2 * xs, idx[:, 0]], [0, 0]))


# === staged vs eager ===


def test_staged_matches_eager() -> None:
    g, s = GATHER_CASES[8], SCATTER_CASES[5]
    x, u = _data(s.shape), _data(s.updates_shape, seed=1)

    # Functions given to make_jaxpr return Any: under JAXTYPED_DEBUG=1 the
    # staged wrapper is checked against the wrapped function's annotations.
    def f(x: jt.Array, u: jt.Array) -> Any:
        gathered = lax.gather(x[:3, :5], g.indices, g.dnums, g.slice_sizes, mode="fill", fill_value=0.5)
        added = lax.scatter_add(x, s.indices, u, s.dnums, mode="clip")
        replaced = lax.scatter(x, s.indices, u, s.dnums)
        return gathered, added, replaced

    args = _jt(x, u)
    closed = jt.make_jaxpr(f)(*args)
    text = str(closed)
    assert "gather[" in text and "scatter-add[" in text and "mode=GatherScatterMode.CLIP" in text
    for a, b in zip(eval_jaxpr(closed.jaxpr, closed.consts, *args), f(*args), strict=True):
        _close(a, b)


def test_staged_jvp_and_vmap_of_scatter_match_eager() -> None:
    s = SCATTER_CASES[3]
    x, u = _data(s.shape), _data(s.updates_shape, seed=1)

    def scatter(a: jt.Array, b: jt.Array) -> jt.Array:
        return lax.scatter(a, s.indices, b, s.dnums)

    def f(x: jt.Array, u: jt.Array) -> Any:  # Any: see test_staged_matches_eager
        return jt.jvp(scatter, (x, u), (x, u))

    args = _jt(x, u)
    closed = jt.make_jaxpr(f)(*args)
    for a, b in zip(eval_jaxpr(closed.jaxpr, closed.consts, *args), f(*args), strict=True):
        _close(a, b)

    def tangent(x: jt.Array) -> Any:
        return f(x, args[1])[1]

    xs = jnp.asarray(np.stack([x, 2 * x]))
    closed_v = jt.make_jaxpr(jt.vmap(tangent))(xs)
    _close(eval_jaxpr(closed_v.jaxpr, closed_v.consts, xs)[0], jt.vmap(tangent)(xs))


# === vmap of dynamic_slice, dynamic_update_slice and x[i] with batched indices ===

STARTS = np.array([-7, -1, 0, 1, 2, 3, 4, 9], np.int32)


def _jax_vmap(f: Callable[..., Any], args: Sequence[NDArray], axes: Sequence[int | None]) -> NDArray:
    return _np(jax.vmap(f, in_axes=tuple(axes))(*args))


@pytest.mark.parametrize("x_batched", [False, True])
def test_vmap_dynamic_slice_batched_starts(x_batched: bool) -> None:
    x = _data((4, 5))
    xs = np.stack([_data((4, 5), seed=k) for k in range(len(STARTS))], axis=1)
    args: list[NDArray] = [xs, STARTS, STARTS[::-1].copy()] if x_batched else [x, STARTS, np.array(1, np.int32)]
    axes = [1, 0, 0] if x_batched else [None, 0, None]

    def ours(x: jt.Array, i: jt.Array, j: jt.Array) -> jt.Array:
        return lax.dynamic_slice(x, (i, j), (2, 3))

    def theirs(x: Any, i: Any, j: Any) -> Any:
        # Both wrap negative starts (allow_negative_indices=True), then clamp.
        return jax.lax.dynamic_slice(x, (i, j), (2, 3))

    _check_vmap(ours, args, axes)
    _close(_vmap(ours, args, axes), _jax_vmap(theirs, args, axes))


@pytest.mark.parametrize("dtype", [np.int8, np.uint8, np.int16])
def test_vmap_dynamic_slice_narrow_index_dtypes(dtype: Any) -> None:
    x = _data((300, 2))
    starts = np.array([0, 5, 127, np.iinfo(dtype).max, np.iinfo(dtype).min], dtype)

    def ours(i: jt.Array) -> jt.Array:
        return lax.dynamic_slice(x, (i, np.zeros((), dtype)), (3, 2))

    assert _vmap(ours, [starts], [0]).shape == (5, 3, 2)

    _check_vmap(ours, [starts], [0])


@pytest.mark.parametrize("axes", [(None, None, 0), (0, None, 0), (None, 0, 0), (1, 0, 0)], ids=str)
def test_vmap_dynamic_update_slice_batched_starts(axes: tuple[int | None, int | None, int]) -> None:
    n = len(STARTS)
    x = _data((4, 5)) if axes[0] is None else np.stack([_data((4, 5), seed=k) for k in range(n)], axes[0])
    u = _data((2, 3), seed=1) if axes[1] is None else np.stack([_data((2, 3), seed=k + 20) for k in range(n)], axes[1])
    args = [x, u, STARTS, 2 - STARTS]
    in_axes = [*axes, 0]

    def ours(x: jt.Array, u: jt.Array, i: jt.Array, j: jt.Array) -> jt.Array:
        return lax.dynamic_update_slice(x, u, (i, j))

    def theirs(x: Any, u: Any, i: Any, j: Any) -> Any:
        return jax.lax.dynamic_update_slice(x, u, (i, j))

    _check_vmap(ours, args, in_axes)
    _close(_vmap(ours, args, in_axes), _jax_vmap(theirs, args, in_axes))


def test_vmap_dynamic_update_slice_keeps_weak_type_rule() -> None:
    def f(i: jt.Array) -> jt.Array:
        return lax.dynamic_update_slice(jnp.zeros(4), jnp.ones(2), (i,))

    out = _vmap(f, [STARTS], [0])
    assert not out.weak_type
    _close(out, _loop(f, [STARTS], [0]))


def _wrap_clamp(i: int, size: int) -> int:
    """JAX's rule for a traced scalar index: negative counts from the end,
    then it is clamped into bounds."""
    return min(max(i + size if i < 0 else i, 0), size - 1)


def test_vmap_scalar_indexing_batched_index() -> None:
    # The loop applies the index rule in NumPy (eager x[i] on a 0-d array
    # index is tested with the numpy layer).
    x = _data((4, 5))

    def ours(i: jt.Array) -> jt.Array:
        return jnp.asarray(x)[i]

    def theirs(i: Any) -> Any:
        return jax.numpy.asarray(x)[i]

    loop = np.stack([x[_wrap_clamp(int(i), 4)] for i in STARTS])
    _close(_vmap(ours, [STARTS], [0]), loop)
    _close(_vmap(ours, [STARTS], [0]), _jax_vmap(theirs, [STARTS], [0]))
    xs = np.stack([_data((4, 5), seed=k) for k in range(len(STARTS))])

    def ours2(x: jt.Array, i: jt.Array) -> jt.Array:
        return x[1:, i]

    def theirs2(x: Any, i: Any) -> Any:
        return x[1:, i]

    loop2 = np.stack([xs[k, 1:, _wrap_clamp(int(i), 5)] for k, i in enumerate(STARTS)])
    _close(_vmap(ours2, [xs, STARTS], [0, 0]), loop2)
    _close(_vmap(ours2, [xs, STARTS], [0, 0]), _jax_vmap(theirs2, [xs, STARTS], [0, 0]))


def test_jvp_of_vmap_dynamic_slice(x64: None) -> None:
    x = _data((6, 3), np.float64)

    starts = jnp.asarray(STARTS)

    def f(x: jt.Array) -> jt.Array:
        def window(i: jt.Array) -> jt.Array:
            return lax.dynamic_slice(x * x, (i, 0), (2, 3))

        return jt.vmap(window)(starts)

    _check_jvp(f, [x])
