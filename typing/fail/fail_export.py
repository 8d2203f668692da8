"""Misuse of jaxtyped.export that both checkers reject: exporting a
function that is not jitted, exporting or calling with arguments the
function does not take, and the result used at the wrong type."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import export
from jaxtyped.typing import Array


def scale(x: Array, k: float) -> Array:
    return x * k


x = jnp.ones(3)
export.export(scale)  # expect: mypy[arg-type] pyright[reportArgumentType]
exp = export.export(jt.jit(scale))(x, 2.0)
export.export(jt.jit(scale))(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
exp.call("x", 2.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
n: float = exp.call(x, 2.0)  # expect: mypy[assignment] pyright[reportAssignmentType]
exp.serialize(vjp_order="1")  # expect: mypy[arg-type] pyright[reportArgumentType]
