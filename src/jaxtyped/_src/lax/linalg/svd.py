"""The singular value decomposition primitive ``svd`` (layer L4).

``svd(a)`` of an ``m x n`` matrix returns ``(u, s, vh)`` with ``a = u @
diag(s) @ vh``, the singular values ``s`` descending and real; the
primitive itself returns ``(s, u, vh)`` (or ``(s,)`` without
``compute_uv``) as JAX's does. On CPU it is LAPACK's ``gesdd`` (divide and
conquer, the default) or ``gesvd`` (``SvdAlgorithm.QR``); a batch entry
where the kernel fails is all NaN, as in JAX. An empty matrix has no
singular values and identity singular vectors.

Note [svd derivative]: with ``k = min(m, n)``, the reduced factors ``u``
(``m x k``) and ``v = vh^H`` (``n x k``), and ``P = u^H da v``:

- ``ds = real(diag(P))``;
- ``du = u @ (F * (P S + S P^H)) + (I - u u^H) da v S^-1``,
- ``dv = v @ (F * (S P + P^H S)) + (I - v v^H) da^H u S^-1``,

where ``F[i, j] = 1 / (s[j]^2 - s[i]^2)`` off the diagonal (0 on it),
computed as ``1 / (I + s[j]^2 - s[i]^2) - I`` so that repeated singular
values give the inf/NaN tangents JAX gives; a zero singular value makes
the projection terms (which vanish for square matrices) inf/NaN as in
JAX. For complex matrices each column of ``u`` also turns by
``i imag(diag(P)) / s`` (the phase convention JAX uses), taken as 0 where
``s`` is 0, as JAX does. JAX defines no derivative
of the full (``full_matrices=True``) factors: neither do we.
"""

import enum
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
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.arithmetic import add, mul, sub
from jaxtyped._src.lax.comparison import eq
from jaxtyped._src.lax.complex_ops import complex as make_complex
from jaxtyped._src.lax.complex_ops import imag, real
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
    scale_columns,
    scale_rows,
)
from jaxtyped._src.lax.structural import broadcast_in_dim
from jaxtyped._src.lax.util import as_operand, short_types, strong_constant_like

__all__ = ["SvdAlgorithm", "Svd", "svd"]


class SvdAlgorithm(enum.Enum):
    """SVD algorithm choices (JAX's names). On CPU, ``DEFAULT`` and
    ``DIVIDE_AND_CONQUER`` run LAPACK's ``gesdd``, ``QR`` its ``gesvd``;
    ``JACOBI`` and ``POLAR`` are not available."""

    DEFAULT = "default"
    QR = "QR"
    JACOBI = "Jacobi"
    POLAR = "polar"
    DIVIDE_AND_CONQUER = "divide_and_conquer"


def _kernel(algorithm: SvdAlgorithm | None) -> str:
    if algorithm is SvdAlgorithm.QR:
        return "gesvd"
    if algorithm in (None, SvdAlgorithm.DEFAULT, SvdAlgorithm.DIVIDE_AND_CONQUER):
        return "gesdd"
    raise JaxtypedNotImplementedError(f"svd: algorithm {algorithm} is not implemented on CPU (as in JAX)")


