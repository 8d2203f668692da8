"""``scan``, ``map`` and ``fori_loop``: the ``scan`` primitive (layer L4).

``Scan(jaxpr, length, num_carry, num_consts, reverse, unroll)`` is applied
to consts, the initial carry and the stacked inputs ``xs``; ``jaxpr`` maps
(consts, carry, one slice of each ``x``) to (new carry, one slice of each
``y``), and the outputs are the final carry and the stacked ``ys``. Its
rules (see Note [control flow is higher-order primitives] in ``common``):

- jvp: tangents of consts, carry and ``xs`` ride along in the same loop;
  which carry tangents are non-zero is found by a fixed point;
- batching: consts keep their batch axis, carries that become batched
  (a fixed point) have it first, ``xs`` and ``ys`` have it second;
- partial evaluation: the known loop runs now and stacks the residuals
  each iteration produces as extra ``ys``; known consts and ``xs`` the
  unknown loop needs are forwarded as they are (not copied per step), and
  residuals computed from known consts alone (loop invariants, a ``W.T``)
  are computed once before the loop and handed to both loops as consts;
- transpose: a scan in the opposite direction whose carry accumulates the
  cotangents of the linear consts and of the carry;
- lowering: a ``while`` over the iteration counter that slices ``xs`` and
  writes ``ys`` in place, with ``unroll`` steps per trip (calls of the body
  emitted once as a private function).
"""

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar, cast, final, overload

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.ad import backward_pass
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, array_from_numpy
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import Atom, Eqn, Jaxpr, Literal, Var, eval_jaxpr
from jaxtyped._src.core.primitive import LinearArg, PartialEvalSplit, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.interpreters.batching import BatchInterpreter
from jaxtyped._src.interpreters.partial_eval import PrologueSplit, dce_jaxpr, partial_eval_jaxpr
from jaxtyped._src.lax.arithmetic import add, add_tangents, sub
from jaxtyped._src.lax.comparison import lt
from jaxtyped._src.lax.util import leaf_as_array, named_leaves
from jaxtyped._src.lowering import ClosedCall
from jaxtyped._src.state.threading import thread_scan
from jaxtyped._src.lax.control_flow.common import (
    i32_scalar,
    with_leading_axis,
    evaluate_compiled,
    join_consts,
    reorder_jaxpr,
    segment_order,
    trace_flat,
    trace_user_fun,
    use_python_loops,
)
from jaxtyped._src.lax.control_flow.loops import While, convert_carry, fixed_point, promote_carry, while_loop
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.slicing import dynamic_slice, dynamic_update_slice, slice_in_dim
from jaxtyped._src.lax.structural import bdim_to_front, concatenate, expand_dims, instantiate, moveaxis, reshape, zeros
from jaxtyped._src.pjit import (
    batch_jaxpr,
    cached_value,
    check_operand_types,
    consts_as_invars,
    evaluate_eagerly,
    hashable_or_id,
    jvp_jaxpr,
)
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, treedef_children, treedef_tuple
from jaxtyped._src.util import AnyOnly, describe_function

__all__ = ["Scan", "scan", "map", "fori_loop"]

T = TypeVar("T")
C = TypeVar("C")
X = TypeVar("X")
Y = TypeVar("Y")


