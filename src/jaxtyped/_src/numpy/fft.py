"""``jaxtyped.numpy.fft`` (layer L5): discrete Fourier transforms with
JAX's names, signatures, dtypes and normalisations, built on the ``fft``
primitive (``_src/lax/fft.py``).

XLA transforms at most the 3 trailing axes at once, so each function moves
its axes to the end (in the order given: for the real transforms the last
one is the halved axis), transforms them in chunks of at most 3, and moves
them back. Inputs are padded with zeros or cropped to the requested sizes
first. ``norm`` scales the result: XLA's inverse transforms already divide
by ``N``, so ``"backward"`` needs no scaling at all.
"""

import math
from collections.abc import Sequence
from typing import Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import array_from_numpy
from jaxtyped._src.errors import JaxtypedIndexError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.arithmetic import div as lax_div
from jaxtyped._src.lax.complex_ops import conj
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.fft import MAX_FFT_AXES, FftType, complex_dtype_for, fft as lax_fft, real_dtype_for
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.lax.structural import inverse_permutation, pad, transpose
from jaxtyped._src.lax.util import scalar_like
from jaxtyped._src.numpy.creation import on_device
from jaxtyped._src.numpy.manipulation import roll
from jaxtyped._src.numpy.promotion import asarray_operand, promote_args, to_inexact_dtype
from jaxtyped._src.numpy.ufuncs import divide, multiply
from jaxtyped._src.runtime import xla
from jaxtyped._src.util import axis_tuple, canonicalize_axes, index_arg, is_list_or_tuple, prod


__all__ = [
    "fft", "ifft", "rfft", "irfft", "hfft", "ihfft", "fft2", "ifft2", "rfft2", "irfft2",
    "fftn", "ifftn", "rfftn", "irfftn", "fftfreq", "rfftfreq", "fftshift", "ifftshift",
]  # fmt: skip

_NORMS: tuple[str, ...] = ("backward", "ortho", "forward")
_SWAPPED: dict[str, str] = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _norm(name: str, norm: str | None) -> str:
    if norm is None:
        return "backward"
    if norm not in _NORMS:
        raise JaxtypedValueError(f'jnp.fft.{name}: invalid norm value {norm!r}; should be "backward", "ortho" or "forward"')
    return norm


def _as_input(name: str, a: ArrayLike, kind: FftType) -> Array:
    """The operand in the dtype the transform computes in (JAX's rules)."""
    x = asarray_operand(f"fft.{name}", a)
    if kind == FftType.RFFT:
        if dtypes.is_complex(x.dtype):
            raise JaxtypedValueError(f"jnp.fft.{name}: only real valued inputs are supported, got {x.aval.str_short()}")
        dtype = to_inexact_dtype(x.dtype)
        if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
            raise JaxtypedValueError(f"jnp.fft.{name}: input must be float32 or float64, got {x.aval.str_short()}")
        return convert_to(x, real_dtype_for(dtype), weak_type=False)
    return convert_to(x, complex_dtype_for(to_inexact_dtype(x.dtype)), weak_type=False)


def _resize(x: Array, axis: int, size: int) -> Array:
    """``x`` cropped or zero-padded at the end of ``axis`` to ``size``."""
    have = x.shape[axis]
    if have > size:
        return slice_in_dim(x, 0, size, 1, axis)
    if have < size:
        config = [(0, 0, 0)] * x.ndim
        config[axis] = (0, size - have, 0)
        return pad(x, scalar_like(0, x.dtype, "jnp.fft padding", weak_type=False), config)
    return x


def _trailing(x: Array, kind: FftType, lengths: tuple[int, ...], first: int) -> Array:
    """Transform the axes ``first .. first + len(lengths)`` of the block of
    trailing transform axes (counted from the end): they are moved to the
    end when they are not there already."""
    k = len(lengths)
    start = x.ndim - first - k
    if first == 0:
        return lax_fft(x, kind, lengths)
    chunk = list(range(start, start + k))
    perm = [i for i in range(x.ndim) if i not in chunk] + chunk
    moved = lax_fft(transpose(x, perm), kind, lengths)
    return transpose(moved, inverse_permutation(perm))


