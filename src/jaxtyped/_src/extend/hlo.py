"""StableHLO op builders for JAX-form lowering rules (JAX's ``mlir.hlo``).

Each builder emits one op into the function being lowered (see Note [text,
not MLIR bindings] in :mod:`jaxtyped._src.extend.mlir`) and is an
:class:`HloOp` with ``.results`` (and ``.result``). Operands are values or
one-result ops; result types are :class:`ShapedArray`\\ s. Elementwise ops
take operands of one type, as StableHLO does (no implicit broadcasting:
use :class:`BroadcastInDimOp`).
"""

from collections.abc import Callable, Sequence
from typing import ClassVar, Final, final

import numpy as np

from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.extend.mlir import HloOp, Operand, current_lowering, dims_attr, emit, ir_constant, value_of

__all__ = [
    "HloOp", "HloValue", "Operand",
    "AbsOp", "NegOp", "ExpOp", "Expm1Op", "LogOp", "Log1pOp", "SineOp", "CosineOp", "TanOp", "TanhOp", "SqrtOp", "RsqrtOp", "CbrtOp", "FloorOp", "CeilOp", "SignOp", "NotOp", "LogisticOp", "RoundOp", "RoundNearestEvenOp", "AddOp", "SubtractOp", "MulOp", "DivOp", "RemOp", "MaxOp", "MinOp", "PowOp", "Atan2Op", "AndOp", "OrOp", "XorOp", "ShiftLeftOp", "ShiftRightArithmeticOp", "ShiftRightLogicalOp",
    "CompareOp", "SelectOp", "BroadcastInDimOp", "ReshapeOp", "TransposeOp", "DotGeneralOp",
    "DotDimensionNumbers", "ReduceOp", "ConstantOp", "ConvertOp", "IotaOp", "ConcatenateOp", "SliceOp",
    "CustomCallOp", "ComparisonDirectionAttr", "constant",
    "WhileOp", "CaseOp", "GatherOp", "GatherDimensionNumbers",
    "add", "subtract", "multiply", "divide", "remainder", "maximum", "minimum", "power", "atan2", "and_", "or_", "xor",
    "shift_left", "shift_right_arithmetic", "shift_right_logical",
    "abs", "negate", "exponential", "exponential_minus_one", "log", "log_plus_one", "sine", "cosine", "tan", "tanh",
    "sqrt", "rsqrt", "cbrt", "floor", "ceil", "sign", "not_", "logistic", "round_nearest_afz", "round_nearest_even",
    "compare", "select", "broadcast_in_dim", "reshape", "transpose", "dot_general", "convert", "iota", "concatenate",
    "slice", "gather", "reduce", "while_", "case", "custom_call",
]

_COMPARISONS: Final = frozenset({"EQ", "NE", "LT", "LE", "GT", "GE"})


def _check_same_types(name: str, values: Sequence[HloValue]) -> ShapedArray:
    first = values[0].aval.strip_weak_type()
    for v in values[1:]:
        if not v.aval.same_type(first):
            shown = " vs ".join(x.aval.str_short() for x in values)
            raise JaxtypedTypeError(f"hlo.{name}: operands must have one type, got {shown}")
    return first


class _UnaryOp(HloOp):
    __slots__ = ()
    op_name: ClassVar[str]

    def __init__(self, operand: Operand) -> None:
        x = value_of(operand)
        super().__init__(emit(self.op_name, (x,), (x.aval,)))


class _BinaryOp(HloOp):
    __slots__ = ()
    op_name: ClassVar[str]

    def __init__(self, lhs: Operand, rhs: Operand) -> None:
        x, y = value_of(lhs), value_of(rhs)
        out = _check_same_types(type(self).__name__, (x, y))
        super().__init__(emit(self.op_name, (x, y), (out,)))


@final
class AbsOp(_UnaryOp):
    """``stablehlo.abs``."""

    __slots__ = ()
    op_name = "stablehlo.abs"


@final
class NegOp(_UnaryOp):
    """``stablehlo.negate``."""

    __slots__ = ()
    op_name = "stablehlo.negate"


@final
class ExpOp(_UnaryOp):
    """``stablehlo.exponential``."""

    __slots__ = ()
    op_name = "stablehlo.exponential"


@final
class Expm1Op(_UnaryOp):
    """``stablehlo.exponential_minus_one``."""

    __slots__ = ()
    op_name = "stablehlo.exponential_minus_one"


@final
class LogOp(_UnaryOp):
    """``stablehlo.log``."""

    __slots__ = ()
    op_name = "stablehlo.log"


@final
class Log1pOp(_UnaryOp):
    """``stablehlo.log_plus_one``."""

    __slots__ = ()
    op_name = "stablehlo.log_plus_one"


@final
class SineOp(_UnaryOp):
    """``stablehlo.sine``."""

    __slots__ = ()
    op_name = "stablehlo.sine"


