"""StableHLO text emission for ``lower`` rules (layer L1).

Note [generic syntax]: ops are written in MLIR's *generic* form,
``%3 = "stablehlo.add"(%1, %2) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>``,
which is uniform for every op, so a rule only names the op, its operands,
its result types and its attributes. jaxlib parses this text directly; the
pretty form users read comes from ``Lowered.as_text()``, which round-trips
the module through MLIR's printer.

This module knows nothing about jaxlib (only the runtime imports it): it
builds strings. A :class:`LoweringContext` is one function body under
construction; rules receive it with their operands as :class:`HloValue`\\ s.
"""

from collections.abc import Callable, Generator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final, final

import ml_dtypes
import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.avals import ShapedArray

__all__ = [
    "HloValue",
    "LoweringContext",
    "element_type",
    "tensor_type",
    "i64_array",
    "dense_constant",
]

_ELEMENT_TYPES: Final[dict[np.dtype[Any], str]] = {
    np.dtype(np.bool_): "i1",
    np.dtype(np.int8): "i8",
    np.dtype(np.int16): "i16",
    np.dtype(np.int32): "i32",
    np.dtype(np.int64): "i64",
    np.dtype(np.uint8): "ui8",
    np.dtype(np.uint16): "ui16",
    np.dtype(np.uint32): "ui32",
    np.dtype(np.uint64): "ui64",
    np.dtype(np.float16): "f16",
    np.dtype(ml_dtypes.bfloat16): "bf16",
    np.dtype(np.float32): "f32",
    np.dtype(np.float64): "f64",
    np.dtype(np.complex64): "complex<f32>",
    np.dtype(np.complex128): "complex<f64>",
    # float0 tangents carry no data; XLA sees them as booleans (as in JAX).
    dtypes.float0: "i1",
    # ml_dtypes' narrow types (math/statistics family). Not float6_* (XLA
    # aborts the process on their constants) nor int1/uint1: arrays of those
    # work eagerly only, and jit names the dtype in a TypeError.
    **{
        np.dtype(getattr(ml_dtypes, name)): mlir
        for name, mlir in (
            ("float8_e4m3fn", "f8E4M3FN"), ("float8_e5m2", "f8E5M2"), ("float8_e4m3b11fnuz", "f8E4M3B11FNUZ"),
            ("float8_e4m3fnuz", "f8E4M3FNUZ"), ("float8_e5m2fnuz", "f8E5M2FNUZ"), ("float8_e3m4", "f8E3M4"),
            ("float8_e4m3", "f8E4M3"), ("float8_e8m0fnu", "f8E8M0FNU"), ("float4_e2m1fn", "f4E2M1FN"),
            ("int4", "i4"), ("uint4", "ui4"),
            ("int2", "i2"), ("uint2", "ui2"),
        )
        if hasattr(ml_dtypes, name)
    },
}


def element_type(dtype: np.dtype[Any]) -> str:
    """The MLIR element type of ``dtype`` (``f32``, ``ui8``, ``complex<f32>``)."""
    try:
        return _ELEMENT_TYPES[dtype]
    except KeyError:
        raise TypeError(f"dtype {dtype} has no StableHLO element type") from None


def tensor_type(aval: ShapedArray) -> str:
    """The MLIR tensor type of ``aval`` (``tensor<3x4xf32>``, ``tensor<i32>``)."""
    dims = "".join(f"{d}x" for d in aval.shape)
    return f"tensor<{dims}{element_type(aval.dtype)}>"


def i64_array(values: Sequence[int]) -> str:
    """A dense ``i64`` array attribute (``array<i64: 0, 1>``)."""
    if not values:
        return "array<i64>"
    return f"array<i64: {', '.join(str(int(v)) for v in values)}>"


def _host_dtype(dtype: np.dtype[Any]) -> np.dtype[Any]:
    return np.dtype(np.bool_) if dtypes.is_float0(dtype) else dtype


