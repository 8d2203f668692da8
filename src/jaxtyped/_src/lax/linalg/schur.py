"""``schur``: the Schur decomposition ``A = Q T Q^H`` of a general square
matrix, through LAPACK's ``gees`` on CPU (layer L4).

For real input ``T`` is the real Schur form (quasi-triangular: 2x2 blocks
on the diagonal for complex-conjugate eigenvalue pairs); for complex input
it is upper triangular. As in JAX there is no derivative rule and
``gees``'s eigenvalue sorting is not available.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal, final, overload

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import Tangent
from jaxtyped._src.errors import MissingRuleError
from jaxtyped._src.lax.linalg.base import (
    BatchedOverLeadingDims,
    DeviceEvaluated,
    Layout,
    char_attr,
    info_ok,
    lapack_call,
    where_ok,
)
from jaxtyped._src.lax.linalg.eig import check_lapack_square, complex_dtype_of
from jaxtyped._src.lax.util import as_operand

__all__ = ["Schur", "schur"]

# The eigenvalue selector ``gees`` would sort by (unused, as in JAX).
SelectCallable = Callable[..., object]


@final
@dataclass(frozen=True, slots=True)
class Schur(DeviceEvaluated, BatchedOverLeadingDims):
    """The Schur form ``T`` of a batch of square matrices and, with
    ``compute_schur_vectors``, the unitary ``Q`` with ``A = Q T Q^H``
    (LAPACK ``gees``; NaN where it fails). ``sort_eig_vals`` and
    ``select_callable`` are JAX's parameters; sorting is not implemented."""

    name = "schur"
    several_results = True
    compute_schur_vectors: bool = True
    sort_eig_vals: bool = False
    select_callable: SelectCallable | None = None

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (a,) = avals
        check_lapack_square("schur", a)
        out = ShapedArray(a.shape, a.dtype, weak_type=a.weak_type)
        return (out, out) if self.compute_schur_vectors else (out,)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        if self.sort_eig_vals:
            raise MissingRuleError("schur: the eigenvalue sorting of LAPACK's gees (sort_eig_vals=True) is not implemented")
        (a,) = args
        batch, n = a.aval.shape[:-2], a.aval.shape[-1]
        matrix = ShapedArray(a.aval.shape, a.aval.dtype)
        scalar = ShapedArray(batch, np.dtype(np.int32))
        attrs = {"mode": char_attr("V" if self.compute_schur_vectors else "N"), "sort": char_attr("N")}
        eigenvalues: list[tuple[ShapedArray, Layout]]
        if dtypes.is_complex(a.aval.dtype):
            eigenvalues = [(ShapedArray((*batch, n), complex_dtype_of(a.aval.dtype)), "vector")]
        else:
            eigenvalues = [(ShapedArray((*batch, n), a.aval.dtype), "vector")] * 2
        results = lapack_call(
            ctx, "gees", [(a, "matrix")],
            [(matrix, "matrix"), (matrix, "matrix"), *eigenvalues, (scalar, "vector"), (scalar, "vector")],
            attrs, aliases={0: 0},
        )  # fmt: skip
        t, q, status = results[0], results[1], results[-1]
        ok = info_ok(ctx, status)
        outs = (t, q) if self.compute_schur_vectors else (t,)
        return tuple(where_ok(ctx, ok, out) for out in outs)

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        raise MissingRuleError("jvp: primitive 'schur' has no differentiation rule (nor has it in JAX)")


@overload
def schur(
    x: ArrayLike,
    *,
    compute_schur_vectors: Literal[True] = True,
    sort_eig_vals: bool = False,
    select_callable: SelectCallable | None = None,
) -> tuple[Array, Array]: ...
@overload
def schur(
    x: ArrayLike,
    *,
    compute_schur_vectors: Literal[False],
    sort_eig_vals: bool = False,
    select_callable: SelectCallable | None = None,
) -> tuple[Array]: ...
@overload
def schur(
    x: ArrayLike,
    *,
    compute_schur_vectors: bool = True,
    sort_eig_vals: bool = False,
    select_callable: SelectCallable | None = None,
) -> tuple[Array, ...]: ...
def schur(
    x: ArrayLike,
    *,
    compute_schur_vectors: bool = True,
    sort_eig_vals: bool = False,
    select_callable: SelectCallable | None = None,
) -> tuple[Array, ...]:
    """Schur decomposition of a batch of square matrices (JAX's
    ``lax.linalg.schur``; CPU only): ``(T, Q)`` with ``A = Q T Q^H``, or
    ``(T,)`` without ``compute_schur_vectors``. Sorting
    (``sort_eig_vals``) raises NotImplementedError, as in JAX."""
    a = as_operand(x, "lax.linalg.schur x")
    return bind(Schur(bool(compute_schur_vectors), bool(sort_eig_vals), select_callable), a)
