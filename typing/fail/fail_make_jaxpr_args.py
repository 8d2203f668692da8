"""jt.make_jaxpr(f) takes f's parameters: too many or too few arguments,
or arguments of the wrong type, are rejected; the result is a
ClosedJaxpr, not an Array."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


def f(x: Array) -> Array:
    return jnp.sin(x)


def g(x: Array, n: int) -> Array:
    return x**n


x = jnp.ones(3)

jt.make_jaxpr(f)(x, x)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.make_jaxpr(f)()  # expect: mypy[call-overload] pyright[reportCallIssue]
jt.make_jaxpr(g, static_argnums=1)(x, "3")  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jt.make_jaxpr(f)(x).shape  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
y: Array = jt.make_jaxpr(f)(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
