"""Taylor-mode automatic differentiation: JAX's ``jax.experimental.jet`` (layer L5).

``jet(fun, primals, series)`` pushes a truncated Taylor polynomial through
``fun``: each input is ``x(t) = x0 + x1 t + x2 t^2 + ...`` (given as
derivatives, ``factorial_scaled=True``, or as plain coefficients) and the
result is the polynomial of ``fun(x(t))`` to the same order.

Note [jet as an interpreter]: a :class:`JetInterpreter` boxes each value it
owns as a :class:`JetTracer` holding the primal and its ``order`` series
terms, always as *plain* Taylor coefficients (``jet`` divides derivative
terms by ``k!`` on the way in and multiplies on the way out, as JAX does).
Values it does not own have a zero series; an application whose operands
all have zero series goes to the parent interpreter unboxed, so constants
cost nothing. Every other application is handed to the primitive family's
rule in one table (``_RULES``, keyed by primitive class and looked up along
the class's MRO), run under the parent interpreter, so an outer ``jit``
stages, and an outer ``vmap`` batches, the propagated series. The rules are
the classic Taylor recurrences (Leibniz for bilinear ops, ``v' = c u'`` for
``exp``/``log``/sin-cos pairs and functions given by their derivative);
some families are defined by a composition of others run under a nested
jet (JAX's ``def_comp``), with the primal still computed by the primitive
itself. A ``jit`` call is re-traced as a jit call of its jet; ``cond``,
``scan`` and ``while`` become the same loop or branch over the jet of their
jaxprs, the series of the live operands passed alongside (every inexact
loop carry gets a series, so that the carry's type is fixed);
custom-derivative calls are inlined (their primal function is
differentiated, their rules ignored, as in JAX). Outputs of integer or
boolean type always have a zero series (a primitive without a rule whose
outputs are all such, an ``argmax``, needs none); any other primitive
without a rule raises ``NotImplementedError`` naming it.
"""

import math
from collections.abc import Callable, Sequence
from typing import Final, TypeAlias, TypeVar, final, overload

import numpy as np

from jaxtyped._src.api_util import leaf_to_array
from jaxtyped._src.core.array import Array, ArrayLike, Conversion, require_concrete
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.interpreter import (
    ArrayTracer,
    Interpreter,
    bind,
    bind1,
    current_interpreter,
    interpreting,
    transformation_scope,
)
from jaxtyped._src.core.jaxpr import Jaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import NDArray, Primitive
from jaxtyped._src.custom_derivatives_primitives import CustomJVPCall, CustomVJPCall
from jaxtyped._src.lax import arithmetic as ar
from jaxtyped._src.lax import transcendental as tr
from jaxtyped._src.lax.comparison import Eq, Gt, Lt, _Comparison  # pyright: ignore[reportPrivateUsage]
from jaxtyped._src.lax.complex_ops import Complex, Conj, Imag, Real
from jaxtyped._src.lax.control_flow.common import join_consts, trace_flat
from jaxtyped._src.lax.control_flow.cond import Cond
from jaxtyped._src.lax.control_flow.loops import While
from jaxtyped._src.lax.control_flow.scan import Scan
from jaxtyped._src.lax.convolution import ConvGeneralDilated
from jaxtyped._src.lax.bitwise_misc import BitcastConvertType
from jaxtyped._src.lax.convenience import associative_scan
from jaxtyped._src.lax.cumulative import CumMax, CumMin, CumProd, CumSum
from jaxtyped._src.lax.fft import Fft
from jaxtyped._src.lax.windowed import ReduceWindowSum
from jaxtyped._src.lax.dot import DotGeneral
from jaxtyped._src.lax.elementwise_base import ConvertElementType, NonDifferentiable, convert_to
from jaxtyped._src.lax.elementwise_extra import Clamp, Square
from jaxtyped._src.lax.gather import Gather, ScatterAdd
from jaxtyped._src.lax.reductions import ReduceMax, ReduceMin, ReduceSum
from jaxtyped._src.lax.slicing import DynamicSlice, DynamicUpdateSlice, Slice
from jaxtyped._src.lax.special import Erfc, ErfInv
from jaxtyped._src.lax.structural import (
    BroadcastInDim,
    Concatenate,
    ExpandDims,
    Pad,
    Reshape,
    Rev,
    SelectN,
    Squeeze,
    Transpose,
    full_like_aval,
    zeros,
)
from jaxtyped._src.pjit import JitCall, consts_as_invars, jit_call
from jaxtyped._src.tree_util import tree_flatten, tree_structure, tree_unflatten, treedef_is_leaf
from jaxtyped._src.util import describe_function

__all__ = ["jet", "JetInterpreter", "JetTracer"]

R = TypeVar("R")

