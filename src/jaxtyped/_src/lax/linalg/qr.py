"""QR decomposition (layer L4): ``geqrf`` (LAPACK ``geqrf``: Householder
reflectors packed below the diagonal, ``R`` above, plus their scales
``taus``), ``householder_product`` (LAPACK ``orgqr``/``ungqr``: the
reflectors multiplied out into ``Q``), ``ormqr`` (LAPACK ``ormqr``/
``unmqr``: ``Q`` applied to a matrix without forming it) and ``qr``, built
on them, with column pivoting through LAPACK ``geqp3``. JAX's names,
parameters and results.
"""

import functools
from dataclasses import dataclass
from typing import Literal, final, overload

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import ShapedArray, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind, bind1
from jaxtyped._src.core.primitive import Tangent
from jaxtyped._src.errors import DTypeMismatchError, JaxtypedTypeError, JaxtypedValueError, MissingRuleError
from jaxtyped._src.lax.arithmetic import add, mul, sub
from jaxtyped._src.lax.comparison import eq
from jaxtyped._src.lax.convenience import batch_matmul
from jaxtyped._src.lax.complex_ops import real
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.linalg.base import (
    BatchedOverLeadingDims,
    DeviceEvaluated,
    check_inexact,
    lapack_call,
    lapack_prefix,
)
from jaxtyped._src.lax.linalg.cholesky import hermitian_transpose, matrix_transpose, triangle, triangular_solve
from jaxtyped._src.lax.linalg.lu import Lu, check_rank_at_least, eye_like, pad_matrix, slice_matrix, take_rows
from jaxtyped._src.lax.structural import broadcast_in_dim, broadcasted_iota, concatenate, instantiate, zeros
from jaxtyped._src.lax.util import check_arity, as_operand, short_types

__all__ = [
    "Geqrf",
    "HouseholderProduct",
    "Ormqr",
    "Qr",
    "geqrf",
    "householder_product",
    "ormqr",
    "qr",
]

_I32 = np.dtype(np.int32)


def _check_batches(name: str, avals: tuple[ShapedArray, ...], ranks: tuple[int, ...]) -> tuple[int, ...]:
    """The common batch shape of operands whose trailing ``ranks[i]``
    dimensions are core dimensions; JAX's TypeError when they differ."""
    batches = [aval.shape[: aval.ndim - rank] for aval, rank in zip(avals, ranks, strict=True)]
    if any(len(b) != len(batches[0]) for b in batches):
        raise JaxtypedTypeError(
            f"All inputs to {name} must have the same number of batch dimensions, got ({short_types(avals)})"
        )
    if any(b != batches[0] for b in batches):
        raise JaxtypedValueError(f"{name}: the operands' batch dimensions differ: ({short_types(avals)})")
    return batches[0]


def _check_same_dtype(name: str, avals: tuple[ShapedArray, ...]) -> None:
    if any(aval.dtype != avals[0].dtype for aval in avals):
        raise DTypeMismatchError(f"{name}: the operands must have the same dtype, got ({short_types(avals)})")


def _check_matrix_operand(name: str, aval: ShapedArray, position: int = 0) -> None:
    check_inexact(name, aval)
    check_rank_at_least(name, aval, 2, position)
    lapack_prefix(aval.dtype, name)


class _NotDifferentiable(DeviceEvaluated):
    """Family base of the LAPACK building blocks JAX defines no derivative
    for (differentiate ``qr`` instead)."""

    __slots__ = ()

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        raise MissingRuleError(
            f"jvp: primitive '{self.name}' has no differentiation rule (nor has it in JAX); differentiate qr instead"
        )


# === geqrf ===


@final
@dataclass(frozen=True, slots=True)
class Geqrf(_NotDifferentiable, BatchedOverLeadingDims):
    """Householder QR in LAPACK's packed form (``geqrf``): outputs ``(a,
    taus)``, ``R`` on and above the diagonal of ``a``, the reflectors'
    vectors below it and their scales in ``taus`` (``[..., min(m, n)]``)."""

    name = "geqrf"
    several_results = True

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (a,) = avals
        _check_matrix_operand(self.name, a)
        *batch, m, n = a.shape
        return a.strip_weak_type(), ShapedArray((*batch, min(m, n)), a.dtype)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (a,) = args
        a_aval, taus_aval = out_avals
        return lapack_call(ctx, "geqrf", [(a, "matrix")], [(a_aval, "matrix"), (taus_aval, "vector")], aliases={0: 0})


