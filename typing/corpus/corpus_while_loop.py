"""Fixed-point iteration and bisection with lax.while_loop and lax.cond."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def fixed_point(f, x0, tol=1e-6):
    def cond(state):
        x, prev, i = state
        return (jnp.abs(x - prev) > tol) & (i < 100)

    def body(state):
        x, _, i = state
        return f(x), x, i + 1

    x, _, steps = lax.while_loop(cond, body, (f(x0), x0, 0))
    return x, steps


root, steps = jt.jit(lambda x0: fixed_point(jnp.cos, x0))(1.0)
assert jnp.allclose(root, jnp.cos(root), atol=1e-5)


def bisect(f, lo, hi, iters=30):
    def body(i, bounds):
        lo, hi = bounds
        mid = (lo + hi) / 2
        return lax.cond(f(mid) > 0, lambda: (lo, mid), lambda: (mid, hi))

    lo, hi = lax.fori_loop(0, iters, body, (lo, hi))
    return (lo + hi) / 2


sqrt2 = bisect(lambda x: x**2 - 2.0, jnp.array(0.0), jnp.array(2.0))
assert jnp.allclose(sqrt2, jnp.sqrt(2.0), atol=1e-5)
sign = lax.cond(sqrt2 > 1, lambda x: x, lambda x: -x, sqrt2)
reveal_type(root)
reveal_type(steps)
reveal_type(sqrt2)
reveal_type(sign)
