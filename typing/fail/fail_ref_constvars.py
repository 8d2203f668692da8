"""Misuses of make_jaxpr's consts both checkers reject (issue 16 item 5):
a const may be a Ref, so it is not an Array until narrowed."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

x_ref = jt.new_ref(jnp.zeros(3))


def write(v: Array) -> None:
    x_ref[0] = v


closed = jt.make_jaxpr(write)(jnp.float32(1.0))
jnp.sin(closed.consts[0])  # expect: mypy[arg-type] pyright[reportArgumentType]
first: Array = closed.consts[0]  # expect: mypy[assignment] pyright[reportAssignmentType]
