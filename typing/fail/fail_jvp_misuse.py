"""jt.jvp misuse: primals/tangents tuples whose length does not match the
function's arity (mypy blames the function, pyright the tuples), and
has_aux=True on a function that does not return an (output, aux) pair."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


def unary(x: Array) -> Array:
    return jnp.sin(x)


def binary(x: Array, y: Array) -> Array:
    return x * y


def counted(x: Array, n: int) -> Array:
    return x * n


x = jnp.ones(3)
t = jnp.ones(3)

jt.jvp(binary, (x,), (t,))  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.jvp(unary, (x, x), (t, t))  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.jvp(binary, (x, x), (t,))  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.jvp(counted, (x, "2"), (t, "2"))  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.jvp(unary, [x], (t,))  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]  # a list and a tuple
jt.jvp(binary, (x, x), (t, t), has_aux="yes")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
# has_aux=True on a function without aux: (out, tangent), no third value.
out3, tangent3, aux3 = jt.jvp(unary, (x,), (t,), has_aux=True)  # expect: mypy[misc] pyright[reportAssignmentType,reportUnknownVariableType]
out, tangent = jt.jvp(unary, (x,), (t,))
bad: int = out  # expect: mypy[assignment] pyright[reportAssignmentType]
