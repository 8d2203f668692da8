"""``hessenberg`` and ``tridiagonal``: reductions of a square matrix by
Householder similarity transforms, through LAPACK's ``gehrd`` and
``sytrd``/``hetrd`` on CPU (layer L4).

The outputs are LAPACK's packed forms, as in JAX: the reduced matrix with
the Householder vectors stored below (or, for ``tridiagonal(lower=False)``,
above) it, and the reflectors' scalar factors ``taus``. As in JAX neither
has a derivative rule.
"""

from dataclasses import dataclass
from typing import Any, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import Tangent
from jaxtyped._src.errors import JaxtypedValueError, MissingRuleError
from jaxtyped._src.lax.linalg.base import (
    BatchedOverLeadingDims,
    DeviceEvaluated,
    char_attr,
    info_ok,
    lapack_call,
    where_ok,
)
from jaxtyped._src.lax.linalg.eig import check_lapack_square, matrix_avals_like
from jaxtyped._src.lax.util import as_operand

__all__ = ["Hessenberg", "Tridiagonal", "hessenberg", "tridiagonal"]


def _real_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """float32 for float32/complex64, float64 for float64/complex128."""
    return np.dtype(dtypes.finfo(dtype).dtype)


@final
@dataclass(frozen=True, slots=True)
class Hessenberg(DeviceEvaluated, BatchedOverLeadingDims):
    """Upper Hessenberg reduction of a batch of square matrices (LAPACK
    ``gehrd``): ``(a, taus)``, the Hessenberg matrix on and above the first
    subdiagonal of ``a`` and the Householder vectors below it; ``taus`` has
    ``n - 1`` entries. NaN where LAPACK fails."""

    name = "hessenberg"
    several_results = True

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (a,) = avals
        check_lapack_square("hessenberg", a)
        n = a.shape[-1]
        if n == 0:
            raise JaxtypedValueError(f"hessenberg: argument a must have at least one row, got {a.str_short()}")
        return matrix_avals_like(a, (n, n), a.dtype), matrix_avals_like(a, (n - 1,), a.dtype)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (a,) = args
        batch, n = a.aval.shape[:-2], a.aval.shape[-1]
        # The whole matrix is reduced: LAPACK's 1-based ilo = 1, ihi = n.
        attrs = {"low": "1 : i32", "high": f"{n} : i32"}
        packed, taus, status = lapack_call(
            ctx, "gehrd", [(a, "matrix")],
            [(ShapedArray(a.aval.shape, a.aval.dtype), "matrix"), (ShapedArray((*batch, n - 1), a.aval.dtype), "vector"),
             (ShapedArray(batch, np.dtype(np.int32)), "vector")],
            attrs, aliases={0: 0},
        )  # fmt: skip
        ok = info_ok(ctx, status)
        return where_ok(ctx, ok, packed), where_ok(ctx, ok, taus)

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        raise MissingRuleError("jvp: primitive 'hessenberg' has no differentiation rule (nor has it in JAX)")


@final
@dataclass(frozen=True, slots=True)
class Tridiagonal(DeviceEvaluated, BatchedOverLeadingDims):
    """Tridiagonal reduction of a batch of symmetric/Hermitian matrices,
    reading the ``lower`` (or upper) triangle only (LAPACK ``sytrd`` /
    ``hetrd``): ``(a, d, e, taus)``, the packed result, the (real)
    diagonal ``d``, the (real) off-diagonal ``e`` and the reflectors'
    factors ``taus``. NaN where LAPACK fails."""

    name = "tridiagonal"
    several_results = True
    # JAX's parameter ``lower``: a field cannot share the name of the
    # lowering rule, so params() reports it under JAX's name.
    lower_triangle: bool = True

    @override
    def params(self) -> tuple[tuple[str, object], ...]:
        return (("lower", self.lower_triangle),)

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (a,) = avals
        check_lapack_square("tridiagonal", a)
        n = a.shape[-1]
        if n == 0:
            # JAX refuses an empty matrix too, with this kind of error.
            raise JaxtypedValueError(f"tridiagonal: argument a must have at least one row, got {a.str_short()}")
        real = _real_dtype(a.dtype)
        return (
            matrix_avals_like(a, (n, n), a.dtype),
            matrix_avals_like(a, (n,), real),
            matrix_avals_like(a, (n - 1,), real),
            matrix_avals_like(a, (n - 1,), a.dtype),
        )

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (a,) = args
        batch, n = a.aval.shape[:-2], a.aval.shape[-1]
        dtype = a.aval.dtype
        real = _real_dtype(dtype)
        kernel = "hetrd" if dtypes.is_complex(dtype) else "sytrd"
        outs = lapack_call(
            ctx, kernel, [(a, "matrix")],
            [(ShapedArray(a.aval.shape, dtype), "matrix"), (ShapedArray((*batch, n), real), "vector"),
             (ShapedArray((*batch, n - 1), real), "vector"), (ShapedArray((*batch, n - 1), dtype), "vector"),
             (ShapedArray(batch, np.dtype(np.int32)), "vector")],
            {"uplo": char_attr("L" if self.lower_triangle else "U")}, aliases={0: 0},
        )  # fmt: skip
        ok = info_ok(ctx, outs[-1])
        return tuple(where_ok(ctx, ok, out) for out in outs[:-1])

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        raise MissingRuleError("jvp: primitive 'tridiagonal' has no differentiation rule (nor has it in JAX)")


def hessenberg(a: ArrayLike) -> tuple[Array, Array]:
    """Reduction of a batch of square matrices to upper Hessenberg form
    (JAX's ``lax.linalg.hessenberg``; CPU only): ``(a, taus)``, the
    Hessenberg matrix on and above the first subdiagonal of ``a``, the
    Householder vectors below it, and their scalar factors ``taus``."""
    packed, taus = bind(Hessenberg(), as_operand(a, "lax.linalg.hessenberg a"))
    return packed, taus


def tridiagonal(a: ArrayLike, *, lower: bool = True) -> tuple[Array, Array, Array, Array]:
    """Reduction of a batch of symmetric/Hermitian matrices to tridiagonal
    form (JAX's ``lax.linalg.tridiagonal``), reading only the ``lower`` (or
    upper) triangle: ``(a, d, e, taus)`` — the packed result with the
    Householder vectors outside the tridiagonal band, the diagonal ``d``,
    the off-diagonal ``e`` and the reflectors' factors ``taus``."""
    packed, d, e, taus = bind(Tridiagonal(bool(lower)), as_operand(a, "lax.linalg.tridiagonal a"))
    return packed, d, e, taus
