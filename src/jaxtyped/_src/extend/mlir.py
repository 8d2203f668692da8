"""Lowering rules in JAX's form: ``register_lowering``, ``lower_fun`` and
the ``hlo`` op builders (``jaxtyped.extend.interpreters.mlir``).

Note [text, not MLIR bindings]: the op builders emit StableHLO *text*
through our :class:`LoweringContext` (the generic syntax of
:mod:`jaxtyped._src.core.hlo`), the same path every built-in rule takes,
rather than building ops with jaxlib's MLIR Python bindings. Measured with
``benchmarks/extend.py`` (a loaded 2-core machine): emitting 1000
``hlo.AddOp``\\ s costs about what building them with the bindings and
printing the module costs (25 ms against 23 ms), but a bindings-built op
would then have to be printed and spliced into our text module, or the
whole pipeline moved to the bindings; lowering the seed's ``mul_add``
under ``jit`` (trace and StableHLO) takes 1.4 ms here against JAX's 21 ms.
Text also needs no MLIR context alive while rules run, and keeps one
lowering path for built-in and extension primitives.

So the builders mirror the names and argument order of JAX's
``mlir.hlo`` (``hlo.AddOp(x, y).results``, ``hlo.ReshapeOp(type, x)``),
but the values are our :class:`HloValue`\\ s and a result *type* is a
:class:`ShapedArray` (``mlir.aval_to_ir_type`` gives one). Builders append
to the function being lowered, which a rule finds implicitly, as with
MLIR's insertion point.
"""

from collections.abc import Callable, Generator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, Final, cast, final

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.extend.primitive import JaxPrimitive, LoweringRule, flat_values, lowering_rules, sequence_of

__all__ = [
    "LoweringRuleContext",
    "register_lowering",
    "lower_fun",
    "run_lowering_rule",
    "aval_to_ir_type",
    "ir_constant",
    "current_lowering",
    "Operand",
    "HloOp",
]

_current: Final[ContextVar[LoweringContext | None]] = ContextVar("jaxtyped_extend_lowering", default=None)


def current_lowering() -> LoweringContext:
    """The function body being lowered (builders append to it)."""
    ctx = _current.get()
    if ctx is None:
        raise JaxtypedValueError("hlo op builders can only be used inside a lowering rule")
    return ctx


@contextmanager
def _lowering(ctx: LoweringContext) -> Generator[None, None, None]:
    token = _current.set(ctx)
    try:
        yield
    finally:
        _current.reset(token)


@final
@dataclass(frozen=True, slots=True)
class LoweringRuleContext:
    """What a lowering rule knows besides its operands (JAX's
    ``LoweringRuleContext``).

    Attributes:
        avals_in: the operands' types.
        avals_out: the results' types.
        lowering: the function body being emitted (for rules that use our
            ``LoweringContext`` directly).
        platform: the platform lowered for (``"cpu"``).
    """

    avals_in: tuple[ShapedArray, ...]
    avals_out: tuple[ShapedArray, ...]
    lowering: LoweringContext
    platform: str = "cpu"


class HloOp:
    """An emitted op: its results (JAX's ``OpView``: ``.results``, and
    ``.result`` for an op with one result)."""

    __slots__ = ("results",)

    results: list[HloValue]

    def __init__(self, results: Sequence[HloValue]) -> None:
        self.results = list(results)

    @property
    def result(self) -> HloValue:
        """The only result."""
        if len(self.results) != 1:
            raise JaxtypedValueError(f"{type(self).__name__} has {len(self.results)} results, not one")
        return self.results[0]


# An operand of a builder: a value, or an op with one result (as MLIR's
# Python builders accept).
Operand = HloValue | HloOp


def value_of(x: Operand) -> HloValue:
    """The value an operand stands for."""
    return x.result if isinstance(x, HloOp) else x


def aval_to_ir_type(aval: ShapedArray) -> ShapedArray:
    """The result type for ``aval`` (weak typing dropped: XLA has none)."""
    return aval.strip_weak_type()


