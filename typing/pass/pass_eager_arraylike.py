"""Eager jaxtyped.numpy code annotated with jaxtyped.typing types.

Inputs are ArrayLike (arrays, NumPy arrays and scalars, Python scalars);
results are Array. Operators mix Arrays with Python scalars on either side
and with NumPy arrays on the right, and every result stays an Array; NumPy
functions take Arrays.
"""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike, DType, Shape


def scale(x: ArrayLike, factor: float = 2.0) -> Array:
    return jnp.asarray(x) * factor


def softplus(x: ArrayLike) -> Array:
    return jnp.log1p(jnp.exp(x))


def normalize(x: Array) -> Array:
    centered = x - x.mean()
    return centered / jnp.sqrt((centered**2).sum() + 1e-6)


def describe(x: Array) -> tuple[Shape, DType, int]:
    return x.shape, x.dtype, x.ndim


x = jnp.arange(4.0)
n = np.arange(4, dtype=np.float32)

# ArrayLike accepts all of these.
for value in (x, n, np.float32(1.5), 3, 2.5, True):
    assert isinstance(scale(value), jnp.Array)
assert isinstance(softplus(1.0), jnp.Array)

# Operators between Arrays, Python scalars and NumPy arrays, both sides.
results: list[Array] = [
    x + x, x + 1, 1 + x, x * 2.5, 2.5 * x, x - n, x / n[1:].sum(), 1.0 / (x + 1),
    x**2, 2**x, -x, abs(x), x @ x, x // 2, x % 3, np.float32(2.0) * x,
    x == n, x != 1, x < 2, x >= n, (x > 1) & (x < 3), ~(x > 1),
]  # fmt: skip
assert all(isinstance(r, jnp.Array) for r in results)
assert (x + n).shape == (4,)

# With a NumPy array on the left, NumPy's operator types answer (an ndarray,
# as for JAX: an Array has __array__, NumPy's conversion protocol, so NumPy's
# operators accept it); at run time NumPy defers to the Array
# (__array_priority__) and the result is an Array.
left = [n - x, n @ x]
assert all(isinstance(r, jnp.Array) for r in left)
assert float((n - x).sum()) == 0.0

# NumPy functions take Arrays, through the same protocol.
np.testing.assert_allclose(x, n)
np.testing.assert_array_equal(jnp.sort(x), n)
assert np.allclose(x, n) and float(np.mean(x)) == 1.5
assert np.stack([x, x]).shape == (2, 4) and np.asarray(x).dtype == np.float32

# Indexing, methods and reductions.
m = jnp.reshape(jnp.arange(6.0), (2, 3))
row: Array = m[0]
col: Array = m[:, 1]
assert row.shape == (3,) and col.shape == (2,)
assert m.T.shape == (3, 2) and m.reshape(3, 2).shape == (3, 2) and m.reshape((6,)).shape == (6,)
assert m.sum(axis=0).shape == (3,) and m.max().shape == ()
assert int(m.argmax()) == 5
assert describe(m) == ((2, 3), np.dtype(np.float32), 2)
assert float(normalize(x).sum()) < 1e-5
assert len(m) == 2 and [r.shape for r in m] == [(3,), (3,)]

# Conversions to Python values.
total: float = float(x.sum())
count: int = int(jnp.sum(x > 0))
flag: bool = bool((x >= 0).all())
assert (total, count, flag) == (6.0, 3, True)
assert x[1].item() == 1.0
assert x.tolist() == [0.0, 1.0, 2.0, 3.0]
assert x.item(1) == 1.0 and m.item(1, 2) == 5.0 and m.item((1, 2)) == 5.0

# JAX's placement and accumulation keywords.
device = jt.devices()[0]
placed: list[Array] = [
    jnp.zeros(3, device=device), jnp.asarray(n, device=device), jnp.full_like(x, 2.0, device=device),
    jnp.arange(3, device=device), x.astype(jnp.float16, device=device), jnp.astype(x, jnp.int32, copy=False),
]  # fmt: skip
assert [r.shape for r in placed][:2] == [(3,), (4,)]  # placement: tests/sharding/test_devices_and_shardings.py
wide = jnp.dot(jnp.full(3, 100, jnp.int8), jnp.full(3, 100, jnp.int8), preferred_element_type=jnp.int32)
assert int(wide) == 30000 and m.dot(jnp.ones(3), precision="highest").shape == (2,)