@final
class CosineOp(_UnaryOp):
    """``stablehlo.cosine``."""

    __slots__ = ()
    op_name = "stablehlo.cosine"


@final
class TanOp(_UnaryOp):
    """``stablehlo.tan``."""

    __slots__ = ()
    op_name = "stablehlo.tan"


@final
class TanhOp(_UnaryOp):
    """``stablehlo.tanh``."""

    __slots__ = ()
    op_name = "stablehlo.tanh"


@final
class SqrtOp(_UnaryOp):
    """``stablehlo.sqrt``."""

    __slots__ = ()
    op_name = "stablehlo.sqrt"


@final
class RsqrtOp(_UnaryOp):
    """``stablehlo.rsqrt``."""

    __slots__ = ()
    op_name = "stablehlo.rsqrt"


@final
class CbrtOp(_UnaryOp):
    """``stablehlo.cbrt``."""

    __slots__ = ()
    op_name = "stablehlo.cbrt"


@final
class FloorOp(_UnaryOp):
    """``stablehlo.floor``."""

    __slots__ = ()
    op_name = "stablehlo.floor"


@final
class CeilOp(_UnaryOp):
    """``stablehlo.ceil``."""

    __slots__ = ()
    op_name = "stablehlo.ceil"


@final
class SignOp(_UnaryOp):
    """``stablehlo.sign``."""

    __slots__ = ()
    op_name = "stablehlo.sign"


@final
class NotOp(_UnaryOp):
    """``stablehlo.not``."""

    __slots__ = ()
    op_name = "stablehlo.not"


@final
class LogisticOp(_UnaryOp):
    """``stablehlo.logistic``."""

    __slots__ = ()
    op_name = "stablehlo.logistic"


@final
class RoundOp(_UnaryOp):
    """``stablehlo.round_nearest_afz``."""

    __slots__ = ()
    op_name = "stablehlo.round_nearest_afz"


@final
class RoundNearestEvenOp(_UnaryOp):
    """``stablehlo.round_nearest_even``."""

    __slots__ = ()
    op_name = "stablehlo.round_nearest_even"


@final
class AddOp(_BinaryOp):
    """``stablehlo.add``."""

    __slots__ = ()
    op_name = "stablehlo.add"


@final
class SubtractOp(_BinaryOp):
    """``stablehlo.subtract``."""

    __slots__ = ()
    op_name = "stablehlo.subtract"


@final
class MulOp(_BinaryOp):
    """``stablehlo.multiply``."""

    __slots__ = ()
    op_name = "stablehlo.multiply"


@final
class DivOp(_BinaryOp):
    """``stablehlo.divide``."""

    __slots__ = ()
    op_name = "stablehlo.divide"


@final
class RemOp(_BinaryOp):
    """``stablehlo.remainder``."""

    __slots__ = ()
    op_name = "stablehlo.remainder"


@final
class MaxOp(_BinaryOp):
    """``stablehlo.maximum``."""

    __slots__ = ()
    op_name = "stablehlo.maximum"


@final
class MinOp(_BinaryOp):
    """``stablehlo.minimum``."""

    __slots__ = ()
    op_name = "stablehlo.minimum"


@final
class PowOp(_BinaryOp):
    """``stablehlo.power``."""

    __slots__ = ()
    op_name = "stablehlo.power"


@final
class Atan2Op(_BinaryOp):
    """``stablehlo.atan2``."""

    __slots__ = ()
    op_name = "stablehlo.atan2"


@final
class AndOp(_BinaryOp):
    """``stablehlo.and``."""

    __slots__ = ()
    op_name = "stablehlo.and"


@final
class OrOp(_BinaryOp):
    """``stablehlo.or``."""

    __slots__ = ()
    op_name = "stablehlo.or"


@final
class XorOp(_BinaryOp):
    """``stablehlo.xor``."""

    __slots__ = ()
    op_name = "stablehlo.xor"


@final
class ShiftLeftOp(_BinaryOp):
    """``stablehlo.shift_left``."""

    __slots__ = ()
    op_name = "stablehlo.shift_left"


@final
class ShiftRightArithmeticOp(_BinaryOp):
    """``stablehlo.shift_right_arithmetic``."""

    __slots__ = ()
    op_name = "stablehlo.shift_right_arithmetic"


@final
class ShiftRightLogicalOp(_BinaryOp):
    """``stablehlo.shift_right_logical``."""

    __slots__ = ()
    op_name = "stablehlo.shift_right_logical"


@final
class ComparisonDirectionAttr:
    """A comparison direction (``ComparisonDirectionAttr.get("LT")``)."""

    __slots__ = ("value",)

    value: str

    def __init__(self, value: str) -> None:
        if value not in _COMPARISONS:
            raise JaxtypedValueError(f"hlo comparison direction must be one of {sorted(_COMPARISONS)}, got {value!r}")
        self.value = value

    @staticmethod
    def get(value: str) -> "ComparisonDirectionAttr":
        """The direction named ``value`` (``"EQ"``, ``"LT"``, ...)."""
        return ComparisonDirectionAttr(value)


