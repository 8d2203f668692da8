"""``dot_general``: generalised tensor contraction (layer L4).

``dimension_numbers = ((lhs_contracting, rhs_contracting), (lhs_batch,
rhs_batch))``. The result's axes are the batch axes, then the lhs free
axes, then the rhs free axes, as in XLA.
"""

import enum
import functools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, cast, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.bilinear import bilinear_jvp, check_one_linear, lower_convert
from jaxtyped._src.lax.elementwise_base import convert_buffer, convert_to
from jaxtyped._src.lax.structural import moveaxis, transpose
from jaxtyped._src.lax.util import check_arity, check_int_tuple, as_operand, short_types
from jaxtyped._src.util import prod

__all__ = [
    "DotGeneral", "DotDimensionNumbers", "dot_general", "dot",
    # lax extras family: precision
    "Precision", "PrecisionLike", "canonicalize_precision", "PublicDotDimensionNumbers",
]

# ((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch))
DotDimensionNumbers = tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]


class Precision(enum.Enum):
    """Precision of matrix products on accelerators (JAX's
    ``lax.Precision``); also constructed from its string forms
    (``'default'``/``'bfloat16'``/``'fastest'``, ``'high'``/``'tensorfloat32'``,
    ``'highest'``/``'float32'``). CPU computes at full precision whatever
    is asked, as JAX does there."""

    DEFAULT = 0
    HIGH = 1
    HIGHEST = 2

    @classmethod
    def _missing_(cls, value: object) -> "Precision | None":
        names = {
            "default": cls.DEFAULT, "bfloat16": cls.DEFAULT, "fastest": cls.DEFAULT,
            "high": cls.HIGH, "tensorfloat32": cls.HIGH, "bfloat16_3x": cls.HIGH,
            "highest": cls.HIGHEST, "float32": cls.HIGHEST,
        }
        return names.get(value) if isinstance(value, str) else None

    def __str__(self) -> str:
        return self.name


# Dimension numbers as users write them (JAX's public ``lax.DotDimensionNumbers``):
# ((lhs_contracting, rhs_contracting), (lhs_batch, rhs_batch)), any int sequences.
PublicDotDimensionNumbers = tuple[tuple[Sequence[int], Sequence[int]], tuple[Sequence[int], Sequence[int]]]


# What ``precision`` parameters accept (JAX's ``lax.PrecisionLike``, without
# its dot-algorithm forms).
PrecisionLike = None | str | Precision | tuple[str, str] | tuple[Precision, Precision]


def canonicalize_precision(precision: PrecisionLike, where: str = "lax.dot_general") -> tuple[Precision, Precision] | None:
    """``precision`` as a pair of :class:`Precision` values (None stays
    None); JAX's rule and its ValueError for anything else."""
    if precision is None:
        return None
    if isinstance(precision, (str, Precision)):
        try:
            one = Precision(precision)
        except ValueError:
            pass
        else:
            return (one, one)
    if isinstance(precision, tuple) and len(precision) == 2:
        first, second = precision
        same_kind = all(isinstance(p, str) for p in precision) or all(isinstance(p, Precision) for p in precision)
        if same_kind:
            try:
                return (Precision(first), Precision(second))
            except ValueError:
                pass
    raise JaxtypedValueError(
        f"{where}: precision must be None, a lax.Precision, one of its names ('default', 'high', 'highest', "
        f"'bfloat16', 'tensorfloat32', 'float32', 'fastest'), or a pair of Precision values or of names; "
        f"got {precision!r}"
    )


