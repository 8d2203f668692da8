"""The ``fft`` primitive (layer L4): discrete Fourier transforms over the
1 to 3 trailing axes, lowered to ``stablehlo.fft``.

Note [XLA's FFT]: ``stablehlo.fft`` transforms exactly the trailing axes
its ``fft_length`` lists, and does not check that they match the operand:
a mismatched length compiles and silently returns garbage
(``shared/notes/jaxlib-0.10-facts.md``, section 13). ``abstract_eval``
therefore checks every length against the operand's shape. ``IFFT``
includes the ``1/N`` scaling; ``RFFT`` halves the last axis to
``n // 2 + 1``; ``IRFFT`` takes the halved spectrum and the *output*
lengths. Eager evaluation runs the compiled op (``DeviceEvaluated``), so
eager, ``jit`` and JAX agree to the last bit where NumPy's pocketfft would
not.

Derivatives: the transform is linear, so its jvp is itself. Transposes are
plain transposes for JAX's pairing ``Re(sum(u * v))``: the DFT matrix is
symmetric, so ``FFT`` and ``IFFT`` transpose to themselves; ``RFFT`` (embed
reals, transform, keep the first ``n // 2 + 1`` bins) transposes to "pad
with zeros, transform, keep the real part"; ``IRFFT`` reads each stored bin
``k`` of the last axis as ``c_k`` Hermitian copies (``c_k = 1`` for the DC
bin and, for even ``n``, the Nyquist bin; ``2`` otherwise) and ignores the
rest, so its transpose is ``c_k / N * conj(RFFT(ct))``.
"""

import enum
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import array_from_numpy
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import LinearArg, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.arithmetic import MUL, const_like
from jaxtyped._src.lax.complex_ops import CONJ, REAL
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.linalg.base import BatchedOverLeadingDims, DeviceEvaluated
from jaxtyped._src.lax.structural import broadcast_in_dim, instantiate, linear_operand, pad, zeros
from jaxtyped._src.lax.util import check_arity, as_operand
from jaxtyped._src.util import index_arg, is_list_or_tuple, prod

__all__ = ["FftType", "Fft", "fft", "complex_dtype_for", "real_dtype_for"]

# XLA transforms at most this many trailing axes in one op.
MAX_FFT_AXES = 3


class FftType(enum.IntEnum):
    """Which transform ``lax.fft`` computes (JAX's ``lax.FftType``)."""

    FFT = 0
    IFFT = 1
    RFFT = 2
    IRFFT = 3


def _is_wide(dtype: np.dtype[Any]) -> bool:
    """64-bit inputs (float64, int64, uint64, complex128)."""
    if dtypes.is_complex(dtype):
        return dtype == np.dtype(np.complex128)
    return dtype.itemsize == 8


