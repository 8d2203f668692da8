"""``jnp.convolve`` and ``jnp.correlate`` (layer L5): one-dimensional
convolution and cross-correlation as a ``lax.conv_general_dilated`` over one
batch element and one feature."""

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.lax.convolution import conv_general_dilated
from jaxtyped._src.lax.structural import reshape, rev
from jaxtyped._src.numpy.promotion import asarray_operand, promote_dtypes
from jaxtyped._src.numpy.ufuncs import conjugate

__all__ = ["convolve", "correlate"]


def _one_dimensional(
    name: str,
    a: ArrayLike,
    v: ArrayLike,
    mode: str,
    preferred_element_type: "dtypes.DTypeLike | None",
) -> Array:
    for position, operand in enumerate((a, v)):
        if asarray_operand(name, operand, position).ndim != 1:
            raise JaxtypedValueError(f"{name}() only support 1-dimensional inputs.")
    # Without a preferred result type the inputs promote to an inexact
    # dtype, as NumPy's convolutions do.
    x, y = promote_dtypes(name, (a, v), inexact=preferred_element_type is None)
    if x.shape[0] == 0 or y.shape[0] == 0:
        raise JaxtypedValueError(f"{name}: inputs cannot be empty, got shapes {x.shape} and {y.shape}.")
    reverse_output = False
    if name == "correlate":
        if dtypes.is_complex(y.dtype):
            y = conjugate(y)
        if x.shape[0] < y.shape[0]:
            x, y, reverse_output = y, x, True
    else:
        if x.shape[0] < y.shape[0]:
            x, y = y, x
        y = rev(y, (0,))
    n = y.shape[0]
    if mode == "valid":
        padding = [(0, 0)]
    elif mode == "same":
        padding = [(n // 2, n - n // 2 - 1)]
    elif mode == "full":
        padding = [(n - 1, n - 1)]
    else:
        raise JaxtypedValueError(f"{name}: mode must be one of ['full', 'same', 'valid'], got {mode!r}")
    out = conv_general_dilated(
        reshape(x, (1, 1, x.shape[0])), reshape(y, (1, 1, n)), (1,), padding,
        preferred_element_type=preferred_element_type,
    )  # fmt: skip
    flat = reshape(out, (out.shape[2],))
    return rev(flat, (0,)) if reverse_output else flat


def convolve(
    a: ArrayLike,
    v: ArrayLike,
    mode: str = "full",
    *,
    precision: None = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """Discrete linear convolution of two 1-D arrays (JAX's
    ``jnp.convolve``; ``mode`` is 'full', 'same' or 'valid')."""
    return _one_dimensional("convolve", a, v, mode, preferred_element_type)


def correlate(
    a: ArrayLike,
    v: ArrayLike,
    mode: str = "valid",
    *,
    precision: None = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """Cross-correlation of two 1-D arrays, ``v`` conjugated (JAX's
    ``jnp.correlate``; ``mode`` is 'valid', 'same' or 'full')."""
    return _one_dimensional("correlate", a, v, mode, preferred_element_type)
