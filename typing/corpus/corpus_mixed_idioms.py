"""Smaller idioms from library code: NumPy scalars on the left of an
operator, jnp.ndarray and ArrayLike annotations, register_dataclass with a
static field, tree_util.Partial, lax.map with a batch_size, associative_scan,
scan with a length and no xs, clip's min/max keywords, a split key
unpacked."""
import dataclasses
import functools
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import ArrayLike

x = jnp.ones(3)
a = np.float32(2.0) * x
b = np.int32(2) + x
c = x * np.float32(2)
reveal_type(a)
reveal_type(c)
assert a.shape == (3,) and float(a.sum()) == 6.0 and b.dtype == jnp.float32


def energy(v: jnp.ndarray, scale: ArrayLike = 1.0) -> jnp.ndarray:
    return jnp.sum(v**2) * scale


e = energy(x)
g = jt.grad(energy)(x)
reveal_type(g)


@functools.partial(jt.tree_util.register_dataclass, data_fields=["w", "b"], meta_fields=["act"])
@dataclasses.dataclass
class Dense:
    w: jnp.ndarray
    b: jnp.ndarray
    act: str = "relu"


layer = Dense(jnp.ones((3, 2)), jnp.zeros(2))
leaves = jt.tree_util.tree_leaves(layer)
assert len(leaves) == 2
scaled = jt.tree_util.tree_map(lambda p: p * 0.5, layer)
reveal_type(scaled)
out = jnp.maximum(x[:2] @ jnp.ones((2, 2)), 0.0)

add_one = jt.tree_util.Partial(jnp.add, 1.0)
y = add_one(x)
reveal_type(y)

squares = lax.map(lambda v: v**2, jnp.arange(8.0), batch_size=4)
prefix = lax.associative_scan(jnp.add, jnp.arange(5.0))
count, _ = lax.scan(lambda carry, _: (carry + 1, None), 0, length=5)
reveal_type(squares)
reveal_type(prefix)
reveal_type(count)
assert int(count) == 5 and float(prefix[-1]) == 10.0 and float(squares[3]) == 9.0
total = lax.fori_loop(0, 4, lambda i, acc: acc + i, 0.0)
reveal_type(total)
which = lax.cond(x.sum() > 0, lambda v: v * 2, lambda v: v, x)
idx = jnp.argmax(x, axis=-1, keepdims=True)
clipped = jnp.clip(x, min=0.0, max=1.0)
rounded = jnp.round(x, 2)
half = x.astype(jnp.float16)
keyed = jt.random.split(jt.random.key(0))
k1, k2 = keyed
noise = jt.random.normal(k1, (3,), dtype=jnp.float32)
reveal_type(noise)
