"""An RK4 integrator with lax.scan; the gradient of the final state w.r.t. a parameter."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def rk4_step(f, y, t, dt, theta):
    k1 = f(y, t, theta)
    k2 = f(y + dt / 2 * k1, t + dt / 2, theta)
    k3 = f(y + dt / 2 * k2, t + dt / 2, theta)
    k4 = f(y + dt * k3, t + dt, theta)
    return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def oscillator(y, t, theta):
    pos, vel = y[0], y[1]
    return jnp.array([vel, -theta * pos])


def integrate(theta, y0, dt=0.05, steps=40):
    def body(y, t):
        y = rk4_step(oscillator, y, t, dt, theta)
        return y, y[0]

    ts = jnp.arange(steps) * dt
    final, trajectory = lax.scan(body, y0, ts)
    return final, trajectory


y0 = jnp.array([1.0, 0.0])
final, traj = integrate(1.0, y0)
assert traj.shape == (40,)
assert jnp.allclose(final[0], jnp.cos(2.0), atol=1e-4)
dfinal = jt.grad(lambda th: integrate(th, y0)[0][0])(1.0)
sens = jt.jacfwd(lambda th: integrate(th, y0)[1])(1.0)
assert sens.shape == (40,)
reveal_type(final)
reveal_type(dfinal)
reveal_type(sens)