@final
class CompareOp(HloOp):
    """``stablehlo.compare``: a boolean array. ``compare_type`` (``FLOAT``,
    ``SIGNED``, ``UNSIGNED``, ``TOTALORDER``) defaults to the operands'
    dtype's."""

    __slots__ = ()

    def __init__(
        self, lhs: Operand, rhs: Operand, comparison_direction: "str | ComparisonDirectionAttr", compare_type: str | None = None
    ) -> None:
        x, y = value_of(lhs), value_of(rhs)
        _check_same_types("CompareOp", (x, y))
        direction = ComparisonDirectionAttr(comparison_direction if isinstance(comparison_direction, str) else comparison_direction.value)
        if compare_type is None:
            super().__init__([current_lowering().compare(x, y, direction.value)])
            return
        attrs = {
            "comparison_direction": f"#stablehlo<comparison_direction {direction.value}>",
            "compare_type": f"#stablehlo<comparison_type {compare_type}>",
        }
        super().__init__(emit("stablehlo.compare", (x, y), (ShapedArray(x.aval.shape, np.dtype(np.bool_)),), attrs))


@final
class SelectOp(HloOp):
    """``stablehlo.select``: ``pred ? on_true : on_false`` elementwise."""

    __slots__ = ()

    def __init__(self, pred: Operand, on_true: Operand, on_false: Operand) -> None:
        p, t, f = value_of(pred), value_of(on_true), value_of(on_false)
        out = _check_same_types("SelectOp", (t, f))
        if p.aval.dtype != np.bool_ or p.aval.shape not in ((), out.shape):
            raise JaxtypedTypeError(f"hlo.SelectOp: pred must be a bool array of shape () or {out.shape}, got {p.aval.str_short()}")
        super().__init__(emit("stablehlo.select", (p, t, f), (out,)))


@final
class BroadcastInDimOp(HloOp):
    """``stablehlo.broadcast_in_dim``: operand dimension ``i`` becomes
    result dimension ``broadcast_dimensions[i]``."""

    __slots__ = ()

    def __init__(self, result: ShapedArray, operand: Operand, broadcast_dimensions: Sequence[int]) -> None:
        x = value_of(operand)
        if len(broadcast_dimensions) != x.aval.ndim:
            raise JaxtypedValueError(
                f"hlo.BroadcastInDimOp: {len(broadcast_dimensions)} broadcast_dimensions for operand {x.aval.str_short()}"
            )
        out = result.update(dtype=x.aval.dtype)
        super().__init__(emit("stablehlo.broadcast_in_dim", (x,), (out,), {"broadcast_dimensions": dims_attr(broadcast_dimensions)}))


@final
class ReshapeOp(HloOp):
    """``stablehlo.reshape`` to ``result``'s shape (same element count)."""

    __slots__ = ()

    def __init__(self, result: ShapedArray, operand: Operand) -> None:
        x = value_of(operand)
        if result.size != x.aval.size:
            raise JaxtypedValueError(f"hlo.ReshapeOp: cannot reshape {x.aval.str_short()} to {result.shape}")
        super().__init__(emit("stablehlo.reshape", (x,), (result.update(dtype=x.aval.dtype),)))


@final
class TransposeOp(HloOp):
    """``stablehlo.transpose``: result dimension ``i`` is operand
    dimension ``permutation[i]``."""

    __slots__ = ()

    def __init__(self, operand: Operand, permutation: Sequence[int]) -> None:
        x = value_of(operand)
        if sorted(permutation) != list(range(x.aval.ndim)):
            raise JaxtypedValueError(f"hlo.TransposeOp: {list(permutation)} is not a permutation of the axes of {x.aval.str_short()}")
        out = x.aval.update(shape=tuple(x.aval.shape[p] for p in permutation))
        super().__init__(emit("stablehlo.transpose", (x,), (out,), {"permutation": dims_attr(permutation)}))