@final
@dataclass(frozen=True, slots=True)
class Scan(Primitive):
    """Loop over the leading axis of ``xs`` carrying a state (JAX's
    ``scan`` primitive).

    Attributes:
        jaxpr: (consts, carry, x slices) -> (carry, y slices), const-free.
        length: the number of iterations.
        num_carry, num_consts: how many operands are carry and consts.
        reverse: iterate from the last slice to the first.
        unroll: how many iterations one trip of the compiled loop does.
    """

    name: ClassVar[str] = "scan"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False  # hashing a jaxpr costs O(size)
    jaxpr: Jaxpr
    length: int
    num_carry: int
    num_consts: int
    reverse: bool
    unroll: int

    def split_operands(self, args: Sequence[T]) -> tuple[list[T], list[T], list[T]]:
        """(consts, carry, xs)."""
        nc, nk = self.num_consts, self.num_carry
        return list(args[:nc]), list(args[nc : nc + nk]), list(args[nc + nk :])

    @property
    def num_xs(self) -> int:
        """How many stacked inputs the loop slices."""
        return len(self.jaxpr.invars) - self.num_consts - self.num_carry

    @property
    def num_ys(self) -> int:
        """How many stacked outputs the loop writes."""
        return len(self.jaxpr.outvars) - self.num_carry

    def _stacked(self, aval: ShapedArray) -> ShapedArray:
        return with_leading_axis(aval, self.length)

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        consts_in, carry_in, xs_in = self.split_operands(self.jaxpr.in_avals)
        expected = (*consts_in, *carry_in, *(self._stacked(a) for a in xs_in))
        check_operand_types("scan", avals, expected, "the loop takes")
        outs = self.jaxpr.out_avals
        return (*outs[: self.num_carry], *(self._stacked(a) for a in outs[self.num_carry :]))

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        if not use_python_loops():
            return evaluate_compiled(self, args, out_avals)
        return evaluate_eagerly(lambda: _loop(self, args))

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return ctx.lower_fun(lambda *a: _loop(self, a, outline=True), args)

    # --- dead-code elimination (lowering) ---

    @override
    def dce(self, used_outputs: tuple[bool, ...]) -> tuple["Scan", tuple[bool, ...], tuple[bool, ...]] | None:
        """Unused ``ys`` are not computed, nor carries nothing used depends
        on (a fixed point: a carry the body reads for a used value stays)."""
        if self.jaxpr.effects:
            return None
        nc, nk = self.num_consts, self.num_carry
        used_carry, used_ys = used_outputs[:nk], used_outputs[nk:]
        while True:
            body, used_in = dce_jaxpr(self.jaxpr, used_carry + used_ys, into_loops=True)
            grown = tuple(u or r for u, r in zip(used_carry, used_in[nc : nc + nk], strict=True))
            if grown == used_carry:
                break
            used_carry = grown
        # A kept carry is an input and an output, read or not.
        keep_in = used_in[:nc] + used_carry + used_in[nc + nk :]
        unchanged = len(body.eqns) == len(self.jaxpr.eqns) and all(a is b for a, b in zip(body.eqns, self.jaxpr.eqns))
        if all(keep_in) and all(used_carry) and all(used_ys) and unchanged:
            return None
        invars = tuple(v for v, k in zip(body.invars, keep_in, strict=True) if k)
        prim = Scan(Jaxpr((), invars, body.outvars, body.eqns), self.length, sum(used_carry), sum(used_in[:nc]), self.reverse, self.unroll)
        return prim, keep_in, used_carry + used_ys

    # --- jvp ---

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        consts, carry, xs = self.split_operands(primals)
        consts_t, carry_t, xs_t = self.split_operands(tangents)
        consts_nz = tuple(not isinstance(t, Zero) for t in consts_t)
        xs_nz = tuple(not isinstance(t, Zero) for t in xs_t)
        nk = self.num_carry
        init_nz = tuple(not isinstance(t, Zero) for t in carry_t)
        prim, extra, carry_nz, ys_nz = cached_value(
            ("scan_jvp", self, consts_nz, init_nz, xs_nz), lambda: self._jvp_scan(consts_nz, init_nz, xs_nz)
        )
        outs = bind(
            prim,
            *extra,
            *consts,
            *(t for t in consts_t if not isinstance(t, Zero)),
            *carry,
            *(instantiate(t) for t, nz in zip(carry_t, carry_nz) if nz),
            *xs,
            *(t for t in xs_t if not isinstance(t, Zero)),
        )
        n_ct = sum(carry_nz)
        carry_out, carry_t_out = outs[:nk], iter(outs[nk : nk + n_ct])
        ys_out, ys_t_out = outs[nk + n_ct : nk + n_ct + self.num_ys], iter(outs[nk + n_ct + self.num_ys :])
        out_avals = self.abstract_eval(tuple(p.aval for p in primals))
        tangents_out: list[Tangent] = [
            next(carry_t_out) if nz else Zero(a.to_tangent_aval()) for nz, a in zip(carry_nz, out_avals[:nk])
        ]
        tangents_out += [next(ys_t_out) if nz else Zero(a.to_tangent_aval()) for nz, a in zip(ys_nz, out_avals[nk:])]
        return (*carry_out, *ys_out), tuple(tangents_out)

    def _jvp_scan(
        self, consts_nz: tuple[bool, ...], init_nz: tuple[bool, ...], xs_nz: tuple[bool, ...]
    ) -> tuple["Scan", tuple[Array, ...], tuple[bool, ...], tuple[bool, ...]]:
        """The loop carrying tangents, its extra consts, and which carry and
        ``ys`` tangents are non-zero (the carry's found by a fixed point)."""
        nk, ny = self.num_carry, self.num_ys

        def step(nz: tuple[bool, ...]) -> tuple[bool, ...]:
            return jvp_jaxpr(self.jaxpr, consts_nz + nz + xs_nz)[1][:nk]

        carry_nz = fixed_point(step, init_nz)
        closed, out_nz = jvp_jaxpr(self.jaxpr, consts_nz + carry_nz + xs_nz, instantiate=carry_nz + (False,) * ny)
        ys_nz = out_nz[nk:]
        k = len(closed.consts)
        # jvp layout: (k, consts, carry, xs, consts_t, carry_t, xs_t) ->
        # (carry, ys, carry_t, ys_t); the loop wants consts, carry, xs groups.
        in_sizes = [k, self.num_consts, nk, self.num_xs, sum(consts_nz), sum(carry_nz), sum(xs_nz)]
        out_sizes = [nk, ny, sum(carry_nz), sum(ys_nz)]
        jaxpr = reorder_jaxpr(
            consts_as_invars(closed.jaxpr), segment_order(in_sizes, [0, 1, 4, 2, 5, 3, 6]), segment_order(out_sizes, [0, 2, 1, 3])
        )
        prim = Scan(jaxpr, self.length, nk + sum(carry_nz), k + self.num_consts + sum(consts_nz), self.reverse, self.unroll)
        return prim, closed.consts, carry_nz, ys_nz

    # --- batching ---

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        consts, carry, xs = self.split_operands(args)
        consts_dims, carry_dims, xs_dims = self.split_operands(dims)
        # The batch axis of xs goes second, so that each slice has it first.
        xs = [moveaxis(x, d, 1) if d is not None else x for x, d in zip(xs, xs_dims)]
        x_avals = tuple(_unstacked(x.aval) for x in xs)
        x_dims = tuple(None if d is None else 0 for d in xs_dims)
        const_avals = tuple(c.aval for c in consts)
        init_batched = tuple(d is not None for d in carry_dims)
        key = ("scan_batch", self, const_avals, x_avals, tuple(consts_dims), x_dims, init_batched, axis.size, hashable_or_id(axis.name))
        prim, extra, batched, ys_batched = cached_value(
            key, lambda: self._batch_scan(axis, const_avals, x_avals, tuple(consts_dims), x_dims, init_batched)
        )
        carry = [bdim_to_front(c, d, axis.size) if b else c for c, d, b in zip(carry, carry_dims, batched)]
        outs = bind(prim, *extra, *consts, *carry, *xs)
        out_dims = tuple(0 if b else None for b in batched) + tuple(1 if b else None for b in ys_batched)
        return outs, out_dims

    def _batch_scan(
        self,
        axis: BatchAxis,
        const_avals: tuple[ShapedArray, ...],
        x_avals: tuple[ShapedArray, ...],
        consts_dims: tuple[BatchDim, ...],
        x_dims: tuple[BatchDim, ...],
        init_batched: tuple[bool, ...],
    ) -> tuple["Scan", tuple[Array, ...], tuple[bool, ...], tuple[bool, ...]]:
        """The batched loop, its extra consts, which carries are batched (a
        fixed point; at 0) and which ``ys`` are (at 0 in each slice)."""
        carry_avals = self.jaxpr.in_avals[self.num_consts : self.num_consts + self.num_carry]

        def in_avals(flags: tuple[bool, ...]) -> tuple[ShapedArray, ...]:
            carried = tuple(with_leading_axis(a, axis.size) if f else a for a, f in zip(carry_avals, flags))
            return const_avals + carried + x_avals

        def in_dims(flags: tuple[bool, ...]) -> tuple[BatchDim, ...]:
            return consts_dims + tuple(0 if f else None for f in flags) + x_dims

        def step(flags: tuple[bool, ...]) -> tuple[bool, ...]:
            out_dims = batch_jaxpr(self.jaxpr, axis, in_avals(flags), in_dims(flags))[1]
            return tuple(d is not None for d in out_dims[: self.num_carry])

        batched = fixed_point(step, init_batched)
        ys_batched = tuple(
            d is not None for d in batch_jaxpr(self.jaxpr, axis, in_avals(batched), in_dims(batched))[1][self.num_carry :]
        )
        closed, _ = batch_jaxpr(self.jaxpr, axis, in_avals(batched), in_dims(batched), batched + ys_batched)
        k = len(closed.consts)
        prim = Scan(consts_as_invars(closed.jaxpr), self.length, self.num_carry, k + self.num_consts, self.reverse, self.unroll)
        return prim, closed.consts, batched, ys_batched

    # --- partial evaluation ---

    @override
    def partial_eval_split(self, unknowns: tuple[bool, ...]) -> PartialEvalSplit | None:
        return cached_value(("scan_partial_eval", self, unknowns), lambda: self._split(unknowns))

    def _split(self, unknowns: tuple[bool, ...]) -> PartialEvalSplit | None:
        if all(unknowns):
            return None  # nothing runs now: stage the loop as it is
        consts_uk, carry_uk0, xs_uk = (tuple(g) for g in self.split_operands(unknowns))
        nk, ny = self.num_carry, self.num_ys

        def step(uk: tuple[bool, ...]) -> tuple[bool, ...]:
            return partial_eval_jaxpr(self.jaxpr, consts_uk + uk + xs_uk).out_unknowns[:nk]

        carry_uk = fixed_point(step, carry_uk0)
        split = partial_eval_jaxpr(self.jaxpr, consts_uk + carry_uk + xs_uk, instantiate=carry_uk + (False,) * ny)
        body_uk = consts_uk + carry_uk + xs_uk
        n_kc = sum(not u for u in consts_uk)
        n_kcarry = sum(not u for u in carry_uk)
        n_known_out = len(split.known.outvars) - split.num_res
        # Residuals computed from known consts alone (a ``W.T`` of the
        # body) are the same every iteration: computed once before the
        # loop (the prologue) and handed to both loops as consts.
        known, prologue_eqns, hoisted = _hoist_invariants(split.known, n_kc, split.known.outvars[n_known_out:])
        res_vars = known.outvars[n_known_out:]
        # Operand index of each known operand and of each known body input
        # (a known initial carry the loop makes unknown is only forwarded).
        known_operand_ids = [i for i, u in enumerate(unknowns) if not u]
        known_body_ids = [i for i, u in enumerate(body_uk) if not u]
        among_known = {op: k for k, op in enumerate(known_operand_ids)}
        position = {v: i for i, v in enumerate(known.invars)}
        # Residuals that are known consts or xs are forwarded, not stacked.
        fwd_consts: list[int] = []
        fwd_xs: list[int] = []
        stacked: list[int] = []
        hoisted_res: list[int] = []  # residual r is hoisted output hoisted.index(var)
        for r, var in enumerate(res_vars):
            p = position.get(var) if isinstance(var, Var) else None
            if var in hoisted:
                hoisted_res.append(r)
            elif p is not None and p < n_kc:
                fwd_consts.append(r)
            elif p is not None and p >= n_kc + n_kcarry:
                fwd_xs.append(r)
            else:
                stacked.append(r)
        known_body = Jaxpr(
            (), hoisted + known.invars, known.outvars[:n_known_out] + tuple(res_vars[r] for r in stacked), known.eqns
        )
        known_prim = Scan(known_body, self.length, n_kcarry, len(hoisted) + n_kc, self.reverse, self.unroll)
        forced = [j for j in range(self.num_consts, self.num_consts + nk) if body_uk[j] and not unknowns[j]]

        def operand_of(r: int) -> int:
            var = res_vars[r]
            assert isinstance(var, Var)
            return among_known[known_body_ids[position[var]]]

        forwarded = tuple(operand_of(r) for r in fwd_consts + fwd_xs) + tuple(among_known[j] for j in forced)
        # The unknown loop: consts = forwarded consts + unknown consts; carry
        # = every unknown carry; xs = stacked residuals + forwarded xs +
        # unknown xs. Its body's inputs come in the split's order: residuals,
        # then unknown consts, carry and xs.
        n_uc, n_ux = sum(consts_uk), sum(xs_uk)
        n_ucarry = sum(carry_uk)
        groups = [*hoisted_res, *fwd_consts, split.num_res, split.num_res + 1, *stacked, *fwd_xs, split.num_res + 2]
        unknown_body = reorder_jaxpr(split.unknown, segment_order([1] * split.num_res + [n_uc, n_ucarry, n_ux], groups))
        n_unknown_consts = len(hoisted_res) + len(fwd_consts) + n_uc
        unknown_prim = Scan(unknown_body, self.length, n_ucarry, n_unknown_consts, self.reverse, self.unroll)
        # Indices into the list: forwarded, stacked residuals, hoisted
        # values, unknown operands.
        counter = iter(range(len(unknowns) + split.num_res + len(forwarded) + len(hoisted)))
        i_fc = [next(counter) for _ in fwd_consts]
        i_fx = [next(counter) for _ in fwd_xs]
        i_forced = iter([next(counter) for _ in forced])
        i_stacked = [next(counter) for _ in stacked]
        i_hoisted = [next(counter) for _ in hoisted]
        i_hoisted_res = [i_hoisted[hoisted.index(cast(Var, res_vars[r]))] for r in hoisted_res]  # hoisted residuals are Vars
        i_uc = [next(counter) for _ in range(n_uc)]
        i_ucarry = iter([next(counter) for _ in range(sum(carry_uk0))])
        i_ux = [next(counter) for _ in range(n_ux)]
        i_carry = [next(i_ucarry) if unknowns[self.num_consts + j] else next(i_forced) for j in range(nk) if carry_uk[j]]
        order = (*i_hoisted_res, *i_fc, *i_uc, *i_carry, *i_stacked, *i_fx, *i_ux)
        known_inputs = tuple(among_known[op] for op in known_body_ids)
        prologue = None
        if hoisted:
            # Applied to known's operands: consts, carry and stacked xs.
            stacked_in = tuple(Var(v.count, self._stacked(v.aval)) for v in known.invars[n_kc + n_kcarry :])
            prologue = Jaxpr((), known.invars[: n_kc + n_kcarry] + stacked_in, hoisted, prologue_eqns)
        return PrologueSplit(
            known_prim,
            unknown_prim,
            split.out_unknowns,
            len(stacked),
            forwarded=forwarded,
            unknown_order=order,
            known_inputs=known_inputs,
            prologue=prologue,
        )

    # --- transpose ---

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        consts, carry, xs = self.split_operands(args)
        consts_lin = tuple(isinstance(c, UndefinedPrimal) for c in consts)
        xs_lin = tuple(isinstance(x, UndefinedPrimal) for x in xs)
        ct_carry, ct_ys = cts[: self.num_carry], cts[self.num_carry :]
        ys_nz = tuple(not isinstance(ct, Zero) for ct in ct_ys)
        prim, extra = cached_value(
            ("scan_transpose", self, consts_lin, xs_lin, ys_nz), lambda: self._transposed(consts_lin, xs_lin, ys_nz)
        )
        const_avals = self.jaxpr.in_avals[: self.num_consts]
        outs = bind(
            prim,
            *extra,
            *(c for c in consts if not isinstance(c, UndefinedPrimal)),
            *(zeros(a.to_tangent_aval()) for a, lin in zip(const_avals, consts_lin) if lin),
            *(instantiate(ct) for ct in ct_carry),
            *(x for x in xs if not isinstance(x, UndefinedPrimal)),
            *(ct for ct in ct_ys if not isinstance(ct, Zero)),
        )
        n_lc = sum(consts_lin)
        ct_consts, ct_init, ct_xs = iter(outs[:n_lc]), outs[n_lc : n_lc + self.num_carry], iter(outs[n_lc + self.num_carry :])
        results: list[Tangent | None] = [next(ct_consts) if lin else None for lin in consts_lin]
        results += [ct if isinstance(a, UndefinedPrimal) else None for a, ct in zip(carry, ct_init)]
        results += [next(ct_xs) if lin else None for lin in xs_lin]
        return tuple(results)

    def _transposed(
        self, consts_lin: tuple[bool, ...], xs_lin: tuple[bool, ...], ys_nz: tuple[bool, ...]
    ) -> tuple["Scan", tuple[Array, ...]]:
        consts_avals, carry_avals, x_avals = self.split_operands(self.jaxpr.in_avals)
        y_avals = self.jaxpr.out_avals[self.num_carry :]
        res_c = [a for a, lin in zip(consts_avals, consts_lin) if not lin]
        acc = [a.to_tangent_aval() for a, lin in zip(consts_avals, consts_lin) if lin]
        ct_carry = [a.to_tangent_aval() for a in carry_avals]
        res_x = [a for a, lin in zip(x_avals, xs_lin) if not lin]
        ct_y = [a.to_tangent_aval() for a, nz in zip(y_avals, ys_nz) if nz]
        sizes = [len(res_c), len(acc), len(ct_carry), len(res_x), len(ct_y)]

        def body(*args: Array) -> list[Array]:
            it = iter(args)
            res_c_v = [next(it) for _ in range(sizes[0])]
            acc_v = [next(it) for _ in range(sizes[1])]
            ct_carry_v = [next(it) for _ in range(sizes[2])]
            res_x_v = [next(it) for _ in range(sizes[3])]
            ct_y_v = iter([next(it) for _ in range(sizes[4])])
            res_c_it, res_x_it = iter(res_c_v), iter(res_x_v)
            primal_args: list[LinearArg] = [UndefinedPrimal(a) if lin else next(res_c_it) for a, lin in zip(consts_avals, consts_lin)]
            primal_args += [UndefinedPrimal(a) for a in carry_avals]
            primal_args += [UndefinedPrimal(a) if lin else next(res_x_it) for a, lin in zip(x_avals, xs_lin)]
            out_cts: list[Tangent] = list(ct_carry_v)
            out_cts += [next(ct_y_v) if nz else Zero(a.to_tangent_aval()) for a, nz in zip(y_avals, ys_nz)]
            results = backward_pass(self.jaxpr, (), primal_args, out_cts)
            nc, nk = self.num_consts, self.num_carry
            const_cts = [r for r, lin in zip(results[:nc], consts_lin) if lin]
            new_acc = [instantiate(add_tangents(a, _tangent(r, av))) for a, r, av in zip(acc_v, const_cts, acc)]
            carry_cts = [instantiate(_tangent(r, av)) for r, av in zip(results[nc : nc + nk], ct_carry)]
            x_cts = [instantiate(_tangent(r, a.to_tangent_aval())) for r, a, lin in zip(results[nc + nk :], x_avals, xs_lin) if lin]
            return [*new_acc, *carry_cts, *x_cts]

        closed = trace_flat(body, [*res_c, *acc, *ct_carry, *res_x, *ct_y], "transpose of scan")
        k = len(closed.consts)
        prim = Scan(
            consts_as_invars(closed.jaxpr), self.length, len(acc) + len(ct_carry), k + len(res_c), not self.reverse, self.unroll
        )
        return prim, closed.consts