# The series of one value: ``order`` plain Taylor coefficients.
Terms: TypeAlias = tuple[Array, ...]
# The series of each operand (``None``: zero) and a rule's result: the
# primal outputs and the series of each output. A rule takes the primitive,
# the primals, their series and the order.
Series: TypeAlias = tuple[Terms | None, ...]
Result: TypeAlias = tuple[tuple[Array, ...], Series]
Rule: TypeAlias = Callable[[Primitive, tuple[Array, ...], Series, int], Result]


@final
class JetTracer(ArrayTracer):
    """A primal value with its (not all-zero) Taylor coefficients."""

    __slots__ = ("primal", "terms")

    primal: Array
    terms: Terms

    def __init__(self, interpreter: "JetInterpreter", primal: Array, terms: Terms) -> None:
        super().__init__(interpreter)
        self.primal = primal
        self.terms = terms

    @property
    def aval(self) -> ShapedArray:
        return self.primal.aval


def _inexact(aval: ShapedArray) -> bool:
    return bool(np.issubdtype(aval.dtype, np.inexact))


@final
class JetInterpreter(Interpreter):
    """Propagates truncated Taylor series through the rules of ``_RULES``
    (see Note [jet as an interpreter])."""

    def __init__(self, parent: Interpreter, order: int, fun_desc: str) -> None:
        super().__init__(parent, "jet", fun_desc)
        self.order = order

    def box(self, primal: Array, terms: Terms | None) -> Array:
        """The value for a primal and its series (unboxed when zero)."""
        if terms is None or not _inexact(primal.aval):
            return primal
        return JetTracer(self, primal, terms)

    def unbox(self, x: Array) -> tuple[Array, Terms | None]:
        """Primal and series of ``x``; ``None`` for values we do not own."""
        if type(x) is JetTracer and x.interpreter is self:
            return x.primal, x.terms
        return x, None

    def process(self, prim: Primitive, args: tuple[Array, ...]) -> tuple[Array, ...]:
        pairs = [self.unbox(a) for a in args]
        primals = tuple(p for p, _ in pairs)
        series = tuple(s for _, s in pairs)
        with interpreting(self.require_parent()):
            if all(s is None for s in series):
                return bind(prim, *primals)
            rule = rule_for(prim, tuple(p.aval for p in primals))
            outs, out_series = rule(prim, primals, series, self.order)
        return tuple(self.box(p, s) for p, s in zip(outs, out_series, strict=True))

    def concretize(self, tracer: ArrayTracer, conversion: Conversion) -> NDArray:
        # As under jvp, Python control flow on the primal works (JAX's jet
        # tracers are abstract; values with zero series are concrete here anyway).
        assert isinstance(tracer, JetTracer)
        return require_concrete(tracer.primal, conversion)


# === running a function under a (nested) jet ===


def jet_flat(
    fun: Callable[..., Sequence[Array]], primals: Sequence[Array], series: Sequence[Terms | None], order: int, desc: str
) -> tuple[tuple[Array, ...], tuple[Terms, ...]]:
    """``fun``'s outputs and their series (zeros instantiated) under a jet
    of ``order`` whose parent is the current interpreter; longer input
    series are truncated to ``order``."""
    if order == 0:
        plain = tuple(fun(*primals))
        return plain, tuple(() for _ in plain)
    interp = JetInterpreter(current_interpreter(), order, desc)
    with transformation_scope(interp):
        outs = fun(*[interp.box(p, None if s is None else s[:order]) for p, s in zip(primals, series, strict=True)])
        pairs = [interp.unbox(o) for o in outs]
    with interpreting(interp.require_parent()):
        return tuple(p for p, _ in pairs), tuple(_instantiate(p, s, order) for p, s in pairs)


def _outputs(fun: Callable[..., Array]) -> Callable[..., tuple[Array]]:
    """``fun`` returning a 1-tuple."""

    def wrapped(*xs: Array) -> tuple[Array]:
        return (fun(*xs),)

    return wrapped


def _instantiate(primal: Array, terms: Terms | None, order: int) -> Terms:
    """The series, zeros (of the primal's type) when symbolic."""
    if terms is None:
        zero = zeros(primal.aval)
        return (zero,) * order
    return terms


def _coeffs(primal: Array, terms: Terms | None, order: int) -> list[Array]:
    """``[x0, x1, ..., x_order]`` with zeros instantiated."""
    return [primal, *_instantiate(primal, terms, order)]


def _scale(x: Array, c: int | float) -> Array:
    """``x * c``, without an equation when ``c`` is 1."""
    return x if c == 1 else x * c


def _over(x: Array, k: int) -> Array:
    """``x / k``, without an equation when ``k`` is 1."""
    return x if k == 1 else x / k


def _sum(xs: Sequence[Array]) -> Array:
    total = xs[0]
    for x in xs[1:]:
        total = total + x
    return total


