"""Dtype objects: jnp.float32 and friends are dtype= arguments and
constructors of 0-d arrays; NumPy scalar types, np.dtype objects and names
are DTypeLike too."""

import numpy as np

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, DType, DTypeLike


def zeros_of(n: int, dtype: DTypeLike) -> Array:
    return jnp.zeros(n, dtype=dtype)


a: Array = jnp.zeros(3, dtype=jnp.float32)
b: Array = jnp.ones((2, 2), dtype=jnp.int32)
c: Array = jnp.asarray([1, 2, 3], dtype=jnp.float16)
d: Array = jnp.arange(4, dtype=jnp.uint8)
assert (a.dtype, b.dtype, c.dtype, d.dtype) == (
    np.dtype(np.float32), np.dtype(np.int32), np.dtype(np.float16), np.dtype(np.uint8)
)

# As constructors: a 0-d (or n-d) Array of that dtype.
s: Array = jnp.float32(3)
v: Array = jnp.int32([1, 2])
assert s.shape == () and s.dtype == jnp.float32.dtype and float(s) == 3.0
assert v.shape == (2,) and v.dtype == np.int32

# Every DTypeLike spelling.
for spelling in (jnp.bfloat16, np.float32, np.dtype("float32"), "float32", float, a):
    assert zeros_of(2, spelling).shape == (2,)
dt: DType = jnp.dtype(jnp.float32)
assert dt == np.dtype(np.float32)
assert a.astype(jnp.int8).dtype == jnp.int8.dtype
assert jnp.issubdtype(b.dtype, jnp.integer)
assert jnp.promote_types(jnp.int8, jnp.float16) == np.dtype(np.float16)
assert jnp.finfo(jnp.float32).eps > 0
