"""``cond`` and ``switch``: the ``cond`` primitive (layer L4).

``Cond(branches)`` is applied to an ``int32`` index followed by the
operands every branch takes; it runs ``branches[index]``. Its rules (see
Note [control flow is higher-order primitives] in ``common``):

- jvp: each branch differentiated with the union of their non-zero output
  tangents (a branch whose tangent is zero returns real zeros);
- batching: a batched index runs every branch on the batch and selects the
  results lane by lane (``select_n``); an unbatched index batches the
  branches, whose outputs agree on where the batch axis is;
- partial evaluation: a known index splits every branch; the known cond
  returns each branch's residuals in its own slots (zeros in the others')
  and the unknown cond receives the index again;
- transpose: a cond of the transposed branches;
- lowering: ``stablehlo.case``.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeVar, cast, final, overload

import numpy as np
from typing_extensions import TypeVarTuple, Unpack, override

from jaxtyped._src import dtypes
from jaxtyped._src.ad import cotangent_aval, transpose_jaxpr
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, array_from_numpy, host_buffer, with_weak_type
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import LinearArg, PartialEvalSplit, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError
from jaxtyped._src.interpreters.partial_eval import JaxprSplit, partial_eval_jaxpr
from jaxtyped._src.lax.arithmetic import max as lax_max
from jaxtyped._src.lax.arithmetic import stop_gradient
from jaxtyped._src.lax.arithmetic import min as lax_min
from jaxtyped._src.lax.comparison import eq, ne
from jaxtyped._src.lax.util import leaf_as_array, named_leaves, short_types
from jaxtyped._src.state.threading import thread_branches
from jaxtyped._src.lax.control_flow.common import (
    i32_scalar,
    TracedFun,
    eval_closed,
    insert_invars,
    join_consts,
    same_up_to_weak_type,
    trace_flat,
    trace_user_fun,
    type_difference,
)
from jaxtyped._src.lax.elementwise_base import convert_element_type
from jaxtyped._src.lax.structural import bdim_to_front, broadcast_in_dim, select_n, zeros
from jaxtyped._src.lowering import lower_jaxpr_inline
from jaxtyped._src.pjit import batch_jaxpr, cached_value, check_operand_types, evaluate_eagerly, hashable_or_id, jvp_jaxpr
from jaxtyped._src.tree_util import PyTreeDef
from jaxtyped._src.util import describe_function

__all__ = ["Cond", "cond", "platform_dependent", "switch"]

R = TypeVar("R")
T = TypeVar("T")  # the operand= keyword's pytree
Ts = TypeVarTuple("Ts")


@final
@dataclass(frozen=True, slots=True)
class Cond(Primitive):
    """Run ``branches[index]`` on the operands (JAX's ``cond`` primitive).

    Attributes:
        branches: const-free jaxprs with the same input and output types
            up to weak types. As in JAX, a branch keeps its own weak types
            and the cond's outputs have ``branches[0]``'s; a batched index
            selects between the branches' results, whose join is weak only
            where every branch's output is.
    """

    name: ClassVar[str] = "cond"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False  # hashing jaxprs costs O(size)
    branches: tuple[Jaxpr, ...]

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if not avals:
            raise JaxtypedTypeError("cond: needs an index operand")
        index, *ops = avals
        if index.shape != () or index.dtype != np.dtype(np.int32):
            raise JaxtypedTypeError(f"cond: the branch index must be an i32[] scalar, got {index.str_short()}")
        first = self.branches[0]
        for i, branch in enumerate(self.branches[1:], start=1):
            if not _same_types(branch.in_avals, first.in_avals) or not _same_types(branch.out_avals, first.out_avals):
                raise JaxtypedTypeError(
                    f"cond: branches[{i}] has type ({short_types(branch.in_avals)}) -> ({short_types(branch.out_avals)}) "
                    f"but branches[0] has ({short_types(first.in_avals)}) -> ({short_types(first.out_avals)})"
                )
        check_operand_types("cond", ops, first.in_avals, "the branches take")
        return first.out_avals

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        # Only the chosen branch runs, op by op (nothing is compiled).
        index = _clamp(int(host_buffer(args[0])), len(self.branches))
        branch = self.branches[index]
        outs = evaluate_eagerly(lambda: eval_jaxpr(branch, (), *args[1:]))
        # The chosen branch's weak types may differ from branches[0]'s, the cond's.
        return tuple(with_weak_type(x, aval.weak_type) for x, aval in zip(outs, out_avals, strict=True))

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        index, ops = primals[0], primals[1:]
        nonzero = tuple(not isinstance(t, Zero) for t in tangents[1:])
        prim, consts, out_nonzero = cached_value(("cond_jvp", self.branches, nonzero), lambda: self._jvp_cond(nonzero))
        op_tangents = [t for t in tangents[1:] if not isinstance(t, Zero)]
        outs = bind(prim, index, *consts, *ops, *op_tangents)
        n_out = len(self.branches[0].outvars)
        tangent_iter = iter(outs[n_out:])
        out_tangents: list[Tangent] = [
            next(tangent_iter) if nz else Zero(aval.to_tangent_aval())
            for nz, aval in zip(out_nonzero, self.branches[0].out_avals, strict=True)
        ]
        return outs[:n_out], tuple(out_tangents)

    def _jvp_cond(self, nonzero: tuple[bool, ...]) -> tuple["Cond", tuple[Array, ...], tuple[bool, ...]]:
        """The cond of the branches' jvps, which agree on the non-zero
        output tangents (the union of theirs); its consts; that union."""
        first = [jvp_jaxpr(b, nonzero) for b in self.branches]
        out_nonzero = tuple(any(flags) for flags in zip(*(nz for _, nz in first), strict=True))
        closed = [
            c if nz == out_nonzero else jvp_jaxpr(b, nonzero, instantiate=out_nonzero)[0]
            for (c, nz), b in zip(first, self.branches)
        ]
        jaxprs, consts = join_consts(closed)
        return Cond(tuple(jaxprs)), consts, out_nonzero

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        index, ops = args[0], args[1:]
        op_dims = dims[1:]
        if dims[0] is not None:
            return self._batch_index(axis, bdim_to_front(index, dims[0], axis.size), ops, op_dims)
        in_avals = tuple(a.aval for a in ops)
        key = ("cond_batch", self.branches, op_dims, in_avals, axis.size, hashable_or_id(axis.name))
        prim, consts, forced = cached_value(key, lambda: self._batch_branches(axis, in_avals, op_dims))
        outs = bind(prim, index, *consts, *ops)
        return outs, tuple(0 if f else None for f in forced)

    def _batch_branches(
        self, axis: BatchAxis, in_avals: tuple[ShapedArray, ...], op_dims: tuple[BatchDim, ...]
    ) -> tuple["Cond", tuple[Array, ...], tuple[bool, ...]]:
        """The cond of the batched branches, whose outputs are batched (at
        0) where any branch's is; its consts; which outputs are batched."""
        first = [batch_jaxpr(b, axis, in_avals, op_dims) for b in self.branches]
        forced = tuple(any(d is not None for d in dims) for dims in zip(*(d for _, d in first), strict=True))
        closed = [
            c if out_dims == tuple(0 if f else None for f in forced) else batch_jaxpr(b, axis, in_avals, op_dims, forced)[0]
            for (c, out_dims), b in zip(first, self.branches)
        ]
        jaxprs, consts = join_consts(closed)
        return Cond(tuple(jaxprs)), consts, forced

    def _batch_index(
        self, axis: BatchAxis, index: Array, ops: tuple[Array, ...], op_dims: tuple[BatchDim, ...]
    ) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        # Each lane picks its own branch: run them all, then select. A
        # branch sees the operands of the lanes that do not take it through
        # stop_gradient, so its derivative there (say sqrt's at a negative
        # number, NaN) cannot leak into the selected gradient.
        front = [bdim_to_front(x, d, axis.size) for x, d in zip(ops, op_dims)]
        in_avals = tuple(a.aval for a in front)
        dims0 = (0,) * len(front)
        forced = (True,) * len(self.branches[0].outvars)
        results: list[tuple[Array, ...]] = []
        for i, branch in enumerate(self.branches):
            taken = eq(index, i)
            guarded = [select_n(broadcast_in_dim(taken, x.shape, (0,)), stop_gradient(x), x) for x in front]
            results.append(eval_closed(batch_jaxpr(branch, axis, in_avals, dims0, forced)[0], *guarded))
        outs: list[Array] = []
        for cases in zip(*results, strict=True):
            which = broadcast_in_dim(index, cases[0].shape, (0,))
            outs.append(select_n(which, *cases))
        return tuple(outs), (0,) * len(outs)

    @override
    def partial_eval_split(self, unknowns: tuple[bool, ...]) -> PartialEvalSplit | None:
        if unknowns[0]:
            return None  # the branch is not known: everything waits
        return cached_value(("cond_partial_eval", self.branches, unknowns), lambda: self._split(unknowns[1:]))

    def _split(self, op_unknowns: tuple[bool, ...]) -> PartialEvalSplit:
        splits = [partial_eval_jaxpr(b, op_unknowns) for b in self.branches]
        out_unknowns = tuple(any(flags) for flags in zip(*(s.out_unknowns for s in splits), strict=True))
        splits = [
            s if s.out_unknowns == out_unknowns else partial_eval_jaxpr(b, op_unknowns, instantiate=out_unknowns)
            for s, b in zip(splits, self.branches)
        ]
        res_avals = [_residual_avals(s) for s in splits]
        known_in = [a for a, u in zip(self.branches[0].in_avals, op_unknowns) if not u]
        known_branches: list[Jaxpr] = []
        unknown_branches: list[Jaxpr] = []
        for i, split in enumerate(splits):
            before = [a for r in res_avals[:i] for a in r]
            after = [a for r in res_avals[i + 1 :] for a in r]
            known = trace_flat(_known_branch(split, before, after), known_in, "cond")
            assert not known.consts, "internal error: a known cond branch closed over an array"
            known_branches.append(known.jaxpr)
            unknown = insert_invars(split.unknown, len(res_avals[i]), after)
            unknown_branches.append(insert_invars(unknown, 0, before))
        num_res = sum(len(r) for r in res_avals)
        # The unknown cond needs the index again: it is forwarded as is.
        return PartialEvalSplit(Cond(tuple(known_branches)), Cond(tuple(unknown_branches)), out_unknowns, num_res, forwarded=(0,))

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        index, ops = args[0], args[1:]
        if isinstance(index, UndefinedPrimal):
            raise AssertionError("internal error: transpose of cond with a linear index")
        linear = tuple(isinstance(a, UndefinedPrimal) for a in ops)
        ct_nonzero = tuple(not isinstance(ct, Zero) for ct in cts)
        # Traced at the cotangents' own weak types, as JAX's cond transpose is.
        ct_weak_types = tuple(ct.aval.weak_type for ct in cts)
        key = ("cond_transpose", self.branches, linear, ct_nonzero, ct_weak_types)
        prim, consts, nonzero = cached_value(key, lambda: self._transposed(linear, ct_nonzero, ct_weak_types))
        operands = [a for a in ops if not isinstance(a, UndefinedPrimal)]
        operands += [ct for ct in cts if not isinstance(ct, Zero)]
        outs = iter(bind(prim, index, *consts, *operands))
        nonzero_iter = iter(nonzero)
        results: list[Tangent | None] = [None]
        for a in ops:
            if not isinstance(a, UndefinedPrimal):
                results.append(None)
            else:
                results.append(next(outs) if next(nonzero_iter) else Zero(a.aval.to_tangent_aval()))
        return tuple(results)

    def _transposed(
        self, linear: tuple[bool, ...], ct_nonzero: tuple[bool, ...], ct_weak_types: tuple[bool, ...]
    ) -> tuple["Cond", tuple[Array, ...], tuple[bool, ...]]:
        transposed = [transpose_jaxpr(b, linear, ct_nonzero, ct_weak_types) for b in self.branches]
        nonzero = tuple(any(flags) for flags in zip(*(nz for _, nz in transposed), strict=True))
        in_avals = [a for a, lin in zip(self.branches[0].in_avals, linear) if not lin]
        in_avals += [
            cotangent_aval(a, weak)
            for a, nz, weak in zip(self.branches[0].out_avals, ct_nonzero, ct_weak_types, strict=True)
            if nz
        ]
        ct_avals = [a.to_tangent_aval() for a, lin in zip(self.branches[0].in_avals, linear) if lin]
        widened = [
            closed if nz == nonzero else trace_flat(_fill_zeros(closed, nz, nonzero, ct_avals), in_avals, "cond")
            for closed, nz in transposed
        ]
        jaxprs, consts = join_consts(widened)
        assert all(type(c) is ArrayImpl for c in consts), "internal error: a transposed branch closed over a tracer"
        return Cond(tuple(jaxprs)), consts, nonzero

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        index, ops = args[0], args[1:]
        regions: list[str] = []
        for branch in self.branches:
            with ctx.region(()) as (_, text):
                ctx.ret(lower_jaxpr_inline(ctx, branch, (), ops))
            regions.append(text[0])
        return ctx.op("stablehlo.case", (index,), out_avals, regions=regions)


def _same_types(avals: Sequence[ShapedArray], others: Sequence[ShapedArray]) -> bool:
    return len(avals) == len(others) and all(a.same_type(b) for a, b in zip(avals, others))


def _clamp(index: int, n: int) -> int:
    return min(max(index, 0), n - 1)


def _residual_avals(split: JaxprSplit) -> list[ShapedArray]:
    outs = split.known.out_avals
    return list(outs[len(outs) - split.num_res :])


def _known_branch(
    split: JaxprSplit, before: Sequence[ShapedArray], after: Sequence[ShapedArray]
) -> Callable[..., list[Array]]:
    """The known part of one branch, returning zeros in the other
    branches' residual slots."""

    def known(*ops: Array) -> list[Array]:
        outs = eval_jaxpr(split.known, (), *ops)
        num_known = len(outs) - split.num_res
        return [*outs[:num_known], *(zeros(a) for a in before), *outs[num_known:], *(zeros(a) for a in after)]

    return known


def _fill_zeros(
    closed: ClosedJaxpr[Array], have: tuple[bool, ...], want: tuple[bool, ...], avals: Sequence[ShapedArray]
) -> Callable[..., list[Array]]:
    """``closed`` (returning the entries marked in ``have``) widened to
    return those marked in ``want``, with zeros for the rest."""

    def widened(*args: Array) -> list[Array]:
        outs = iter(eval_closed(closed, *args))
        return [next(outs) if h else zeros(a) for h, w, a in zip(have, want, avals, strict=True) if w]

    return widened


# === user-facing functions ===


def _index_operand(index: object, api: str) -> Array:
    what = "predicate" if api == "cond" else "index"
    x = leaf_as_array(index, f"{api} {what}")
    if x.shape != ():
        raise JaxtypedTypeError(f"{api}: the {what} must be a scalar, got {x.aval.str_short()}")
    return x


class _NoOperand:
    """The default of ``operand=``: no operand passed by keyword."""

    def __repr__(self) -> str:
        return "<no operand>"


_NO_OPERAND: Final = _NoOperand()


def _keyword_operand(operands: tuple[object, ...], operand: object, api: str) -> tuple[object, ...]:
    """The operands of ``cond``/``switch``, given positionally or as JAX's
    older ``operand=`` keyword (one operand), not both."""
    if isinstance(operand, _NoOperand):
        return operands
    if operands:
        raise JaxtypedTypeError(
            f"{api}: if the 'operand' keyword is passed, no positional operands can be passed; "
            f"got operand={operand!r} and positional operands {operands!r}"
        )
    return (operand,)


# A single operand reaches the branches as an ``Array`` even when it is a
# Python scalar: the first overload of ``switch`` and ``cond`` says so.
@overload
def switch(index: ArrayLike, branches: Sequence[Callable[[Array], R]], operand: ArrayLike, /) -> R: ...
@overload
def switch(index: ArrayLike, branches: Sequence[Callable[[Unpack[Ts]], R]], *operands: Unpack[Ts]) -> R: ...
@overload
def switch(index: ArrayLike, branches: Sequence[Callable[[Array], R]], *, operand: ArrayLike) -> R: ...
@overload
def switch(index: ArrayLike, branches: Sequence[Callable[[T], R]], *, operand: T) -> R: ...
def switch(
    index: ArrayLike, branches: Sequence[Callable[..., R]], *operands: object, operand: object = _NO_OPERAND
) -> R:
    """Apply ``branches[index]`` to ``operands`` (``index`` clamped to the
    valid range), staging every branch (JAX's ``lax.switch``).

    Every branch must return the same pytree structure and types. One
    operand may also be passed as ``operand=`` (JAX's older form).

    Example:
        >>> import jaxtyped as jt
        >>> jt.lax.switch(1, [lambda x: x + 1, lambda x: x * 10], 2.0)
        Array(20., dtype=float32, weak_type=True)
    """
    operands = _keyword_operand(operands, operand, "switch")
    if not branches:
        raise JaxtypedTypeError("switch: branches must be a non-empty sequence of callables")
    for i, b in enumerate(branches):
        if not callable(b):
            raise JaxtypedTypeError(f"switch: branches[{i}] is not callable (got {type(b).__name__})")
    x = _index_operand(index, "switch")
    if not dtypes.is_integer(x.dtype):
        raise JaxtypedTypeError(f"switch: the index must be an integer scalar, got {x.aval.str_short()}")
    if len(branches) == 1:
        return branches[0](*operands)
    i32 = convert_element_type(x, np.int32)
    clamped = lax_max(lax_min(i32, i32_scalar(len(branches) - 1)), i32_scalar(0))
    names = [f"branches[{i}]" for i in range(len(branches))]
    # Refs closed over by the branches become extra operands (issue 16).
    return cast(R, thread_branches(_apply, clamped, list(branches), names, operands, "switch"))


@overload
def cond(
    pred: ArrayLike, true_fun: Callable[[Array], R], false_fun: Callable[[Array], R], operand: ArrayLike, /
) -> R: ...
@overload
def cond(
    pred: ArrayLike, true_fun: Callable[[Unpack[Ts]], R], false_fun: Callable[[Unpack[Ts]], R], *operands: Unpack[Ts]
) -> R: ...
@overload
def cond(pred: ArrayLike, true_fun: Callable[[Array], R], false_fun: Callable[[Array], R], *, operand: ArrayLike) -> R: ...
@overload
def cond(pred: ArrayLike, true_fun: Callable[[T], R], false_fun: Callable[[T], R], *, operand: T) -> R: ...
def cond(
    pred: ArrayLike, true_fun: Callable[..., R], false_fun: Callable[..., R], *operands: object, operand: object = _NO_OPERAND
) -> R:
    """``true_fun(*operands)`` if ``pred`` else ``false_fun(*operands)``,
    staging both branches (JAX's ``lax.cond``).

    ``pred`` is a boolean or numeric scalar (non-zero is true); both
    branches must return the same pytree structure and types. One operand
    may also be passed as ``operand=`` (JAX's older form), not both ways.

    Example:
        >>> import jaxtyped as jt
        >>> jt.lax.cond(True, lambda x: x + 1, lambda x: x - 1, 2.0)
        Array(3., dtype=float32, weak_type=True)
    """
    operands = _keyword_operand(operands, operand, "cond")
    for role, fun in (("true_fun", true_fun), ("false_fun", false_fun)):
        if not callable(fun):  # runtime check of user input
            raise JaxtypedTypeError(f"cond: {role} is not callable (got {type(fun).__name__})")
    x = _index_operand(pred, "cond")
    if not (dtypes.is_bool(x.dtype) or dtypes.is_integer(x.dtype) or dtypes.is_floating(x.dtype)):
        raise JaxtypedTypeError(f"cond: the predicate must be a boolean or number scalar, got {x.aval.str_short()}")
    if not dtypes.is_bool(x.dtype):
        x = ne(x, _zero_like(x))
    index = convert_element_type(x, np.int32)
    # Refs closed over by the branches become extra operands (issue 16).
    return cast(R, thread_branches(_apply, index, [false_fun, true_fun], ["false_fun", "true_fun"], operands, "cond"))



def _zero_like(x: Array) -> ArrayImpl:
    return array_from_numpy(np.zeros((), x.dtype))


def _apply(
    index: Array, branches: list[Callable[..., R]], roles: list[str], operands: tuple[object, ...], api: str
) -> R:
    """Trace every branch on the operands' types, check that they agree,
    and bind one ``cond``."""
    leaves, names, tree = named_leaves(operands, "operands")
    arrays = [leaf_as_array(leaf, f"{api} {name}") for leaf, name in zip(leaves, names)]
    avals = [a.aval for a in arrays]
    descs = [f"{role} ({describe_function(b)})" for role, b in zip(roles, branches)]

    traced = [
        trace_user_fun(b, tree, avals, names, desc=desc, transformation=api) for b, desc in zip(branches, descs)
    ]
    # Report in the user's order: true_fun before false_fun.
    order = list(range(len(branches)))[::-1] if api == "cond" else list(range(len(branches)))
    _check_outputs_agree(traced, order, descs, api)
    # The branches keep their own weak types, as in JAX (see Cond).
    jaxprs, consts = join_consts([t.closed for t in traced])
    outs = bind(Cond(tuple(jaxprs)), index, *consts, *arrays)
    return cast(R, traced[0].out_tree.unflatten(outs))  # the branches' common output type R


def _check_outputs_agree(traced: list[TracedFun], order: list[int], descs: list[str], api: str) -> None:
    """Raise a clear error naming two branches whose output structures or
    types (weak types aside) disagree, and how."""
    first = order[0]
    ref: PyTreeDef = traced[first].out_tree
    for i in order[1:]:
        if traced[i].out_tree != ref:
            raise JaxtypedTypeError(
                f"{api}: the branches must return the same pytree structure, but {descs[first]} returns "
                f"{ref} and {descs[i]} returns {traced[i].out_tree}"
            )
    for i in order[1:]:
        for j, (a, b) in enumerate(zip(traced[first].out_avals, traced[i].out_avals, strict=True)):
            if not same_up_to_weak_type(a, b):
                raise JaxtypedTypeError(
                    f"{api}: the branches must return the same types, but {traced[first].out_names[j]} has type "
                    f"{a.str_short()} in {descs[first]} and {b.str_short()} in {descs[i]} ({type_difference(a, b)})"
                )




def platform_dependent(*args: object, default: Callable[..., R] | None = None, **per_platform: Callable[..., R]) -> R:
    """``per_platform[p](*args)`` for the platform ``p`` the computation
    runs on, or ``default(*args)`` for a platform not named (JAX's
    ``lax.platform_dependent``). jaxtyped runs on the CPU: the ``cpu``
    branch (else ``default``) is the one traced; JAX traces every branch
    into a ``cond`` on the platform and picks one when lowering.

    Raises:
        JaxtypedNotImplementedError: no ``cpu`` branch and no ``default``
            (JAX raises when lowering).
        JaxtypedTypeError: a branch is not callable.
    """
    for name, branch in (*per_platform.items(), ("default", default)):
        if branch is not None and not callable(branch):
            raise JaxtypedTypeError(f"lax.platform_dependent: the {name!r} branch must be callable, got {type(branch).__name__}")
    chosen = {name.lower(): branch for name, branch in per_platform.items()}.get("cpu", default)
    if chosen is None:
        raise JaxtypedNotImplementedError(
            f"lax.platform_dependent: no branch for platform 'cpu' (given {sorted(per_platform)}) and no default"
        )
    return chosen(*args)
