"""Sharding family (issue 17): meshes, specs, shardings, device_put to a
sharding, jit with shardings, shard_map keeping the function's signature,
collectives under vmap. Runs on one device (a 1-device mesh)."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.sharding import Mesh, NamedSharding, P, PartitionSpec, SingleDeviceSharding
from jaxtyped.typing import Array

mesh = jt.make_mesh((1,), ("i",))
explicit = Mesh(np.array(jt.devices()[:1]), ("i",))
spec: PartitionSpec = P("i", None)
sharding = NamedSharding(mesh, P("i"))
single = SingleDeviceSharding(jt.devices()[0])
n: int = jt.device_count() + jt.local_device_count() + jt.process_index() + jt.process_count()

x = jt.device_put(jnp.arange(4.0), sharding)
y = jt.device_put(jnp.arange(4.0), single)


def block_sum(block: Array, scale: float) -> Array:
    return lax.psum(block, "i") * scale


summed = jt.shard_map(block_sum, mesh=mesh, in_specs=(P("i"), P()), out_specs=P())(x, 2.0)


def scaled(block: Array, scale: Array) -> Array:
    # JEP 17111: the invariant scale marked varying, as the block is.
    return block * lax.pcast(scale, "i", to="varying")


varied = jt.shard_map(scaled, mesh=mesh, in_specs=(P("i"), P()), out_specs=P("i"))(x, jnp.asarray(2.0))
def double(v: Array) -> Array:
    return v * 2


doubled = jt.jit(double, in_shardings=sharding, out_shardings=sharding)(x)
constrained = lax.with_sharding_constraint(x, NamedSharding(explicit, P("i")))  # over an Auto axis, as JAX requires
with explicit:
    bare = lax.with_sharding_constraint(x, P("i"))


def per_member(v: Array) -> Array:
    total = lax.psum(v, "b")
    mean = lax.pmean(v, "b")
    gathered = lax.all_gather(v, "b", axis=0, tiled=False)
    size: int = lax.axis_size("b")
    return total + mean + gathered.sum() + lax.axis_index("b") + size


out = jt.vmap(per_member, axis_name="b")(jnp.arange(3.0))


# pbroadcast (issue 17 item 4): every member gets member 1's value; pytrees too.
def from_member_one(v: Array) -> tuple[Array, Array]:
    same: Array = lax.pbroadcast(v, "b", 1)
    pair: tuple[Array, Array] = lax.pbroadcast((v, v * 2), ("b",), 1)
    return same + pair[0], pair[1]


broadcast = jt.vmap(from_member_one, axis_name="b")(jnp.arange(3.0))
