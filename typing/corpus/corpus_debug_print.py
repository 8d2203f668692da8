"""jt.debug.print inside jit, vmap and a scan body."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


@jt.jit
def noisy_square(x):
    y = x**2
    jt.debug.print("x={x} y={y}", x=x, y=y)
    return y


def body(carry, x):
    jt.debug.print("carry {}", carry)
    return carry + x, carry * x


out = noisy_square(jnp.array(3.0))
assert jnp.allclose(out, 9.0)
batched = jt.vmap(noisy_square)(jnp.arange(2.0))
final, partial = lax.scan(body, 0.0, jnp.arange(3.0))
assert jnp.allclose(final, 3.0)
jt.debug.print("done: {a} {b}", a=final, b=partial)
reveal_type(out)
reveal_type(batched)
reveal_type(final)
