"""Products and views of ``jnp.linalg`` (layer L5) that need no
decomposition: ``matmul``, ``tensordot``, ``vecdot``, ``outer``, ``cross``,
``trace``, ``diagonal``, ``matrix_transpose``, ``multi_dot`` and the
squaring behind ``matrix_power``.

The array-API forms act on the last axes: ``trace`` and ``diagonal`` on
the last two, ``cross`` on 3-vectors only, ``outer`` on 1-d inputs only,
as JAX's ``jax.numpy.linalg`` does.
"""

from collections.abc import Callable, Sequence

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.dot import PrecisionLike, canonicalize_precision
from jaxtyped._src.numpy import manipulation as man
from jaxtyped._src.numpy import shape_ops
from jaxtyped._src.numpy import vector_products as vp
from jaxtyped._src.numpy.creation import eye
from jaxtyped._src.numpy.promotion import asarray_operand, broadcast_to_shape
from jaxtyped._src.util import canonicalize_axis, is_list_or_tuple

__all__ = [
    "matmul", "tensordot", "vecdot", "outer", "cross", "trace", "diagonal", "matrix_transpose",
    "multi_dot", "power_by_squaring", "check_square_stack",
]  # fmt: skip


def _with_preferred(
    product: Callable[[Array, Array], Array], x1: ArrayLike, x2: ArrayLike, name: str, preferred_element_type: "dtypes.DTypeLike | None"
) -> Array:
    """``product(x1, x2)`` accumulated in ``preferred_element_type``
    (:func:`shape_ops.with_preferred_element_type`), with the operands
    named as the ``jnp.linalg`` function's in errors."""
    return shape_ops.with_preferred_element_type(
        lambda a, b: product(asarray_operand(name, a), asarray_operand(name, b, 1)), x1, x2, name, preferred_element_type
    )


