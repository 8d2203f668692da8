"""Polynomials of ``jaxtyped.numpy`` (layer L5), coefficients highest
power first: ``poly``, ``polyval``, ``polyadd``, ``polysub``, ``polymul``,
``polydiv``, ``polyder``, ``polyint``, ``polyfit``, ``roots``.

``polyfit`` solves its least-squares problem by a QR factorisation
(modified Gram-Schmidt on the column-scaled Vandermonde matrix, as NumPy
scales it), which matches JAX's SVD-based ``lstsq`` for well-posed fits;
``polyfit(full=True)`` goes through ``jnp.linalg.lstsq`` as JAX's (its rank
and singular values are the SVD's). ``roots`` are the eigenvalues of the
companion matrix and ``poly`` of a square matrix builds the polynomial from
its eigenvalues (complex, as JAX's).
"""


from typing import Any, Literal, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike, require_concrete
from jaxtyped._src.errors import ConcretizationTypeError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.structural import pad
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy import shape_ops as sh
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.creation import asarray, full, ones, zeros
from jaxtyped._src.numpy.linalg_decompositions import eigvals
from jaxtyped._src.numpy.linalg_solvers import lstsq
from jaxtyped._src.numpy.manipulation import roll
from jaxtyped._src.numpy.promotion import asarray_operand, broadcast_shapes, broadcast_to_shape, promote_dtypes
from jaxtyped._src.numpy.sorting import argsort
from jaxtyped._src.util import is_int

__all__ = ["poly", "polyval", "polyadd", "polysub", "polymul", "polydiv", "polyder", "polyint", "polyfit", "roots"]


def _order(name: str, value: object) -> int:
    if not is_int(value):
        raise JaxtypedTypeError(f"jnp.{name}: the order must be a static integer, got {value!r}")
    return int(value)


def _convolve(a: Array, b: Array) -> Array:
    """The full convolution of two 1-d arrays of one dtype (the product's
    coefficients)."""
    n, m = a.shape[0], b.shape[0]
    zero = scalar_like(0, a.dtype, "zero", weak_type=False)
    total: Array | None = None
    for i in range(n):
        term = pad(uf.multiply(a[i], b), zero, [(i, n - 1 - i, 0)])
        total = term if total is None else la.add(total, term)
    assert total is not None
    return total if total.shape == (n + m - 1,) else sh.reshape(total, (n + m - 1,))


def poly(seq_of_zeros: ArrayLike) -> Array:
    """The coefficients of the monic polynomial with the given roots."""
    (zeros_,) = promote_dtypes("poly", (seq_of_zeros,), inexact=True)
    if zeros_.ndim == 0:
        zeros_ = sh.reshape(zeros_, (1,))
    if zeros_.ndim == 2 and zeros_.shape[0] == zeros_.shape[1] and zeros_.shape[0] != 0:
        # The characteristic polynomial; JAX keeps it complex even where the
        # eigenvalues come in conjugate pairs (NumPy would return it real).
        zeros_ = eigvals(zeros_)
    if zeros_.ndim != 1:
        raise JaxtypedValueError(f"jnp.poly: input must be 1-d or a non-empty square 2-d array, got {zeros_.aval.str_short()}")
    dtype = zeros_.dtype
    if zeros_.shape[0] == 0:
        return ones((), dtype=dtype)
    coefficients = ones((1,), dtype=dtype)
    for k in range(zeros_.shape[0]):
        factor = sh.stack([ones((), dtype=dtype), uf.negative(zeros_[k])])
        coefficients = _convolve(coefficients, convert_to(factor, dtype, weak_type=False))
    return coefficients


def polyval(p: ArrayLike, x: ArrayLike, *, unroll: int = 16) -> Array:
    """``p[0] * x**(n-1) + ... + p[n-1]`` by Horner's rule (``p`` may have
    trailing axes that broadcast with ``x``)."""
    coefficients, points = promote_dtypes("polyval", (p, x))
    shape = broadcast_shapes("polyval", coefficients.shape[1:], points.shape)
    result = full(shape, 0, dtype=points.dtype)
    for k in range(coefficients.shape[0]):
        result = uf.add(uf.multiply(result, points), coefficients[k])
    return result


