"""Special-function primitives (layer L4): ``lgamma``, ``digamma``,
``polygamma``, ``zeta``, ``erf_inv``, ``erfc``, ``bessel_i0e``,
``bessel_i1e``, ``igamma``, ``igammac``, ``igamma_grad_a`` and
``regularized_incomplete_beta`` (``betainc``), with JAX's derivatives.

Evaluation is float64 NumPy (:mod:`special_host`). Lowering uses the CHLO op
where one exists; ``bessel_i0e``, the incomplete gamma functions and
``betainc`` have none and are lowered as compositions of other primitives
(series and continued fractions in ``while_loop``\\ s), computed in the
operand's dtype (float32 for the 16-bit floats); ``igamma_grad_a`` is the
forward-mode derivative of the ``igamma`` composition.
"""

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import final

import numpy as np
from typing_extensions import override

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import ShapedArray, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1, current_interpreter, transformation_scope
from jaxtyped._src.core.primitive import HostValue, NDArray, Tangent
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.interpreters.jvp import JVPInterpreter
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import comparison as lcmp
from jaxtyped._src.lax import special_host as host
from jaxtyped._src.lax import transcendental as lt
from jaxtyped._src.lax.arithmetic import BinaryDifferentiable, UnaryDifferentiable, add_tangents, const_like
from jaxtyped._src.lax.control_flow.loops import while_loop
from jaxtyped._src.lax.elementwise_base import FLOAT, Elementwise, bind_binary, bind_unary, convert_to
from jaxtyped._src.lax.reductions import reduce_max
from jaxtyped._src.lax.structural import broadcast_scalar, full_like_aval, instantiate, select_n
from jaxtyped._src.lax.util import operands_same_kind

__all__ = [
    "Lgamma", "Digamma", "Polygamma", "Zeta", "ErfInv", "Erfc", "BesselI0e", "BesselI1e",
    "Igamma", "Igammac", "IgammaGradA", "RegularizedIncompleteBeta",
    "lgamma", "digamma", "polygamma", "zeta", "erf_inv", "erfc", "bessel_i0e", "bessel_i1e",
    "igamma", "igammac", "igamma_grad_a", "random_gamma_grad", "betainc",
]  # fmt: skip


# === helpers for derivatives and compositions (operands of one dtype) ===


def _mul(x: Array, y: Array) -> Array:
    return bind1(la.MUL, x, y)


def _work_dtype(dtype: np.dtype[np.generic]) -> np.dtype[np.generic]:
    # Compositions run in float32 for the 16-bit floats, as XLA's own do.
    return np.dtype(np.float32) if dtype.itemsize == 2 else dtype


def _where(pred: Array, on_true: Array | float, on_false: Array | float) -> Array:
    like = on_true if isinstance(on_true, Array) else on_false
    assert isinstance(like, Array)
    shape = pred.shape

    def full(v: Array | float) -> Array:
        return broadcast_scalar(v if isinstance(v, Array) else const_like(like, v), shape)

    return select_n(pred, full(on_false), full(on_true))


def _any(pred: Array) -> Array:
    return reduce_max(pred, tuple(range(pred.ndim)))


def _is_nan(x: Array) -> Array:
    return lcmp.ne(x, x)


def _lower_composition(
    ctx: LoweringContext, args: tuple[HloValue, ...], out: ShapedArray, fun: Callable[..., Array]
) -> tuple[HloValue, ...]:
    """Lower ``fun`` on the operands broadcast to the result's shape and
    converted to the working dtype; the result is converted back."""
    work = _work_dtype(out.dtype)

    def run(*xs: Array) -> Sequence[Array]:
        wide = [broadcast_scalar(convert_to(x, work, weak_type=False), out.shape) for x in xs]
        return (convert_to(fun(*wide), out.dtype, weak_type=False),)

    return ctx.lower_fun(run, args)


# === primitive bases ===


class _Unary(UnaryDifferentiable):
    __slots__ = ()
    accepts = FLOAT


class _Binary(BinaryDifferentiable):
    __slots__ = ()
    accepts = FLOAT


# === unary primitives ===