def _hoist_invariants(
    known: Jaxpr, num_consts: int, residuals: Sequence[Atom]
) -> tuple[Jaxpr, tuple[Eqn, ...], tuple[Var, ...]]:
    """Split the known loop body ``known`` (its first ``num_consts`` invars
    are loop-invariant) into the equations computing its loop-invariant
    ``residuals`` (effect-free, reading only consts and each other) and the
    rest. Returns the body without them, the hoisted equations in order,
    and the hoisted values the loops read (the body gets them as extra
    leading consts)."""
    invariant: set[Var] = set(known.invars[:num_consts])
    producer: dict[Var, int] = {}
    for i, eqn in enumerate(known.eqns):
        if not eqn.effects and all(isinstance(a, Literal) or a in invariant for a in eqn.invars):
            invariant.update(eqn.outvars)
            producer.update((v, i) for v in eqn.outvars)
    wanted = [r for r in residuals if isinstance(r, Var) and r in producer]
    if not wanted:
        return known, (), ()
    moved: set[int] = set()
    stack = list(wanted)
    while stack:
        i = producer.get(stack.pop(), -1)
        if i >= 0 and i not in moved:
            moved.add(i)
            stack.extend(a for a in known.eqns[i].invars if isinstance(a, Var))
    kept = tuple(e for i, e in enumerate(known.eqns) if i not in moved)
    # Hoisted values the rest of the body reads become its consts too.
    read = {a for e in kept for a in e.invars if isinstance(a, Var)} | {a for a in known.outvars if isinstance(a, Var)}
    hoisted = tuple(dict.fromkeys(v for i in sorted(moved) for v in known.eqns[i].outvars if v in read))
    body = Jaxpr((), known.invars, known.outvars, kept)
    return body, tuple(known.eqns[i] for i in sorted(moved)), hoisted


