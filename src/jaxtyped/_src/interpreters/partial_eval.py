"""Partial evaluation: known values now, unknown values staged (layer L2).

Note [partial evaluation as staging]: a :class:`PartialEvalInterpreter` is
a staging interpreter whose *known* values are simply values of its parent
(concrete arrays, or tracers of an enclosing transformation) and whose
*unknown* values are its own staging tracers. An application with only
known operands is handed to the parent at once; one with an unknown operand
is recorded. Known values that recorded equations use become the jaxpr's
constvars: they are the *residuals*. Running the jvp interpreter on top of
it with unknown tangents is ``linearize``: primal work runs now and the
tangent work becomes a linear jaxpr over residuals (Autodidax part 3).

Higher-order primitives (a jit call, checkpoint) split themselves through
``partial_eval_split`` so that their known part still runs now; the same
split, over whole jaxprs, is :func:`partial_eval_jaxpr`, which also decides
through a *policy* which known values are saved as residuals and which are
recomputed by the unknown side (``checkpoint``).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import final

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.interpreter import Interpreter, bind, interpreting
from jaxtyped._src.core.jaxpr import Atom, Eqn, Jaxpr, Literal, Var, eval_jaxpr
from jaxtyped._src.core.primitive import PartialEvalSplit, Primitive
from jaxtyped._src.interpreters.staging import StagingInterpreter, StagingTracer

__all__ = ["PartialEvalInterpreter", "PrologueSplit", "JaxprSplit", "partial_eval_jaxpr", "dce_jaxpr", "SaveablePolicy", "next_var_count"]

@final
@dataclass(frozen=True, slots=True)
class PrologueSplit(PartialEvalSplit):
    """A :class:`PartialEvalSplit` with a ``prologue``: a jaxpr of the
    operands of ``known`` run first, where the split equation stands (its
    equations become the enclosing jaxpr's). Its outputs are handed to
    ``known`` before its operands and follow the residuals in the list
    ``unknown_order`` permutes. A loop hoists its loop-invariant residuals
    there, so they are computed once instead of stacked per iteration.
    """

    prologue: Jaxpr | None = None


def _prologue(split: PartialEvalSplit) -> Jaxpr | None:
    return split.prologue if isinstance(split, PrologueSplit) else None


# Whether a known equation's outputs may be saved as residuals (True) or
# must be recomputed by the unknown side (False).
SaveablePolicy = Callable[[Eqn], bool]


@final
class PartialEvalInterpreter(StagingInterpreter):
    """Runs applications of known values now (in the parent) and stages the
    rest; see Note [partial evaluation as staging]."""

    def __init__(self, parent: Interpreter, fun_desc: str, transformation: str = "linearize") -> None:
        super().__init__(parent, fun_desc, transformation)

    def is_unknown(self, x: Array) -> bool:
        """Whether ``x`` is one of this interpreter's staged values."""
        return type(x) is StagingTracer and x.interpreter is self

    def process(self, prim: Primitive, args: tuple[Array, ...]) -> tuple[Array, ...]:
        unknowns = tuple(self.is_unknown(arg) for arg in args)
        if not any(unknowns):
            with interpreting(self.require_parent()):
                return bind(prim, *args)
        split = prim.partial_eval_split(unknowns)
        if split is None:
            return super().process(prim, args)
        known_args = [a for a, u in zip(args, unknowns) if not u]
        unknown_args = [a for a, u in zip(args, unknowns) if u]
        known_operands = split.known_operands(known_args)
        with interpreting(self.require_parent()):
            # A prologue's equations are the parent's own (as JAX's hoisted
            # loop invariants are): evaluated, not called.
            prologue = _prologue(split)
            hoisted = eval_jaxpr(prologue, (), *known_operands) if prologue is not None else ()
            known_outs = bind(split.known, *hoisted, *known_operands)
        num_known = len(known_outs) - split.num_res
        residuals = (*known_outs[num_known:], *hoisted)
        operands = split.unknown_operands(known_args, residuals, unknown_args)
        unknown_outs = iter(super().process(split.unknown, tuple(operands)))
        known_iter = iter(known_outs[:num_known])
        return tuple(next(unknown_outs) if u else next(known_iter) for u in split.out_unknowns)


# === partial evaluation of jaxprs ===


@final
@dataclass(frozen=True, slots=True)
class JaxprSplit:
    """A jaxpr split by :func:`partial_eval_jaxpr`.

    ``known`` maps the known inputs to the known outputs followed by
    ``num_res`` residuals; ``unknown`` maps the residuals followed by the
    unknown inputs to the unknown outputs.
    """

    known: Jaxpr
    unknown: Jaxpr
    out_unknowns: tuple[bool, ...]
    num_res: int


def partial_eval_jaxpr(
    jaxpr: Jaxpr,
    unknowns: Sequence[bool],
    saveable: SaveablePolicy | None = None,
    instantiate: Sequence[bool] | bool = False,
) -> JaxprSplit:
    """Split a constvar-free ``jaxpr`` whose inputs marked in ``unknowns``
    are not known yet.

    An equation is unknown when one of its inputs is (an effectful one
    too: its effect then happens on the unknown side; with known inputs it
    happens on the known side, once, never recomputed); higher-order
    equations with mixed inputs are split by their ``partial_eval_split``
    rule. A known value the unknown side needs is a residual when it is an
    input, when ``saveable`` is None (save everything) or says so;
    otherwise its equation is recomputed on the unknown side (and so,
    recursively, are the values it needs). Outputs marked in
    ``instantiate`` are made unknown even when they are known (the unknown
    side returns them), as loops and branches need matching outputs.
    """
    assert not jaxpr.constvars, "partial_eval_jaxpr expects consts as invars"
    fresh = _FreshVars(jaxpr)
    unknown_vars: set[Var] = {v for v, u in zip(jaxpr.invars, unknowns, strict=True) if u}
    known_eqns: list[tuple[int, Eqn]] = []
    unknown_eqns: list[tuple[int, Eqn]] = []
    forced: set[Var] = set()  # residuals of split equations: always saved
    inputs = frozenset(jaxpr.invars)
    replayed: list[tuple[int, Eqn]] = []  # known debug callbacks a checkpoint runs again
    for index, eqn in enumerate(jaxpr.eqns):
        ins = tuple(isinstance(a, Var) and a in unknown_vars for a in eqn.invars)
        if not any(ins):
            # Effects too: a print of known values happens on the known
            # side, in program order, as in JAX (never recomputed below).
            known_eqns.append((index, eqn))
            if saveable is not None and _replayed(eqn, saveable, inputs):
                replayed.append((index, eqn))
            continue
        split = eqn.primitive.partial_eval_split(ins)
        if split is None:
            unknown_eqns.append((index, eqn))
            unknown_vars.update(eqn.outvars)
            continue
        known_in = tuple(a for a, u in zip(eqn.invars, ins) if not u)
        known_args = tuple(split.known_operands(known_in))
        hoisted: tuple[Atom, ...] = ()
        prologue = _prologue(split)
        if prologue is not None:
            prologue_eqns, hoisted = _inline(prologue, known_args, fresh)
            known_eqns.extend((index, e) for e in prologue_eqns)
            forced.update(a for a in hoisted if isinstance(a, Var))
        known_args = hoisted + known_args
        known_out_avals = split.known.abstract_eval(tuple(a.aval for a in known_args))
        res_vars = tuple(fresh.new(aval) for aval in known_out_avals[len(known_out_avals) - split.num_res :])
        forced.update(res_vars)
        known_outs = tuple(v for v, u in zip(eqn.outvars, split.out_unknowns) if not u)
        if prologue is not None:
            # Never recomputed (a checkpoint's policy): its prologue's
            # equations share its index, and their outputs are residuals.
            forced.update(known_outs)
        unknown_outs = tuple(v for v, u in zip(eqn.outvars, split.out_unknowns) if u)
        known_eqns.append((index, Eqn(split.known, known_args, known_outs + res_vars)))
        unknown_in = split.unknown_operands(known_in, res_vars + hoisted, tuple(a for a, u in zip(eqn.invars, ins) if u))
        unknown_eqns.append((index, Eqn(split.unknown, tuple(unknown_in), unknown_outs)))
        unknown_vars.update(unknown_outs)
    if isinstance(instantiate, bool):
        instantiate = (instantiate,) * len(jaxpr.outvars)
    out_unknowns = tuple(
        inst or (isinstance(a, Var) and a in unknown_vars)
        for a, inst in zip(jaxpr.outvars, instantiate, strict=True)
    )
    # Known outputs that must be unknown are read by the unknown side.
    needed = [a for a, u in zip(jaxpr.outvars, out_unknowns) if u and not (isinstance(a, Var) and a in unknown_vars)]
    needed += [a for _, eqn in replayed for a in eqn.invars]
    residuals, recompute = _residuals(known_eqns, unknown_eqns, unknown_vars, forced, saveable, needed)
    known_invars = tuple(v for v, u in zip(jaxpr.invars, unknowns) if not u)
    known_outvars = tuple(a for a, u in zip(jaxpr.outvars, out_unknowns) if not u)
    known = Jaxpr((), known_invars, known_outvars + tuple(residuals), tuple(e for _, e in known_eqns))
    known, _ = dce_jaxpr(known, (True,) * len(known.outvars))
    unknown_body = sorted([(i, e) for i, e in known_eqns if i in recompute] + unknown_eqns + replayed, key=lambda p: p[0])
    unknown_invars = tuple(residuals) + tuple(v for v, u in zip(jaxpr.invars, unknowns) if u)
    unknown_outvars = tuple(a for a, u in zip(jaxpr.outvars, out_unknowns) if u)
    unknown = Jaxpr((), unknown_invars, unknown_outvars, tuple(e for _, e in unknown_body))
    return JaxprSplit(known, unknown, out_unknowns, len(residuals))


def _inline(jaxpr: Jaxpr, args: Sequence[Atom], fresh: "_FreshVars") -> tuple[list[Eqn], tuple[Atom, ...]]:
    """The equations of the constvar-free ``jaxpr`` applied to ``args``,
    with fresh vars for its own, and its outputs."""
    env: dict[Var, Atom] = dict(zip(jaxpr.invars, args, strict=True))

    def read(atom: Atom) -> Atom:
        return atom if isinstance(atom, Literal) else env[atom]

    eqns: list[Eqn] = []
    for eqn in jaxpr.eqns:
        outvars = tuple(fresh.new(v.aval) for v in eqn.outvars)
        env.update(zip(eqn.outvars, outvars))
        eqns.append(Eqn(eqn.primitive, tuple(read(a) for a in eqn.invars), outvars))
    return eqns, tuple(read(a) for a in jaxpr.outvars)


def _replayed(eqn: Eqn, saveable: SaveablePolicy, inputs: frozenset[Var]) -> bool:
    """Whether a checkpoint's recomputation runs the known equation
    ``eqn`` again (JAX's rule for debug callbacks): when the policy does
    not save it, or when it does but every value it reads is an input of
    the checkpoint, so replaying it recomputes nothing extra."""
    if not eqn.primitive.replayed_when_recomputed:
        return False
    if not saveable(eqn):
        return True
    return all(isinstance(a, Literal) or a in inputs for a in eqn.invars)


def _residuals(
    known_eqns: list[tuple[int, Eqn]],
    unknown_eqns: list[tuple[int, Eqn]],
    unknown_vars: set[Var],
    forced: set[Var],
    saveable: SaveablePolicy | None,
    needed: Sequence[Atom] = (),
) -> tuple[list[Var], set[int]]:
    """The residual vars (in first-use order) and the indices of known
    equations the unknown side recomputes; ``needed`` are known values the
    unknown side returns."""
    producer: dict[Var, tuple[int, Eqn]] = {}
    for index, eqn in known_eqns:
        for v in eqn.outvars:
            producer[v] = (index, eqn)
    residuals: dict[Var, None] = {}
    recompute: set[int] = set()
    # An explicit stack: recomputation chains can be thousands of equations long.
    stack: list[Atom] = list(reversed(needed))
    stack += [a for _, eqn in reversed(unknown_eqns) for a in reversed(eqn.invars)]
    while stack:
        atom = stack.pop()
        if isinstance(atom, Literal) or atom in unknown_vars or atom in residuals:
            continue
        produced = producer.get(atom)
        if produced is None or atom in forced or saveable is None:
            residuals[atom] = None
            continue
        index, eqn = produced
        if index in recompute:
            continue
        # An effectful equation is never recomputed: its effect would repeat.
        if any(v in forced for v in eqn.outvars) or eqn.effects or saveable(eqn):
            residuals[atom] = None
            continue
        recompute.add(index)
        stack.extend(reversed(eqn.invars))
    return list(residuals), recompute


def next_var_count(jaxpr: Jaxpr) -> int:
    """A var number after every var of ``jaxpr``'s: vars numbered from it
    never collide with the jaxpr's own."""
    counts = [v.count for v in jaxpr.constvars + jaxpr.invars]
    counts += [v.count for e in jaxpr.eqns for v in e.outvars]
    return max(counts, default=-1) + 1


class _FreshVars:
    """Vars numbered after every var of a jaxpr (so they never collide)."""

    def __init__(self, jaxpr: Jaxpr) -> None:
        self._next = next_var_count(jaxpr)

    def new(self, aval: ShapedArray) -> Var:
        var = Var(self._next, aval)
        self._next += 1
        return var


# === dead-code elimination ===


def dce_jaxpr(
    jaxpr: Jaxpr, used_outputs: Sequence[bool], *, prune_invars: bool = False, into_loops: bool = False
) -> tuple[Jaxpr, tuple[bool, ...]]:
    """``jaxpr`` without the equations no used output depends on (and
    that have no effects: those are always kept).

    Returns the new jaxpr (keeping only used outputs) and which invars are
    used; with ``prune_invars`` the unused invars are dropped too. With
    ``into_loops`` (lowering), higher-order equations drop their unused
    outputs too, through their :meth:`Primitive.dce` rule (a scan whose
    stacked outputs nobody reads no longer computes them).
    """
    outvars = tuple(a for a, used in zip(jaxpr.outvars, used_outputs, strict=True) if used)
    live: set[Var] = {a for a in outvars if isinstance(a, Var)}
    kept: list[Eqn] = []
    for eqn in reversed(jaxpr.eqns):
        used = tuple(v in live for v in eqn.outvars)
        # An effectful equation is never dead: its effect is its use.
        if eqn.effects or any(used):
            rule = eqn.primitive.dce(used) if into_loops and not eqn.effects else None
            if rule is not None:
                prim, used_in, kept_out = rule
                eqn = Eqn(
                    prim,
                    tuple(a for a, u in zip(eqn.invars, used_in, strict=True) if u),
                    tuple(v for v, k in zip(eqn.outvars, kept_out, strict=True) if k),
                )
            kept.append(eqn)
            live.update(a for a in eqn.invars if isinstance(a, Var))
    used_inputs = tuple(v in live for v in jaxpr.invars)
    invars = tuple(v for v, used in zip(jaxpr.invars, used_inputs) if used) if prune_invars else jaxpr.invars
    return Jaxpr(jaxpr.constvars, invars, outvars, tuple(reversed(kept))), used_inputs
