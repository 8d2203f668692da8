"""Polynomial regression three ways: polyfit, lstsq on a Vandermonde matrix, gradient descent."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


xs = jnp.linspace(-1.0, 1.0, 20)
ys = 1.0 - 2.0 * xs + 0.5 * xs**2
coef = jnp.polyfit(xs, ys, 2)
assert jnp.allclose(coef, jnp.array([0.5, -2.0, 1.0]), atol=1e-3)
v = jnp.vander(xs, 3)
sol, residuals, rank, sv = jnp.linalg.lstsq(v, ys)
assert jnp.allclose(sol, coef, atol=1e-3)


def mse(c):
    return jnp.mean((jnp.polyval(c, xs) - ys) ** 2)


c = jnp.zeros(3)
step = jt.jit(lambda c: c - 0.5 * jt.grad(mse)(c))
for _ in range(20):
    c = step(c)
assert mse(c) < mse(jnp.zeros(3))
fitted = jnp.polyval(coef, jnp.array([0.0, 2.0]))
reveal_type(coef)
reveal_type(sol)
reveal_type(c)
reveal_type(fitted)