def _transform(x: Array, kind: FftType, sizes: tuple[int, ...]) -> Array:
    """The transform over the ``len(sizes)`` trailing axes of ``x`` (logical
    sizes ``sizes``), composed of transforms of at most 3 axes."""
    k = len(sizes)
    # Chunks counted from the end: the last chunk holds the halved axis of
    # the real transforms.
    chunks = [(first, min(MAX_FFT_AXES, k - first)) for first in range(0, k, MAX_FFT_AXES)]
    if kind == FftType.RFFT:
        order = [(FftType.RFFT if first == 0 else FftType.FFT, first, count) for first, count in chunks]
    elif kind == FftType.IRFFT:
        order = [(FftType.IRFFT if first == 0 else FftType.IFFT, first, count) for first, count in reversed(chunks)]
    else:
        order = [(kind, first, count) for first, count in chunks]
    for chunk_kind, first, count in order:
        lengths = sizes[k - first - count : k - first]
        x = _trailing(x, chunk_kind, lengths, first)
    return x


def _int_tuple(where: str, values: object) -> tuple[int, ...]:
    if not is_list_or_tuple(values):
        raise JaxtypedTypeError(f"{where} must be a sequence of ints, got {values!r}")
    return tuple(index_arg(n, where) for n in values)


def _sizes_and_axes(
    name: str, x: Array, s: Sequence[int] | None, axes: Sequence[int] | None, kind: FftType
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The canonical axes and the logical transform size along each."""
    where = f"jnp.fft.{name}"
    sizes = None if s is None else _int_tuple(f"{where} s", s)
    if axes is None:
        count = x.ndim if sizes is None else len(sizes)
        if count > x.ndim:
            raise JaxtypedValueError(f"{where}: s={sizes} has more entries than the input {x.aval.str_short()} has axes")
        axes_ = tuple(range(x.ndim - count, x.ndim))
    else:
        axes_ = canonicalize_axes(axis_tuple(axes, f"{where} axes"), x.ndim, where=f"{where} axes")
    if sizes is None:
        sizes = tuple(x.shape[a] for a in axes_)
        if kind == FftType.IRFFT and axes_:
            # A one-term spectrum gives an empty signal, as in JAX.
            sizes = (*sizes[:-1], 2 * (sizes[-1] - 1))
        return sizes, axes_
    if len(sizes) != len(axes_):
        raise JaxtypedValueError(f"{where}: s={sizes} and axes={axes_} must have the same length")
    if any(n < 1 for n in sizes):
        raise JaxtypedValueError(f"{where}: every transform size must be positive, got {sizes}")
    return sizes, axes_


def _fftn(name: str, kind: FftType, a: ArrayLike, s: Sequence[int] | None, axes: Sequence[int] | None, norm: str | None) -> Array:
    """The transform of kind ``kind`` over ``axes`` (sizes ``s``)."""
    mode = _norm(name, norm)
    x = _as_input(name, a, kind)
    sizes, axes_ = _sizes_and_axes(name, x, s, axes, kind)
    if not axes_:
        return x
    for i, (axis, size) in enumerate(zip(axes_, sizes, strict=True)):
        last_of_irfft = kind == FftType.IRFFT and i == len(axes_) - 1
        x = _resize(x, axis, size // 2 + 1 if last_of_irfft else size)
    perm = [i for i in range(x.ndim) if i not in axes_] + list(axes_)
    y = transpose(_transform(transpose(x, perm), kind, sizes), inverse_permutation(perm))
    return _normalise(y, kind, mode, prod(sizes))


def _normalise(y: Array, kind: FftType, mode: str, n: int) -> Array:
    if mode == "backward":
        return y
    inverse = kind in (FftType.IFFT, FftType.IRFFT)
    if mode == "ortho":
        factor = math.sqrt(n) if inverse else 1 / math.sqrt(n)
    else:  # forward: the forward transform divides, the inverse does not
        factor = float(n) if inverse else 1 / n
    return multiply(y, factor)


def _one_axis(name: str, kind: FftType, a: ArrayLike, n: int | None, axis: int, norm: str | None) -> Array:
    sizes = None if n is None else (index_arg(n, f"jnp.fft.{name} n"),)
    return _fftn(name, kind, a, sizes, (index_arg(axis, f"jnp.fft.{name} axis"),), norm)


def fft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """The 1-D discrete Fourier transform along ``axis``, of size ``n``
    (the input cropped or zero-padded)."""
    return _one_axis("fft", FftType.FFT, a, n, axis, norm)


def ifft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """The inverse of :func:`fft`."""
    return _one_axis("ifft", FftType.IFFT, a, n, axis, norm)


def rfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """The 1-D transform of a real input: the ``n // 2 + 1``
    non-negative-frequency terms."""
    return _one_axis("rfft", FftType.RFFT, a, n, axis, norm)


def irfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """The inverse of :func:`rfft`: ``n`` real outputs (default
    ``2 * (m - 1)`` for ``m`` input terms)."""
    return _one_axis("irfft", FftType.IRFFT, a, n, axis, norm)


def _check_axes_in_range(name: str, x: Array, axes: tuple[int, ...]) -> None:
    """``hfft``, ``ihfft`` and the shifts reject an out-of-range axis with
    an IndexError, as JAX's do (the other transforms raise ValueError)."""
    for axis in axes:
        if not -x.ndim <= axis < x.ndim:
            raise JaxtypedIndexError(f"jnp.fft.{name}: axis {axis} is out of bounds for an array of rank {x.ndim}")


def hfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """The transform of a Hermitian-symmetric signal given by its first
    half: a real spectrum of size ``n``.

    Raises:
        JaxtypedIndexError: ``axis`` is out of range (JAX's error kind).
    """
    mode = _SWAPPED[_norm("hfft", norm)]
    x = _as_input("hfft", a, FftType.FFT)
    _check_axes_in_range("hfft", x, (index_arg(axis, "jnp.fft.hfft axis"),))
    return _one_axis("hfft", FftType.IRFFT, conj(x), n, axis, mode)


def ihfft(a: ArrayLike, n: int | None = None, axis: int = -1, norm: str | None = None) -> Array:
    """The inverse of :func:`hfft`, from a real input.

    Raises:
        JaxtypedIndexError: ``axis`` is out of range (JAX's error kind).
    """
    mode = _SWAPPED[_norm("ihfft", norm)]
    x = asarray_operand("fft.ihfft", a)
    _check_axes_in_range("ihfft", x, (index_arg(axis, "jnp.fft.ihfft axis"),))
    return conj(_one_axis("ihfft", FftType.RFFT, x, n, axis, mode))


def fft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Array:
    """The 2-D discrete Fourier transform over ``axes``."""
    return _fftn("fft2", FftType.FFT, a, s, axes, norm)


def ifft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Array:
    """The inverse of :func:`fft2`."""
    return _fftn("ifft2", FftType.IFFT, a, s, axes, norm)


def rfft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Array:
    """The 2-D transform of a real input (the last axis halved)."""
    return _fftn("rfft2", FftType.RFFT, a, s, axes, norm)


def irfft2(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None) -> Array:
    """The inverse of :func:`rfft2`."""
    return _fftn("irfft2", FftType.IRFFT, a, s, axes, norm)


def fftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None) -> Array:
    """The N-D discrete Fourier transform over ``axes`` (default: all, or
    the last ``len(s)``)."""
    return _fftn("fftn", FftType.FFT, a, s, axes, norm)


def ifftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None) -> Array:
    """The inverse of :func:`fftn`."""
    return _fftn("ifftn", FftType.IFFT, a, s, axes, norm)


def rfftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None) -> Array:
    """The N-D transform of a real input (the last of ``axes`` halved)."""
    return _fftn("rfftn", FftType.RFFT, a, s, axes, norm)


def irfftn(a: ArrayLike, s: Sequence[int] | None = None, axes: Sequence[int] | None = None, norm: str | None = None) -> Array:
    """The inverse of :func:`rfftn`."""
    return _fftn("irfftn", FftType.IRFFT, a, s, axes, norm)


def _frequencies(
    name: str, numerators: "np.ndarray[Any, np.dtype[Any]]", n: int, d: ArrayLike, dtype: "dtypes.DTypeLike | None", device: xla.Device | None
) -> Array:
    """``numerators / (d * n)`` in ``dtype`` (default: the default float)."""
    target = dtypes.canonicalize_dtype(dtypes.default_float_dtype() if dtype is None else dtypes.dtype(dtype))
    frequencies = array_from_numpy(numerators.astype(target))
    spacing = d * n if isinstance(d, (int, float)) and not isinstance(d, bool) else multiply(asarray_operand(f"fft.{name}", d), n)
    scale = convert_to(asarray_operand(f"fft.{name}", spacing), target, weak_type=False)
    k, scale = promote_args(f"fft.{name}", frequencies, scale)
    # Integer dtypes divide as lax does (truncating), keeping the dtype.
    result = divide(k, scale) if dtypes.is_inexact(target) else lax_div(k, scale)
    return on_device(result, device)