def polyadd(a1: ArrayLike, a2: ArrayLike) -> Array:
    """The sum of two polynomials (aligned at their constant terms)."""
    a, b = promote_dtypes("polyadd", (a1, a2))
    if b.shape[0] > a.shape[0]:
        a, b = b, a
    lead = a.shape[0] - b.shape[0]
    if lead:
        zero = scalar_like(0, b.dtype, "zero", weak_type=b.weak_type)
        b = pad(b, zero, [(lead, 0, 0)] + [(0, 0, 0)] * (b.ndim - 1))
    return uf.add(a, b)


def polysub(a1: ArrayLike, a2: ArrayLike) -> Array:
    """The difference of two polynomials."""
    a, b = promote_dtypes("polysub", (a1, a2))
    return polyadd(a, uf.negative(b))


def _trim_leading_zeros(a: Array) -> Array:
    host = np.asarray(a)
    nonzero = np.nonzero(host)[0]
    return a[int(nonzero[0]) :] if nonzero.size else a[:0]


def polymul(a1: ArrayLike, a2: ArrayLike, *, trim_leading_zeros: bool = False) -> Array:
    """The product of two polynomials."""
    a, b = promote_dtypes("polymul", (a1, a2), inexact=True)
    if a.ndim != 1 or b.ndim != 1:
        a, b = sh.ravel(a) if a.ndim == 0 else a, sh.ravel(b) if b.ndim == 0 else b
    if trim_leading_zeros and (a.shape[0] > 1 or b.shape[0] > 1):
        a, b = _trim_leading_zeros(a), _trim_leading_zeros(b)
    if a.shape[0] == 0:
        a = zeros((1,), dtype=b.dtype)
    if b.shape[0] == 0:
        b = zeros((1,), dtype=a.dtype)
    return _convolve(a, b)


def polydiv(u: ArrayLike, v: ArrayLike, *, trim_leading_zeros: bool = False) -> tuple[Array, Array]:
    """Quotient and remainder of polynomial long division of ``u`` by ``v``."""
    dividend, divisor = promote_dtypes("polydiv", (u, v), inexact=True)
    m, n = dividend.shape[0] - 1, divisor.shape[0] - 1
    scale = uf.divide(1.0, divisor[0])
    quotient: list[Array] = []
    remainder = dividend
    for k in range(m - n + 1):
        d = uf.multiply(scale, remainder[k])
        quotient.append(d)
        step = pad(uf.multiply(uf.negative(d), divisor), scalar_like(0, remainder.dtype, "zero", weak_type=False), [(k, m - n - k, 0)])
        remainder = uf.add(remainder, step)
    q = sh.stack(quotient) if quotient else zeros((1,), dtype=dividend.dtype)
    q = convert_to(q, dividend.dtype, weak_type=dividend.weak_type)
    if trim_leading_zeros:
        tolerance = float(np.sqrt(np.finfo(np.dtype(remainder.dtype.name if remainder.dtype.kind in "fc" else "float32")).eps))
        host = np.abs(np.asarray(remainder))
        keep = np.nonzero(host > tolerance)[0]
        remainder = remainder[int(keep[0]) :] if keep.size else remainder[:0]
    return q, remainder


def polyder(p: ArrayLike, m: int = 1) -> Array:
    """The ``m``-th derivative of a polynomial."""
    (coefficients,) = promote_dtypes("polyder", (p,), inexact=True)
    order = _order("polyder", m)
    if order < 0:
        raise JaxtypedValueError(f"jnp.polyder: the order of the derivative must be non-negative, got m={order}")
    if order == 0:
        return coefficients
    n = coefficients.shape[0]
    powers = np.arange(n - 1, order - 1, -1)
    factors = np.ones(powers.shape, dtype=np.float64)
    for j in range(order):
        factors *= powers - j
    return uf.multiply(coefficients[: max(n - order, 0)], asarray(factors, dtype=coefficients.dtype))


