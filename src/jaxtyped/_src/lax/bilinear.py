"""Rules shared by the bilinear primitives (layer L4): ``dot_general`` and
``conv_general_dilated`` are linear in each operand separately, and lower
their operands and result through a wider compute dtype."""

from typing import Any

import numpy as np

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.avals import ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import LinearArg, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.lax.arithmetic import add_tangents
from jaxtyped._src.lax.elementwise_base import ConvertElementType

__all__ = ["bilinear_jvp", "check_one_linear", "lower_convert"]


def bilinear_jvp(
    prim: Primitive, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
    """The product rule: ``prim(t_lhs, rhs) + prim(lhs, t_rhs)``, leaving
    out the terms of zero tangents."""
    (lhs, rhs), (t_lhs, t_rhs) = primals, tangents
    out = bind1(prim, lhs, rhs)
    total: Tangent = Zero(out.aval.to_tangent_aval())
    if not isinstance(t_lhs, Zero):
        total = add_tangents(total, bind1(prim, t_lhs, rhs))
    if not isinstance(t_rhs, Zero):
        total = add_tangents(total, bind1(prim, lhs, t_rhs))
    return (out,), (total,)


def check_one_linear(name: str, lhs: LinearArg, rhs: LinearArg) -> None:
    """A transpose needs one known operand: both linear is a product of two
    linear values, which is not linear."""
    if isinstance(lhs, UndefinedPrimal) and isinstance(rhs, UndefinedPrimal):
        raise JaxtypedTypeError(f"transpose of {name}: the product of two linear values is not linear")


def lower_convert(ctx: LoweringContext, x: HloValue, dtype: np.dtype[Any]) -> HloValue:
    """``x`` converted to ``dtype`` as ``convert_element_type`` lowers it
    (nothing emitted if it has that dtype already)."""
    if x.aval.dtype == dtype:
        return x
    (converted,) = ConvertElementType(dtype).lower(ctx, (x,), (ShapedArray(x.aval.shape, dtype),))
    return converted