def _tangent(ct: Tangent | None, aval: ShapedArray) -> Tangent:
    return Zero(aval) if ct is None else ct


def _unstacked(aval: ShapedArray) -> ShapedArray:
    return aval.update(shape=aval.shape[1:])  # keeps the vma (shard_map, JEP 17111)


# === the loop itself (lowering and disable_jit evaluation) ===


def _loop(prim: Scan, args: Sequence[Array], *, outline: bool = False) -> list[Array]:
    """``prim`` applied to ``args`` as a ``while`` over the iteration
    counter, ``unroll`` iterations per trip (the remainder after it).

    Each trip reads the ``unroll`` rows of every ``x`` it needs as one block
    (one dynamic slice, then static ones) and writes each ``y``'s rows as
    one block. With ``outline`` (lowering), an unrolled body is one private
    function of the module called ``unroll`` times (:class:`ClosedCall`),
    so the module grows with the body, not with ``unroll``, as JAX's does.
    """
    consts, init, xs = prim.split_operands(args)
    length, unroll = prim.length, max(1, min(prim.unroll, max(prim.length, 1)))
    y_avals = prim.jaxpr.out_avals[prim.num_carry :]
    ys0 = [zeros(with_leading_axis(a, length)) for a in y_avals]
    plan = _LoopPlan(prim, ClosedCall(prim.jaxpr) if outline and unroll > 1 else None, unroll, len(consts), len(xs))
    trips = length // unroll
    carry, ys = list(init), ys0
    if trips > 1:
        state_avals = [ShapedArray((), np.dtype(np.int32)), *(a.aval for a in init), *(y.aval for y in ys0)]
        cond_closed = trace_flat(functools.partial(_counter_below, trips * unroll), state_avals, "scan")
        body_closed = trace_flat(plan.trip, [*(c.aval for c in consts), *(x.aval for x in xs), *state_avals], "scan")
        (cond_jaxpr,), cond_consts = join_consts([cond_closed])
        (body_jaxpr,), body_consts = join_consts([body_closed])
        loop = While(cond_jaxpr, body_jaxpr, len(cond_consts), len(body_consts) + len(consts) + len(xs))
        outs = bind(loop, *cond_consts, *body_consts, *consts, *xs, i32_scalar(0), *carry, *ys)
        nk = len(init)
        carry, ys = list(outs[1 : 1 + nk]), list(outs[1 + nk :])
        done = trips * unroll
    else:
        done = 0
    carry, ys = plan.steps(done, length - done, carry, ys, consts, xs)
    return [*carry, *ys]