def dense_constant(value: object, aval: ShapedArray) -> str:
    """A ``dense<...>`` attribute holding ``value`` (broadcast to ``aval``).

    Numbers are written as raw little-endian hex so that every value
    (NaN payloads, infinities, signed zeros, bfloat16) round-trips exactly;
    booleans as ``true``/``false`` because MLIR's hex form packs ``i1``.
    """
    dtype = _host_dtype(aval.dtype)
    array = np.broadcast_to(np.asarray(value, dtype=dtype), aval.shape)
    if dtype == np.bool_:
        flat = ["true" if v else "false" for v in array.reshape(-1)]
        if len(set(flat)) <= 1:
            return f"dense<{flat[0] if flat else 'false'}>"
        return f"dense<{_nested(np.asarray(flat).reshape(aval.shape))}>"
    if array.size > 1 and np.all(array.reshape(-1) == array.reshape(-1)[0]) and not _has_nan(array):
        # A splat: one element's bytes stand for all of them.
        array = array.reshape(-1)[:1]
    data = np.ascontiguousarray(array, dtype=dtype.newbyteorder("<"))
    return f'dense<"0x{data.tobytes().hex().upper()}">'


def _has_nan(array: np.ndarray[Any, np.dtype[Any]]) -> bool:
    return dtypes.is_inexact(array.dtype) and bool(np.isnan(array.astype(np.complex128)).any())


def _nested(array: np.ndarray[Any, np.dtype[Any]]) -> str:
    if array.ndim == 0:
        return str(array.item())
    # Indexed, not iterated: the rows of a 1-d array would be NumPy scalars.
    return "[" + ", ".join(_nested(array[i : i + 1].reshape(array.shape[1:])) for i in range(array.shape[0])) + "]"


@final
@dataclass(frozen=True, slots=True)
class HloValue:
    """An SSA value of the function being emitted: its name and type."""

    name: str
    aval: ShapedArray

    @property
    def type(self) -> str:
        """Its MLIR tensor type."""
        return tensor_type(self.aval)


# Lowers a Python function of arrays inline: (fun, operands, result avals).
LowerFun = Callable[
    ["LoweringContext", Callable[..., Sequence[object]], Sequence[HloValue]], tuple[HloValue, ...]
]