def ir_constant(value: object, dtype: object = None) -> HloValue:
    """A constant holding ``value`` (a NumPy array or scalar; ``dtype``
    defaults to NumPy's, with Python ints as int32 and floats as float32)."""
    array: np.ndarray[Any, np.dtype[Any]] = np.asarray(value)
    if dtype is not None:
        array = array.astype(dtypes.dtype(cast("dtypes.DTypeLike", dtype)))
    elif array.dtype in (np.dtype(np.int64), np.dtype(np.float64)) and not isinstance(value, np.ndarray | np.generic):
        array = array.astype(dtypes.canonicalize_dtype(array.dtype))
    return current_lowering().constant(array, ShapedArray(array.shape, array.dtype))


def run_lowering_rule(
    name: str,
    rule: LoweringRule,
    ctx: LoweringContext,
    args: tuple[HloValue, ...],
    out_avals: tuple[ShapedArray, ...],
    params: dict[str, object],
) -> tuple[HloValue, ...]:
    """Call a JAX-form lowering rule and check what it returns."""
    rule_ctx = LoweringRuleContext(tuple(a.aval for a in args), out_avals, ctx)
    with _lowering(ctx):
        result = rule(rule_ctx, *args, **params)
    if isinstance(result, HloOp):
        result = result.results
    elif isinstance(result, HloValue):
        result = [result]
    values = sequence_of(result)
    if values is None:
        raise JaxtypedTypeError(f"the lowering rule of primitive '{name}' returned {type(result).__name__}, not a sequence of values")
    outs: list[HloValue] = []
    for value in flat_values(values):
        if isinstance(value, HloOp):
            value = value.result
        if not isinstance(value, HloValue):
            raise JaxtypedTypeError(f"the lowering rule of primitive '{name}' returned {type(value).__name__}, not a value")
        outs.append(value)
    if len(outs) != len(out_avals):
        raise JaxtypedTypeError(f"the lowering rule of primitive '{name}' returned {len(outs)} values for {len(out_avals)} results")
    return tuple(outs)


def register_lowering(prim: JaxPrimitive, rule: LoweringRule, platform: str | None = None) -> LoweringRule:
    """Register ``rule(ctx, *operands, **params)`` as ``prim``'s lowering,
    for every platform or only ``platform`` (``"cpu"``). The rule returns a
    sequence of values (``op.results``). Returns ``rule``."""
    if not isinstance(prim, JaxPrimitive):  # pyright: ignore[reportUnnecessaryIsInstance]  # JAX-form callers are untyped
        raise JaxtypedTypeError(
            f"register_lowering expects a jaxtyped.extend.core.Primitive, got {type(prim).__name__}; "
            "native primitives define a lower method instead"
        )
    lowering_rules[(prim, platform)] = rule
    return rule


def lower_fun(fun: Callable[..., object], multiple_results: bool = True) -> LoweringRule:
    """A lowering rule that lowers ``fun(*operands, **params)``, a function
    of arrays written with other primitives (``jaxtyped.lax``,
    ``jaxtyped.numpy``). ``multiple_results=False``: ``fun`` returns one
    array rather than a sequence."""

    def rule(ctx: LoweringRuleContext, *args: HloValue, **params: object) -> list[HloValue]:
        def traced(*xs: Array) -> Sequence[object]:
            out = fun(*xs, **params)
            if not multiple_results:
                return [out]
            outs = sequence_of(out)
            if outs is None:
                raise JaxtypedTypeError(
                    f"lower_fun({getattr(fun, '__name__', 'fun')}, multiple_results=True): the function returned "
                    f"{type(out).__name__}, not a sequence"
                )
            return outs

        return list(ctx.lowering.lower_fun(traced, args))

    return rule


# Used by hlo.py's builders.
def emit(name: str, operands: Sequence[Operand], results: Sequence[ShapedArray], attrs: dict[str, str] | None = None, regions: Sequence[str] = ()) -> list[HloValue]:
    """Emit one op into the function being lowered."""
    return list(current_lowering().op(name, [value_of(x) for x in operands], [r.strip_weak_type() for r in results], attrs, regions))


def dims_attr(values: Sequence[int]) -> str:
    """A dense i64 array attribute."""
    return i64_array([int(v) for v in values])

