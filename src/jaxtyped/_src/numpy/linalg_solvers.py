"""Solvers and determinants of ``jnp.linalg`` (layer L5): ``solve``,
``inv``, ``det``, ``slogdet``, ``lstsq``, ``pinv``, ``matrix_rank``,
``cond``, ``tensorsolve``, ``tensorinv`` and ``matrix_power``.

Derivatives are JAX's: ``solve`` (and so ``inv``) is a
``custom_linear_solve`` over one LU factorisation, so that forward and
reverse mode reuse it; ``det`` of 2x2 and 3x3 matrices is a polynomial,
differentiated as such; for larger ones its derivative is the trace of
the adjugate times the tangent, computed from the LU factors with the last
pivot left out (Note [adjugate from LU]), so it is finite at matrices of
rank ``n - 1``; ``slogdet``'s is ``trace(solve(a, da))``; ``pinv``'s is the
Golub-Pereyra formula.
"""

import math
from typing import NamedTuple

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api_solvers import custom_linear_solve
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.custom_derivatives import custom_jvp
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.arithmetic import stop_gradient
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.gather import GatherDimensionNumbers, GatherScatterMode, gather
from jaxtyped._src.lax.linalg import cholesky as lax_cholesky
from jaxtyped._src.lax.util import scalar_like, strong_constant_like
from jaxtyped._src.lax.linalg import lu as lax_lu
from jaxtyped._src.lax.linalg import qr as lax_qr
from jaxtyped._src.numpy import manipulation as man
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy import shape_ops
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.creation import eye, zeros
from jaxtyped._src.numpy.linalg_decompositions import check_lapack_dtype, svd
from jaxtyped._src.numpy.linalg_norms import norm
from jaxtyped._src.numpy.linalg_products import check_square_stack, power_by_squaring
from jaxtyped._src.numpy.promotion import asarray_operand, broadcast_shapes, broadcast_to_shape, promote_dtypes
from jaxtyped._src.numpy.sorting import argsort
from jaxtyped._src.util import index_arg

__all__ = [
    "SlogdetResult", "solve", "inv", "det", "slogdet", "lstsq", "pinv", "matrix_rank", "cond",
    "tensorsolve", "tensorinv", "matrix_power",
]  # fmt: skip


class SlogdetResult(NamedTuple):
    """``slogdet``'s result: the determinant's sign (a unit complex number
    for complex input) and the log of its magnitude."""

    sign: Array
    logabsdet: Array


def _square(name: str, x: ArrayLike) -> Array:
    # inv, det and slogdet raise ValueError for non-square input, as JAX's.
    (a,) = promote_dtypes(f"linalg.{name}", (x,), inexact=True)
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise JaxtypedValueError(f"jnp.linalg.{name}: argument must have shape [..., n, n], got {a.aval.str_short()}")
    if name != "det" or a.shape[-1] not in (2, 3):  # det's closed forms need no LAPACK
        check_lapack_dtype(name, a)
    return a


def _mT(x: Array) -> Array:  # noqa: N802 - the array API's name
    return shape_ops.swapaxes(x, -1, -2)


def _H(x: Array) -> Array:  # noqa: N802 - the usual name of the conjugate transpose
    return uf.conjugate(_mT(x))


def _rows(x: Array, permutation: Array) -> Array:
    """``x[..., permutation, :]`` for a batch of permutations: one gather of
    whole rows, batched over the leading axes (an index per row, not one per
    element)."""
    if x.size == 0:
        return x  # nothing to move (a gather cannot take a row of zero rows)
    nb = x.ndim - 2
    batch = tuple(range(nb))
    dnums = GatherDimensionNumbers(
        offset_dims=(nb + 1,),
        collapsed_slice_dims=(nb,),
        start_index_map=(nb,),
        operand_batching_dims=batch,
        start_indices_batching_dims=batch,
    )
    index = ls.expand_dims(permutation, (permutation.ndim,))
    return gather(x, index, dnums, (*(1,) * (nb + 1), x.shape[-1]), mode=GatherScatterMode.PROMISE_IN_BOUNDS)


# === solve and inv ===