class LoweringContext:
    """One function body under construction.

    Attributes:
        lines: the emitted op lines (without the enclosing ``func.func``).
        lower_fun_hook: installed by the lowering pass (layer L2); lets a
            rule lower a Python function built from other primitives.
    """

    def __init__(self, lower_fun_hook: LowerFun | None = None) -> None:
        self.lines: list[str] = []
        self._count = 0
        self._indent = 4
        self.lower_fun_hook = lower_fun_hook
        # The module's private functions (``func.func`` texts), emitted after
        # ``main``, and their symbols by key (see :meth:`function`).
        self.functions: list[str] = []
        self._function_symbols: dict[object, str] = {}

    def fresh(self) -> str:
        """A new SSA name, unique in the module."""
        name = f"%{self._count}"
        self._count += 1
        return name

    def emit(self, line: str) -> None:
        """Append one raw line at the current indentation."""
        self.lines.append(" " * self._indent + line)

    def op(
        self,
        name: str,
        operands: Sequence[HloValue],
        results: Sequence[ShapedArray],
        attrs: Mapping[str, str] | None = None,
        regions: Sequence[str] = (),
    ) -> tuple[HloValue, ...]:
        """Emit op ``name`` (``"stablehlo.add"``) and return its results.

        ``attrs`` maps attribute names to attribute text
        (``{"dimension": "0 : i64"}``); ``regions`` are texts made by
        :meth:`region`.
        """
        outs = tuple(HloValue(self.fresh(), aval) for aval in results)
        lhs = f"{', '.join(o.name for o in outs)} = " if outs else ""
        args = ", ".join(x.name for x in operands)
        region_text = f" ({', '.join(regions)})" if regions else ""
        attr_text = ""
        if attrs:
            attr_text = " {" + ", ".join(f"{k} = {v}" for k, v in attrs.items()) + "}"
        in_types = ", ".join(x.type for x in operands)
        out_types = ", ".join(tensor_type(a) for a in results)
        if len(results) != 1:
            out_types = f"({out_types})"
        self.emit(f'{lhs}"{name}"({args}){region_text}{attr_text} : ({in_types}) -> {out_types}')
        return outs

    def op1(
        self,
        name: str,
        operands: Sequence[HloValue],
        result: ShapedArray,
        attrs: Mapping[str, str] | None = None,
        regions: Sequence[str] = (),
    ) -> HloValue:
        """:meth:`op` for an op with exactly one result."""
        (out,) = self.op(name, operands, (result,), attrs, regions)
        return out

    def ret(self, values: Sequence[HloValue], op_name: str = "stablehlo.return") -> None:
        """Emit a terminator returning ``values``."""
        args = ", ".join(v.name for v in values)
        types = ", ".join(v.type for v in values)
        self.emit(f'"{op_name}"({args}) : ({types}) -> ()')

    @contextmanager
    def region(self, arg_avals: Sequence[ShapedArray]) -> Generator[tuple[list[HloValue], list[str]], None, None]:
        """Build a one-block region: yields its block arguments and a list
        that receives the region's text when the block is done. The body
        must end with :meth:`ret`."""
        args = [HloValue(self.fresh(), aval) for aval in arg_avals]
        saved = self.lines
        self.lines = []
        self._indent += 2
        text: list[str] = []
        try:
            yield args, text
        finally:
            body = self.lines
            self.lines = saved
            self._indent -= 2
        header = ", ".join(f"{a.name}: {a.type}" for a in args)
        pad = " " * (self._indent + 2)
        text.append("{\n" + f"{pad[:-2]}^bb0({header}):\n" + "\n".join(body) + "\n" + " " * self._indent + "}")

    def function(
        self,
        key: object,
        name: str,
        arg_avals: Sequence[ShapedArray],
        body: Callable[[list[HloValue]], Sequence[HloValue]],
    ) -> str:
        """The symbol of a private function of the module, emitted once per
        ``key``: ``body`` emits its ops on the block arguments and returns
        its results. A loop body called ``k`` times per trip is one function
        and ``k`` calls, not ``k`` copies (JAX's ``closed_call``)."""
        # Claimed before the body is emitted: the body may emit functions too.
        symbol, fresh = self.claim_symbol(key, name)
        if not fresh:
            return symbol
        args = [HloValue(self.fresh(), aval) for aval in arg_avals]
        saved, saved_indent = self.lines, self._indent
        self.lines, self._indent = [], 4
        try:
            outs = body(args)
            self.ret(outs, "func.return")
            lines = self.lines
        finally:
            self.lines, self._indent = saved, saved_indent
        header = ", ".join(f"{a.name}: {a.type}" for a in args)
        results = ", ".join(o.type for o in outs)
        self.functions.append("\n".join([f"  func.func private {symbol}({header}) -> ({results}) {{", *lines, "  }"]))
        return symbol

    def claim_symbol(self, key: object, name: str) -> tuple[str, bool]:
        """The symbol of the private function known by ``key`` (``@name``,
        renamed apart from the others), and whether it is new: the caller
        then appends the function's text to :attr:`functions`."""
        symbol = self._function_symbols.get(key)
        if symbol is not None:
            return symbol, False
        taken = set(self._function_symbols.values())
        symbol = f"@{name}" if f"@{name}" not in taken else f"@{name}_{len(taken)}"
        self._function_symbols[key] = symbol
        return symbol, True

    def call(self, symbol: str, args: Sequence[HloValue], results: Sequence[ShapedArray]) -> tuple[HloValue, ...]:
        """A ``func.call`` of the private function ``symbol``."""
        outs = tuple(HloValue(self.fresh(), aval) for aval in results)
        lhs = f"{', '.join(o.name for o in outs)} = " if outs else ""
        in_types = ", ".join(a.type for a in args)
        out_types = ", ".join(tensor_type(a) for a in results)
        self.emit(
            f'{lhs}"func.call"({", ".join(a.name for a in args)}) {{callee = {symbol}}} : ({in_types}) -> ({out_types})'
        )
        return outs

    # --- helpers used by many rules ---

    def constant(self, value: object, aval: ShapedArray) -> HloValue:
        """A constant of type ``aval`` (``value`` broadcast to its shape)."""
        return self.op1(
            "stablehlo.constant", (), aval, {"value": f"{dense_constant(value, aval)} : {tensor_type(aval)}"}
        )

    def scalar(self, value: object, dtype: np.dtype[Any]) -> HloValue:
        """A 0-d constant of ``dtype``."""
        return self.constant(value, ShapedArray((), dtype))

    def full_like(self, value: object, like: HloValue) -> HloValue:
        """A constant with ``like``'s type, every element ``value``."""
        return self.constant(value, like.aval.strip_weak_type())

    def broadcast_in_dim(self, x: HloValue, shape: tuple[int, ...], dims: Sequence[int]) -> HloValue:
        """``stablehlo.broadcast_in_dim`` of ``x`` to ``shape``."""
        out = ShapedArray(shape, x.aval.dtype)
        return self.op1("stablehlo.broadcast_in_dim", (x,), out, {"broadcast_dimensions": i64_array(dims)})

    def broadcast_to(self, x: HloValue, shape: tuple[int, ...]) -> HloValue:
        """``x`` broadcast to ``shape``: a 0-d value is splatted, a value of
        the same shape is returned as is."""
        if x.aval.shape == shape:
            return x
        if x.aval.shape:
            raise AssertionError(f"broadcast_to: cannot broadcast {x.aval.str_short()} to {shape}")
        return self.broadcast_in_dim(x, shape, ())

    def convert(self, x: HloValue, dtype: np.dtype[Any]) -> HloValue:
        """``stablehlo.convert`` of ``x`` to ``dtype`` (no-op if equal)."""
        if x.aval.dtype == dtype:
            return x
        return self.op1("stablehlo.convert", (x,), ShapedArray(x.aval.shape, dtype))

    def compare(self, x: HloValue, y: HloValue, direction: str) -> HloValue:
        """``stablehlo.compare`` with the comparison type of the operands'
        dtype (``EQ``, ``NE``, ``LT``, ``LE``, ``GT``, ``GE``)."""
        dtype = x.aval.dtype
        if dtypes.is_inexact(dtype):
            kind = "FLOAT"
        elif dtypes.is_unsigned_integer(dtype) or dtypes.is_bool(dtype):
            kind = "UNSIGNED"
        else:
            kind = "SIGNED"
        attrs = {
            "comparison_direction": f"#stablehlo<comparison_direction {direction}>",
            "compare_type": f"#stablehlo<comparison_type {kind}>",
        }
        return self.op1("stablehlo.compare", (x, y), ShapedArray(x.aval.shape, np.dtype(np.bool_)), attrs)

    def select(self, pred: HloValue, on_true: HloValue, on_false: HloValue) -> HloValue:
        """Elementwise ``pred ? on_true : on_false``."""
        return self.op1("stablehlo.select", (pred, on_true, on_false), on_true.aval)

    def lower_fun(self, fun: Callable[..., Sequence[object]], args: Sequence[HloValue]) -> tuple[HloValue, ...]:
        """Lower ``fun`` (a function of Arrays returning a sequence of
        Arrays, built from other primitives) inline on ``args``."""
        if self.lower_fun_hook is None:
            raise AssertionError("lower_fun needs the lowering pass's hook")
        return self.lower_fun_hook(self, fun, args)
