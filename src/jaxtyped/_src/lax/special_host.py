"""Special functions on the host (layer L4): the evaluation rules of the
primitives in :mod:`special`, in float64 NumPy (SciPy is not a
dependency). Results are rounded to the operand's dtype by the caller.

Edge values follow XLA's (``lgamma`` is ``inf`` at the poles, ``digamma``
NaN there, ``igamma(0, x > 0)`` is 1, ...), so eager and jitted results
agree.
"""

import math
from collections.abc import Callable

import numpy as np

from jaxtyped._src.core.primitive import NDArray

__all__ = [
    "lgamma", "digamma", "polygamma", "zeta", "erf_inv", "erfc", "bessel_i0e", "bessel_i1e",
    "igamma", "igammac", "igamma_grad_a", "betainc",
]  # fmt: skip

_EPS = np.finfo(np.float64).eps
_TINY = 1e-300
F64 = np.dtype(np.float64)


def _vectorized(fun: Callable[[float], float]) -> Callable[[NDArray], NDArray]:
    vec = np.vectorize(fun, otypes=[np.float64])

    def apply(x: NDArray) -> NDArray:
        result: NDArray = vec(x.astype(np.float64)) if x.size else x.astype(np.float64)
        return result

    return apply


def _lgamma_scalar(x: float) -> float:
    if math.isnan(x):
        return x
    if math.isinf(x) or (x <= 0 and x == math.floor(x)):
        return math.inf
    return math.lgamma(x)


lgamma = _vectorized(_lgamma_scalar)
erfc = _vectorized(math.erfc)
_erf = _vectorized(math.erf)


def digamma(x: NDArray) -> NDArray:
    """psi(x): reflection below 1/2, recurrence up to 8, then the
    asymptotic series; NaN at the poles and at ``-inf``."""
    x = x.astype(np.float64)
    with np.errstate(all="ignore"):
        pole = (x <= 0) & (x == np.floor(x))
        reflect = x < 0.5
        y = np.where(reflect, 1.0 - x, x)
        shift = np.zeros_like(y)
        for _ in range(8):
            small = y < 8
            shift = np.where(small, shift - 1.0 / y, shift)
            y = np.where(small, y + 1.0, y)
        inv2 = 1.0 / (y * y)
        # Bernoulli terms B_2k / (2k): 1/12, -1/120, 1/252, -1/240, 1/132, -691/32760, 1/12
        series = inv2 * (1 / 12 - inv2 * (1 / 120 - inv2 * (1 / 252 - inv2 * (1 / 240 - inv2 * (1 / 132 - inv2 * (691 / 32760 - inv2 / 12))))))
        value = np.log(y) - 0.5 / y - series + shift
        value = np.where(reflect, value - math.pi / np.tan(math.pi * x), value)
        value = np.where(np.isposinf(x), np.inf, value)
        result: NDArray = np.where(pole | np.isneginf(x), np.nan, value)
    return result


# B_2k / (2k)! for the Euler-Maclaurin tail of the Hurwitz zeta function.
ZETA_COEFFS = (
    1 / 12, -1 / 720, 1 / 30240, -1 / 1209600, 1 / 47900160, -691 / 1307674368000,
    1 / 74724249600, -3617 / 10670622842880000, 43867 / 5109094217170944000,
    -174611 / 802857662698291200000, 77683 / 5556330281949045408000,
)  # fmt: skip


def zeta(s: NDArray, q: NDArray) -> NDArray:
    """The Hurwitz zeta function sum_k (q + k) ** -s (Euler-Maclaurin);
    ``inf`` at ``s == 1``, NaN for ``s < 1``; a non-positive integer ``q``
    is a pole."""
    s, q = np.broadcast_arrays(s.astype(np.float64), q.astype(np.float64))
    n = 12
    with np.errstate(all="ignore"):
        total = np.zeros_like(s)
        for k in range(n):
            total = total + np.power(q + k, -s)
        a = q + n
        total = total + np.power(a, 1 - s) / (s - 1) + 0.5 * np.power(a, -s)
        factor = s * np.power(a, -s - 1)
        for j, coeff in enumerate(ZETA_COEFFS):
            total = total + coeff * factor
            factor = factor * (s + 2 * j + 1) * (s + 2 * j + 2) / (a * a)
        # At a pole of q the first term is 0 ** -s: +inf for an even integer
        # s, NaN otherwise (XLA's convention).
        q_pole = (q <= 0) & (q == np.floor(q))
        even_s = (s == np.floor(s)) & (np.mod(s, 2) == 0)
        total = np.where(q_pole, np.where(even_s, np.inf, np.nan), total)
        total = np.where(s == 1, np.inf, total)
        result: NDArray = np.where((s < 1) | np.isnan(s) | np.isnan(q) | np.isinf(s) | np.isposinf(q), np.nan, total)
        result = np.where((s == 1) & ~np.isnan(q), np.inf, result)
    return result


