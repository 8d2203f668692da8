"""Differentiation rules for extension primitives, in JAX's form.

``primitive_jvps[p] = rule`` with ``rule(primals, tangents, **params) ->
(primal_out, tangent_out)`` (tangents may be symbolic :class:`Zero`\\ s);
``primitive_transposes[p] = rule`` with ``rule(cotangent, *args, **params)
-> [cotangent or None per operand]`` (linear operands are
:class:`UndefinedPrimal`\\ s). The registries hold any callable, as JAX's
do; results are checked when the rule runs.
"""

from jaxtyped._src.core.avals import UndefinedPrimal as UndefinedPrimal
from jaxtyped._src.core.avals import Zero as Zero
from jaxtyped._src.extend.primitive import primitive_jvps as primitive_jvps
from jaxtyped._src.extend.primitive import primitive_transposes as primitive_transposes
from jaxtyped._src.extend.rules import defjvp as defjvp
from jaxtyped._src.extend.rules import defjvp2 as defjvp2
from jaxtyped._src.extend.rules import deflinear as deflinear
from jaxtyped._src.extend.rules import instantiate_zeros as instantiate_zeros
from jaxtyped._src.extend.rules import is_undefined_primal as is_undefined_primal

__all__ = [
    "Zero",
    "UndefinedPrimal",
    "primitive_jvps",
    "primitive_transposes",
    "defjvp",
    "defjvp2",
    "deflinear",
    "is_undefined_primal",
    "instantiate_zeros",
]
