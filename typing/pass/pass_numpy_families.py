"""The main jaxtyped.numpy families used as NumPy users write them:
creation, elementwise functions, reductions, shape manipulation, where
and indexing, linear algebra, and dtype objects. Inputs are the loose
ArrayLike kinds (arrays, NumPy arrays, Python scalars and lists where
NumPy takes them); every result is annotated with its strict type and
compared with NumPy."""

import numpy as np

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike, DType, Shape


def same(a: ArrayLike, b: ArrayLike) -> bool:
    return bool(np.allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6))


host = np.arange(6, dtype=np.float32).reshape(2, 3)
m = jnp.asarray(host)
v = jnp.array([1.0, 2.0, 3.0])

# --- creation ---
created: list[Array] = [
    jnp.zeros((2, 3)), jnp.ones(3, dtype=jnp.int32), jnp.full((2,), 7.0), jnp.empty((1, 2)),
    jnp.arange(5), jnp.arange(1.0, 2.0, 0.25), jnp.linspace(0.0, 1.0, 5), jnp.array([[1, 2], [3, 4]]),
    jnp.asarray(host), jnp.asarray(2.5), jnp.eye(3), jnp.eye(2, 3, k=1), jnp.identity(2),
    jnp.zeros_like(m), jnp.ones_like(host), jnp.full_like(v, 2.0),
]  # fmt: skip
assert [a.shape for a in created] == [
    (2, 3), (3,), (2,), (1, 2), (5,), (4,), (5,), (2, 2), (2, 3), (), (3, 3), (2, 3), (2, 2), (2, 3), (2, 3), (3,),
]  # fmt: skip
assert created[1].dtype == np.int32 and same(created[6], np.linspace(0.0, 1.0, 5))

# --- elementwise: unary and binary, Python scalars and NumPy arrays mixed in ---
unary: list[Array] = [
    jnp.sin(m), jnp.cos(m), jnp.tanh(m), jnp.exp(m), jnp.log(m + 1.0), jnp.sqrt(m), jnp.abs(-m),
    jnp.sign(m - 2.0), jnp.floor(m / 2), jnp.round(m / 3, 1), jnp.isnan(m),
]  # fmt: skip
expected_unary = [
    np.sin(host), np.cos(host), np.tanh(host), np.exp(host), np.log(host + 1.0), np.sqrt(host),
    np.abs(-host), np.sign(host - 2.0), np.floor(host / 2), np.round(host / 3, 1), np.isnan(host),
]  # fmt: skip
assert all(same(a, b) for a, b in zip(unary, expected_unary))
binary: list[Array] = [
    jnp.add(m, 1.0), jnp.subtract(host, m), jnp.multiply(m, v), jnp.divide(m, 2), jnp.power(m, 2),
    jnp.maximum(m, 2.5), jnp.minimum(1.0, m), jnp.clip(m, 1.0, 4.0), jnp.equal(m, host),
    jnp.greater(m, 2), jnp.logical_and(m > 1, m < 4),
]  # fmt: skip
expected_binary = [
    host + 1.0, host - host, host * np.array([1.0, 2.0, 3.0]), host / 2, host**2, np.maximum(host, 2.5),
    np.minimum(1.0, host), np.clip(host, 1.0, 4.0), host == host, host > 2, (host > 1) & (host < 4),
]  # fmt: skip
assert all(same(a, b) for a, b in zip(binary, expected_binary))

# --- reductions ---
reduced: list[Array] = [
    jnp.sum(m), jnp.sum(m, axis=0), jnp.prod(m + 1.0, axis=1), jnp.mean(m, axis=(0, 1)), jnp.max(m),
    jnp.min(m, axis=1, keepdims=True), jnp.amax(m, axis=0), jnp.argmax(m), jnp.argmin(m, axis=1),
    jnp.all(m >= 0), jnp.any(m > 4, axis=0),
]  # fmt: skip
expected_reduced = [
    host.sum(), host.sum(axis=0), (host + 1.0).prod(axis=1), host.mean(), host.max(),
    host.min(axis=1, keepdims=True), host.max(axis=0), host.argmax(), host.argmin(axis=1),
    (host >= 0).all(), (host > 4).any(axis=0),
]  # fmt: skip
assert all(same(a, b) for a, b in zip(reduced, expected_reduced))

# --- shape manipulation ---
shaped: list[Array] = [
    jnp.reshape(m, (3, 2)), jnp.reshape(v, -1), jnp.transpose(m), jnp.transpose(m, (1, 0)),
    jnp.concatenate([m, m], axis=0), jnp.stack([v, v], axis=1), jnp.expand_dims(v, 0),
    jnp.squeeze(jnp.expand_dims(v, 1), axis=1), jnp.moveaxis(m, 0, 1), jnp.ravel(m),
    jnp.broadcast_to(v, (2, 3)), jnp.swapaxes(m, 0, 1),
]  # fmt: skip
assert [a.shape for a in shaped] == [(3, 2), (3,), (3, 2), (3, 2), (4, 3), (3, 2), (1, 3), (3,), (3, 2), (6,), (2, 3), (3, 2)]
dims: Shape = jnp.shape(m)
rank: int = jnp.ndim(m)
count: int = jnp.size(m)
assert (dims, rank, count, jnp.size(m, axis=1)) == ((2, 3), 2, 6, 3)

# --- where and indexing ---
picked: Array = jnp.where(m > 2, m, 0.0)
assert same(picked, np.where(host > 2, host, 0.0))
row: Array = m[1]
corner: Array = m[:1, 1:]
column: Array = m[:, None, 2]
assert row.shape == (3,) and corner.shape == (1, 2) and column.shape == (2, 1)
assert float(m[1, 2]) == 5.0

# --- linear algebra ---
products: list[Array] = [
    jnp.dot(m, v), jnp.matmul(m, m.T), jnp.tensordot(m, m, axes=([1], [1])), jnp.inner(v, v),
    jnp.outer(v, v), jnp.vdot(m, m), m @ v,
]  # fmt: skip
expected_products: list[ArrayLike] = [
    host @ [1.0, 2.0, 3.0], host @ host.T, np.tensordot(host, host, axes=([1], [1])), 14.0,
    np.outer([1.0, 2.0, 3.0], [1.0, 2.0, 3.0]), np.vdot(host, host), host @ [1.0, 2.0, 3.0],
]  # fmt: skip
assert all(same(a, b) for a, b in zip(products, expected_products))

# --- dtype objects ---
as_f32: Array = jnp.float32(3)
as_i32: Array = jnp.int32([1, 2])
mask: Array = jnp.bool_(1)
half: Array = jnp.ones(2, dtype=jnp.bfloat16)
assert as_f32.dtype == np.float32 and as_i32.shape == (2,) and mask.dtype == np.bool_
assert half.dtype == jnp.bfloat16.dtype
dt: DType = jnp.dtype(jnp.float32)
promoted: DType = jnp.promote_types(jnp.int8, jnp.float16)
combined: DType = jnp.result_type(m, jnp.int32)
assert dt == np.float32 and promoted == np.float16 and combined == np.float32
assert jnp.issubdtype(as_i32.dtype, jnp.integer) and not jnp.issubdtype(dt, jnp.integer)
assert float(jnp.finfo(jnp.float32).eps) > 0 and int(jnp.iinfo(jnp.int32).max) == 2**31 - 1