def geqrf(a: ArrayLike) -> tuple[Array, Array]:
    """LAPACK's packed Householder QR of a (batch of) matrices: ``(a,
    taus)`` (JAX's ``lax.linalg.geqrf``)."""
    x = as_operand(a, "lax.linalg.geqrf a")
    packed, taus = bind(Geqrf(), x)
    return packed, taus


# === householder_product ===


@final
@dataclass(frozen=True, slots=True)
class HouseholderProduct(_NotDifferentiable, BatchedOverLeadingDims):
    """The first ``n`` columns of the product of the Householder reflectors
    packed in ``a`` (``[..., m, n]``, ``m >= n``) with scales ``taus``
    (``[..., k]``, ``k <= n``): LAPACK ``orgqr`` / ``ungqr``."""

    name = "householder_product"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 2)
        a, taus = avals
        _check_matrix_operand(self.name, a)
        check_rank_at_least(self.name, taus, 1, 1)
        _check_batches(self.name, avals, (2, 1))
        _check_same_dtype(self.name, avals)
        m, n = a.shape[-2:]
        if m < n:
            raise JaxtypedValueError(
                f"The first argument to {self.name} must have at least as many rows as columns, got {a.str_short()}"
            )
        if taus.shape[-1] > min(m, n):
            raise JaxtypedValueError(
                f"The second argument to {self.name} must not have more rows than the minimum of the first "
                f"argument's rows and columns, got ({short_types(avals)})"
            )
        return (a.strip_weak_type(),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        a, taus = args
        kernel = "ungqr" if dtypes.is_complex(a.aval.dtype) else "orgqr"
        return lapack_call(ctx, kernel, [(a, "matrix"), (taus, "vector")], [(out_avals[0], "matrix")], aliases={0: 0})


def householder_product(a: ArrayLike, taus: ArrayLike) -> Array:
    """The matrix ``Q`` (``[..., m, n]``) whose columns the Householder
    reflectors in ``a`` and ``taus`` define, as :func:`geqrf` packs them
    (JAX's ``lax.linalg.householder_product``)."""
    x = as_operand(a, "lax.linalg.householder_product a")
    t = as_operand(taus, "lax.linalg.householder_product taus")
    return bind1(HouseholderProduct(), x, t)


# === ormqr ===


@final
@dataclass(frozen=True, slots=True)
class Ormqr(_NotDifferentiable, BatchedOverLeadingDims):
    """``op(Q) @ c`` (``left``) or ``c @ op(Q)`` with ``Q`` the product of
    the Householder reflectors in ``(a, taus)`` and ``op`` the conjugate
    transpose when ``adjoint_q`` (JAX's ``transpose``): LAPACK ``ormqr`` / ``unmqr``."""

    name = "ormqr"
    left: bool
    # JAX's parameter ``transpose``, renamed: the name is Primitive's
    # transpose rule. Printed under JAX's name.
    adjoint_q: bool

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("left", self.left), ("transpose", self.adjoint_q))

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 3)
        a, taus, c = avals
        _check_matrix_operand(self.name, a)
        check_rank_at_least(self.name, taus, 1, 1)
        check_rank_at_least(self.name, c, 2, 2)
        _check_batches(self.name, avals, (2, 1, 2))
        _check_same_dtype(self.name, avals)
        order = a.shape[-2]
        side, size = ("rows", c.shape[-2]) if self.left else ("columns", c.shape[-1])
        if size != order:
            raise JaxtypedValueError(
                f"{self.name} with left={self.left} expects c to have as many {side} as the Householder "
                f"matrix a has rows, got a {a.str_short()} and c {c.str_short()}"
            )
        if taus.shape[-1] > min(a.shape[-2:]):
            raise JaxtypedValueError(
                f"{self.name}: taus must not be longer than min(a.shape[-2:]), got ({short_types(avals)})"
            )
        return (c.strip_weak_type(),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        a, taus, c = args
        kernel = "unmqr" if dtypes.is_complex(a.aval.dtype) else "ormqr"
        attrs = {"left": str(self.left).lower(), "transpose": str(self.adjoint_q).lower()}
        return lapack_call(
            ctx, kernel, [(a, "matrix"), (taus, "vector"), (c, "matrix")], [(out_avals[0], "matrix")], attrs,
            aliases={0: 2},
        )


def ormqr(a: ArrayLike, taus: ArrayLike, c: ArrayLike, *, left: bool = True, transpose: bool = False) -> Array:
    """``c`` multiplied by ``Q`` of the reflectors in ``(a, taus)`` (as
    :func:`geqrf` packs them) without forming ``Q``: ``Q @ c``, ``Q^H @ c``
    (``transpose``), or from the right when not ``left`` (JAX's
    ``lax.linalg.ormqr``)."""
    x = as_operand(a, "lax.linalg.ormqr a")
    t = as_operand(taus, "lax.linalg.ormqr taus")
    y = as_operand(c, "lax.linalg.ormqr c")
    return bind1(Ormqr(bool(left), bool(transpose)), x, t, y)


# === qr ===


def _assemble(packed: Array, taus: Array, full_matrices: bool) -> tuple[Array, Array]:
    """``(q, r)`` from ``geqrf``'s (or ``geqp3``'s) packed output."""
    m, n = packed.shape[-2:]
    if m < n:
        reflectors = slice_matrix(packed, (0, m), (0, m))
    elif full_matrices and m > n:
        reflectors = pad_matrix(packed, m, m)  # orgqr fills the extra columns
    else:
        reflectors = packed
    q = bind1(HouseholderProduct(), reflectors, taus)
    upper = packed if full_matrices or m <= n else slice_matrix(packed, (0, n), (0, n))
    return q, triangle(upper, lower=False)


def _empty_qr(x: Array, q_aval: ShapedArray, r_aval: ShapedArray) -> tuple[Array, Array]:
    """QR of a matrix with no rows or no columns: an identity block and
    zeros, as JAX gives."""
    rows, cols = q_aval.shape[-2:]
    return slice_matrix(eye_like(x, max(rows, cols)), (0, rows), (0, cols)), zeros(r_aval)


@final
@dataclass(frozen=True, slots=True)
class Qr(DeviceEvaluated, BatchedOverLeadingDims):
    """QR decomposition ``x = q @ r`` (``x[..., p] = q @ r`` with column
    pivoting): ``q`` is ``[..., m, m]`` with ``full_matrices``, else
    ``[..., m, min(m, n)]``, ``r`` upper triangular; ``p`` (int32) only
    when ``pivoting``. ``use_magma`` is a GPU option, ignored on CPU."""

    name = "qr"
    several_results = True
    pivoting: bool
    full_matrices: bool
    use_magma: bool | None

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        (x,) = avals
        _check_matrix_operand(self.name, x)
        *batch, m, n = x.shape
        k = m if self.full_matrices else min(m, n)
        outs = (ShapedArray((*batch, m, k), x.dtype), ShapedArray((*batch, k, n), x.dtype))
        if self.pivoting:
            return (*outs, ShapedArray((*batch, n), _I32))
        return outs

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (x,) = args
        m, n = x.aval.shape[-2:]
        full = self.full_matrices
        # The functions lowered are partials of module-level ones, not
        # closures: debug mode's import hook decorates a nested function
        # anew on every call of its parent.
        if m == 0 or n == 0:
            return ctx.lower_fun(functools.partial(_empty_outputs, out_avals), args)
        if not self.pivoting:
            return ctx.lower_fun(functools.partial(_factor, full), args)
        batch = x.aval.shape[:-2]
        taus_aval = ShapedArray((*batch, min(m, n)), x.aval.dtype)
        jpvt_aval = ShapedArray((*batch, n), _I32)
        # geqp3 reads jpvt as input too: zero marks every column free to move.
        free = ctx.constant(0, jpvt_aval)
        packed, jpvt, taus = lapack_call(
            ctx, "geqp3", [(x, "matrix"), (free, "vector")],
            [(x.aval.strip_weak_type(), "matrix"), (jpvt_aval, "vector"), (taus_aval, "vector")],
            aliases={0: 0, 1: 1},
        )  # fmt: skip
        return ctx.lower_fun(functools.partial(_finish_pivoted, full), (packed, taus, jpvt))

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (x,) = primals
        outs = bind(self, x)
        q, r = outs[0], outs[1]
        dx = instantiate(tangents[0])
        m, n = x.shape[-2:]
        if self.pivoting:
            # x[..., p] = q r: differentiate the pivoted matrix, its
            # permutation held fixed.
            x, dx = _take_columns(x, outs[2]), _take_columns(dx, outs[2])
        if m == 0 or n == 0:
            dq, dr = zeros(q.aval), zeros(r.aval)
        elif m < n:
            dq, dr = _wide_qr_tangents(q, r, x, dx)
        else:
            dq, dr = _tall_qr_tangents(q, r, dx, self.full_matrices)
        perm_tangent: tuple[Tangent, ...] = (Zero(outs[2].aval.to_tangent_aval()),) if self.pivoting else ()
        return outs, (dq, dr, *perm_tangent)


def _empty_outputs(out_avals: tuple[ShapedArray, ...], a: Array) -> tuple[Array, ...]:
    """The factors of a matrix with no rows or no columns (and, pivoted, a
    permutation of its columns)."""
    q, r = _empty_qr(a, out_avals[0], out_avals[1])
    return (q, r, zeros(out_avals[2])) if len(out_avals) == 3 else (q, r)


def _factor(full: bool, a: Array) -> tuple[Array, Array]:
    """Q and R of ``a`` through geqrf."""
    return _assemble(*geqrf(a), full)


def _finish_pivoted(full: bool, a: Array, t: Array, p: Array) -> tuple[Array, ...]:
    """Q, R and the 0-based column permutation from geqp3's outputs."""
    q, r = _assemble(a, t, full)
    return q, r, sub(p, broadcast_in_dim(np.int32(1), p.shape, ()))  # LAPACK's columns are 1-based


def _take_columns(x: Array, permutation: Array) -> Array:
    """``x[..., :, permutation]``."""
    return matrix_transpose(take_rows(matrix_transpose(x), permutation))


def _thin_qr_tangents(q: Array, r: Array, dx: Array) -> tuple[Array, Array]:
    """Tangents of ``x = q r`` with ``q`` ``m x n`` orthonormal columns and
    ``r`` ``n x n`` upper triangular: with ``C = q^H dx r^-1``,
    ``q^H dq = W`` (skew-Hermitian, from the strict lower part of ``C``,
    whose diagonal is ``i Im diag(C)``), ``dr = (C - W) r`` and
    ``dq = dx r^-1 - q (C - W)``."""
    dx_rinv = triangular_solve(r, dx, left_side=False, lower=False)
    c = batch_matmul(hermitian_transpose(q), dx_rinv)
    strict = triangle(c, lower=True, k=-1)
    w = sub(strict, hermitian_transpose(strict))
    if dtypes.is_complex(c.dtype):
        imaginary = sub(c, convert_to(real(c), c.dtype, weak_type=False))
        w = add(w, mul(eye_like(c, c.shape[-1]), imaginary))
    c_minus_w = sub(c, w)
    return sub(dx_rinv, batch_matmul(q, c_minus_w)), batch_matmul(c_minus_w, r)


def _tall_qr_tangents(q: Array, r: Array, dx: Array, full_matrices: bool) -> tuple[Array, Array]:
    m, n = dx.shape[-2:]
    if not full_matrices or m == n:
        return _thin_qr_tangents(q, r, dx)
    q_mn = slice_matrix(q, (0, m), (0, n))
    dq_mn, dr_nn = _thin_qr_tangents(q_mn, slice_matrix(r, (0, n), (0, n)), dx)
    # The trailing columns q_mp of a Householder Q follow from its leading
    # ones (Roberts and Roberts, arXiv 2409.13374): with
    # Z = q_pn (q_nn - I)^-1, dq_mp = dq_mn Z^H - (q_mn + q_mp Z)(dq_pn - Z dq_nn)^H.
    q_nn = slice_matrix(q_mn, (0, n), (0, n))
    q_pn = slice_matrix(q_mn, (n, m), (0, n))
    q_mp = slice_matrix(q, (0, m), (n, m))
    z_h = _solve_adjoint(sub(q_nn, eye_like(q_nn, n)), hermitian_transpose(q_pn))
    z = hermitian_transpose(z_h)
    dq_nn = slice_matrix(dq_mn, (0, n), (0, n))
    dq_pn = slice_matrix(dq_mn, (n, m), (0, n))
    dq_mp = sub(
        batch_matmul(dq_mn, z_h),
        batch_matmul(add(q_mn, batch_matmul(q_mp, z)), hermitian_transpose(sub(dq_pn, batch_matmul(z, dq_nn)))),
    )
    dq = concatenate([dq_mn, dq_mp], dq_mn.ndim - 1)
    dr = concatenate([dr_nn, zeros(ShapedArray((*dr_nn.shape[:-2], m - n, n), dr_nn.dtype))], dr_nn.ndim - 2)
    return dq, dr


def _solve_adjoint(a: Array, b: Array) -> Array:
    """``a^-H b`` through ``a``'s LU factors: with ``a[perm] = L U``,
    ``a^H = U^H L^H P``."""
    packed, _, permutation = bind(Lu(), a)
    y = triangular_solve(triangle(packed, lower=False), b, left_side=True, lower=False, transpose_a=True, conjugate_a=True)
    z = triangular_solve(
        triangle(packed, lower=True), y, left_side=True, lower=True, transpose_a=True, conjugate_a=True, unit_diagonal=True
    )
    return _put_rows(z, permutation)


def _put_rows(z: Array, permutation: Array) -> Array:
    """``x`` with ``x[..., permutation, :] == z``."""
    batch = permutation.shape[:-1]
    size = permutation.shape[-1]
    shape = (*batch, size, size)
    # one_hot[j, i] = (permutation[i] == j): the transpose of take_rows'.
    chosen = broadcast_in_dim(permutation, shape, (*range(len(batch)), len(batch) + 1))
    one_hot = eq(chosen, broadcasted_iota(_I32, shape, len(batch)))
    return batch_matmul(convert_to(one_hot, z.dtype, weak_type=False), z)


def _wide_qr_tangents(q: Array, r: Array, x: Array, dx: Array) -> tuple[Array, Array]:
    """``m < n``: ``x = [x1 x2]``, ``r = [r1 r2]``; ``x1 = q r1`` is a square
    QR, and ``r2 = q^H x2`` gives ``dr2 = dq^H x2 + q^H dx2``."""
    m, n = x.shape[-2:]
    dq, dr1 = _thin_qr_tangents(q, slice_matrix(r, (0, m), (0, m)), slice_matrix(dx, (0, m), (0, m)))
    x2 = slice_matrix(x, (0, m), (m, n))
    dx2 = slice_matrix(dx, (0, m), (m, n))
    dr2 = add(batch_matmul(hermitian_transpose(dq), x2), batch_matmul(hermitian_transpose(q), dx2))
    return dq, concatenate([dr1, dr2], dr1.ndim - 1)


@overload
def qr(
    x: ArrayLike, *, pivoting: Literal[False] = False, full_matrices: bool = True, use_magma: bool | None = None
) -> tuple[Array, Array]: ...
@overload
def qr(
    x: ArrayLike, *, pivoting: Literal[True], full_matrices: bool = True, use_magma: bool | None = None
) -> tuple[Array, Array, Array]: ...
@overload
def qr(
    x: ArrayLike, *, pivoting: bool, full_matrices: bool = True, use_magma: bool | None = None
) -> tuple[Array, Array] | tuple[Array, Array, Array]: ...
def qr(
    x: ArrayLike, *, pivoting: bool = False, full_matrices: bool = True, use_magma: bool | None = None
) -> tuple[Array, Array] | tuple[Array, Array, Array]:
    """QR decomposition of a (batch of) matrices (JAX's ``lax.linalg.qr``):
    ``(q, r)``, or ``(q, r, p)`` with ``x[..., :, p] == q @ r`` when
    ``pivoting``. ``full_matrices=False`` gives the reduced ``q``
    (``[..., m, min(m, n)]``) and ``r`` (``[..., min(m, n), n]``)."""
    a = as_operand(x, "lax.linalg.qr x")
    outs = bind(Qr(bool(pivoting), bool(full_matrices), use_magma), a)
    if pivoting:
        q, r, p = outs
        return q, r, p
    q, r = outs
    return q, r