def fftfreq(n: int, d: ArrayLike = 1.0, *, dtype: "dtypes.DTypeLike | None" = None, device: xla.Device | None = None) -> Array:
    """The sample frequencies of :func:`fft` for ``n`` samples spaced
    ``d`` apart: ``[0, 1, ..., -2, -1] / (d * n)``."""
    size = max(index_arg(n, "jnp.fft.fftfreq n"), 0)
    numerators = np.concatenate([np.arange(0, (size - 1) // 2 + 1), np.arange(-(size // 2), 0)])
    return _frequencies("fftfreq", numerators, size, d, dtype, device)


def rfftfreq(n: int, d: ArrayLike = 1.0, *, dtype: "dtypes.DTypeLike | None" = None, device: xla.Device | None = None) -> Array:
    """The sample frequencies of :func:`rfft`: ``[0, 1, ..., n // 2] / (d * n)``."""
    size = max(index_arg(n, "jnp.fft.rfftfreq n"), 0)
    return _frequencies("rfftfreq", np.arange(0, size // 2 + 1), size, d, dtype, device)


def _shift(name: str, x: ArrayLike, axes: int | Sequence[int] | None, sign: int) -> Array:
    array = asarray_operand(f"fft.{name}", x)
    if axes is None:
        axes_ = tuple(range(array.ndim))
    else:
        given = axis_tuple(axes, f"jnp.fft.{name} axes")
        _check_axes_in_range(name, array, given)
        axes_ = canonicalize_axes(given, array.ndim, where=f"jnp.fft.{name} axes")
    if not axes_:
        return array
    shifts = [sign * (array.shape[a] // 2) for a in axes_]
    return roll(array, shifts, axes_)


def fftshift(x: ArrayLike, axes: int | Sequence[int] | None = None) -> Array:
    """Move the zero-frequency term to the centre of ``axes`` (default: all).

    Raises:
        JaxtypedIndexError: an axis is out of range (JAX's error kind).
    """
    return _shift("fftshift", x, axes, 1)


def ifftshift(x: ArrayLike, axes: int | Sequence[int] | None = None) -> Array:
    """The inverse of :func:`fftshift`.

    Raises:
        JaxtypedIndexError: an axis is out of range (JAX's error kind).
    """
    return _shift("ifftshift", x, axes, -1)

