"""The math, statistics, logic, set and polynomial functions, dtype names,
printing and I/O of jaxtyped.numpy used as NumPy users write them: loose
ArrayLike inputs, strict results (Array, tuples of Array, Python bools and
strings), checked against NumPy where NumPy agrees."""

import io

import numpy as np

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike


def same(a: ArrayLike, b: ArrayLike) -> bool:
    return bool(np.allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6, equal_nan=True))


host = np.array([[1.0, 3.0, 6.0, 10.0], [0.0, 1.0, 1.0, 0.0]], np.float32)
m = jnp.asarray(host)
v = jnp.array([0.5, -1.0, 2.0, 0.0])
ints = jnp.array([12, -18, 0, 7])

# --- logic ---
flags: list[Array] = [
    jnp.isclose(v, 0.5), jnp.allclose(m, host), jnp.array_equal(m, host, equal_nan=True), jnp.array_equiv(v, v),
    jnp.isneginf(v), jnp.isposinf(host), jnp.isreal(v), jnp.iscomplex(v), jnp.signbit(v),
]  # fmt: skip
assert bool(flags[1]) and bool(flags[2]) and bool(flags[3])
facts: list[bool] = [
    jnp.isrealobj(m), jnp.iscomplexobj(host), jnp.isscalar(2.0), jnp.iterable(m), jnp.can_cast(jnp.int8, jnp.int32),
    jnp.isdtype(jnp.float32, "real floating"), jnp.isdtype(m.dtype, ("integral", "bool")),
]  # fmt: skip
assert facts == [True, False, True, True, True, True, False]

# --- math ---
mantissa, exponent = jnp.frexp(v)
fraction, whole = jnp.modf(v)
math_results: list[Array] = [
    jnp.heaviside(v, 0.5), jnp.copysign(2.0, v), jnp.ldexp(mantissa, exponent), jnp.gcd(ints, 8), jnp.lcm(ints, 8),
    jnp.fmax(v, 0.0), jnp.fmin(host, 1), jnp.fabs(v), jnp.float_power(2, v), jnp.spacing(v), jnp.nextafter(v, 1.0),
    jnp.i0(v), jnp.angle(v, deg=True), jnp.nan_to_num(v, nan=0.0), jnp.bitwise_count(ints), jnp.acos(0.5),
    jnp.acosh(2.0), jnp.asin(0.5), jnp.asinh(v), jnp.atan(v), jnp.atanh(0.5), jnp.atan2(v, 1.0),
    jnp.bitwise_invert(ints), jnp.bitwise_left_shift(ints, 1), jnp.bitwise_right_shift(ints, 1), fraction, whole,
]  # fmt: skip
assert same(math_results[2], v) and same(math_results[3], np.gcd(np.asarray(ints), 8))
calculus: list[Array] = [
    jnp.diff(m), jnp.diff(m, n=2, axis=0, prepend=0.0), jnp.ediff1d(m, to_begin=jnp.array([9.0])),
    jnp.trapezoid(m), jnp.trapezoid(m, x=jnp.array([0.0, 1.0, 3.0, 4.0])), jnp.unwrap(v),
    jnp.interp(v, jnp.array([0.0, 1.0, 2.0]), jnp.array([0.0, 10.0, 5.0]), left="extrapolate"),
]  # fmt: skip
assert same(calculus[0], np.diff(host)) and same(calculus[3], np.trapezoid(host))
slopes = jnp.gradient(m)
assert isinstance(slopes, list) and same(slopes[1], np.gradient(host)[1])