# _loop's helpers are a class and module-level functions, not closures:
# debug mode's import hook decorates a nested function anew on every call of
# its parent, and _loop runs for every scan lowered or evaluated.
@dataclass(frozen=True)
class _LoopPlan:
    """One ``_loop``'s fixed parts: the scan, its outlined body (or None),
    the iterations per trip and the operand counts."""

    prim: Scan
    call: ClosedCall | None
    unroll: int
    num_consts: int
    num_xs: int

    def body(self, consts: Sequence[Array], carry: Sequence[Array], x: Sequence[Array]) -> Sequence[Array]:
        """One iteration: the scanned function's outputs."""
        if self.call is not None:
            return bind(self.call, *consts, *carry, *x)
        return eval_jaxpr(self.prim.jaxpr, (), *consts, *carry, *x)

    def steps(
        self, start: Array | int, count: int, carry: Sequence[Array], ys: Sequence[Array], consts: Sequence[Array], xs: Sequence[Array]
    ) -> tuple[list[Array], list[Array]]:
        """Iterations ``start`` to ``start + count - 1``: their rows are the
        block ``[lo, lo + count)`` of each stacked array (in reverse order
        when the scan is reversed)."""
        prim = self.prim
        if count == 0:
            return list(carry), list(ys)
        if isinstance(start, Array):
            lo = sub(i32_scalar(prim.length - count), start) if prim.reverse else start
        else:
            lo = i32_scalar(prim.length - count - start if prim.reverse else start)
        blocks = [_read_block(v, lo, count) for v in xs]
        carry, rows = list(carry), [list[Array]() for _ in ys]
        for k in range(count):
            row = count - 1 - k if prim.reverse else k
            outs = self.body(consts, carry, [_row(b, row, count) for b in blocks])
            carry = list(outs[: prim.num_carry])
            for out_rows, o in zip(rows, outs[prim.num_carry :], strict=True):
                out_rows.append(o)
        if prim.reverse:
            rows = [r[::-1] for r in rows]
        return carry, [_write_block(y, r, lo) for y, r in zip(ys, rows, strict=True)]

    def trip(self, *state: Array) -> list[Array]:
        """The while loop's body: ``unroll`` iterations from the counter on.
        ``state`` is the consts, the xs, the counter, the carry, the ys."""
        nc, nx, nk = self.num_consts, self.num_xs, self.prim.num_carry
        consts, xs, i = state[:nc], state[nc : nc + nx], state[nc + nx]
        carry, ys = state[nc + nx + 1 : nc + nx + 1 + nk], state[nc + nx + 1 + nk :]
        new_carry, new_ys = self.steps(i, self.unroll, carry, ys, consts, xs)
        return [add(i, i32_scalar(self.unroll)), *new_carry, *new_ys]


