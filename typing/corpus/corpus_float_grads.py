"""Derivatives of functions of Python floats: the results are arrays, used as arrays."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def f(x):
    return jnp.sin(x) * x**2


def g(x: float) -> float:
    return x * x + 1.0


df = jt.grad(f)
d2f = jt.grad(jt.grad(f))
slope = df(1.0)
curvature = d2f(1.0)
assert slope.shape == () and curvature.dtype == jnp.float32
dg = jt.grad(lambda x: jnp.asarray(g(x)))(3.0)
assert jnp.allclose(dg, 6.0)
taylor = [jt.grad(f)(0.5), jt.grad(jt.grad(f))(0.5), jt.grad(jt.grad(jt.grad(f)))(0.5)]
assert all(t.shape == () for t in taylor)
on_grid = jt.vmap(df)(jnp.linspace(0.0, 1.0, 5))
assert on_grid.shape == (5,)
v, d = jt.value_and_grad(lambda a, b: a * b + b, argnums=1)(2.0, 3.0)
assert jnp.allclose(d, 3.0)
both = jt.grad(lambda a, b: a * b, argnums=(0, 1))(2.0, 5.0)
assert jnp.allclose(both[0], 5.0) and jnp.allclose(both[1], 2.0)
reveal_type(slope)
reveal_type(dg)
reveal_type(on_grid)
reveal_type(d)
reveal_type(both)
