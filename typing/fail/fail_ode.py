"""Misuse of ``jaxtyped.experimental.ode.odeint`` that both checkers reject:
no times, a non-callable derivative, tolerances of the wrong type, and the
result used at the wrong type."""

import jaxtyped.numpy as jnp
from jaxtyped.experimental.ode import odeint
from jaxtyped.typing import Array


def decay(y: Array, t: Array) -> Array:
    return -y


y0 = jnp.ones(3)
t = jnp.linspace(0.0, 1.0, 5)
odeint(decay, y0)  # expect: mypy[call-overload] pyright[reportCallIssue]
odeint(3, y0, t)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
odeint(decay, y0, t, rtol="tight")  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
odeint(decay, y0, t, mxstep=None)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
n: float = odeint(decay, y0, t)  # expect: mypy[assignment] pyright[reportAssignmentType]
state = odeint(lambda y, t: {"x": -y["x"]}, {"x": y0}, t)
bad: list[Array] = state  # expect: mypy[assignment] pyright[reportAssignmentType]