def _counter_below(end: int, i: Array, *_: Array) -> list[Array]:
    """The while loop's condition: ``i < end``."""
    return [lt(i, i32_scalar(end))]


# The block start is never negative nor past the end: no wrap-around of
# negative indices (and the slicing's clamp never moves it).
def _read_block(stacked: Array, lo: Array, count: int) -> Array:
    """Rows ``[lo, lo + count)`` of ``stacked``."""
    starts: list[ArrayLike] = [lo, *(0 for _ in range(stacked.ndim - 1))]
    return dynamic_slice(stacked, starts, (count, *stacked.shape[1:]), allow_negative_indices=False)


def _row(block: Array, row: int, count: int) -> Array:
    """Row ``row`` of a block of ``count`` rows, without its leading axis."""
    if count > 1:
        block = slice_in_dim(block, row, row + 1)
    return reshape(block, block.shape[1:])


def _write_block(stacked: Array, rows: Sequence[Array], lo: Array) -> Array:
    """``stacked`` with ``rows`` written from row ``lo`` on."""
    block = [expand_dims(r, (0,)) for r in rows]
    value = block[0] if len(block) == 1 else concatenate(block, 0)
    starts: list[ArrayLike] = [lo, *(0 for _ in range(value.ndim - 1))]
    return dynamic_update_slice(stacked, value, starts, allow_negative_indices=False)


# === user-facing functions ===


# Overloads: a single-leaf carry is an ``Array`` inside ``f`` and in the
# result whatever ``init`` is (``0.0`` included); ``xs`` may be left out
# (``None``: ``f`` gets ``None`` and ``length`` gives the trip count). An
# ``init`` typed Any gives an Any carry (Note [Any in, Any out] in api_tree).
@overload
def scan(
    f: Callable[[AnyOnly, X], tuple[object, Y]],
    init: AnyOnly,
    xs: X | None = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
) -> tuple[AnyOnly, Y]: ...
@overload
def scan(
    f: Callable[[Array, X], tuple[ArrayLike, Y]],
    init: ArrayLike,
    xs: X,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
) -> tuple[Array, Y]: ...
@overload
def scan(
    f: Callable[[Array, None], tuple[ArrayLike, Y]],
    init: ArrayLike,
    xs: None = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
) -> tuple[Array, Y]: ...
@overload
def scan(
    f: Callable[[C, X], tuple[C, Y]],
    init: C,
    xs: X,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
) -> tuple[C, Y]: ...
@overload
def scan(
    f: Callable[[C, None], tuple[C, Y]],
    init: C,
    xs: None = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
) -> tuple[C, Y]: ...
def scan(
    f: Callable[[C, X], tuple[object, Y]],
    init: object,
    xs: X | None = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
) -> tuple[C, Y]:
    """Loop ``f`` over the leading axis of ``xs``, carrying a state (JAX's
    ``lax.scan``): returns the final carry and the stacked outputs.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.lax.scan(lambda c, x: (c + x, c * x), 0.0, jnp.arange(1.0, 4.0))
        (Array(6., dtype=float32), Array([0., 2., 9.], dtype=float32))
    """
    # Refs closed over by f become extra carry (issue 16).
    return cast(tuple[C, Y], thread_scan(_scan_impl, f, init, xs, length, reverse, unroll))