def _free(ndim: int, contract: tuple[int, ...], batch: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(i for i in range(ndim) if i not in contract and i not in batch)


def _compute_dtype(operands: np.dtype[Any], out: np.dtype[Any]) -> np.dtype[Any]:
    """The dtype the products of operands of one dtype are summed in: the
    wider of the operands' and the result's (int8 operands accumulate in a
    preferred int32; float operands with an integer preferred type are
    multiplied as floats and the sum converted, as XLA does); narrow floats
    are summed in float32."""
    compute = dtypes.promote_types(operands, out)
    if compute.itemsize == 2 and dtypes.is_floating(compute):
        return np.dtype(np.float32)
    return compute


def _bit_width(dtype: np.dtype[Any]) -> int:
    if dtypes.is_inexact(dtype):
        return int(dtypes.finfo(dtype).bits)
    return 1 if dtypes.is_bool(dtype) else int(np.iinfo(dtype).bits)


@functools.cache  # a handful of dtypes; finfo costs microseconds on every eager product (issue 19)
def _precision_rank(dtype: np.dtype[Any]) -> tuple[bool, int, int, int, bool]:
    """XLA's order of operand dtypes (``HigherPrecisionType``): complex over
    real, then exponent range, mantissa, width, and signed over unsigned."""
    floating = dtypes.is_inexact(dtype)
    info = dtypes.finfo(dtype) if floating else None
    return (
        dtypes.is_complex(dtype),
        int(info.maxexp) if info is not None else -1,
        int(info.nmant) if info is not None else -1,
        _bit_width(dtype),
        not dtypes.is_unsigned_integer(dtype),
    )


@np.errstate(all="ignore")  # inf * 0 and overflow give NaN or inf silently, as under XLA
def _matmul_quietly(lhs: NDArray, rhs: NDArray) -> HostValue:
    result: HostValue = np.matmul(lhs, rhs)
    return result


_MATMUL_DTYPES: Final = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.complex64, np.complex128))


def _dims_attr(name: str, axes: tuple[int, ...]) -> str:
    return f"{name} = [{', '.join(str(a) for a in axes)}]"