def polyint(p: ArrayLike, m: int = 1, k: int | ArrayLike | None = None) -> Array:
    """The ``m``-th antiderivative of a polynomial, with integration
    constants ``k`` (a scalar or one per integration)."""
    order = _order("polyint", m)
    coefficients, constants = promote_dtypes("polyint", (p, 0 if k is None else k), inexact=True)
    if order < 0:
        raise JaxtypedValueError(f"jnp.polyint: the order of the integral must be non-negative, got m={order}")
    if constants.ndim == 0:
        constants = sh.reshape(constants, (1,))
    if constants.shape[0] == 1:
        constants = broadcast_to_shape(constants, (order,)) if order else constants[:0]
    if constants.shape != (order,):
        raise JaxtypedValueError(f"jnp.polyint: k must be a scalar or a 1-d array of length 1 or m={order}")
    if order == 0:
        return coefficients
    n = coefficients.shape[0] + order
    divisors = np.ones(n, dtype=np.float64)
    powers = np.arange(n - 1, -1, -1, dtype=np.float64)
    for j in range(order):
        divisors *= np.maximum(1.0, powers - j)
    return uf.divide(sh.concatenate([coefficients, constants]), asarray(divisors, dtype=coefficients.dtype))


def _vandermonde(x: Array, columns: int) -> Array:
    powers = [uf.power(x, columns - 1 - j) for j in range(columns)]
    return sh.stack(powers, axis=1)


def _least_squares(a: Array, b: Array) -> tuple[Array, Array]:
    """The least-squares solution of ``a @ c = b`` (``a`` of full column
    rank) and the upper-triangular ``R`` of ``a = Q R``."""
    columns = a.shape[1]
    q_columns: list[Array] = []
    r = [[zeros((), dtype=a.dtype) for _ in range(columns)] for _ in range(columns)]
    for j in range(columns):
        v = a[:, j]
        for i, q in enumerate(q_columns):
            r[i][j] = red.sum(uf.multiply(q, v))
            v = uf.subtract(v, uf.multiply(r[i][j], q))
        r[j][j] = uf.sqrt(red.sum(uf.multiply(v, v)))
        q_columns.append(uf.divide(v, r[j][j]))
    qtb = [red.sum(uf.multiply(sh.expand_dims(q, -1) if b.ndim == 2 else q, b), axis=0) for q in q_columns]
    solution: list[Array] = [qtb[0]] * columns
    for i in range(columns - 1, -1, -1):
        acc = qtb[i]
        for j in range(i + 1, columns):
            acc = uf.subtract(acc, uf.multiply(r[i][j], solution[j]))
        solution[i] = uf.divide(acc, r[i][i])
    r_matrix = sh.stack([sh.stack(row) for row in r])
    return sh.stack(solution), r_matrix


def _inverse_upper(r: Array) -> Array:
    """The inverse of an upper-triangular matrix, by back-substitution."""
    n = r.shape[0]
    inverse = [[zeros((), dtype=r.dtype) for _ in range(n)] for _ in range(n)]
    for i in range(n - 1, -1, -1):
        inverse[i][i] = uf.divide(1.0, r[i, i])
        for j in range(i + 1, n):
            acc = zeros((), dtype=r.dtype)
            for k in range(i + 1, j + 1):
                acc = uf.add(acc, uf.multiply(r[i, k], inverse[k][j]))
            inverse[i][j] = uf.negative(uf.divide(acc, r[i, i]))
    return sh.stack([sh.stack(row) for row in inverse])