def _scan_impl(
    f: Callable[[C, X], tuple[object, Y]],
    init: object,
    xs: X | None,
    length: int | None,
    reverse: bool,
    unroll: int | bool,
) -> tuple[C, Y]:
    if not callable(f):  # runtime check of user input
        raise JaxtypedTypeError(f"scan: f is not callable (got {type(f).__name__})")
    carry_leaves, carry_names, carry_tree = named_leaves(init, "carry")
    x_leaves, x_names, xs_tree = named_leaves(xs, "xs")
    carry = [leaf_as_array(v, f"scan {n}") for v, n in zip(carry_leaves, carry_names)]
    stacked = [leaf_as_array(v, f"scan {n}") for v, n in zip(x_leaves, x_names)]
    n = _scan_length(stacked, x_names, length)
    steps = n if unroll is True else 1 if unroll is False else int(unroll)
    if steps < 0:
        raise JaxtypedValueError(f"scan: unroll must be a non-negative int or a bool, got {unroll}")
    desc = f"f ({describe_function(f)})"
    x_avals = [_unstacked(x.aval) for x in stacked]
    args_tree = treedef_tuple([carry_tree, xs_tree])
    carry_avals = [c.aval for c in carry]
    while True:
        traced = trace_user_fun(
            f, args_tree, [*carry_avals, *x_avals], [*carry_names, *x_names],
            desc=desc, transformation="scan",
        )
        children = treedef_children(traced.out_tree) if traced.out_tree.num_nodes > 1 else []
        if len(children) != 2 or traced.out_tree != treedef_tuple(children):
            raise JaxtypedTypeError(f"scan: {desc} must return a pair (carry, y), got {traced.out_tree}")
        if children[0] != carry_tree:
            raise JaxtypedTypeError(
                f"scan: {desc} must return a carry with the same pytree structure as its carry input, "
                f"got {children[0]} for input {carry_tree}"
            )
        promoted = promote_carry(carry_avals, traced.out_avals[: len(carry)], carry_names, "scan", desc)
        if promoted is None:
            break
        carry_avals = promoted
    carry = [convert_carry(c, a) for c, a in zip(carry, carry_avals)]
    prim = Scan(consts_as_invars(traced.closed.jaxpr), n, len(carry), len(traced.closed.consts), bool(reverse), max(steps, 1))
    outs = bind(prim, *traced.closed.consts, *carry, *stacked)
    final = cast(C, carry_tree.unflatten(outs[: len(carry)]))  # the carry keeps C's structure
    ys = cast(Y, children[1].unflatten(outs[len(carry) :]))  # f's ys, stacked
    return final, ys


def _scan_length(stacked: list[Array], names: list[str], length: int | None) -> int:
    for x, name in zip(stacked, names):
        if x.ndim == 0:
            raise JaxtypedValueError(f"scan: {name} is a scalar {x.aval.str_short()}; each x needs a leading axis to scan over")
    if stacked:
        n = stacked[0].shape[0]
        for x, name in zip(stacked[1:], names[1:]):
            if x.shape[0] != n:
                raise JaxtypedValueError(
                    f"scan: every x needs the same leading axis size, but {names[0]} has {n} "
                    f"({stacked[0].aval.str_short()}) and {name} has {x.shape[0]} ({x.aval.str_short()})"
                )
        if length is not None and int(length) != n:
            raise JaxtypedValueError(f"scan: got length={length} but {names[0]} has leading axis size {n}")
        return n
    if length is None:
        raise JaxtypedValueError("scan: length must be given when xs has no arrays (xs=None)")
    if int(length) < 0:
        raise JaxtypedValueError(f"scan: length must be non-negative, got {length}")
    return int(length)


def map(f: Callable[[X], Y], xs: X, *, batch_size: int | None = None) -> Y:  # noqa: A001 - JAX's name
    """``f`` applied to each slice of ``xs`` along the leading axis, the
    results stacked (JAX's ``lax.map``: a ``scan`` without carry). With
    ``batch_size``, ``f`` is vectorised over groups of that many slices
    (the loop runs over groups; a remainder group is vectorised alone).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.lax.map(lambda x: x * 2, jnp.arange(3.0))
        Array([0., 2., 4.], dtype=float32)
    """
    if batch_size is None:
        _, stacked = scan(lambda _, x: ((), f(x)), (), xs)
        return stacked
    if int(batch_size) < 1:
        raise JaxtypedValueError(f"map: batch_size must be a positive int, got {batch_size}")
    leaves, names, tree = named_leaves(xs, "xs")
    arrays = [leaf_as_array(v, f"map {n}") for v, n in zip(leaves, names)]
    n = _scan_length(arrays, names, None)
    size = min(int(batch_size), max(n, 1))
    full, rest = divmod(n, size)
    main = [reshape(slice_in_dim(x, 0, full * size), (full, size, *x.shape[1:])) for x in arrays]
    _, grouped = scan(lambda _, group: ((), _vectorised(f, tree, group, size)), (), main)
    out_leaves, out_tree = tree_flatten(grouped)
    rows: list[Array] = [reshape(y, (full * size, *y.shape[2:])) for y in out_leaves]
    if rest:
        tail = _vectorised(f, tree, [slice_in_dim(x, full * size, n) for x in arrays], rest)
        rows = [concatenate([y, t], 0) for y, t in zip(rows, tree_flatten(tail)[0], strict=True)]
    return cast(Y, out_tree.unflatten(rows))  # f's output type, stacked


def _vectorised(f: Callable[[X], Y], tree: PyTreeDef, group: Sequence[Array], size: int) -> Y:
    """``f`` applied to every row of ``group`` (leaves of ``tree`` with a
    leading axis of ``size``), vectorised, outputs stacked on axis 0."""
    interp = BatchInterpreter(current_interpreter(), BatchAxis(size), "the function given to map")
    with transformation_scope(interp):
        out = f(cast(X, tree.unflatten([interp.box(x, 0) for x in group])))  # batched rows of map's xs
        out_leaves, out_names, out_tree = named_leaves(out, "output")
        pairs = [interp.unbox(leaf_as_array(v, f"map {name}")) for v, name in zip(out_leaves, out_names)]
    return cast(Y, out_tree.unflatten([bdim_to_front(v, d, size) for v, d in pairs]))  # f's output type, stacked