@final
@dataclass(frozen=True, slots=True)
class DotGeneral(Primitive):
    """Contract ``lhs`` and ``rhs`` over the contracting axes, batched over
    the batch axes."""

    dimension_numbers: DotDimensionNumbers
    precision: None = None
    preferred_element_type: np.dtype[Any] | None = None
    name = "dot_general"

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_arity(self.name, avals, 2)
        lhs, rhs = avals
        (lc, rc), (lb, rb) = self.dimension_numbers
        where = f"dot_general with dimension_numbers={self.format_param('dimension_numbers', self.dimension_numbers)} on ({short_types(avals)})"
        for axes, aval in ((lc + lb, lhs), (rc + rb, rhs)):
            if len(set(axes)) != len(axes) or any(not 0 <= a < aval.ndim for a in axes):
                raise JaxtypedTypeError(f"{where}: axes out of range or repeated")
        if len(lc) != len(rc) or len(lb) != len(rb):
            raise JaxtypedTypeError(f"{where}: lhs and rhs need as many contracting and batch axes")
        for a, b in (*zip(lc, rc), *zip(lb, rb)):
            if lhs.shape[a] != rhs.shape[b]:
                raise JaxtypedTypeError(f"{where}: axis {a} of lhs has size {lhs.shape[a]} but axis {b} of rhs has size {rhs.shape[b]}")
        shape = (
            tuple(lhs.shape[a] for a in lb)
            + tuple(lhs.shape[a] for a in _free(lhs.ndim, lc, lb))
            + tuple(rhs.shape[a] for a in _free(rhs.ndim, rc, rb))
        )
        return (ShapedArray(shape, self.out_dtype(lhs, rhs), lhs.weak_type and rhs.weak_type),)

    def out_dtype(self, lhs: ShapedArray, rhs: ShapedArray) -> np.dtype[Any]:
        """``preferred_element_type``, or else the operand dtype of higher
        precision (XLA's and JAX's rule for mixed operands: uint8 with int8
        gives int8, float16 with bfloat16 gives bfloat16). A preferred
        integer type may not be narrower than that."""
        ranks = _precision_rank(lhs.dtype), _precision_rank(rhs.dtype)
        if lhs.dtype != rhs.dtype and ranks[0] == ranks[1]:
            raise JaxtypedTypeError(f"dot_general: cannot mix operand dtypes {lhs.dtype} and {rhs.dtype}")
        result = lhs.dtype if ranks[0] >= ranks[1] else rhs.dtype
        preferred = self.preferred_element_type
        if preferred is None or preferred == result:
            return result
        if not dtypes.is_floating(result) and _bit_width(preferred) < _bit_width(result):
            raise JaxtypedTypeError(
                f"dot_general: preferred_element_type {preferred} must not be narrower than the "
                f"operands' type {result}"
            )
        return preferred

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        lhs, rhs = args
        (lc, rc), (lb, rb) = self.dimension_numbers
        if (
            not lb and lc == (lhs.ndim - 1,) and lhs.ndim <= 2 and rhs.ndim <= 2 and rc == (0 if rhs.ndim == 1 else rhs.ndim - 2,)
            and lhs.dtype == rhs.dtype and lhs.dtype in _MATMUL_DTYPES and self.preferred_element_type in (None, lhs.dtype)
        ):
            # A plain matrix/vector product in a dtype NumPy multiplies as
            # XLA does (jnp.matmul's common case): no transposes or casts.
            return (_matmul_quietly(lhs, rhs),)
        out_dtype = self.out_dtype(ShapedArray(lhs.shape, lhs.dtype), ShapedArray(rhs.shape, rhs.dtype))
        if lhs.dtype != rhs.dtype:
            # Mixed operands are first converted to the result dtype (as JAX
            # lowers them): uint8 200 meets int8 as -56.
            with np.errstate(all="ignore"):
                lhs, rhs = convert_buffer(lhs, out_dtype), convert_buffer(rhs, out_dtype)
        compute = _compute_dtype(lhs.dtype, out_dtype)
        lf, rf = _free(lhs.ndim, lc, lb), _free(rhs.ndim, rc, rb)
        batch_shape = tuple(lhs.shape[a] for a in lb)
        m, k, n = prod(lhs.shape[a] for a in lf), prod(lhs.shape[a] for a in lc), prod(rhs.shape[a] for a in rf)
        a = np.transpose(lhs, (*lb, *lf, *lc)).astype(compute, copy=False).reshape((*batch_shape, m, k))
        b = np.transpose(rhs, (*rb, *rc, *rf)).astype(compute, copy=False).reshape((*batch_shape, k, n))
        shape = batch_shape + tuple(lhs.shape[a_] for a_ in lf) + tuple(rhs.shape[b_] for b_ in rf)
        # inf * 0 and overflow give NaN or inf silently, as under XLA.
        with np.errstate(all="ignore"):
            out = np.matmul(a, b)
            return (convert_buffer(out.reshape(shape), out_dtype),)

    @override
    def lower(
        self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[HloValue, ...]:
        # As the eager rule: mixed operands are converted to the result
        # dtype, then to the compute dtype, and the sum to the result dtype,
        # each with convert_element_type's rule (complex to real keeps the
        # real part, float to int saturates).
        (out,) = out_avals
        lhs, rhs = args
        if lhs.aval.dtype != rhs.aval.dtype:
            lhs, rhs = lower_convert(ctx, lhs, out.dtype), lower_convert(ctx, rhs, out.dtype)
        compute = _compute_dtype(lhs.aval.dtype, out.dtype)
        (lc, rc), (lb, rb) = self.dimension_numbers
        fields = [
            _dims_attr("lhs_batching_dimensions", lb),
            _dims_attr("rhs_batching_dimensions", rb),
            _dims_attr("lhs_contracting_dimensions", lc),
            _dims_attr("rhs_contracting_dimensions", rc),
        ]
        result = ctx.op1(
            "stablehlo.dot_general",
            (lower_convert(ctx, lhs, compute), lower_convert(ctx, rhs, compute)),
            ShapedArray(out.shape, compute),
            {"dot_dimension_numbers": f"#stablehlo.dot<{', '.join(fields)}>"},
        )
        return (lower_convert(ctx, result, out.dtype),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return bilinear_jvp(self, primals, tangents)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,), (lhs, rhs) = cts, args
        assert not isinstance(ct, Zero)
        check_one_linear("dot_general", lhs, rhs)
        (lc, rc), (lb, rb) = self.dimension_numbers
        num_lhs_free = len(_free(lhs.aval.ndim, lc, lb))
        if isinstance(lhs, UndefinedPrimal):
            assert not isinstance(rhs, UndefinedPrimal)
            rhs_free_in_ct = tuple(range(len(lb) + num_lhs_free, ct.ndim))
            return _transpose_operand(ct, rhs, lhs.aval, ((lc, lb), (rc, rb)), rhs_free_in_ct), None
        assert isinstance(rhs, UndefinedPrimal)
        lhs_free_in_ct = tuple(range(len(lb), len(lb) + num_lhs_free))
        return None, _transpose_operand(ct, lhs, rhs.aval, ((rc, rb), (lc, lb)), lhs_free_in_ct)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (lhs, rhs), (ld, rd) = args, dims
        (lc, rc), (lb, rb) = self.dimension_numbers

        def shift(axes: tuple[int, ...]) -> tuple[int, ...]:
            return tuple(a + 1 for a in axes)

        if ld is not None and rd is not None:
            numbers: DotDimensionNumbers = ((shift(lc), shift(rc)), ((0, *shift(lb)), (0, *shift(rb))))
            out_dim = 0
        elif ld is not None:
            numbers = ((shift(lc), rc), (shift(lb), rb))
            out_dim = len(lb)  # the batch axis is the first lhs free axis
        else:
            numbers = ((lc, shift(rc)), (lb, shift(rb)))
            out_dim = len(lb) + len(_free(lhs.ndim, lc, lb))
        lhs = moveaxis(lhs, ld, 0) if ld is not None else lhs
        rhs = moveaxis(rhs, rd, 0) if rd is not None else rhs
        prim = DotGeneral(numbers, self.precision, self.preferred_element_type)
        return (bind1(prim, lhs, rhs),), (out_dim,)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        # As JAX prints it: unset options are left out.
        return tuple((k, v) for k, v in self.params() if v is not None)

    @override
    def format_param(self, name: str, value: object) -> str:
        if name == "dimension_numbers":
            (lc, rc), (lb, rb) = self.dimension_numbers
            return f"(({list(lc)}, {list(rc)}), ({list(lb)}, {list(rb)}))"
        return Primitive.format_param(self, name, value)


def _transpose_operand(
    ct: Array,
    other: Array,
    linear: ShapedArray,
    dims: tuple[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]],
    other_free_in_ct: tuple[int, ...],
) -> Array:
    """The cotangent of the linear operand of a dot_general whose other
    operand is ``other``: ``ct`` contracted with ``other`` over ``other``'s
    free axes (``other_free_in_ct`` in ``ct``), batched over the batch
    axes, then laid out as the linear operand's axes.

    ``dims`` is ``((linear_contracting, linear_batch), (other_contracting,
    other_batch))``. The result axes of the contraction are the batch axes,
    the linear operand's free axes, then ``other``'s contracting axes in
    increasing order, each paired with a contracting axis of the linear
    operand. The plain (not conjugated) transpose, as JAX's: complex
    cotangents of a real operand keep their real part.
    """
    (contract, batch), (other_contract, other_batch) = dims
    other_free = _free(other.ndim, other_contract, other_batch)
    numbers: DotDimensionNumbers = ((other_free_in_ct, other_free), (tuple(range(len(batch))), other_batch))
    product = bind1(DotGeneral(numbers), ct, other)
    paired = tuple(contract[other_contract.index(a)] for a in sorted(other_contract))
    labels = (*batch, *_free(linear.ndim, contract, batch), *paired)
    result = transpose(product, tuple(labels.index(axis) for axis in range(linear.ndim)))
    want = linear.to_tangent_aval()
    return result if result.dtype == want.dtype else convert_to(result, want.dtype, weak_type=want.weak_type)