@final
@dataclass(frozen=True, slots=True)
class Lgamma(_Unary):
    """``log |Gamma(x)|`` (``inf`` at the poles)."""

    name = "lgamma"
    hlo_op = "chlo.lgamma"

    def compute(self, *args: NDArray) -> HostValue:
        return host.lgamma(*args)

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(DIGAMMA, x)


@final
@dataclass(frozen=True, slots=True)
class Digamma(_Unary):
    """The digamma function ``Gamma'(x) / Gamma(x)`` (NaN at the poles)."""

    name = "digamma"
    hlo_op = "chlo.digamma"

    def compute(self, *args: NDArray) -> HostValue:
        return host.digamma(*args)

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(POLYGAMMA, const_like(x, 1), x)


@final
@dataclass(frozen=True, slots=True)
class ErfInv(_Unary):
    """The inverse error function (``+-inf`` at ``+-1``, NaN outside)."""

    name = "erf_inv"
    hlo_op = "chlo.erf_inv"

    def compute(self, *args: NDArray) -> HostValue:
        return host.erf_inv(*args)

    @override
    def tangent(self, t: Array, x: Array, out: Array) -> Array:
        return _mul(const_like(x, math.sqrt(math.pi) / 2), _mul(t, bind1(lt.EXP, _mul(out, out))))


@final
@dataclass(frozen=True, slots=True)
class Erfc(_Unary):
    """The complementary error function ``1 - erf(x)``, accurate for large ``x``."""

    name = "erfc"
    hlo_op = "chlo.erfc"

    def compute(self, *args: NDArray) -> HostValue:
        return host.erfc(*args)

    @override
    def tangent(self, t: Array, x: Array, out: Array) -> Array:
        return _mul(const_like(x, -2 / math.sqrt(math.pi)), _mul(t, bind1(lt.EXP, bind1(la.NEG, _mul(x, x)))))


@final
@dataclass(frozen=True, slots=True)
class BesselI0e(_Unary):
    """``exp(-|x|) I0(x)``, the exponentially scaled modified Bessel
    function of order 0."""

    name = "bessel_i0e"

    def compute(self, *args: NDArray) -> HostValue:
        return host.bessel_i0e(*args)

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        return bind1(la.SUB, bind1(BESSEL_I1E, x), _mul(bind1(la.SIGN, x), out))

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return _lower_composition(ctx, args, out_avals[0], _i0e_composition)


@final
@dataclass(frozen=True, slots=True)
class BesselI1e(_Unary):
    """``exp(-|x|) I1(x)``, the exponentially scaled modified Bessel
    function of order 1."""

    name = "bessel_i1e"
    hlo_op = "chlo.bessel_i1e"

    def compute(self, *args: NDArray) -> HostValue:
        return host.bessel_i1e(*args)

    @override
    def derivative(self, x: Array, out: Array) -> Array:
        # i0e(x) - i1e(x) (sign(x) + 1/x), and its limit 1/2 at 0 (JAX's
        # rule: |x| <= eps counts as 0).
        eps = float(np.finfo(x.dtype).eps)
        not_tiny = lcmp.gt(bind1(la.ABS, x), const_like(x, eps))
        safe = _where(not_tiny, x, eps)
        inverse = bind1(la.DIV, const_like(x, 1), safe)
        slope = bind1(la.SUB, bind1(BESSEL_I0E, safe), _mul(out, bind1(la.ADD, bind1(la.SIGN, safe), inverse)))
        return _where(not_tiny, slope, 0.5)


# === binary primitives ===


@final
@dataclass(frozen=True, slots=True)
class Polygamma(_Binary):
    """``polygamma(m, x)``: the ``m``-th derivative of digamma (``m`` a
    non-negative integer value)."""

    name = "polygamma"
    hlo_op = "chlo.polygamma"

    def compute(self, *args: NDArray) -> HostValue:
        return host.polygamma(*args)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        if not isinstance(tangents[0], Zero):
            raise JaxtypedValueError("polygamma gradient with respect to m is not supported")
        return BinaryDifferentiable.jvp(self, primals, tangents)

    @override
    def partials(self, x: Array, y: Array, out: Array) -> tuple[Array | None, Array | None]:
        return None, bind1(POLYGAMMA, bind1(la.ADD, x, const_like(x, 1)), y)