def polygamma(m: NDArray, x: NDArray) -> NDArray:
    """The m-th derivative of digamma: (-1) ** (m + 1) m! zeta(m + 1, x);
    NaN for a negative or non-integer ``m``."""
    m, x = np.broadcast_arrays(m.astype(np.float64), x.astype(np.float64))
    with np.errstate(all="ignore"):
        order = np.where(m >= 1, m, 1.0)
        sign = np.where(np.mod(order, 2) == 0, -1.0, 1.0)
        factorial = np.exp(lgamma(order + 1.0))
        value = sign * factorial * zeta(order + 1.0, x)
        value = np.where(m == 0, digamma(x), value)
        result: NDArray = np.where((m < 0) | (m != np.floor(m)), np.nan, value)
    return result


def erf_inv(x: NDArray) -> NDArray:
    """Inverse of erf by Newton's method from a logarithmic first guess."""
    x = x.astype(np.float64)
    with np.errstate(all="ignore"):
        inside = np.abs(x) < 1
        safe = np.where(inside, x, 0.0)
        # Giles' style first guess, refined by Newton steps (quadratic).
        w = -np.log((1.0 - safe) * (1.0 + safe))
        guess = np.sign(safe) * np.sqrt(np.maximum(w - 0.5 * np.log(np.maximum(w, 1e-300) * math.pi / 2), 0.0))
        guess = np.where(np.abs(safe) < 0.5, safe * math.sqrt(math.pi) / 2 * (1 + math.pi / 12 * safe * safe), guess)
        y = guess
        for _ in range(60):
            err = _erf(y) - safe
            step = err / (2 / math.sqrt(math.pi) * np.exp(-y * y))
            y = y - np.where(np.isfinite(step), step, 0.0)
        y = np.where(x == 1, np.inf, np.where(x == -1, -np.inf, y))
        result: NDArray = np.where((np.abs(x) > 1) | np.isnan(x), np.nan, y)
    return result


def _bessel_scaled(x: NDArray, order: int) -> NDArray:
    """exp(-|x|) I_order(|x|) for order 0 or 1 (power series below 30,
    Hankel's asymptotic expansion above)."""
    ax = np.abs(x.astype(np.float64))
    with np.errstate(all="ignore"):
        small = np.where(ax < 30, ax, 0.0)
        half = small / 2
        term = np.exp(-small) * (half if order else np.ones_like(half))
        total = term.copy()
        for k in range(1, 120):
            term = term * half * half / (k * (k + order))
            total = total + term
        big = np.where(ax >= 30, ax, 30.0)
        mu = 4.0 * order * order
        coeff = np.ones_like(big)
        asym = np.ones_like(big)
        for k in range(1, 30):
            coeff = coeff * -(mu - (2 * k - 1) ** 2) / (k * 8.0 * big)
            asym = asym + coeff
        asym = asym / np.sqrt(2 * math.pi * big)
        value = np.where(ax < 30, total, asym)
        value = np.where(np.isinf(ax), 0.0, value)
        result: NDArray = np.where(np.isnan(ax), np.nan, value)
    return result


def bessel_i0e(x: NDArray) -> NDArray:
    """exp(-|x|) I0(x)."""
    return _bessel_scaled(x, 0)


def bessel_i1e(x: NDArray) -> NDArray:
    """exp(-|x|) I1(x) (odd in x)."""
    x = x.astype(np.float64)
    result: NDArray = np.where(x == 0, x, np.sign(x) * _bessel_scaled(x, 1))
    return result