@final
@dataclass(frozen=True, slots=True)
class Svd(DeviceEvaluated, BatchedOverLeadingDims):
    """Singular values (descending) and, with ``compute_uv``, the singular
    vectors of (a batch of) matrices: outputs ``(s, u, vh)`` or ``(s,)``."""

    full_matrices: bool = True
    compute_uv: bool = True
    subset_by_index: tuple[int, int] | None = None
    algorithm: SvdAlgorithm | None = None
    name = "svd"
    several_results = True

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        if len(avals) != 1:
            raise JaxtypedTypeError(f"svd takes 1 operand, got ({short_types(avals)})")
        (a,) = avals
        if a.ndim < 2:
            raise JaxtypedTypeError(f"svd: operand must have rank at least 2, got {a.str_short()}")
        check_inexact("svd", a)
        *batch, m, n = a.shape
        rank = min(m, n)
        if self.subset_by_index is not None:
            lo, hi = self.subset_by_index
            if self.full_matrices and self.compute_uv:
                raise JaxtypedValueError("svd: full_matrices and subset_by_index cannot both be set")
            if not 0 <= lo < hi <= rank:
                raise JaxtypedValueError(
                    f"svd: subset_by_index must satisfy 0 <= start < end <= {rank}, got {self.subset_by_index}"
                )
            rank = hi - lo
        s = ShapedArray((*batch, rank), real_dtype(a.dtype), a.weak_type)
        if not self.compute_uv:
            return (s,)
        u_cols, vh_rows = (m, n) if self.full_matrices else (rank, rank)
        return (
            s,
            ShapedArray((*batch, m, u_cols), a.dtype, a.weak_type),
            ShapedArray((*batch, vh_rows, n), a.dtype, a.weak_type),
        )

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        (a,) = args
        require_lapack_dtype("svd", a.aval.dtype)
        *batch, m, n = a.aval.shape
        kernel = _kernel(self.algorithm)
        if self.subset_by_index not in (None, (0, min(m, n))):
            raise JaxtypedNotImplementedError("svd: subset_by_index is not implemented on CPU (as in JAX)")
        if any(d == 0 for d in a.aval.shape):
            return tuple(_empty_result(ctx, o) for o in out_avals)
        mode = "N" if not self.compute_uv else ("A" if self.full_matrices else "S")
        # The kernel wants u and vh buffers in every mode: full-size ones for
        # 'A' and 'N', reduced ones for 'S'.
        k = min(m, n)
        u_cols, vh_rows = (k, k) if mode == "S" else (m, n)
        info = ShapedArray(tuple(batch), np.dtype(np.int32))
        s_aval = ShapedArray((*batch, k), real_dtype(a.aval.dtype))
        _, s, u, vh, status = lapack_call(
            ctx,
            kernel,
            [(a, "matrix")],
            [
                (a.aval, "matrix"),
                (s_aval, "vector"),
                (ShapedArray((*batch, m, u_cols), a.aval.dtype), "matrix"),
                (ShapedArray((*batch, vh_rows, n), a.aval.dtype), "matrix"),
                (info, "vector"),
            ],
            {"mode": char_attr(mode)},
            aliases={0: 0},
        )
        ok = info_ok(ctx, status)
        if not self.compute_uv:
            return (where_ok(ctx, ok, s),)
        return where_ok(ctx, ok, s), where_ok(ctx, ok, u), where_ok(ctx, ok, vh)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # See Note [svd derivative].
        (a,) = primals
        (da,) = tangents
        assert isinstance(da, Array)  # the only operand, so its tangent is not zero
        if self.compute_uv and self.full_matrices and a.shape[-1] != a.shape[-2]:
            # Square factors are the same full or reduced (as JAX allows).
            raise JaxtypedNotImplementedError(
                "svd: the derivative of the full singular vectors (full_matrices=True) is not implemented, as in JAX; "
                "use full_matrices=False"
            )
        reduced = Svd(False, True, self.subset_by_index, self.algorithm)
        s, u, vh = bind(reduced, a)
        v = adjoint(vh)
        projected = batch_matmul(adjoint(u), batch_matmul(da, v))
        diag = diagonal(projected)
        ds = real(diag) if dtypes.is_complex(diag.dtype) else diag
        if not self.compute_uv:
            return (s,), (ds,)
        squares = mul(s, s)
        real_eye = as_dtype(diagonal_mask((*s.shape, s.shape[-1])), s.dtype)
        gaps = sub(reciprocal(add(real_eye, outer_difference(squares))), real_eye)
        f = as_dtype(gaps, a.dtype)
        p_s = scale_columns(projected, s)
        s_p = scale_rows(s, projected)
        du = batch_matmul(u, mul(f, add(p_s, adjoint(p_s))))
        dv = batch_matmul(v, mul(f, add(s_p, adjoint(s_p))))
        m, n = a.shape[-2:]
        if m > n:
            da_v = batch_matmul(da, v)
            du = add(du, scale_columns(sub(da_v, batch_matmul(u, batch_matmul(adjoint(u), da_v))), reciprocal(s)))
        if n > m:
            da_u = batch_matmul(adjoint(da), u)
            dv = add(dv, scale_columns(sub(da_u, batch_matmul(v, batch_matmul(adjoint(v), da_u))), reciprocal(s)))
        if dtypes.is_complex(a.dtype):
            zeros = broadcast_in_dim(strong_constant_like(s, 0), s.shape, ())
            is_zero = as_dtype(eq(s, zeros), s.dtype)
            masked_inverse = sub(reciprocal(add(s, is_zero)), is_zero)
            turn = make_complex(zeros, mul(imag(diag), masked_inverse))
            du = add(du, scale_columns(u, turn))
        return (s, u, vh), (ds, du, adjoint(dv))