@final
@dataclass(frozen=True, slots=True)
class Zeta(Elementwise):
    """The Hurwitz zeta function ``zeta(x, q) = sum_k (q + k) ** -x``; not
    differentiable (as in JAX)."""

    name = "zeta"
    arity = 2
    accepts = FLOAT
    hlo_op = "chlo.zeta"

    def compute(self, *args: NDArray) -> HostValue:
        return host.zeta(args[0], args[1])


@final
@dataclass(frozen=True, slots=True)
class Igamma(Elementwise):
    """The regularized lower incomplete gamma function ``P(a, x)``."""

    name = "igamma"
    arity = 2
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        return host.igamma(*args)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return _igamma_jvp(self, primals, tangents, negate=False)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return _lower_composition(ctx, args, out_avals[0], _lower_p)


@final
@dataclass(frozen=True, slots=True)
class Igammac(Elementwise):
    """The regularized upper incomplete gamma function ``Q(a, x) = 1 - P(a, x)``."""

    name = "igammac"
    arity = 2
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        return host.igammac(*args)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return _igamma_jvp(self, primals, tangents, negate=True)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return _lower_composition(ctx, args, out_avals[0], _lower_q)


@final
@dataclass(frozen=True, slots=True)
class IgammaGradA(Elementwise):
    """``dP(a, x) / da``; not differentiable (as in JAX)."""

    name = "igamma_grad_a"
    arity = 2
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        return host.igamma_grad_a(args[0], args[1])

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return _lower_composition(ctx, args, out_avals[0], _igamma_grad_a_composition)


@final
@dataclass(frozen=True, slots=True)
class RegularizedIncompleteBeta(Elementwise):
    """``betainc(a, b, x)``, the regularized incomplete beta function
    ``I_x(a, b)``; differentiable in ``x`` only (as in JAX)."""

    name = "regularized_incomplete_beta"
    arity = 3
    accepts = FLOAT

    def compute(self, *args: NDArray) -> HostValue:
        return host.betainc(args[0], args[1], args[2])

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (a, b, x), (ta, tb, tx) = primals, tangents
        if not isinstance(ta, Zero) or not isinstance(tb, Zero):
            raise JaxtypedValueError("Betainc gradient with respect to a and b not supported.")
        out = bind1(self, a, b, x)
        total: Tangent = Zero(out.aval.to_tangent_aval())
        if not isinstance(tx, Zero):
            one = const_like(x, 1)
            log_beta = bind1(la.SUB, bind1(la.ADD, bind1(LGAMMA, a), bind1(LGAMMA, b)), bind1(LGAMMA, bind1(la.ADD, a, b)))
            log_density = bind1(
                la.ADD,
                _mul(bind1(la.SUB, b, one), bind1(lt.LOG1P, bind1(la.NEG, x))),
                _mul(bind1(la.SUB, a, one), bind1(lt.LOG, x)),
            )
            slope = bind1(lt.EXP, bind1(la.SUB, log_density, log_beta))
            total = add_tangents(total, broadcast_scalar(_mul(tx, slope), out.shape))
        return (out,), (total,)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return _lower_composition(ctx, args, out_avals[0], _betainc_composition)


def _igamma_jvp(
    prim: Elementwise, primals: tuple[Array, ...], tangents: tuple[Tangent, ...], *, negate: bool
) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
    """P's (or Q's, negated) derivative: ``igamma_grad_a`` in ``a`` (built
    only for a non-zero tangent of ``a``, since it has no derivative
    itself), the density in ``x``."""
    (a, x), (ta, tx) = primals, tangents
    out = bind1(prim, a, x)
    total: Tangent = Zero(out.aval.to_tangent_aval())
    for t, in_a in ((ta, True), (tx, False)):
        if not isinstance(t, Zero):
            slope = bind1(IGAMMA_GRAD_A, a, x) if in_a else _igamma_density(a, x)
            slope = bind1(la.NEG, slope) if negate else slope
            total = add_tangents(total, broadcast_scalar(_mul(t, slope), out.shape))
    return (out,), (total,)