@overload
def polyfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: int,
    rcond: float | None = None,
    full: Literal[False] = False,
    w: ArrayLike | None = None,
    cov: Literal[False] = False,
) -> Array: ...
@overload
def polyfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: int,
    rcond: float | None = None,
    full: Literal[False] = False,
    w: ArrayLike | None = None,
    *,
    cov: Literal[True],
) -> tuple[Array, Array]: ...
@overload
def polyfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: int,
    rcond: float | None,
    full: Literal[True],
    w: ArrayLike | None = None,
    cov: bool = False,
) -> tuple[Array, Array, Array, Array, Array]: ...
@overload
def polyfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: int,
    rcond: float | None = None,
    *,
    full: Literal[True],
    w: ArrayLike | None = None,
    cov: bool = False,
) -> tuple[Array, Array, Array, Array, Array]: ...
@overload
def polyfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: int,
    rcond: float | None = None,
    full: bool = False,
    w: ArrayLike | None = None,
    cov: bool = False,
) -> Array | tuple[Array, ...]: ...
def polyfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: int,
    rcond: float | None = None,
    full: bool = False,
    w: ArrayLike | None = None,
    cov: bool = False,
) -> Array | tuple[Array, ...]:
    """Least-squares polynomial fit of degree ``deg`` (coefficients highest
    power first; one column per column of a 2-d ``y``); ``cov`` also gives
    the coefficients' covariance; ``full=True`` gives ``(coefficients,
    residuals, rank, singular_values, rcond)`` instead (``cov`` is then
    ignored, as JAX's)."""
    points, values = asarray_operand("polyfit", x), asarray_operand("polyfit", y, 1)
    degree = _order("polyfit", deg)
    order = degree + 1
    if degree < 0:
        raise JaxtypedValueError("jnp.polyfit: expected deg >= 0")
    if points.ndim != 1:
        raise JaxtypedTypeError("jnp.polyfit: expected a 1-d vector for x")
    if points.size == 0:
        raise JaxtypedTypeError("jnp.polyfit: expected a non-empty vector for x")
    if values.ndim not in (1, 2):
        raise JaxtypedTypeError("jnp.polyfit: expected a 1-d or 2-d array for y")
    if points.shape[0] != values.shape[0]:
        raise JaxtypedTypeError("jnp.polyfit: expected x and y to have the same length")
    if not dtypes.is_inexact(points.dtype):
        # JAX derives rcond from finfo(x.dtype), which integers do not have.
        raise JaxtypedValueError(f"jnp.polyfit: x must be a floating array, got {points.aval.str_short()}")
    lhs, rhs = promote_dtypes("polyfit", (_vandermonde(points, order), values), inexact=True)
    if w is not None:
        (weights,) = promote_dtypes("polyfit", (w,), inexact=True)
        if weights.ndim != 1:
            raise JaxtypedTypeError("jnp.polyfit: expected a 1-d array for weights")
        if weights.shape[0] != values.shape[0]:
            raise JaxtypedTypeError("jnp.polyfit: expected w and y to have the same length")
        lhs = uf.multiply(lhs, sh.expand_dims(weights, 1))
        rhs = uf.multiply(rhs, sh.expand_dims(weights, 1) if rhs.ndim == 2 else weights)
    scale = uf.sqrt(red.sum(uf.multiply(lhs, lhs), axis=0))
    lhs = uf.divide(lhs, sh.expand_dims(scale, 0))
    if full:
        return _full_fit(lhs, rhs, scale, points, rcond)
    solution, r = _least_squares(lhs, rhs)
    coefficients = uf.divide(solution, sh.expand_dims(scale, 1) if solution.ndim == 2 else scale)
    if not cov:
        return coefficients
    r_inverse = _inverse_upper(r)
    base = uf.divide(sh.matmul(r_inverse, sh.transpose(r_inverse)), uf.multiply(sh.expand_dims(scale, 1), sh.expand_dims(scale, 0)))
    if points.shape[0] <= order:
        raise JaxtypedValueError("jnp.polyfit: the number of data points must exceed order to scale the covariance matrix")
    residual = uf.subtract(sh.matmul(lhs, solution), rhs)
    factor = uf.divide(red.sum(uf.multiply(residual, residual), axis=0), points.shape[0] - order)
    if values.ndim == 1:
        return coefficients, uf.multiply(base, factor)
    return coefficients, uf.multiply(sh.expand_dims(base, -1), sh.reshape(factor, (1, 1, -1)))


