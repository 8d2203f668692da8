"""The symmetric (Hermitian) eigendecomposition primitive ``eigh`` (layer L4).

``eigh(a)`` returns ``(v, w)``: the eigenvectors as the columns of ``v``
and the eigenvalues ``w`` in ascending order, real even for complex input,
with ``a = v @ diag(w) @ v^H``. Only the ``lower`` (or upper) triangle of
``a`` is read. On CPU it is LAPACK's ``syevd``/``heevd``; a batch entry
where the kernel fails is all NaN, as in JAX.

Note [eigh derivative]: with ``P = v^H da v``, the eigenvalues move by
``real(diag(P))`` and the eigenvectors by ``v @ (F * P)`` where
``F[i, j] = 1 / (w[j] - w[i])`` off the diagonal and 0 on it. ``F`` is
computed as ``1 / (I + w[j] - w[i]) - I``, so a repeated eigenvalue makes
the off-diagonal entry infinite and the eigenvector tangent inf or NaN:
these are exactly the values JAX gives there (the eigenvectors of a
repeated eigenvalue are not differentiable; the eigenvalues are). As in
JAX, the rule decomposes ``(a + a^H) / 2`` even where ``symmetrize_input``
was off, so for a non-Hermitian ``a`` the primal outputs under ``jvp``
are those of the symmetrized matrix.
"""

import enum
from dataclasses import dataclass
from typing import final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import Tangent
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.arithmetic import add, div, mul, sub
from jaxtyped._src.lax.comparison import bitwise_or
from jaxtyped._src.lax.complex_ops import real
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.convenience import batch_matmul
from jaxtyped._src.lax.elementwise_extra import reciprocal
from jaxtyped._src.lax.linalg.base import (
    BatchedOverLeadingDims,
    DeviceEvaluated,
    char_attr,
    check_inexact,
    info_ok,
    lapack_call,
    where_ok,
)
from jaxtyped._src.lax.linalg.spectral import (
    adjoint,
    as_dtype,
    diagonal,
    diagonal_mask,
    outer_difference,
    real_dtype,
    require_lapack_dtype,
)
from jaxtyped._src.lax.util import as_operand, short_types

__all__ = ["EighImplementation", "Eigh", "eigh"]


class EighImplementation(enum.Enum):
    """Eigensolver choices (JAX's names). On CPU only ``QR`` (LAPACK's
    divide and conquer, the default) is available."""

    QR = "qr"
    JACOBI = "jacobi"
    QDWH = "qdwh"


def _check_subset(name: str, subset: tuple[int, int] | None, n: int) -> int:
    """The number of eigenpairs ``subset`` selects out of ``n``."""
    if subset is None:
        return n
    lo, hi = subset
    if not 0 <= lo < hi <= n:
        raise JaxtypedValueError(f"{name}: subset_by_index must satisfy 0 <= start < end <= {n}, got {subset}")
    return hi - lo


