"""JAX's ``jax.experimental.ode``: ``odeint`` solves an ordinary
differential equation ``dy/dt = func(y, t, *args)`` by the adaptive
Dormand–Prince 5(4) method, differentiable in reverse mode (the adjoint
method) with respect to the initial state, the times and the arguments."""

from jaxtyped._src.ode import odeint

__all__ = ["odeint"]