def _composed(fun: Callable[..., Array]) -> Rule:
    """A rule: the primitive for the primal, the jet of ``fun`` (a
    composition of other primitives) for the series (JAX's ``def_comp``)."""

    def rule(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
        out = bind1(prim, *primals)
        _, (terms,) = jet_flat(lambda *xs: (fun(*xs),), primals, series, order, f"the jet rule of {prim.name}")
        return (out,), (terms,)

    return rule


def _from_derivatives(us: Sequence[list[Array]], cs: Sequence[list[Array]], v0: Array, order: int) -> Terms:
    """Coefficients of ``v`` with ``v' = sum_i c_i u_i'``, given the
    coefficients of each ``u_i`` and ``c_i``: ``k v_k = sum_i sum_j j c_i[k-j] u_i[j]``."""
    v = [v0]
    for k in range(1, order + 1):
        v.append(_over(_sum([c[k - j] * _scale(u[j], j) for u, c in zip(us, cs) for j in range(1, k + 1)]), k))
    return tuple(v[1:])


def _by_derivatives(*partials: Callable[..., Array]) -> Rule:
    """A rule from the partial derivatives (compositions of primitives)."""

    def rule(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
        out = bind1(prim, *primals)
        c0s, cterms = jet_flat(lambda *xs: [d(*xs) for d in partials], primals, series, order - 1, f"the jet rule of {prim.name}")
        us = [_coeffs(p, s, order) for p, s in zip(primals, series)]
        cs = [[c0, *ct] for c0, ct in zip(c0s, cterms)]
        return (out,), (_from_derivatives(us, cs, out, order),)

    return rule


def _by_output_derivative(deriv: Callable[[Array], Array]) -> Rule:
    """A rule for ``v = f(u)`` with ``f'(u) = deriv(f(u))``: each new
    coefficient needs the series of ``deriv(v)`` one order lower."""

    def rule(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
        (x,), (s,) = primals, series
        out = bind1(prim, x)
        u = _coeffs(x, s, order)
        v = [out]
        c0 = deriv(out)
        for k in range(1, order + 1):
            if k == 1:
                c = [c0]
            else:
                _, (ct,) = jet_flat(_outputs(deriv), [out], [tuple(v[1:k])], k - 1, f"the jet rule of {prim.name}")
                c = [c0, *ct]
            v.append(_over(_sum([c[k - j] * _scale(u[j], j) for j in range(1, k + 1)]), k))
        return (out,), (tuple(v[1:]),)

    return rule


# === the rules ===


def _zero(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    outs = bind(prim, *primals)
    return outs, (None,) * len(outs)


def _linear(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """Every operand enters linearly: apply the primitive term by term."""
    out = bind1(prim, *primals)
    full = [_instantiate(p, s, order) for p, s in zip(primals, series)]
    return (out,), (tuple(bind1(prim, *[f[k] for f in full]) for k in range(order)),)


def _linear_in(*positions: int) -> Rule:
    """Linear in the operands at ``positions``; the others (indices,
    predicates) are used as they are."""

    def rule(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
        out = bind1(prim, *primals)
        full = [_instantiate(p, s, order) if i in positions else None for i, (p, s) in enumerate(zip(primals, series))]
        terms = tuple(
            bind1(prim, *[p if f is None else f[k] for p, f in zip(primals, full)]) for k in range(order)
        )
        return (out,), (terms,)

    return rule


def _select_n(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    return _linear_in(*range(1, len(primals)))(prim, primals, series, order)


def _bilinear(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """Leibniz: ``v_k = sum_j op(u_j, w_{k-j})`` (one product per term when
    an operand is constant)."""
    (x, y), (sx, sy) = primals, series
    out = bind1(prim, x, y)
    if sy is None:
        assert sx is not None
        return (out,), (tuple(bind1(prim, t, y) for t in sx),)
    if sx is None:
        return (out,), (tuple(bind1(prim, x, t) for t in sy),)
    u, w = [x, *sx], [y, *sy]
    return (out,), (tuple(_sum([bind1(prim, u[j], w[k - j]) for j in range(k + 1)]) for k in range(1, order + 1)),)


def _div(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """``v = u / w``: ``v_k = (u_k - sum_{j>=1} w_j v_{k-j}) / w_0``."""
    (x, y), (sx, sy) = primals, series
    out = bind1(prim, x, y)
    if sy is None:
        assert sx is not None
        return (out,), (tuple(bind1(prim, t, y) for t in sx),)
    u, w = _coeffs(x, sx, order), [y, *sy]
    v = [out]
    for k in range(1, order + 1):
        v.append(bind1(prim, u[k] - _sum([w[j] * v[k - j] for j in range(1, k + 1)]), y))
    return (out,), (tuple(v[1:]),)


def _exp(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """``v' = v u'``."""
    (x,), (s,) = primals, series
    out = bind1(prim, x)
    u, v = _coeffs(x, s, order), [out]
    for k in range(1, order + 1):
        v.append(_over(_sum([v[k - j] * _scale(u[j], j) for j in range(1, k + 1)]), k))
    return (out,), (tuple(v[1:]),)


def _log(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """``u v' = u'``: ``v_k = (u_k - sum_{j<k} j v_j u_{k-j} / k) / u_0``."""
    (x,), (s,) = primals, series
    out = bind1(prim, x)
    u, v = _coeffs(x, s, order), [out]
    for k in range(1, order + 1):
        acc = u[k]
        if k > 1:
            acc = acc - _sum([v[j] * _scale(u[k - j], j) for j in range(1, k)]) / k
        v.append(acc / x)
    return (out,), (tuple(v[1:]),)


def _sinusoid(sign: int, which: int) -> Rule:
    """sin/cos (``sign=-1``) and sinh/cosh (``sign=1``): ``s' = c u'``,
    ``c' = sign s u'``; ``which`` picks the output."""

    def rule(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
        (x,), (t,) = primals, series
        u = _coeffs(x, t, order)
        s = [tr.sinh(x) if sign > 0 else tr.sin(x)]
        c = [tr.cosh(x) if sign > 0 else tr.cos(x)]
        for k in range(1, order + 1):
            s.append(_over(_sum([c[k - j] * _scale(u[j], j) for j in range(1, k + 1)]), k))
            c.append(_over(_scale(_sum([s[k - j] * _scale(u[j], j) for j in range(1, k + 1)]), sign), k))
        out = bind1(prim, x)
        return (out,), (tuple((s, c)[which][1:]),)

    return rule


def _sqrt(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """``v^2 = u``: ``v_k = (u_k - sum_{0<j<k} v_j v_{k-j}) / (2 v_0)``."""
    (x,), (s,) = primals, series
    out = bind1(prim, x)
    u, v = _coeffs(x, s, order), [out]
    for k in range(1, order + 1):
        acc = u[k]
        if k > 1:
            acc = acc - _sum([v[j] * v[k - j] for j in range(1, k)])
        v.append(acc / (out * 2))
    return (out,), (tuple(v[1:]),)


def _pow(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """``x ** y = exp(y log x)``: the exp recurrence on the series of
    ``y log x``, with the primitive's primal (as JAX's rule)."""
    x, y = primals
    out = bind1(prim, x, y)
    _, (z,) = jet_flat(_outputs(_log_power), primals, series, order, "the jet rule of pow")
    u, v = [out, *z], [out]
    for k in range(1, order + 1):
        v.append(_over(_sum([v[k - j] * _scale(u[j], j) for j in range(1, k + 1)]), k))
    return (out,), (tuple(v[1:]),)


def _log_power(x: Array, y: Array) -> Array:
    """``y log x``, the exponent of ``x ** y``."""
    return y * tr.log(x)


def _power(x: Array, n: int) -> Array:
    """``x ** n`` by multiplications (``n >= 1``)."""
    result: Array | None = None
    base = x
    while n:
        if n & 1:
            result = base if result is None else result * base
        n >>= 1
        if n:
            base = base * base
    assert result is not None
    return result


def _integer_pow(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    assert isinstance(prim, ar.IntegerPow)
    n = prim.y
    if n == 0:
        return _zero(prim, primals, series, order)

    def power(x: Array) -> Array:
        p = _power(x, abs(n))
        return p if n > 0 else full_like_aval(x.aval, 1) / p

    return _composed(power)(prim, primals, series, order)


def _abs(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    (x,), (s,) = primals, series
    out = bind1(prim, x)
    negative = bind1(Lt(), x, full_like_aval(x.aval, 0))
    signs = tr_select(negative, full_like_aval(x.aval, -1), full_like_aval(x.aval, 1))
    return (out,), (tuple(signs * t for t in _instantiate(x, s, order)),)


def _like_shape(value: Array, like: Array) -> Array:
    """An elementwise operand (a scalar or of ``like``'s shape) at ``like``'s shape."""
    if value.shape == like.shape:
        return value
    return bind1(BroadcastInDim(like.shape, ()), value)


def tr_select(pred: Array, on_true: Array, on_false: Array) -> Array:
    """``on_true`` where ``pred``, else ``on_false``."""
    return bind1(SelectN(), pred, on_false, on_true)


def _extremum(greater: bool) -> Rule:
    """max/min: the chosen operand's series; the average on ties."""

    def rule(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
        out = bind1(prim, *primals)
        # A scalar operand is broadcast to the output's shape (as JAX's rule does).
        x, y = (_like_shape(p, out) for p in primals)
        first = bind1(Gt() if greater else Lt(), x, y)
        tie = bind1(Eq(), x, y)
        sx, sy = (tuple(_like_shape(t, out) for t in _instantiate(p, s, order)) for p, s in zip(primals, series))
        terms = tuple(tr_select(tie, (a + b) / 2, tr_select(first, a, b)) for a, b in zip(sx, sy))
        return (out,), (terms,)

    return rule


def _reduce_chooser(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """reduce_max/min: the series averaged over the positions attaining
    the extremum."""
    assert isinstance(prim, (ReduceMax, ReduceMin))
    (x,), (s,) = primals, series
    out = bind1(prim, x)
    kept = tuple(1 if i in prim.axes else d for i, d in enumerate(x.shape))
    hits = bind1(Eq(), x, bind1(BroadcastInDim(x.shape, tuple(range(x.ndim))), bind1(Reshape(kept), out)))
    indicator = convert_to(hits, x.dtype, weak_type=False)
    total = ReduceSum(prim.axes)
    counts = bind1(total, indicator)
    return (out,), (tuple(bind1(total, t * indicator) / counts for t in _instantiate(x, s, order)),)


def _call(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """A jit call: a jit call of the jet of its jaxpr (only the non-zero
    input series are passed)."""
    assert isinstance(prim, JitCall)
    live = [i for i, s in enumerate(series) if s is not None]
    flat = [*primals, *(t for i in live for t in _terms(series[i]))]
    n_out = len(prim.jaxpr.out_avals)
    closed = trace_flat(
        _jet_body(lambda *xs: eval_jaxpr(prim.jaxpr, (), *xs), [a.aval for a in primals], live, order),
        [a.aval for a in flat],
        f"jet of {prim.fun_name}",
    )
    outs = jit_call(closed, prim.fun_name, flat)
    return _split_outs(outs, n_out, order)


def _terms(s: Terms | None) -> Terms:
    assert s is not None
    return s


def _jet_body(
    fun: Callable[..., Sequence[Array]], in_avals: Sequence[ShapedArray], live: Sequence[int], order: int
) -> Callable[..., list[Array]]:
    """A function of ``(primals, series of the live inputs)`` returning
    ``(primal outputs, their series)`` (series of the primal's type)."""
    n = len(in_avals)

    def body(*flat: Array) -> list[Array]:
        primals = flat[:n]
        series: list[Terms | None] = [None] * n
        for slot, i in enumerate(live):
            series[i] = tuple(flat[n + slot * order : n + (slot + 1) * order])
        outs, out_series = jet_flat(fun, primals, series, order, "a jet body")
        terms = [_like(t, o.aval) for o, s in zip(outs, out_series) for t in s]
        return [*outs, *terms]

    return body


def _like(x: Array, aval: ShapedArray) -> Array:
    if x.aval.dtype != aval.dtype or x.aval.weak_type != aval.weak_type:
        return convert_to(x, aval.dtype, weak_type=aval.weak_type)
    return x


def _split_outs(outs: Sequence[Array], n_out: int, order: int) -> Result:
    primals = tuple(outs[:n_out])
    series = tuple(tuple(outs[n_out + i * order : n_out + (i + 1) * order]) for i in range(n_out))
    return primals, series


def _cond(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """``cond``: each branch re-traced as its jet (the index has no series)."""
    assert isinstance(prim, Cond)
    index, ops = primals[0], primals[1:]
    live = [i for i, s in enumerate(series[1:]) if s is not None]
    flat = [*ops, *(t for i in live for t in _terms(series[1 + i]))]

    def runner(branch_index: int) -> Callable[..., Sequence[Array]]:
        return lambda *xs: eval_jaxpr(prim.branches[branch_index], (), *xs)

    closed = [
        trace_flat(_jet_body(runner(b), [a.aval for a in ops], live, order), [a.aval for a in flat], "jet of a cond branch")
        for b in range(len(prim.branches))
    ]
    jaxprs, consts = join_consts(closed)
    outs = bind(Cond(tuple(jaxprs)), index, *consts, *flat)
    return _split_outs(outs, len(prim.branches[0].out_avals), order)


class _Layout:
    """Where a loop's flat operands are: each group's primals followed by
    the ``order`` terms of each of its live members."""

    def __init__(self, avals: Sequence[ShapedArray], live: Sequence[int], order: int) -> None:
        self.avals = list(avals)
        self.live = list(live)
        self.order = order

    @property
    def size(self) -> int:
        return len(self.avals) + len(self.live) * self.order

    def term_avals(self) -> list[ShapedArray]:
        return [self.avals[i] for i in self.live for _ in range(self.order)]

    def flat(self, primals: Sequence[Array], series: Sequence[Terms | None]) -> list[Array]:
        """Primals then live terms (zeros instantiated, of the group's types)."""
        terms = [_like(t, self.avals[i]) for i in self.live for t in _instantiate(primals[i], series[i], self.order)]
        return [*primals, *terms]

    def parse(self, flat: Sequence[Array]) -> tuple[list[Array], list[Terms | None]]:
        n = len(self.avals)
        series: list[Terms | None] = [None] * n
        for slot, i in enumerate(self.live):
            series[i] = tuple(flat[n + slot * self.order : n + (slot + 1) * self.order])
        return list(flat[:n]), series


def _loop_body(
    jaxpr: Jaxpr, groups: Sequence[_Layout], out_groups: Sequence[_Layout], order: int
) -> Callable[..., list[Array]]:
    """``jaxpr``'s jet as a function of the groups' flat operands, returning
    each output group's primals and live terms."""

    def body(*flat: Array) -> list[Array]:
        primals: list[Array] = []
        series: list[Terms | None] = []
        at = 0
        for group in groups:
            p, s = group.parse(flat[at : at + group.size])
            primals += p
            series += s
            at += group.size
        outs, out_series = jet_flat(lambda *xs: eval_jaxpr(jaxpr, (), *xs), primals, series, order, "a jet loop body")
        result: list[Array] = []
        at = 0
        for group in out_groups:
            n = len(group.avals)
            result += group.flat(outs[at : at + n], out_series[at : at + n])
            at += n
        return result

    return body


def _unflat(outs: Sequence[Array], groups: Sequence[_Layout]) -> Result:
    primals: list[Array] = []
    series: list[Terms | None] = []
    at = 0
    for group in groups:
        p, s = group.parse(outs[at : at + group.size])
        primals += p
        series += s
        at += group.size
    return tuple(primals), tuple(series)


def _live(series: Sequence[Terms | None]) -> list[int]:
    return [i for i, s in enumerate(series) if s is not None]


def _scan(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """``scan``: a scan of the body's jet; every inexact carry has a series
    (so the carry's type is the same at every step)."""
    assert isinstance(prim, Scan)
    consts, carry, xs = prim.split_operands(primals)
    c_s, k_s, x_s = prim.split_operands(series)
    in_avals = prim.jaxpr.in_avals
    nc, nk = len(consts), len(carry)
    carry_avals = list(in_avals[nc : nc + nk])
    gc = _Layout(in_avals[:nc], _live(c_s), order)
    gk = _Layout(carry_avals, [i for i, a in enumerate(carry_avals) if _inexact(a)], order)
    gx = _Layout(in_avals[nc + nk :], _live(x_s), order)
    ys_avals = prim.jaxpr.out_avals[nk:]
    gy = _Layout(ys_avals, [i for i, a in enumerate(ys_avals) if _inexact(a)], order)
    x_full = _Layout([x.aval for x in xs], gx.live, order)
    body = trace_flat(
        _loop_body(prim.jaxpr, (gc, gk, gx), (gk, gy), order),
        [*gc.avals, *gc.term_avals(), *gk.avals, *gk.term_avals(), *gx.avals, *gx.term_avals()],
        "jet of a scan body",
    )
    new = Scan(
        consts_as_invars(body.jaxpr), prim.length, gk.size, len(body.consts) + gc.size, prim.reverse, prim.unroll
    )
    outs = bind(new, *body.consts, *gc.flat(consts, c_s), *gk.flat(carry, k_s), *x_full.flat(xs, x_s))
    y_full = _Layout([ShapedArray((prim.length, *a.shape), a.dtype, a.weak_type) for a in ys_avals], gy.live, order)
    return _unflat(outs, (gk, y_full))


def _while(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """``while``: the predicate on the primals, the body's jet as the body."""
    assert isinstance(prim, While)
    cond_consts, body_consts, carry = prim.split_operands(primals)
    _, b_s, k_s = prim.split_operands(series)
    nb = len(body_consts)
    carry_avals = list(prim.body_jaxpr.in_avals[nb:])
    gb = _Layout(prim.body_jaxpr.in_avals[:nb], _live(b_s), order)
    gk = _Layout(carry_avals, [i for i, a in enumerate(carry_avals) if _inexact(a)], order)
    body = trace_flat(
        _loop_body(prim.body_jaxpr, (gb, gk), (gk,), order),
        [*gb.avals, *gb.term_avals(), *gk.avals, *gk.term_avals()],
        "jet of a while body",
    )
    n_cc, n_k = len(cond_consts), len(carry)
    cond = trace_flat(
        lambda *xs: eval_jaxpr(prim.cond_jaxpr, (), *xs[:n_cc], *xs[n_cc : n_cc + n_k]),
        [*prim.cond_jaxpr.in_avals, *gk.term_avals()],
        "jet of a while predicate",
    )
    new = While(consts_as_invars(cond.jaxpr), consts_as_invars(body.jaxpr), len(cond.consts) + n_cc, len(body.consts) + gb.size)
    outs = bind(new, *cond.consts, *cond_consts, *body.consts, *gb.flat(body_consts, b_s), *gk.flat(carry, k_s))
    return _unflat(outs, (gk,))


def _custom(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """custom_jvp / custom_vjp: the jet of the primal function (JAX ignores
    the custom rules too)."""
    assert isinstance(prim, (CustomJVPCall, CustomVJPCall))
    outs, out_series = jet_flat(lambda *xs: eval_jaxpr(prim.call_jaxpr, (), *xs), primals, series, order, f"jet of {prim.fun_name}")
    return outs, out_series


_SQRT_PI: Final = math.sqrt(math.pi)


def _one(x: Array) -> Array:
    return full_like_aval(x.aval, 1)


def _rsqrt(x: Array) -> Array:
    return _one(x) / tr.sqrt(x)


def _square(x: Array) -> Array:
    return x * x


def _expm1(x: Array) -> Array:
    return tr.exp(x) - _one(x)


def _log1p(x: Array) -> Array:
    return tr.log(x + _one(x))


def _d_tanh(v: Array) -> Array:
    """tanh' in terms of the output."""
    return _one(v) - v * v


def _d_logistic(v: Array) -> Array:
    """logistic' in terms of the output."""
    return v - v * v


def _d_erf_inv(v: Array) -> Array:
    """erf_inv' in terms of the output."""
    return tr.exp(v * v) * (_SQRT_PI / 2)


def _d_erf(x: Array) -> Array:
    return tr.exp(-(x * x)) * (2 / _SQRT_PI)


def _d_erfc(x: Array) -> Array:
    return tr.exp(-(x * x)) * (-2 / _SQRT_PI)


def _d_asinh(x: Array) -> Array:
    return _one(x) / tr.sqrt(x * x + _one(x))


def _d_acosh(x: Array) -> Array:
    return _one(x) / tr.sqrt(x * x - _one(x))


def _d_atanh(x: Array) -> Array:
    return _one(x) / (_one(x) - x * x)


def _d_atan2_x(x: Array, y: Array) -> Array:
    return y / (x * x + y * y)


def _d_atan2_y(x: Array, y: Array) -> Array:
    return -x / (x * x + y * y)


def _rem(x: Array, y: Array) -> Array:
    """``x - y * trunc(x / y)`` (the quotient has a zero series)."""
    q = x / y
    return x - y * (ar.sign(q) * ar.floor(ar.abs(q)))


def _cumulative(prim: Primitive, primals: tuple[Array, ...], series: Series, order: int) -> Result:
    """cumprod/cummax/cummin: the jet of the parallel prefix scan (as JAX:
    the scan is built of differentiable mul/max/min)."""
    assert isinstance(prim, (CumProd, CumMax, CumMin))
    combine = ar.mul if isinstance(prim, CumProd) else ar.max if isinstance(prim, CumMax) else ar.min
    axis, reverse = prim.axis, prim.reverse

    def scan(x: Array) -> Array:
        return associative_scan(combine, x, reverse=reverse, axis=axis)

    return _composed(scan)(prim, primals, series, order)


def _clamp(lo: Array, x: Array, hi: Array) -> Array:
    return ar.min(ar.max(_like_shape(lo, x), x), _like_shape(hi, x))




# One rule per primitive family, keyed by class (looked up along the MRO).
_RULES: Final[dict[type[Primitive], Rule]] = {
    # zero series: comparisons, rounding, logical/bitwise, stop_gradient, ...
    NonDifferentiable: _zero,  # type: ignore[type-abstract]  # a family's base class
    _Comparison: _zero,  # type: ignore[type-abstract]  # a family's base class
    BitcastConvertType: _zero,
    # linear
    ar.Neg: _linear,
    ar.Add: _linear,
    ar.Sub: _linear,
    Real: _linear,
    Imag: _linear,
    Conj: _linear,
    Complex: _linear,
    ConvertElementType: _linear,
    BroadcastInDim: _linear,
    Reshape: _linear,
    Transpose: _linear,
    Squeeze: _linear,
    ExpandDims: _linear,
    Rev: _linear,
    Concatenate: _linear,
    Pad: _linear,
    Slice: _linear,
    ReduceSum: _linear,
    CumSum: _linear,
    ReduceWindowSum: _linear,
    Fft: _linear,
    DynamicSlice: _linear_in(0),
    DynamicUpdateSlice: _linear_in(0, 1),
    Gather: _linear_in(0),
    ScatterAdd: _linear_in(0, 2),
    SelectN: _select_n,
    # bilinear
    ar.Mul: _bilinear,
    DotGeneral: _bilinear,
    ConvGeneralDilated: _bilinear,
    ar.Div: _div,
    # elementwise nonlinear
    tr.Exp: _exp,
    tr.Log: _log,
    tr.Sin: _sinusoid(-1, 0),
    tr.Cos: _sinusoid(-1, 1),
    tr.Sinh: _sinusoid(1, 0),
    tr.Cosh: _sinusoid(1, 1),
    tr.Sqrt: _sqrt,
    tr.Rsqrt: _composed(_rsqrt),
    tr.Pow: _pow,
    ar.IntegerPow: _integer_pow,
    Square: _composed(_square),
    tr.Expm1: _composed(_expm1),
    tr.Log1p: _composed(_log1p),
    tr.Tanh: _by_output_derivative(_d_tanh),
    tr.Logistic: _by_output_derivative(_d_logistic),
    ErfInv: _by_output_derivative(_d_erf_inv),
    tr.Erf: _by_derivatives(_d_erf),
    Erfc: _by_derivatives(_d_erfc),
    tr.Asinh: _by_derivatives(_d_asinh),
    tr.Acosh: _by_derivatives(_d_acosh),
    tr.Atanh: _by_derivatives(_d_atanh),
    tr.Atan2: _by_derivatives(_d_atan2_x, _d_atan2_y),
    ar.Abs: _abs,
    ar.Max: _extremum(True),
    ar.Min: _extremum(False),
    Clamp: _composed(_clamp),
    ar.Rem: _composed(_rem),
    CumProd: _cumulative,
    CumMax: _cumulative,
    CumMin: _cumulative,
    ReduceMax: _reduce_chooser,
    ReduceMin: _reduce_chooser,
    # higher-order
    JitCall: _call,
    Cond: _cond,
    Scan: _scan,
    While: _while,
    CustomJVPCall: _custom,
    CustomVJPCall: _custom,
}


def rule_for(prim: Primitive, avals: tuple[ShapedArray, ...]) -> Rule:
    """The jet rule of ``prim``'s family (applied to operands of types
    ``avals``); a primitive with only integer or boolean outputs (an
    ``argmax``, an ``iota``) has zero series, rule or not.

    Raises:
        NotImplementedError: no rule (the message names the primitive).
    """
    for cls in type(prim).__mro__:
        rule = _RULES.get(cls)
        if rule is not None:
            return rule
    if not any(_inexact(out) for out in prim.abstract_eval(avals)):
        return _zero
    raise NotImplementedError(f"Jet rule for '{prim.name}' not implemented")


# === the API ===


def _is_leaf(x: object) -> bool:
    return treedef_is_leaf(tree_structure(x))


@overload
def jet(
    fun: Callable[..., Array], primals: Sequence[ArrayLike], series: Sequence[Sequence[ArrayLike]], factorial_scaled: bool = True
) -> tuple[Array, list[Array]]: ...
@overload
def jet(
    fun: Callable[..., R], primals: Sequence[ArrayLike], series: Sequence[Sequence[ArrayLike]], factorial_scaled: bool = True
) -> tuple[R, object]: ...
def jet(
    fun: Callable[..., object], primals: Sequence[ArrayLike], series: Sequence[Sequence[ArrayLike]], factorial_scaled: bool = True
) -> tuple[object, object]:
    """Taylor-mode differentiation (JAX's ``jax.experimental.jet.jet``).

    Args:
        fun: a function of arrays returning a pytree of arrays.
        primals: one array per positional argument of ``fun``.
        series: per argument, the terms ``(x1, ..., xK)`` of its Taylor
            polynomial; all of the same length ``K`` (the order).
        factorial_scaled: the terms (in and out) are derivatives (term
            ``k`` is ``k!`` times the Taylor coefficient); ``False``: plain
            Taylor coefficients.

    Returns:
        ``(primals_out, series_out)``: ``fun(*primals)`` and, in its tree
        structure, the list of ``K`` output terms of each output leaf.

    Raises:
        ValueError: the terms' lengths differ, or a primal or a term is not
            an array (a pytree), or ``primals`` and ``series`` differ in length.
        NotImplementedError: ``fun`` applies a primitive with no jet rule.
    """
    lengths = {len(terms) for terms in series}
    if len(lengths) != 1:
        raise ValueError("jet terms have inconsistent lengths for different arguments")
    (order,) = lengths
    if len(primals) != len(series):
        raise ValueError(f"jet: got {len(primals)} primal(s) but {len(series)} series")
    for i, (x, terms) in enumerate(zip(primals, series)):
        if not _is_leaf(x):
            raise ValueError(f"primal value at position {i} is not an array")
        for j, t in enumerate(terms):
            if not _is_leaf(t):
                raise ValueError(f"term {j} for argument {i} is not an array")
    xs = [leaf_to_array(x, f"primals[{i}]", "jet") for i, x in enumerate(primals)]
    ins: list[Terms | None] = []
    for i, terms in enumerate(series):
        arrays = [leaf_to_array(t, f"series[{i}][{j}]", "jet") for j, t in enumerate(terms)]
        if factorial_scaled:
            arrays = [_scale(t, 1 / math.factorial(k + 1)) for k, t in enumerate(arrays)]
        ins.append(tuple(arrays) if order else None)
    interp = JetInterpreter(current_interpreter(), order, describe_function(fun))
    with transformation_scope(interp):
        result = fun(*[interp.box(x, s) for x, s in zip(xs, ins)])
        leaves, tree = tree_flatten(result)
        pairs = [interp.unbox(leaf_to_array(leaf, "output", "jet")) for leaf in leaves]
    outs = [p for p, _ in pairs]
    out_terms: list[list[Array]] = []
    for p, s in pairs:
        out = list(_instantiate(p, s, order)) if _inexact(p.aval) else [zeros(p.aval)] * order
        if factorial_scaled:
            out = [_scale(t, math.factorial(k + 1)) for k, t in enumerate(out)]
        out_terms.append(out)
    return tree_unflatten(tree, outs), tree_unflatten(tree, out_terms)