def matmul(
    x1: ArrayLike,
    x2: ArrayLike,
    /,
    *,
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """Matrix product with broadcast batch dimensions (``jnp.matmul``)."""
    canonicalize_precision(precision, "jnp.linalg.matmul")
    return _with_preferred(shape_ops.matmul, x1, x2, "linalg.matmul", preferred_element_type)


def tensordot(
    x1: ArrayLike,
    x2: ArrayLike,
    /,
    *,
    axes: int | tuple[Sequence[int], Sequence[int]] = 2,
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
    out_sharding: None = None,
) -> Array:
    """Sum of products over ``axes`` (``jnp.tensordot`` with the array
    API's keyword-only ``axes``); ``out_sharding`` must be None (one device)."""
    canonicalize_precision(precision, "jnp.linalg.tensordot")
    if out_sharding is not None:
        raise JaxtypedValueError("jnp.linalg.tensordot: out_sharding is not supported (one device); pass None")
    return _with_preferred(lambda a, b: shape_ops.tensordot(a, b, axes), x1, x2, "linalg.tensordot", preferred_element_type)


def vecdot(
    x1: ArrayLike,
    x2: ArrayLike,
    /,
    *,
    axis: int = -1,
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """``sum(conj(x1) * x2)`` along ``axis``, batch axes broadcast."""
    canonicalize_precision(precision, "jnp.linalg.vecdot")
    return _with_preferred(lambda a, b: vp.vecdot(a, b, axis=axis), x1, x2, "linalg.vecdot", preferred_element_type)


def outer(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """The outer product of two 1-d arrays."""
    a = asarray_operand("linalg.outer", x1)
    b = asarray_operand("linalg.outer", x2, 1)
    if a.ndim != 1 or b.ndim != 1:
        raise JaxtypedValueError(
            f"jnp.linalg.outer: input arrays must be one-dimensional, got {a.aval.str_short()} and {b.aval.str_short()}"
        )
    return shape_ops.outer(a, b)


def cross(x1: ArrayLike, x2: ArrayLike, /, *, axis: int = -1) -> Array:
    """The cross product of (stacks of) 3-vectors along ``axis``."""
    a = asarray_operand("linalg.cross", x1)
    b = asarray_operand("linalg.cross", x2, 1)
    sizes = [v.shape[canonicalize_axis(axis, v.ndim, where="jnp.linalg.cross axis")] if v.ndim else 0 for v in (a, b)]
    if sizes != [3, 3]:
        raise JaxtypedValueError(
            "jnp.linalg.cross: both inputs must be (arrays of) 3-dimensional vectors along axis "
            f"{axis}, got {a.aval.str_short()} and {b.aval.str_short()}"
        )
    return vp.cross(a, b, axis=axis)


def _at_least_2d(name: str, x: ArrayLike) -> Array:
    a = asarray_operand(f"linalg.{name}", x)
    if a.ndim < 2:
        raise JaxtypedValueError(f"jnp.linalg.{name}: x must be at least two-dimensional, got {a.aval.str_short()}")
    return a


def trace(x: ArrayLike, /, *, offset: int = 0, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """The sums of the ``offset``-th diagonals of the last two axes."""
    return man.trace(_at_least_2d("trace", x), offset, -2, -1, dtype)


def diagonal(x: ArrayLike, /, *, offset: int = 0) -> Array:
    """The ``offset``-th diagonals of the last two axes."""
    return man.diagonal(_at_least_2d("diagonal", x), offset, -2, -1)


def matrix_transpose(x: ArrayLike, /) -> Array:
    """Swap the last two axes (a stack of matrices transposed)."""
    return man.matrix_transpose(x)


def _chain_order(dims: Sequence[int]) -> list[list[int]]:
    # The classic dynamic program over parenthesisations: split[i][j] is
    # where the cheapest product of matrices i..j splits.
    count = len(dims) - 1
    cost = [[0] * count for _ in range(count)]
    split = [[0] * count for _ in range(count)]
    for length in range(1, count):
        for i in range(count - length):
            j = i + length
            best = -1
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                if best < 0 or c < best:
                    best, split[i][j] = c, k
            cost[i][j] = best
    return split


def _is_list_or_tuple(value: object) -> bool:
    # A plain bool, so that the checkers keep the declared element type.
    return is_list_or_tuple(value)


def multi_dot(arrays: Sequence[ArrayLike], *, precision: PrecisionLike = None) -> Array:
    """The product of a chain of matrices, multiplied in the cheapest order
    (the first and the last may be vectors)."""
    canonicalize_precision(precision, "jnp.linalg.multi_dot")
    if not _is_list_or_tuple(arrays):
        raise JaxtypedTypeError(f"jnp.linalg.multi_dot: arrays must be a list or tuple of arrays, got {type(arrays).__name__}")
    mats = [asarray_operand("linalg.multi_dot", a, i) for i, a in enumerate(arrays)]
    if len(mats) < 2:
        raise JaxtypedValueError(f"jnp.linalg.multi_dot: needs at least two arrays, got {len(mats)}")
    shapes = [m.shape for m in mats]
    if (
        not 1 <= mats[0].ndim <= 2
        or not 1 <= mats[-1].ndim <= 2
        or any(m.ndim != 2 for m in mats[1:-1])
    ):
        raise JaxtypedValueError(
            "jnp.linalg.multi_dot: input arrays must all be two-dimensional, except for the first and last "
            f"array which may be 1 or 2 dimensional, got shapes {shapes}"
        )
    first_vector, last_vector = mats[0].ndim == 1, mats[-1].ndim == 1
    if first_vector:
        mats[0] = ls.expand_dims(mats[0], (0,))
    if last_vector:
        mats[-1] = ls.expand_dims(mats[-1], (1,))
    for left, right in zip(mats, mats[1:]):
        if left.shape[1] != right.shape[0]:
            raise JaxtypedTypeError(f"jnp.linalg.multi_dot: shapes {shapes} are not aligned")
    dims = [mats[0].shape[0], *(m.shape[1] for m in mats)]
    split = _chain_order(dims)

    def product(i: int, j: int) -> Array:
        if i == j:
            return mats[i]
        k = split[i][j]
        return shape_ops.matmul(product(i, k), product(k + 1, j))

    result = product(0, len(mats) - 1)
    if first_vector:
        result = ls.squeeze(result, (0,))
    if last_vector:
        result = ls.squeeze(result, (result.ndim - 1,))
    return result


def check_square_stack(name: str, a: Array) -> None:
    """Raise JAX's errors unless ``a`` is a (stack of) square matrices."""
    if a.ndim < 2:
        raise JaxtypedTypeError(
            f"jnp.linalg.{name}: {a.ndim}-dimensional array given, the array must be at least two-dimensional, got {a.aval.str_short()}"
        )
    if a.shape[-1] != a.shape[-2]:
        raise JaxtypedTypeError(f"jnp.linalg.{name}: the last 2 dimensions must be square, got {a.aval.str_short()}")


def power_by_squaring(x: Array, n: int) -> Array:
    """``x`` (a checked stack of square matrices) to the power ``n >= 0``
    by repeated squaring."""
    if n == 0:
        return broadcast_to_shape(eye(x.shape[-1], dtype=x.dtype), x.shape)
    square: Array | None = None
    result: Array | None = None
    while n > 0:
        square = x if square is None else shape_ops.matmul(square, square)
        n, bit = divmod(n, 2)
        if bit:
            result = square if result is None else shape_ops.matmul(result, square)
    assert result is not None
    return result