def _empty_result(ctx: LoweringContext, aval: ShapedArray) -> HloValue:
    """An output of the SVD of an empty matrix: no singular values, and
    identity singular vectors (empty unless full)."""
    if aval.size == 0 or aval.ndim < 2:
        return ctx.broadcast_in_dim(ctx.scalar(0, aval.dtype), aval.shape, ())
    eye = np.broadcast_to(np.eye(aval.shape[-1], dtype=aval.dtype), aval.shape)
    return ctx.constant(np.ascontiguousarray(eye), aval)


@overload
def svd(
    x: ArrayLike,
    *,
    full_matrices: bool = True,
    compute_uv: Literal[True] = True,
    subset_by_index: tuple[int, int] | None = None,
    algorithm: SvdAlgorithm | None = None,
) -> tuple[Array, Array, Array]: ...
@overload
def svd(
    x: ArrayLike,
    *,
    full_matrices: bool = True,
    compute_uv: Literal[False],
    subset_by_index: tuple[int, int] | None = None,
    algorithm: SvdAlgorithm | None = None,
) -> Array: ...
@overload
def svd(
    x: ArrayLike,
    *,
    full_matrices: bool = True,
    compute_uv: bool,
    subset_by_index: tuple[int, int] | None = None,
    algorithm: SvdAlgorithm | None = None,
) -> Array | tuple[Array, Array, Array]: ...
def svd(
    x: ArrayLike,
    *,
    full_matrices: bool = True,
    compute_uv: bool = True,
    subset_by_index: tuple[int, int] | None = None,
    algorithm: SvdAlgorithm | None = None,
) -> Array | tuple[Array, Array, Array]:
    """Singular value decomposition of (a batch of) matrices (JAX's
    ``lax.linalg.svd``): ``(u, s, vh)`` with ``x = u @ diag(s) @ vh`` and
    ``s`` descending, or only ``s`` if not ``compute_uv``. ``u`` is
    ``m x m`` and ``vh`` ``n x n`` if ``full_matrices``, else ``m x k`` and
    ``k x n`` (``k = min(m, n)``).

    Raises:
        JaxtypedTypeError: ``x`` has rank below 2 or is not floating or
            complex.
        JaxtypedValueError: ``subset_by_index`` with ``full_matrices``.
        NotImplementedError: the Jacobi or Polar algorithm, or a proper
            ``subset_by_index``, on CPU (as in JAX).
    """
    a = as_operand(x, "lax.linalg.svd x")
    if subset_by_index is not None and full_matrices and compute_uv:
        raise JaxtypedValueError("svd: full_matrices and subset_by_index cannot both be set")
    subset = None if subset_by_index is None else (int(subset_by_index[0]), int(subset_by_index[1]))
    outs = bind(Svd(full_matrices, compute_uv, subset, algorithm), a)
    if not compute_uv:
        return outs[0]
    s, u, vh = outs
    return u, s, vh
