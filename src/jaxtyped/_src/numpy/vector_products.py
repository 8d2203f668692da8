"""Small products of ``jaxtyped.numpy`` (layer L5): ``kron``, ``cross``,
``matvec``, ``vecmat``, ``vecdot`` and ``vander``, composed from
elementwise products and ``matmul`` (whose dot_general keeps the operands'
dtype, as JAX's)."""

import builtins

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.numpy import ufuncs as uf
from jaxtyped._src.numpy.manipulation_util import along, zeros_of
from jaxtyped._src.numpy.promotion import asarray_operand, broadcast_to_shape, promote_dtypes
from jaxtyped._src.numpy.promotion import broadcast_shapes as _broadcast_shapes
from jaxtyped._src.lax.dot import PrecisionLike, canonicalize_precision
from jaxtyped._src.numpy.shape_ops import matmul, moveaxis, with_preferred_element_type
from jaxtyped._src.util import canonicalize_axis, index_arg

__all__ = ["kron", "cross", "matvec", "vecmat", "vecdot", "vander"]


def kron(a: ArrayLike, b: ArrayLike) -> Array:
    """The Kronecker product: blocks ``a[i, j] * b``."""
    x, y = promote_dtypes("kron", (a, b))
    if dtypes.is_bool(x.dtype):
        # TypeError, as JAX's (its product is lax.mul, which rejects booleans).
        raise JaxtypedTypeError(f"jnp.kron: boolean arrays are not supported, got {x.aval.str_short()} and {y.aval.str_short()}")
    ndim = builtins.max(x.ndim, y.ndim)
    x = ls.reshape(x, (1,) * (ndim - x.ndim) + x.shape)
    y = ls.reshape(y, (1,) * (ndim - y.ndim) + y.shape)
    xs = ls.reshape(x, tuple(d for s in x.shape for d in (s, 1)))
    ys = ls.reshape(y, tuple(d for s in y.shape for d in (1, s)))
    product = uf.multiply(xs, ys)
    return ls.reshape(product, tuple(p * q for p, q in zip(x.shape, y.shape)))


def cross(
    a: ArrayLike, b: ArrayLike, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis: int | None = None
) -> Array:
    """The cross product of 2- or 3-vectors along ``axisa``/``axisb``
    (``axis`` sets all three); 2-vectors give the z component only."""
    x, y = promote_dtypes("cross", (a, b))
    if axis is not None:
        axisa = axisb = axisc = axis
    x = moveaxis(x, canonicalize_axis(axisa, x.ndim, where="jnp.cross axisa") if x.ndim else 0, -1) if x.ndim else x
    y = moveaxis(y, canonicalize_axis(axisb, y.ndim, where="jnp.cross axisb") if y.ndim else 0, -1) if y.ndim else y
    if x.ndim == 0 or y.ndim == 0 or x.shape[-1] not in (2, 3) or y.shape[-1] not in (2, 3):
        raise JaxtypedValueError(
            f"jnp.cross: incompatible dimensions for cross product (dimension must be 2 or 3), got {x.aval.str_short()} and {y.aval.str_short()}"
        )

    def part(v: Array, i: int) -> Array:
        return ls.squeeze(along(v, v.ndim - 1, i, i + 1), (v.ndim - 1,)) if i < v.shape[-1] else zeros_of(ls.squeeze(along(v, v.ndim - 1, 0, 1), (v.ndim - 1,)))

    a0, a1, a2 = part(x, 0), part(x, 1), part(x, 2)
    b0, b1, b2 = part(y, 0), part(y, 1), part(y, 2)
    z = uf.subtract(uf.multiply(a0, b1), uf.multiply(a1, b0))
    if x.shape[-1] == 2 and y.shape[-1] == 2:
        return z
    cx = uf.subtract(uf.multiply(a1, b2), uf.multiply(a2, b1))
    cy = uf.subtract(uf.multiply(a2, b0), uf.multiply(a0, b2))
    shape = _broadcast_shapes("jnp.cross", cx.shape, cy.shape, z.shape)
    parts = [ls.expand_dims(broadcast_to_shape(c, shape), (len(shape),)) for c in (cx, cy, z)]
    result = ls.concatenate(parts, len(shape))
    result = convert_to(result, result.dtype, weak_type=False)  # three components are stacked: strong, as in JAX
    return moveaxis(result, -1, canonicalize_axis(axisc, result.ndim, where="jnp.cross axisc"))


