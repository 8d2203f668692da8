"""Lowering rules for extension primitives, in JAX's form
(``jax.extend.interpreters.mlir``): ``register_lowering``, ``lower_fun``
and the ``hlo`` op builders. See :mod:`jaxtyped._src.extend.mlir` for why
the builders emit StableHLO text through our lowering rather than MLIR's
Python bindings."""

from jaxtyped._src.extend import hlo as hlo
from jaxtyped._src.extend.mlir import LoweringRuleContext as LoweringRuleContext
from jaxtyped._src.extend.mlir import aval_to_ir_type as aval_to_ir_type
from jaxtyped._src.extend.mlir import ir_constant as ir_constant
from jaxtyped._src.extend.mlir import lower_fun as lower_fun
from jaxtyped._src.extend.mlir import register_lowering as register_lowering

__all__ = ["hlo", "LoweringRuleContext", "register_lowering", "lower_fun", "aval_to_ir_type", "ir_constant"]
