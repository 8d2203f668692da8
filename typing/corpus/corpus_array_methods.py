"""Array methods as data-processing and checkpointing code calls them:
searchsorted bucketing, argpartition top-k, compress and choose, diagonal
and trace, batched transposes with mT, views and byte sizes, copies, the
placement members (device, addressable_shards, is_fully_addressable)
a checkpointer reads, and a sharded array's global shards."""
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp

edges = jnp.array([0.0, 1.0, 2.5, 4.0])
values = jnp.array([0.5, 3.0, 1.2, 4.5, 2.4])
buckets = edges.searchsorted(values)
reveal_type(buckets)
assert buckets.tolist() == [1, 3, 2, 4, 2]

scores = jnp.array([0.1, 0.9, 0.4, 0.7, 0.3])
part = scores.argpartition(-2)
best_two = jnp.sort(scores[part[-2:]])
assert best_two.tolist() == [scores[3].item(), scores[1].item()]
kept = values.compress(values > 2.0)
picked = jnp.array([0, 1, 0]).choose([jnp.zeros(3), jnp.ones(3)])
assert np.allclose(np.asarray(kept), [3.0, 4.5, 2.4]) and picked.tolist() == [0.0, 1.0, 0.0]
spread = values.ptp()
assert float(spread) == 4.0

batch = jnp.arange(24.0).reshape(2, 3, 4)
gram = batch @ batch.mT
reveal_type(gram)
assert gram.shape == (2, 3, 3) and bool(jnp.allclose(gram, gram.transpose(0, 2, 1)))
diag = gram.diagonal(axis1=1, axis2=2)
traces = gram.trace(axis1=1, axis2=2)
assert diag.shape == (2, 3) and bool(jnp.allclose(traces, diag.sum(axis=-1)))
swapped = batch.transpose((2, 0, 1))
assert swapped.shape == (4, 2, 3)

z = jnp.array([1 + 2j, 3 - 1j], dtype=jnp.complex64)
assert z.conjugate().tolist() == [1 - 2j, 3 + 1j]
bits = jnp.array([1.0, -2.0], dtype=jnp.float32).view(jnp.uint32)
reveal_type(bits)
assert bits.dtype == jnp.uint32 and int(bits[0]) == 0x3F800000
assert batch.nbytes == 24 * 4 and batch.itemsize == 4
flat_values = [float(v) for v in values.flatten()]
assert flat_values[:2] == [0.5, 3.0]

snapshot = values.copy()
assert snapshot is not values and bool(jnp.array_equal(snapshot, values))
values.copy_to_host_async()
host = np.asarray(values)
assert host.dtype == np.float32

# what a checkpointer reads before writing an array
device = values.device
shards = values.addressable_shards
reveal_type(shards)
assert values.is_fully_addressable and len(shards) == 1
assert shards[0].data.shape == values.shape and shards[0].index == (slice(None),)
moved = values.to_device(jt.devices()[0])
assert bool(jnp.array_equal(moved, values))
first = values.addressable_data(0)
assert first.shape == (5,)

n = jt.device_count()
mesh = jt.make_mesh((n,), ("data",))
sharded = jt.device_put(jnp.arange(2.0 * n), jt.sharding.NamedSharding(mesh, jt.sharding.PartitionSpec("data")))
per_device = [s.data.shape for s in sharded.global_shards]
assert per_device == [(2,)] * n and sharded.sharding.is_fully_replicated == (n == 1)