@final
@dataclass(frozen=True, slots=True)
class Eigh(DeviceEvaluated, BatchedOverLeadingDims):
    """Eigenvectors ``v`` and ascending eigenvalues ``w`` of (a batch of)
    symmetric or Hermitian matrices, reading the ``lower`` triangle (or
    the upper one)."""

    # JAX's parameter ``lower``: the field cannot share the name of the
    # lowering rule, so params() reports it under JAX's name.
    lower_triangle: bool = True
    sort_eigenvalues: bool = True
    subset_by_index: tuple[int, int] | None = None
    algorithm: EighImplementation | None = None
    name = "eigh"
    several_results = True

    @override
    def params(self) -> tuple[tuple[str, object], ...]:
        return (
            ("algorithm", self.algorithm),
            ("lower", self.lower_triangle),
            ("sort_eigenvalues", self.sort_eigenvalues),
            ("subset_by_index", self.subset_by_index),
        )

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if len(avals) != 1:
            raise JaxtypedTypeError(f"eigh takes 1 operand, got ({short_types(avals)})")
        (a,) = avals
        if a.ndim < 2:
            raise JaxtypedTypeError(f"eigh: operand must have rank at least 2, got {a.str_short()}")
        check_inexact("eigh", a)
        if a.shape[-1] != a.shape[-2]:
            raise JaxtypedValueError(f"eigh: operand must be a (batch of) square matrices [..., n, n], got {a.str_short()}")
        n = a.shape[-1]
        k = _check_subset("eigh", self.subset_by_index, n)
        return (
            ShapedArray((*a.shape[:-1], k), a.dtype, a.weak_type),
            ShapedArray((*a.shape[:-2], k), real_dtype(a.dtype), a.weak_type),
        )

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        (a,) = args
        require_lapack_dtype("eigh", a.aval.dtype)
        n = a.aval.shape[-1]
        if self.algorithm not in (None, EighImplementation.QR):
            raise JaxtypedNotImplementedError(f"eigh: the {self.algorithm} implementation is not supported on CPU")
        if self.subset_by_index not in (None, (0, n)):
            raise JaxtypedNotImplementedError("eigh: subset_by_index is not supported on CPU (as in JAX)")
        if any(d == 0 for d in a.aval.shape):
            return tuple(ctx.broadcast_in_dim(ctx.scalar(0, o.dtype), o.shape, ()) for o in out_avals)
        kernel = "heevd" if dtypes.is_complex(a.aval.dtype) else "syevd"
        info = ShapedArray(a.aval.shape[:-2], np.dtype(np.int32))
        v, w, status = lapack_call(
            ctx,
            kernel,
            [(a, "matrix")],
            [(out_avals[0], "matrix"), (out_avals[1], "vector"), (info, "vector")],
            {"mode": char_attr("V"), "uplo": char_attr("L" if self.lower_triangle else "U")},
            aliases={0: 0},
        )
        ok = info_ok(ctx, status)
        return where_ok(ctx, ok, v), where_ok(ctx, ok, w)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # See Note [eigh derivative].
        (a,) = primals
        (da,) = tangents
        assert isinstance(da, Array)  # the only operand, so its tangent is not zero
        # JAX's rule decomposes the symmetrized input: the primal outputs of
        # a jvp differ from eigh's own where the input is not Hermitian.
        v, w = bind(self, _symmetrized(a))
        projected = batch_matmul(adjoint(v), batch_matmul(da, v))
        real_eye = as_dtype(diagonal_mask(projected.shape), w.dtype)
        gaps = reciprocal(add(real_eye, outer_difference(w)))
        inverse_gaps = sub(gaps, real_eye)
        dv = batch_matmul(v, mul(as_dtype(inverse_gaps, a.dtype), projected))
        diag = diagonal(projected)
        dw = real(diag) if dtypes.is_complex(diag.dtype) else diag
        return (v, w), (dv, dw)


def _symmetrized(x: Array) -> Array:
    """``(x + x^H) / 2``; integer and boolean matrices become floating point
    first as JAX's true division makes them (booleans add as ``or``)."""
    if dtypes.is_bool(x.dtype):
        summed = convert_to(bitwise_or(x, adjoint(x)), dtypes.default_float_dtype(), weak_type=True)
    elif dtypes.is_integer(x.dtype):
        wide = x.dtype.itemsize == 8
        inexact = dtypes.canonicalize_dtype(np.dtype(np.float64 if wide else np.float32))
        summed = convert_to(add(x, adjoint(x)), inexact, weak_type=False)
    else:
        summed = add(x, adjoint(x))
    two: float | complex = 2 + 0j if dtypes.is_complex(summed.dtype) else 2.0
    return div(summed, two)


def eigh(
    x: ArrayLike,
    *,
    lower: bool = True,
    symmetrize_input: bool = True,
    sort_eigenvalues: bool = True,
    subset_by_index: tuple[int, int] | None = None,
    implementation: EighImplementation | None = None,
) -> tuple[Array, Array]:
    """Eigendecomposition of (a batch of) symmetric or Hermitian matrices
    (JAX's ``lax.linalg.eigh``): ``(v, w)`` with eigenvectors as the
    columns of ``v`` and the eigenvalues ``w`` ascending (real).

    ``symmetrize_input`` replaces ``x`` by ``(x + x^H) / 2`` first, which
    also makes the derivative symmetric; otherwise only the ``lower`` (or
    upper) triangle is read. ``subset_by_index=(start, end)`` is accepted
    only as the full range on CPU, as in JAX.

    Raises:
        JaxtypedTypeError: ``x`` has rank below 2, or (unsymmetrized) is
            not floating or complex.
        JaxtypedValueError: ``x`` is not a batch of square matrices.
    """
    a = as_operand(x, "lax.linalg.eigh x")
    if symmetrize_input:
        if a.ndim < 2:
            raise JaxtypedTypeError(f"eigh: operand must have rank at least 2, got {a.aval.str_short()}")
        if a.shape[-1] != a.shape[-2]:
            raise JaxtypedTypeError(f"eigh: operand must be a (batch of) square matrices [..., n, n], got {a.aval.str_short()}")
        a = _symmetrized(a)
    subset = None if subset_by_index is None else (int(subset_by_index[0]), int(subset_by_index[1]))
    v, w = bind(Eigh(lower, sort_eigenvalues, subset, implementation), a)
    return v, w
