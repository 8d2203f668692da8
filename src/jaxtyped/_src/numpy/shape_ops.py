"""Shape manipulation and products for ``jaxtyped.numpy`` (layer L5):
``reshape``, ``transpose``, ``broadcast_to``, ``expand_dims``,
``squeeze``, ``ravel``, ``moveaxis``, ``swapaxes``, ``concatenate``,
``stack``, ``dot``, ``matmul``, ``vdot``, ``inner``, ``outer``,
``tensordot``."""

from collections.abc import Callable, Sequence

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.dtypes import promote_types
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError, ShapeMismatchError
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.dot import PrecisionLike, canonicalize_precision, dot_general
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.numpy.creation import check_allocation
from jaxtyped._src.numpy.promotion import (
    asarray_operand,
    broadcast_shapes,
    broadcast_to_shape,
    promote_dtypes,
)
from jaxtyped._src.numpy.ufuncs import conjugate, multiply
from jaxtyped._src.core.key_layout import key_dispatch, key_dispatch_seq  # random family
from jaxtyped._src.util import axis_tuple, canonicalize_axes, canonicalize_axis, is_list_or_tuple, prod

__all__ = [
    "reshape", "transpose", "broadcast_to", "expand_dims", "squeeze", "ravel", "moveaxis",
    "swapaxes", "concatenate", "stack", "dot", "matmul", "vdot", "inner", "outer", "tensordot",
    "shape", "ndim", "size", "with_preferred_element_type",
]


def shape(a: ArrayLike) -> tuple[int, ...]:
    """The shape of ``a``."""
    return asarray_operand("shape", a).shape


def ndim(a: ArrayLike) -> int:
    """The number of dimensions of ``a``."""
    return asarray_operand("ndim", a).ndim


def size(a: ArrayLike, axis: int | None = None) -> int:
    """The number of elements of ``a`` (along ``axis``, if given)."""
    x = asarray_operand("size", a)
    return x.size if axis is None else x.shape[canonicalize_axis(axis, x.ndim, where="jnp.size axis")]


def _new_shape(x: Array, newshape: ShapeLike) -> tuple[int, ...]:
    dims = list(axis_tuple(newshape, "jnp.reshape: each entry of shape"))
    unknown = [i for i, d in enumerate(dims) if d == -1]
    known = prod(d for d in dims if d != -1)
    if len(unknown) > 1 or any(d < -1 for d in dims):
        raise JaxtypedTypeError(f"jnp.reshape: invalid shape {tuple(dims)} (at most one -1, no other negative sizes)")
    if unknown:
        if known == 0 or x.size % known:
            raise JaxtypedTypeError(
                f"jnp.reshape: cannot reshape {x.aval.str_short()} (size {x.size}) into shape "
                f"{tuple(dims)} because the product of specified axis sizes ({known}) does not evenly divide {x.size}"
            )
        dims[unknown[0]] = x.size // known
    if prod(dims) != x.size:
        raise JaxtypedTypeError(
            f"jnp.reshape: cannot reshape {x.aval.str_short()} (size {x.size}) into shape {tuple(dims)}"
        )
    return tuple(dims)


def reshape(a: ArrayLike, shape: ShapeLike, order: str = "C", *, copy: bool | None = None) -> Array:
    """``a`` with a new shape (one entry may be -1); C order only.
    ``copy`` is accepted as JAX's: arrays are immutable, so whether the
    result shares ``a``'s buffer is not observable."""
    if (keys := key_dispatch(lambda k: reshape(k, shape, order), a)) is not None:  # random family: key arrays
        return keys
    if order != "C":
        raise JaxtypedValueError(f"jnp.reshape: only order='C' is supported, got {order!r}")
    x = asarray_operand("reshape", a)
    return ls.reshape(x, _new_shape(x, shape))