def _gamma_series(a: NDArray, x: NDArray) -> NDArray:
    """P(a, x) by its power series (for x < a + 1)."""
    with np.errstate(all="ignore"):
        term = np.ones_like(a)
        total = np.ones_like(a)
        r = a.copy()
        for _ in range(2000):
            r = r + 1
            term = term * x / r
            total = total + term
            if np.all(np.abs(term) <= np.abs(total) * _EPS * 0.5):
                break
        result: NDArray = total * np.exp(a * np.log(x) - x - lgamma(a + 1))
    return result


def _gamma_series_grad_a(a: NDArray, x: NDArray) -> NDArray:
    """dP(a, x)/da from the power series: P = S F with
    F = exp(a log x - x - lgamma(a + 1)), so P' = S' F + S F (log x - psi(a + 1))."""
    with np.errstate(all="ignore"):
        term = np.ones_like(a)
        total = np.ones_like(a)
        harmonic = np.zeros_like(a)
        total_grad = np.zeros_like(a)
        r = a.copy()
        for _ in range(2000):
            r = r + 1
            term = term * x / r
            harmonic = harmonic + 1 / r
            total = total + term
            total_grad = total_grad - term * harmonic
            if np.all(np.abs(term * np.maximum(harmonic, 1)) <= np.abs(total) * _EPS * 0.5):
                break
        front = np.exp(a * np.log(x) - x - lgamma(a + 1))
        result: NDArray = front * (total_grad + total * (np.log(x) - digamma(a + 1)))
    return result


def _gamma_fraction(a: NDArray, x: NDArray) -> NDArray:
    """Q(a, x) by Legendre's continued fraction (modified Lentz, x >= a + 1)."""
    with np.errstate(all="ignore"):
        b = x + 1 - a
        c = np.full_like(a, 1 / _TINY)
        d = 1 / b
        h = d.copy()
        for i in range(1, 2000):
            an = -i * (i - a)
            b = b + 2
            d = an * d + b
            d = np.where(np.abs(d) < _TINY, _TINY, d)
            c = b + an / c
            c = np.where(np.abs(c) < _TINY, _TINY, c)
            d = 1 / d
            delta = d * c
            h = h * delta
            if np.all(np.abs(delta - 1) <= _EPS):
                break
        result: NDArray = h * np.exp(a * np.log(x) - x - lgamma(a))
    return result


def _igamma_pair(a: NDArray, x: NDArray) -> tuple[NDArray, NDArray]:
    """(P(a, x), Q(a, x)) with XLA's edge values."""
    a, x = np.broadcast_arrays(a.astype(np.float64), x.astype(np.float64))
    a, x = a.copy(), x.copy()
    with np.errstate(all="ignore"):
        use_fraction = (x >= 1) & (x > a)
        ok = (a > 0) & (x > 0) & np.isfinite(a) & np.isfinite(x)
        sa = np.where(ok & ~use_fraction, a, 1.0)
        sx = np.where(ok & ~use_fraction, x, 0.5)
        fa = np.where(ok & use_fraction, a, 1.0)
        fx = np.where(ok & use_fraction, x, 2.0)
        p_series = _gamma_series(sa, sx)
        q_fraction = _gamma_fraction(fa, fx)
        p = np.where(use_fraction, 1 - q_fraction, p_series)
        q = np.where(use_fraction, q_fraction, 1 - p_series)
        # Edges: x == 0 gives P = 0; x == inf gives P = 1; a == 0 with x > 0
        # gives P = 1; negative or NaN operands and a == inf give NaN.
        p = np.where((x == 0) & (a > 0), 0.0, p)
        q = np.where((x == 0) & (a > 0), 1.0, q)
        top = (np.isposinf(x) & (a > 0) & np.isfinite(a)) | ((a == 0) & (x > 0))
        p = np.where(top, 1.0, p)
        q = np.where(top, 0.0, q)
        bad = (a < 0) | (x < 0) | np.isnan(a) | np.isnan(x) | np.isinf(a) | ((a == 0) & (x == 0))
        p = np.where(bad, np.nan, p)
        q = np.where(bad, np.nan, q)
    return p, q


def igamma(a: NDArray, x: NDArray) -> NDArray:
    """The regularized lower incomplete gamma function P(a, x)."""
    return _igamma_pair(a, x)[0]


def igammac(a: NDArray, x: NDArray) -> NDArray:
    """The regularized upper incomplete gamma function Q(a, x) = 1 - P."""
    return _igamma_pair(a, x)[1]


