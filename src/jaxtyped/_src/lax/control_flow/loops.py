"""``while_loop``: the ``while`` primitive (layer L4).

``While(cond_jaxpr, body_jaxpr, cond_nconsts, body_nconsts)`` is applied to
the cond consts, the body consts and the initial carry; it applies the body
to the carry while the cond returns true. Its rules (see Note [control flow
is higher-order primitives] in ``common``):

- jvp: the tangents of the carry are carried along; which of them are
  non-zero is found by iterating to a fixed point;
- batching: carries that become batched are found by a fixed point; a
  batched predicate keeps the loop running while any lane's predicate
  holds, and lanes that are done keep their carry (``select_n``);
- partial evaluation: the known carries run in a loop of their own now,
  the unknown ones in the whole loop later (a loop saves no per-iteration
  residuals), so ``linearize`` works and reverse mode stops at transpose;
- transpose: raises JAX's error (the trip count is not known statically);
- lowering: ``stablehlo.while``.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar, cast, final, overload

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, host_buffer
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, Zero
from jaxtyped._src.core.effects import Effects, reindex_ref_effects
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.jaxpr import Eqn, Jaxpr, Var, eval_jaxpr
from jaxtyped._src.core.primitive import LinearArg, PartialEvalSplit, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.interpreters.partial_eval import dce_jaxpr, partial_eval_jaxpr
from jaxtyped._src.lax.comparison import gt
from jaxtyped._src.lax.util import leaf_as_array, named_leaves
from jaxtyped._src.state.threading import thread_while
from jaxtyped._src.lax.control_flow.common import (
    i32_scalar,
    with_leading_axis,
    drop_invars,
    eval_closed,
    evaluate_compiled,
    insert_invars,
    join_consts,
    promoted_carry,
    reorder_jaxpr,
    trace_flat,
    trace_user_fun,
    type_difference,
    use_python_loops,
)
from jaxtyped._src.lax.elementwise_base import convert_element_type, convert_to
from jaxtyped._src.lax.reductions import reduce_max
from jaxtyped._src.lax.structural import bdim_to_front, broadcast_in_dim, instantiate, select_n
from jaxtyped._src.lowering import lower_jaxpr_inline
from jaxtyped._src.pjit import (
    JitCall,
    batch_jaxpr,
    cached_value,
    check_operand_types,
    consts_as_invars,
    evaluate_eagerly,
    hashable_or_id,
    jvp_jaxpr,
)
from jaxtyped._src.tree_util import treedef_tuple
from jaxtyped._src.util import AnyOnly, describe_function

__all__ = ["While", "while_loop", "WHILE_TRANSPOSE_ERROR", "fixed_point", "promote_carry", "convert_carry"]

C = TypeVar("C")
T = TypeVar("T")

WHILE_TRANSPOSE_ERROR = (
    "Reverse-mode differentiation does not work for lax.while_loop or lax.fori_loop with dynamic "
    "start/stop values. Try using lax.scan, or using fori_loop with static start/stop."
)


@final
@dataclass(frozen=True, slots=True)
class While(Primitive):
    """Apply the body while the cond holds (JAX's ``while`` primitive).

    Attributes:
        cond_jaxpr: (cond consts, carry) -> ``bool[]``.
        body_jaxpr: (body consts, carry) -> carry.
        cond_nconsts, body_nconsts: how many leading operands are consts
            of the cond and of the body.
    """

    name: ClassVar[str] = "while"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False  # hashing jaxprs costs O(size)
    cond_jaxpr: Jaxpr
    body_jaxpr: Jaxpr
    cond_nconsts: int
    body_nconsts: int

    def split_operands(self, args: Sequence[T]) -> tuple[list[T], list[T], list[T]]:
        """(cond consts, body consts, carry)."""
        nc, nb = self.cond_nconsts, self.body_nconsts
        return list(args[:nc]), list(args[nc : nc + nb]), list(args[nc + nb :])

    @override
    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        # Operands are (cond consts, body consts, carry): the cond's inputs
        # are not the last operands, so map each jaxpr's inputs explicitly.
        # (Lambdas, not nested defs: the debug mode's beartype import hook
        # decorates a nested def anew on every call.)
        nc, nb = self.cond_nconsts, self.body_nconsts
        cond = reindex_ref_effects(self.cond_jaxpr.effects, lambda k: k if k < nc else nb + k)
        return cond | reindex_ref_effects(self.body_jaxpr.effects, lambda k: nc + k)

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        expected = self.cond_jaxpr.in_avals[: self.cond_nconsts] + self.body_jaxpr.in_avals
        check_operand_types("while", avals, expected, "the loop takes")
        return self.body_jaxpr.out_avals

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        if not use_python_loops():
            return evaluate_compiled(self, args, out_avals)
        cconsts, bconsts, carry = self.split_operands(args)

        def run() -> list[Array]:
            state: list[Array] = list(carry)
            while bool(host_buffer(_concrete(eval_jaxpr(self.cond_jaxpr, (), *cconsts, *state)[0]))):
                state = list(eval_jaxpr(self.body_jaxpr, (), *bconsts, *state))
            return state

        return evaluate_eagerly(run)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        cconsts, bconsts, carry = self.split_operands(primals)
        _, bconst_t, carry_t = self.split_operands(tangents)
        bconst_nz = tuple(not isinstance(t, Zero) for t in bconst_t)
        init_nz = tuple(not isinstance(t, Zero) for t in carry_t)
        prim, consts, carry_nz = cached_value(
            ("while_jvp", self, bconst_nz, init_nz), lambda: self._jvp_loop(bconst_nz, init_nz)
        )
        nz_bconst_t = [t for t in bconst_t if not isinstance(t, Zero)]
        nz_carry_t = [instantiate(t) for t, nz in zip(carry_t, carry_nz) if nz]
        outs = bind(prim, *cconsts, *consts, *bconsts, *nz_bconst_t, *carry, *nz_carry_t)
        n = len(carry)
        out_t = iter(outs[n:])
        out_tangents: list[Tangent] = [
            next(out_t) if nz else Zero(a.to_tangent_aval())
            for nz, a in zip(carry_nz, self.body_jaxpr.out_avals, strict=True)
        ]
        return outs[:n], tuple(out_tangents)

    def _jvp_loop(
        self, bconst_nz: tuple[bool, ...], init_nz: tuple[bool, ...]
    ) -> tuple["While", tuple[Array, ...], tuple[bool, ...]]:
        """The loop carrying tangents, its consts, and which carry tangents
        are non-zero (those of the initial carry, spread by the body)."""
        carry_nz = fixed_point(lambda nz: jvp_jaxpr(self.body_jaxpr, bconst_nz + nz)[1], init_nz)
        closed, _ = jvp_jaxpr(self.body_jaxpr, bconst_nz + carry_nz, instantiate=carry_nz)
        body = closed.jaxpr
        nb, nc = self.body_nconsts, len(carry_nz)
        nbt, nct = sum(bconst_nz), sum(carry_nz)
        # jvp layout: (bconsts, carry, bconst tangents, carry tangents);
        # the loop wants (consts..., carry, carry tangents).
        k = len(closed.consts)
        order = [*range(k), *range(k, k + nb), *range(k + nb + nc, k + nb + nc + nbt)]
        order += [*range(k + nb, k + nb + nc), *range(k + nb + nc + nbt, k + nb + nc + nbt + nct)]
        body = reorder_jaxpr(consts_as_invars(body), order)
        tangent_avals = [a.to_tangent_aval() for a, nz in zip(self.body_jaxpr.out_avals, carry_nz) if nz]
        cond = insert_invars(self.cond_jaxpr, len(self.cond_jaxpr.invars), tangent_avals)
        return While(cond, body, self.cond_nconsts, k + nb + nbt), closed.consts, carry_nz

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        cconsts, bconsts, carry = self.split_operands(args)
        cdims, bdims, carry_dims = (tuple(g) for g in self.split_operands(dims))
        cavals = tuple(a.aval for a in cconsts)
        bavals = tuple(a.aval for a in bconsts)
        init_batched = tuple(d is not None for d in carry_dims)
        key = ("while_batch", self, cavals, bavals, cdims, bdims, init_batched, axis.size, hashable_or_id(axis.name))
        prim, cond_consts, body_consts, batched, pred_batched = cached_value(
            key, lambda: self._batch_loop(axis, cavals, bavals, cdims, bdims, init_batched)
        )
        carry_in = [bdim_to_front(c, d, axis.size) if b else c for c, d, b in zip(carry, carry_dims, batched)]
        # A masked loop's body also evaluates the predicate: it takes the cond consts too.
        body_operands = [*cconsts, *bconsts] if pred_batched else bconsts
        outs = bind(prim, *cond_consts, *cconsts, *body_consts, *body_operands, *carry_in)
        return outs, tuple(0 if b else None for b in batched)

    def _batch_loop(
        self,
        axis: BatchAxis,
        cavals: tuple[ShapedArray, ...],
        bavals: tuple[ShapedArray, ...],
        cdims: tuple[BatchDim, ...],
        bdims: tuple[BatchDim, ...],
        init_batched: tuple[bool, ...],
    ) -> tuple["While", tuple[Array, ...], tuple[Array, ...], tuple[bool, ...], bool]:
        """The batched loop, the consts of its cond and body, which carries
        are batched (at 0), and whether the predicate is."""
        carry_avals = self.body_jaxpr.out_avals

        def batched_avals(flags: tuple[bool, ...]) -> tuple[ShapedArray, ...]:
            return tuple(with_leading_axis(a, axis.size) if f else a for a, f in zip(carry_avals, flags))

        def carry_dims_of(flags: tuple[bool, ...]) -> tuple[BatchDim, ...]:
            return tuple(0 if f else None for f in flags)

        def step(flags: tuple[bool, ...]) -> tuple[bool, ...]:
            _, out = batch_jaxpr(self.body_jaxpr, axis, bavals + batched_avals(flags), bdims + carry_dims_of(flags))
            return tuple(d is not None for d in out)

        batched = fixed_point(step, init_batched)
        _, pred_dims = batch_jaxpr(self.cond_jaxpr, axis, cavals + batched_avals(batched), cdims + carry_dims_of(batched))
        pred_batched = pred_dims[0] is not None
        if pred_batched:
            batched = (True,) * len(carry_avals)
        cond_in = cavals + batched_avals(batched)
        body_in = bavals + batched_avals(batched)
        cond_closed, _ = batch_jaxpr(self.cond_jaxpr, axis, cond_in, cdims + carry_dims_of(batched), (pred_batched,))
        body_closed, _ = batch_jaxpr(self.body_jaxpr, axis, body_in, bdims + carry_dims_of(batched), batched)
        n_cc, n_bc = len(cavals), len(bavals)
        if not pred_batched:
            (cond_jaxpr,), cond_consts = join_consts([cond_closed])
            (body_jaxpr,), body_consts = join_consts([body_closed])
            prim = While(cond_jaxpr, body_jaxpr, len(cond_consts) + n_cc, len(body_consts) + n_bc)
            return prim, cond_consts, body_consts, batched, False
        # Lanes finish at different times: loop while any lane's predicate
        # holds, and let finished lanes keep their carry.

        def any_lane(*args: Array) -> list[Array]:
            (pred,) = eval_closed(cond_closed, *args)
            return [_any(pred)]

        def masked_body(*args: Array) -> list[Array]:
            cc, bc, state = args[:n_cc], args[n_cc : n_cc + n_bc], args[n_cc + n_bc :]
            (pred,) = eval_closed(cond_closed, *cc, *state)
            new = eval_closed(body_closed, *bc, *state)
            return [select_n(broadcast_in_dim(pred, s.shape, (0,)), s, n) for s, n in zip(state, new, strict=True)]

        cond_traced = trace_flat(any_lane, cond_in, "while_loop")
        body_traced = trace_flat(masked_body, cavals + body_in, "while_loop")
        (masked_cond,), cond_consts = join_consts([cond_traced])
        (masked,), body_consts = join_consts([body_traced])
        prim = While(masked_cond, masked, len(cond_consts) + n_cc, len(body_consts) + n_cc + n_bc)
        return prim, cond_consts, body_consts, batched, True

    @override
    def partial_eval_split(self, unknowns: tuple[bool, ...]) -> PartialEvalSplit | None:
        return cached_value(("while_partial_eval", self, unknowns), lambda: self._split(unknowns))

    def _split(self, unknowns: tuple[bool, ...]) -> PartialEvalSplit | None:
        cc_uk, bc_uk, carry_uk = self.split_operands(unknowns)
        carry_uk_t = fixed_point(
            lambda uk: partial_eval_jaxpr(self.body_jaxpr, tuple(bc_uk) + uk).out_unknowns, tuple(carry_uk)
        )
        _, cond_uses = dce_jaxpr(self.cond_jaxpr, (True,))
        cond_unknown = any(cc_uk) or any(u and used for u, used in zip(carry_uk_t, cond_uses[self.cond_nconsts :]))
        if cond_unknown or all(carry_uk_t):
            return None  # nothing of the loop can run now
        known_carry = tuple(not u for u in carry_uk_t)
        body, _ = dce_jaxpr(self.body_jaxpr, known_carry)
        body = drop_invars(body, (*(not u for u in bc_uk), *known_carry))
        cond = drop_invars(self.cond_jaxpr, (*(True,) * self.cond_nconsts, *known_carry))
        known = While(cond, body, self.cond_nconsts, sum(not u for u in bc_uk))
        # The unknown side reruns the whole loop on the known operands
        # (forwarded) and the unknown ones, and keeps the unknown carries.
        operands = self.split_operands(tuple(range(len(unknowns))))
        n_known = sum(not u for u in unknowns)
        known_pos = {i: k for k, i in enumerate(i for i, u in enumerate(unknowns) if not u)}
        unknown_pos = {i: n_known + k for k, i in enumerate(i for i, u in enumerate(unknowns) if u)}
        order = tuple(known_pos[i] if i in known_pos else unknown_pos[i] for group in operands for i in group)
        unknown = JitCall(self._whole_loop_keeping(carry_uk_t), "while_loop", (False,) * len(unknowns))
        # A known initial carry the loop makes unknown only goes to the
        # unknown side.
        loop_uk = (*cc_uk, *bc_uk, *carry_uk_t)
        known_inputs = tuple(known_pos[i] for i, u in enumerate(loop_uk) if not u)
        return PartialEvalSplit(
            known,
            unknown,
            carry_uk_t,
            0,
            forwarded=tuple(range(n_known)),
            unknown_order=order,
            known_inputs=known_inputs,
        )

    def _whole_loop_keeping(self, keep: tuple[bool, ...]) -> Jaxpr:
        """A jaxpr applying this loop and returning the carries in ``keep``."""
        invars = tuple(Var(i, a) for i, a in enumerate(self.cond_jaxpr.in_avals[: self.cond_nconsts] + self.body_jaxpr.in_avals))
        outvars = tuple(Var(len(invars) + i, a) for i, a in enumerate(self.body_jaxpr.out_avals))
        return Jaxpr((), invars, tuple(v for v, k in zip(outvars, keep) if k), (Eqn(self, invars, outvars),))

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        raise JaxtypedValueError(WHILE_TRANSPOSE_ERROR)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        # The consts travel with the carry (XLA keeps loop-invariant values
        # in the loop state; it hoists what does not change).
        nc, nb = self.cond_nconsts, self.body_nconsts
        avals = tuple(a.aval for a in args)
        with ctx.region(avals) as (block, cond_text):
            (pred,) = lower_jaxpr_inline(ctx, self.cond_jaxpr, (), [*block[:nc], *block[nc + nb :]])
            ctx.ret([pred])
        with ctx.region(avals) as (block, body_text):
            new = lower_jaxpr_inline(ctx, self.body_jaxpr, (), block[nc:])
            ctx.ret([*block[: nc + nb], *new])
        outs = ctx.op("stablehlo.while", args, avals, regions=[cond_text[0], body_text[0]])
        return outs[nc + nb :]



def _concrete(x: Array) -> ArrayImpl:
    assert type(x) is ArrayImpl
    return x


def _any(pred: Array) -> Array:
    as_int = convert_element_type(pred, np.int32)
    return gt(reduce_max(as_int, tuple(range(pred.ndim))), i32_scalar(0))


def fixed_point(step: Callable[[tuple[bool, ...]], tuple[bool, ...]], start: tuple[bool, ...]) -> tuple[bool, ...]:
    """The least flags at or above ``start`` that ``step`` (which says
    which carries come out marked) keeps: marks only spread along a loop."""
    flags = start
    while True:
        out = step(flags)
        new = tuple(a or b for a, b in zip(flags, out, strict=True))
        if new == flags:
            return flags
        flags = new


# === user-facing function ===


def carry_type_error(api: str, desc: str, name: str, a: ShapedArray, b: ShapedArray) -> JaxtypedTypeError:
    return JaxtypedTypeError(
        f"{api}: {desc} must return a carry of the same types as its carry input, but {name} has type "
        f"{a.str_short()} on input and {b.str_short()} on output ({type_difference(a, b)})"
    )


def promote_carry(
    in_avals: list[ShapedArray], out_avals: Sequence[ShapedArray], names: list[str], api: str, desc: str
) -> list[ShapedArray] | None:
    """None when the body's carry output matches its input; otherwise the
    promoted input types (weakly typed initial values adopt the body's
    type), or the error naming the carry leaf whose type changes."""
    changed = False
    result: list[ShapedArray] = []
    for a, b, name in zip(in_avals, out_avals, names, strict=True):
        promoted = None if a == b else promoted_carry(a, b)
        if promoted is not None:
            result.append(promoted)
            changed = True
        elif a.shape == b.shape and a.dtype == b.dtype:
            result.append(a)  # as in JAX, the loop's result has the body's weak type
        else:
            raise carry_type_error(api, desc, name, a, b)
    return result if changed else None


def convert_carry(x: Array, aval: ShapedArray) -> Array:
    if x.aval.dtype == aval.dtype and x.aval.weak_type == aval.weak_type:
        return x
    return convert_to(x, aval.dtype, weak_type=aval.weak_type)




# A single-leaf carry reaches the functions as an ``Array`` whatever the
# initial value (``0.0``, ``np.float32(1)``, an array), and the loop returns
# an ``Array``: the first overload says so, so that ``init_val=0.0`` with a
# body typed ``(Array) -> Array`` (or a lambda) checks. Pytree carries keep
# their type ``C``, leaves included (see typing/pending/NOTES.md, section CF),
# except tuples of two or three leaves (``(0, x)``, ``(x, 0.0, 0)``): each
# leaf is an ``Array`` too, so they have an overload of their own (CF1).
@overload
def while_loop(  # an Any carry: Any back (Note [Any in, Any out] in api_tree)
    cond_fun: Callable[[AnyOnly], ArrayLike], body_fun: Callable[[AnyOnly], object], init_val: AnyOnly
) -> AnyOnly: ...
@overload
def while_loop(  # a pair or triple of Any: Any back, not the Array guess below
    cond_fun: Callable[[tuple[AnyOnly, AnyOnly]], ArrayLike],
    body_fun: Callable[[tuple[AnyOnly, AnyOnly]], tuple[AnyOnly, AnyOnly]],
    init_val: tuple[AnyOnly, AnyOnly],
) -> tuple[AnyOnly, AnyOnly]: ...
@overload
def while_loop(
    cond_fun: Callable[[tuple[AnyOnly, AnyOnly, AnyOnly]], ArrayLike],
    body_fun: Callable[[tuple[AnyOnly, AnyOnly, AnyOnly]], tuple[AnyOnly, AnyOnly, AnyOnly]],
    init_val: tuple[AnyOnly, AnyOnly, AnyOnly],
) -> tuple[AnyOnly, AnyOnly, AnyOnly]: ...
@overload
def while_loop(
    cond_fun: Callable[[Array], ArrayLike], body_fun: Callable[[Array], ArrayLike], init_val: ArrayLike
) -> Array: ...
@overload
def while_loop(
    cond_fun: Callable[[tuple[Array, Array]], ArrayLike],
    body_fun: Callable[[tuple[Array, Array]], tuple[ArrayLike, ArrayLike]],
    init_val: tuple[ArrayLike, ArrayLike],
) -> tuple[Array, Array]: ...
@overload
def while_loop(
    cond_fun: Callable[[tuple[Array, Array, Array]], ArrayLike],
    body_fun: Callable[[tuple[Array, Array, Array]], tuple[ArrayLike, ArrayLike, ArrayLike]],
    init_val: tuple[ArrayLike, ArrayLike, ArrayLike],
) -> tuple[Array, Array, Array]: ...
@overload
def while_loop(cond_fun: Callable[[C], ArrayLike], body_fun: Callable[[C], C], init_val: C) -> C: ...
def while_loop(cond_fun: Callable[[C], ArrayLike], body_fun: Callable[[C], object], init_val: object) -> C:
    """Apply ``body_fun`` to the carry while ``cond_fun(carry)`` is true
    (JAX's ``lax.while_loop``); the loop is staged once, so the carry keeps
    its pytree structure and types. Not reverse-differentiable (the number
    of iterations is not known before running); use ``scan`` or
    ``fori_loop`` with Python bounds for that.

    Example:
        >>> import jaxtyped as jt
        >>> jt.lax.while_loop(lambda c: c < 10, lambda c: c * 2, 1)
        Array(16, dtype=int32, weak_type=True)
    """
    # Refs closed over by the functions become extra carry (issue 16).
    return cast(C, thread_while(_while_loop_impl, cond_fun, body_fun, init_val))


def _while_loop_impl(cond_fun: Callable[[C], ArrayLike], body_fun: Callable[[C], object], init_val: object) -> C:
    for role, fun in (("cond_fun", cond_fun), ("body_fun", body_fun)):
        if not callable(fun):  # runtime check of user input
            raise JaxtypedTypeError(f"while_loop: {role} is not callable (got {type(fun).__name__})")
    leaves, names, carry_tree = named_leaves(init_val, "carry")
    carry = [leaf_as_array(v, f"while_loop {n}") for v, n in zip(leaves, names)]
    args_tree = treedef_tuple([carry_tree])
    body_desc = f"body_fun ({describe_function(body_fun)})"
    cond_desc = f"cond_fun ({describe_function(cond_fun)})"
    avals = [c.aval for c in carry]
    while True:
        body = trace_user_fun(body_fun, args_tree, avals, names, desc=body_desc, transformation="while_loop")
        if body.out_tree != carry_tree:
            raise JaxtypedTypeError(
                f"while_loop: {body_desc} must return a carry with the same pytree structure as its input, "
                f"got {body.out_tree} for input {carry_tree}"
            )
        promoted = promote_carry(avals, body.out_avals, names, "while_loop", body_desc)
        if promoted is None:
            break
        avals = promoted
    carry = [convert_carry(c, a) for c, a in zip(carry, avals)]
    cond = trace_user_fun(cond_fun, args_tree, avals, names, desc=cond_desc, transformation="while_loop")
    outs = cond.out_avals
    if len(outs) != 1 or outs[0].shape != () or not dtypes.is_bool(outs[0].dtype):
        got = ", ".join(a.str_short() for a in outs) or "nothing"
        raise JaxtypedTypeError(f"while_loop: {cond_desc} must return a boolean scalar, got {got}")
    prim = While(
        consts_as_invars(cond.closed.jaxpr), consts_as_invars(body.closed.jaxpr), len(cond.closed.consts), len(body.closed.consts)
    )
    results = bind(prim, *cond.closed.consts, *body.closed.consts, *carry)
    return cast(C, carry_tree.unflatten(results))  # the carry keeps C's structure
