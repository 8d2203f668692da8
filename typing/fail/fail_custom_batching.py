"""Misuse of jaxtyped.custom_batching that both checkers reject: a
custom_vmap function called with arguments its function does not take,
its result used at the wrong type, and def_vmap given a non-callable."""

import jaxtyped.numpy as jnp
from jaxtyped.custom_batching import custom_vmap, sequential_vmap
from jaxtyped.typing import Array


@custom_vmap
def scaled(x: Array, k: float) -> Array:
    return jnp.sin(x) * k


x = jnp.ones(3)
scaled("a", 2.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
scaled(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
n: float = scaled(x, 2.0)  # expect: mypy[assignment] pyright[reportAssignmentType]
scaled.def_vmap(3)  # expect: mypy[type-var] pyright[reportArgumentType]
sequential_vmap(scaled)(x, "k")  # expect: mypy[arg-type] pyright[reportArgumentType]
