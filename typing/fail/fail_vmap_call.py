"""A vmapped function keeps its parameters: calling it with the wrong
argument types or count is rejected, as for the original function."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


def scale(x: Array, factor: int) -> Array:
    return x * factor


batched = jt.vmap(scale, in_axes=(0, None))
xs = jnp.ones((4, 3))

batched(xs, "2")  # expect: mypy[arg-type] pyright[reportArgumentType]
batched(xs, 2.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
batched("xs", 2)  # expect: mypy[arg-type] pyright[reportArgumentType]
batched(xs)  # expect: mypy[call-arg] pyright[reportCallIssue]
batched(xs, 2, 3)  # expect: mypy[call-arg] pyright[reportCallIssue]
batched(xs, factr=2)  # expect: mypy[call-arg] pyright[reportCallIssue]
result: str = batched(xs, 2)  # expect: mypy[assignment] pyright[reportAssignmentType]
jt.vmap(scale)(xs, 2).shape()  # expect: mypy[operator] pyright[reportCallIssue]
jt.vmap(scale, in_axes="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