def _igamma_density(a: Array, x: Array) -> Array:
    """``dP(a, x)/dx = exp(-x + (a - 1) log x - lgamma(a))``."""
    exponent = bind1(la.SUB, _mul(bind1(la.SUB, a, const_like(a, 1)), bind1(lt.LOG, x)), x)
    return bind1(lt.EXP, bind1(la.SUB, exponent, bind1(LGAMMA, a)))


LGAMMA, DIGAMMA, POLYGAMMA, ZETA = Lgamma(), Digamma(), Polygamma(), Zeta()
ERF_INV, ERFC, BESSEL_I0E, BESSEL_I1E = ErfInv(), Erfc(), BesselI0e(), BesselI1e()
IGAMMA, IGAMMAC, IGAMMA_GRAD_A = Igamma(), Igammac(), IgammaGradA()
REGULARIZED_INCOMPLETE_BETA = RegularizedIncompleteBeta()


# === compositions for the ops XLA lacks (operands of one shape and dtype) ===

_MAX_ITERATIONS = 2000
# Loop carries: (iteration, b, c, d, h, delta) and (iteration, c, d, h, delta).
_FractionCarry = tuple[Array, Array, Array, Array, Array, Array]
_BetaCarry = tuple[Array, Array, Array, Array, Array]


def _i0e_composition(x: Array) -> Array:
    """exp(-|x|) I0(x): the power series below 30, Hankel's expansion above."""
    ax = la.abs(x)
    small = lcmp.lt(ax, const_like(ax, 30.0))
    half = la.mul(_where(small, ax, 0.0), 0.5)
    first = lt.exp(la.neg(_where(small, ax, 0.0)))

    def series_body(carry: tuple[Array, Array, Array]) -> tuple[Array, Array, Array]:
        k, term, total = carry
        kf = convert_to(k, x.dtype, weak_type=False)
        term = la.div(la.mul(term, la.mul(half, half)), broadcast_scalar(la.mul(kf, kf), x.shape))
        return la.add(k, 1), term, la.add(total, term)

    start = full_like_aval(ShapedArray((), np.dtype(np.int32)), 1)
    _, _, series = while_loop(lambda c: lcmp.lt(c[0], 120), series_body, (start, first, first))
    big = _where(small, 30.0, ax)
    coeff = full_like_aval(x.aval.strip_weak_type(), 1)
    asymptotic = coeff
    for k in range(1, 30):
        coeff = la.mul(coeff, la.div(const_like(x, (2 * k - 1) ** 2 / (8.0 * k)), big))
        asymptotic = la.add(asymptotic, coeff)
    asymptotic = la.div(asymptotic, lt.sqrt(la.mul(big, 2 * math.pi)))
    value = _where(small, series, asymptotic)
    return _where(lcmp.eq(ax, const_like(ax, math.inf)), 0.0, value)


def _gamma_series(a: Array, x: Array) -> Array:
    """P(a, x) by its power series."""
    eps = float(np.finfo(a.dtype).eps)

    def cond(carry: tuple[Array, Array, Array, Array]) -> Array:
        i, _, term, total = carry
        going = _any(lcmp.gt(la.abs(term), la.mul(la.abs(total), eps / 2)))
        return lcmp.bitwise_and(lcmp.lt(i, _MAX_ITERATIONS), going)

    def body(carry: tuple[Array, Array, Array, Array]) -> tuple[Array, Array, Array, Array]:
        i, r, term, total = carry
        r = la.add(r, 1.0)
        term = la.div(la.mul(term, x), r)
        return la.add(i, 1), r, term, la.add(total, term)

    ones = full_like_aval(a.aval.strip_weak_type(), 1)
    start = full_like_aval(ShapedArray((), np.dtype(np.int32)), 0)
    _, _, _, total = while_loop(cond, body, (start, a, ones, ones))
    log_front = la.sub(la.sub(la.mul(a, lt.log(x)), x), bind1(LGAMMA, la.add(a, 1.0)))
    return la.mul(total, lt.exp(log_front))


def _clamp_tiny(v: Array) -> Array:
    tiny = 1e-30
    return _where(lcmp.lt(la.abs(v), const_like(v, tiny)), tiny, v)