# ``i`` is an ``Array`` (a traced counter, or a concrete one under
# ``disable_jit``); a single-leaf value is an ``Array`` whatever
# ``init_val`` is, and so is each leaf of a tuple of two or three, as in
# ``while_loop``.
@overload
def fori_loop(  # an Any carry: Any back (Note [Any in, Any out] in api_tree)
    lower: ArrayLike,
    upper: ArrayLike,
    body_fun: Callable[[Array, AnyOnly], object],
    init_val: AnyOnly,
    *,
    unroll: int | bool | None = None,
) -> AnyOnly: ...
@overload
def fori_loop(  # a pair or triple of Any: Any back, not the Array guess below
    lower: ArrayLike,
    upper: ArrayLike,
    body_fun: Callable[[Array, tuple[AnyOnly, AnyOnly]], tuple[AnyOnly, AnyOnly]],
    init_val: tuple[AnyOnly, AnyOnly],
    *,
    unroll: int | bool | None = None,
) -> tuple[AnyOnly, AnyOnly]: ...
@overload
def fori_loop(
    lower: ArrayLike,
    upper: ArrayLike,
    body_fun: Callable[[Array, tuple[AnyOnly, AnyOnly, AnyOnly]], tuple[AnyOnly, AnyOnly, AnyOnly]],
    init_val: tuple[AnyOnly, AnyOnly, AnyOnly],
    *,
    unroll: int | bool | None = None,
) -> tuple[AnyOnly, AnyOnly, AnyOnly]: ...
@overload
def fori_loop(
    lower: ArrayLike,
    upper: ArrayLike,
    body_fun: Callable[[Array, Array], ArrayLike],
    init_val: ArrayLike,
    *,
    unroll: int | bool | None = None,
) -> Array: ...
@overload
def fori_loop(
    lower: ArrayLike,
    upper: ArrayLike,
    body_fun: Callable[[Array, tuple[Array, Array]], tuple[ArrayLike, ArrayLike]],
    init_val: tuple[ArrayLike, ArrayLike],
    *,
    unroll: int | bool | None = None,
) -> tuple[Array, Array]: ...
@overload
def fori_loop(
    lower: ArrayLike,
    upper: ArrayLike,
    body_fun: Callable[[Array, tuple[Array, Array, Array]], tuple[ArrayLike, ArrayLike, ArrayLike]],
    init_val: tuple[ArrayLike, ArrayLike, ArrayLike],
    *,
    unroll: int | bool | None = None,
) -> tuple[Array, Array, Array]: ...
@overload
def fori_loop(
    lower: ArrayLike, upper: ArrayLike, body_fun: Callable[[Array, C], C], init_val: C, *, unroll: int | bool | None = None
) -> C: ...
def fori_loop(  # type: ignore[misc]  # typed as the pytree overload; the leaf one is its instance with leaves as Array
    lower: ArrayLike, upper: ArrayLike, body_fun: Callable[[Array, C], C], init_val: C, *, unroll: int | bool | None = None
) -> C:
    """``body_fun(i, val)`` for ``i`` from ``lower`` to ``upper - 1`` (JAX's
    ``lax.fori_loop``). With bounds known in Python the loop is a ``scan``
    (so reverse-mode differentiable, and ``unroll`` applies); traced bounds
    make it a ``while_loop``.

    Example:
        >>> import jaxtyped as jt
        >>> jt.lax.fori_loop(0, 4, lambda i, total: total + i, 0)
        Array(6, dtype=int32, weak_type=True)
    """
    lo = leaf_as_array(lower, "fori_loop lower")
    hi = leaf_as_array(upper, "fori_loop upper")

    for name, bound in (("lower", lo), ("upper", hi)):
        if bound.shape != () or not dtypes.is_integer(bound.dtype):
            raise JaxtypedTypeError(f"fori_loop: {name} must be an integer scalar, got {bound.aval.str_short()}")
    if lo.dtype != hi.dtype:
        # As JAX: bounds of different dtypes meet at their promoted type;
        # otherwise they keep theirs (two Python ints give a weak counter).
        dtype = dtypes.promote_types(lo.dtype, hi.dtype)
        lo, hi = convert_to(lo, dtype, weak_type=False), convert_to(hi, dtype, weak_type=False)
    dtype = lo.dtype
    one = array_from_numpy(np.array(1, dtype), weak_type=lo.weak_type)
    if type(lo) is ArrayImpl and type(hi) is ArrayImpl:
        # Bounds known in Python: as in JAX the counter is a Python int
        # (weakly typed), and the loop is a scan.
        start, stop = int(np.asarray(lo)), int(np.asarray(hi))
        first: Array = array_from_numpy(np.array(start, dtype), weak_type=True)
        step = array_from_numpy(np.array(1, dtype), weak_type=True)

        def scan_body(carry: tuple[Array, C], _: None) -> tuple[tuple[Array, C], None]:
            i, val = carry
            return (add(i, step), body_fun(i, val)), None

        steps = 1 if unroll is None else unroll
        (_, result), _ = scan(scan_body, (first, init_val), None, length=max(stop - start, 0), unroll=steps)
        return result
    if unroll is not None:
        raise JaxtypedValueError(
            "fori_loop: unroll needs loop bounds known in Python (Python ints or concrete arrays); "
            f"got lower {lo.aval.str_short()} and upper {hi.aval.str_short()} traced"
        )

    def cond_fun(carry: tuple[Array, Array, C]) -> Array:
        return lt(carry[0], carry[1])

    def while_body(carry: tuple[Array, Array, C]) -> tuple[Array, Array, C]:
        i, stop_, val = carry
        return add(i, one), stop_, body_fun(i, val)

    _, _, result = while_loop(cond_fun, while_body, (lo, hi, init_val))
    return result
