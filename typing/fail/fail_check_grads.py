"""check_grads rejects a missing order and a non-numeric tolerance."""

import jaxtyped.numpy as jnp
from jaxtyped.test_util import check_grads
from jaxtyped.typing import Array


def loss(x: Array) -> Array:
    return jnp.sum(x)


x = jnp.ones(3)
check_grads(loss, (x,))  # expect: mypy[call-arg] pyright[reportCallIssue]
check_grads(loss, (x,), 1, eps="small")  # expect: mypy[arg-type] pyright[reportArgumentType]