def _gamma_fraction(a: Array, x: Array) -> Array:
    """Q(a, x) by Legendre's continued fraction (modified Lentz)."""
    eps = float(np.finfo(a.dtype).eps)
    def cond(carry: _FractionCarry) -> Array:
        i, _, _, _, _, delta = carry
        going = _any(lcmp.gt(la.abs(la.sub(delta, 1.0)), const_like(delta, eps)))
        return lcmp.bitwise_and(lcmp.lt(i, _MAX_ITERATIONS), going)

    def body(carry: _FractionCarry) -> _FractionCarry:
        i, b, c, d, h, _ = carry
        fi = convert_to(i, a.dtype, weak_type=False)
        an = la.neg(la.mul(broadcast_scalar(fi, a.shape), la.sub(broadcast_scalar(fi, a.shape), a)))
        b = la.add(b, 2.0)
        d = la.div(const_like(a, 1), _clamp_tiny(la.add(la.mul(an, d), b)))
        c = _clamp_tiny(la.add(b, la.div(an, c)))
        delta = la.mul(d, c)
        return la.add(i, 1), b, c, d, la.mul(h, delta), delta

    b = la.sub(la.add(x, 1.0), a)
    d = la.div(const_like(b, 1), _clamp_tiny(b))
    c = full_like_aval(a.aval.strip_weak_type(), 1e30)
    start = full_like_aval(ShapedArray((), np.dtype(np.int32)), 1)
    _, _, _, _, h, _ = while_loop(cond, body, (start, b, c, d, d, la.add(d, 2.0)))
    log_front = la.sub(la.sub(la.mul(a, lt.log(x)), x), bind1(LGAMMA, a))
    return la.mul(h, lt.exp(log_front))


def _igamma_composition(a: Array, x: Array) -> tuple[Array, Array]:
    """(P(a, x), Q(a, x)) with XLA's edge values."""
    zero, one = const_like(a, 0), const_like(a, 1)
    use_fraction = lcmp.bitwise_and(lcmp.ge(x, one), lcmp.gt(x, a))
    finite = lcmp.bitwise_and(la.is_finite(a), la.is_finite(x))
    ok = lcmp.bitwise_and(lcmp.bitwise_and(lcmp.gt(a, zero), lcmp.gt(x, zero)), finite)
    in_series = lcmp.bitwise_and(ok, lcmp.bitwise_not(use_fraction))
    in_fraction = lcmp.bitwise_and(ok, use_fraction)
    p_series = _gamma_series(_where(in_series, a, 1.0), _where(in_series, x, 0.5))
    q_fraction = _gamma_fraction(_where(in_fraction, a, 1.0), _where(in_fraction, x, 2.0))
    p = _where(use_fraction, la.sub(one, q_fraction), p_series)
    q = _where(use_fraction, q_fraction, la.sub(one, p_series))
    at_zero = lcmp.bitwise_and(lcmp.eq(x, zero), lcmp.gt(a, zero))
    p, q = _where(at_zero, 0.0, p), _where(at_zero, 1.0, q)
    x_inf = lcmp.bitwise_and(lcmp.eq(x, const_like(x, math.inf)), lcmp.bitwise_and(lcmp.gt(a, zero), la.is_finite(a)))
    top = lcmp.bitwise_or(x_inf, lcmp.bitwise_and(lcmp.eq(a, zero), lcmp.gt(x, zero)))
    p, q = _where(top, 1.0, p), _where(top, 0.0, q)
    a_inf = lcmp.eq(la.abs(a), const_like(a, math.inf))
    bad = lcmp.bitwise_or(lcmp.bitwise_or(lcmp.lt(a, zero), lcmp.lt(x, zero)), lcmp.bitwise_or(_is_nan(a), _is_nan(x)))
    bad = lcmp.bitwise_or(bad, lcmp.bitwise_or(a_inf, lcmp.bitwise_and(lcmp.eq(a, zero), lcmp.eq(x, zero))))
    return _where(bad, math.nan, p), _where(bad, math.nan, q)


def _lower_p(a: Array, x: Array) -> Array:
    return _igamma_composition(a, x)[0]


def _lower_q(a: Array, x: Array) -> Array:
    return _igamma_composition(a, x)[1]


