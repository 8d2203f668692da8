"""Result types of the sharding family (issue 17)."""

from typing_extensions import assert_type

import jaxtyped as jt
from jaxtyped import lax
from jaxtyped.sharding import Mesh, NamedSharding, P, PartitionSpec, Sharding
from jaxtyped.typing import Array


def block(v: Array, k: int) -> Array:
    return v * k


def normalised(v: Array) -> tuple[Array, Array]:
    total = lax.psum(v, "i")
    return v / total, total


def check(x: Array, mesh: Mesh) -> None:
    assert_type(jt.make_mesh((1,), ("i",)), Mesh)
    # AxisType is JAX's enum (was a Literal of strings: AxisType.Explicit an error).
    assert_type(jt.make_mesh((1,), ("i",), (jt.sharding.AxisType.Auto,)).axis_types, tuple[jt.sharding.AxisType, ...])
    assert_type(mesh.axis_types[0] is jt.sharding.AxisType.Explicit, bool)
    assert_type(P("i"), PartitionSpec)
    assert_type(NamedSharding(mesh, P("i")).spec, PartitionSpec)
    assert_type(jt.device_count(), int)
    assert_type(jt.process_index(), int)
    assert_type(jt.shard_map(block, mesh=mesh, in_specs=(P("i"), P()), out_specs=P("i"))(x, 2), Array)
    assert_type(jt.pmap(block, "i", static_broadcasted_argnums=1)(x, 2), Array)  # pmap keeps the signature
    assert_type(jt.pmap(normalised, axis_name="i")(x), tuple[Array, Array])
    assert_type(jt.device_put(x, NamedSharding(mesh, P("i"))), Array)
    assert_type(x.devices(), set[jt.Device])  # was frozenset[object]: d.platform an error
    assert_type(x.device, jt.Device | Sharding)  # was missing from Array: x.device an error
    assert_type(x.to_device(jt.devices()[0]), Array)
    assert_type(x.copy_to_host_async(), None)
    assert_type(lax.psum(x, "i"), Array)
    assert_type(lax.psum((x, x), "i"), tuple[Array, Array])
    assert_type(lax.all_gather(x, "i"), Array)
    assert_type(lax.axis_index("i"), Array)
    assert_type(lax.axis_size("i"), int)
    assert_type(lax.with_sharding_constraint(x, P("i")), Array)
    assert_type(lax.pcast(x, "i", to="varying"), Array)
    assert_type(lax.pcast((x, x), ("i",), to="varying"), tuple[Array, Array])
    assert_type(lax.pbroadcast(x, "i", 0), Array)  # pbroadcast (issue 17 item 4)
    assert_type(lax.pbroadcast({"a": x}, ("i", "j"), 1), dict[str, Array])
