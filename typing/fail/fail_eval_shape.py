"""jt.eval_shape misuse both checkers reject: a non-callable, a missing
function, results used at the wrong type; ensure_compile_time_eval is a
context manager taking no arguments."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

spec = jt.ShapeDtypeStruct((2, 3), "float32")


def one(x: Array) -> Array:
    return jnp.sin(x)


jt.eval_shape(3, spec)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jt.eval_shape()  # expect: mypy[call-overload] pyright[reportCallIssue]
a: Array = jt.eval_shape(one, spec)  # expect: mypy[assignment] pyright[reportAssignmentType]
jt.eval_shape(one, spec).size()  # expect: mypy[operator] pyright[reportCallIssue]
jt.ensure_compile_time_eval(1)  # expect: mypy[call-arg] pyright[reportCallIssue]
