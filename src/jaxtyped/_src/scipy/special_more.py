"""More of ``jax.scipy.special`` (layer L5): the beta function, ``loggamma``,
relative entropy (``rel_entr``, ``kl_div``), the Pochhammer symbol,
binomial coefficients and the Box-Cox transforms.

Each is a composition of ``jaxtyped.numpy`` functions, so it is
differentiable, batchable and lowerable through them; ``poch`` carries its
own derivative rule (as JAX's) so that the derivative in ``m`` at ``m == 0``
is ``digamma(z)``, not the zero the ``m == 0`` branch would give.
"""

import math
from fractions import Fraction

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.custom_derivatives import custom_jvp
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact
from jaxtyped._src.scipy.special import betaln, digamma, erfc, gamma, gammaln, gammasgn, xlogy

__all__ = ["beta", "loggamma", "rel_entr", "kl_div", "poch", "comb", "boxcox", "boxcox1p", "bernoulli", "erfcx"]


def _real(name: str, *args: ArrayLike) -> list[Array]:
    """The arguments promoted to one inexact dtype; complex ones rejected
    (a ``ValueError``, as JAX's)."""
    promoted = promote_args_inexact(name, *args)
    if dtypes.is_complex(promoted[0].dtype):
        raise JaxtypedValueError(f"{name} does not support complex-valued inputs.")
    return promoted


def beta(a: ArrayLike, b: ArrayLike) -> Array:
    """The beta function ``B(a, b) = Γ(a)Γ(b)/Γ(a+b)``, signed for negative
    non-integer arguments (JAX's ``jax.scipy.special.beta``)."""
    p, q = _real("beta", a, b)
    sign = ju.multiply(ju.multiply(gammasgn(p), gammasgn(q)), gammasgn(ju.add(p, q)))
    return ju.multiply(sign, ju.exp(betaln(p, q)))


def loggamma(x: ArrayLike) -> Array:
    """The principal branch of ``log Γ(x)``: for real ``x``, ``gammaln(x)``
    where ``x > 0`` and NaN elsewhere (JAX's ``jax.scipy.special.loggamma``;
    complex arguments are not supported yet)."""
    (z,) = promote_args_inexact("loggamma", x)
    if dtypes.is_complex(z.dtype):
        raise JaxtypedValueError("loggamma: complex arguments are not supported in jaxtyped yet")
    return ju.where(ju.greater(z, 0), gammaln(z), float("nan"))


def rel_entr(p: ArrayLike, q: ArrayLike) -> Array:
    """Elementwise relative entropy: ``p log(p/q)`` for ``p, q > 0``, ``0``
    for ``p == 0, q >= 0``, ``inf`` otherwise (JAX's
    ``jax.scipy.special.rel_entr``)."""
    x, y = _real("rel_entr", p, q)
    positive = ju.logical_and(ju.greater(x, 0), ju.greater(y, 0))
    zero_p = ju.logical_and(ju.equal(x, 0), ju.greater_equal(y, 0))
    # Evaluate the logs at 1 outside their domain so their gradients stay finite.
    safe_x, safe_y = ju.where(positive, x, 1), ju.where(positive, y, 1)
    value = ju.subtract(xlogy(safe_x, safe_x), xlogy(safe_x, safe_y))
    return ju.where(positive, value, ju.where(zero_p, 0.0, float("inf")))


def kl_div(p: ArrayLike, q: ArrayLike) -> Array:
    """Elementwise Kullback-Leibler divergence ``rel_entr(p, q) - p + q``
    (JAX's ``jax.scipy.special.kl_div``)."""
    x, y = _real("kl_div", p, q)
    return ju.add(ju.subtract(rel_entr(x, y), x), y)


def _poch_value(z: Array, m: Array) -> Array:
    return ju.where(ju.equal(m, 0), 1.0, ju.divide(gamma(ju.add(z, m)), gamma(z)))


def _poch_jvp(primals: tuple[Array, Array], tangents: tuple[Array, Array]) -> tuple[Array, Array]:
    z, m = primals
    dz, dm = tangents
    out = _poch(z, m)
    digamma_sum = digamma(ju.add(z, m))
    d_dz = ju.multiply(out, ju.subtract(digamma_sum, digamma(z)))
    tangent = ju.add(ju.multiply(d_dz, dz), ju.multiply(ju.multiply(out, digamma_sum), dm))
    return out, tangent


_poch = custom_jvp(_poch_value)
_poch.defjvp(_poch_jvp)


def poch(z: ArrayLike, m: ArrayLike) -> Array:
    """The Pochhammer symbol (rising factorial) ``Γ(z+m)/Γ(z)``, ``1`` at
    ``m == 0`` (JAX's ``jax.scipy.special.poch``)."""
    x, n = _real("poch", z, m)
    return _poch(x, n)


