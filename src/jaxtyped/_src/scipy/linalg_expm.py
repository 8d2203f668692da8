"""The matrix exponential of ``jaxtyped.scipy.linalg`` (layer L5).

``expm`` is Higham's scaling-and-squaring algorithm (SIAM J. Matrix Anal.
Appl. 26(4), 2005), the one JAX runs, so that values agree with JAX's to
rounding: the 1-norm of ``A`` picks a diagonal Padé approximant (degrees
3, 5, 7, 9, 13 in double precision; 3, 5, 7 in single), ``A`` is divided
by ``2**s`` so that its norm falls under the last degree's bound, the
approximant ``(V - U)^-1 (V + U)`` is solved, and squared ``s`` times. The
degree and ``s`` are traced values, so the program has every approximant
(``switch``) and ``max_squarings`` conditional squarings (``scan``); more
squarings than that gives NaN, as in JAX. Its derivative is the
derivative of that program (``switch``, ``scan`` and the solve are all
differentiable), as in JAX.
"""

from collections.abc import Callable, Sequence
from typing import Final

import numpy as np

from jaxtyped._src.api import vmap
from jaxtyped._src.api_jit import jit
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.control_flow.cond import cond, switch
from jaxtyped._src.lax.control_flow.scan import scan
from jaxtyped._src.numpy import creation as jc
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import shape_ops as js
from jaxtyped._src.numpy import sorting as jsort
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import asarray_operand, promote_dtypes
from jaxtyped._src.scipy import linalg
from jaxtyped._src.util import index_arg

__all__ = ["expm", "matrix_one_norm"]

# Padé numerator coefficients b_0..b_m of each degree m (Higham 2005, table 2.3).
_PADE: Final[dict[int, tuple[int, ...]]] = {
    3: (120, 60, 12, 1),
    5: (30240, 15120, 3360, 420, 30, 1),
    7: (17297280, 8648640, 1995840, 277200, 25200, 1512, 56, 1),
    9: (17643225600, 8821612800, 2075673600, 302702400, 30270240, 2162160, 110880, 3960, 90, 1),
    13: (
        64764752532480000, 32382376266240000, 7771770303897600, 1187353796428800, 129060195264000,
        10559470521600, 670442572800, 33522128640, 1323241920, 40840800, 960960, 16380, 182, 1,
    ),
}  # fmt: skip

_LAPACK_DTYPES: Final = tuple(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))

# The largest 1-norm each degree handles to unit roundoff (Higham's theta_m):
# the first ones choose the degree, the last one bounds the scaled norm.
_THETA_DOUBLE: Final = (1.495585217958292e-2, 2.539398330063230e-1, 9.504178996162932e-1, 2.097847961257068, 5.371920351148152)
_THETA_SINGLE: Final = (4.258730016922831e-1, 1.880152677804762, 3.925724783138660)


def matrix_one_norm(a: Array) -> Array:
    """``max_j sum_i |a[i, j]|`` of a matrix (0 for an empty one)."""
    return jr.max(jr.sum(ju.abs(a), axis=0), initial=0.0)


def _pade(degree: int) -> Callable[[Array], tuple[Array, Array]]:
    """``(U, V)`` of the degree-``degree`` approximant: ``U`` holds the odd
    powers of ``A``, ``V`` the even ones."""
    b = _PADE[degree]

    def terms(a: Array) -> tuple[Array, Array]:
        eye = jc.eye(a.shape[0], dtype=a.dtype)
        a2 = js.matmul(a, a)
        if degree == 13:
            a4 = js.matmul(a2, a2)
            a6 = js.matmul(a4, a2)
            odd_high = ju.add(ju.add(ju.multiply(b[13], a6), ju.multiply(b[11], a4)), ju.multiply(b[9], a2))
            even_high = ju.add(ju.add(ju.multiply(b[12], a6), ju.multiply(b[10], a4)), ju.multiply(b[8], a2))
            odd = _combine(b[1::2][:4], [eye, a2, a4, a6], js.matmul(a6, odd_high))
            even = _combine(b[0::2][:4], [eye, a2, a4, a6], js.matmul(a6, even_high))
            return js.matmul(a, odd), even
        powers = [eye, a2]  # A^0, A^2, A^4, ... as far as the degree needs
        while len(powers) < (degree + 1) // 2:
            powers.append(js.matmul(powers[-1], a2))
        odd = _combine(b[1::2], powers, None)
        even = _combine(b[0::2], powers, None)
        return js.matmul(a, odd), even

    return terms


