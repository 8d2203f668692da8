"""Misuse of ``linear_transpose`` both checkers reject: a pytree primal's
cotangent used as an Array, a bad ``reduce_axes``."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

x = jnp.ones(2)


def first(t: dict[str, Array]) -> Array:
    return t["a"]


def double(y: Array) -> Array:
    return 2.0 * y


cts = jt.linear_transpose(first, {"a": x})(x)
a: Array = cts[0]  # expect: mypy[assignment] pyright[reportAssignmentType]
jt.linear_transpose(double, x, reduce_axes=3)  # expect: mypy[call-overload] pyright[reportCallIssue, reportArgumentType]
