"""The IR and its tools (JAX's ``jax.core`` / ``jax.extend.core`` subset):
jaxprs, abstract values, evaluation and type checking."""

from jaxtyped._src.core.avals import ShapedArray, Zero
from jaxtyped._src.core.check import check_closed_jaxpr, check_jaxpr
from jaxtyped._src.core.effects import (
    ORDERED_IO,
    UNORDERED_IO,
    AccumEffect,
    Effect,
    Effects,
    IOEffect,
    ReadEffect,
    RefEffect,
    WriteEffect,
    no_effects,
)
from jaxtyped._src.core.jaxpr import (
    Atom,
    ClosedJaxpr,
    Eqn,
    Jaxpr,
    JaxprBuilder,
    Literal,
    Var,
    eval_jaxpr,
    jaxpr_as_fun,
    pp_jaxpr,
)
from jaxtyped._src.core.primitive import Primitive

JaxprEqn = Eqn  # JAX's name

__all__ = [
    # effects (issue 16)
    "AccumEffect",
    "Effect",
    "Effects",
    "IOEffect",
    "ORDERED_IO",
    "ReadEffect",
    "RefEffect",
    "UNORDERED_IO",
    "WriteEffect",
    "no_effects",
    "Atom",
    "ClosedJaxpr",
    "Eqn",
    "Jaxpr",
    "JaxprBuilder",
    "JaxprEqn",
    "Literal",
    "Primitive",
    "ShapedArray",
    "Var",
    "Zero",
    "check_closed_jaxpr",
    "check_jaxpr",
    "eval_jaxpr",
    "jaxpr_as_fun",
    "pp_jaxpr",
]
