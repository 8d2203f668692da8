"""``eig``: eigenvalues and eigenvectors of a general square matrix, through
LAPACK's ``geev`` on CPU (layer L4).

Note [eig normalisation]: ``geev`` returns each eigenvector (left and
right) with unit 2-norm and its largest-magnitude component real; JAX
returns them as they come, and so do we. The eigenvector derivatives are
those of that normalised choice: the raw derivative (in the span of the
other eigenvectors) plus the multiple of the eigenvector that keeps the
norm at one and the largest component real. They only exist where the
eigenvalues are distinct and no eigenvector has two components tied for
largest magnitude, which cannot be checked statically: as in JAX they are
opt-in (``enable_eigvec_derivs=True``), and differentiating eigenvectors
without it raises.

Note [eig jvp without solves]: the derivatives need ``V^-1 dA V``. With the
left eigenvectors ``U`` (``U^H A = diag(w) U^H``), ``U^H V`` is diagonal
(``s_i = u_i^H v_i``) for distinct eigenvalues, so ``V^-1 = diag(1/s) U^H``
and no linear solve is needed; symmetrically ``U^-1 = diag(1/conj(s)) V^H``
gives the left eigenvectors' derivative (they are the right eigenvectors
of ``A^H``, for the eigenvalues ``conj(w)``).
"""

import enum
import warnings
from dataclasses import dataclass
from typing import Any, Literal, final, overload

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, MissingRuleError
from jaxtyped._src.lax.arithmetic import abs as lax_abs
from jaxtyped._src.lax.arithmetic import add, div, mul, neg, sub
from jaxtyped._src.lax.comparison import eq
from jaxtyped._src.lax.complex_ops import complex as lax_complex
from jaxtyped._src.lax.complex_ops import conj, imag, real
from jaxtyped._src.lax.convenience import batch_matmul, select
from jaxtyped._src.lax.elementwise_base import convert_element_type
from jaxtyped._src.lax.linalg.base import (
    BatchedOverLeadingDims,
    DeviceEvaluated,
    char_attr,
    check_square,
    info_ok,
    lapack_call,
    where_ok,
)
from jaxtyped._src.lax.reductions import argmax, reduce_sum
from jaxtyped._src.lax.structural import broadcast_in_dim, broadcasted_iota, instantiate, transpose
from jaxtyped._src.lax.util import as_operand

__all__ = [
    "EigImplementation",
    "Eig",
    "eig",
    "check_lapack_square",
    "complex_dtype_of",
    "matrix_avals_like",
]

_LAPACK_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


class EigImplementation(enum.Enum):
    """Which library computes ``eig`` (JAX's names); on CPU only
    ``LAPACK`` is available."""

    CUSOLVER = "cusolver"
    MAGMA = "magma"
    LAPACK = "lapack"


def check_lapack_square(name: str, aval: ShapedArray) -> None:
    """The checks JAX makes on the operand of ``eig``, ``schur``,
    ``hessenberg`` and ``tridiagonal``, with JAX's kinds of error: rank at
    least 2 and an inexact dtype (TypeError), a dtype LAPACK has kernels for
    (NotImplementedError: float16 and bfloat16 have none), square (ValueError)."""
    if aval.ndim < 2:
        raise JaxtypedTypeError(f"{name}: argument a must have rank at least 2, got {aval.str_short()}")
    if not dtypes.is_inexact(aval.dtype):
        raise JaxtypedTypeError(f"{name}: argument a must be floating or complex, got {aval.str_short()}")
    if aval.dtype not in _LAPACK_DTYPES:
        raise MissingRuleError(
            f"{name}: LAPACK has no kernel for {aval.dtype} (float32, float64, complex64 and complex128 are supported)"
        )
    check_square(name, aval)


