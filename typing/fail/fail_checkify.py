"""Misuse of jaxtyped.experimental.checkify that both checkers reject:
calling a checkified function with arguments the function does not take,
using its result as the function's own result type, and a wrong error set
or message."""

import jaxtyped.numpy as jnp
from jaxtyped.experimental import checkify
from jaxtyped.typing import Array


def scale(x: Array, k: float) -> Array:
    return x * k


x = jnp.ones(3)
checked = checkify.checkify(scale)
checked(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
checked(x, "2")  # expect: mypy[arg-type] pyright[reportArgumentType]
y: Array = checked(x, 2.0)  # expect: mypy[assignment] pyright[reportAssignmentType]
checkify.checkify(scale, errors={"nan"})  # expect: mypy[arg-type] pyright[reportArgumentType]
checkify.check(x > 0, 3)  # expect: mypy[arg-type] pyright[reportArgumentType]
message: str = checked(x, 2.0)[0].get()  # expect: mypy[assignment] pyright[reportAssignmentType]