def transpose(a: ArrayLike, axes: Sequence[int] | None = None) -> Array:
    """Permute the axes (reverse them by default)."""
    if (keys := key_dispatch(lambda k: transpose(k, axes), a)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("transpose", a)
    if axes is None:
        return ls.transpose(x, tuple(reversed(range(x.ndim))))
    try:
        perm = canonicalize_axes(list(axes), x.ndim, where="jnp.transpose axes")
    except JaxtypedValueError as err:
        raise JaxtypedTypeError(str(err)) from None  # JAX raises TypeError here
    if len(perm) != x.ndim:
        raise JaxtypedTypeError(f"jnp.transpose: axes {tuple(axes)} are not a permutation of the axes of {x.aval.str_short()}")
    return ls.transpose(x, perm)


def broadcast_to(array: ArrayLike, shape: ShapeLike) -> Array:
    """``array`` broadcast to ``shape`` (NumPy rules)."""
    if (keys := key_dispatch(lambda k: broadcast_to(k, shape), array)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("broadcast_to", array)
    dims = axis_tuple(shape, "jnp.broadcast_to: each entry of shape")
    if len(dims) < x.ndim or any(
        d not in (1, t) for d, t in zip(x.shape, dims[len(dims) - x.ndim :])
    ):
        raise JaxtypedValueError(
            f"jnp.broadcast_to: incompatible shapes for broadcasting: input {x.aval.str_short()} "
            f"and requested shape {dims}"
        )
    return check_allocation("jnp.broadcast_to", broadcast_to_shape(x, dims))


def expand_dims(a: ArrayLike, axis: int | Sequence[int]) -> Array:
    """Insert size-1 axes at the positions ``axis`` of the result."""
    if (keys := key_dispatch(lambda k: expand_dims(k, axis), a)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("expand_dims", a)
    axes = axis_tuple(axis, "jnp.expand_dims axis")
    return ls.expand_dims(x, axes)


def squeeze(a: ArrayLike, axis: int | Sequence[int] | None = None) -> Array:
    """Remove size-1 axes (all of them by default)."""
    if (keys := key_dispatch(lambda k: squeeze(k, axis), a)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("squeeze", a)
    if axis is None:
        axes = tuple(i for i, d in enumerate(x.shape) if d == 1)
    else:
        axes = canonicalize_axes(axis_tuple(axis, "jnp.squeeze axis"), x.ndim, where="jnp.squeeze axis")
        if any(x.shape[i] != 1 for i in axes):
            raise JaxtypedValueError(
                f"jnp.squeeze: cannot select an axis to squeeze out which has size not equal to one, "
                f"got {x.aval.str_short()} and axis={axis}"
            )
    return ls.squeeze(x, axes)


def ravel(a: ArrayLike, order: str = "C") -> Array:
    """The elements as a 1-d array."""
    if (keys := key_dispatch(lambda k: ravel(k, order), a)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("ravel", a)
    return reshape(x, (x.size,), order)


def moveaxis(a: ArrayLike, source: int | Sequence[int], destination: int | Sequence[int]) -> Array:
    """Move axes to new positions, keeping the others in order."""
    if (keys := key_dispatch(lambda k: moveaxis(k, source, destination), a)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("moveaxis", a)
    src = canonicalize_axes(axis_tuple(source, "jnp.moveaxis source"), x.ndim, where="jnp.moveaxis source")
    dst = canonicalize_axes(axis_tuple(destination, "jnp.moveaxis destination"), x.ndim, where="jnp.moveaxis destination")
    if len(src) != len(dst):
        raise JaxtypedValueError("jnp.moveaxis: source and destination need the same number of axes")
    rest = [i for i in range(x.ndim) if i not in src]
    perm: list[int] = [0] * x.ndim
    placed = dict(zip(dst, src))
    remaining = iter(rest)
    for position in range(x.ndim):
        perm[position] = placed[position] if position in placed else next(remaining)
    return ls.transpose(x, perm)


def swapaxes(a: ArrayLike, axis1: int, axis2: int) -> Array:
    """Exchange two axes."""
    if (keys := key_dispatch(lambda k: swapaxes(k, axis1, axis2), a)) is not None:  # random family: key arrays
        return keys
    x = asarray_operand("swapaxes", a)
    i = canonicalize_axis(axis1, x.ndim, where="jnp.swapaxes axis1")
    j = canonicalize_axis(axis2, x.ndim, where="jnp.swapaxes axis2")
    perm = list(range(x.ndim))
    perm[i], perm[j] = perm[j], perm[i]
    return ls.transpose(x, perm)


def _check_sequence(name: str, arrays: object) -> None:
    if isinstance(arrays, (Array, np.ndarray)) or not is_list_or_tuple(arrays) or not arrays:
        raise JaxtypedValueError(f"jnp.{name}: needs a non-empty list or tuple of arrays")


def concatenate(arrays: Sequence[ArrayLike], axis: int | None = 0, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """Join arrays along an existing axis (``axis=None`` flattens first)."""
    _check_sequence("concatenate", arrays)
    if (keys := key_dispatch_seq(lambda ks: concatenate(ks, axis, dtype), arrays)) is not None:  # random family: key arrays
        return keys
    parts = promote_dtypes("concatenate", list(arrays))
    if dtype is not None:
        target = dtypes.canonicalize_dtype(dtypes.dtype(dtype))
        parts = [convert_to(p, target, weak_type=False) for p in parts]
    if axis is None:
        parts = [ls.reshape(p, (p.size,)) for p in parts]
        axis = 0
    if any(p.ndim == 0 for p in parts):
        raise JaxtypedValueError("jnp.concatenate: zero-dimensional arrays cannot be concatenated")
    ax = canonicalize_axis(axis, parts[0].ndim, where="jnp.concatenate axis")
    return ls.concatenate(parts, ax)


def stack(arrays: Sequence[ArrayLike], axis: int = 0, out: None = None, dtype: "dtypes.DTypeLike | None" = None) -> Array:
    """Join arrays of one shape along a new axis (``out``: JAX's, which
    accepts only None)."""
    if out is not None:
        raise JaxtypedNotImplementedError("The 'out' argument to jnp.stack is not supported.")
    _check_sequence("stack", arrays)
    if (keys := key_dispatch_seq(lambda ks: stack(ks, axis, dtype=dtype), arrays)) is not None:  # random family: key arrays
        return keys
    parts = promote_dtypes("stack", list(arrays))
    shapes = {p.shape for p in parts}
    if len(shapes) != 1:
        raise JaxtypedValueError(f"jnp.stack: all input arrays must have the same shape, got {sorted(shapes)}")
    ax = canonicalize_axis(axis, parts[0].ndim + 1, where="jnp.stack axis")
    return concatenate([ls.expand_dims(p, (ax,)) for p in parts], ax, dtype)


# === products ===


def _contract(a: Array, b: Array, a_axes: Sequence[int], b_axes: Sequence[int]) -> Array:
    return dot_general(a, b, ((tuple(a_axes), tuple(b_axes)), ((), ())), preferred_element_type=a.dtype)


def with_preferred_element_type(
    product: Callable[[ArrayLike, ArrayLike], Array],
    a: ArrayLike,
    b: ArrayLike,
    name: str,
    preferred_element_type: "dtypes.DTypeLike | None",
) -> Array:
    """``product(a, b)`` accumulated in ``preferred_element_type`` (JAX's
    keyword of the products): the operands, promoted together, are widened
    to it first (so that int8 products do not wrap, and bfloat16 ones sum in
    float32), or, for a narrower type, the result is narrowed after. The
    result is never weakly typed then, as JAX's. None: ``product(a, b)``."""
    if preferred_element_type is None:
        return product(a, b)
    x, y = promote_dtypes(name, (a, b))
    dtype = dtypes.canonicalize_dtype(dtypes.dtype(preferred_element_type))
    if promote_types(x.dtype, dtype) == dtype:
        return product(convert_to(x, dtype, weak_type=False), convert_to(y, dtype, weak_type=False))
    return convert_to(product(x, y), dtype, weak_type=False)


def dot(
    a: ArrayLike, b: ArrayLike, *, precision: PrecisionLike = None, preferred_element_type: "dtypes.DTypeLike | None" = None
) -> Array:
    """NumPy's ``dot``: products of scalars, inner products of vectors,
    matrix products, and sums over the last axis of ``a`` and the
    second-to-last of ``b``. ``precision`` (JAX's) is checked; on CPU it
    has no effect. ``preferred_element_type`` as in
    :func:`with_preferred_element_type`."""
    canonicalize_precision(precision, "jnp.dot")
    return with_preferred_element_type(_dot, a, b, "dot", preferred_element_type)


def _dot(a: ArrayLike, b: ArrayLike) -> Array:
    x, y = promote_dtypes("dot", (a, b), keep_weak_types=True)
    if x.ndim == 0 or y.ndim == 0:
        return multiply(x, y)
    b_axis = 0 if y.ndim == 1 else y.ndim - 2
    return _contract(x, y, (x.ndim - 1,), (b_axis,))


def matmul(
    a: ArrayLike, b: ArrayLike, *, precision: PrecisionLike = None, preferred_element_type: "dtypes.DTypeLike | None" = None
) -> Array:
    """Matrix product with broadcast batch dimensions (the ``@`` operator);
    ``precision`` and ``preferred_element_type`` as in :func:`dot`."""
    canonicalize_precision(precision, "jnp.matmul")
    return with_preferred_element_type(_matmul, a, b, "matmul", preferred_element_type)


def _matmul(a: ArrayLike, b: ArrayLike) -> Array:
    x, y = promote_dtypes("matmul", (a, b), keep_weak_types=True)
    for position, operand in enumerate((x, y)):
        if operand.ndim == 0:
            raise JaxtypedValueError(f"jnp.matmul: input operand {position} must have ndim at least 1, but it has ndim 0")
    if x.ndim <= 2 and y.ndim <= 2:
        # No batch dimensions: one contraction, as JAX stages it.
        if x.shape[-1] != y.shape[0 if y.ndim == 1 else -2]:
            raise JaxtypedTypeError(
                f"jnp.matmul: contracting dimensions differ: {x.aval.str_short()} @ {y.aval.str_short()}"
            )
        return _contract(x, y, (x.ndim - 1,), (0 if y.ndim == 1 else y.ndim - 2,))
    x2 = ls.expand_dims(x, (0,)) if x.ndim == 1 else x
    y2 = ls.expand_dims(y, (1,)) if y.ndim == 1 else y
    if x2.shape[-1] != y2.shape[-2]:
        raise JaxtypedTypeError(
            f"jnp.matmul: contracting dimensions differ: {x.aval.str_short()} @ {y.aval.str_short()}"
        )
    try:
        batch = broadcast_shapes("matmul", x2.shape[:-2], y2.shape[:-2], types=[x.aval.str_short(), y.aval.str_short()])
    except ShapeMismatchError as err:
        raise JaxtypedValueError(f"jnp.matmul: batch dimensions do not broadcast: {err}") from None  # ValueError, as JAX
    x3 = broadcast_to_shape(x2, (*batch, *x2.shape[-2:]))
    y3 = broadcast_to_shape(y2, (*batch, *y2.shape[-2:]))
    nb = len(batch)
    batch_axes = tuple(range(nb))
    out = dot_general(x3, y3, (((nb + 1,), (nb,)), (batch_axes, batch_axes)), preferred_element_type=x3.dtype)
    if x.ndim == 1:
        out = ls.squeeze(out, (out.ndim - 2,))
    if y.ndim == 1:
        out = ls.squeeze(out, (out.ndim - 1,))
    return out


def vdot(
    a: ArrayLike, b: ArrayLike, *, precision: PrecisionLike = None, preferred_element_type: "dtypes.DTypeLike | None" = None
) -> Array:
    """Inner product of the flattened arrays, conjugating the first;
    ``precision`` and ``preferred_element_type`` as in :func:`dot`."""
    canonicalize_precision(precision, "jnp.vdot")
    return with_preferred_element_type(_vdot, a, b, "vdot", preferred_element_type)


def _vdot(a: ArrayLike, b: ArrayLike) -> Array:
    x, y = promote_dtypes("vdot", (a, b), keep_weak_types=True)
    return _contract(ls.reshape(conjugate(x), (x.size,)), ls.reshape(y, (y.size,)), (0,), (0,))


def inner(
    a: ArrayLike, b: ArrayLike, *, precision: PrecisionLike = None, preferred_element_type: "dtypes.DTypeLike | None" = None
) -> Array:
    """Sum over the last axes of ``a`` and ``b``; ``precision`` and
    ``preferred_element_type`` as in :func:`dot`."""
    canonicalize_precision(precision, "jnp.inner")
    return with_preferred_element_type(_inner, a, b, "inner", preferred_element_type)


def _inner(a: ArrayLike, b: ArrayLike) -> Array:
    x, y = promote_dtypes("inner", (a, b), keep_weak_types=True)
    if x.ndim == 0 or y.ndim == 0:
        return multiply(x, y)
    return _contract(x, y, (x.ndim - 1,), (y.ndim - 1,))


def outer(a: ArrayLike, b: ArrayLike) -> Array:
    """Outer product of the flattened arrays."""
    x, y = promote_dtypes("outer", (a, b))
    x1, y1 = ls.reshape(x, (x.size, 1)), ls.reshape(y, (1, y.size))
    return _contract(x1, y1, (1,), (0,))


def tensordot(
    a: ArrayLike,
    b: ArrayLike,
    axes: int | Sequence[int | Sequence[int]] = 2,
    *,
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """Sum over the given axes of ``a`` and ``b`` (NumPy's ``tensordot``);
    ``precision`` and ``preferred_element_type`` as in :func:`dot`."""
    canonicalize_precision(precision, "jnp.tensordot")
    return with_preferred_element_type(lambda x, y: _tensordot(x, y, axes), a, b, "tensordot", preferred_element_type)


def _tensordot(a: ArrayLike, b: ArrayLike, axes: int | Sequence[int | Sequence[int]]) -> Array:
    x, y = promote_dtypes("tensordot", (a, b), keep_weak_types=True)
    if isinstance(axes, int):
        if axes > min(x.ndim, y.ndim) or axes < 0:
            raise JaxtypedTypeError(
                f"jnp.tensordot: axes={axes} is more than the ranks of {x.aval.str_short()} and {y.aval.str_short()}"
            )
        a_axes, b_axes = list(range(x.ndim - axes, x.ndim)), list(range(axes))
    else:
        first, second = axes
        a_axes = [first] if isinstance(first, int) else list(first)
        b_axes = [second] if isinstance(second, int) else list(second)
    return _contract(
        x, y, canonicalize_axes(a_axes, x.ndim, where="jnp.tensordot axes"), canonicalize_axes(b_axes, y.ndim, where="jnp.tensordot axes")
    )
