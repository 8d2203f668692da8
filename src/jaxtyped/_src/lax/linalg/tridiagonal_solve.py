"""Tridiagonal solves (layer L4): the primitive ``tridiagonal_solve``
(LAPACK ``gtsv``; with ``perturb_singular``, jaxlib's perturbed Thomas
kernel) and JAX's ``lax.linalg.tridiagonal_solve`` wrapper.

The matrix is given by its three diagonals, each of length ``m``: ``dl``
below (``dl[0]`` is ignored), ``d`` on and ``du`` above the diagonal
(``du[m-1]`` is ignored), so row ``i`` of ``A x`` is
``dl[i] x[i-1] + d[i] x[i] + du[i] x[i+1]``.
"""

from dataclasses import dataclass
from typing import final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import LinearArg, Tangent
from jaxtyped._src.errors import DTypeMismatchError, JaxtypedTypeError, MissingRuleError
from jaxtyped._src.lax.arithmetic import mul, neg, sub
from jaxtyped._src.lax.linalg.base import BatchedOverLeadingDims, DeviceEvaluated, Layout, info_ok, lapack_call, where_ok
from jaxtyped._src.lax.structural import broadcast_in_dim, moveaxis, pad, reshape
from jaxtyped._src.lax.util import check_arity, as_operand, scalar_like

__all__ = ["TridiagonalSolve", "tridiagonal_solve"]

_PERTURBED_TARGET = "tridiagonal_solve_perturbed_ffi"


def _shift(x: Array, axis: int, by: int) -> Array:
    """``x`` moved ``by`` places along ``axis`` (positive: towards higher
    indices), zero-filled, same shape."""
    config = [(0, 0, 0)] * x.ndim
    config[axis] = (by, -by, 0)
    return pad(x, scalar_like(0, x.dtype, "tridiagonal_solve"), config)


