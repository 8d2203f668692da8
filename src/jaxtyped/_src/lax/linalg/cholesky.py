"""Cholesky factorisation and triangular solves (layer L4): the primitives
``cholesky`` (LAPACK ``potrf``) and ``triangular_solve`` (LAPACK ``trsm``)
with JAX's ``jax.lax.linalg`` wrappers, and ``cholesky_update`` and
``symmetric_product`` built from them and other lax ops.

As in JAX, the ``cholesky`` primitive leaves the upper triangle of its
result unspecified (``potrf`` leaves the input there) and the wrapper masks
it to zero; a batch entry that is not positive definite comes out NaN.
"""

import dataclasses
from dataclasses import dataclass
from typing import Any, Final, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import LinearArg, Primitive, Tangent
from jaxtyped._src.errors import DTypeMismatchError, JaxtypedTypeError, JaxtypedValueError, MissingRuleError
from jaxtyped._src.lax.arithmetic import add, div, mul, neg, sub
from jaxtyped._src.lax.comparison import eq, ge
from jaxtyped._src.lax.complex_ops import conj
from jaxtyped._src.lax.convenience import batch_matmul
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.linalg.base import (
    BatchedOverLeadingDims,
    DeviceEvaluated,
    char_attr,
    info_ok,
    lapack_call,
    where_ok,
)
from jaxtyped._src.lax.structural import (
    bdim_to_front,
    broadcast_in_dim,
    broadcasted_iota,
    expand_dims,
    instantiate,
    moveaxis,
    reshape,
    select_n,
    squeeze,
    transpose,
    zeros,
)
from jaxtyped._src.lax.util import check_arity, as_operand, scalar_like

__all__ = [
    "Cholesky",
    "TriangularSolve",
    "cholesky",
    "triangular_solve",
    "cholesky_update",
    "symmetric_product",
    "matrix_transpose",
    "hermitian_transpose",
    "triangle",
    "check_rank_at_least_2",
]

# The element types LAPACK's kernels take; narrower floats have no kernel.
_LAPACK_TYPES: Final[frozenset[np.dtype[Any]]] = frozenset(
    np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128)
)


# === matrix helpers (shared with the other linalg modules) ===


def matrix_transpose(x: Array) -> Array:
    """``x`` with its last two axes swapped."""
    perm = (*range(x.ndim - 2), x.ndim - 1, x.ndim - 2)
    return transpose(x, perm)


def hermitian_transpose(x: Array) -> Array:
    """The conjugate transpose of the trailing matrices (the transpose for
    real ``x``: ``lax.conj`` would make a real input complex)."""
    swapped = matrix_transpose(x)
    return conj(swapped) if dtypes.is_complex(x.dtype) else swapped


def triangle(x: Array, *, lower: bool, k: int = 0) -> Array:
    """The lower (``j <= i + k``) or upper (``j >= i + k``) triangle of the
    trailing matrices of ``x``, zero elsewhere (NumPy's ``tril``/``triu``)."""
    m, n = x.shape[-2], x.shape[-1]
    rows = broadcasted_iota(np.int32, (m, n), 0)
    cols = broadcasted_iota(np.int32, (m, n), 1)
    shifted = add(rows, scalar_like(k, np.dtype(np.int32), "triangle"))
    keep = ge(shifted, cols) if lower else ge(cols, shifted)
    mask = broadcast_in_dim(keep, x.shape, (x.ndim - 2, x.ndim - 1))
    return select_n(mask, zeros(x.aval.strip_weak_type()), x)


def check_rank_at_least_2(name: str, avals: tuple[ShapedArray, ...]) -> None:
    """Raise (a TypeError, as JAX) unless every operand is a (batch of)
    matrices."""
    for i, aval in enumerate(avals):
        if aval.ndim < 2:
            raise JaxtypedTypeError(f"{name}: operand {i} must have rank at least 2 (a batch of matrices), got {aval.str_short()}")