def igamma_grad_a(a: NDArray, x: NDArray) -> NDArray:
    """dP(a, x)/da by a fourth-order central difference in float64 (a
    relative step of 1e-3 leaves errors near 1e-11, far below float32's and
    the tolerance float64 results are compared with)."""
    a, x = np.broadcast_arrays(a.astype(np.float64), x.astype(np.float64))
    with np.errstate(all="ignore"):
        h = 1e-3 * np.maximum(np.abs(a), 1e-3)
        h = np.minimum(h, np.abs(a) / 4)
        # Differentiate whichever of P and Q = 1 - P is the small one, so
        # that the difference keeps its digits in the tails.
        tail = (x >= 1) & (x > a)
        pairs = [_igamma_pair(a + k * h, x) for k in (1, 2, -1, -2)]
        values = [np.where(tail, -q, p) for p, q in pairs]
        slope = (8 * (values[0] - values[2]) - (values[1] - values[3])) / (12 * h)
        # Below the tail the series differentiates exactly term by term.
        ok = ~tail & (a > 0) & (x > 0) & np.isfinite(a)
        slope = np.where(ok, _gamma_series_grad_a(np.where(ok, a, 1.0), np.where(ok, x, 0.5)), slope)
        slope = np.where((x == 0) & (a > 0), 0.0, slope)
        result: NDArray = np.where(np.isnan(igamma(a, x)) | np.isinf(x) | (a <= 0), np.nan, slope)
    return result


def _beta_fraction(a: NDArray, b: NDArray, x: NDArray) -> NDArray:
    """The continued fraction of I_x(a, b) (modified Lentz)."""
    with np.errstate(all="ignore"):
        qab, qap, qam = a + b, a + 1, a - 1
        c = np.ones_like(a)
        d = 1 - qab * x / qap
        d = np.where(np.abs(d) < _TINY, _TINY, d)
        d = 1 / d
        h = d.copy()
        for m in range(1, 3000):
            m2 = 2 * m
            aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d
            d = np.where(np.abs(d) < _TINY, _TINY, d)
            c = 1 + aa / c
            c = np.where(np.abs(c) < _TINY, _TINY, c)
            d = 1 / d
            h = h * d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d
            d = np.where(np.abs(d) < _TINY, _TINY, d)
            c = 1 + aa / c
            c = np.where(np.abs(c) < _TINY, _TINY, c)
            d = 1 / d
            delta = d * c
            h = h * delta
            if np.all(np.abs(delta - 1) <= _EPS):
                break
    return h


def betainc(a: NDArray, b: NDArray, x: NDArray) -> NDArray:
    """The regularized incomplete beta function I_x(a, b)."""
    a, b, x = np.broadcast_arrays(a.astype(np.float64), b.astype(np.float64), x.astype(np.float64))
    with np.errstate(all="ignore"):
        ok = (a > 0) & (b > 0) & (x > 0) & (x < 1)
        sa, sb, sx = np.where(ok, a, 1.0), np.where(ok, b, 1.0), np.where(ok, x, 0.5)
        swap = sx > (sa + 1) / (sa + sb + 2)
        pa, pb, px = np.where(swap, sb, sa), np.where(swap, sa, sb), np.where(swap, 1 - sx, sx)
        log_front = pa * np.log(px) + pb * np.log1p(-px) - (lgamma(pa) + lgamma(pb) - lgamma(pa + pb))
        value = np.exp(log_front) * _beta_fraction(pa, pb, px) / pa
        value = np.where(swap, 1 - value, value)
        # Edges as XLA: x == 0 gives 0, x == 1 gives 1; a == 0 (b > 0) gives 1,
        # b == 0 (a > 0) gives 0; anything outside the domain is NaN.
        value = np.where(x == 0, 0.0, np.where(x == 1, 1.0, value))
        value = np.where((a == 0) & (b > 0) & (x > 0) & (x <= 1), 1.0, value)
        value = np.where((b == 0) & (a > 0) & (x >= 0) & (x < 1), 0.0, value)
        bad = (a < 0) | (b < 0) | (x < 0) | (x > 1) | np.isnan(a) | np.isnan(b) | np.isnan(x)
        result: NDArray = np.where(bad, np.nan, value)
    return result
