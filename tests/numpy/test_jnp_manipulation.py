"""Array manipulation and creation functions of ``jaxtyped.numpy`` against
``jax.numpy``: values, dtypes, weak types, shapes and error kinds (through
the shared oracle), and a few under jit, vmap and grad."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp

from oracle import Case, CaseTable, Group, Namespace, assert_same, call, host, jax, tol

RNG = np.random.default_rng(7)
X234 = RNG.normal(size=(2, 3, 4)).astype(np.float32)
X34 = RNG.normal(size=(3, 4)).astype(np.float32)
X44 = RNG.normal(size=(4, 4)).astype(np.float32)
V5 = np.arange(5, dtype=np.float32) + 1
I34 = np.arange(12, dtype=np.int32).reshape(3, 4)
B8 = np.array([1, 0, 1, 1, 0, 0, 1, 0, 1, 1], dtype=bool)
U8 = np.array([[7, 200], [1, 128]], dtype=np.uint8)
C3 = (RNG.normal(size=(2, 3)) + 1j * RNG.normal(size=(2, 3))).astype(np.complex64)


def weak(L: Namespace) -> Any:
    return L.asarray(2.5) * 1  # a weakly typed f32 scalar


def weak_vec(L: Namespace) -> Any:
    return L.arange(4.0) * 1.0  # strongly typed float32


def _mark_padding(vector: Any, width: tuple[int, int], axis: int, kwargs: Any) -> Any:
    """A pad function (NumPy's callable mode): -1 before, 9 after."""
    return vector.at[: width[0]].set(-1.0).at[vector.shape[0] - width[1] :].set(9.0)


def _repeat_total(counts: np.ndarray[Any, Any]) -> Callable[[Namespace], Any]:
    def run(L: Namespace) -> Any:
        return L.repeat(L.asarray(V5), counts, total_repeat_length=7)

    return run


def _first(v: Any) -> Any:
    return v[0]


def _double_plus_first(v: Any) -> Any:
    return v * 2 + v[0]


def _self_outer(L: Namespace) -> Callable[[Any], Any]:
    def outer(v: Any) -> Any:
        return L.outer(v, v)

    return outer


def _plus_twice(i: Any, j: Any) -> Any:
    return i + 2 * j


def _times(i: Any, j: Any) -> Any:
    return i * j


def _cases() -> list[Case]:
    cases: list[Case] = []

    def add(case_id: str, fn: Callable[[Namespace], Any], **kw: Any) -> None:
        cases.append(Case(case_id, fn, **kw))

    # tile
    add("tile-int", call("tile", I34, 2))
    add("tile-pair", call("tile", X34, (2, 1)))
    add("tile-more-reps", call("tile", V5, (2, 1, 2)))
    add("tile-scalar", lambda L: L.tile(L.asarray(3.0), 3))
    add("tile-zero", call("tile", I34, (0, 2)))
    add("tile-float-reps", call("tile", I34, 1.5))
    add("tile-list", lambda L: L.tile([1, 2], 2))
    # repeat
    add("repeat-flat", call("repeat", I34, 2))
    add("repeat-axis", call("repeat", X34, 3, axis=1))
    # Static repeats, split points and indices are NumPy values (call() would
    # make them arrays, which JAX's jit traces).
    add("repeat-array", lambda L: L.repeat(L.asarray(I34), np.array([1, 0, 2]), axis=0))
    add("repeat-list", lambda L: L.repeat(L.asarray(I34), [1, 0, 2], axis=0))
    add("repeat-total", lambda L: L.repeat(L.asarray(V5), np.array([1, 2, 0, 1, 1]), total_repeat_length=7))
    add("repeat-total-short", lambda L: L.repeat(L.asarray(V5), np.array([1, 2, 0, 1, 1]), total_repeat_length=3))
    add("repeat-scalar-total", call("repeat", V5, 2, total_repeat_length=12))
    for counts in ([1, 1, 1, 1, 0], [0, 0, 3, 0, 2], [0, 0, 0, 0, 0], [2, 0, 0, 0, 0]):
        add(f"repeat-total_{''.join(map(str, counts))}", _repeat_total(np.array(counts)))
    add("repeat-neg-axis", call("repeat", X234, 2, axis=-2))
    add("repeat-bad-len", lambda L: L.repeat(L.asarray(V5), np.array([1, 2]), axis=0))
    add("repeat-float", call("repeat", V5, 1.5))
    add("repeat-weak", lambda L: L.repeat(L.asarray(2.0), 3))
    # pad
    for mode in ("constant", "edge", "reflect", "symmetric", "wrap", "maximum", "minimum", "mean", "median", "linear_ramp", "empty"):
        add(f"pad-{mode}", call("pad", X34, ((1, 2), (3, 1)), mode=mode))
        add(f"pad-{mode}-int", call("pad", I34, 2, mode=mode))
    add("pad-constant-values", call("pad", X34, ((1, 2), (0, 1)), constant_values=((1.5, -2.0), (3.0, 4.0))))
    add("pad-constant-scalar", call("pad", I34, 1, constant_values=7))
    add("pad-reflect-wide", call("pad", V5, (9, 11), mode="reflect"))
    add("pad-symmetric-wide", call("pad", V5, (9, 11), mode="symmetric"))
    add("pad-reflect-odd", call("pad", V5, (7, 6), mode="reflect", reflect_type="odd"))
    add("pad-symmetric-odd", call("pad", V5, (7, 6), mode="symmetric", reflect_type="odd"))
    add("pad-reflect-single", call("pad", np.array([3.0], np.float32), 3, mode="reflect"))
    add("pad-wrap-wide", call("pad", V5, (12, 7), mode="wrap"))
    add("pad-stat-length", call("pad", X34, 2, mode="mean", stat_length=((1, 2), (2, 3))))
    add("pad-median-even", call("pad", X34, 2, mode="median", stat_length=2))
    add("pad-ramp-ends", call("pad", X34, ((2, 1), (1, 3)), mode="linear_ramp", end_values=((1.0, -2.0), (5.0, 0.0))))
    add("pad-pair", call("pad", X34, (1, 2)))
    add("pad-one-pair", call("pad", X34, [[1, 2]]))
    add("pad-weak", lambda L: L.pad(L.asarray(1.0) * L.ones(3), 1))
    add("pad-negative", call("pad", X34, -1))
    add("pad-float-width", call("pad", X34, 1.5))
    add("pad-bad-shape", call("pad", X34, ((1, 2, 3),)))
    add("pad-bool", call("pad", B8, 2))
    add("pad-callable", call("pad", V5, (2, 1), mode=_mark_padding))
    # split family
    add("split-sections", call("split", I34, 2, axis=1))
    add("split-indices", call("split", X34, [1, 3], axis=1))
    add("split-indices-beyond", call("split", X34, [1, 3, 10], axis=1))
    add("split-negative-indices", call("split", V5, [-2]))
    add("split-unequal", call("split", V5, 2))
    add("array_split-unequal", call("array_split", V5, 3))
    add("array_split-indices", lambda L: L.array_split(L.asarray(X34), np.array([2]), axis=0))
    add("hsplit-2d", call("hsplit", I34, 2))
    add("hsplit-1d", call("hsplit", V5, [2]))
    add("vsplit-2d", call("vsplit", X34, 3))
    add("vsplit-1d", call("vsplit", V5, 5))
    add("dsplit-3d", call("dsplit", X234, 2))
    add("dsplit-2d", call("dsplit", X34, 2))
    # flips, rolls
    add("flip-all", call("flip", X234))
    add("flip-axis", call("flip", X234, 1))
    add("flip-axes", call("flip", X234, (0, -1)))
    add("flip-bad-axis", call("flip", X234, 3))
    add("fliplr-2d", call("fliplr", I34))
    add("fliplr-1d", call("fliplr", V5))
    add("flipud-2d", call("flipud", I34))
    add("roll-flat", call("roll", I34, 5))
    add("roll-axis", call("roll", X34, -1, axis=1))
    add("roll-tuple", call("roll", X234, (1, -2), axis=(0, 2)))
    add("roll-broadcast", call("roll", X234, 1, axis=(0, 2)))
    add("roll-big", call("roll", V5, 13))
    add("roll-array-shift", lambda L: L.roll(L.asarray(V5), L.asarray(2)))
    add("roll-bad-axis", call("roll", X34, 1, axis=1.5))
    add("rot90-1", call("rot90", X34))
    add("rot90-2", call("rot90", X234, 2, axes=(1, 2)))
    add("rot90-3", call("rot90", X234, 3, axes=(2, 0)))
    add("rot90-neg", call("rot90", X34, -1))
    add("rot90-same-axes", call("rot90", X34, 1, axes=(0, 0)))
    add("rot90-1d", call("rot90", V5))
    add("rollaxis-fwd", call("rollaxis", X234, 2))
    add("rollaxis-start", call("rollaxis", X234, 0, 3))
    add("rollaxis-neg", call("rollaxis", X234, -1, 1))
    add("permute_dims-3d", call("permute_dims", X234, (2, 0, 1)))
    add("matrix_transpose-3d", call("matrix_transpose", X234))
    add("matrix_transpose-1d", call("matrix_transpose", V5))
    # triangles and diagonals
    for name in ("tril", "triu"):
        add(f"{name}-2d", call(name, X44))
        add(f"{name}-k", call(name, X34, 1))
        add(f"{name}-negk", call(name, X34, -1))
        add(f"{name}-3d", call(name, X234, 2))
        add(f"{name}-int", call(name, I34))
        add(f"{name}-1d", call(name, V5))
    add("tri-square", lambda L: L.tri(3))
    add("tri-rect", lambda L: L.tri(3, 5, 1, dtype=L.int32))
    add("tri-negk", lambda L: L.tri(4, 2, -1, dtype=bool))
    add("tri-float", lambda L: L.tri(2.5))
    add("diag-vec", call("diag", V5))
    add("diag-vec-k", call("diag", V5, 2))
    add("diag-vec-negk", call("diag", V5, -1))
    add("diag-mat", call("diag", X34))
    add("diag-mat-k", call("diag", X34, 2))
    add("diag-mat-negk", call("diag", X34, -2))
    add("diag-mat-far", call("diag", X34, 7))
    add("diag-3d", call("diag", X234))
    add("diag-int", call("diag", np.array([1, 2], np.int32)))
    add("diagonal-2d", call("diagonal", X34))
    add("diagonal-offset", call("diagonal", X34, 1))
    add("diagonal-negoffset", call("diagonal", X34, -2))
    add("diagonal-axes", call("diagonal", X234, 0, 2, 0))
    add("diagonal-axes-neg", call("diagonal", X234, 1, -1, 1))
    add("diagonal-same", call("diagonal", X234, 0, 1, 1))
    add("diagonal-1d", call("diagonal", V5))
    add("diagonal-empty", call("diagonal", X34, 5))
    add("diagflat-2d", call("diagflat", np.arange(4, dtype=np.float32).reshape(2, 2)))
    add("diagflat-k", call("diagflat", V5, -1))
    add("trace-2d", call("trace", X34))
    add("trace-offset", call("trace", X234, 1, 1, 2))
    add("trace-int8", call("trace", np.arange(9, dtype=np.int8).reshape(3, 3)))
    add("trace-dtype", call("trace", I34, dtype=np.float32))
    add("trace-bool", call("trace", np.eye(3, dtype=bool)))
    # stacking
    add("vstack-1d", call("vstack", [V5, V5]))
    add("vstack-mixed", call("vstack", [X34, np.ones(4, np.float32)]))
    add("vstack-dtype", lambda L: L.vstack([L.asarray(I34), L.asarray(I34)], dtype=L.float32))
    add("vstack-array", lambda L: L.vstack(L.asarray(X34)))
    add("hstack-1d", call("hstack", [V5, np.arange(2, dtype=np.int32)]))
    add("hstack-2d", call("hstack", [X34, X34]))
    add("hstack-scalars", lambda L: L.hstack([L.asarray(1.0), L.asarray(2.0)]))
    add("dstack-1d", call("dstack", [V5, V5]))
    add("dstack-2d", call("dstack", [X34, X34]))
    add("column_stack-1d", call("column_stack", [V5, V5]))
    add("column_stack-mixed", call("column_stack", [np.ones((5, 2), np.float32), V5]))
    add("block-1d", lambda L: L.block([L.asarray(V5), L.asarray(V5)]))
    add("block-2d", lambda L: L.block([[L.asarray(X44), L.zeros((4, 2))], [L.ones((1, 4)), L.ones((1, 2))]]))
    add("block-scalars", lambda L: L.block([[1.0, 2.0], [3.0, 4.0]]))
    add("block-mismatch", lambda L: L.block([[L.asarray(V5)], L.asarray(V5)]))
    add("block-empty", lambda L: L.block([]))
    add("append-flat", call("append", I34, np.array([1, 2], np.int32)))
    add("append-axis", call("append", X34, np.ones((3, 1), np.float32), axis=1))
    add("append-promote", call("append", I34, 1.5))
    add("concat-axis", lambda L: L.concat([L.asarray(X34), L.asarray(X34)], axis=1))
    add("concat-none", lambda L: L.concat([L.asarray(X34), L.asarray(V5)], axis=None))
    add("unstack-0", lambda L: L.unstack(L.asarray(X234)))
    add("unstack-axis", lambda L: L.unstack(L.asarray(X234), axis=-1))
    add("unstack-0d", lambda L: L.unstack(L.asarray(1.0)))
    for name in ("atleast_1d", "atleast_2d", "atleast_3d"):
        add(f"{name}-scalar", call(name, np.float32(1.0)))
        add(f"{name}-weak", call(name, 2.0))
        add(f"{name}-1d", call(name, V5))
        add(f"{name}-2d", call(name, X34))
        add(f"{name}-3d", call(name, X234))
        add(f"{name}-several", call(name, V5, X34, 3))
    # grids and broadcasting
    add("meshgrid-xy", call("meshgrid", V5, np.arange(3, dtype=np.int32)))
    add("meshgrid-ij", call("meshgrid", V5, np.arange(3, dtype=np.float32), np.arange(2, dtype=np.float32), indexing="ij"))
    add("meshgrid-xy3", call("meshgrid", V5, np.arange(3, dtype=np.float32), np.arange(2, dtype=np.float32)))
    add("meshgrid-sparse", call("meshgrid", V5, np.arange(3, dtype=np.float32), sparse=True))
    add("meshgrid-one", call("meshgrid", V5))
    add("meshgrid-bad", call("meshgrid", V5, indexing="yx"))
    add("broadcast_arrays-3", call("broadcast_arrays", X34, V5[:4], np.float32(2)))
    add("broadcast_arrays-bad", call("broadcast_arrays", X34, V5))
    add("broadcast_shapes-ok", lambda L: L.asarray(L.broadcast_shapes((3, 1), (4,), (2, 1, 1))))
    add("broadcast_shapes-bad", lambda L: L.broadcast_shapes((3,), (4,)))
    add("copy-strong", call("copy", X34))
    add("copy-weak", lambda L: L.copy(L.asarray(1.0) * 2))
    add("astype-int", call("astype", X34, np.int32))
    add("astype-bool", call("astype", I34, bool))
    add("astype-weak", lambda L: L.astype(L.asarray(1.0) * 2, L.float32))
    # insertion, deletion, resizing
    add("delete-int", call("delete", I34, 1, axis=0))
    add("delete-list", call("delete", I34, [0, 3], axis=1))
    add("delete-array", lambda L: L.delete(L.asarray(I34), np.array([0, 3]), axis=1))
    add("delete-slice", call("delete", I34, slice(1, None, 2)))
    add("delete-flat", lambda L: L.delete(L.asarray(V5), np.array([0, -1])))
    add("insert-scalar", call("insert", V5, 2, 9.0))
    add("insert-list", call("insert", V5, [0, 2, 5], np.array([7.0, 8.0, 9.0], np.float32)))
    add("insert-array", lambda L: L.insert(L.asarray(V5), np.array([0, 2, 5]), L.asarray(np.array([7.0, 8.0, 9.0], np.float32))))
    add("insert-axis", call("insert", I34, 1, 5, axis=1))
    add("insert-axis-block", call("insert", I34, 1, np.array([[1], [2], [3]], np.int32), axis=1))
    add("insert-flat", call("insert", I34, 3, 100))
    add("insert-unsorted", lambda L: L.insert(L.asarray(V5), np.array([3, 1]), L.asarray(np.array([7.0, 8.0], np.float32))))
    add("resize-grow", call("resize", I34, (4, 5)))
    add("resize-shrink", call("resize", V5, 3))
    add("resize-scalar-shape", call("resize", X34, 7))
    add("apply_along_axis-sum", lambda L: L.apply_along_axis(L.sum, 1, L.asarray(X234)))
    add("apply_along_axis-vec", lambda L: L.apply_along_axis(_double_plus_first, 0, L.asarray(X34)))
    add("apply_along_axis-outer", lambda L: L.apply_along_axis(_self_outer(L), -1, L.asarray(X34)))
    add("apply_over_axes-sum", lambda L: L.apply_over_axes(L.sum, L.asarray(X234), [0, 2]))
    add("apply_over_axes-keep", lambda L: L.apply_over_axes(L.flip, L.asarray(X34), [1]))
    # creation
    add("logspace-default", lambda L: L.logspace(0, 2, 5))
    add("logspace-base", lambda L: L.logspace(0.0, 3.0, 4, base=2.0, endpoint=False))
    add("logspace-int", lambda L: L.logspace(0, 3, 4, dtype=L.int32))
    add("logspace-bad-num", lambda L: L.logspace(0, 1, "a"))
    add("geomspace-pos", lambda L: L.geomspace(1, 1000, 4))
    add("geomspace-neg", lambda L: L.geomspace(-1.0, -16.0, 5, endpoint=False))
    add("geomspace-int", lambda L: L.geomspace(1, 256, 9, dtype=L.int32))
    add("fromfunction-add", lambda L: L.fromfunction(_plus_twice, (3, 4)))
    add("fromfunction-int", lambda L: L.fromfunction(_times, (3, 3), dtype=L.int32))
    add("frombuffer-f32", lambda L: L.frombuffer(np.arange(4, dtype=np.float32).tobytes(), dtype=L.float32))
    add("frombuffer-offset", lambda L: L.frombuffer(b"\x01\x02\x03\x04", dtype=L.uint8, count=2, offset=1))
    add("fromstring-sep", lambda L: L.fromstring("1 2 3.5", dtype=L.float32, sep=" "))
    add("fromiter-range", lambda L: L.fromiter(iter(range(3)), L.float32))
    add("fromfile-path", lambda L: L.fromfile("data.bin", dtype=L.float32))
    add("vander-default", call("vander", V5[:4]))
    add("vander-N", call("vander", np.array([1, 2, 3], np.int32), 2, increasing=True))
    add("vander-2d", call("vander", X34))
    for window in ("bartlett", "blackman", "hamming", "hanning"):
        for m in (0, 1, 6, 7):
            add(f"{window}-{m}", call(window, m), atol=1e-6)
    add("kaiser-6", lambda L: L.kaiser(6, 14.0), rtol=1e-4)
    add("kaiser-7", lambda L: L.kaiser(7, 2.5), rtol=1e-5)
    add("kaiser-zero-beta", lambda L: L.kaiser(5, 0.0))
    add("kaiser-1", lambda L: L.kaiser(1, 5.0))
    add("kaiser-0", lambda L: L.kaiser(0, 5.0))
    # products
    add("kron-2d", call("kron", X34[:2, :2], np.array([[1, 2], [3, 4]], np.int32)))
    add("kron-1d", call("kron", V5[:3], V5[:2]))
    add("kron-mixed", call("kron", V5[:2], X34[:2, :3]))
    add("kron-scalar", lambda L: L.kron(2.0, L.asarray(V5)))
    add("cross-3", call("cross", X34[:, :3], X34[:, 1:]))
    add("cross-2", call("cross", X34[:, :2], X34[:, 2:]))
    add("cross-23", call("cross", X34[:, :2], X34[:, 1:]))
    add("cross-axis", call("cross", X34[:, :3].T, X34[:, 1:].T, axis=0))
    add("cross-axisc", call("cross", X34[:, :3], X34[:, 1:], axisc=0))
    add("cross-bad", call("cross", X34, X34))
    add("cross-int", call("cross", np.array([1, 2, 3], np.int32), np.array([4, 5, 6], np.int32)))
    add("matvec-2d", call("matvec", X34, V5[:4]))
    add("matvec-batch", call("matvec", X234, X34))
    add("matvec-int", call("matvec", I34, np.array([1, 2, 3, 4], np.int32)))
    add("vecmat-2d", call("vecmat", V5[:3], X34))
    add("vecmat-complex", call("vecmat", C3[0], C3.T))
    add("vecdot-1d", call("vecdot", V5, V5))
    add("vecdot-batch", call("vecdot", X234, X34))
    add("vecdot-axis", call("vecdot", X34, X34, axis=0))
    add("vecdot-complex", call("vecdot", C3, C3))
    add("vecdot-bad", call("vecdot", X34, V5))
    # edge cases
    add("pad-jnp_width", lambda L: L.pad(L.asarray(X34), np.array([[1, 2], [0, 1]])))
    add("pad-array_constant", lambda L: L.pad(L.asarray(X34), 1, constant_values=np.array([1.0, 2.0], np.float32)))
    add("pad-zero_width_empty", lambda L: L.pad(L.zeros((0, 3)), ((0, 0), (1, 1)), mode="edge"))
    add("pad-empty_axis_edge", lambda L: L.pad(L.zeros((0, 3)), 1, mode="edge"))
    add("pad-constant_kw_edge", lambda L: L.pad(L.asarray(X34), 1, mode="edge", constant_values=3))
    add("pad-reflect_type_bad", lambda L: L.pad(L.asarray(V5), 1, mode="reflect", reflect_type="bad"))
    add("pad-stat_zero", lambda L: L.pad(L.asarray(V5), 2, mode="maximum", stat_length=0))
    add("pad-ramp_int", lambda L: L.pad(L.asarray(np.arange(5, dtype=np.int32)), (3, 4), mode="linear_ramp", end_values=(10, -3)))
    add("pad-mean_int", lambda L: L.pad(L.asarray(np.array([1, 2, 4], np.int32)), 2, mode="mean"))
    add("pad-median_int", lambda L: L.pad(L.asarray(np.array([1, 2, 4, 7], np.int32)), 2, mode="median"))
    add("pad-reflect_odd_int", lambda L: L.pad(L.asarray(np.array([1, 2, 4], np.int32)), 4, mode="reflect", reflect_type="odd"))
    add("pad-complex_mean", lambda L: L.pad(L.asarray(np.array([1 + 2j, 3j], np.complex64)), 2, mode="mean"))
    add("pad-0d", lambda L: L.pad(L.asarray(1.0), 2))
    add("array_split-more", lambda L: L.array_split(L.asarray(V5), 7))
    add("roll-empty", lambda L: L.roll(L.zeros((0,)), 2))
    add("roll-more_shifts", lambda L: L.roll(L.asarray(X34), (1, 2, 3), axis=(0, 1)))
    add("rot90-3d_default", lambda L: L.rot90(L.asarray(X234)))
    add("rot90-bad_axes", lambda L: L.rot90(L.asarray(X34), axes=(0,)))
    add("rollaxis-bad_start", lambda L: L.rollaxis(L.asarray(X34), 0, 5))
    add("trace-1d", lambda L: L.trace(L.asarray(V5)))
    add("vstack-empty", lambda L: L.vstack([]))
    add("block-tuple", lambda L: L.block((L.asarray(V5), L.asarray(V5))))
    add("block-depth3", lambda L: L.block([[[L.asarray(V5)]], [[L.asarray(V5)]]]))
    add("unstack-bad_axis", lambda L: L.unstack(L.asarray(X34), axis=2))
    add("meshgrid-none", lambda L: L.meshgrid())
    add("meshgrid-2d_input", lambda L: L.meshgrid(L.asarray(X34), L.asarray(V5)))
    add("broadcast_arrays-none", lambda L: L.broadcast_arrays())
    add("broadcast_shapes-int", lambda L: L.asarray(L.broadcast_shapes(3, (2, 1))))
    add("delete-oob", lambda L: L.delete(L.asarray(V5), 7))
    add("delete-bool", lambda L: L.delete(L.asarray(V5), np.array([True, False, True, False, False])))
    add("delete-neg", lambda L: L.delete(L.asarray(V5), -1))
    add("insert-oob", lambda L: L.insert(L.asarray(V5), 7, 1.0))
    add("insert-end", lambda L: L.insert(L.asarray(V5), 5, 1.0))
    add("insert-2d_flat", lambda L: L.insert(L.asarray(X34), 2, L.asarray([7.0, 8.0])))
    add("insert-vals_2d", lambda L: L.insert(L.asarray(X34), np.array([1, 2]), L.asarray([[7.0], [8.0], [9.0]]), axis=1))
    add("insert-slice", lambda L: L.insert(L.asarray(V5), slice(0, 4, 2), 9.0))
    add("insert-neg", lambda L: L.insert(L.asarray(V5), -2, 9.0))
    add("resize-empty", lambda L: L.resize(L.zeros((0,)), 3))
    add("apply_along_axis-scalar", lambda L: L.apply_along_axis(_first, 0, L.asarray(X34)))
    add("apply_over_axes-neg", lambda L: L.apply_over_axes(L.sum, L.asarray(X34), [-1]))
    add("astype-complex", lambda L: L.astype(L.asarray(C3), L.complex64))
    add("logspace-array_start", lambda L: L.logspace(L.asarray(0), 2, 3))
    add("logspace-num0", lambda L: L.logspace(0, 2, 0))
    add("geomspace-num1", lambda L: L.geomspace(2, 8, 1))
    add("vander-zero", lambda L: L.vander(L.asarray(V5), 0))
    add("vander-int", lambda L: L.vander(L.asarray(np.array([2, 3], np.int32)), 3))
    add("kron-0d", lambda L: L.kron(L.asarray(2.0), L.asarray(3.0)))
    add("cross-broadcast", lambda L: L.cross(L.asarray(np.ones((2, 3), np.float32)), L.asarray(V5[:3])))
    add("cross-int8", lambda L: L.cross(L.asarray(np.array([1, 2, 3], np.int8)), L.asarray(np.array([3, 2, 1], np.int8))))
    add("matvec-mismatch", lambda L: L.matvec(L.asarray(X34), L.asarray(V5)))
    add("matvec-1d", lambda L: L.matvec(L.asarray(V5), L.asarray(V5)))
    add("vecdot-broadcast", lambda L: L.vecdot(L.asarray(np.ones((2, 1, 3), np.float32)), L.asarray(np.ones((4, 3), np.float32))))
    add("vecdot-int8", lambda L: L.vecdot(L.asarray(np.array([100, 100], np.int8)), L.asarray(np.array([2, 2], np.int8))))
    add("vecdot-bool", lambda L: L.vecdot(L.asarray(np.array([True, True])), L.asarray(np.array([True, False]))))
    add("packbits-2d_flat", lambda L: L.packbits(L.asarray(np.ones((2, 3), bool))))
    add("packbits-empty", lambda L: L.packbits(L.zeros((0,), bool)))
    add("tile-empty_reps", lambda L: L.tile(L.asarray(2.0), ()))
    add("repeat-0d", lambda L: L.repeat(L.asarray(2.0), 3))
    add("repeat-axis_oob", lambda L: L.repeat(L.asarray(V5), 2, axis=1))
    add("repeat-total_scalar_short", lambda L: L.repeat(L.asarray(V5), 2, total_repeat_length=4))
    add("flip-0d", lambda L: L.flip(L.asarray(1.0)))
    add("diagonal-0d", lambda L: L.diagonal(L.asarray(1.0)))
    add("diagflat-0d", lambda L: L.diagflat(L.asarray(3.0), 1))
    add("diag-0d", lambda L: L.diag(L.asarray(3.0)))
    add("copy-list", lambda L: L.copy([1, 2]))
    add("append-list", lambda L: L.append([1, 2], 3))
    add("column_stack-0d", lambda L: L.column_stack([L.asarray(1.0), L.asarray(2.0)]))
    add("dstack-0d", lambda L: L.dstack([L.asarray(1.0), L.asarray(2.0)]))
    add("tri-int", lambda L: L.tri(2, dtype=int))
    add("kaiser-int_beta", lambda L: L.kaiser(4, 2))
    # bits
    add("packbits-flat", call("packbits", B8))
    add("packbits-axis", call("packbits", np.arange(24, dtype=np.int32).reshape(2, 12) % 3, axis=1))
    add("packbits-little", call("packbits", B8, bitorder="little"))
    add("packbits-float", call("packbits", V5))
    add("unpackbits-flat", call("unpackbits", U8))
    add("unpackbits-axis", call("unpackbits", U8, axis=0))
    add("unpackbits-little", call("unpackbits", U8, axis=1, bitorder="little"))
    add("unpackbits-count", call("unpackbits", U8, count=5))
    add("unpackbits-count-neg", call("unpackbits", U8, axis=1, count=-3))
    add("unpackbits-count-more", call("unpackbits", U8, axis=1, count=20))
    add("unpackbits-int", call("unpackbits", I34))
    return cases


BF = np.array([[1.5, -2.25, 3.0], [0.5, 4.0, -1.0]], dtype=np.float32)
DTYPES = ("bool", "uint8", "int8", "int32", "float16", "bfloat16", "float32", "complex64")


def _on_array(fn: Callable[[Namespace, Any], Any], data: np.ndarray[Any, Any]) -> Callable[[Namespace], Any]:
    def run(L: Namespace) -> Any:
        return fn(L, L.asarray(data))

    return run


def _on_weak(fn: Callable[[Namespace, Any], Any], value: float) -> Callable[[Namespace], Any]:
    def run(L: Namespace) -> Any:
        return fn(L, L.broadcast_to(value, (4,)))

    return run


def _dtype_cases() -> list[Case]:
    """The structural functions keep every dtype and the weak type."""
    cases: list[Case] = []
    for dtype in DTYPES:
        data = host(dtype, BF)
        structural: dict[str, Callable[[Namespace, Any], Any]] = {
            "tile": lambda L, d: L.tile(d, (1, 2)),
            "repeat": lambda L, d: L.repeat(d, 2, axis=0),
            "pad": lambda L, d: L.pad(d, 1, mode="edge"),
            "pad-wrap": lambda L, d: L.pad(d, (2, 1), mode="wrap"),
            "pad-symmetric": lambda L, d: L.pad(d, 2, mode="symmetric"),
            "pad-constant": lambda L, d: L.pad(d, 1, constant_values=1),
            "flip": lambda L, d: L.flip(d),
            "roll": lambda L, d: L.roll(d, 2),
            "rot90": lambda L, d: L.rot90(d),
            "tril": lambda L, d: L.tril(d),
            "diag": lambda L, d: L.diag(d),
            "diagonal": lambda L, d: L.diagonal(d, 1),
            "vstack": lambda L, d: L.vstack([d, d]),
            "split": lambda L, d: L.split(d, 3, axis=1),
            "unstack": lambda L, d: L.unstack(d, axis=1),
            "delete": lambda L, d: L.delete(d, 1, axis=1),
            "resize": lambda L, d: L.resize(d, (4, 4)),
            "kron": lambda L, d: L.kron(d, d),
            "trace": lambda L, d: L.trace(d),
            "meshgrid": lambda L, d: L.meshgrid(d[0], d[1]),
            "append": lambda L, d: L.append(d, d),
        }
        for name, fn in structural.items():
            cases.append(Case(f"{name}-{dtype}", _on_array(fn, data), rtol=tol(dtype)))
    weak_cases: dict[str, Callable[[Namespace, Any], Any]] = {
        "tile": lambda L, w: L.tile(w, 2), "repeat": lambda L, w: L.repeat(w, 2), "pad": lambda L, w: L.pad(w, 1),
        "flip": lambda L, w: L.flip(w), "roll": lambda L, w: L.roll(w, 1), "diag": lambda L, w: L.diag(w),
        "hstack": lambda L, w: L.hstack([w, w]), "kron": lambda L, w: L.kron(w, w), "cross": lambda L, w: L.cross(w[:3], w[1:]),
        "atleast_2d": lambda L, w: L.atleast_2d(w), "copy": lambda L, w: L.copy(w), "trace": lambda L, w: L.trace(L.reshape(w, (2, 2))),
        "vecdot": lambda L, w: L.vecdot(w, w), "resize": lambda L, w: L.resize(w, 6),
        "cross2": lambda L, w: L.cross(w[:2], w[2:]), "vander": lambda L, w: L.vander(w, 3),
        "insert": lambda L, w: L.insert(w, 1, 2), "tril": lambda L, w: L.tril(L.reshape(w, (2, 2))),
        "padreflect": lambda L, w: L.pad(w, 2, mode="reflect", reflect_type="odd"),
        "padramp": lambda L, w: L.pad(w, 2, mode="linear_ramp", end_values=1),
        "padmean": lambda L, w: L.pad(w, 2, mode="mean"), "padmedian": lambda L, w: L.pad(w, 2, mode="median"),
        "padpairs": lambda L, w: L.pad(w, 1, constant_values=((1, 2),)), "padedge": lambda L, w: L.pad(w, 1, mode="edge"),
        "split": lambda L, w: L.split(w, 2), "block": lambda L, w: L.block([w, w]), "diagonal": lambda L, w: L.diagonal(L.reshape(w, (2, 2))),
        "meshgrid": lambda L, w: L.meshgrid(w, w), "unstack": lambda L, w: L.unstack(w), "delete": lambda L, w: L.delete(w, 0),
    }
    for name, fn in weak_cases.items():
        # broadcast_to of a Python scalar: a weakly typed vector.
        cases.append(Case(f"{name}-weak", _on_weak(fn, 1.5)))
        cases.append(Case(f"{name}-weakint", _on_weak(fn, 2)))
    return cases


def _x64_cases() -> list[Case]:
    """Under x64 the defaults widen: float64 windows and ramps, int64 sums."""
    i64 = np.arange(6, dtype=np.int64).reshape(2, 3)
    f64 = np.linspace(0.5, 3.0, 6).reshape(2, 3)
    return [
        Case("tile-int64", call("tile", i64, 2)),
        Case("repeat-float64", call("repeat", f64, 2, axis=1)),
        Case("pad-float64_mean", call("pad", f64, 1, mode="mean")),
        Case("pad-int64_ramp", call("pad", i64, 2, mode="linear_ramp", end_values=9)),
        Case("trace-int32", call("trace", np.arange(9, dtype=np.int32).reshape(3, 3))),
        Case("tri-default", lambda L: L.tri(3)),
        Case("logspace-default", lambda L: L.logspace(0, 3, 4)),
        Case("geomspace-default", lambda L: L.geomspace(1, 8, 4)),
        Case("bartlett-default", lambda L: L.bartlett(5)),
        Case("kaiser-default", lambda L: L.kaiser(5, 3.0), rtol=1e-10, atol=1e-12),
        Case("vander-int64", call("vander", np.array([2, 3], np.int64), 3)),
        Case("kron-mixed", call("kron", i64, f64)),
        Case("vecdot-float64", call("vecdot", f64, f64)),
        Case("array-int64_list", lambda L: L.array([1, 2**40])),
        Case("array-overflow_int64", lambda L: L.array([1, 2**63])),
        Case("array-uint32_list", lambda L: L.array([2**32 - 1], dtype=L.uint32)),
        Case("packbits-int64", call("packbits", i64)),
        Case("fromfunction-default", lambda L: L.fromfunction(_plus_twice, (2, 3))),
    ]


TABLE = CaseTable("manipulation", _cases)
X64_TABLE = CaseTable("manipulation_x64", _x64_cases, x64=True)


@pytest.mark.parametrize("group", X64_TABLE.params())
def test_manipulation_x64_matches_jax(group: Group) -> None:
    X64_TABLE.check(group)
DTYPE_TABLE = CaseTable("manipulation_dtypes", _dtype_cases)


@pytest.mark.parametrize("group", DTYPE_TABLE.params())
def test_manipulation_dtypes_match_jax(group: Group) -> None:
    DTYPE_TABLE.check(group)


@pytest.mark.parametrize("group", TABLE.params())
def test_manipulation_matches_jax(group: Group) -> None:
    TABLE.check(group)


@pytest.mark.parametrize("trim", ["fb", "f", "b", "FB"])
@pytest.mark.parametrize("values", [[0, 0, 1, 2, 0, 3, 0], [0.0, 0.0], [1, 0], []])
def test_trim_zeros_matches_jax_outside_jit(values: list[float], trim: str) -> None:
    # Outside the oracle's jit: trim_zeros needs concrete values in JAX too.
    filt = np.asarray(values, np.float32)
    assert_same(jnp.trim_zeros(jnp.asarray(filt), trim), jax.numpy.trim_zeros(jax.numpy.asarray(filt), trim))
    with pytest.raises(jt.errors.ConcretizationTypeError):
        jt.jit(jnp.trim_zeros)(jnp.asarray(filt))


@pytest.mark.parametrize("axis", [None, 0, 1, (0, 1), -1])
@pytest.mark.parametrize("trim", ["fb", "f", "b"])
def test_trim_zeros_2d_matches_jax(axis: Any, trim: str) -> None:
    filt = np.array([[0, 0, 0, 0], [0, 1, 0, 0], [0, 0, 2, 0]], np.int32)
    assert_same(jnp.trim_zeros(jnp.asarray(filt), trim, axis), jax.numpy.trim_zeros(jax.numpy.asarray(filt), trim, axis))


def test_windows_reject_a_float_length() -> None:
    # Stricter than JAX (which computes a window of int(M) points): M counts points.
    for window in (jnp.bartlett, jnp.blackman, jnp.hamming, jnp.hanning):
        with pytest.raises(TypeError, match=None if jt.DEBUG else f"jnp.{window.__name__}: M must be an integer"):
            window(2.5)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse tested


def test_from_dlpack_reads_host_tensors() -> None:
    host_value = np.arange(6, dtype=np.float32).reshape(2, 3)
    result = jnp.from_dlpack(host_value)
    assert_same(result, jax.numpy.from_dlpack(host_value))
    assert_same(jnp.from_dlpack(jnp.asarray(host_value)), jax.numpy.from_dlpack(jax.numpy.asarray(host_value)))
    assert_same(jnp.from_dlpack(jax.numpy.asarray(host_value)), jax.numpy.from_dlpack(host_value))  # another library's tensor
    with pytest.raises(TypeError, match=None if jt.DEBUG else "from_dlpack"):
        jnp.from_dlpack([1, 2])


# === under transformations ===


TRANSFORMED: dict[str, Callable[[Any, Any], Any]] = {
    "pad-reflect": lambda L, x: L.pad(x, ((1, 2), (2, 1)), mode="reflect"),
    "pad-edge": lambda L, x: L.pad(x, 2, mode="edge"),
    "pad-mean": lambda L, x: L.pad(x, 1, mode="mean"),
    "pad-median": lambda L, x: L.pad(x, (1, 2), mode="median", stat_length=3),
    "pad-ramp": lambda L, x: L.pad(x, 2, mode="linear_ramp", end_values=(1.0, -1.0)),
    "pad-wrap": lambda L, x: L.pad(x, (5, 3), mode="wrap"),
    "pad-callable": lambda L, x: L.pad(x, 1, mode=_mark_padding),
    "insert": lambda L, x: L.insert(x, np.array([0, 2]), x[:, :2], axis=1),
    "delete": lambda L, x: L.delete(x, np.array([1]), axis=0),
    "rot90": lambda L, x: L.rot90(x, 3),
    "vecdot": lambda L, x: L.vecdot(x, x),
    "pad-constant": lambda L, x: L.pad(x, 1, constant_values=2.0),
    "tile": lambda L, x: L.tile(x, (2, 3)),
    "repeat": lambda L, x: L.repeat(x, 2, axis=1),
    "repeat-array": lambda L, x: L.repeat(x, np.array([1, 0, 3]), axis=0),
    "roll": lambda L, x: L.roll(x, (1, -1), axis=(0, 1)),
    "flip": lambda L, x: L.flip(x, 1),
    "diagonal": lambda L, x: L.diagonal(x, 1),
    "trace": lambda L, x: L.trace(x, -1),
    "kron": lambda L, x: L.kron(x, x[:2, :2]),
    "cross": lambda L, x: L.cross(x[:, :3], x[:, 1:]),
    "tril": lambda L, x: L.tril(x),
}


@pytest.mark.parametrize("name", sorted(TRANSFORMED))
def test_under_jit_vmap_grad(name: str) -> None:
    fn = TRANSFORMED[name]

    def ours(a: jt.Array) -> jt.Array:
        result: jt.Array = fn(jnp, a)
        return result

    def theirs_fn(a: Any) -> Any:
        return fn(jax.numpy, a)

    def ours_loss(a: jt.Array) -> jt.Array:
        return jnp.sum(ours(a) * weights)

    def theirs_loss(a: Any) -> Any:
        return jax.numpy.sum(theirs_fn(a) * weights)

    theirs = jax.jit(theirs_fn)(X34)
    assert_same(jt.jit(ours)(jnp.asarray(X34)), theirs)
    assert_same(ours(jnp.asarray(X34)), theirs)
    stacked = np.stack([X34, X34 * 2 + 1])
    assert_same(jt.vmap(ours)(jnp.asarray(stacked)), jax.vmap(theirs_fn)(stacked))
    weights = RNG.normal(size=np.shape(theirs)).astype(np.float32)
    assert_same(jt.grad(ours_loss)(jnp.asarray(X34)), jax.grad(theirs_loss)(X34), rtol=1e-5, atol=1e-5)


TIES = np.array([[1.0, 2.0, 2.0, 5.0], [3.0, 3.0, 3.0, 0.0], [0.0, 0.0, 1.0, 1.0]], np.float32)


@pytest.mark.parametrize("mode", ["median", "maximum", "minimum", "mean"])
@pytest.mark.parametrize("stat_length", [None, 2])
def test_pad_statistic_gradients_at_ties_match_jax(mode: str, stat_length: int | None) -> None:
    weights = RNG.normal(size=(7, 8)).astype(np.float32)

    def ours(a: jt.Array) -> jt.Array:
        return jnp.sum(jnp.pad(a, 2, mode=mode, stat_length=stat_length) * weights)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # mode: one of the literals above

    def theirs(a: Any) -> Any:
        return jax.numpy.sum(jax.numpy.pad(a, 2, mode=mode, stat_length=stat_length) * weights)

    assert_same(jt.grad(ours)(jnp.asarray(TIES)), jax.grad(theirs)(TIES), rtol=1e-5, atol=1e-5)


def test_roll_with_traced_shift_matches_jax() -> None:
    x = jnp.asarray(V5)

    def ours(s: jt.Array) -> jt.Array:
        return jnp.roll(x, s)

    def theirs(s: Any) -> Any:
        return jax.numpy.roll(V5, s)

    for shift in (-7, -1, 0, 2, 6):
        assert_same(jt.jit(ours)(jnp.asarray(shift)), jax.jit(theirs)(shift))


def test_repeat_with_traced_repeats_matches_jax() -> None:
    counts = np.array([1, 2, 0, 1, 3], np.int32)

    def ours(r: jt.Array) -> jt.Array:
        return jnp.repeat(jnp.asarray(V5), r, total_repeat_length=9)

    def theirs(r: Any) -> Any:
        return jax.numpy.repeat(V5, r, total_repeat_length=9)

    def ours_unsized(r: jt.Array) -> jt.Array:
        return jnp.repeat(jnp.asarray(V5), r)

    assert_same(jt.jit(ours)(jnp.asarray(counts)), jax.jit(theirs)(counts))
    for other in ([0, 0, 3, 0, 2], [2, 2, 2, 2, 2], [0, 0, 0, 0, 9], [1, 1, 1, 1, 0]):
        assert_same(jt.jit(ours)(jnp.asarray(other, jnp.int32)), jax.jit(theirs)(np.asarray(other, np.int32)))
    assert_same(jt.vmap(ours)(jnp.asarray(np.stack([counts, counts[::-1]]))), jax.vmap(theirs)(np.stack([counts, counts[::-1]])))
    with pytest.raises(jt.errors.ConcretizationTypeError):
        jt.jit(ours_unsized)(jnp.asarray(counts))


def test_pad_with_traced_constant_matches_jax() -> None:
    def ours(c: jt.Array) -> jt.Array:
        return jnp.pad(jnp.asarray(X34), 1, constant_values=c)

    def theirs(c: Any) -> Any:
        return jax.numpy.pad(X34, 1, constant_values=c)

    assert_same(jt.jit(ours)(jnp.asarray(3.0)), jax.jit(theirs)(3.0))


def test_kaiser_with_large_beta_matches_numpy() -> None:
    # JAX's kaiser is nan here (its I0 overflows float32); ours scales by I0e.
    np.testing.assert_allclose(np.asarray(jnp.kaiser(9, 120.0)), np.kaiser(9, 120.0), rtol=1e-4, atol=1e-30)


def test_kaiser_under_grad_of_beta() -> None:
    def ours(b: jt.Array) -> jt.Array:
        return jnp.sum(jnp.kaiser(8, b))

    def theirs(b: Any) -> Any:
        return jax.numpy.sum(jax.numpy.kaiser(8, b))

    assert_same(jt.grad(ours)(jnp.asarray(3.0)), jax.grad(theirs)(3.0), rtol=1e-4, atol=1e-5)


def test_array_methods_match_jax() -> None:
    x, y = jnp.asarray(X234), jax.numpy.asarray(X234)
    assert_same(x.repeat(2, axis=1), y.repeat(2, axis=1))
    assert_same(x.diagonal(0, 1, 2), y.diagonal(0, 1, 2))
    assert_same(x.trace(1, 1, 2), y.trace(1, 1, 2))
    assert_same(x.swapaxes(0, 2), y.swapaxes(0, 2))
    assert_same(x.copy(), y.copy())
    assert_same(x.mT, y.mT)
    assert x.itemsize == y.itemsize == 4
    assert x.nbytes == y.nbytes == X234.nbytes
    assert jnp.asarray(I34).astype(jnp.int8).nbytes == 12