def _int_tuples(*groups: object) -> bool:
    """Whether every group is a tuple of ints (exactly, not subclasses)."""
    for group in groups:
        if type(group) is not tuple:
            return False
        for a in group:  # pyright: ignore[reportUnknownVariableType]  # checked next
            if type(a) is not int:  # pyright: ignore[reportUnknownArgumentType]
                return False
    return True


def _numbers(dimension_numbers: Sequence[Sequence[Sequence[int]]]) -> DotDimensionNumbers:
    try:
        (lc, rc), (lb, rb) = dimension_numbers
    except (TypeError, ValueError):
        raise JaxtypedTypeError(
            "lax.dot_general: dimension_numbers must be ((lhs_contracting, rhs_contracting), "
            f"(lhs_batch, rhs_batch)), got {dimension_numbers!r}"
        ) from None
    if _int_tuples(lc, rc, lb, rb):
        return cast(DotDimensionNumbers, ((lc, rc), (lb, rb)))  # what jnp passes: already canonical (issue 19)
    ints = [check_int_tuple("lax.dot_general", "dimension_numbers", axes) for axes in (lc, rc, lb, rb)]
    return ((ints[0], ints[1]), (ints[2], ints[3]))


def dot_general(
    lhs: ArrayLike,
    rhs: ArrayLike,
    dimension_numbers: Sequence[Sequence[Sequence[int]]],
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
) -> Array:
    """General dot product (JAX's ``lax.dot_general``); ``precision`` is
    checked and, on CPU, has no effect."""
    canonicalize_precision(precision)
    a = as_operand(lhs, "lax.dot_general lhs")
    b = as_operand(rhs, "lax.dot_general rhs")
    preferred = None if preferred_element_type is None else dtypes.canonicalize_dtype(dtypes.dtype(preferred_element_type))
    numbers = _numbers(dimension_numbers)
    prim = _dot_generals.get((numbers, preferred))
    if prim is None:
        if len(_dot_generals) >= 256:
            _dot_generals.clear()
        prim = _dot_generals[(numbers, preferred)] = DotGeneral(numbers, None, preferred)
    return bind1(prim, a, b)