# --- statistics ---
stats: list[Array] = [
    jnp.var(m), jnp.std(m, axis=1, ddof=1), jnp.median(m), jnp.percentile(m, 30.0), jnp.quantile(m, 0.3, method="lower"),
    jnp.nanmedian(v), jnp.nanpercentile(v, jnp.array([10.0, 90.0])), jnp.nanquantile(v, 0.5),
    jnp.average(m, axis=1, weights=jnp.array([1.0, 2.0, 3.0, 4.0])), jnp.ptp(m),
    jnp.count_nonzero(m), jnp.nansum(v), jnp.nanprod(v), jnp.nanmean(v), jnp.nanvar(v), jnp.nanstd(v), jnp.nanmax(v),
    jnp.nanmin(v), jnp.nanargmax(v), jnp.nanargmin(v), jnp.corrcoef(m), jnp.cov(m), jnp.bincount(jnp.array([0, 1, 1])),
    jnp.histogram_bin_edges(v, bins=3),
]  # fmt: skip
assert same(stats[0], np.var(host)) and same(stats[2], np.median(host)) and same(stats[21], np.cov(host))
mean, weight_sum = jnp.average(m, returned=True)
counts, edges = jnp.histogram(v, bins=3)
hist2, x_edges, y_edges = jnp.histogram2d(v, v, bins=2)
histdd, dd_edges = jnp.histogramdd(m.T, bins=2)
assert counts.shape == (3,) and hist2.shape == (2, 2) and histdd.shape == (2, 2) and len(dd_edges) == 2
assert same(m.var(), np.var(host)) and same(m.std(axis=0), np.std(host, axis=0)) and same(m.ptp(), np.ptp(host))
assert same(m.round(), np.round(host)) and same(m.clip(1, 5), np.clip(host, 1, 5))

# --- sets ---
sets: list[Array] = [
    jnp.isin(ints, jnp.array([0, 7])), jnp.union1d(ints, v), jnp.setdiff1d(ints, jnp.array([0])),
    jnp.setxor1d(ints, jnp.array([7, 3]), size=5), jnp.intersect1d(ints, jnp.array([7, 0])),
]  # fmt: skip
common, first_index, second_index = jnp.intersect1d(ints, jnp.array([7, 0]), return_indices=True)
assert same(sets[4], np.array([0, 7])) and same(common, np.array([0, 7]))

# --- polynomials ---
p = jnp.array([1.0, -3.0, 2.0])
quotient, remainder = jnp.polydiv(p, jnp.array([1.0, -1.0]))
polys: list[Array] = [
    jnp.poly(jnp.array([1.0, 2.0])), jnp.polyval(p, v), jnp.polyadd(p, p), jnp.polysub(p, jnp.array([1.0])), jnp.polymul(p, p),
    jnp.polyder(p), jnp.polyint(p, k=1.0), quotient, remainder,
]  # fmt: skip
fit = jnp.polyfit(jnp.arange(5.0), jnp.arange(5.0) ** 2, 2)
found_roots: Array = jnp.roots(p)
assert same(polys[0], p) and bool(np.allclose(np.asarray(fit), [1.0, 0.0, 0.0], atol=1e-4))

# --- dtype names, printing, I/O, vectorize ---
scalars: list[Array] = [jnp.bool(1), jnp.float_(2), jnp.int_(3), jnp.uint(4), jnp.complex_(1), jnp.double(1), jnp.single(1)]
assert [s.dtype.name for s in scalars[:2]] == ["bool", "float32"]
with jnp.printoptions(precision=2):
    text: str = repr(jnp.array([1.23456]))
assert text == "Array([1.23], dtype=float32)"
shown: str = jnp.array_repr(m, precision=1) + jnp.array_str(m)
options: dict[str, object] = jnp.get_printoptions()
jnp.set_printoptions(precision=int(str(options["precision"])))
buffer = io.BytesIO()
jnp.save(buffer, m)
buffer.seek(0)
loaded: Array = jnp.load(buffer)
jnp.savez(io.BytesIO(), m, named=v)
assert same(loaded, host)
clipped = jnp.vectorize(jnp.maximum)(m, 2.0)
matvec = jnp.vectorize(jnp.dot, signature="(n,m),(m)->(n)")
assert same(clipped, np.maximum(host, 2.0)) and matvec(jnp.ones((3, 2, 4)), jnp.ones(4)).shape == (3, 2)
adder = jnp.frompyfunc(jnp.add, nin=2, nout=1)
assert same(adder.reduce(v), np.sum(np.asarray(v)))