def _check_lapack_dtype(name: str, aval: ShapedArray, i: int = 0) -> None:
    if not dtypes.is_inexact(aval.dtype):
        raise JaxtypedTypeError(
            f"{name}: operand {i} must be floating or complex (float32, float64, complex64, complex128), got {aval.str_short()}"
        )


def _diagonal_mask(x: Array) -> Array:
    m, n = x.shape[-2], x.shape[-1]
    on_diagonal = eq(broadcasted_iota(np.int32, (m, n), 0), broadcasted_iota(np.int32, (m, n), 1))
    return broadcast_in_dim(on_diagonal, x.shape, (x.ndim - 2, x.ndim - 1))


# === cholesky ===


@final
@dataclass(frozen=True, slots=True)
class Cholesky(DeviceEvaluated, BatchedOverLeadingDims):
    """The lower Cholesky factor ``L`` of each Hermitian positive-definite
    matrix (``a = L L^H``), read from the lower triangle of ``a``; the upper
    triangle of the result is unspecified, and entries that are not
    positive definite are NaN."""

    name = "cholesky"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 1)
        check_rank_at_least_2(self.name, avals)
        (x,) = avals
        _check_lapack_dtype(self.name, x)
        if x.dtype not in _LAPACK_TYPES:
            # JAX's kind of error (NotImplementedError) for the types LAPACK lacks.
            raise MissingRuleError(
                f"cholesky: no LAPACK kernel for {x.dtype.name} (operand {x.str_short()}); "
                "use float32, float64, complex64 or complex128"
            )
        if x.shape[-1] != x.shape[-2]:
            raise JaxtypedValueError(f"cholesky: the input must be a (batch of) square matrices, got {x.str_short()}")
        return (x.strip_weak_type(),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (x,), (out,) = args, out_avals
        if 0 in out.shape:
            return (x,)
        info = ShapedArray(out.shape[:-2], np.dtype(np.int32))
        factor, status = lapack_call(
            ctx, "potrf", [(x, "matrix")], [(out, "matrix"), (info, "vector")], {"uplo": char_attr("L")}, aliases={0: 0}
        )
        return (where_ok(ctx, info_ok(ctx, status), factor),)

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # With a = L L^H and a tangent s: dL = L phi(L^-1 s L^-H), phi
        # taking the lower triangle with the diagonal halved. Like JAX, the
        # tangent is used as given (exact for Hermitian tangents, which the
        # wrapper's symmetrisation makes).
        (x,), (t,) = primals, tangents
        out = bind1(self, x)
        factor = triangle(out, lower=True)
        tangent = instantiate(t)
        right = triangular_solve(factor, tangent, left_side=False, lower=True, transpose_a=True, conjugate_a=True)
        inner = triangular_solve(factor, right, left_side=True, lower=True)
        lower = triangle(inner, lower=True)
        halved = select_n(_diagonal_mask(lower), lower, mul(lower, scalar_like(0.5, lower.dtype, "cholesky jvp")))
        return (out,), (batch_matmul(factor, halved),)


def _symmetrize(x: Array) -> Array:
    # JAX symmetrises with ``(x + x^H) / 2`` in jnp's true division, so an
    # integer input becomes the default float type first.
    if x.ndim < 2:
        raise JaxtypedTypeError(f"lax.linalg.cholesky: x must have rank at least 2 (a batch of matrices), got {x.aval.str_short()}")
    if x.shape[-1] != x.shape[-2]:
        raise JaxtypedTypeError(f"lax.linalg.cholesky: x must be a (batch of) square matrices, got {x.aval.str_short()}")
    if not dtypes.is_inexact(x.dtype):
        x = convert_to(x, dtypes.default_float_dtype(), weak_type=x.weak_type)
    return div(add(x, hermitian_transpose(x)), scalar_like(2, x.dtype, "lax.linalg.cholesky"))


def cholesky(x: ArrayLike, *, symmetrize_input: bool = True) -> Array:
    """The lower Cholesky factor of each Hermitian positive-definite matrix
    in ``x`` (JAX's ``lax.linalg.cholesky``); NaN for entries that are not
    positive definite. ``symmetrize_input`` uses ``(x + x^H) / 2``, else
    only the lower triangle of ``x`` is read."""
    array = as_operand(x, "lax.linalg.cholesky x")
    if symmetrize_input:
        array = _symmetrize(array)
    return triangle(bind1(Cholesky(), array), lower=True)


# === triangular_solve ===


def _conjugated(m: Array) -> list[Array]:
    return [conj(m)]


def _transposing_char(transpose_a: bool, conjugate: bool) -> str:
    if not transpose_a:
        return "N"
    return "C" if conjugate else "T"


@final
@dataclass(frozen=True, slots=True)
class TriangularSolve(DeviceEvaluated):
    """Solve ``op(a) x = b`` (``left_side``) or ``x op(a) = b`` for ``x``,
    ``a`` a (batch of) triangular matrices read from its ``lower`` or upper
    triangle, ``op`` a transpose and/or conjugation, with an implicit unit
    diagonal if ``unit_diagonal``."""

    left_side: bool = False
    # JAX's parameter ``lower`` (a field cannot share the name of the
    # ``lower`` rule); ``params`` reports it under JAX's name.
    lower_triangle: bool = False
    transpose_a: bool = False
    conjugate_a: bool = False
    unit_diagonal: bool = False
    name = "triangular_solve"

    @override
    def params(self) -> tuple[tuple[str, object], ...]:
        renamed = (("lower" if k == "lower_triangle" else k, v) for k, v in Primitive.params(self))
        return tuple(sorted(renamed))

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 2)
        check_rank_at_least_2(self.name, avals)
        a, b = avals
        for i, aval in enumerate(avals):
            _check_lapack_dtype(self.name, aval, i)
        if a.dtype != b.dtype:
            raise DTypeMismatchError(
                f"triangular_solve: a and b must have the same dtype, got {a.str_short()} and {b.str_short()}"
            )
        if a.shape[-1] != a.shape[-2]:
            raise JaxtypedValueError(f"triangular_solve: a must be a (batch of) square matrices, got {a.str_short()}")
        if a.ndim != b.ndim:
            raise JaxtypedTypeError(
                f"triangular_solve: a and b must have the same number of batch dimensions, got {a.str_short()} and {b.str_short()}"
            )
        common = b.shape[-2] if self.left_side else b.shape[-1]
        if a.shape[:-2] != b.shape[:-2] or common != a.shape[-1]:
            side = "b.shape[-2]" if self.left_side else "b.shape[-1]"
            raise JaxtypedValueError(
                f"triangular_solve: incompatible shapes {a.str_short()} and {b.str_short()} "
                f"(batch dimensions must agree and {side} must equal the order of a)"
            )
        return (b.strip_weak_type(),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (a, b), (out,) = args, out_avals
        if 0 in out.shape:
            return (b,)
        dtype = a.aval.dtype
        conjugate = self.conjugate_a and dtypes.is_complex(dtype)
        if dtype not in _LAPACK_TYPES:
            # float16 and bfloat16 (real): XLA's own solver, as JAX on CPU.
            kind = "TRANSPOSE" if self.transpose_a else "NO_TRANSPOSE"
            attrs = {
                "left_side": str(self.left_side).lower(),
                "lower": str(self.lower_triangle).lower(),
                "unit_diagonal": str(self.unit_diagonal).lower(),
                "transpose_a": f"#stablehlo<transpose {kind}>",
            }
            return (ctx.op1("stablehlo.triangular_solve", (a, b), out, attrs),)
        if conjugate and not self.transpose_a:
            # trsm conjugates only together with the transpose ('C').
            (a,) = ctx.lower_fun(_conjugated, [a])
        attrs = {
            "side": char_attr("L" if self.left_side else "R"),
            "uplo": char_attr("L" if self.lower_triangle else "U"),
            "trans_x": char_attr(_transposing_char(self.transpose_a, conjugate)),
            "diag": char_attr("U" if self.unit_diagonal else "N"),
        }
        # The solution overwrites b's buffer, as LAPACK's trsm does in place.
        return lapack_call(ctx, "trsm", [(a, "matrix"), (b, "matrix")], [(out, "matrix")], attrs, aliases={0: 1})

    def _op(self, m: Array) -> Array:
        """``op(m)``: ``m`` transposed and/or conjugated as this solve
        applies ``a``."""
        if self.transpose_a:
            m = matrix_transpose(m)
        if self.conjugate_a and dtypes.is_complex(m.dtype):
            m = conj(m)
        return m

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # op(a) x = b gives op(da) x + op(a) dx = db: dx = solve(a, db - op(da) x)
        # (x op(a) = b likewise on the right), da restricted to the
        # triangle the solve reads.
        (a, b), (ta, tb) = primals, tangents
        x = bind1(self, a, b)
        rhs: Array | None = None if isinstance(tb, Zero) else tb
        if not isinstance(ta, Zero):
            k = 1 if self.unit_diagonal else 0
            da = self._op(triangle(ta, lower=self.lower_triangle, k=-k if self.lower_triangle else k))
            change = batch_matmul(da, x) if self.left_side else batch_matmul(x, da)
            rhs = neg(change) if rhs is None else sub(rhs, change)
        assert rhs is not None
        return (x,), (bind1(self, a, rhs),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # Linear in b: x = op(a)^-1 b, so b's cotangent is op(a)^-T ct, a
        # solve with the transpose flag flipped (the conjugation kept).
        (ct,), (a, b) = cts, args
        assert isinstance(b, UndefinedPrimal) and not isinstance(a, UndefinedPrimal)
        if isinstance(ct, Zero):
            return (None, Zero(b.aval))
        flipped = dataclasses.replace(self, transpose_a=not self.transpose_a)
        return (None, bind1(flipped, a, ct))

    @override
    def batch(
        self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]
    ) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (a, b), (da, db) = args, dims
        if da is None and db is not None:
            # One a for every b: fold the batch into b's free dimension (the
            # columns on the left side, the rows on the right) and solve once.
            rank = b.ndim
            target = rank - 1 if self.left_side else rank - 3
            moved = moveaxis(b, db, target)
            shape = moved.shape
            if self.left_side:
                folded = reshape(moved, (*shape[:-3], shape[-3], shape[-2] * shape[-1]))
            else:
                folded = reshape(moved, (*shape[:-3], shape[-3] * shape[-2], shape[-1]))
            solved = bind1(self, a, folded)
            return (reshape(solved, shape),), (target,)
        out = bind1(self, bdim_to_front(a, da, axis.size), bdim_to_front(b, db, axis.size))
        return (out,), (0,)


def triangular_solve(
    a: ArrayLike,
    b: ArrayLike,
    *,
    left_side: bool = False,
    lower: bool = False,
    transpose_a: bool = False,
    conjugate_a: bool = False,
    unit_diagonal: bool = False,
) -> Array:
    """Solve ``op(a) @ x = b`` (``left_side=True``) or ``x @ op(a) = b``
    for a triangular ``a`` (JAX's ``lax.linalg.triangular_solve``); ``op``
    transposes if ``transpose_a`` and conjugates if ``conjugate_a``. A ``b``
    with one dimension fewer than ``a`` is a (batch of) vectors."""
    a_ = as_operand(a, "lax.linalg.triangular_solve a")
    b_ = as_operand(b, "lax.linalg.triangular_solve b")
    prim = TriangularSolve(
        left_side=bool(left_side),
        lower_triangle=bool(lower),
        transpose_a=bool(transpose_a),
        conjugate_a=bool(conjugate_a),
        unit_diagonal=bool(unit_diagonal),
    )
    if a_.ndim >= 2 and b_.ndim == a_.ndim - 1:
        axis = b_.ndim if left_side else b_.ndim - 1
        return squeeze(bind1(prim, a_, expand_dims(b_, (axis,))), (axis,))
    return bind1(prim, a_, b_)


# === built from the primitives ===


def cholesky_update(r_matrix: ArrayLike, w_vector: ArrayLike) -> Array:
    """The upper Cholesky factor of ``R^H R + w w^H`` given the upper
    factor ``R`` (JAX's ``lax.linalg.cholesky_update``; here refactored
    from the updated product, which is differentiable)."""
    r = as_operand(r_matrix, "lax.linalg.cholesky_update r_matrix")
    w = as_operand(w_vector, "lax.linalg.cholesky_update w_vector")
    if r.ndim != 2 or w.ndim != 1:
        raise JaxtypedTypeError(
            "lax.linalg.cholesky_update: r_matrix must have rank 2 and w_vector rank 1, "
            f"got {r.aval.str_short()} and {w.aval.str_short()}"
        )
    _check_real_floating("lax.linalg.cholesky_update", r, w)
    if r.shape[0] != r.shape[1] or w.shape != r.shape[:1]:
        raise JaxtypedValueError(
            "lax.linalg.cholesky_update: r_matrix must be a square matrix and w_vector a vector of its order, "
            f"got {r.aval.str_short()} and {w.aval.str_short()}"
        )
    column = expand_dims(w, (1,))
    updated = add(batch_matmul(hermitian_transpose(r), r), batch_matmul(column, hermitian_transpose(column)))
    return hermitian_transpose(cholesky(updated, symmetrize_input=False))


def _check_real_floating(name: str, *xs: Array) -> None:
    # JAX defines these two for real floating types only.
    for x in xs:
        if not dtypes.is_floating(x.dtype):
            raise JaxtypedTypeError(f"{name}: operands must be real floating, got {x.aval.str_short()}")
    if len({x.dtype for x in xs}) != 1:
        raise DTypeMismatchError(f"{name}: operands must have the same dtype, got " + ", ".join(x.aval.str_short() for x in xs))


def symmetric_product(
    a_matrix: ArrayLike,
    c_matrix: ArrayLike,
    *,
    alpha: float = 1.0,
    beta: float = 0.0,
    symmetrize_output: bool = False,
) -> Array:
    """``alpha * a @ a^T + beta * c`` (JAX's ``lax.linalg.symmetric_product``);
    ``symmetrize_output`` fills the upper triangle from the lower."""
    a = as_operand(a_matrix, "lax.linalg.symmetric_product a_matrix")
    c = as_operand(c_matrix, "lax.linalg.symmetric_product c_matrix")
    check_rank_at_least_2("lax.linalg.symmetric_product", (a.aval, c.aval))
    _check_real_floating("lax.linalg.symmetric_product", a, c)
    rows = a.shape[-2]
    if c.shape[-2:] != (rows, rows) or a.shape[:-2] != c.shape[:-2]:
        raise JaxtypedValueError(
            "lax.linalg.symmetric_product: c_matrix must be (batch of) square matrices of order a_matrix.shape[-2], "
            f"got {a.aval.str_short()} and {c.aval.str_short()}"
        )
    product = batch_matmul(a, matrix_transpose(a))
    out = add(
        mul(scalar_like(alpha, product.dtype, "lax.linalg.symmetric_product alpha"), product),
        mul(scalar_like(beta, c.dtype, "lax.linalg.symmetric_product beta"), c),
    )
    if symmetrize_output:
        low = triangle(out, lower=True)
        strict = triangle(out, lower=True, k=-1)
        out = add(low, matrix_transpose(strict))
    return out
