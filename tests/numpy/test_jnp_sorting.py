"""The sorting family of ``jaxtyped.numpy`` against ``jax.numpy``: sort,
argsort, lexsort, sort_complex, partition, argpartition, searchsorted,
digitize, the cumulative functions, the unique functions and the Array
methods sort/argsort/cumsum/cumprod/searchsorted/argpartition.

Cases are written once as ``fn(L)`` and compared through the oracle
(values, dtype, weak type, shape; the kind of error where JAX raises).
JAX runs each table in one jit (the unique table eagerly: it needs
concrete inputs); the ``jit_*`` cases trace their inputs
(``library(L).api.jit``), so ``unique`` without ``size`` must raise the
concretization error there.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp

from oracle import Case, CaseTable, Group, call, host, jitted, library, vmapped

NAN, INF = float("nan"), float("inf")
RNG = np.random.default_rng(7)
FLAGS = {"return_index": True, "return_inverse": True, "return_counts": True}

F1 = host("float32", [3.0, NAN, -0.0, 1.0, 0.0, INF, 1.0, -INF, -2.0])
F34 = host("float32", RNG.standard_normal((3, 4)))
I34 = host("int32", RNG.integers(-3, 4, (3, 4)))
U8 = host("uint8", [3, 0, 7, 0, 1, 255])
B6 = host("bool", [True, False, True, False, False, True])
H25 = host("float16", RNG.standard_normal((2, 5)))
C4 = host("complex64", [1 + 2j, 1 - 1j, -1 + 5j, 1 + 0j])
TIES = host("float32", [2.0, 1.0, 2.0, 3.0, 1.0, 2.0])
SORTED = host("float32", [-1.0, 0.0, 0.0, 2.5, 2.5, 7.0, NAN])
QUERY = host("float32", [[0.0, 2.5, -5.0], [NAN, 9.0, 1.0]])
REPEATS = host("float32", [[3.0, 1.0, NAN], [1.0, NAN, 2.0], [3.0, 3.0, 0.0]])


def weak_input(name: str) -> Callable[[Any], Any]:
    """``L.<name>`` of a weakly typed array."""
    return lambda L: getattr(L, name)(L.broadcast_to(2.0, (3,)))


def sort_cases() -> list[Case]:
    return [
        Case("sort-special", call("sort", F1)),
        Case("sort-axis0", call("sort", F34, axis=0)),
        Case("sort-axis_none", call("sort", F34, axis=None)),
        Case("sort-int", call("sort", I34)),
        Case("sort-uint8", call("sort", U8)),
        Case("sort-bool", call("sort", B6)),
        Case("sort-float16", call("sort", H25, axis=0)),
        Case("sort-complex", call("sort", C4)),
        Case("sort-bfloat16", call("sort", host("bfloat16", [2.0, NAN, -1.0, 0.5]))),
        Case("sort-descending", call("sort", F1, descending=True)),
        Case("sort-unstable", call("sort", F34, stable=False)),
        Case("sort-weak", lambda L: L.sort(L.broadcast_to(2.0, (3,)))),
        Case("sort-kind", call("sort", F1, kind="quicksort")),
        Case("sort-order", call("sort", F1, order="x")),
        Case("sort-axis_out_of_range", call("sort", F34, axis=2)),
        Case("sort-scalar", call("sort", host("float32", 1.0))),
        Case("sort-list", call("sort", [3, 1, 2])),
        Case("argsort-special", call("argsort", F1)),
        Case("argsort-ties", call("argsort", TIES)),
        Case("argsort-descending_stable", call("argsort", TIES, descending=True)),
        Case("argsort-descending_special", call("argsort", F1, descending=True)),
        Case("argsort-axis0", call("argsort", I34, axis=0)),
        Case("argsort-axis_none", call("argsort", I34, axis=None)),
        Case("argsort-bool", call("argsort", B6)),
        Case("argsort-float16", call("argsort", H25)),
        Case("argsort-dtype", call("argsort", TIES, dtype=jnp.int16)),
        Case("lexsort-two", lambda L: L.lexsort([L.asarray(TIES), L.asarray(host("int32", [1, 0, 1, 0, 1, 0]))])),
        Case("lexsort-three_mixed", lambda L: L.lexsort(
            (L.asarray(host("float32", range(6))), L.asarray(TIES), L.asarray(B6)))),
        Case("lexsort-2d_array", call("lexsort", I34)),
        Case("lexsort-axis0", lambda L: L.lexsort((L.asarray(I34), L.asarray(F34)), axis=0)),
        Case("lexsort-scalar", lambda L: L.lexsort((L.asarray(host("float32", 1.0)),))),
        Case("lexsort-empty", lambda L: L.lexsort(())),
        Case("lexsort-shape_mismatch", lambda L: L.lexsort((L.asarray(TIES), L.asarray(F34)))),
        Case("sort_complex-float", call("sort_complex", F34)),
        Case("sort_complex-int", call("sort_complex", I34)),
        Case("sort_complex-complex", call("sort_complex", C4)),
        Case("partition-float", call("partition", F34, 1)),
        Case("partition-negative_kth", call("partition", TIES, -2)),
        Case("partition-axis0", call("partition", I34, 1, axis=0)),
        Case("partition-uint8", call("partition", U8, 2)),
        Case("partition-complex", call("partition", C4, 1)),
        Case("partition-kth_out_of_range", call("partition", TIES, 6)),
        Case("argpartition-float", call("argpartition", F34, 2)),
        Case("argpartition-ties", call("argpartition", TIES, 3)),
        Case("argpartition-axis0", call("argpartition", I34, 0, axis=0)),
        Case("argpartition-uint8", call("argpartition", U8, 1)),
    ]  # fmt: skip


def search_cases() -> list[Case]:
    return [
        Case("searchsorted-left", call("searchsorted", SORTED, QUERY)),
        Case("searchsorted-right", call("searchsorted", SORTED, QUERY, side="right")),
        Case("searchsorted-scalar", call("searchsorted", SORTED, 2.5)),
        Case("searchsorted-int_promoted", call("searchsorted", host("int32", [1, 3, 3, 8]), host("float32", [3.0, 3.5]))),
        Case("searchsorted-sorter", call("searchsorted", TIES, host("float32", [2.0, 0.0]), sorter=host("int32", [1, 4, 0, 2, 5, 3]))),
        *[
            Case(f"searchsorted-{method}_{side}_{what}", call("searchsorted", a, v, side=side, method=method))
            for method in ("scan", "scan_unrolled", "sort", "compare_all")
            for side in ("left", "right")
            for what, a, v in (
                ("nan", SORTED, QUERY),
                ("zeros", host("float32", [-1.0, -0.0, 0.0, 0.0, 1.0]), host("float32", [0.0, -0.0, NAN])),
                ("int", host("int32", [-2, 0, 0, 3, 9]), host("int32", [[0, 5], [-3, 9]])),
                ("complex", host("complex64", [1 - 1j, 1 + 0j, 1 + 0j, 2 + NAN * 1j]), host("complex64", [1 + 0j, 3j, NAN])),
                ("bool", host("bool", [False, True, True]), host("bool", [True, False])),
            )
        ],
        Case("searchsorted-empty", call("searchsorted", host("float32", []), QUERY)),
        Case("searchsorted-zeros", call("searchsorted", host("float32", [-0.0, 0.0, 1.0]), host("float32", [0.0, -0.0]))),
        Case("searchsorted-bad_side", call("searchsorted", SORTED, QUERY, side="middle")),
        Case("searchsorted-bad_method", call("searchsorted", SORTED, QUERY, method="fast")),
        Case("searchsorted-2d", call("searchsorted", F34, QUERY)),
        Case("digitize-increasing", call("digitize", QUERY, host("float32", [-1.0, 0.0, 2.5, 8.0]))),
        Case("digitize-method_sort", call("digitize", QUERY, host("float32", [8.0, 2.5, 0.0]), method="sort")),
        Case("digitize-method_compare_all", call("digitize", QUERY, host("float32", [-1.0, 2.5]), True, method="compare_all")),
        Case("digitize-right", call("digitize", QUERY, host("float32", [-1.0, 0.0, 2.5, 8.0]), right=True)),
        Case("digitize-decreasing", call("digitize", QUERY, host("float32", [8.0, 2.5, 0.0, -1.0]))),
        Case("digitize-int", call("digitize", I34, host("int32", [-1, 0, 2]))),
        Case("digitize-empty_bins", call("digitize", QUERY, host("float32", []))),
        Case("digitize-2d_bins", call("digitize", QUERY, F34)),
    ]  # fmt: skip


def cumulative_cases() -> list[Case]:
    cases: list[Case] = []
    for name in ("cumsum", "cumprod", "nancumsum", "nancumprod"):
        cases += [
            Case(f"{name}-axis_none", call(name, F34)),
            Case(f"{name}-axis1", call(name, F34, axis=1)),
            Case(f"{name}-negative_axis", call(name, I34, axis=-2)),
            Case(f"{name}-nan", call(name, F1)),
            Case(f"{name}-bool", call(name, B6)),
            Case(f"{name}-int8", call(name, host("int8", [1, -2, 3]))),
            Case(f"{name}-uint8", call(name, U8)),
            Case(f"{name}-float16", call(name, H25, axis=1), rtol=2e-2, atol=2e-2),
            Case(f"{name}-bfloat16", call(name, host("bfloat16", [0.5, 1.5, -2.0])), rtol=2e-2, atol=2e-2),
            Case(f"{name}-dtype_float", call(name, I34, axis=0, dtype=jnp.float32)),
            Case(f"{name}-dtype_bool", call(name, host("int32", [0, 2, -1, 0]), dtype=jnp.bool_)),
            Case(f"{name}-scalar", call(name, host("float32", 2.0))),
            Case(f"{name}-weak", weak_input(name)),
            Case(f"{name}-complex", call(name, C4)),
            Case(f"{name}-axis_out_of_range", call(name, F34, axis=2)),
        ]
    for name in ("cumulative_sum", "cumulative_prod"):
        cases += [
            Case(f"{name}-1d", call(name, TIES)),
            Case(f"{name}-axis1_initial", call(name, F34, axis=1, include_initial=True)),
            Case(f"{name}-axis0_initial", call(name, I34, axis=0, include_initial=True)),
            Case(f"{name}-int8", call(name, host("int8", [1, -2, 3]))),
            Case(f"{name}-bool", call(name, B6, include_initial=True)),
            Case(f"{name}-dtype", call(name, I34, axis=1, dtype=jnp.float32)),
            Case(f"{name}-2d_without_axis", call(name, F34)),
            Case(f"{name}-scalar", call(name, host("float32", 2.0))),
        ]
    return cases


def unique_cases() -> list[Case]:
    """Without ``size`` (the count must be concrete: JAX runs these eagerly)."""
    return [
        Case("unique-float_nan", call("unique", REPEATS)),
        Case("unique-all_flags", call("unique", REPEATS, **FLAGS)),
        Case("unique-inverse_only", call("unique", REPEATS, return_inverse=True)),
        Case("unique-nan_distinct", call("unique", REPEATS, equal_nan=False, **FLAGS)),
        Case("unique-axis0", call("unique", host("int32", [[1, 2], [1, 2], [0, 5], [1, 0]]), axis=0, **FLAGS)),
        Case("unique-bool", call("unique", B6, **FLAGS)),
        Case("unique-scalar", call("unique", host("float32", 3.0))),
        Case("unique_values-nan", call("unique_values", REPEATS)),
        Case("unique_counts-nan", call("unique_counts", REPEATS)),
        Case("unique_inverse-2d", call("unique_inverse", REPEATS)),
        Case("unique_all-2d", call("unique_all", REPEATS)),
    ]


def unique_sized_cases() -> list[Case]:
    """With ``size``: traceable, so JAX runs them in one jit."""
    return [
        Case("unique-index_counts", call("unique", I34, size=7, return_index=True, return_counts=True)),
        Case("unique-size_larger", call("unique", REPEATS, size=8, **FLAGS)),
        Case("unique-size_smaller", call("unique", REPEATS, size=2, **FLAGS)),
        Case("unique-fill_value", call("unique", I34, size=12, fill_value=-9, **FLAGS)),
        Case("unique-axis1", call("unique", host("int32", [[1, 1, 0], [2, 2, 5]]), axis=1, size=2, return_counts=True)),
        Case("unique-uint8", call("unique", U8, size=5)),
        Case("unique-float16", call("unique", H25, size=10)),
        Case("unique_values-size", call("unique_values", I34, size=9, fill_value=0)),
        Case("unique_counts-size", call("unique_counts", REPEATS, size=3)),
        Case("unique_all-size", call("unique_all", I34, size=10)),
    ]


def method_cases() -> list[Case]:
    return [
        Case("method_sort-default", lambda L: L.asarray(F34).sort()),
        Case("method_sort-axis0_descending", lambda L: L.asarray(F34).sort(axis=0, descending=True)),
        Case("method_argsort-descending", lambda L: L.asarray(TIES).argsort(descending=True)),
        Case("method_argsort-axis_none", lambda L: L.asarray(I34).argsort(axis=None)),
        Case("method_cumsum-default", lambda L: L.asarray(I34).cumsum()),
        Case("method_cumsum-axis_dtype", lambda L: L.asarray(I34).cumsum(axis=1, dtype=jnp.float32)),
        Case("method_cumprod-axis0", lambda L: L.asarray(F34).cumprod(0)),
        Case("method_searchsorted-right", lambda L: L.asarray(SORTED).searchsorted(L.asarray(QUERY), side="right")),
        Case("method_argpartition-kth", lambda L: L.asarray(F34).argpartition(2)),
    ]


def jit_cases() -> list[Case]:
    def unique_sized(L: Any, x: Any) -> Any:
        return L.unique(x, size=5, **{"return_index": True, "return_inverse": True, "return_counts": True})

    return [
        Case("jit_sort-special", jitted(lambda L, x: L.sort(x, descending=True), F1)),
        Case("jit_argsort-ties", jitted(lambda L, x: L.argsort(x, descending=True), TIES)),
        Case("jit_lexsort-two", jitted(lambda L, a, b: L.lexsort((a, b)), TIES, host("int32", [1, 0, 1, 0, 1, 0]))),
        Case("jit_partition-float", jitted(lambda L, x: L.partition(x, 2), F34)),
        Case("jit_argpartition-float", jitted(lambda L, x: L.argpartition(x, 1, axis=0), F34)),
        Case("jit_searchsorted-left", jitted(lambda L, a, v: L.searchsorted(a, v), SORTED, QUERY)),
        Case("jit_searchsorted-sorter", jitted(
            lambda L, a, s: L.searchsorted(a, host("float32", [2.0, 0.0]), side="right", sorter=s),
            TIES, host("int32", [1, 4, 0, 2, 5, 3]))),
        Case("jit_digitize-decreasing", jitted(lambda L, x, b: L.digitize(x, b), QUERY, host("float32", [8.0, 2.5, 0.0]))),
        Case("jit_cumsum-axis1", jitted(lambda L, x: L.cumsum(x, axis=1), F34)),
        Case("jit_cumprod-reverse_free", jitted(lambda L, x: L.cumprod(x), I34)),
        Case("jit_nancumsum-nan", jitted(lambda L, x: L.nancumsum(x), F1)),
        Case("jit_cumulative_sum-initial", jitted(lambda L, x: L.cumulative_sum(x, axis=0, include_initial=True), F34)),
        Case("jit_unique-sized", jitted(unique_sized, REPEATS)),
        Case("jit_unique-sized_fill", jitted(lambda L, x: L.unique(x, size=6, fill_value=0.5), REPEATS)),
        Case("jit_unique-no_size", jitted(lambda L, x: L.unique(x), REPEATS)),
        Case("jit_unique_all-sized", jitted(lambda L, x: L.unique_all(x, size=4), I34)),
        Case("jit_unique_counts-no_size", jitted(lambda L, x: L.unique_counts(x), I34)),
    ]  # fmt: skip


def vmap_cases() -> list[Case]:
    rows = host("float32", [[2.0, NAN, -1.0, 2.0], [0.0, -0.0, 5.0, 1.0], [3.0, 3.0, 3.0, -INF]])
    return [
        Case("vmap_sort-descending", vmapped(lambda L, x: L.sort(x, descending=True), rows)),
        Case("vmap_argsort-stable", vmapped(lambda L, x: L.argsort(x, descending=True), rows)),
        Case("vmap_searchsorted-scan", vmapped(lambda L, x: L.searchsorted(L.sort(x), x), rows)),
        Case("vmap_searchsorted-sort", vmapped(lambda L, x: L.searchsorted(L.sort(x), x, side="right", method="sort"), rows)),
        Case("vmap_partition-kth1", vmapped(lambda L, x: L.partition(x, 1), F34)),
        Case("vmap_argpartition-kth2", vmapped(lambda L, x: L.argpartition(x, 2), F34)),
        Case("vmap_cumsum-row", vmapped(lambda L, x: L.cumsum(x), rows)),
        Case("vmap_unique-sized", vmapped(lambda L, x: L.unique(x, size=4, return_counts=True, return_inverse=True), rows)),
    ]


def derivative_cases() -> list[Case]:
    def grad_of(fn: Callable[[Any, Any], Any], x: np.ndarray[Any, Any]) -> Callable[[Any], Any]:
        weights = host("float32", np.arange(1.0, 1.0 + x.size).reshape(x.shape) / 5.0)

        def run(L: Any) -> Any:
            def loss(y: Any) -> Any:
                return L.sum(fn(L, y) * weights)

            return library(L).api.grad(loss)(L.asarray(x))

        return run

    return [
        Case("grad_sort-ties", grad_of(lambda L, x: L.sort(x, descending=True), TIES)),
        Case("grad_cumsum-axis1", grad_of(lambda L, x: L.cumsum(x, axis=1), F34)),
        Case("grad_cumprod-zero", grad_of(lambda L, x: L.cumprod(x), host("float32", [1.5, 0.0, 2.0, -1.0]))),
        Case("grad_nancumsum-nan", grad_of(lambda L, x: L.nancumsum(x), host("float32", [1.0, NAN, 2.0]))),
        Case("grad_partition-x", grad_of(lambda L, x: L.partition(x, 1), F34)),
        Case("grad_cumulative_prod-initial", grad_of(
            lambda L, x: L.cumulative_prod(x, include_initial=True)[1:], host("float32", [0.5, 2.0, 3.0]))),
    ]


TABLES = {
    name: CaseTable(f"jnp_sorting_{name}", make)
    for name, make in (
        ("sort", sort_cases), ("search", search_cases), ("cumulative", cumulative_cases),
        ("methods", method_cases), ("jit", jit_cases), ("derivatives", derivative_cases),
        ("unique_sized", unique_sized_cases), ("vmap", vmap_cases),
    )
}  # fmt: skip
# unique needs concrete inputs: JAX runs these cases eagerly.
TABLES["unique"] = CaseTable("jnp_sorting_unique", unique_cases, eager=True)


def x64_cases() -> list[Case]:
    """Index and accumulator dtypes with 64-bit types on."""
    return [
        Case("argsort-x64", call("argsort", TIES)),
        Case("lexsort-x64", lambda L: L.lexsort((L.asarray(TIES), L.asarray(B6)))),
        Case("searchsorted-x64", call("searchsorted", SORTED, QUERY)),
        Case("digitize-x64", call("digitize", QUERY, host("float32", [0.0, 2.5]))),
        Case("unique-x64", call("unique", REPEATS, size=6, **FLAGS)),
        Case("cumsum-x64_int32", call("cumsum", I34)),
        Case("cumsum-x64_bool", call("cumsum", B6)),
        Case("cumulative_sum-x64_int32", call("cumulative_sum", I34, axis=1)),
        Case("cumprod-x64_float", call("cumprod", host("float64", [1.5, 2.0, -1.0]))),
        Case("argpartition-x64", call("argpartition", TIES, 2)),
        Case("sort_complex-x64", call("sort_complex", host("float64", [2.0, -1.0]))),
    ]


TABLES["x64"] = CaseTable("jnp_sorting_x64", x64_cases, x64=True)
TABLES["x64_unique"] = CaseTable("jnp_sorting_x64_unique", lambda: [Case("unique_all-x64", call("unique_all", I34))],
                                  x64=True, eager=True)  # fmt: skip


@pytest.mark.parametrize(
    ("table", "group"),
    [pytest.param(name, p.values[0], id=f"{name}-{p.id}") for name, table in TABLES.items() for p in table.params()],
)
def test_matches_jax(table: str, group: Group) -> None:
    TABLES[table].check(group)


def test_unique_without_size_under_jit_names_the_fix() -> None:
    with pytest.raises(jt.errors.ConcretizationTypeError):
        jt.jit(jnp.unique)(jnp.asarray(REPEATS))


def test_unique_result_types_have_field_names() -> None:
    result = jnp.unique_all(jnp.asarray(I34))
    assert result.values is result[0] and result.counts is result[3]
    assert int(jnp.sum(result.counts)) == I34.size
