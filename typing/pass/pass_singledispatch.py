"""functools.singledispatch registered on jt.Array: Array is a real base
class, so concrete arrays and the tracers seen inside transformations both
dispatch to the Array implementation, in agreement with the static types."""

import functools

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


@functools.singledispatch
def describe(value: object) -> str:
    return f"other:{type(value).__name__}"


@describe.register
def _(value: jt.Array) -> str:
    return f"array{value.shape}"


@describe.register(np.ndarray)
def _describe_numpy(value: "np.ndarray[tuple[int, ...], np.dtype[np.float64]]") -> str:
    return f"numpy{value.shape}"


seen: list[str] = []


def record(x: Array) -> Array:
    seen.append(describe(x))  # x is a tracer here; still an Array
    return x * 2


assert describe(jnp.ones(3)) == "array(3,)"
assert describe(np.ones(2)) == "numpy(2,)"
assert describe(1.5) == "other:float"

jt.vmap(record)(jnp.ones((4, 3)))
jt.jvp(record, (jnp.ones(2),), (jnp.ones(2),))
jt.make_jaxpr(record)(jnp.ones(5))
assert seen == ["array(3,)", "array(2,)", "array(5,)"]

assert isinstance(jnp.ones(1), jt.Array) and issubclass(type(jnp.ones(1)), jt.Array)
