"""The statistics of the math/statistics family against ``jax.numpy``:
var/std (ddof, correction, where, keepdims, dtype, mean), median,
percentile/quantile (every method, weights with 'inverted_cdf') and their
NaN-ignoring forms, average,
ptp, count_nonzero, the nan* reductions, cov/corrcoef, the histograms and
bincount; and the Array methods var/std/ptp/round/clip.

Cases are written once as ``fn(L)`` and compared through the oracle
(values, dtype, weak type, shape; the kind of error where JAX raises).
Derivatives are compared with JAX's at the special points the issue names:
var/std at constant input, median and percentiles at ties.
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from oracle import Case, CaseTable, Group, call, grad_of_sum, host, jitted, library, vmapped

NAN = float("nan")
RNG = np.random.default_rng(11)

X = host("float32", [[1.0, 3.0, NAN, 10.0], [0.0, 1.0, 1.0, 0.0], [4.0, 2.0, 8.0, 6.0]])
Y = host("float32", np.nan_to_num(X))
I = host("int32", [[3, 1, 4, 1], [5, 9, 2, 6]])
H = host("float16", [[1.0, 2.0, 4.0], [0.5, 0.25, 8.0]])
C = host("complex64", [1 + 1j, 2 - 1j, -1 + 0.5j])
ALL_NAN = host("float32", [[NAN, NAN], [1.0, NAN]])
WEIGHTS = host("float32", [[1.0, 2.0, 3.0, 4.0], [0.5, 1.0, 1.0, 2.0], [1.0, 1.0, 1.0, 1.0]])
TIES = host("float32", [2.0, 1.0, 2.0, 2.0, 5.0, 1.0])
CONSTANT = host("float32", [3.0, 3.0, 3.0, 3.0])
SAMPLES = host("float32", RNG.standard_normal(40))
POINTS = host("float32", RNG.standard_normal((30, 3)))
METHODS = ("linear", "lower", "higher", "midpoint", "nearest")


def vmapped_grad(fn: Callable[[Any, Any], Any], x: Any) -> Callable[[Any], Any]:
    """The gradient of ``fn(L, row)`` for each row of ``x`` (vmap of grad)."""

    def case(L: Any) -> Any:
        def value(row: Any) -> Any:
            return fn(L, row)

        api = library(L).api
        return api.vmap(api.grad(value))(L.asarray(x))

    return case


def jvp_case(fn: Callable[[Any, Any], Any], x: Any) -> Callable[[Any], Any]:
    """The value and jvp of ``fn(L, x)`` along ones."""

    def case(L: Any) -> Any:
        def at(v: Any) -> Any:
            return fn(L, v)

        return library(L).api.jvp(at, (L.asarray(x),), (L.ones_like(L.asarray(x)),))

    return case


def moment_cases() -> list[Case]:
    cases: list[Case] = []
    for name in ("var", "std", "nanvar", "nanstd", "nanmean", "nansum", "nanprod", "nanmax", "nanmin", "nanargmax", "nanargmin", "ptp", "count_nonzero"):
        for axis in (None, 0, 1):
            cases.append(Case(f"{name}-x_axis{axis}", call(name, X, axis=axis)))
            cases.append(Case(f"{name}-y_axis{axis}", call(name, Y, axis=axis)))
        cases.append(Case(f"{name}-int", call(name, I, axis=1)))
        cases.append(Case(f"{name}-keepdims", call(name, Y, axis=1, keepdims=True)))
    return cases + [
        Case("var-ddof", call("var", Y, ddof=1)),
        Case("var-correction", call("var", Y, axis=1, correction=1.5, keepdims=True)),
        Case("var-both", call("var", Y, ddof=1, correction=1)),
        Case("var-where", lambda L: L.var(L.asarray(Y), axis=1, where=L.asarray(Y) > 1)),
        Case("var-complex", call("var", C)),
        Case("var-complex_real_dtype", call("var", C, dtype="float32")),
        Case("var-float16", call("var", H, axis=0)),
        Case("var-dtype", call("var", I, dtype="float16")),
        Case("var-mean", lambda L: L.var(L.asarray(Y), axis=1, mean=L.mean(L.asarray(Y), axis=1, keepdims=True))),
        Case("var-scalar", call("var", 3.0)),
        Case("var-bool", call("var", host("bool", [True, False, True]))),
        Case("std-ddof", call("std", I, ddof=1)),
        Case("std-where", lambda L: L.std(L.asarray(Y), where=L.asarray(Y) > 0)),
        Case("nanvar-ddof_too_big", call("nanvar", ALL_NAN, axis=1, ddof=1)),
        Case("nanmean-all_nan", call("nanmean", ALL_NAN, axis=1)),
        Case("nanmax-all_nan", call("nanmax", ALL_NAN, axis=1)),
        Case("nanargmin-all_nan", call("nanargmin", ALL_NAN, axis=1)),
        Case("nansum-dtype", call("nansum", X, dtype="float16")),
        Case("nansum-initial_where", lambda L: L.nansum(L.asarray(X), initial=2.0, where=L.asarray(Y) > 1)),
        Case("nanprod-float16", call("nanprod", H, axis=1)),
        Case("nanmean-where", lambda L: L.nanmean(L.asarray(X), axis=0, where=L.asarray(Y) < 5)),
        Case("ptp-bool", call("ptp", I > 2)),
        Case("count_nonzero-bool", call("count_nonzero", host("bool", [[True, False], [True, True]]), axis=0)),
        Case("count_nonzero-float", call("count_nonzero", X)),
        Case("average-default", call("average", Y)),
        Case("average-weights", call("average", Y, axis=1, weights=host("float32", [1.0, 2.0, 3.0, 4.0]), returned=True)),
        Case("average-full_weights", call("average", Y, weights=Y + 1, returned=True)),
        Case("average-axes", call("average", Y, axis=(0, 1), returned=True)),
        Case("average-int", call("average", I, returned=True, keepdims=True)),
        Case("average-no_axis", call("average", Y, weights=host("float32", [1.0, 2.0, 3.0, 4.0]))),
        Case("average-bad_length", call("average", Y, axis=0, weights=host("float32", [1.0, 2.0]))),
        Case("cov-rows", call("cov", Y)),
        Case("cov-columns", call("cov", Y, rowvar=False)),
        Case("cov-xy", call("cov", Y[0], Y[1])),
        Case("cov-weights", call("cov", Y, aweights=host("float32", [1.0, 2.0, 3.0, 4.0]), fweights=host("int32", [1, 2, 1, 1]))),
        Case("cov-bias", call("cov", Y, bias=True)),
        Case("cov-ddof", call("cov", Y, ddof=0, fweights=host("int32", [1, 2, 1, 1]))),
        Case("cov-1d", call("cov", host("int32", [1, 2, 4, 7]))),
        Case("cov-complex", call("cov", C)),
        Case("cov-float_fweights", call("cov", Y, fweights=host("float32", [1.0, 2.0, 1.0, 1.0]))),
        Case("cov-3d", call("cov", np.zeros((2, 2, 2), np.float32))),
        Case("corrcoef-rows", call("corrcoef", Y)),
        Case("corrcoef-xy", call("corrcoef", Y[0], Y[1])),
        Case("corrcoef-1d", call("corrcoef", Y[0])),
        Case("corrcoef-int_dtype", call("corrcoef", Y, dtype="int32")),
    ]


def quantile_cases() -> list[Case]:
    cases: list[Case] = []
    for method in METHODS:
        cases += [
            Case(f"quantile-{method}_scalar", call("quantile", Y, 0.3, axis=1, method=method)),
            Case(f"quantile-{method}_vector", call("quantile", Y, host("float32", [0.1, 0.5, 0.9]), axis=0, method=method, keepdims=True)),
            Case(f"nanquantile-{method}", call("nanquantile", X, host("float32", [0.1, 0.5, 0.9]), axis=1, method=method)),
            Case(f"percentile-{method}", call("percentile", Y, 30, method=method)),
            Case(f"nanpercentile-{method}", call("nanpercentile", X, host("float32", [10.0, 75.0]), axis=(0, 1), method=method)),
        ]
    return cases + [
        Case("quantile-nan", call("quantile", X, 0.5, axis=1)),
        Case("quantile-int", call("quantile", I, 0.25)),
        Case("quantile-float16", call("quantile", H, 0.5, axis=1)),
        Case("quantile-axes_keepdims", call("quantile", Y, host("float32", [0.2, 0.8]), axis=(0, 1), keepdims=True)),
        Case("quantile-bad_method", call("quantile", Y, 0.5, method="foo")),
        Case("quantile-q_rank2", call("quantile", Y, host("float32", [[0.5]]))),
        Case("quantile-complex", call("quantile", C, 0.5)),
        Case("quantile-weights", call("quantile", Y, 0.5, weights=Y)),
        Case("quantile-inverted_cdf", call("quantile", Y, 0.3, axis=1, method="inverted_cdf")),
        Case("quantile-inverted_cdf_vector", call("quantile", Y, host("float32", [0.1, 0.5, 0.9]), axis=0, method="inverted_cdf", keepdims=True)),
        Case("quantile-inverted_cdf_weights", call("quantile", Y, 0.3, axis=1, method="inverted_cdf", weights=WEIGHTS)),
        Case("quantile-inverted_cdf_axis_weights", call("quantile", Y, host("float32", [0.1, 0.9]), axis=1, method="inverted_cdf", weights=WEIGHTS[0])),
        Case("quantile-inverted_cdf_nan", call("quantile", X, 0.5, axis=1, method="inverted_cdf")),
        Case("quantile-inverted_cdf_negative_weights", call("quantile", Y, 0.5, method="inverted_cdf", weights=-WEIGHTS)),
        Case("quantile-inverted_cdf_weights_no_axis", call("quantile", Y, 0.5, method="inverted_cdf", weights=WEIGHTS[0])),
        Case("quantile-complex_weights", call("quantile", Y, 0.5, method="inverted_cdf", weights=WEIGHTS.astype(np.complex64))),
        Case("nanquantile-inverted_cdf_weights", call("nanquantile", X, 0.5, axis=1, method="inverted_cdf", weights=WEIGHTS)),
        Case("percentile-inverted_cdf_axes", call("percentile", Y, 40, axis=(0, 1), method="inverted_cdf", weights=WEIGHTS)),
        Case("nanpercentile-inverted_cdf", call("nanpercentile", X, host("float32", [10.0, 90.0]), axis=0, method="inverted_cdf")),
        Case("median-default", call("median", Y)),
        Case("median-axis", call("median", Y, axis=1, keepdims=True)),
        Case("median-nan", call("median", X, axis=0)),
        Case("median-int", call("median", host("int32", np.arange(6)), keepdims=True)),
        Case("median-scalar", call("median", 3.0)),
        Case("median-ties", call("median", TIES)),
        Case("nanmedian-default", call("nanmedian", X, axis=1)),
        Case("nanmedian-all_nan", call("nanmedian", ALL_NAN, axis=1)),
        Case("percentile-int_q", call("percentile", I, host("int32", [25, 50]), axis=1)),
        Case("quantile-jit", jitted(lambda L, x: L.quantile(x, 0.4, axis=0), Y)),
        Case("median-vmap", lambda L: library(L).api.vmap(L.median)(L.asarray(Y))),
    ]


def grad_cases() -> list[Case]:
    return [
        Case("var-grad_constant", grad_of_sum(lambda L, x: L.var(x), CONSTANT)),
        Case("std-grad_values", grad_of_sum(lambda L, x: L.std(x, ddof=1), TIES)),
        Case("var-grad_where", grad_of_sum(lambda L, x: L.var(x, where=x > 1.5), TIES)),
        Case("nanvar-grad", grad_of_sum(lambda L, x: L.nanvar(x), host("float32", [1.0, NAN, 3.0, 4.0]))),
        Case("median-grad_ties", grad_of_sum(lambda L, x: L.median(x), TIES)),
        Case("median-grad_odd", grad_of_sum(lambda L, x: L.median(x), TIES[:5])),
        Case("percentile-grad_ties", grad_of_sum(lambda L, x: L.percentile(x, host("float32", [0.0, 25.0, 50.0, 100.0])), TIES)),
        Case("quantile-grad_nearest", grad_of_sum(lambda L, x: L.quantile(x, 0.5, method="nearest"), TIES)),
        Case("nanmedian-grad", grad_of_sum(lambda L, x: L.nanmedian(x), host("float32", [2.0, NAN, 2.0, 1.0]))),
        Case("average-grad", grad_of_sum(lambda L, x: L.average(x, weights=L.arange(6.0)), TIES)),
        Case("ptp-grad_ties", grad_of_sum(lambda L, x: L.ptp(x), TIES)),
        Case("nanmax-grad", grad_of_sum(lambda L, x: L.nanmax(x), host("float32", [2.0, NAN, 5.0, 1.0]))),
        Case("cov-grad", grad_of_sum(lambda L, x: L.cov(L.reshape(x, (2, 3))), TIES)),
        Case("corrcoef-grad", grad_of_sum(lambda L, x: L.corrcoef(L.reshape(x, (2, 3))), TIES + host("float32", [0, 0, 0, 0, 0, 1]))),
        Case("histogram-grad_weights", grad_of_sum(lambda L, w: L.histogram(SAMPLES[:6], bins=3, weights=w)[0], TIES)),
        Case("bincount-vmap_length", vmapped(lambda L, r: L.bincount(r, length=4), host("int32", [[0, 1, 1, 3], [2, 2, 0, 1]]))),
        Case("histogram-vmap", vmapped(lambda L, r: L.histogram(r, bins=3)[0], Y)),
        Case("median-jvp", jvp_case(lambda L, r: L.median(r, axis=1), Y)),
        Case("var-jvp", jvp_case(lambda L, r: L.var(r, axis=0, ddof=1), Y)),
        Case("quantile-vmap_grad", vmapped_grad(lambda L, v: L.quantile(v, 0.3), Y)),
        Case("cov-vmap", vmapped(lambda L, r: L.cov(L.reshape(r, (2, 2))), Y)),
        Case("nanmean-vmap", vmapped(lambda L, r: L.nanmean(r), X)),
    ]


def histogram_cases() -> list[Case]:
    return [
        Case("bincount-default", call("bincount", host("int32", [0, 1, 1, 5, 2]))),
        Case("bincount-minlength", call("bincount", host("int32", [0, 1, 1, 5, 2]), minlength=8)),
        Case("bincount-weights_length", call("bincount", host("int32", [0, 1, -1, 5, 2]), host("float32", [0.5, 1, 2, 3, 4]), length=3)),
        Case("bincount-bool", call("bincount", host("bool", [True, False, True]))),
        Case("bincount-float", call("bincount", host("float32", [1.0, 2.0]))),
        Case("bincount-2d", call("bincount", I)),
        Case("bincount-jit_length", jitted(lambda L, x: L.bincount(x, length=4), host("int32", [0, 1, 1, 3]))),
        Case("bincount-jit_no_length", lambda L: library(L).api.jit(L.bincount)(L.asarray(host("int32", [0, 1, 1, 3])))),
        Case("histogram-default", call("histogram", SAMPLES)),
        Case("histogram-range_density", call("histogram", SAMPLES, bins=5, range=(-1, 1), density=True)),
        Case("histogram-edges_weights", call("histogram", SAMPLES, bins=host("float32", [-2.0, 0.0, 0.5, 2.0]), weights=abs(SAMPLES))),
        Case("histogram-int", call("histogram", I, bins=3)),
        Case("histogram-weights_shape", call("histogram", SAMPLES, weights=SAMPLES[:3])),
        Case("histogram_bin_edges-count", call("histogram_bin_edges", SAMPLES, bins=4)),
        Case("histogram_bin_edges-int", call("histogram_bin_edges", I)),
        Case("histogram_bin_edges-constant", call("histogram_bin_edges", CONSTANT, bins=2)),
        Case("histogram_bin_edges-string", call("histogram_bin_edges", SAMPLES, bins="auto")),
        Case("histogramdd-default", call("histogramdd", POINTS, bins=4)),
        Case("histogramdd-per_dim_density", call("histogramdd", POINTS, bins=[2, 3, 4], density=True, weights=abs(POINTS[:, 0]))),
        Case("histogramdd-range", call("histogramdd", POINTS, bins=3, range=[(-1, 1), None, (0, 2)])),
        Case("histogram2d-default", call("histogram2d", POINTS[:, 0], POINTS[:, 1], bins=3)),
        Case("histogram2d-bins_range", call("histogram2d", POINTS[:, 0], POINTS[:, 1], bins=[2, 5], range=[(-1, 1), (-2, 2)])),
        Case("histogram2d-edges", call("histogram2d", POINTS[:, 0], POINTS[:, 1], bins=host("float32", [-1.0, 0.0, 1.0]))),
    ]


def method_cases() -> list[Case]:
    return [
        Case("method-var", lambda L: L.asarray(Y).var(axis=0, ddof=1)),
        Case("method-std", lambda L: L.asarray(Y).std(correction=1, keepdims=True)),
        Case("method-ptp", lambda L: L.asarray(I).ptp(axis=1)),
        Case("method-round", lambda L: L.asarray(host("float32", [1.25, 2.5, -0.5])).round(1)),
        Case("method-clip", lambda L: L.asarray(Y).clip(1, 5)),
        Case("method-clip_min", lambda L: L.asarray(I).clip(min=2)),
    ]


MOMENTS = CaseTable("moments", moment_cases)
QUANTILES = CaseTable("quantiles", quantile_cases)
GRADS = CaseTable("statistics_grads", grad_cases)
HISTOGRAMS = CaseTable("histograms", histogram_cases, eager=True)
METHODS_TABLE = CaseTable("statistics_methods", method_cases)


@pytest.mark.parametrize("group", MOMENTS.params())
def test_moments_and_nan_reductions(group: Group) -> None:
    MOMENTS.check(group)


@pytest.mark.parametrize("group", QUANTILES.params())
def test_quantiles(group: Group) -> None:
    QUANTILES.check(group)


@pytest.mark.parametrize("group", GRADS.params())
def test_derivatives_at_special_points(group: Group) -> None:
    GRADS.check(group)


@pytest.mark.parametrize("group", HISTOGRAMS.params())
def test_histograms_and_bincount(group: Group) -> None:
    HISTOGRAMS.check(group)


@pytest.mark.parametrize("group", METHODS_TABLE.params())
def test_array_methods(group: Group) -> None:
    METHODS_TABLE.check(group)
