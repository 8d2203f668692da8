"""jt.eval_shape takes arrays, Python scalars or ShapeDtypeStructs;
jt.ensure_compile_time_eval is a context manager usable inside jitted
functions."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


def column_sums(x: Array) -> Array:
    return jnp.sum(x, axis=0)


def product_and_right(x: Array, y: Array) -> tuple[Array, Array]:
    return x @ y, y


def scaled(x: Array, *, scale: float) -> Array:
    return x * scale


spec = jt.ShapeDtypeStruct((1000, 3), "float32")
assert jt.eval_shape(column_sums, spec).shape == (3,)
assert jt.eval_shape(product_and_right, jnp.ones((2, 3)), jnp.ones((3, 4)))[0].shape == (2, 4)
assert jt.eval_shape(scaled, 1.0, scale=2.0).dtype == jnp.float32


@jt.jit
def f(x: Array) -> Array:
    with jt.ensure_compile_time_eval():
        n = int(jnp.sum(jnp.arange(4)))
    return x * n


assert float(f(jnp.float32(2.0))) == 12.0
