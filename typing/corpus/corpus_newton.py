"""Newton's method for a scalar root and a vector minimum, with grad/hessian."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def f(x):
    return x**3 - 2.0 * x - 5.0


df = jt.grad(f)


def newton(x0, steps=8):
    x = x0
    for _ in range(steps):
        x = x - f(x) / df(x)
    return x


root = newton(2.0)
assert abs(float(f(root))) < 1e-4


def rosen(v):
    return (1.0 - v[0]) ** 2 + 10.0 * (v[1] - v[0] ** 2) ** 2


def newton_step(v):
    g = jt.grad(rosen)(v)
    h = jt.hessian(rosen)(v)
    return v - jnp.linalg.solve(h, g)


v = jnp.array([0.8, 0.6])
for _ in range(6):
    v = newton_step(v)
assert jnp.allclose(v, jnp.ones(2), atol=1e-3)

loop = lax.fori_loop(0, 6, lambda i, v: newton_step(v), jnp.array([0.8, 0.6]))
assert jnp.allclose(loop, v, atol=1e-4)
reveal_type(root)
reveal_type(v)
reveal_type(loop)