@final
class DotDimensionNumbers:
    """Batch and contracting dimensions of a :class:`DotGeneralOp`."""

    __slots__ = ("lhs_batching_dimensions", "rhs_batching_dimensions", "lhs_contracting_dimensions", "rhs_contracting_dimensions")

    lhs_batching_dimensions: tuple[int, ...]
    rhs_batching_dimensions: tuple[int, ...]
    lhs_contracting_dimensions: tuple[int, ...]
    rhs_contracting_dimensions: tuple[int, ...]

    def __init__(
        self,
        lhs_batching_dimensions: Sequence[int],
        rhs_batching_dimensions: Sequence[int],
        lhs_contracting_dimensions: Sequence[int],
        rhs_contracting_dimensions: Sequence[int],
    ) -> None:
        self.lhs_batching_dimensions = tuple(lhs_batching_dimensions)
        self.rhs_batching_dimensions = tuple(rhs_batching_dimensions)
        self.lhs_contracting_dimensions = tuple(lhs_contracting_dimensions)
        self.rhs_contracting_dimensions = tuple(rhs_contracting_dimensions)

    @staticmethod
    def get(
        lhs_batching_dimensions: Sequence[int] = (),
        rhs_batching_dimensions: Sequence[int] = (),
        lhs_contracting_dimensions: Sequence[int] = (),
        rhs_contracting_dimensions: Sequence[int] = (),
    ) -> "DotDimensionNumbers":
        """JAX's spelling of the constructor."""
        return DotDimensionNumbers(lhs_batching_dimensions, rhs_batching_dimensions, lhs_contracting_dimensions, rhs_contracting_dimensions)

    def text(self) -> str:
        """The ``#stablehlo.dot<...>`` attribute."""

        def field(name: str, values: tuple[int, ...]) -> str:
            return f"{name} = [{', '.join(str(v) for v in values)}]" if values else ""

        parts = [
            field("lhs_batching_dimensions", self.lhs_batching_dimensions),
            field("rhs_batching_dimensions", self.rhs_batching_dimensions),
            field("lhs_contracting_dimensions", self.lhs_contracting_dimensions),
            field("rhs_contracting_dimensions", self.rhs_contracting_dimensions),
        ]
        return f"#stablehlo.dot<{', '.join(p for p in parts if p)}>"


@final
class DotGeneralOp(HloOp):
    """``stablehlo.dot_general`` producing ``result`` (batch dimensions,
    then lhs free, then rhs free dimensions)."""

    __slots__ = ()

    def __init__(self, result: ShapedArray, lhs: Operand, rhs: Operand, dot_dimension_numbers: DotDimensionNumbers) -> None:
        x, y = value_of(lhs), value_of(rhs)
        dn = dot_dimension_numbers
        for a, b in ((dn.lhs_batching_dimensions, dn.rhs_batching_dimensions), (dn.lhs_contracting_dimensions, dn.rhs_contracting_dimensions)):
            if [x.aval.shape[i] for i in a] != [y.aval.shape[i] for i in b]:
                raise JaxtypedTypeError(f"hlo.DotGeneralOp: dimensions {list(a)} of {x.aval.str_short()} do not match {list(b)} of {y.aval.str_short()}")
        used_l = set(dn.lhs_batching_dimensions) | set(dn.lhs_contracting_dimensions)
        used_r = set(dn.rhs_batching_dimensions) | set(dn.rhs_contracting_dimensions)
        shape = (
            tuple(x.aval.shape[i] for i in dn.lhs_batching_dimensions)
            + tuple(d for i, d in enumerate(x.aval.shape) if i not in used_l)
            + tuple(d for i, d in enumerate(y.aval.shape) if i not in used_r)
        )
        if shape != result.shape:
            raise JaxtypedTypeError(f"hlo.DotGeneralOp: the result has shape {shape}, not {result.shape}")
        super().__init__(emit("stablehlo.dot_general", (x, y), (result,), {"dot_dimension_numbers": dn.text()}))


@final
class ReduceOp(HloOp):
    """``stablehlo.reduce`` of ``inputs`` over ``dimensions`` from
    ``init_values``. ``body(accumulators, elements)`` builds the reducer on
    0-d values with these builders and returns the new accumulators (JAX
    fills ``op.body`` through an insertion point instead)."""

    __slots__ = ()

    def __init__(
        self,
        inputs: Sequence[Operand],
        init_values: Sequence[Operand],
        dimensions: Sequence[int],
        body: Callable[[list[HloValue], list[HloValue]], Sequence[Operand]],
    ) -> None:
        xs, inits = [value_of(x) for x in inputs], [value_of(x) for x in init_values]
        if len(xs) != len(inits) or not xs:
            raise JaxtypedValueError(f"hlo.ReduceOp: {len(xs)} inputs but {len(inits)} init values")
        dims = sorted(int(d) for d in dimensions)
        ctx = current_lowering()
        scalars = [ShapedArray((), x.aval.dtype) for x in xs]
        with ctx.region(scalars + scalars) as (block_args, region):
            outs = [value_of(v) for v in body(block_args[: len(xs)], block_args[len(xs) :])]
            ctx.ret(outs)
        results = [ShapedArray(tuple(d for i, d in enumerate(x.aval.shape) if i not in dims), x.aval.dtype) for x in xs]
        super().__init__(emit("stablehlo.reduce", [*xs, *inits], results, {"dimensions": dims_attr(dims)}, region))


