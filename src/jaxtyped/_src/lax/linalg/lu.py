"""LU decomposition with partial pivoting (layer L4): the ``lu`` primitive
(LAPACK ``getrf``) and ``lu_pivots_to_permutation``, with JAX's names,
parameters and results.

``lu(a)`` of an ``[..., m, n]`` matrix gives ``(lu, pivots, permutation)``:
``lu`` packs the unit lower factor ``L`` (below the diagonal) and the upper
factor ``U``; ``pivots`` (``int32[..., min(m, n)]``, 0-based) says that row
``i`` was swapped with row ``pivots[i]``; ``permutation`` (``int32[..., m]``)
is the resulting row order, so ``a[..., permutation, :] == L @ U``.

Also the small matrix helpers (identity, slices, padding, row
permutation) the QR module shares; triangles and transposes come from
``cholesky.py``.
"""

import functools
from dataclasses import dataclass
from typing import final

import numpy as np
from typing_extensions import override

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import ShapedArray, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.arithmetic import add, sub
from jaxtyped._src.lax.comparison import eq
from jaxtyped._src.lax.control_flow.scan import fori_loop
from jaxtyped._src.lax.convenience import batch_matmul
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.linalg.base import (
    BatchedOverLeadingDims,
    DeviceEvaluated,
    check_inexact,
    lapack_call,
    lapack_prefix,
)
from jaxtyped._src.lax.linalg.cholesky import triangle, triangular_solve
from jaxtyped._src.lax.reductions import reduce_sum
from jaxtyped._src.lax.slicing import dynamic_slice_in_dim, slice as slice_
from jaxtyped._src.lax.structural import broadcast_in_dim, broadcasted_iota, instantiate, pad, select_n, zeros
from jaxtyped._src.lax.util import check_arity, as_operand, strong_constant_like

__all__ = [
    "Lu",
    "LuPivotsToPermutation",
    "lu",
    "lu_pivots_to_permutation",
    "check_rank_at_least",
    "eye_like",
    "take_rows",
    "slice_matrix",
    "pad_matrix",
]

_I32 = np.dtype(np.int32)


# === matrix helpers (also used by qr.py) ===


def check_rank_at_least(name: str, aval: ShapedArray, rank: int, position: int = 0) -> None:
    """Raise JAX's TypeError for an operand of too small a rank."""
    if aval.ndim < rank:
        raise JaxtypedTypeError(
            f"Input {position} to {name} must have rank at least {rank}, but got {aval.str_short()}"
        )


def eye_like(x: Array, n: int) -> Array:
    """An ``n``-by-``n`` identity of ``x``'s dtype with ``x``'s batch
    dimensions."""
    shape = (*x.shape[:-2], n, n)
    diagonal = eq(broadcasted_iota(_I32, shape, len(shape) - 2), broadcasted_iota(_I32, shape, len(shape) - 1))
    return convert_to(diagonal, x.dtype, weak_type=False)


def slice_matrix(x: Array, rows: tuple[int, int], cols: tuple[int, int]) -> Array:
    """``x[..., r0:r1, c0:c1]``."""
    batch = x.shape[:-2]
    return slice_(x, (*(0 for _ in batch), rows[0], cols[0]), (*batch, rows[1], cols[1]))


def pad_matrix(x: Array, rows: int, cols: int) -> Array:
    """``x`` padded with zeros after its last row and column to ``rows`` by
    ``cols``."""
    config = [(0, 0, 0)] * (x.ndim - 2) + [(0, rows - x.shape[-2], 0), (0, cols - x.shape[-1], 0)]
    return pad(x, strong_constant_like(x, 0), config)


def take_rows(x: Array, permutation: Array) -> Array:
    """``x[..., permutation, :]`` as a product with the one-hot permutation
    matrix: no gather, and its derivatives are plain products."""
    batch = permutation.shape[:-1]
    size = permutation.shape[-1]
    shape = (*batch, size, x.shape[-2])
    chosen = broadcast_in_dim(permutation, shape, (*range(len(batch)), len(batch)))
    one_hot = eq(chosen, broadcasted_iota(_I32, shape, len(shape) - 1))
    return batch_matmul(convert_to(one_hot, x.dtype, weak_type=False), x)


