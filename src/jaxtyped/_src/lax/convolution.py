"""``conv_general_dilated`` and the convolution helpers of ``jax.lax``
(layer L4).

Axis layouts are given by :class:`ConvDimensionNumbers`: ``lhs_spec`` lists
the input's (batch, feature, *spatial) axes, ``rhs_spec`` the kernel's (out
feature, in feature, *spatial) axes and ``out_spec`` the output's (batch,
feature, *spatial) axes, or by strings such as ``('NHWC', 'HWIO', 'NHWC')``
(spatial axes matched by letter, in the kernel's order).

With ``feature_group_count = G`` the input features and the kernel's output
features are split into ``G`` groups (group-major) and group ``g`` of the
outputs sees only group ``g`` of the inputs; with ``batch_group_count = G``
it is the input batch that is split, the output batch shrinking ``G``-fold.
Both derivatives are convolutions again (with the roles of strides and
dilations swapped), so ``grad`` of a convolution is two convolutions.
"""

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, cast, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import array_from_numpy
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import DTypeMismatchError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.bilinear import bilinear_jvp, check_one_linear, lower_convert
from jaxtyped._src.lax.dot import PrecisionLike, canonicalize_precision, dot_general
from jaxtyped._src.lax.elementwise_base import convert_buffer, convert_to
from jaxtyped._src.lax.structural import reshape, rev, transpose
from jaxtyped._src.lax.util import check_arity, check_int_tuple, as_operand, short_types
from jaxtyped._src.util import is_int

__all__ = [
    "ConvDimensionNumbers",
    "ConvGeneralDilatedDimensionNumbers",
    "ConvGeneralDilated",
    "PaddingLike",
    "dilate_dim",
    "padtype_to_pads",
    "conv_general_permutations",
    "conv_dimension_numbers",
    "conv_general_dilated",
    "conv",
    "conv_with_general_padding",
    "conv_transpose",
    "conv_general_dilated_patches",
    "conv_general_dilated_local",
    "transpose_lhs_padding",
    "padding_pairs",
    "padding_attr",
    "window_view",
    "conv_shape_tuple",
    "conv_general_shape_tuple",
    "conv_transpose_shape_tuple",
]


class ConvDimensionNumbers(NamedTuple):
    """The axes of a convolution's operands and output: ``lhs_spec`` is
    ``(batch, feature, *spatial)`` of the input, ``rhs_spec`` ``(out feature,
    in feature, *spatial)`` of the kernel, ``out_spec`` ``(batch, feature,
    *spatial)`` of the output."""

    lhs_spec: tuple[int, ...]
    rhs_spec: tuple[int, ...]
    out_spec: tuple[int, ...]


# What users may pass as dimension_numbers (JAX's alias of the same name).
ConvGeneralDilatedDimensionNumbers = ConvDimensionNumbers | tuple[str, str, str] | None
# A padding: 'SAME', 'SAME_LOWER', 'VALID' or one (low, high) pair per spatial axis.
PaddingLike = str | Sequence[tuple[int, int]]


def dilate_dim(size: int, dilation: int) -> int:
    """The size of an axis of ``size`` elements with ``dilation - 1`` holes
    between neighbours."""
    return 0 if size == 0 else 1 + dilation * (size - 1)