@final
class ConstantOp(HloOp):
    """``stablehlo.constant`` holding a NumPy array (or scalar)."""

    __slots__ = ()

    def __init__(self, value: "np.ndarray[tuple[int, ...], np.dtype[np.generic]] | np.generic | bool | int | float") -> None:
        super().__init__([ir_constant(value)])


def constant(value: "np.ndarray[tuple[int, ...], np.dtype[np.generic]] | np.generic | bool | int | float", dtype: "np.dtype[np.generic] | type[np.generic] | None" = None) -> HloValue:
    """A constant value (JAX's ``hlo.constant``/``mlir.ir_constant``)."""
    return ir_constant(value, dtype)


@final
class ConvertOp(HloOp):
    """``stablehlo.convert`` to ``result``'s dtype."""

    __slots__ = ()

    def __init__(self, result: ShapedArray, operand: Operand) -> None:
        x = value_of(operand)
        super().__init__(emit("stablehlo.convert", (x,), (x.aval.update(dtype=result.dtype),)))


@final
class IotaOp(HloOp):
    """``stablehlo.iota``: ``0, 1, ...`` along ``iota_dimension``."""

    __slots__ = ()

    def __init__(self, result: ShapedArray, iota_dimension: int) -> None:
        super().__init__(emit("stablehlo.iota", (), (result,), {"iota_dimension": f"{int(iota_dimension)} : i64"}))


@final
class ConcatenateOp(HloOp):
    """``stablehlo.concatenate`` along ``dimension``."""

    __slots__ = ()

    def __init__(self, inputs: Sequence[Operand], dimension: int) -> None:
        xs = [value_of(x) for x in inputs]
        first = xs[0].aval
        shape = list(first.shape)
        shape[dimension] = sum(x.aval.shape[dimension] for x in xs)
        super().__init__(emit("stablehlo.concatenate", xs, (first.update(shape=tuple(shape)),), {"dimension": f"{int(dimension)} : i64"}))