# Eager code multiplies with the same few dimension numbers over and over: one
# DotGeneral per kind saves building a frozen dataclass per product, and the
# abstract-eval memo then compares it by identity (issue 19).
_dot_generals: dict[tuple[DotDimensionNumbers, np.dtype[Any] | None], DotGeneral] = {}


def dot(
    lhs: ArrayLike,
    rhs: ArrayLike,
    precision: PrecisionLike = None,
    preferred_element_type: "dtypes.DTypeLike | None" = None,
    *,
    dimension_numbers: Sequence[Sequence[Sequence[int]]] | None = None,
) -> Array:
    """Vector/matrix products of rank-1 and rank-2 operands (JAX's
    ``lax.dot``); with ``dimension_numbers``, ``dot_general``'s product
    of any ranks."""
    a = as_operand(lhs, "lax.dot lhs")
    b = as_operand(rhs, "lax.dot rhs")
    if dimension_numbers is not None:
        return dot_general(a, b, dimension_numbers, precision, preferred_element_type)
    if a.ndim not in (1, 2) or b.ndim not in (1, 2):
        raise JaxtypedValueError(
            f"lax.dot: operands must have rank 1 or 2 (or give dimension_numbers), got {a.aval.str_short()} and "
            f"{b.aval.str_short()}"
        )
    return dot_general(a, b, (((a.ndim - 1,), (0,)), ((), ())), precision, preferred_element_type)