def complex_dtype_for(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The complex dtype a transform of ``dtype`` computes in (JAX's rule):
    complex128 for 64-bit inputs (with x64 on), complex64 otherwise."""
    return dtypes.canonicalize_dtype(np.dtype(np.complex128 if _is_wide(dtype) else np.complex64))


def real_dtype_for(dtype: np.dtype[Any]) -> np.dtype[Any]:
    """The real dtype of the same width as :func:`complex_dtype_for`."""
    return dtypes.canonicalize_dtype(np.dtype(np.float64 if _is_wide(dtype) else np.float32))


def _halved(n: int) -> int:
    return n // 2 + 1


@final
@dataclass(frozen=True, slots=True)
class Fft(DeviceEvaluated, BatchedOverLeadingDims):
    """A discrete Fourier transform of kind ``fft_type`` over the trailing
    ``len(fft_lengths)`` axes (every leading axis is a batch axis)."""

    name = "fft"
    fft_type: FftType
    fft_lengths: tuple[int, ...]

    def _input_sizes(self) -> tuple[int, ...]:
        """The trailing sizes the operand must have."""
        if self.fft_type == FftType.IRFFT:
            return (*self.fft_lengths[:-1], _halved(self.fft_lengths[-1]))
        return self.fft_lengths

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity("fft", avals, 1)
        (x,) = avals
        kind, lengths = self.fft_type, self.fft_lengths
        where = f"fft ({kind.name}, fft_lengths={lengths})"
        if len(lengths) > MAX_FFT_AXES:
            raise JaxtypedValueError(f"{where}: at most {MAX_FFT_AXES} axes can be transformed at once, got {len(lengths)}")
        if not lengths and kind in (FftType.RFFT, FftType.IRFFT):
            raise JaxtypedValueError(f"{where}: a real transform needs at least one length")
        if any(n < 0 for n in lengths) or (kind == FftType.RFFT and lengths[-1] == 0):
            raise JaxtypedValueError(f"{where}: lengths must be positive")
        if kind == FftType.RFFT:
            if x.dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
                raise JaxtypedTypeError(f"{where}: the operand must be float32 or float64, got {x.str_short()}")
        elif x.dtype not in (np.dtype(np.complex64), np.dtype(np.complex128)):
            raise JaxtypedTypeError(f"{where}: the operand must be complex64 or complex128, got {x.str_short()}")
        if x.ndim < len(lengths):
            raise JaxtypedValueError(f"{where}: operand {x.str_short()} has fewer dimensions than fft_lengths")
        expected = self._input_sizes()
        if lengths and x.shape[-len(lengths) :] != expected:
            raise JaxtypedValueError(
                f"{where}: operand {x.str_short()} must end in dimensions {expected}, got {x.shape[-len(lengths):]}"
            )
        if kind == FftType.RFFT:
            shape = (*x.shape[:-1], _halved(lengths[-1]))
            return (ShapedArray(shape, complex_dtype_for(x.dtype)),)
        if kind == FftType.IRFFT:
            shape = (*x.shape[:-1], lengths[-1])
            return (ShapedArray(shape, real_dtype_for(x.dtype)),)
        return (ShapedArray(x.shape, x.dtype),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (x,), (out,) = args, out_avals
        if not self.fft_lengths:
            return (x,)
        if prod(x.aval.shape) == 0 or prod(out.shape) == 0:
            # Nothing to transform (an empty batch or an empty axis).
            return (ctx.constant(0, out),)
        attrs = {
            "fft_type": f"#stablehlo<fft_type {self.fft_type.name}>",
            "fft_length": f"array<i64: {', '.join(map(str, self.fft_lengths))}>",
        }
        return (ctx.op1("stablehlo.fft", (x,), out, attrs),)

    @override
    def jvp(
        self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
    ) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return (bind1(self, primals[0]),), (bind1(self, instantiate(tangents[0])),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        ct, aval = linear_operand(cts[0], args[0])
        kind, lengths = self.fft_type, self.fft_lengths
        if kind == FftType.IRFFT and lengths[-1] == 0:
            return (zeros(aval),)  # an empty signal: nothing flows back
        if kind in (FftType.FFT, FftType.IFFT) or not lengths:
            return (bind1(self, ct),)
        if kind == FftType.RFFT:
            missing = lengths[-1] - ct.shape[-1]
            config = [(0, 0, 0)] * (ct.ndim - 1) + [(0, missing, 0)]
            full = bind1(Fft(FftType.FFT, lengths), pad(ct, const_like(ct, 0), config))
            return (bind1(REAL, full),)
        # IRFFT: see the module docstring.
        spectrum = bind1(CONJ, bind1(Fft(FftType.RFFT, lengths), ct))
        n = lengths[-1]
        weights = np.full(_halved(n), 2.0)
        weights[0] = 1.0
        if n % 2 == 0:
            weights[-1] = 1.0
        scale = array_from_numpy((weights / prod(lengths)).astype(spectrum.dtype))
        return (bind1(MUL, spectrum, broadcast_in_dim(scale, spectrum.shape, (spectrum.ndim - 1,))),)


_TYPE_NAMES = {kind.name: kind for kind in FftType}


def _fft_type(fft_type: object) -> FftType:
    if isinstance(fft_type, FftType):
        return fft_type
    if isinstance(fft_type, str):
        kind = _TYPE_NAMES.get(fft_type.upper())
        if kind is None:
            raise JaxtypedValueError(f"lax.fft: unknown fft_type {fft_type!r} (expected one of fft, ifft, rfft, irfft)")
        return kind
    raise JaxtypedTypeError(f"lax.fft: fft_type must be a FftType or a string, got {fft_type!r}")


def _lengths(fft_lengths: object) -> tuple[int, ...]:
    if not is_list_or_tuple(fft_lengths):
        raise JaxtypedTypeError(f"lax.fft: fft_lengths must be a sequence of ints, got {fft_lengths!r}")
    return tuple(index_arg(n, "lax.fft fft_lengths") for n in fft_lengths)


def fft(x: ArrayLike, fft_type: FftType | str, fft_lengths: Sequence[int]) -> Array:
    """A discrete Fourier transform over the trailing ``len(fft_lengths)``
    (1 to 3) axes (JAX's ``lax.fft``). ``fft_type`` is a :class:`FftType`
    or its name (``"fft"``, ``"ifft"``, ``"rfft"``, ``"irfft"``); the
    operand is converted to complex (to floating for ``rfft``) first.

    Raises:
        JaxtypedValueError: an unknown ``fft_type``; complex, float16 or
            bfloat16 input to ``rfft``; lengths that do not match the
            operand's trailing dimensions (for ``irfft``: the last one is
            ``n // 2 + 1``); more than 3 lengths.
    """
    kind = _fft_type(fft_type)
    lengths = _lengths(fft_lengths)
    array = as_operand(x, "lax.fft operand")
    if kind == FftType.RFFT:
        if dtypes.is_complex(array.dtype):
            raise JaxtypedValueError(f"lax.fft: rfft takes real input, got {array.aval.str_short()}")
        if array.dtype in (np.dtype(np.float16), np.dtype(dtypes.bfloat16)):
            raise JaxtypedValueError(f"lax.fft: rfft input must be float32 or float64, got {array.aval.str_short()}")
        array = convert_to(array, real_dtype_for(array.dtype), weak_type=False)
    else:
        array = convert_to(array, complex_dtype_for(array.dtype), weak_type=False)
    return bind1(Fft(kind, lengths), array)