def comb(N: ArrayLike, k: ArrayLike, *, repetition: bool = False) -> Array:  # noqa: N803  # SciPy's name
    """The number of combinations of ``N`` things taken ``k`` at a time,
    through the gamma function (real-valued), ``0`` where ``k > N``,
    ``k < 0`` or ``N < 0``; with ``repetition``, combinations with
    replacement (JAX's ``jax.scipy.special.comb``)."""
    n, r = promote_args_inexact("comb", N, k)
    if repetition:
        return ju.where(ju.logical_and(ju.equal(r, 0), ju.greater_equal(n, 0)), 1.0, comb(ju.subtract(ju.add(n, r), 1), r))
    valid = ju.logical_and(ju.logical_and(ju.less_equal(r, n), ju.greater_equal(n, 0)), ju.greater_equal(r, 0))
    safe_n, safe_r = ju.where(valid, n, 0.0), ju.where(valid, r, 0.0)
    log_value = ju.subtract(
        ju.subtract(gammaln(ju.add(safe_n, 1)), gammaln(ju.add(safe_r, 1))), gammaln(ju.add(ju.subtract(safe_n, safe_r), 1))
    )
    return ju.where(valid, ju.exp(log_value), 0.0)


def _boxcox_from_log(log_x: Array, lmbda: Array) -> Array:
    zero = ju.equal(lmbda, 0)
    safe = ju.where(zero, 1.0, lmbda)
    return ju.where(zero, log_x, ju.divide(ju.expm1(ju.multiply(safe, log_x)), safe))


def boxcox(x: ArrayLike, lmbda: ArrayLike) -> Array:
    """The Box-Cox transform ``(x**λ - 1)/λ``, ``log x`` at ``λ == 0`` (JAX's
    ``jax.scipy.special.boxcox``)."""
    y, lam = promote_args_inexact("boxcox", x, lmbda)
    return _boxcox_from_log(ju.log(y), lam)


def boxcox1p(x: ArrayLike, lmbda: ArrayLike) -> Array:
    """The Box-Cox transform of ``1 + x``, accurate for small ``x`` (JAX's
    ``jax.scipy.special.boxcox1p``)."""
    y, lam = promote_args_inexact("boxcox1p", x, lmbda)
    return _boxcox_from_log(ju.log1p(y), lam)


def _bernoulli_numbers(n: int) -> list[Fraction]:
    """B_0..B_n exactly, with B_1 = -1/2 (SciPy's convention), by the
    recurrence sum_{k<=m} C(m+1, k) B_k = 0."""
    numbers: list[Fraction] = []
    for m in range(n + 1):
        if m == 0:
            numbers.append(Fraction(1))
            continue
        total = sum((math.comb(m + 1, k) * numbers[k] for k in range(m)), Fraction(0))
        numbers.append(-total / (m + 1))
    return numbers


def bernoulli(n: int) -> Array:
    """The Bernoulli numbers ``B_0 .. B_n`` (``B_1 = -1/2``) in the default
    float dtype (JAX's ``jax.scipy.special.bernoulli``); computed exactly
    on the host, so ``n`` is a static Python int.

    Raises:
        JaxtypedTypeError: ``n`` is not an int.
        JaxtypedValueError: ``n`` is negative.
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)):  # pyright: ignore[reportUnnecessaryIsInstance]  # checked at run time too
        raise JaxtypedTypeError(f"bernoulli: n must be an int, got {type(n).__name__}")
    if n < 0:
        raise JaxtypedValueError("n must be a non-negative integer.")
    return asarray(np.array([float(b) for b in _bernoulli_numbers(int(n))], dtype=np.float64))


# Beyond this erfc(x) underflows in float32 and exp(x**2) overflows: the
# asymptotic series takes over (its terms fall fast there).
_ERFCX_SERIES_FROM = 8.0
_ERFCX_TERMS = 12


def _erfcx_series(x: Array) -> Array:
    """``1/(x sqrt(pi)) * sum_k (-1)^k (2k-1)!! / (2x^2)^k`` for large ``x``."""
    inv_two_x2 = ju.divide(0.5, ju.multiply(x, x))
    term = ju.add(ju.multiply(inv_two_x2, 0.0), 1.0)  # ones, finite at x = inf
    total = term
    for k in range(1, _ERFCX_TERMS):
        term = ju.multiply(term, ju.multiply(-(2.0 * k - 1.0), inv_two_x2))
        total = ju.add(total, term)
    return ju.divide(total, ju.multiply(x, math.sqrt(math.pi)))


def erfcx(x: ArrayLike) -> Array:
    """The scaled complementary error function ``exp(x**2) * erfc(x)``
    (JAX's ``jax.scipy.special.erfcx``): direct for moderate ``x``, an
    asymptotic series for large ``x``, ``2 exp(x**2) - erfcx(-x)`` for
    negative ``x`` (overflowing to ``inf`` as JAX's)."""
    (v,) = _real("erfcx", x)
    large = ju.greater_equal(v, _ERFCX_SERIES_FROM)
    safe_large = ju.where(large, v, _ERFCX_SERIES_FROM)
    safe_small = ju.where(large, 0.0, v)
    direct = ju.multiply(ju.exp(ju.multiply(safe_small, safe_small)), erfc(safe_small))
    return ju.where(large, _erfcx_series(safe_large), direct)