@final
@dataclass(frozen=True, slots=True)
class TridiagonalSolve(DeviceEvaluated, BatchedOverLeadingDims):
    """Solve ``A x = b`` for ``x``, ``A`` tridiagonal with diagonals
    ``dl``, ``d``, ``du`` (``[..., m]``) and ``b`` of shape ``[..., m, n]``;
    NaN for batch entries LAPACK finds singular, unless
    ``perturb_singular`` (then zero pivots are perturbed, as JAX)."""

    perturb_singular: bool = False
    name = "tridiagonal_solve"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 4)
        dl, d, du, b = avals
        for i, aval in enumerate(avals):
            if aval.ndim < (2 if i == 3 else 1):
                raise JaxtypedTypeError(
                    f"tridiagonal_solve: operand {i} must have rank at least {2 if i == 3 else 1}, got {aval.str_short()}"
                )
        if len({aval.dtype for aval in avals}) != 1:
            raise DTypeMismatchError(
                "tridiagonal_solve: dl, d, du and b must have the same dtype, got "
                + ", ".join(aval.str_short() for aval in avals)
            )
        if not dtypes.is_inexact(b.dtype):
            raise JaxtypedTypeError(f"tridiagonal_solve: operands must be floating or complex, got {b.str_short()}")
        if b.dtype.itemsize < 4:
            # JAX's kind of error (NotImplementedError) for the types LAPACK lacks.
            raise MissingRuleError(
                f"tridiagonal_solve: no LAPACK kernel for {b.dtype.name}; use float32, float64, complex64 or complex128"
            )
        if len({dl.ndim, d.ndim, du.ndim, b.ndim - 1}) != 1:
            raise JaxtypedTypeError(
                "tridiagonal_solve: dl, d, du and b must have the same number of batch dimensions, got "
                + ", ".join(aval.str_short() for aval in avals)
            )
        if dl.shape != d.shape or du.shape != d.shape:
            raise JaxtypedTypeError(
                f"tridiagonal_solve: the diagonals must have the same shape, got {dl.str_short()}, {d.str_short()}, {du.str_short()}"
            )
        if b.shape[:-1] != d.shape:
            raise JaxtypedTypeError(
                f"tridiagonal_solve: b.shape[:-1] must equal the diagonals' shape, got {b.str_short()} and {d.str_short()}"
            )
        return (b.strip_weak_type(),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (out,) = out_avals
        b = args[3]
        if 0 in out.shape:
            return (b,)
        if self.perturb_singular:
            text = {
                "call_target_name": f'"{_PERTURBED_TARGET}"',
                "api_version": "4 : i32",
                "backend_config": "{}",
                "operand_layouts": "[" + ", ".join(_layout(a.aval.ndim, i == 3) for i, a in enumerate(args)) + "]",
                "result_layouts": "[" + _layout(out.ndim, True) + "]",
            }
            return ctx.op("stablehlo.custom_call", list(args), [out], text)
        diagonals: list[tuple[HloValue, Layout]] = [(a, "vector") for a in args[:3]]
        results: list[tuple[ShapedArray, Layout]] = [(a.aval.strip_weak_type(), "vector") for a in args[:3]]
        info = ShapedArray(out.shape[:-2], np.dtype(np.int32))
        outs = lapack_call(
            ctx,
            "gtsv",
            [*diagonals, (b, "matrix")],
            [*results, (out, "matrix"), (info, "vector")],
            aliases={0: 0, 1: 1, 2: 2, 3: 3},
        )
        return (where_ok(ctx, info_ok(ctx, outs[4]), outs[3]),)

    @override
    def batch(
        self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]
    ) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        b, dim = args[3], dims[3]
        if dim is None or any(d is not None for d in dims[:3]):
            return BatchedOverLeadingDims.batch(self, axis, args, dims)
        # One matrix for every b: fold the batch into b's columns and solve once.
        last = b.ndim - 1
        moved = moveaxis(b, dim, last)
        shape = moved.shape
        folded = reshape(moved, (*shape[:-2], shape[-2] * shape[-1]))
        solved = bind1(self, *args[:3], folded)
        return (reshape(solved, shape),), (last,)

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # A x = b gives dA x + A dx = db: dx = solve(db - dA x), where
        # (dA x)[i] = ddl[i] x[i-1] + dd[i] x[i] + ddu[i] x[i+1].
        dl, d, du, b = primals
        x = bind1(self, dl, d, du, b)
        rows = x.ndim - 2
        neighbours = (_shift(x, rows, 1), x, _shift(x, rows, -1))
        rhs: Array | None = None if isinstance(tangents[3], Zero) else tangents[3]
        for t, xs in zip(tangents[:3], neighbours, strict=True):
            if isinstance(t, Zero):
                continue
            change = mul(broadcast_in_dim(t, xs.shape, tuple(range(t.ndim))), xs)
            rhs = neg(change) if rhs is None else sub(rhs, change)
        assert rhs is not None
        return (x,), (bind1(self, dl, d, du, rhs),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # Linear in b: its cotangent solves with A^T, whose sub-diagonal is
        # du moved down a row and whose super-diagonal is dl moved up.
        (ct,), (dl, d, du, b) = cts, args
        assert isinstance(b, UndefinedPrimal)
        assert not isinstance(dl, UndefinedPrimal) and not isinstance(d, UndefinedPrimal) and not isinstance(du, UndefinedPrimal)
        if isinstance(ct, Zero):
            return (None, None, None, Zero(b.aval))
        axis = d.ndim - 1
        if d.shape[axis] == 0:
            return (None, None, None, ct)
        return (None, None, None, bind1(self, _shift(du, axis, 1), d, _shift(dl, axis, -1), ct))


def _layout(rank: int, matrix: bool) -> str:
    """The kernels' layout attribute: column-major matrices (LAPACK), else
    row-major."""
    if rank == 0:
        return "dense<> : tensor<0xindex>"
    if matrix:
        order = [rank - 2, rank - 1, *range(rank - 3, -1, -1)]
    else:
        order = list(range(rank - 1, -1, -1))
    return f"dense<[{', '.join(map(str, order))}]> : tensor<{rank}xindex>"


def tridiagonal_solve(dl: ArrayLike, d: ArrayLike, du: ArrayLike, b: ArrayLike, *, perturb_singular: bool = False) -> Array:
    """Solve the tridiagonal system with diagonals ``dl`` (below; ``dl[0]``
    ignored), ``d`` and ``du`` (above; ``du[-1]`` ignored) for the
    right-hand sides ``b`` of shape ``[..., m, n]`` (JAX's
    ``lax.linalg.tridiagonal_solve``). Singular systems give NaN unless
    ``perturb_singular``."""
    args = [as_operand(x, f"lax.linalg.tridiagonal_solve {n}") for x, n in ((dl, "dl"), (d, "d"), (du, "du"), (b, "b"))]
    return bind1(TridiagonalSolve(bool(perturb_singular)), *args)

