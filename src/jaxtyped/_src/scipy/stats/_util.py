"""Helpers shared by the distributions of ``jaxtyped._src.scipy.stats``:
standardizing a point, and masking values off the support (``-inf``) or
for invalid parameters (NaN)."""

import math

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.promotion import promote_args_inexact

__all__ = ["standardize", "outside", "invalid", "either", "location_scale"]


def standardize(x: Array, loc: Array, scale: Array) -> Array:
    """``(x - loc) / scale``."""
    return ju.divide(ju.subtract(x, loc), scale)


def outside(condition: ArrayLike, value: Array) -> Array:
    """``value``, with ``-inf`` (a log-probability of zero) where ``condition``."""
    return ju.where(condition, -math.inf, value)


def invalid(condition: ArrayLike, value: Array) -> Array:
    """``value``, with NaN where ``condition``."""
    return ju.where(condition, math.nan, value)


def either(first: ArrayLike, *more: ArrayLike) -> Array:
    """The elementwise ``or`` of boolean conditions."""
    result = ju.logical_or(first, first)
    for condition in more:
        result = ju.logical_or(result, condition)
    return result


def location_scale(name: str, x: ArrayLike, loc: ArrayLike, scale: ArrayLike) -> tuple[Array, Array, Array, Array]:
    """The promoted ``x``, ``loc``, ``scale`` and whether ``scale`` is not
    positive (NaN included), for the location-scale families."""
    v, lo, s = promote_args_inexact(name, x, loc, scale)
    return v, lo, s, ju.logical_not(ju.greater(s, 0))