def padtype_to_pads(
    in_shape: Sequence[int], window_shape: Sequence[int], window_strides: Sequence[int], padding: str
) -> list[tuple[int, int]]:
    """(low, high) padding pairs for a padding name (JAX's
    ``lax.padtype_to_pads``): ``'VALID'`` pads nothing; ``'SAME'`` pads so
    that the output has ``ceil(in / stride)`` elements, the odd element at the
    end; ``'SAME_LOWER'`` puts the odd element at the start."""
    if not isinstance(cast(object, padding), str):
        raise JaxtypedTypeError(f"padtype_to_pads: padding must be 'SAME', 'SAME_LOWER' or 'VALID', got {padding!r}")
    kind = padding.upper()
    if kind == "VALID":
        return [(0, 0)] * len(in_shape)
    if kind not in ("SAME", "SAME_LOWER"):
        raise JaxtypedValueError(
            f"Unrecognized padding type: expected 'VALID', 'SAME', or 'SAME_LOWER', got {padding}."
        )
    pads: list[tuple[int, int]] = []
    for size, window, stride in zip(in_shape, window_shape, window_strides, strict=True):
        out = -(-int(size) // int(stride))
        total = max((out - 1) * int(stride) + int(window) - int(size), 0)
        small, large = total // 2, total - total // 2
        pads.append((small, large) if kind == "SAME" else (large, small))
    return pads


def conv_general_permutations(dimension_numbers: tuple[str, str, str]) -> tuple[tuple[int, ...], ...]:
    """The (lhs, rhs, out) axis permutations of layout strings such as
    ``('NCHW', 'OIHW', 'NCHW')``: batch/out-feature axis, feature axis, then
    the spatial axes in the kernel's order."""
    try:
        lhs, rhs, out = dimension_numbers
    except (TypeError, ValueError):
        raise JaxtypedTypeError(
            f"convolution dimension_numbers must be three layout strings, got {dimension_numbers!r}"
        ) from None
    specs = (str(lhs), str(rhs), str(out))
    pairs = (("N", "C"), ("O", "I"), ("N", "C"))
    for i, (spec, (a, b)) in enumerate(zip(specs, pairs)):
        if not spec.count(a) == spec.count(b) == 1:
            raise JaxtypedTypeError(
                f"convolution dimension_numbers[{i}] must contain the characters '{a}' and '{b}' exactly once, got {spec}."
            )
        if len(spec) != len(set(spec)):
            raise JaxtypedTypeError(f"convolution dimension_numbers[{i}] cannot have duplicate characters, got {spec}.")
    spatial = [set(spec) - set(pair) for spec, pair in zip(specs, pairs)]
    if not spatial[0] == spatial[1] == spatial[2]:
        raise JaxtypedTypeError(
            f"convolution dimension_numbers elements must each have the same set of spatial characters, got {specs}."
        )
    return tuple(_permutation(spec, pair, specs[1]) for spec, pair in zip(specs, pairs))


# Not a closure of conv_general_permutations: the debug mode's beartype import
# hook would decorate it anew on every call.
def _permutation(spec: str, pair: tuple[str, str], kernel: str) -> tuple[int, ...]:
    """The axes of ``spec``: ``pair``'s two, then the spatial ones in ``kernel``'s order."""
    rest = sorted((i for i, c in enumerate(spec) if c not in pair), key=lambda i: kernel.index(spec[i]))
    return (spec.index(pair[0]), spec.index(pair[1]), *rest)


def conv_dimension_numbers(
    lhs_shape: Sequence[int], rhs_shape: Sequence[int], dimension_numbers: ConvGeneralDilatedDimensionNumbers
) -> ConvDimensionNumbers:
    """:class:`ConvDimensionNumbers` from ``None`` (NCHW/OIHW/NCHW), layout
    strings, or a :class:`ConvDimensionNumbers` (JAX's
    ``lax.conv_dimension_numbers``)."""
    if len(lhs_shape) != len(rhs_shape):
        raise JaxtypedTypeError(
            f"convolution requires lhs and rhs ndim to be equal, got {len(lhs_shape)} and {len(rhs_shape)}."
        )
    if dimension_numbers is None:
        default = tuple(range(len(lhs_shape)))
        return ConvDimensionNumbers(default, default, default)
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        return ConvDimensionNumbers(
            *(check_int_tuple("conv_dimension_numbers", "dimension_numbers", spec) for spec in dimension_numbers)
        )
    lhs, rhs, out = conv_general_permutations(dimension_numbers)
    for i, spec in enumerate(dimension_numbers):
        if len(spec) != len(lhs_shape):
            raise JaxtypedTypeError(
                f"convolution dimension_numbers[{i}] must have len equal to the ndim of lhs and rhs, "
                f"got {len(spec)} for lhs and rhs shapes {tuple(lhs_shape)} and {tuple(rhs_shape)}."
            )
    return ConvDimensionNumbers(lhs, rhs, out)


def _check_preferred(where: str, operands: np.dtype[Any], preferred: np.dtype[Any]) -> None:
    """JAX's compatible (operand, preferred_element_type) pairs: integer to
    integer or floating, floating to floating, complex to complex, the same
    signedness for signed integers, never narrower."""
    if not (dtypes.is_integer(operands) and dtypes.is_floating(preferred)):
        for kind in (dtypes.is_integer, dtypes.is_floating, dtypes.is_complex):
            if kind(operands) and not kind(preferred):
                raise JaxtypedTypeError(
                    f"{where}: operand type {operands.name} is incompatible with preferred_element_type "
                    f"{preferred.name}; compatible are (integral, integral), (integral, floating), "
                    "(floating, floating), (complex, complex)"
                )
        if dtypes.is_signed_integer(operands) and not dtypes.is_signed_integer(preferred):
            raise JaxtypedTypeError(f"{where}: preferred_element_type {preferred.name} must be signed like {operands.name}")
    if preferred.itemsize < operands.itemsize:
        raise JaxtypedTypeError(
            f"{where}: preferred_element_type {preferred.name} must not be narrower than the operands' {operands.name}"
        )


def _compute_dtype(operands: np.dtype[Any], out: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype products are summed in: booleans as int32 (then ``!= 0``),
    narrow floats in float32, otherwise the wider of operands and result."""
    if dtypes.is_bool(operands):
        return np.dtype(np.int32) if dtypes.is_bool(out) else out
    compute = dtypes.promote_types(operands, out)
    if compute.itemsize == 2 and dtypes.is_floating(compute):
        return np.dtype(np.float32)
    return compute


def _out_spatial(
    lhs: Sequence[int],
    window: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int],
    rhs_dilation: Sequence[int],
) -> tuple[int, ...]:
    """Output sizes of a strided window over a dilated, padded input (0 when
    the window does not fit)."""
    sizes: list[int] = []
    for d, w, s, (lo, hi), ld, rd in zip(lhs, window, strides, padding, lhs_dilation, rhs_dilation, strict=True):
        room = dilate_dim(d, ld) + lo + hi - dilate_dim(w, rd)
        sizes.append(max(0, room // s + 1) if room >= 0 else 0)
    return tuple(sizes)


def transpose_lhs_padding(
    in_shape: Sequence[int],
    window: Sequence[int],
    strides: Sequence[int],
    out_shape: Sequence[int],
    padding: Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int],
    rhs_dilation: Sequence[int],
) -> tuple[tuple[int, int], ...]:
    """Padding of the convolution that spreads an output cotangent back over
    the input: the full correlation with the reversed window, cut to the
    input's extent (shared with the windowed-sum transpose)."""
    pads: list[tuple[int, int]] = []
    for d, w, s, o, (lo, _), ld, rd in zip(in_shape, window, strides, out_shape, padding, lhs_dilation, rhs_dilation, strict=True):
        before = dilate_dim(w, rd) - lo - 1
        after = dilate_dim(d, ld) + dilate_dim(w, rd) - 1 - dilate_dim(o, s) - before
        pads.append((before, after))
    return tuple(pads)


def _transpose_rhs_padding(
    in_shape: Sequence[int],
    window: Sequence[int],
    strides: Sequence[int],
    out_shape: Sequence[int],
    padding: Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int],
    rhs_dilation: Sequence[int],
) -> tuple[tuple[int, int], ...]:
    """Padding of the convolution of the input with the output cotangent
    that gives the kernel's cotangent: the forward low padding, and a high
    padding making exactly the window's extent."""
    pads: list[tuple[int, int]] = []
    for d, w, s, o, (lo, _), ld, rd in zip(in_shape, window, strides, out_shape, padding, lhs_dilation, rhs_dilation, strict=True):
        pads.append((lo, dilate_dim(o, s) - dilate_dim(d, ld) + dilate_dim(w, rd) - lo - 1))
    return tuple(pads)


def _swap_first_two(spec: tuple[int, ...]) -> tuple[int, ...]:
    return (spec[1], spec[0], *spec[2:])


def _merge_axis_into(x: Array, src: int, dst: int) -> Array:
    """Merge axis ``src`` into the axis at ``dst`` (counted without ``src``),
    ``src`` becoming the major part."""
    perm = [i for i in range(x.ndim) if i != src]
    perm.insert(dst, src)
    moved = transpose(x, perm)
    shape = list(moved.shape)
    shape[dst : dst + 2] = [shape[dst] * shape[dst + 1]]
    return reshape(moved, shape)


def _split_axis(x: Array, axis: int, major: int) -> Array:
    """Split axis ``axis`` into (``major``, rest)."""
    shape = list(x.shape)
    shape[axis : axis + 1] = [major, shape[axis] // major]
    return reshape(x, shape)


def _dims_attr(numbers: ConvDimensionNumbers) -> str:
    def layout(spec: tuple[int, ...], first: str, second: str) -> str:
        labels = [""] * len(spec)
        labels[spec[0]], labels[spec[1]] = first, second
        for k, axis in enumerate(spec[2:]):
            labels[axis] = str(k)
        return "[" + ", ".join(labels) + "]"

    lhs, rhs, out = numbers
    return f"#stablehlo.conv<{layout(lhs, 'b', 'f')}x{layout(rhs, 'o', 'i')}->{layout(out, 'b', 'f')}>"


def padding_attr(pairs: Sequence[tuple[int, int]]) -> str:
    """The StableHLO ``padding`` attribute of (low, high) pairs."""
    if not pairs:
        return "dense<> : tensor<0x2xi64>"
    rows = ", ".join(f"[{lo}, {hi}]" for lo, hi in pairs)
    return f"dense<[{rows}]> : tensor<{len(pairs)}x2xi64>"


@final
@dataclass(frozen=True, slots=True)
class ConvGeneralDilated(Primitive):
    """A strided, padded, dilated, grouped convolution (XLA's, which is a
    cross-correlation: the kernel is not flipped)."""

    window_strides: tuple[int, ...]
    padding: tuple[tuple[int, int], ...]
    lhs_dilation: tuple[int, ...]
    rhs_dilation: tuple[int, ...]
    dimension_numbers: ConvDimensionNumbers
    feature_group_count: int = 1
    batch_group_count: int = 1
    precision: None = None
    preferred_element_type: np.dtype[Any] | None = None
    name = "conv_general_dilated"

    def _fail(self, avals: Sequence[ShapedArray], message: str) -> JaxtypedValueError:
        return JaxtypedValueError(f"conv_general_dilated on ({short_types(avals)}): {message}")

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 2)
        lhs, rhs = avals
        if lhs.dtype != rhs.dtype:
            raise DTypeMismatchError(
                f"lax.conv_general_dilated requires arguments to have the same dtypes, got "
                f"{lhs.dtype.name}, {rhs.dtype.name} ({short_types(avals)})"
            )
        if lhs.ndim != rhs.ndim:
            raise self._fail(avals, "lhs and rhs must have the same number of dimensions")
        if lhs.ndim < 2:
            raise self._fail(avals, "operands need a batch and a feature dimension")
        lhs_spec, rhs_spec, out_spec = self.dimension_numbers
        for spec, what in ((lhs_spec, "lhs_spec"), (rhs_spec, "rhs_spec"), (out_spec, "out_spec")):
            if sorted(spec) != list(range(lhs.ndim)):
                raise self._fail(avals, f"dimension_numbers.{what} {spec} is not a permutation of the {lhs.ndim} axes")
        nsp = lhs.ndim - 2
        for values, what in ((self.window_strides, "window_strides"), (self.lhs_dilation, "lhs_dilation"),
                             (self.rhs_dilation, "rhs_dilation"), (self.padding, "padding")):  # fmt: skip
            if len(values) != nsp:
                raise self._fail(avals, f"{what} {values} needs one entry per spatial dimension ({nsp})")
        for values, what in ((self.window_strides, "window_strides"), (self.lhs_dilation, "lhs_dilation"),
                             (self.rhs_dilation, "rhs_dilation")):  # fmt: skip
            if any(v <= 0 for v in values):
                raise self._fail(avals, f"{what} must be positive, got {values}")
        fgc, bgc = self.feature_group_count, self.batch_group_count
        if fgc <= 0 or bgc <= 0:
            raise self._fail(avals, f"feature_group_count ({fgc}) and batch_group_count ({bgc}) must be positive")
        if fgc > 1 and bgc > 1:
            raise self._fail(avals, f"at most one of batch_group_count ({bgc}) and feature_group_count ({fgc}) may be > 1")
        batch, features = lhs.shape[lhs_spec[0]], lhs.shape[lhs_spec[1]]
        out_features, in_features = rhs.shape[rhs_spec[0]], rhs.shape[rhs_spec[1]]
        if features % fgc:
            raise self._fail(avals, f"feature_group_count {fgc} must divide the lhs feature dimension size {features}")
        if features // fgc != in_features:
            raise self._fail(
                avals,
                f"lhs feature dimension size divided by feature_group_count must equal the rhs input feature "
                f"dimension size, but {features} // {fgc} != {in_features}",
            )
        for count, what in ((fgc, "feature_group_count"), (bgc, "batch_group_count")):
            if out_features % count:
                raise self._fail(
                    avals, f"rhs output feature dimension size {out_features} must be a multiple of {what} {count}"
                )
        if batch % bgc:
            raise self._fail(avals, f"batch_group_count {bgc} must divide the lhs batch dimension size {batch}")
        spatial = _out_spatial(
            [lhs.shape[a] for a in lhs_spec[2:]], [rhs.shape[a] for a in rhs_spec[2:]],
            self.window_strides, self.padding, self.lhs_dilation, self.rhs_dilation,
        )  # fmt: skip
        canonical = (batch // bgc, out_features, *spatial)
        shape = [0] * lhs.ndim
        for size, axis in zip(canonical, out_spec):
            shape[axis] = size
        return (ShapedArray(tuple(shape), self.out_dtype(lhs.dtype), lhs.weak_type and rhs.weak_type),)

    def out_dtype(self, operands: np.dtype[Any]) -> np.dtype[Any]:
        """``preferred_element_type`` (checked), or the operands' dtype."""
        preferred = self.preferred_element_type
        if preferred is None or preferred == operands:
            return operands
        _check_preferred("conv_general_dilated", operands, preferred)
        return preferred

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        lhs, rhs = args
        lhs_spec, rhs_spec, out_spec = self.dimension_numbers
        out_dtype = self.out_dtype(lhs.dtype)
        compute = _compute_dtype(lhs.dtype, out_dtype)
        x = np.transpose(lhs, lhs_spec).astype(compute)  # (N, C, *S)
        k = np.transpose(rhs, rhs_spec).astype(compute)  # (O, I, *W)
        nsp = x.ndim - 2
        spatial = _out_spatial(
            x.shape[2:], k.shape[2:], self.window_strides, self.padding, self.lhs_dilation, self.rhs_dilation
        )
        fgc, bgc = self.feature_group_count, self.batch_group_count
        groups = fgc * bgc
        batch, out_features = x.shape[0] // bgc, k.shape[0]
        if 0 in spatial or x.size == 0 or k.size == 0:
            result = np.zeros((batch, out_features, *spatial), compute)
        else:
            patches = window_view(
                x, 0, k.shape[2:], self.window_strides, self.padding, self.lhs_dilation, self.rhs_dilation
            )  # (N, C, *out, *window)
            per_group_out = out_features // groups
            in_features = k.shape[1]
            window_axes = tuple(range(2 + nsp, 2 + 2 * nsp))
            parts: list[NDArray] = []
            for g in range(groups):
                if bgc > 1:
                    p = patches[g * batch : (g + 1) * batch]
                else:
                    p = patches[:, g * in_features : (g + 1) * in_features]
                kg = k[g * per_group_out : (g + 1) * per_group_out]
                parts.append(np.tensordot(p, kg, axes=((1, *window_axes), (1, *range(2, 2 + nsp)))))
            result = np.moveaxis(np.concatenate(parts, axis=-1), -1, 1)  # (N', O, *out)
        with np.errstate(all="ignore"):
            return (convert_buffer(np.transpose(result, np.argsort(out_spec)), out_dtype),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        (out,) = out_avals
        lhs, rhs = args
        operands = lhs.aval.dtype
        compute = _compute_dtype(operands, out.dtype)
        # A narrow preferred_element_type-free product, a boolean one, or an
        # integer one with a float result is computed as the eager rule does.
        widen = compute != operands and not (dtypes.is_inexact(operands) and compute == out.dtype)
        if widen:
            lhs, rhs = lower_convert(ctx, lhs, compute), lower_convert(ctx, rhs, compute)
        attrs = {
            "window_strides": i64_array(self.window_strides),
            "padding": padding_attr(self.padding),
            "lhs_dilation": i64_array(self.lhs_dilation),
            "rhs_dilation": i64_array(self.rhs_dilation),
            "dimension_numbers": _dims_attr(self.dimension_numbers),
            "feature_group_count": f"{self.feature_group_count} : i64",
            "batch_group_count": f"{self.batch_group_count} : i64",
        }
        result_dtype = compute if widen else out.dtype
        result = ctx.op1("stablehlo.convolution", (lhs, rhs), ShapedArray(out.shape, result_dtype), attrs)
        return (lower_convert(ctx, result, out.dtype),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return bilinear_jvp(self, primals, tangents)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,), (lhs, rhs) = cts, args
        assert not isinstance(ct, Zero)
        check_one_linear("conv_general_dilated", lhs, rhs)
        if isinstance(lhs, UndefinedPrimal):
            assert not isinstance(rhs, UndefinedPrimal)
            return self._lhs_cotangent(ct, rhs, lhs.aval), None
        assert isinstance(rhs, UndefinedPrimal)
        return None, self._rhs_cotangent(ct, lhs, rhs.aval)

    def _spatial_params(
        self, lhs: tuple[int, ...], rhs: tuple[int, ...], out: tuple[int, ...]
    ) -> tuple[list[int], list[int], tuple[int, ...], list[int], tuple[tuple[int, int], ...], tuple[int, ...], tuple[int, ...]]:
        """The arguments of the transpose paddings: input, window and output
        spatial sizes with this convolution's strides, padding, dilations."""
        lhs_spec, rhs_spec, out_spec = self.dimension_numbers
        return (
            [lhs[a] for a in lhs_spec[2:]], [rhs[a] for a in rhs_spec[2:]], self.window_strides,
            [out[a] for a in out_spec[2:]], self.padding, self.lhs_dilation, self.rhs_dilation,
        )  # fmt: skip

    def _lhs_cotangent(self, ct: Array, rhs: Array, lhs: ShapedArray) -> Array:
        lhs_spec, rhs_spec, out_spec = self.dimension_numbers
        groups = max(self.feature_group_count, self.batch_group_count)
        kernel = rhs
        if groups > 1:
            # The kernel's output-feature groups become groups of its input
            # features: (G*O', I) -> (O', G*I).
            kernel = _merge_axis_into(_split_axis(kernel, rhs_spec[0], groups), rhs_spec[0], rhs_spec[1])
        kernel = rev(kernel, rhs_spec[2:])
        padding = transpose_lhs_padding(*self._spatial_params(lhs.shape, rhs.shape, ct.shape))
        prim = ConvGeneralDilated(
            window_strides=self.lhs_dilation,
            padding=padding,
            lhs_dilation=self.window_strides,
            rhs_dilation=self.rhs_dilation,
            dimension_numbers=ConvDimensionNumbers(out_spec, _swap_first_two(rhs_spec), lhs_spec),
            feature_group_count=groups,
            batch_group_count=1,
            preferred_element_type=_preferred(rhs.dtype, lhs.dtype),
        )
        result = bind1(prim, _cast(ct, rhs.dtype), kernel)
        if self.batch_group_count > 1:
            # Feature groups of the result are the input's batch groups.
            result = _merge_axis_into(_split_axis(result, lhs_spec[1], groups), lhs_spec[1], lhs_spec[0])
        return _as_tangent(result, lhs)

    def _rhs_cotangent(self, ct: Array, lhs: Array, rhs: ShapedArray) -> Array:
        lhs_spec, rhs_spec, out_spec = self.dimension_numbers
        padding = _transpose_rhs_padding(*self._spatial_params(lhs.shape, rhs.shape, ct.shape))
        # Batch and features trade places: feature groups become batch groups
        # and the other way round.
        prim = ConvGeneralDilated(
            window_strides=self.rhs_dilation,
            padding=padding,
            lhs_dilation=self.lhs_dilation,
            rhs_dilation=self.window_strides,
            dimension_numbers=ConvDimensionNumbers(
                _swap_first_two(lhs_spec), _swap_first_two(out_spec), _swap_first_two(rhs_spec)
            ),
            feature_group_count=self.batch_group_count,
            batch_group_count=self.feature_group_count,
            preferred_element_type=_preferred(lhs.dtype, rhs.dtype),
        )
        return _as_tangent(bind1(prim, lhs, _cast(ct, lhs.dtype)), rhs)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (lhs, rhs), (ld, rd) = args, dims
        lhs_spec, rhs_spec, out_spec = self.dimension_numbers
        fgc, bgc = self.feature_group_count, self.batch_group_count
        size = axis.size
        if ld is not None and rd is not None:
            # Each example is a group: of batches if already batch-grouped,
            # else of features.
            if bgc > 1:
                new_lhs, bgc = _merge_axis_into(lhs, ld, lhs_spec[0]), bgc * size
            else:
                new_lhs, fgc = _merge_axis_into(lhs, ld, lhs_spec[1]), fgc * size
            new_rhs = _merge_axis_into(rhs, rd, rhs_spec[0])
            out = bind1(self._with_groups(fgc, bgc), new_lhs, new_rhs)
            return (_split_axis(out, out_spec[1], size),), (out_spec[1],)
        if ld is not None:
            if bgc == 1:
                out = bind1(self, _merge_axis_into(lhs, ld, lhs_spec[0]), rhs)
                return (_split_axis(out, out_spec[0], size),), (out_spec[0],)
            # Keep the batch groups major: (B, G*N') -> (G, B, N') -> G*B*N'.
            batch_axis = lhs_spec[0] + (1 if ld <= lhs_spec[0] else 0)
            split = _split_axis(lhs, batch_axis, bgc)
            moved_b = ld if ld < batch_axis else ld + 1
            merged = _merge_axis_into(split, moved_b, lhs_spec[0] + 1)
            new_lhs = _merge_axis_into(merged, lhs_spec[0], lhs_spec[0])
            out = bind1(self, new_lhs, rhs)
            return (_split_axis(out, out_spec[0], size),), (out_spec[0],)
        assert rd is not None
        if fgc == 1 and bgc == 1:
            out = bind1(self, lhs, _merge_axis_into(rhs, rd, rhs_spec[0]))
            return (_split_axis(out, out_spec[1], size),), (out_spec[1],)
        # Grouped kernel: keep the groups major, (B, G*O') -> (G, B, O'),
        # then take the example axis out of the output features.
        groups = fgc * bgc
        feature_axis = rhs_spec[0] + (1 if rd <= rhs_spec[0] else 0)
        split = _split_axis(rhs, feature_axis, groups)
        moved_b = rd if rd < feature_axis else rd + 1
        merged = _merge_axis_into(split, moved_b, rhs_spec[0] + 1)
        new_rhs = _merge_axis_into(merged, rhs_spec[0], rhs_spec[0])
        out = bind1(self, lhs, new_rhs)
        f = out_spec[1]
        shape = list(out.shape)
        shape[f : f + 1] = [groups, size, shape[f] // (groups * size)]
        grouped = reshape(out, shape)
        perm = list(range(grouped.ndim))
        perm[f], perm[f + 1] = f + 1, f
        swapped = transpose(grouped, perm)
        shape = list(swapped.shape)
        shape[f + 1 : f + 3] = [shape[f + 1] * shape[f + 2]]
        return (reshape(swapped, shape),), (f,)

    def _with_groups(self, fgc: int, bgc: int) -> "ConvGeneralDilated":
        return ConvGeneralDilated(
            self.window_strides, self.padding, self.lhs_dilation, self.rhs_dilation, self.dimension_numbers,
            fgc, bgc, self.precision, self.preferred_element_type,
        )  # fmt: skip

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return tuple((k, v) for k, v in self.params() if k != "precision" or v is not None)


def window_view(
    x: NDArray,
    fill: object,
    window: Sequence[int],
    strides: Sequence[int],
    padding: Sequence[tuple[int, int]],
    base_dilation: Sequence[int],
    window_dilation: Sequence[int],
) -> NDArray:
    """The windows of the trailing ``len(window)`` axes of ``x``, dilated by
    ``base_dilation`` and padded (negative padding crops), holes and padding
    holding ``fill``: an array of shape (*leading axes, *out, *window),
    mostly a strided view (shared by the eager convolution and the windowed
    reductions)."""
    lead = x.ndim - len(window)
    spatial = x.shape[lead:]
    grown = [max(lo, 0) + max(hi, 0) + dilate_dim(d, b) for d, (lo, hi), b in zip(spatial, padding, base_dilation)]
    padded = np.full((*x.shape[:lead], *grown), fill, x.dtype)
    keep = (slice(None),) * lead
    inner = tuple(slice(max(lo, 0), max(lo, 0) + dilate_dim(d, b), b) for d, (lo, _), b in zip(spatial, padding, base_dilation))
    padded[(*keep, *inner)] = x
    padded = padded[(*keep, *(slice(-min(lo, 0), g + min(hi, 0)) for g, (lo, hi) in zip(grown, padding)))]
    extents = [dilate_dim(w, t) for w, t in zip(window, window_dilation)]
    view = np.lib.stride_tricks.sliding_window_view(padded, extents, axis=tuple(range(lead, x.ndim)))
    windows: NDArray = view[(*keep, *(slice(None, None, s) for s in strides), *(slice(None, None, t) for t in window_dilation))]
    return windows


def _cast(ct: Array, dtype: np.dtype[Any]) -> Array:
    """A cotangent in the other operand's dtype (a ``preferred_element_type``
    may have made it wider)."""
    return ct if ct.dtype == dtype else convert_to(ct, dtype, weak_type=False)


def _preferred(operands: np.dtype[Any], linear: np.dtype[Any]) -> np.dtype[Any] | None:
    return None if operands == linear else linear


def _as_tangent(result: Array, linear: ShapedArray) -> Array:
    want = linear.to_tangent_aval()
    return result if result.dtype == want.dtype and result.weak_type == want.weak_type else convert_to(
        result, want.dtype, weak_type=want.weak_type
    )


# === the typed wrappers ===


def _ints(where: str, param: str, value: Sequence[int] | None, count: int) -> tuple[int, ...]:
    if value is None:
        return (1,) * count
    if isinstance(value, (str, bytes)) or not isinstance(cast(object, value), Sequence):
        raise JaxtypedTypeError(f"{where}: {param} must be a sequence of ints, got {value!r}")
    return check_int_tuple(where, param, value)


def padding_pairs(where: str, padding: Sequence[object]) -> tuple[tuple[int, int], ...]:
    """Explicit (low, high) padding pairs, validated (run-time callers may
    pass anything)."""
    message = f"{where}: padding must be a string or a sequence of (low, high) int pairs, got {padding!r}"
    if not isinstance(cast(object, padding), Sequence) or isinstance(padding, (str, bytes)):
        raise JaxtypedTypeError(message)
    pairs: list[tuple[int, int]] = []
    for pair in padding:
        if isinstance(pair, Sequence) and not isinstance(pair, (str, bytes)) and len(cast(Sequence[object], pair)) == 2:
            lo, hi = cast(Sequence[object], pair)
            if is_int(lo) and is_int(hi):
                pairs.append((int(lo), int(hi)))
                continue
        raise JaxtypedTypeError(message)
    return tuple(pairs)


def conv_general_dilated(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: PaddingLike,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision: None = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """General n-d convolution with strides, padding, input and kernel
    dilation, and feature or batch groups (JAX's ``lax.conv_general_dilated``)."""
    where = "lax.conv_general_dilated"
    return _conv_general_dilated(
        where, as_operand(lhs, f"{where} lhs"), as_operand(rhs, f"{where} rhs"), window_strides, padding, lhs_dilation,
        rhs_dilation, dimension_numbers, feature_group_count, batch_group_count, preferred_element_type,
    )  # fmt: skip


def _conv_general_dilated(
    where: str,
    x: Array,
    k: Array,
    window_strides: Sequence[int],
    padding: PaddingLike,
    lhs_dilation: Sequence[int] | None,
    rhs_dilation: Sequence[int] | None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers,
    feature_group_count: int,
    batch_group_count: int,
    preferred_element_type: "dtypes.DTypeLike | None",
) -> Array:
    """:func:`conv_general_dilated` of arrays, its errors naming ``where``
    (the public function the user called)."""
    numbers = conv_dimension_numbers(x.shape, k.shape, dimension_numbers)
    nsp = max(x.ndim - 2, 0)
    strides = _ints(where, "window_strides", window_strides, nsp)
    lhs_dil = _ints(where, "lhs_dilation", lhs_dilation, nsp)
    rhs_dil = _ints(where, "rhs_dilation", rhs_dilation, nsp)
    if isinstance(padding, str):
        if any(d != 1 for d in lhs_dil):
            raise JaxtypedValueError(
                f"{where}: string padding is not implemented with lhs_dilation {lhs_dil} (a transposed "
                "convolution): give the padding pairs or use lax.conv_transpose"
            )
        if len(numbers.lhs_spec) != x.ndim or len(numbers.rhs_spec) != k.ndim or len(strides) != nsp:
            raise JaxtypedValueError(f"{where}: window_strides {strides} needs one entry per spatial dimension ({nsp})")
        window = [dilate_dim(k.shape[a], r) for a, r in zip(numbers.rhs_spec[2:], rhs_dil)]
        try:
            pads = tuple(padtype_to_pads([x.shape[a] for a in numbers.lhs_spec[2:]], window, strides, padding))
        except JaxtypedValueError as error:
            raise JaxtypedValueError(f"{where}: {error}") from None
    else:
        try:
            pads = padding_pairs(where, padding)
        except JaxtypedTypeError as error:  # JAX's kind for a convolution's malformed padding
            raise JaxtypedValueError(str(error)) from None
    if len(pads) != nsp:
        raise JaxtypedTypeError(
            f"{where}: wrong number of explicit pads for convolution: expected {nsp}, got {len(pads)} "
            f"(padding {list(pads)}, lhs {x.aval.str_short()})"
        )
    dilated = [dilate_dim(x.shape[a], d) for a, d in zip(numbers.lhs_spec[2:], lhs_dil)]
    if any(size + lo + hi < 0 for size, (lo, hi) in zip(dilated, pads)):
        raise JaxtypedValueError(
            f"{where}: negative padding is larger than the size of the corresponding dimension: got padding "
            f"{list(pads)} for lhs {x.aval.str_short()} (spatial sizes {tuple(dilated)} after lhs_dilation)"
        )
    for count, what in ((feature_group_count, "feature_group_count"), (batch_group_count, "batch_group_count")):
        if not is_int(count):
            raise JaxtypedTypeError(f"{where}: {what} must be an int, got {count!r}")
    preferred = None if preferred_element_type is None else dtypes.canonicalize_dtype(dtypes.dtype(preferred_element_type))
    prim = ConvGeneralDilated(
        strides, pads, lhs_dil, rhs_dil, numbers, int(feature_group_count), int(batch_group_count), None, preferred
    )
    return bind1(prim, x, k)


def conv(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: str,
    precision: None = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """NCHW/OIHW convolution with a padding name (JAX's ``lax.conv``)."""
    return conv_general_dilated(
        lhs, rhs, window_strides, padding, precision=precision, preferred_element_type=preferred_element_type
    )


def conv_with_general_padding(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: PaddingLike,
    lhs_dilation: Sequence[int] | None,
    rhs_dilation: Sequence[int] | None,
    precision: None = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """NCHW/OIHW convolution with explicit padding and dilations (JAX's
    ``lax.conv_with_general_padding``)."""
    return conv_general_dilated(
        lhs, rhs, window_strides, padding, lhs_dilation, rhs_dilation,
        precision=precision, preferred_element_type=preferred_element_type,
    )  # fmt: skip


def _transpose_padding(window: int, stride: int, padding: str | tuple[int, int]) -> tuple[int, int]:
    """(low, high) padding of the dilated input of a transposed convolution
    whose forward convolution had ``padding``."""
    if padding == "SAME":
        total = window + stride - 2
        low = window - 1 if stride > window - 1 else -(-total // 2)
    elif padding == "VALID":
        total = window + stride - 2 + max(window - stride, 0)
        low = window - 1
    elif isinstance(padding, tuple):
        pads = tuple(window - p - 1 for p in padding)
        low, total = pads[0], sum(pads)
    else:
        raise JaxtypedValueError(f"lax.conv_transpose: invalid padding mode {padding!r}")
    return low, total - low


_TRANSPOSE_LAYOUTS = {
    2: ("NC", "IO", "NC"),
    3: ("NHC", "HIO", "NHC"),
    4: ("NHWC", "HWIO", "NHWC"),
    5: ("NHWDC", "HWDIO", "NHWDC"),
}


def conv_transpose(
    lhs: ArrayLike,
    rhs: ArrayLike,
    strides: Sequence[int],
    padding: PaddingLike,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
    transpose_kernel: bool = False,
    precision: None = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
    use_consistent_padding: bool = False,
) -> Array:
    """Transposed ("deconvolution") convolution: the input dilated by
    ``strides`` (JAX's ``lax.conv_transpose``; default layout NHWC/HWIO)."""
    where = "lax.conv_transpose"
    x = as_operand(lhs, f"{where} lhs")
    k = as_operand(rhs, f"{where} rhs")
    if x.ndim != k.ndim or x.ndim < 2:
        raise JaxtypedValueError(f"{where}: lhs and rhs need the same rank >= 2, got {x.aval.str_short()} and {k.aval.str_short()}")
    if dimension_numbers is None:
        if x.ndim not in _TRANSPOSE_LAYOUTS:
            raise JaxtypedValueError(f"{where}: no default dimension_numbers for rank {x.ndim}")
        dimension_numbers = _TRANSPOSE_LAYOUTS[x.ndim]
    numbers = conv_dimension_numbers(x.shape, k.shape, dimension_numbers)
    nsp = x.ndim - 2
    stride = _ints(where, "strides", strides, nsp)
    rhs_dil = _ints(where, "rhs_dilation", rhs_dilation, nsp)
    windows = [dilate_dim(k.shape[a], r) for a, r in zip(numbers.rhs_spec[2:], rhs_dil)]
    pads: PaddingLike
    if use_consistent_padding or (isinstance(padding, str) and padding in ("SAME", "VALID")):
        per_axis: list[str | tuple[int, int]] = (
            [padding] * nsp if isinstance(padding, str) else list(padding_pairs(where, padding))
        )
        if len(per_axis) != nsp or len(stride) != nsp:
            raise JaxtypedValueError(f"{where}: strides and padding need one entry per spatial dimension ({nsp})")
        pads = [_transpose_padding(w, s, p) for w, s, p in zip(windows, stride, per_axis)]
    else:
        pads = padding
    if transpose_kernel:
        k = rev(k, numbers.rhs_spec[2:])
        perm = list(range(k.ndim))
        o, i = numbers.rhs_spec[0], numbers.rhs_spec[1]
        perm[o], perm[i] = i, o
        k = transpose(k, perm)
    return conv_general_dilated(
        x, k, (1,) * nsp, pads, stride, rhs_dil, numbers,
        precision=precision, preferred_element_type=preferred_element_type,
    )  # fmt: skip


def conv_general_dilated_patches(
    lhs: ArrayLike,
    filter_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: PaddingLike,
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
    precision: None = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """The patches a convolution with a kernel of spatial shape
    ``filter_shape`` sees, as output features ``C * prod(filter_shape)``
    (channel-major): a grouped convolution with a one-hot kernel (JAX's
    ``lax.conv_general_dilated_patches``)."""
    where = "lax.conv_general_dilated_patches"
    return _patches(
        where, as_operand(lhs, f"{where} lhs"), filter_shape, window_strides, padding, lhs_dilation, rhs_dilation,
        dimension_numbers, preferred_element_type,
    )  # fmt: skip


def _patches(
    where: str,
    x: Array,
    filter_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: PaddingLike,
    lhs_dilation: Sequence[int] | None,
    rhs_dilation: Sequence[int] | None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers,
    preferred_element_type: "dtypes.DTypeLike | None",
) -> Array:
    """:func:`conv_general_dilated_patches` of an array, its errors naming
    ``where``."""
    shape = check_int_tuple(where, "filter_shape", filter_shape)
    nsp = x.ndim - 2
    if len(shape) != nsp:
        raise JaxtypedValueError(f"{where}: filter_shape {shape} needs one entry per spatial dimension ({nsp})")
    placeholder = (1, 1, *shape)
    numbers = conv_dimension_numbers(x.shape, placeholder, dimension_numbers)
    lhs_spec, rhs_spec, out_spec = numbers
    channels = x.shape[lhs_spec[1]]
    size = int(np.prod(shape, dtype=np.int64))
    # A one-hot kernel in (O, I, *spatial) order, then laid out by rhs_spec.
    eye = np.eye(size, dtype=x.dtype).reshape((size, 1, *shape))
    canonical = np.tile(eye, (channels, 1, *(1 for _ in shape)))
    kernel = np.transpose(canonical, np.argsort(rhs_spec))
    return _conv_general_dilated(
        where, x, array_from_numpy(kernel), window_strides, padding, lhs_dilation, rhs_dilation,
        ConvDimensionNumbers(lhs_spec, rhs_spec, out_spec), channels, 1, preferred_element_type,
    )  # fmt: skip


def conv_general_dilated_local(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: PaddingLike,
    filter_shape: Sequence[int],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
    precision: PrecisionLike = None,
) -> Array:
    """A locally connected ("unshared") convolution: every output position
    has a kernel of its own (JAX's ``lax.conv_general_dilated_local``).

    ``rhs`` is laid out by ``dimension_numbers[1]``: its spatial axes are the
    output's spatial sizes, its ``I`` axis the patch of
    :func:`conv_general_dilated_patches` (``C * prod(filter_shape)``,
    channel-major, then the window axes in the kernel's order), its ``O``
    axis the output features. The patches are contracted with ``rhs`` at
    each output position (one ``dot_general``): derivatives, ``vmap`` and
    ``jit`` are those of the two operations.
    """
    where = "lax.conv_general_dilated_local"
    canonicalize_precision(precision, where)
    x = as_operand(lhs, f"{where} lhs")
    k = as_operand(rhs, f"{where} rhs")
    shape = _ints(where, "filter_shape", filter_shape, 0)
    if x.ndim != len(shape) + 2 or k.ndim != x.ndim:
        raise JaxtypedTypeError(
            f"{where}: lhs and rhs must both have rank len(filter_shape) + 2 = {len(shape) + 2}, got lhs "
            f"{x.aval.str_short()} and rhs {k.aval.str_short()} for filter_shape {shape}"
        )
    numbers = conv_dimension_numbers(x.shape, (1, 1, *shape), dimension_numbers)
    patches = _patches(where, x, shape, window_strides, padding, lhs_dilation, rhs_dilation, numbers, None)
    _, rhs_spec, out_spec = numbers
    want = (patches.shape[out_spec[1]], *(patches.shape[a] for a in out_spec[2:]))
    got = (k.shape[rhs_spec[1]], *(k.shape[a] for a in rhs_spec[2:]))
    if want != got:
        raise JaxtypedTypeError(
            f"{where}: rhs {k.aval.str_short()} must have (input features, *output spatial sizes) = {want} "
            f"(lhs features times prod(filter_shape {shape}), then the output's spatial sizes, in the order "
            f"of rhs_spec), got {got} for lhs {x.aval.str_short()}"
        )
    # Output positions are dot_general batch axes: the patches' in axis order,
    # the kernel's matched by spatial dimension.
    spatial = sorted(out_spec[2:])
    rhs_batch = tuple(rhs_spec[out_spec.index(a)] for a in spatial)
    product = dot_general(
        patches, k, (((out_spec[1],), (rhs_spec[1],)), (tuple(spatial), rhs_batch)), precision
    )  # (*spatial, N, O)
    labels = (*spatial, out_spec[0], out_spec[1])
    return transpose(product, tuple(labels.index(axis) for axis in range(x.ndim)))


# === shape helpers ===


def conv_shape_tuple(
    lhs_shape: Sequence[int],
    rhs_shape: Sequence[int],
    strides: Sequence[int],
    pads: PaddingLike,
    batch_group_count: int = 1,
) -> tuple[int, ...]:
    """The output shape of a convolution of operands in the canonical
    ``(N, C, *spatial)`` / ``(O, I, *spatial)`` layout (JAX's ``lax.conv_shape_tuple``)."""
    if isinstance(pads, str):
        pads = padtype_to_pads(lhs_shape[2:], rhs_shape[2:], strides, pads)
    pairs = padding_pairs("lax.conv_shape_tuple", pads)
    if len(pairs) != len(lhs_shape) - 2:
        raise JaxtypedTypeError(
            f"Wrong number of explicit pads for convolution: expected {len(lhs_shape) - 2}, got {len(pairs)}."
        )
    if any(int(d) + lo + hi < 0 for d, (lo, hi) in zip(lhs_shape[2:], pairs)):
        raise JaxtypedValueError(
            f"Negative padding is larger than the size of the corresponding dimension: got padding={list(pairs)} "
            f"for lhs_shape[2:]={tuple(lhs_shape[2:])}"
        )
    ones = (1,) * len(pairs)
    spatial = _out_spatial([int(d) for d in lhs_shape[2:]], [int(w) for w in rhs_shape[2:]], strides, pairs, ones, ones)
    return (int(lhs_shape[0]) // batch_group_count, int(rhs_shape[0]), *spatial)


def _canonical(shape: Sequence[int], spec: Sequence[int]) -> list[int]:
    return [int(shape[axis]) for axis in spec]


def _laid_out(canonical: Sequence[int], spec: Sequence[int]) -> tuple[int, ...]:
    shape = [0] * len(spec)
    for size, axis in zip(canonical, spec):
        shape[axis] = size
    return tuple(shape)


def conv_general_shape_tuple(
    lhs_shape: Sequence[int],
    rhs_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: PaddingLike,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers,
) -> tuple[int, ...]:
    """The output shape of a convolution with the given layouts (JAX's
    ``lax.conv_general_shape_tuple``)."""
    lhs, rhs, out = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    canonical = conv_shape_tuple(_canonical(lhs_shape, lhs), _canonical(rhs_shape, rhs), window_strides, padding)
    return _laid_out(canonical, out)


def conv_transpose_shape_tuple(
    lhs_shape: Sequence[int],
    rhs_shape: Sequence[int],
    window_strides: Sequence[int],
    padding: PaddingLike,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers,
) -> tuple[int, ...]:
    """The output shape of :func:`conv_transpose` with the given layouts
    (JAX's ``lax.conv_transpose_shape_tuple``)."""
    lhs, rhs, out = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    lhs_c, rhs_c = _canonical(lhs_shape, lhs), _canonical(rhs_shape, rhs)
    if isinstance(padding, str):
        pairs = tuple(_transpose_padding(k, s, padding) for k, s in zip(rhs_c[2:], window_strides))
    else:
        pairs = padding_pairs("lax.conv_transpose_shape_tuple", padding)
    spatial = [(i - 1) * s - k + 2 + lo + hi for i, k, s, (lo, hi) in zip(lhs_c[2:], rhs_c[2:], window_strides, pairs)]
    return _laid_out((lhs_c[0], rhs_c[0], *spatial), out)