def _igamma_grad_a_composition(a: Array, x: Array) -> Array:
    """dP/da: forward-mode derivative of the composition in ``a``."""
    interp = JVPInterpreter(current_interpreter(), "igamma_grad_a")
    with transformation_scope(interp):
        boxed = interp.box(a, full_like_aval(a.aval.strip_weak_type(), 1))
        p, q = _igamma_composition(boxed, x)
        # Differentiate the small one of P and 1 - P (the tails keep digits).
        tail = lcmp.bitwise_and(lcmp.ge(x, const_like(x, 1)), lcmp.gt(x, a))
        chosen = _where(tail, la.neg(q), p)
        _, tangent = interp.unbox(chosen)
    slope = instantiate(tangent)
    zero = const_like(a, 0)
    slope = _where(lcmp.bitwise_and(lcmp.eq(x, zero), lcmp.gt(a, zero)), 0.0, slope)
    primal_bad = lcmp.bitwise_or(_is_nan(_igamma_composition(a, x)[0]), lcmp.le(a, zero))
    bad = lcmp.bitwise_or(primal_bad, lcmp.eq(x, const_like(x, math.inf)))
    return _where(bad, math.nan, slope)


def _beta_fraction(a: Array, b: Array, x: Array) -> Array:
    """The continued fraction of I_x(a, b) (modified Lentz)."""
    eps = float(np.finfo(a.dtype).eps)
    qab, qap, qam = la.add(a, b), la.add(a, 1.0), la.sub(a, 1.0)
    def cond(carry: _BetaCarry) -> Array:
        m, _, _, _, delta = carry
        going = _any(lcmp.gt(la.abs(la.sub(delta, 1.0)), const_like(delta, eps)))
        return lcmp.bitwise_and(lcmp.lt(m, 3000), going)

    def step(aa: Array, c: Array, d: Array) -> tuple[Array, Array]:
        d = la.div(const_like(aa, 1), _clamp_tiny(la.add(la.mul(aa, d), 1.0)))
        c = _clamp_tiny(la.add(la.div(aa, c), 1.0))
        return c, d

    def body(carry: _BetaCarry) -> _BetaCarry:
        m, c, d, h, _ = carry
        mf = broadcast_scalar(convert_to(m, a.dtype, weak_type=False), a.shape)
        m2 = la.add(mf, mf)
        aa = la.div(la.mul(la.mul(mf, la.sub(b, mf)), x), la.mul(la.add(qam, m2), la.add(a, m2)))
        c, d = step(aa, c, d)
        h = la.mul(h, la.mul(d, c))
        aa = la.div(la.neg(la.mul(la.mul(la.add(a, mf), la.add(qab, mf)), x)), la.mul(la.add(a, m2), la.add(qap, m2)))
        c, d = step(aa, c, d)
        delta = la.mul(d, c)
        return la.add(m, 1), c, d, la.mul(h, delta), delta

    d = la.div(const_like(a, 1), _clamp_tiny(la.sub(const_like(a, 1), la.div(la.mul(qab, x), qap))))
    c = full_like_aval(a.aval.strip_weak_type(), 1)
    start = full_like_aval(ShapedArray((), np.dtype(np.int32)), 1)
    _, _, _, h, _ = while_loop(cond, body, (start, c, d, d, la.add(d, 2.0)))
    return h


