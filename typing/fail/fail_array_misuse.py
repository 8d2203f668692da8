"""Array and jaxtyped.numpy misuse: non-array inputs where ArrayLike is
expected, methods of concrete arrays only on Array (the abstract type that
tracers share; it declares what jax.Array does: block_until_ready,
devices, device, to_device, copy_to_host_async, sharding), results assigned to Python scalar types, unknown
attributes."""

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike


def double(x: ArrayLike) -> Array:
    return jnp.asarray(x) * 2


x = jnp.ones(3)

jnp.sin("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.add(x, [1.0, 2.0, 3.0])  # expect: mypy[arg-type] pyright[reportArgumentType]
double("abc")  # expect: mypy[arg-type] pyright[reportArgumentType]
double(None)  # expect: mypy[arg-type] pyright[reportArgumentType]
y = x + "a"  # expect: mypy[operator] pyright[reportOperatorIssue,reportUnknownVariableType]
i: int = jnp.sin(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
f: float = x.sum()  # expect: mypy[assignment] pyright[reportAssignmentType]
b: bool = x == x  # expect: mypy[assignment] pyright[reportAssignmentType]
shape: tuple[int, int] = x.shape  # expect: mypy[assignment] pyright[reportAssignmentType]
x.is_deleted(True)  # expect: mypy[call-arg] pyright[reportCallIssue]
x.shape = (3,)  # expect: mypy[misc] pyright[reportAttributeAccessIssue]
x[None, "a"]  # expect: mypy[index] pyright[reportArgumentType]
x.reshape("3")  # expect: mypy[arg-type] pyright[reportCallIssue,reportArgumentType]
jnp.zeros("3")  # expect: mypy[arg-type] pyright[reportArgumentType]