def _lu_solve(lu: Array, permutation: Array, b: Array, transpose: bool) -> Array:
    """Solve ``a @ x = b`` (``a.T @ x = b`` with ``transpose``) for
    ``b`` of shape ``(..., n, k)``, where ``a[..., permutation, :] = L @ U``."""
    if not transpose:
        x = _rows(b, permutation)
        x = lax_cholesky.triangular_solve(lu, x, left_side=True, lower=True, unit_diagonal=True)
        return lax_cholesky.triangular_solve(lu, x, left_side=True, lower=False)
    x = lax_cholesky.triangular_solve(lu, b, left_side=True, lower=False, transpose_a=True)
    x = lax_cholesky.triangular_solve(lu, x, left_side=True, lower=True, transpose_a=True, unit_diagonal=True)
    return _rows(x, argsort(permutation, axis=-1))


def _solve_matrices(a: Array, b: Array) -> Array:
    # a: (..., n, n) with a batch shape that broadcasts to b's (..., n, k):
    # each distinct matrix is factored once.
    n = a.shape[-1]
    batch = b.shape[:-2]
    lu_, _, permutation_ = lax_lu.lu(stop_gradient(a))
    lu = broadcast_to_shape(lu_, (*batch, n, n))
    permutation = broadcast_to_shape(permutation_, (*batch, n))
    matrix = broadcast_to_shape(a, (*batch, n, n))

    def matvec(x: Array) -> Array:
        return shape_ops.matmul(matrix, x)

    def forward(_: object, x: Array) -> Array:
        return _lu_solve(lu, permutation, x, transpose=False)

    def backward(_: object, x: Array) -> Array:
        return _lu_solve(lu, permutation, x, transpose=True)

    return custom_linear_solve(matvec, b, forward, backward)


def solve(a: ArrayLike, b: ArrayLike) -> Array:
    """The solution ``x`` of ``a @ x = b`` for square ``a``: ``b`` of shape
    ``(n,)`` or ``(..., n)`` with ``a``'s batch, or ``(..., n, k)``
    (batch dimensions broadcast)."""
    x, y = promote_dtypes("linalg.solve", (a, b), inexact=True)
    if x.ndim < 2:
        raise JaxtypedValueError(f"jnp.linalg.solve: left hand array must be at least two dimensional, got {x.aval.str_short()}")
    if x.shape[-1] != x.shape[-2]:
        raise JaxtypedValueError(f"jnp.linalg.solve: a must be (a stack of) square matrices, got {x.aval.str_short()}")
    check_lapack_dtype("solve", x)
    n = x.shape[-1]
    vector = y.ndim == 1
    if y.ndim > 1 and y.ndim == x.ndim - 1:
        # JAX >= 0.5 reads b as vectors only when it is 1-d; this shape was
        # once a batch of vectors and is now refused, as JAX refuses it.
        raise JaxtypedValueError(
            f"jnp.linalg.solve: invalid shapes {x.aval.str_short()} and {y.aval.str_short()}; "
            "for a batch of vectors use solve(a, b[..., None])[..., 0]"
        )
    if y.ndim == 0 or y.shape[-1 if vector else -2] != n:
        raise JaxtypedValueError(f"jnp.linalg.solve: shapes {x.aval.str_short()} and {y.aval.str_short()} do not match")
    rhs = ls.expand_dims(y, (y.ndim,)) if vector else y
    batch = broadcast_shapes("linalg.solve", x.shape[:-2], rhs.shape[:-2], types=[x.aval.str_short(), y.aval.str_short()])
    result = _solve_matrices(x, broadcast_to_shape(rhs, (*batch, *rhs.shape[-2:])))
    return ls.squeeze(result, (result.ndim - 1,)) if vector else result


def inv(a: ArrayLike) -> Array:
    """The inverse of a (stack of) square matrices (``solve`` with the identity)."""
    x = _square("inv", a)
    return _solve_matrices(x, broadcast_to_shape(eye(x.shape[-1], dtype=x.dtype), x.shape))


# === determinants ===