def _combine(coefficients: Sequence[int], powers: Sequence[Array], start: Array | None) -> Array:
    """``start + sum_k coefficients[k] * powers[k]``, highest power first."""
    total = start
    for coefficient, power in reversed(list(zip(coefficients, powers, strict=True))):
        term = ju.multiply(coefficient, power)
        total = term if total is None else ju.add(total, term)
    assert total is not None
    return total


def _square_times(r: Array, count: Array, max_squarings: int) -> Array:
    """``r`` squared ``count`` times (``count <= max_squarings``)."""

    def step(carry: Array, i: Array) -> tuple[Array, None]:
        squared: Array = cond(ju.less(i, count), lambda c: js.matmul(c, c), lambda c: c, carry)
        return squared, None

    result, _ = scan(step, r, jc.arange(max_squarings, dtype=count.dtype))
    return result


def _expm_matrix(a: Array, upper_triangular: bool, max_squarings: int) -> Array:
    double = a.dtype in (np.dtype(np.float64), np.dtype(np.complex128))
    thetas = _THETA_DOUBLE if double else _THETA_SINGLE
    degrees = (3, 5, 7, 9, 13) if double else (3, 5, 7)
    norm = matrix_one_norm(a)
    real = norm.dtype
    ratio = ju.divide(norm, jc.asarray(thetas[-1], dtype=real))
    squarings = ju.maximum(jc.zeros((), real), ju.floor(ju.divide(ju.log(ratio), ju.log(jc.asarray(2.0, dtype=real)))))
    scaled = ju.divide(a, ju.power(jc.asarray(2.0, dtype=real), squarings))
    choice = jsort.digitize(norm, jc.asarray(np.asarray(thetas[:-1]), dtype=real))
    choice = ju.clip(choice, 0, len(degrees) - 1)
    u, v = switch(choice, [_pade(d) for d in degrees], scaled)
    numerator = ju.add(u, v)
    denominator = ju.add(ju.negative(u), v)

    def compute(p: Array, q: Array) -> Array:
        if upper_triangular:
            r = linalg.solve_triangular(q, p)
        else:
            r = linalg.solve(q, p)
        return _square_times(r, squarings, max_squarings)

    def not_a_number(p: Array, q: Array) -> Array:
        return jc.full_like(p, np.nan)

    return cond(ju.greater(squarings, max_squarings), not_a_number, compute, numerator, denominator)


def expm(A: ArrayLike, *, upper_triangular: bool = False, max_squarings: int = 16) -> Array:  # noqa: N803 - SciPy's name
    """The matrix exponential of ``A`` (a square matrix or a batch of them),
    by Padé approximation with scaling and squaring (JAX's algorithm);
    ``upper_triangular`` solves with a triangular solve; NaN where more than
    ``max_squarings`` squarings would be needed.

    Raises:
        JaxtypedValueError: ``A`` is not a (batch of) square matrices.
        JaxtypedTypeError: ``A`` is float16 or bfloat16.
    """
    (a,) = promote_dtypes("expm", [asarray_operand("expm", A)], inexact=True)
    limit = index_arg(max_squarings, "expm max_squarings")
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise JaxtypedValueError(f"expm: A must be a (batched) square matrix, got {a.aval.str_short()}")
    if a.dtype not in _LAPACK_DTYPES:
        # (float16 and bfloat16 have no LAPACK solve; JAX refuses them too.)
        raise JaxtypedTypeError(f"expm: A.dtype={a.dtype} is not supported (float32, float64, complex64, complex128)")
    return _expm_compiled(a, upper_triangular, limit)


def _expm_checked(a: Array, upper_triangular: bool, limit: int) -> Array:
    if a.ndim == 2:
        return _expm_matrix(a, upper_triangular, limit)
    n = a.shape[-1]
    flat = js.reshape(a, (-1, n, n))

    def one(m: Array) -> Array:
        return _expm_matrix(m, upper_triangular, limit)

    result = vmap(one)(flat)
    return js.reshape(result, a.shape)


# Compiled as one program, as JAX's expm is: run eagerly op by op, its
# Pade/squaring steps cost ~24 ms for a 64x64 matrix against ~0.2 ms.
_expm_compiled = jit(_expm_checked, static_argnums=(1, 2))

