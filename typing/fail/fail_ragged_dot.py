"""Misuses of the grouped matmul both checkers reject: dimension numbers
that are not ``RaggedDotDimensionNumbers``, strings for axes and arrays,
missing arguments, and results used at the wrong type."""

import jaxtyped.numpy as jnp
from jaxtyped import lax

x = jnp.ones((4, 3))
w = jnp.ones((2, 3, 5))
sizes = jnp.array([2, 2])
numbers = lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0])

lax.ragged_dot(x, w)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.ragged_dot(x, w, "2,2")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.ragged_dot_general(x, w, sizes, (([1], [1]), ([], [])))  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), 0, [0])  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0])  # expect: mypy[call-arg] pyright[reportCallIssue]
n: int = lax.ragged_dot(x, w, sizes)  # expect: mypy[assignment] pyright[reportAssignmentType]
numbers.lhs_ragged_dimensions = (1,)  # expect: mypy[misc] pyright[reportAttributeAccessIssue]