def _lu_parts(a: Array) -> tuple[Array, Array, Array, Array]:
    """``a``'s packed LU factors, their diagonal, the permutation's sign
    (+1/-1 in ``a``'s dtype) and the row permutation."""
    lu, pivots, permutation = lax_lu.lu(a)
    diag = man.diagonal(lu, 0, -2, -1)
    swaps = uf.not_equal(pivots, ls.broadcasted_iota(pivots.dtype, pivots.shape, pivots.ndim - 1))
    odd = uf.equal(uf.remainder(red.sum(swaps, axis=-1, dtype=np.int32), 2), 1)
    one = broadcast_to_shape(strong_constant_like(a, 1), odd.shape)
    sign = uf.where(odd, uf.negative(one), one)
    return lu, diag, sign, permutation


def _slogdet_lu(a: Array) -> tuple[Array, Array]:
    _, diag, sign, _ = _lu_parts(a)
    zero = uf.equal(diag, 0)
    singular = red.any(zero, axis=-1)
    magnitude = uf.abs(diag)
    if dtypes.is_complex(a.dtype):
        phases = uf.divide(diag, convert_to(magnitude, a.dtype, weak_type=False))
        sign = uf.multiply(sign, red.prod(phases, axis=-1))
    else:
        negative = red.sum(uf.less(diag, 0), axis=-1, dtype=np.int32)
        sign = uf.where(uf.equal(uf.remainder(negative, 2), 1), uf.negative(sign), sign)
    log_magnitude = red.sum(uf.log(magnitude), axis=-1)
    sign = uf.where(singular, zeros(sign.shape, sign.dtype), sign)
    log_magnitude = uf.where(singular, -math.inf, log_magnitude)
    return sign, log_magnitude


def _slogdet_rule(primals: tuple[Array], tangents: tuple[Array]) -> tuple[tuple[Array, Array], tuple[Array, Array]]:
    (a,), (da,) = primals, tangents
    sign, log_magnitude = _slogdet_lu(a)
    # Solved with the factors directly: the tangent must stay linear (and
    # transposable) in ``da``.
    lu, _, permutation = lax_lu.lu(a)
    log_dot = man.trace(_lu_solve(lu, permutation, da, transpose=False), 0, -2, -1)
    if dtypes.is_complex(a.dtype):
        # d log det = trace(a^-1 da): its real part moves the magnitude, its
        # imaginary part rotates the sign.
        real = uf.real(log_dot)
        sign_dot = uf.multiply(uf.subtract(log_dot, convert_to(real, log_dot.dtype, weak_type=False)), sign)
        return (sign, log_magnitude), (sign_dot, real)
    return (sign, log_magnitude), (zeros(sign.shape, sign.dtype), log_dot)


def _slogdet_qr(a: Array) -> tuple[Array, Array]:
    # det(a) = det(Q) det(R): each Householder reflector with a nonzero
    # scale flips the sign, as JAX counts them (the last one never acts).
    packed, taus = lax_qr.geqrf(a)
    diag = man.diagonal(packed, 0, -2, -1)
    log_magnitude = red.sum(uf.log(uf.abs(diag)), axis=-1)
    sign = red.prod(uf.sign(diag), axis=-1)
    reflections = uf.where(uf.not_equal(taus[..., : a.shape[-1] - 1], 0), -1, 1)
    flips = convert_to(red.prod(convert_to(reflections, np.dtype(np.int32), weak_type=False), axis=-1), a.dtype, weak_type=False)
    return uf.multiply(sign, flips), log_magnitude


_slogdet_core = custom_jvp(_slogdet_lu)
_slogdet_core.defjvp(_slogdet_rule)
_slogdet_qr_core = custom_jvp(_slogdet_qr)
_slogdet_qr_core.defjvp(_slogdet_rule)


