"""Ref misuse both checkers reject (seed 003): a Ref is not an Array, so
math on a ref, passing a ref where an array is expected, storing a ref in a
ref or a string into a ref, and reading a ref as a Python number are
errors."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

x_ref = jt.new_ref(jnp.zeros(3))


def takes_array(x: Array) -> Array:
    return x


jnp.sin(x_ref)  # expect: mypy[arg-type] pyright[reportArgumentType]
takes_array(x_ref)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.add(x_ref, 1.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.new_ref(x_ref)  # expect: mypy[arg-type] pyright[reportArgumentType]
x_ref[0] = "a"  # expect: mypy[assignment] pyright[reportArgumentType]
y: Array = x_ref  # expect: mypy[assignment] pyright[reportAssignmentType]
jt.freeze(jnp.zeros(3))  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.ref.swap(x_ref, 0)  # expect: mypy[call-arg] pyright[reportCallIssue]
n: float = x_ref[0]  # expect: mypy[assignment] pyright[reportAssignmentType]