def _betainc_composition(a: Array, b: Array, x: Array) -> Array:
    """I_x(a, b) with XLA's edge values."""
    zero, one = const_like(a, 0), const_like(a, 1)
    ok = lcmp.bitwise_and(
        lcmp.bitwise_and(lcmp.gt(a, zero), lcmp.gt(b, zero)), lcmp.bitwise_and(lcmp.gt(x, zero), lcmp.lt(x, one))
    )
    sa, sb, sx = _where(ok, a, 1.0), _where(ok, b, 1.0), _where(ok, x, 0.5)
    swap = lcmp.gt(sx, la.div(la.add(sa, 1.0), la.add(la.add(sa, sb), 2.0)))
    pa, pb = _where(swap, sb, sa), _where(swap, sa, sb)
    px = _where(swap, la.sub(one, sx), sx)
    log_beta = la.sub(la.add(bind1(LGAMMA, pa), bind1(LGAMMA, pb)), bind1(LGAMMA, la.add(pa, pb)))
    log_front = la.sub(la.add(la.mul(pa, lt.log(px)), la.mul(pb, lt.log1p(la.neg(px)))), log_beta)
    value = la.div(la.mul(lt.exp(log_front), _beta_fraction(pa, pb, px)), pa)
    value = _where(swap, la.sub(one, value), value)
    value = _where(lcmp.eq(x, zero), 0.0, _where(lcmp.eq(x, one), 1.0, value))
    x_in = lcmp.bitwise_and(lcmp.gt(x, zero), lcmp.le(x, one))
    value = _where(lcmp.bitwise_and(lcmp.bitwise_and(lcmp.eq(a, zero), lcmp.gt(b, zero)), x_in), 1.0, value)
    x_in0 = lcmp.bitwise_and(lcmp.ge(x, zero), lcmp.lt(x, one))
    value = _where(lcmp.bitwise_and(lcmp.bitwise_and(lcmp.eq(b, zero), lcmp.gt(a, zero)), x_in0), 0.0, value)
    outside = lcmp.bitwise_or(lcmp.bitwise_or(lcmp.lt(a, zero), lcmp.lt(b, zero)), lcmp.bitwise_or(lcmp.lt(x, zero), lcmp.gt(x, one)))
    bad = lcmp.bitwise_or(outside, lcmp.bitwise_or(lcmp.bitwise_or(_is_nan(a), _is_nan(b)), _is_nan(x)))
    return _where(bad, math.nan, value)


# === user-facing wrappers (JAX's lax names and signatures) ===


def lgamma(x: ArrayLike) -> Array:
    """``log |Gamma(x)|``."""
    return bind_unary(LGAMMA, x)


def digamma(x: ArrayLike) -> Array:
    """The digamma function."""
    return bind_unary(DIGAMMA, x)


def polygamma(m: ArrayLike, x: ArrayLike) -> Array:
    """The ``m``-th derivative of digamma."""
    return bind_binary(POLYGAMMA, "polygamma", m, x)


def zeta(x: ArrayLike, q: ArrayLike) -> Array:
    """The Hurwitz zeta function."""
    return bind_binary(ZETA, "zeta", x, q)


def erf_inv(x: ArrayLike) -> Array:
    """The inverse error function."""
    return bind_unary(ERF_INV, x)


def erfc(x: ArrayLike) -> Array:
    """The complementary error function."""
    return bind_unary(ERFC, x)


def bessel_i0e(x: ArrayLike) -> Array:
    """``exp(-|x|) I0(x)``."""
    return bind_unary(BESSEL_I0E, x)


def bessel_i1e(x: ArrayLike) -> Array:
    """``exp(-|x|) I1(x)``."""
    return bind_unary(BESSEL_I1E, x)


def igamma(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized lower incomplete gamma function ``P(a, x)``."""
    return bind_binary(IGAMMA, "igamma", a, x)


def igammac(a: ArrayLike, x: ArrayLike) -> Array:
    """The regularized upper incomplete gamma function ``Q(a, x)``."""
    return bind_binary(IGAMMAC, "igammac", a, x)


def igamma_grad_a(a: ArrayLike, x: ArrayLike) -> Array:
    """``dP(a, x) / da``."""
    return bind_binary(IGAMMA_GRAD_A, "igamma_grad_a", a, x)


def random_gamma_grad(a: ArrayLike, x: ArrayLike) -> Array:
    """The derivative of a Gamma(``a``) sample ``x`` with respect to ``a``
    (implicit differentiation of ``P(a, x) = u``)."""
    shape, sample = operands_same_kind("random_gamma_grad", a, x)
    slope = la.div(la.neg(bind1(IGAMMA_GRAD_A, shape, sample)), _igamma_density(shape, sample))
    # A zero sample stays zero as the shape moves (the ratio is 0/0 there).
    at_zero = lcmp.bitwise_and(lcmp.eq(sample, const_like(sample, 0)), lcmp.gt(shape, const_like(shape, 0)))
    return _where(at_zero, 0.0, slope)


def betainc(a: ArrayLike, b: ArrayLike, x: ArrayLike) -> Array:
    """The regularized incomplete beta function ``I_x(a, b)``."""
    return bind1(REGULARIZED_INCOMPLETE_BETA, *operands_same_kind("betainc", a, b, x))