def slogdet(a: ArrayLike, *, method: str | None = None) -> SlogdetResult:
    """The sign and the log-magnitude of the determinants of a (stack of)
    square matrices (sign 0 and log -inf for singular ones), from an LU
    (default) or a QR (``method="qr"``) factorisation."""
    if method not in (None, "lu", "qr"):
        raise JaxtypedValueError(f"jnp.linalg.slogdet: unknown method {method!r}; use 'lu' or 'qr'")
    x = _square("slogdet", a)
    if method == "qr" and dtypes.is_complex(x.dtype):
        raise JaxtypedNotImplementedError(
            f"jnp.linalg.slogdet: method='qr' is not implemented for complex input (as in JAX), got {x.aval.str_short()}"
        )
    sign, log_magnitude = _slogdet_qr_core(x) if method == "qr" else _slogdet_core(x)
    return SlogdetResult(sign, log_magnitude)


# Note [adjugate from LU]: with a[p] = L U and U' = U with its last
# diagonal entry set to 1, U = diag(1, ..., 1, u_nn) U', so
# adj(a) b = det(a) a^-1 b = d' U'^-1 diag(u_nn, ..., u_nn, 1) L^-1 b[p],
# where d' is the product of the other pivots times the permutation's
# sign. Nothing divides by u_nn: the adjugate of a matrix of rank n - 1
# (whose zero pivot partial pivoting puts last) comes out finite; with a
# zero among the other pivots the adjugate is taken as zero, as JAX's.


def _det_and_adjugate_product(a: Array, b: Array) -> tuple[Array, Array]:
    """``det(a)`` and ``adj(a) @ b`` (see Note [adjugate from LU])."""
    lu, diag, sign, permutation = _lu_parts(a)
    n = a.shape[-1]
    last = diag[..., n - 1]
    partial = uf.multiply(red.prod(diag[..., : n - 1], axis=-1), sign)
    determinant = uf.multiply(partial, last)
    corner = ls.broadcast_in_dim(
        uf.logical_and(
            uf.equal(ls.broadcasted_iota(np.dtype(np.int32), (n, n), 0), n - 1),
            uf.equal(ls.broadcasted_iota(np.dtype(np.int32), (n, n), 1), n - 1),
        ),
        lu.shape,
        (lu.ndim - 2, lu.ndim - 1),
    )
    unit_corner = uf.where(corner, strong_constant_like(a, 1), lu)
    # Another zero pivot means rank <= n - 2 and a zero adjugate; U' is then
    # singular, so its solve is masked on both sides (zeros in, so that the
    # transposed solve sees no NaN either; zeros out).
    deficient = ls.broadcast_in_dim(red.any(uf.equal(diag[..., : n - 1], 0), axis=-1), b.shape, tuple(range(b.ndim - 2)))
    zero = zeros(b.shape, b.dtype)
    x = _rows(uf.where(deficient, zero, b), permutation)
    x = lax_cholesky.triangular_solve(unit_corner, x, left_side=True, lower=True, unit_diagonal=True)
    is_last = uf.equal(ls.broadcasted_iota(np.dtype(np.int32), (n,), 0), n - 1)
    scale = uf.where(is_last, strong_constant_like(a, 1), ls.expand_dims(last, (last.ndim,)))
    x = uf.multiply(x, ls.expand_dims(scale, (scale.ndim,)))
    x = lax_cholesky.triangular_solve(unit_corner, x, left_side=True, lower=False)
    x = uf.where(deficient, zero, x)
    return determinant, uf.multiply(x, ls.expand_dims(partial, (partial.ndim, partial.ndim + 1)))


def _det_closed_form(a: Array) -> Array:
    n = a.shape[-1]

    def at(i: int, j: int) -> Array:
        return a[..., i, j]

    if n == 2:
        return uf.subtract(uf.multiply(at(0, 0), at(1, 1)), uf.multiply(at(0, 1), at(1, 0)))
    terms = [
        uf.multiply(at(0, 0), uf.subtract(uf.multiply(at(1, 1), at(2, 2)), uf.multiply(at(1, 2), at(2, 1)))),
        uf.multiply(at(0, 1), uf.subtract(uf.multiply(at(1, 0), at(2, 2)), uf.multiply(at(1, 2), at(2, 0)))),
        uf.multiply(at(0, 2), uf.subtract(uf.multiply(at(1, 0), at(2, 1)), uf.multiply(at(1, 1), at(2, 0)))),
    ]
    return uf.add(uf.subtract(terms[0], terms[1]), terms[2])