# === lu_pivots_to_permutation ===


def _permutation_from_pivots(pivots: Array, size: int) -> Array:
    """Apply the swaps ``i <-> pivots[..., i]`` in order to ``0..size-1``.

    Each step selects through comparisons with an iota, so the loop body is
    the same for every batch entry (no gather or scatter)."""
    shape = (*pivots.shape[:-1], size)
    positions = broadcasted_iota(_I32, shape, len(shape) - 1)
    if pivots.shape[-1] == 0:
        return positions  # the loop body would slice an empty axis
    # A partial of a module-level step, not a closure: debug mode's import
    # hook decorates a nested function anew on every call of its parent.
    return fori_loop(0, pivots.shape[-1], functools.partial(_swap_step, pivots, positions), positions)


def _permutation_outputs(size: int, pivots: Array) -> tuple[Array]:
    """The lowered function of :class:`LuPivotsToPermutation` (a module-level
    one for the reason ``_permutation_from_pivots`` gives)."""
    return (_permutation_from_pivots(pivots, size),)


def _swap_step(pivots: Array, positions: Array, i: Array, perm: Array) -> Array:
    """``perm`` with entries ``i`` and ``pivots[..., i]`` swapped."""
    shape, last = perm.shape, perm.ndim - 1
    step = convert_to(i, _I32, weak_type=False)
    pivot = broadcast_in_dim(dynamic_slice_in_dim(pivots, step, 1, axis=last), shape, (*range(last), last))
    at_step = eq(positions, broadcast_in_dim(step, shape, ()))
    at_pivot = eq(positions, pivot)
    here = broadcast_in_dim(dynamic_slice_in_dim(perm, step, 1, axis=last), shape, (*range(last), last))
    there = broadcast_in_dim(reduce_sum(select_n(at_pivot, zeros(perm.aval), perm), (last,)), shape, tuple(range(last)))
    # When the pivot is the step itself both masks hold: it stays.
    return select_n(at_step, select_n(at_pivot, perm, here), there)