def complex_dtype_of(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The complex dtype of ``dtype``'s precision (float32 -> complex64)."""
    return np.result_type(dtype, np.complex64)


def matrix_avals_like(aval: ShapedArray, trailing: tuple[int, ...], dtype: np.dtype[Any]) -> ShapedArray:
    """An output of a batched decomposition: ``aval``'s batch dimensions,
    then ``trailing``; weakly typed when the input is (as in JAX)."""
    return ShapedArray((*aval.shape[:-2], *trailing), dtype, weak_type=aval.weak_type)


# --- the jvp's matrix helpers (batched over leading dimensions) ---


def _mT(x: Array) -> Array:
    perm = (*range(x.ndim - 2), x.ndim - 1, x.ndim - 2)
    return transpose(x, perm)


def _mH(x: Array) -> Array:
    return conj(_mT(x))


def _eye_mask(like: Array) -> Array:
    """Booleans of ``like``'s shape, true on the diagonal of the last two axes."""
    rows = broadcasted_iota(np.int32, like.shape, like.ndim - 2)
    cols = broadcasted_iota(np.int32, like.shape, like.ndim - 1)
    return eq(rows, cols)


def _diagonal(x: Array) -> Array:
    """The diagonal of each matrix of ``x`` (``[..., n, n] -> [..., n]``)."""
    zero = broadcast_in_dim(np.array(0, x.dtype), x.shape, ())
    return reduce_sum(select(_eye_mask(x), x, zero), (x.ndim - 1,))


def _columns(x: Array, shape: tuple[int, ...]) -> Array:
    """``x[..., j]`` broadcast along the rows of ``shape`` (``[..., n, n]``)."""
    return broadcast_in_dim(x, shape, (*range(len(shape) - 2), len(shape) - 1))


def _rows(x: Array, shape: tuple[int, ...]) -> Array:
    """``x[..., i]`` broadcast along the columns of ``shape``."""
    return broadcast_in_dim(x, shape, tuple(range(len(shape) - 1)))


def _gaps_inverse(w: Array, shape: tuple[int, ...]) -> Array:
    """``F[..., i, j] = 1 / (w_j - w_i)`` off the diagonal, 0 on it."""
    gaps = sub(_columns(w, shape), _rows(w, shape))
    eye = _eye_mask(gaps)
    one = broadcast_in_dim(np.array(1, gaps.dtype), shape, ())
    zero = broadcast_in_dim(np.array(0, gaps.dtype), shape, ())
    return select(eye, zero, div(one, select(eye, one, gaps)))


def _normalised_tangent(v: Array, dv: Array) -> Array:
    """The tangent of ``v`` (columns of unit norm, largest component real:
    Note [eig normalisation]) given a tangent ``dv`` that ignores the
    normalisation: ``dv + v * alpha`` per column, ``alpha`` fixing the
    norm (real part) and the phase of the largest component (imaginary part)."""
    shape = v.shape
    largest = argmax(lax_abs(v), v.ndim - 2, np.int32)
    rows = broadcasted_iota(np.int32, shape, v.ndim - 2)
    at_largest = eq(rows, _columns(largest, shape))
    zero = broadcast_in_dim(np.array(0, v.dtype), shape, ())
    dv_k = reduce_sum(select(at_largest, dv, zero), (v.ndim - 2,))
    v_k = real(reduce_sum(select(at_largest, v, zero), (v.ndim - 2,)))
    norm_part = neg(real(reduce_sum(mul(conj(v), dv), (v.ndim - 2,))))
    phase_part = neg(div(imag(dv_k), v_k))
    alpha = lax_complex(norm_part, phase_part)
    return add(dv, mul(v, _columns(alpha, shape)))


@final
@dataclass(frozen=True, slots=True)
class Eig(DeviceEvaluated, BatchedOverLeadingDims):
    """Eigenvalues ``w`` and the left (``vl``) and right (``vr``)
    eigenvectors of a batch of square matrices (LAPACK ``geev``; outputs
    complex): ``vr[..., :, j]`` satisfies ``A v = w_j v`` and
    ``vl[..., :, j]`` satisfies ``u^H A = w_j u^H``. Outputs ``w`` then the
    requested eigenvectors."""

    name = "eig"
    several_results = True
    compute_left_eigenvectors: bool = True
    compute_right_eigenvectors: bool = True
    enable_eigvec_derivs: bool = False
    implementation: EigImplementation | None = None

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (a,) = avals
        check_lapack_square("eig", a)
        n = a.shape[-1]
        cdtype = complex_dtype_of(a.dtype)
        outs = [matrix_avals_like(a, (n,), cdtype)]
        vectors = matrix_avals_like(a, (n, n), cdtype)
        outs += [vectors] * (int(self.compute_left_eigenvectors) + int(self.compute_right_eigenvectors))
        return tuple(outs)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        if self.implementation not in (None, EigImplementation.LAPACK):
            raise JaxtypedValueError(f"eig: only the LAPACK implementation is supported on CPU, got {self.implementation}")
        (a,) = args
        batch, n = a.aval.shape[:-2], a.aval.shape[-1]
        cdtype = complex_dtype_of(a.aval.dtype)
        vectors = ShapedArray((*batch, n, n), cdtype)
        info = ShapedArray(batch, np.dtype(np.int32))
        attrs = {
            "compute_left": char_attr("V" if self.compute_left_eigenvectors else "N"),
            "compute_right": char_attr("V" if self.compute_right_eigenvectors else "N"),
        }
        if dtypes.is_complex(a.aval.dtype):
            w, vl, vr, status = lapack_call(
                ctx, "geev", [(a, "matrix")],
                [(ShapedArray((*batch, n), cdtype), "vector"), (vectors, "matrix"), (vectors, "matrix"), (info, "vector")],
                attrs,
            )  # fmt: skip
        else:
            halves = ShapedArray((*batch, n), a.aval.dtype)
            wr, wi, vl, vr, status = lapack_call(
                ctx, "geev", [(a, "matrix")],
                [(halves, "vector"), (halves, "vector"), (vectors, "matrix"), (vectors, "matrix"), (info, "vector")],
                attrs,
            )  # fmt: skip
            w = ctx.op1("stablehlo.complex", (wr, wi), ShapedArray((*batch, n), cdtype))
        ok = info_ok(ctx, status)
        outs = [w]
        if self.compute_left_eigenvectors:
            outs.append(vl)
        if self.compute_right_eigenvectors:
            outs.append(vr)
        return tuple(where_ok(ctx, ok, out) for out in outs)

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        wants_vectors = self.compute_left_eigenvectors or self.compute_right_eigenvectors
        if wants_vectors and not self.enable_eigvec_derivs:
            raise MissingRuleError(
                "eig: derivatives of non-symmetric eigenvectors are only valid under assumptions on the input "
                "that cannot be checked (distinct eigenvalues, no ties for an eigenvector's largest component); "
                "pass enable_eigvec_derivs=True to opt in, or compute the eigenvalues only"
            )
        (a,) = primals
        (da,) = tangents
        full = Eig(True, True, self.enable_eigvec_derivs, self.implementation)
        w, u, v = bind(full, a)
        cdtype = w.dtype
        da_c = convert_element_type(instantiate(da), cdtype)
        s = _diagonal(batch_matmul(_mH(u), v))
        # P[i, j] = u_i^H dA v_j; V^-1 dA V = diag(1/s) P (Note [eig jvp without solves]).
        p = batch_matmul(batch_matmul(_mH(u), da_c), v)
        dw = div(_diagonal(p), s)
        primal_out: list[Array] = [w]
        tangent_out: list[Tangent] = [dw]
        shape = v.shape
        if self.compute_left_eigenvectors:
            # U^-1 dA^H U = diag(1/conj(s)) P^H; left gaps are conj(F).
            n_left = div(_mH(p), _rows(conj(s), shape))
            du = batch_matmul(u, mul(conj(_gaps_inverse(w, shape)), n_left))
            primal_out.append(u)
            tangent_out.append(_normalised_tangent(u, du))
        if self.compute_right_eigenvectors:
            m = div(p, _rows(s, shape))
            dv = batch_matmul(v, mul(_gaps_inverse(w, shape), m))
            primal_out.append(v)
            tangent_out.append(_normalised_tangent(v, dv))
        return tuple(primal_out), tuple(tangent_out)


@overload
def eig(
    x: ArrayLike,
    *,
    compute_left_eigenvectors: Literal[True] = True,
    compute_right_eigenvectors: Literal[True] = True,
    enable_eigvec_derivs: bool = False,
    implementation: EigImplementation | None = None,
    use_magma: bool | None = None,
) -> tuple[Array, Array, Array]: ...
@overload
def eig(
    x: ArrayLike,
    *,
    compute_left_eigenvectors: Literal[False],
    compute_right_eigenvectors: Literal[True] = True,
    enable_eigvec_derivs: bool = False,
    implementation: EigImplementation | None = None,
    use_magma: bool | None = None,
) -> tuple[Array, Array]: ...
@overload
def eig(
    x: ArrayLike,
    *,
    compute_left_eigenvectors: Literal[True] = True,
    compute_right_eigenvectors: Literal[False],
    enable_eigvec_derivs: bool = False,
    implementation: EigImplementation | None = None,
    use_magma: bool | None = None,
) -> tuple[Array, Array]: ...
@overload
def eig(
    x: ArrayLike,
    *,
    compute_left_eigenvectors: Literal[False],
    compute_right_eigenvectors: Literal[False],
    enable_eigvec_derivs: bool = False,
    implementation: EigImplementation | None = None,
    use_magma: bool | None = None,
) -> tuple[Array]: ...
@overload
def eig(
    x: ArrayLike,
    *,
    compute_left_eigenvectors: bool = True,
    compute_right_eigenvectors: bool = True,
    enable_eigvec_derivs: bool = False,
    implementation: EigImplementation | None = None,
    use_magma: bool | None = None,
) -> tuple[Array, ...]: ...
def eig(
    x: ArrayLike,
    *,
    compute_left_eigenvectors: bool = True,
    compute_right_eigenvectors: bool = True,
    enable_eigvec_derivs: bool = False,
    implementation: EigImplementation | None = None,
    use_magma: bool | None = None,
) -> tuple[Array, ...]:
    """Eigendecomposition of a batch of general square matrices (JAX's
    ``lax.linalg.eig``; CPU only): ``(w, vl, vr)``, the eigenvectors only
    where requested, all complex; each eigenvector has unit norm and its
    largest component real. Batch entries where LAPACK fails are NaN.
    ``enable_eigvec_derivs`` opts in to eigenvector derivatives (valid for
    distinct eigenvalues only); ``use_magma`` is deprecated in favour of
    ``implementation``."""
    a = as_operand(x, "lax.linalg.eig x")
    if use_magma is not None:
        warnings.warn(
            "eig: use_magma is deprecated, please use implementation=EigImplementation.MAGMA instead",
            DeprecationWarning,
            stacklevel=2,
        )
        implementation = EigImplementation.MAGMA if use_magma else EigImplementation.LAPACK
    prim = Eig(bool(compute_left_eigenvectors), bool(compute_right_eigenvectors), bool(enable_eigvec_derivs), implementation)
    return bind(prim, a)
