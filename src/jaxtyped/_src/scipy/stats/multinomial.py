"""The multinomial distribution of counts ``x`` (last axis) over ``n``
trials with category probabilities ``p`` (JAX's
``jax.scipy.stats.multinomial``)."""

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.numpy import reductions as jr
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact, promote_args_numeric
from jaxtyped._src.scipy.special import gammaln, xlogy
from jaxtyped._src.scipy.stats._util import outside

__all__ = ["logpmf", "pmf"]


def logpmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
    """``gammaln(n + 1) + sum(x log p - gammaln(x + 1))`` over the last
    axis; ``-inf`` where the counts do not sum to ``n``.

    Raises:
        JaxtypedValueError: ``x`` and ``n`` are not of an integer dtype.
    """
    (prob,) = promote_args_inexact("multinomial.logpmf", p)
    counts, trials = promote_args_numeric("multinomial.logpmf", x, n)
    if not dtypes.is_integer(counts.dtype):
        raise JaxtypedValueError(
            f"multinomial.logpmf: x and n must be of integer type; got x.dtype={counts.dtype}, n.dtype={trials.dtype}"
        )
    counts = convert_to(counts, prob.dtype, weak_type=False)
    trials = convert_to(trials, prob.dtype, weak_type=False)
    terms = ju.subtract(xlogy(counts, prob), gammaln(ju.add(counts, 1.0)))
    value = ju.add(gammaln(ju.add(trials, 1.0)), jr.sum(terms, axis=-1))
    # Each row of counts must add up to n (JAX compares the sum of all counts).
    return outside(ju.not_equal(jr.sum(counts, axis=-1), trials), value)


def pmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Array:
    """The probability mass."""
    return ju.exp(logpmf(x, n, p))