def _det_primal(a: Array) -> Array:
    sign, log_magnitude = _slogdet_lu(a)
    return uf.multiply(sign, convert_to(uf.exp(log_magnitude), sign.dtype, weak_type=False))


def _det_rule(primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    (a,), (da,) = primals, tangents
    determinant, product = _det_and_adjugate_product(a, da)
    return determinant, man.trace(product, 0, -2, -1)


_det_core = custom_jvp(_det_primal)
_det_core.defjvp(_det_rule)


def det(a: ArrayLike) -> Array:
    """The determinants of a (stack of) square matrices; differentiable at
    singular matrices of rank ``n - 1`` too (the adjugate), as JAX's."""
    x = _square("det", a)
    if x.shape[-1] in (2, 3):
        # Closed forms, differentiated as polynomials (exact at every
        # singular matrix), as JAX's.
        return _det_closed_form(x)
    return _det_core(x)


# === least squares, pseudo-inverse, rank, condition number ===


def lstsq(
    a: ArrayLike, b: ArrayLike, rcond: float | None = None, *, numpy_resid: bool = False
) -> tuple[Array, Array, Array, Array]:
    """The least-squares solution of ``a @ x = b`` for a 2-d ``a``:
    ``(x, residuals, rank, singular values)``. Residuals are always
    computed (as JAX's) unless ``numpy_resid`` asks for NumPy's empty ones
    where the rank is deficient or ``m <= n`` (the rank must be concrete)."""
    x, y = promote_dtypes("linalg.lstsq", (a, b), inexact=True)
    if x.ndim != 2:
        raise JaxtypedTypeError(f"jnp.linalg.lstsq: {x.ndim}-dimensional array given, a must be two-dimensional: {x.aval.str_short()}")
    if y.ndim not in (1, 2):
        raise JaxtypedTypeError(f"jnp.linalg.lstsq: {y.ndim}-dimensional array given, b must be 1- or 2-dimensional: {y.aval.str_short()}")
    if x.shape[0] != y.shape[0]:
        raise JaxtypedValueError(f"jnp.linalg.lstsq: leading dimensions of a and b must match, got {x.aval.str_short()} and {y.aval.str_short()}")
    vector = y.ndim == 1
    rhs = ls.expand_dims(y, (1,)) if vector else y
    m, n = x.shape
    eps = float(dtypes.finfo(x.dtype).eps)
    u, s, vh = svd(x, full_matrices=False)
    cutoff = eps * max(n, m) if rcond is None else (eps if rcond < 0 else float(rcond))
    if s.shape[0] == 0:
        rank = zeros((), dtypes.default_int_dtype())
        solution = zeros((n, rhs.shape[1]), x.dtype)
    else:
        mask = uf.greater_equal(s, uf.multiply(s[0], cutoff))
        rank = red.sum(mask, dtype=dtypes.default_int_dtype())
        safe = convert_to(uf.where(mask, s, 1.0), x.dtype, weak_type=False)
        s_inv = ls.expand_dims(uf.where(mask, uf.divide(1.0, safe), 0.0), (1,))
        solution = shape_ops.matmul(_H(vh), uf.multiply(s_inv, shape_ops.matmul(_H(u), rhs)))
    if numpy_resid and _numpy_resid_empty(rank, n, m):
        residuals = zeros((0,), s.dtype)
    else:
        residuals = uf.square(norm(uf.subtract(rhs, shape_ops.matmul(x, solution)), axis=0))
    if vector:
        solution = shape_ops.ravel(solution)
    return solution, residuals, rank, s


def _numpy_resid_empty(rank: Array, n: int, m: int) -> bool:
    # NumPy leaves the residuals empty unless the rank is full and m > n. The
    # rank is read first, so under jit this raises (a traced bool), as JAX's.
    return bool(uf.less(rank, n)) or m <= n


def _pinv_primal(a: Array, rtol: Array, hermitian: bool) -> Array:
    u, s, vh = svd(a, full_matrices=False, hermitian=hermitian)
    cutoff = uf.multiply(ls.expand_dims(rtol, (rtol.ndim,)), s[..., 0:1])
    kept = convert_to(uf.where(uf.greater(s, cutoff), s, math.inf), u.dtype, weak_type=False)
    return shape_ops.matmul(_H(vh), uf.divide(_H(u), ls.expand_dims(kept, (kept.ndim,))))


def _pinv_rule(hermitian: bool, primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    # Golub and Pereyra: d(a+) = -a+ da a+ + a+ a+^H da^H (I - a a+) + (I - a+ a) da^H a+^H a+.
    (a, rtol), (da, _) = primals, tangents
    p = _pinv_primal(a, rtol, hermitian)
    m, n = a.shape[-2:]
    left = uf.subtract(eye(m, dtype=a.dtype), shape_ops.matmul(a, p))
    right = uf.subtract(eye(n, dtype=a.dtype), shape_ops.matmul(p, a))
    da_h = _H(da)
    term1 = uf.negative(shape_ops.matmul(shape_ops.matmul(p, da), p))
    term2 = shape_ops.matmul(shape_ops.matmul(shape_ops.matmul(p, _H(p)), da_h), left)
    term3 = shape_ops.matmul(right, shape_ops.matmul(shape_ops.matmul(da_h, _H(p)), p))
    return p, uf.add(uf.add(term1, term2), term3)


def _pinv_fun(hermitian: bool, a: Array, rtol: Array) -> Array:
    return _pinv_primal(a, rtol, hermitian)


_pinv_core = custom_jvp(_pinv_fun, nondiff_argnums=(0,))
_pinv_core.defjvp(_pinv_rule)


def pinv(
    a: ArrayLike, rtol: ArrayLike | None = None, hermitian: bool = False, *, rcond: ArrayLike | None = None
) -> Array:
    """The Moore-Penrose pseudo-inverse: singular values at or below
    ``rtol`` times the largest (default ``10 * max(m, n) * eps``) count as zero."""
    (x,) = promote_dtypes("linalg.pinv", (a,), inexact=True)
    if x.ndim < 2:
        raise JaxtypedValueError(f"jnp.linalg.pinv: argument must be at least two-dimensional, got {x.aval.str_short()}")
    if rcond is not None:
        if rtol is not None:
            raise JaxtypedValueError("jnp.linalg.pinv: give rtol or its old name rcond, not both")
        rtol = rcond
    real = dtypes.finfo(x.dtype).dtype
    tolerance: Array
    if rtol is None:
        tolerance = scalar_like(10.0 * max(x.shape[-2:]) * float(dtypes.finfo(x.dtype).eps), real, "jnp.linalg.pinv", weak_type=False)
    else:
        tolerance = convert_to(asarray_operand("linalg.pinv", rtol, 1), real, weak_type=False)
    return _pinv_core(bool(hermitian), x, tolerance)


def matrix_rank(
    M: ArrayLike,  # noqa: N803 - JAX's name
    rtol: ArrayLike | None = None,
    *,
    hermitian: bool = False,
    tol: ArrayLike | None = None,
) -> Array:
    """The number of singular values above ``tol`` (absolute) or ``rtol``
    times the largest (default ``max(m, n) * eps``); for a vector, whether
    it is nonzero."""
    (x,) = promote_dtypes("linalg.matrix_rank", (M,), inexact=True)
    if rtol is not None and tol is not None:
        raise JaxtypedValueError("jnp.linalg.matrix_rank: only one of tol or rtol may be specified")
    if x.ndim < 2:
        return convert_to(red.any(uf.not_equal(x, 0)), np.dtype(np.int32), weak_type=False)  # int32, as JAX's
    s = svd(x, full_matrices=False, compute_uv=False, hermitian=hermitian)
    if tol is not None:
        threshold = convert_to(asarray_operand("linalg.matrix_rank", tol, 1), s.dtype, weak_type=False)
    else:
        largest = red.max(s, axis=-1)
        if rtol is None:
            threshold = uf.multiply(uf.multiply(largest, float(max(x.shape[-2:]))), float(dtypes.finfo(s.dtype).eps))
        else:
            threshold = uf.multiply(largest, convert_to(asarray_operand("linalg.matrix_rank", rtol, 1), s.dtype, weak_type=False))
    above = uf.greater(s, ls.expand_dims(threshold, (threshold.ndim,)))
    return red.sum(above, axis=-1, dtype=dtypes.default_int_dtype())


def cond(x: ArrayLike, p: int | float | str | None = None) -> Array:
    """The condition number in the ``p``-norm (default 2: the ratio of the
    extreme singular values); infinite for singular matrices."""
    (a,) = promote_dtypes("linalg.cond", (x,), inexact=True)
    if a.ndim < 2:
        raise JaxtypedValueError(f"jnp.linalg.cond: input array must be at least 2-d, got {a.aval.str_short()}")
    if p is None or p == 2 or p == -2:
        s = svd(a, compute_uv=False)
        first, last = s[..., 0], s[..., -1]
        ratio = uf.divide(first, last) if p != -2 else uf.divide(last, first)
    else:
        if a.shape[-1] != a.shape[-2]:
            raise JaxtypedValueError(f"jnp.linalg.cond: for p={p!r} the matrices must be square, got {a.aval.str_short()}")
        ratio = uf.multiply(norm(a, ord=p, axis=(-2, -1)), norm(inv(a), ord=p, axis=(-2, -1)))
    # NaNs from a singular matrix mean an infinite condition number.
    input_nan = red.any(uf.isnan(a), axis=(-2, -1))
    return uf.where(uf.logical_and(uf.isnan(ratio), uf.logical_not(input_nan)), math.inf, ratio)


# === tensor forms and powers ===


def tensorinv(a: ArrayLike, ind: int = 2) -> Array:
    """The inverse of ``a`` read as a linear map from its last axes to its
    first ``ind`` axes (whose sizes must have equal products)."""
    x = asarray_operand("linalg.tensorinv", a)
    count = index_arg(ind, "jnp.linalg.tensorinv: ind")
    if count <= 0:
        raise JaxtypedValueError(f"jnp.linalg.tensorinv: ind must be a positive integer, got {count}")
    leading, trailing = x.shape[:count], x.shape[count:]
    rows, cols = math.prod(leading), math.prod(trailing)
    if rows != cols:
        raise JaxtypedValueError(
            f"jnp.linalg.tensorinv: the first {count} dimensions of {x.aval.str_short()} ({rows} elements) "
            f"must have the size of the others ({cols})"
        )
    return shape_ops.reshape(inv(shape_ops.reshape(x, (rows, cols))), (*trailing, *leading))


def tensorsolve(a: ArrayLike, b: ArrayLike, axes: tuple[int, ...] | None = None) -> Array:
    """The ``x`` with ``tensordot(a, x, x.ndim) == b``; ``axes`` of ``a``
    move to the end first."""
    x = asarray_operand("linalg.tensorsolve", a)
    y = asarray_operand("linalg.tensorsolve", b, 1)
    if axes is not None:
        x = shape_ops.moveaxis(x, axes, tuple(range(x.ndim - len(axes), x.ndim)))
    out_shape = x.shape[y.ndim :]
    if x.shape[: y.ndim] != y.shape:
        raise JaxtypedValueError(
            f"jnp.linalg.tensorsolve: b's shape {y.shape} must match the leading dimensions of a {x.aval.str_short()}"
        )
    rows, cols = y.size, math.prod(out_shape)
    if rows != cols:
        raise JaxtypedValueError(
            f"jnp.linalg.tensorsolve: a {x.aval.str_short()} read as a matrix ({rows}, {cols}) must be square"
        )
    return shape_ops.reshape(solve(shape_ops.reshape(x, (rows, cols)), shape_ops.ravel(y)), out_shape)


def matrix_power(a: ArrayLike, n: int) -> Array:
    """``a`` (a stack of square matrices) to the integer power ``n``
    (negative powers invert first); integer input stays integer for ``n >= 0``."""
    x = asarray_operand("linalg.matrix_power", a)
    check_square_stack("matrix_power", x)
    power = index_arg(n, "jnp.linalg.matrix_power: n")
    if power < 0:
        return power_by_squaring(inv(x), -power)
    return power_by_squaring(x, power)