@final
class SliceOp(HloOp):
    """``stablehlo.slice`` with static start, limit and stride indices."""

    __slots__ = ()

    def __init__(self, operand: Operand, start_indices: Sequence[int], limit_indices: Sequence[int], strides: Sequence[int]) -> None:
        x = value_of(operand)
        shape = tuple(max(0, -(-(hi - lo) // st)) for lo, hi, st in zip(start_indices, limit_indices, strides, strict=True))
        attrs = {"start_indices": dims_attr(start_indices), "limit_indices": dims_attr(limit_indices), "strides": dims_attr(strides)}
        super().__init__(emit("stablehlo.slice", (x,), (x.aval.update(shape=shape),), attrs))


@final
class CustomCallOp(HloOp):
    """``stablehlo.custom_call`` of ``call_target_name`` (an XLA FFI target
    with ``api_version=4``; ``backend_config`` then holds the attributes
    as MLIR dictionary text, ``{n = 3 : i64}``)."""

    __slots__ = ()

    def __init__(
        self,
        results: Sequence[ShapedArray],
        operands: Sequence[Operand],
        call_target_name: str,
        *,
        has_side_effect: bool = False,
        backend_config: str | None = None,
        api_version: int = 4,
    ) -> None:
        if not call_target_name.replace("_", "").replace(".", "").isalnum():
            raise JaxtypedValueError(f"hlo.CustomCallOp: invalid call_target_name {call_target_name!r}")
        attrs = {"call_target_name": f'"{call_target_name}"', "api_version": f"{int(api_version)} : i32"}
        if has_side_effect:
            attrs["has_side_effect"] = "true"
        if backend_config is not None:
            attrs["backend_config"] = backend_config if api_version == 4 else '"' + backend_config.replace('"', '\\"') + '"'
        elif api_version == 4:
            attrs["backend_config"] = "{}"
        super().__init__(emit("stablehlo.custom_call", [value_of(x) for x in operands], list(results), attrs))



# --- control flow and gather (bodies as Python functions, as ReduceOp) ---


def _check_region_results(name: str, got: Sequence[HloValue], want: Sequence[ShapedArray]) -> None:
    if len(got) != len(want) or any(not g.aval.same_type(w.strip_weak_type()) for g, w in zip(got, want)):
        shown = ", ".join(g.aval.str_short() for g in got)
        wanted = ", ".join(w.str_short() for w in want)
        raise JaxtypedTypeError(f"hlo.{name}: a region returned ({shown}), expected ({wanted})")


@final
class WhileOp(HloOp):
    """``stablehlo.while`` over ``operands``: ``cond(values)`` builds a 0-d
    bool, ``body(values)`` the next values (of the operands' types). JAX
    fills ``op.before``/``op.after`` through insertion points instead."""

    __slots__ = ()

    def __init__(
        self,
        operands: Sequence[Operand],
        cond: Callable[[list[HloValue]], Operand],
        body: Callable[[list[HloValue]], Sequence[Operand]],
    ) -> None:
        xs = [value_of(x) for x in operands]
        avals = [x.aval.strip_weak_type() for x in xs]
        ctx = current_lowering()
        with ctx.region(avals) as (args, cond_text):
            pred = value_of(cond(args))
            _check_region_results("WhileOp cond", [pred], [ShapedArray((), np.dtype(np.bool_))])
            ctx.ret([pred])
        with ctx.region(avals) as (args, body_text):
            outs = [value_of(v) for v in body(args)]
            _check_region_results("WhileOp body", outs, avals)
            ctx.ret(outs)
        super().__init__(emit("stablehlo.while", xs, avals, None, [cond_text[0], body_text[0]]))


@final
class CaseOp(HloOp):
    """``stablehlo.case``: runs ``branches[index]`` (``index`` a 0-d int32;
    out of range runs the last branch). Each branch is a function of no
    arguments that builds values of the types ``results`` (it may use the
    values of the enclosing rule)."""

    __slots__ = ()

    def __init__(
        self,
        results: Sequence[ShapedArray],
        index: Operand,
        branches: Sequence[Callable[[], Sequence[Operand]]],
    ) -> None:
        i = value_of(index)
        if i.aval.shape != () or i.aval.dtype != np.int32:
            raise JaxtypedTypeError(f"hlo.CaseOp: index must be a 0-d int32, got {i.aval.str_short()}")
        if not branches:
            raise JaxtypedValueError("hlo.CaseOp: needs at least one branch")
        ctx = current_lowering()
        regions: list[str] = []
        for branch in branches:
            with ctx.region(()) as (_, text):
                outs = [value_of(v) for v in branch()]
                _check_region_results("CaseOp branch", outs, results)
                ctx.ret(outs)
            regions.append(text[0])
        super().__init__(emit("stablehlo.case", (i,), list(results), None, regions))


@final
class GatherDimensionNumbers:
    """The dimension numbers of a :class:`GatherOp` (StableHLO's
    ``#stablehlo.gather``; ``GatherDimensionNumbers.get(...)`` as JAX's)."""

    __slots__ = (
        "offset_dims", "collapsed_slice_dims", "operand_batching_dims",
        "start_indices_batching_dims", "start_index_map", "index_vector_dim",
    )  # fmt: skip

    offset_dims: tuple[int, ...]
    collapsed_slice_dims: tuple[int, ...]
    operand_batching_dims: tuple[int, ...]
    start_indices_batching_dims: tuple[int, ...]
    start_index_map: tuple[int, ...]
    index_vector_dim: int

    def __init__(
        self,
        offset_dims: Sequence[int],
        collapsed_slice_dims: Sequence[int],
        operand_batching_dims: Sequence[int],
        start_indices_batching_dims: Sequence[int],
        start_index_map: Sequence[int],
        index_vector_dim: int,
    ) -> None:
        self.offset_dims = tuple(int(d) for d in offset_dims)
        self.collapsed_slice_dims = tuple(int(d) for d in collapsed_slice_dims)
        self.operand_batching_dims = tuple(int(d) for d in operand_batching_dims)
        self.start_indices_batching_dims = tuple(int(d) for d in start_indices_batching_dims)
        self.start_index_map = tuple(int(d) for d in start_index_map)
        self.index_vector_dim = int(index_vector_dim)

    @staticmethod
    def get(
        offset_dims: Sequence[int],
        collapsed_slice_dims: Sequence[int],
        start_index_map: Sequence[int],
        index_vector_dim: int,
        operand_batching_dims: Sequence[int] = (),
        start_indices_batching_dims: Sequence[int] = (),
    ) -> "GatherDimensionNumbers":
        """The dimension numbers with these fields (keywords as JAX's)."""
        return GatherDimensionNumbers(
            offset_dims, collapsed_slice_dims, operand_batching_dims, start_indices_batching_dims, start_index_map, index_vector_dim
        )

    def text(self) -> str:
        """The attribute's text (empty lists left out, as MLIR prints it)."""
        fields = (
            ("offset_dims", self.offset_dims),
            ("collapsed_slice_dims", self.collapsed_slice_dims),
            ("operand_batching_dims", self.operand_batching_dims),
            ("start_indices_batching_dims", self.start_indices_batching_dims),
            ("start_index_map", self.start_index_map),
        )
        parts = [f"{name} = [{', '.join(map(str, dims))}]" for name, dims in fields if dims]
        return "#stablehlo.gather<" + ", ".join([*parts, f"index_vector_dim = {self.index_vector_dim}"]) + ">"


@final
class GatherOp(HloOp):
    """``stablehlo.gather`` of ``slice_sizes`` slices of ``operand`` starting
    at ``start_indices`` (the result type is inferred, as StableHLO does)."""

    __slots__ = ()

    def __init__(
        self,
        operand: Operand,
        start_indices: Operand,
        dimension_numbers: GatherDimensionNumbers,
        slice_sizes: Sequence[int],
        indices_are_sorted: bool = False,
    ) -> None:
        x, idx = value_of(operand), value_of(start_indices)
        dn, sizes = dimension_numbers, tuple(int(s) for s in slice_sizes)
        if len(sizes) != x.aval.ndim or any(not 0 <= s <= d for s, d in zip(sizes, x.aval.shape)):
            raise JaxtypedValueError(f"hlo.GatherOp: slice_sizes {list(sizes)} do not fit operand {x.aval.str_short()}")
        if not np.issubdtype(idx.aval.dtype, np.integer):
            raise JaxtypedTypeError(f"hlo.GatherOp: start_indices must be integers, got {idx.aval.str_short()}")
        dropped = set(dn.collapsed_slice_dims) | set(dn.operand_batching_dims)
        offsets = [s for d, s in enumerate(sizes) if d not in dropped]
        batch = [s for d, s in enumerate(idx.aval.shape) if d != dn.index_vector_dim]
        if len(offsets) != len(dn.offset_dims):
            raise JaxtypedValueError(
                f"hlo.GatherOp: {len(dn.offset_dims)} offset_dims for {len(offsets)} slice dimensions kept"
            )
        shape: list[int] = []
        for d in range(len(batch) + len(offsets)):
            shape.append(offsets.pop(0) if d in dn.offset_dims else batch.pop(0))
        attrs = {
            "dimension_numbers": dn.text(),
            "slice_sizes": dims_attr(sizes),
            "indices_are_sorted": "true" if indices_are_sorted else "false",
        }
        super().__init__(emit("stablehlo.gather", (x, idx), (ShapedArray(tuple(shape), x.aval.dtype),), attrs))


# --- lower-case forms (JAX's ``hlo.add(x, y)`` ...): the value of one op ---


def add(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.add``."""
    return AddOp(lhs, rhs).result


def subtract(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.subtract``."""
    return SubtractOp(lhs, rhs).result


def multiply(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.multiply``."""
    return MulOp(lhs, rhs).result


def divide(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.divide``."""
    return DivOp(lhs, rhs).result


def remainder(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.remainder``."""
    return RemOp(lhs, rhs).result


def maximum(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.maximum``."""
    return MaxOp(lhs, rhs).result


def minimum(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.minimum``."""
    return MinOp(lhs, rhs).result


def power(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.power``."""
    return PowOp(lhs, rhs).result


def atan2(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.atan2``."""
    return Atan2Op(lhs, rhs).result


def and_(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.and``."""
    return AndOp(lhs, rhs).result


def or_(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.or``."""
    return OrOp(lhs, rhs).result


def xor(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.xor``."""
    return XorOp(lhs, rhs).result


def shift_left(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.shift_left``."""
    return ShiftLeftOp(lhs, rhs).result


def shift_right_arithmetic(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.shift_right_arithmetic``."""
    return ShiftRightArithmeticOp(lhs, rhs).result


def shift_right_logical(lhs: Operand, rhs: Operand) -> HloValue:
    """``stablehlo.shift_right_logical``."""
    return ShiftRightLogicalOp(lhs, rhs).result


def abs(operand: Operand) -> HloValue:  # noqa: A001  # JAX's name
    """``stablehlo.abs``."""
    return AbsOp(operand).result


def negate(operand: Operand) -> HloValue:
    """``stablehlo.negate``."""
    return NegOp(operand).result


def exponential(operand: Operand) -> HloValue:
    """``stablehlo.exponential``."""
    return ExpOp(operand).result


def exponential_minus_one(operand: Operand) -> HloValue:
    """``stablehlo.exponential_minus_one``."""
    return Expm1Op(operand).result


def log(operand: Operand) -> HloValue:
    """``stablehlo.log``."""
    return LogOp(operand).result


def log_plus_one(operand: Operand) -> HloValue:
    """``stablehlo.log_plus_one``."""
    return Log1pOp(operand).result


def sine(operand: Operand) -> HloValue:
    """``stablehlo.sine``."""
    return SineOp(operand).result


def cosine(operand: Operand) -> HloValue:
    """``stablehlo.cosine``."""
    return CosineOp(operand).result


def tan(operand: Operand) -> HloValue:
    """``stablehlo.tan``."""
    return TanOp(operand).result


def tanh(operand: Operand) -> HloValue:
    """``stablehlo.tanh``."""
    return TanhOp(operand).result


def sqrt(operand: Operand) -> HloValue:
    """``stablehlo.sqrt``."""
    return SqrtOp(operand).result


def rsqrt(operand: Operand) -> HloValue:
    """``stablehlo.rsqrt``."""
    return RsqrtOp(operand).result


def cbrt(operand: Operand) -> HloValue:
    """``stablehlo.cbrt``."""
    return CbrtOp(operand).result


def floor(operand: Operand) -> HloValue:
    """``stablehlo.floor``."""
    return FloorOp(operand).result


def ceil(operand: Operand) -> HloValue:
    """``stablehlo.ceil``."""
    return CeilOp(operand).result


def sign(operand: Operand) -> HloValue:
    """``stablehlo.sign``."""
    return SignOp(operand).result


def not_(operand: Operand) -> HloValue:
    """``stablehlo.not``."""
    return NotOp(operand).result


def logistic(operand: Operand) -> HloValue:
    """``stablehlo.logistic``."""
    return LogisticOp(operand).result


def round_nearest_afz(operand: Operand) -> HloValue:
    """``stablehlo.round_nearest_afz``."""
    return RoundOp(operand).result


def round_nearest_even(operand: Operand) -> HloValue:
    """``stablehlo.round_nearest_even``."""
    return RoundNearestEvenOp(operand).result


def compare(lhs: Operand, rhs: Operand, comparison_direction: "str | ComparisonDirectionAttr", compare_type: str | None = None) -> HloValue:
    """``stablehlo.compare``."""
    return CompareOp(lhs, rhs, comparison_direction, compare_type).result


def select(pred: Operand, on_true: Operand, on_false: Operand) -> HloValue:
    """``stablehlo.select``."""
    return SelectOp(pred, on_true, on_false).result


def broadcast_in_dim(result: ShapedArray, operand: Operand, broadcast_dimensions: Sequence[int]) -> HloValue:
    """``stablehlo.broadcast_in_dim``."""
    return BroadcastInDimOp(result, operand, broadcast_dimensions).result


def reshape(result: ShapedArray, operand: Operand) -> HloValue:
    """``stablehlo.reshape``."""
    return ReshapeOp(result, operand).result


def transpose(operand: Operand, permutation: Sequence[int]) -> HloValue:
    """``stablehlo.transpose``."""
    return TransposeOp(operand, permutation).result


def dot_general(result: ShapedArray, lhs: Operand, rhs: Operand, dot_dimension_numbers: DotDimensionNumbers) -> HloValue:
    """``stablehlo.dot_general``."""
    return DotGeneralOp(result, lhs, rhs, dot_dimension_numbers).result


def convert(result: ShapedArray, operand: Operand) -> HloValue:
    """``stablehlo.convert``."""
    return ConvertOp(result, operand).result


def iota(output: ShapedArray, iota_dimension: int) -> HloValue:
    """``stablehlo.iota``."""
    return IotaOp(output, iota_dimension).result


def concatenate(inputs: Sequence[Operand], dimension: int) -> HloValue:
    """``stablehlo.concatenate``."""
    return ConcatenateOp(inputs, dimension).result


def slice(operand: Operand, start_indices: Sequence[int], limit_indices: Sequence[int], strides: Sequence[int]) -> HloValue:  # noqa: A001  # JAX's name
    """``stablehlo.slice``."""
    return SliceOp(operand, start_indices, limit_indices, strides).result


def gather(
    operand: Operand,
    start_indices: Operand,
    dimension_numbers: GatherDimensionNumbers,
    slice_sizes: Sequence[int],
    indices_are_sorted: bool = False,
) -> HloValue:
    """``stablehlo.gather``."""
    return GatherOp(operand, start_indices, dimension_numbers, slice_sizes, indices_are_sorted).result


def reduce(
    inputs: Sequence[Operand],
    init_values: Sequence[Operand],
    dimensions: Sequence[int],
    body: Callable[[list[HloValue], list[HloValue]], Sequence[Operand]],
) -> list[HloValue]:
    """``stablehlo.reduce`` (its results, one per input)."""
    return ReduceOp(inputs, init_values, dimensions, body).results


def while_(
    operands: Sequence[Operand],
    cond: Callable[[list[HloValue]], Operand],
    body: Callable[[list[HloValue]], Sequence[Operand]],
) -> list[HloValue]:
    """``stablehlo.while`` (its results)."""
    return WhileOp(operands, cond, body).results


def case(
    results: Sequence[ShapedArray], index: Operand, branches: Sequence[Callable[[], Sequence[Operand]]]
) -> list[HloValue]:
    """``stablehlo.case`` (its results)."""
    return CaseOp(results, index, branches).results


def custom_call(
    results: Sequence[ShapedArray],
    operands: Sequence[Operand],
    call_target_name: str,
    *,
    has_side_effect: bool = False,
    backend_config: str | None = None,
    api_version: int = 4,
) -> list[HloValue]:
    """``stablehlo.custom_call`` (its results)."""
    return CustomCallOp(
        results, operands, call_target_name, has_side_effect=has_side_effect, backend_config=backend_config, api_version=api_version
    ).results