def _full_fit(lhs: Array, rhs: Array, scale: Array, points: Array, rcond: float | None) -> tuple[Array, Array, Array, Array, Array]:
    """``polyfit(full=True)``: the SVD least-squares fit of the column-scaled
    Vandermonde matrix, with its residuals, rank and singular values, and
    the relative cutoff used (a weak scalar, as JAX's)."""
    cutoff = points.shape[0] * float(dtypes.finfo(points.dtype).eps) if rcond is None else float(rcond)
    solution, residuals, rank, singular_values = lstsq(lhs, rhs, cutoff)
    coefficients = uf.divide(solution, sh.expand_dims(scale, 1) if solution.ndim == 2 else scale)
    return coefficients, residuals, rank, singular_values, scalar_like(cutoff, points.dtype, "rcond", weak_type=True)


def _complex_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return dtype if dtypes.is_complex(dtype) else np.result_type(dtype, np.complex64)


def _companion_eigenvalues(p: Array) -> Array:
    """The roots of ``p`` (1-d, non-weak, inexact, ``p[0] != 0``): the
    eigenvalues of its companion matrix."""
    n = p.shape[0]
    if n <= 1:
        return zeros((0,), dtype=_complex_dtype(p.dtype))
    top = uf.negative(uf.divide(p[1:], p[0]))
    shift = asarray(np.eye(n - 2, n - 1), dtype=p.dtype)
    return eigvals(sh.concatenate([sh.expand_dims(top, 0), shift], axis=0))


def _roots_traced(p: Array) -> Array:
    """``roots(p, strip_zeros=False)``, the values never read: the ``k``
    leading zeros are rolled to the end (``x**k`` times the stripped
    polynomial, so ``k`` extra zero roots), the zero roots sorted last and
    the last ``k`` roots made NaN: ``n - 1`` roots, as JAX's."""
    n = p.shape[0]
    if n <= 1:
        return zeros((0,), dtype=_complex_dtype(p.dtype))
    is_zero = uf.equal(p, 0)
    all_zero = red.all(is_zero)
    leading = uf.where(all_zero, n, red.argmin(is_zero))
    # An all-zero polynomial becomes all ones (every root then NaN).
    rolled = roll(uf.where(all_zero, ones((), dtype=p.dtype), p), uf.negative(leading))
    found = _companion_eigenvalues(convert_to(rolled, p.dtype, weak_type=False))
    found = found[argsort(uf.equal(found, 0), stable=True)]
    keep = uf.less(asarray(np.arange(n - 1)), uf.subtract(n - 1, leading))
    return uf.where(keep, found, asarray(complex("nan+nanj"), dtype=found.dtype))


def roots(p: ArrayLike, *, strip_zeros: bool = True) -> Array:
    """The roots of a polynomial (complex): the eigenvalues of its companion
    matrix. ``strip_zeros`` drops leading zeros and turns trailing ones into
    zero roots, which reads the values (eager only); under ``jit`` pass
    ``strip_zeros=False`` (a leading zero then gives NaN roots)."""
    (coefficients,) = promote_dtypes("roots", (asarray_operand("roots", p),), inexact=True)
    if coefficients.ndim == 0:
        coefficients = sh.reshape(coefficients, (1,))
    if coefficients.ndim != 1:
        raise JaxtypedValueError(f"jnp.roots: input must be a rank-1 array, got {coefficients.aval.str_short()}")
    coefficients = convert_to(coefficients, coefficients.dtype, weak_type=False)
    if not strip_zeros:
        return _roots_traced(coefficients)
    try:
        # Concrete under grad/jvp too (the primal is known there), as JAX's.
        host = require_concrete(coefficients, "tolist")
    except ConcretizationTypeError as error:
        raise ConcretizationTypeError(
            f"jnp.roots: strip_zeros=True reads the coefficients; under jit or vmap pass strip_zeros=False "
            f"(leading zeros then give NaN roots). {error}"
        ) from error
    nonzero = np.flatnonzero(host)
    if nonzero.size == 0:
        return zeros((0,), dtype=_complex_dtype(coefficients.dtype))
    first, last = int(nonzero[0]), int(nonzero[-1])
    trailing = coefficients.shape[0] - 1 - last
    found = _companion_eigenvalues(coefficients[first : last + 1])
    if trailing == 0:
        return found
    return sh.concatenate([zeros((trailing,), dtype=found.dtype), found])
