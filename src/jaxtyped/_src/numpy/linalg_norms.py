"""Norms of ``jnp.linalg`` (layer L5): ``norm``, ``vector_norm`` and
``matrix_norm``, composed of the same reductions as JAX's so that their
gradients agree with JAX's at degenerate points too (``max`` with an
initial zero for the infinity and 1/2-norms, a square root of a sum of
squares for the 2-norm, whose gradient at zero is NaN as JAX's).
"""

import math
from collections.abc import Sequence

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.numpy import reductions as red
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.linalg_decompositions import svdvals
from jaxtyped._src.numpy.promotion import promote_dtypes
from jaxtyped._src.util import canonicalize_axis

__all__ = ["norm", "vector_norm", "matrix_norm"]

Ord = int | float | str | None


def _sum_of_squares(x: Array, axes: tuple[int, ...], keepdims: bool) -> Array:
    squares = uf.real(uf.multiply(x, uf.conjugate(x))) if dtypes.is_complex(x.dtype) else uf.multiply(x, x)
    return red.sum(squares, axis=axes, keepdims=keepdims)


def _vector_norm(x: Array, ord: Ord, axis: int, keepdims: bool) -> Array:  # noqa: A002 - NumPy's name
    if ord is None or ord == 2:
        return uf.sqrt(_sum_of_squares(x, (axis,), keepdims))
    if isinstance(ord, str):
        raise JaxtypedValueError(f"jnp.linalg.norm: invalid order {ord!r} for vector norm")
    magnitude = uf.abs(x)
    if ord == math.inf:
        return red.max(magnitude, axis=axis, keepdims=keepdims, initial=0.0)
    if ord == -math.inf:
        return red.min(magnitude, axis=axis, keepdims=keepdims)
    if ord == 0:
        nonzero = uf.not_equal(x, 0)
        return red.sum(convert_to(nonzero, magnitude.dtype, weak_type=False), axis=axis, keepdims=keepdims)
    if ord == 1:
        return red.sum(magnitude, axis=axis, keepdims=keepdims)
    order = float(ord)
    return uf.power(red.sum(uf.power(magnitude, order), axis=axis, keepdims=keepdims), 1.0 / order)


def _matrix_norm(x: Array, ord: Ord, axes: tuple[int, int], keepdims: bool) -> Array:  # noqa: A002 - NumPy's name
    row, col = axes
    if ord is None or ord == "fro":
        result = uf.sqrt(_sum_of_squares(x, axes, False))
    elif ord in (1, -1, math.inf, -math.inf):
        # 1-norms: the extreme column sum; inf-norms: the extreme row sum.
        summed, across = (row, col) if ord in (1, -1) else (col, row)
        sums = red.sum(uf.abs(x), axis=summed)
        across = across - 1 if across > summed else across
        if ord in (1, math.inf):
            result = red.max(sums, axis=across, initial=0.0)
        else:
            result = red.min(sums, axis=across)
    elif ord in (2, -2, "nuc"):
        moved = ls.transpose(x, (*(d for d in range(x.ndim) if d not in axes), row, col))
        values = svdvals(moved)
        if ord == 2:
            result = red.max(values, axis=-1, initial=0.0)
        elif ord == -2:
            result = red.min(values, axis=-1)
        else:
            result = red.sum(values, axis=-1)
    else:
        raise JaxtypedValueError(f"jnp.linalg.norm: invalid order {ord!r} for matrix norm")
    if keepdims:
        result = ls.expand_dims(result, tuple(sorted(axes)))
    return result


def _axes(x: Array, axis: int | Sequence[int] | None) -> tuple[int, ...]:
    raw = (axis,) if isinstance(axis, int) else tuple(range(x.ndim)) if axis is None else tuple(axis)
    axes = tuple(canonicalize_axis(a, x.ndim, where="jnp.linalg.norm axis") for a in raw)
    if len(set(axes)) != len(axes):
        raise JaxtypedValueError(f"jnp.linalg.norm: duplicate value in axis: {axis}")
    return axes


def norm(
    x: ArrayLike,
    ord: Ord = None,  # noqa: A002 - NumPy's name
    axis: None | tuple[int, ...] | int = None,
    keepdims: bool = False,
) -> Array:
    """A vector norm (one axis), a matrix norm (two axes), or with
    ``axis=None`` and ``ord=None`` the 2-norm of all elements."""
    (a,) = promote_dtypes("linalg.norm", (x,), inexact=True)
    if axis is None and ord is None:
        result = uf.sqrt(_sum_of_squares(a, tuple(range(a.ndim)), False))
        return ls.reshape(result, (1,) * a.ndim) if keepdims else result
    axes = _axes(a, axis)
    if len(axes) == 1:
        return _vector_norm(a, ord, axes[0], keepdims)
    if len(axes) == 2:
        return _matrix_norm(a, ord, (axes[0], axes[1]), keepdims)
    raise JaxtypedValueError(
        f"jnp.linalg.norm: improper number of axes for norm: axis={axis} on {a.aval.str_short()}; "
        "pass one axis for a vector norm, or two for a matrix norm"
    )


def vector_norm(
    x: ArrayLike,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    ord: int | float | str = 2,  # noqa: A002 - NumPy's name
) -> Array:
    """The vector ``ord``-norm over ``axis`` (all axes, flattened, by
    default; several axes are flattened into one)."""
    (a,) = promote_dtypes("linalg.vector_norm", (x,), inexact=True)
    axes = _axes(a, axis)
    rest = tuple(d for d in range(a.ndim) if d not in axes)
    kept = tuple(a.shape[d] for d in rest)
    flat = ls.reshape(ls.transpose(a, (*rest, *axes)), (*kept, math.prod(a.shape[d] for d in axes)))
    result = _vector_norm(flat, ord, len(kept), False)
    if keepdims:
        result = ls.expand_dims(result, tuple(sorted(axes)))
    return result


def matrix_norm(x: ArrayLike, /, *, keepdims: bool = False, ord: int | float | str = "fro") -> Array:  # noqa: A002 - NumPy's name
    """The matrix ``ord``-norm of the last two axes."""
    (a,) = promote_dtypes("linalg.matrix_norm", (x,), inexact=True)
    if a.ndim < 2:
        raise JaxtypedValueError(f"jnp.linalg.matrix_norm: x must be at least two-dimensional, got {a.aval.str_short()}")
    return _matrix_norm(a, ord, (a.ndim - 2, a.ndim - 1), keepdims)

