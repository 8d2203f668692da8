"""Primitives and jaxprs for libraries (JEP 15856's ``jax.extend.core``).

Two ways to define a primitive:

- JAX's form, for porting: ``Primitive("mul_add")`` with ``def_impl``,
  ``def_abstract_eval`` and the registries of
  :mod:`jaxtyped.extend.interpreters`;
- the native typed form, recommended: subclass :class:`TypedPrimitive` (a
  frozen dataclass whose fields are the parameters, every rule a typed
  method), as ``docs/extending.rst`` shows.

Both make ordinary primitives that every transformation handles.
"""

from jaxtyped._src.core.array import Array as Array
from jaxtyped._src.core.avals import BatchAxis as BatchAxis
from jaxtyped._src.core.avals import BatchDim as BatchDim
from jaxtyped._src.core.avals import ShapedArray as ShapedArray
from jaxtyped._src.core.avals import UndefinedPrimal as UndefinedPrimal
from jaxtyped._src.core.avals import Zero as Zero
from jaxtyped._src.core.check import check_jaxpr as check_jaxpr
from jaxtyped._src.core.hlo import HloValue as HloValue
from jaxtyped._src.core.hlo import LoweringContext as LoweringContext
from jaxtyped._src.core.interpreter import bind as bind
from jaxtyped._src.core.interpreter import bind1 as bind1
from jaxtyped._src.core.jaxpr import ClosedJaxpr as ClosedJaxpr
from jaxtyped._src.core.jaxpr import Eqn as JaxprEqn
from jaxtyped._src.core.jaxpr import Jaxpr as Jaxpr
from jaxtyped._src.core.jaxpr import Literal as Literal
from jaxtyped._src.core.jaxpr import Var as Var
from jaxtyped._src.core.jaxpr import pp_jaxpr as pp_jaxpr
from jaxtyped._src.core.primitive import HostValue as HostValue
from jaxtyped._src.core.primitive import LinearArg as LinearArg
from jaxtyped._src.core.primitive import NDArray as NDArray
from jaxtyped._src.core.primitive import Primitive as TypedPrimitive
from jaxtyped._src.core.primitive import Tangent as Tangent
from jaxtyped._src.extend.jaxprs import eval_jaxpr as eval_jaxpr
from jaxtyped._src.extend.jaxprs import jaxpr_as_fun as jaxpr_as_fun
from jaxtyped._src.extend.jaxprs import new_jaxpr_eqn as new_jaxpr_eqn
from jaxtyped._src.extend.primitive import JaxPrimitive as Primitive
from jaxtyped.extend.core import primitives as primitives

__all__ = [
    # JAX's form
    "Primitive",
    "primitives",
    # the IR
    "ShapedArray",
    "Jaxpr",
    "ClosedJaxpr",
    "JaxprEqn",
    "Var",
    "Literal",
    "jaxpr_as_fun",
    "eval_jaxpr",
    "check_jaxpr",
    "new_jaxpr_eqn",
    "pp_jaxpr",
    # the native typed form
    "TypedPrimitive",
    "Array",
    "Zero",
    "UndefinedPrimal",
    "BatchAxis",
    "BatchDim",
    "Tangent",
    "LinearArg",
    "NDArray",
    "HostValue",
    "HloValue",
    "LoweringContext",
    "bind",
    "bind1",
]