@final
@dataclass(frozen=True, slots=True)
class LuPivotsToPermutation(DeviceEvaluated, BatchedOverLeadingDims):
    """The row permutation that LAPACK's sequence of row swaps ``pivots``
    (0-based) produces, of length ``permutation_size``."""

    name = "lu_pivots_to_permutation"
    permutation_size: int

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (pivots,) = avals
        if pivots.dtype != _I32:
            raise JaxtypedTypeError(
                f"{self.name} does not accept dtype {pivots.dtype.name} at position 0: pivots must be int32, "
                f"got {pivots.str_short()}"
            )
        check_rank_at_least(self.name, pivots, 1)
        if self.permutation_size < pivots.shape[-1]:
            raise JaxtypedValueError(
                f"{self.name}: permutation_size {self.permutation_size} must be at least the trailing "
                f"dimension of the pivots, got {pivots.str_short()}"
            )
        return (ShapedArray((*pivots.shape[:-1], self.permutation_size), _I32),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        return ctx.lower_fun(functools.partial(_permutation_outputs, self.permutation_size), args)

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # Integer in, integer out: the tangent is a symbolic zero.
        outs = bind(self, *primals)
        return outs, (Zero(outs[0].aval.to_tangent_aval()),)


def lu_pivots_to_permutation(pivots: ArrayLike, permutation_size: int) -> Array:
    """The permutation that the row swaps ``pivots`` (``int32[..., k]``,
    0-based, as :func:`lu` returns them) apply to ``range(permutation_size)``
    (JAX's ``lax.linalg.lu_pivots_to_permutation``)."""
    x = as_operand(pivots, "lax.linalg.lu_pivots_to_permutation pivots")
    (out,) = bind(LuPivotsToPermutation(int(permutation_size)), x)
    return out


# === lu ===


def _lu_tangent(lu_: Array, permutation: Array, a_dot: Array) -> Array:
    """The tangent of the packed factors: with ``P A = L U``,
    ``inv(L) P dA inv(U) = inv(L) dL + dU inv(U)``, whose strictly lower
    part is ``inv(L) dL`` and upper part ``dU inv(U)`` (De Hoog, Anderssen
    and Lukas). Non-square matrices are completed to square ``L``
    (``m x m``) and ``U`` (``n x n``) with identity blocks."""
    m, n = lu_.shape[-2:]
    k = min(m, n)
    l_factor = add(pad_matrix(triangle(slice_matrix(lu_, (0, m), (0, k)), lower=True, k=-1), m, m), eye_like(lu_, m))
    u_factor = pad_matrix(triangle(slice_matrix(lu_, (0, k), (0, n)), lower=False), n, n)
    if k < n:
        # ones on the trailing n - k diagonal entries
        u_factor = add(u_factor, sub(eye_like(lu_, n), pad_matrix(eye_like(lu_, k), n, n)))
    la = triangular_solve(l_factor, take_rows(a_dot, permutation), left_side=True, lower=True, unit_diagonal=True)
    lau = triangular_solve(u_factor, la, left_side=False, lower=False)
    return add(
        batch_matmul(l_factor, triangle(lau, lower=True, k=-1)),
        batch_matmul(triangle(lau, lower=False), u_factor),
    )


@final
@dataclass(frozen=True, slots=True)
class Lu(DeviceEvaluated, BatchedOverLeadingDims):
    """LU decomposition with partial pivoting (LAPACK ``getrf``): outputs
    ``(lu, pivots, permutation)``."""

    name = "lu"
    several_results = True

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (a,) = avals
        check_inexact(self.name, a)
        check_rank_at_least(self.name, a, 2)
        lapack_prefix(a.dtype, self.name)
        *batch, m, n = a.shape
        return (
            a.strip_weak_type(),
            ShapedArray((*batch, min(m, n)), _I32),
            ShapedArray((*batch, m), _I32),
        )

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (a,) = args
        lu_aval, pivots_aval, perm_aval = out_avals
        info_aval = ShapedArray(lu_aval.shape[:-2], _I32)
        factored, ipiv, info = lapack_call(
            ctx, "getrf", [(a, "matrix")],
            [(lu_aval, "matrix"), (pivots_aval, "vector"), (info_aval, "vector")],
            aliases={0: 0},
        )  # fmt: skip
        # LAPACK's pivots are 1-based; info < 0 flags a bad argument (a
        # singular matrix, info > 0, still has a valid factorisation).
        pivots = ctx.op1("stablehlo.subtract", (ipiv, ctx.full_like(1, ipiv)), pivots_aval)
        ok = ctx.compare(info, ctx.full_like(0, info), "GE")
        shape = lu_aval.shape
        mask = ctx.broadcast_in_dim(ok, shape, tuple(range(ok.aval.ndim)))
        nan = ctx.broadcast_in_dim(ctx.scalar(np.nan, lu_aval.dtype), shape, ())
        checked = ctx.select(mask, factored, nan)
        (permutation,) = LuPivotsToPermutation(perm_aval.shape[-1]).lower(ctx, (pivots,), (perm_aval,))
        return checked, pivots, permutation

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (a,) = primals
        lu_, pivots, permutation = bind(self, a)
        lu_dot = _lu_tangent(lu_, permutation, instantiate(tangents[0]))
        return (lu_, pivots, permutation), (
            lu_dot,
            Zero(pivots.aval.to_tangent_aval()),
            Zero(permutation.aval.to_tangent_aval()),
        )


def lu(x: ArrayLike) -> tuple[Array, Array, Array]:
    """LU decomposition with partial pivoting of a (batch of) ``m x n``
    matrices (JAX's ``lax.linalg.lu``): ``(lu, pivots, permutation)`` with
    ``x[..., permutation, :] == L @ U``, ``L`` the unit lower triangle of
    ``lu`` and ``U`` its upper triangle."""
    a = as_operand(x, "lax.linalg.lu x")
    lu_, pivots, permutation = bind(Lu(), a)
    return lu_, pivots, permutation