def matvec(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Matrix-vector products over broadcast batch axes: ``(..., m, n)`` by ``(..., n)``."""
    a, b = promote_dtypes("matvec", (x1, x2))
    if a.ndim < 2 or b.ndim < 1 or a.shape[-1] != b.shape[-1]:
        raise JaxtypedValueError(
            f"jnp.matvec: needs a matrix (..., m, n) and a vector (..., n), got {a.aval.str_short()} and {b.aval.str_short()}"
        )
    return ls.squeeze(matmul(a, ls.expand_dims(b, (b.ndim,))), (builtins.max(a.ndim, b.ndim + 1) - 1,))


def vecmat(x1: ArrayLike, x2: ArrayLike, /) -> Array:
    """Vector-matrix products ``conj(x1) @ x2`` over broadcast batch axes."""
    a, b = promote_dtypes("vecmat", (x1, x2))
    if a.ndim < 1 or b.ndim < 2 or a.shape[-1] != b.shape[-2]:
        raise JaxtypedValueError(
            f"jnp.vecmat: needs a vector (..., n) and a matrix (..., n, m), got {a.aval.str_short()} and {b.aval.str_short()}"
        )
    out = matmul(ls.expand_dims(uf.conjugate(a), (a.ndim - 1,)), b)
    return ls.squeeze(out, (out.ndim - 2,))


def vecdot(
    x1: ArrayLike,
    x2: ArrayLike,
    /,
    *,
    axis: int = -1,
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """The dot product ``sum(conj(x1) * x2)`` along ``axis``, batch axes
    broadcast; ``precision`` and ``preferred_element_type`` as in ``jnp.dot``."""
    canonicalize_precision(precision, "jnp.vecdot")
    return with_preferred_element_type(lambda a, b: _vecdot(a, b, axis), x1, x2, "vecdot", preferred_element_type)


def _vecdot(x1: ArrayLike, x2: ArrayLike, axis: int) -> Array:
    a, b = promote_dtypes("vecdot", (x1, x2))
    if a.ndim == 0 or b.ndim == 0:
        raise JaxtypedValueError("jnp.vecdot: arguments must have at least one dimension")
    a = moveaxis(a, canonicalize_axis(axis, a.ndim, where="jnp.vecdot axis"), -1)
    b = moveaxis(b, canonicalize_axis(axis, b.ndim, where="jnp.vecdot axis"), -1)
    if a.shape[-1] != b.shape[-1]:
        raise JaxtypedValueError(f"jnp.vecdot: axes of length {a.shape[-1]} and {b.shape[-1]} differ")
    out = matmul(ls.expand_dims(uf.conjugate(a), (a.ndim - 1,)), ls.expand_dims(b, (b.ndim,)))
    return ls.squeeze(out, (out.ndim - 2, out.ndim - 1))


def vander(x: ArrayLike, N: int | None = None, increasing: bool = False) -> Array:  # noqa: N803 - NumPy's name
    """The Vandermonde matrix of the 1-d ``x``: columns are powers of ``x``
    (decreasing by default)."""
    v = asarray_operand("vander", x)
    if v.ndim != 1:
        raise JaxtypedValueError(f"jnp.vander: x must be a one-dimensional array, got {v.aval.str_short()}")
    columns = v.shape[0] if N is None else index_arg(N, "jnp.vander: N")
    if columns < 0:
        raise JaxtypedValueError(f"jnp.vander: N must be nonnegative, got {columns}")
    exponents = ls.broadcasted_iota(v.dtype, (columns,), 0)
    if not increasing:
        exponents = ls.rev(exponents, (0,))
    powers = uf.power(ls.expand_dims(v, (1,)), ls.expand_dims(exponents, (0,)))
    return convert_to(powers, powers.dtype, weak_type=False)
