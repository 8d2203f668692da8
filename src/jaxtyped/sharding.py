"""Meshes and shardings (JAX's ``jax.sharding``): lay arrays out over
several devices and run ``jit`` over them.

Example::

    import jaxtyped as jt
    from jaxtyped.sharding import NamedSharding, PartitionSpec as P

    mesh = jt.make_mesh((2, 2), ("x", "y"))           # needs 4 devices
    x = jt.device_put(jt.numpy.arange(8.0).reshape(4, 2), NamedSharding(mesh, P("x")))

    with jt.set_mesh(mesh):                            # the context's mesh
        jt.sharding.get_abstract_mesh()                # AbstractMesh('x': 2, 'y': 2, ...)
        y = jt.sharding.reshard(x, P(None, "y"))       # bare specs name its axes
"""

from jaxtyped._src.api_sharding import get_mesh, reshard, set_mesh
from jaxtyped._src.sharding import (
    AbstractDevice,
    AbstractMesh,
    AxisType,
    Device,
    Mesh,
    NamedSharding,
    PartitionSpec,
    Sharding,
    SingleDeviceSharding,
    get_abstract_mesh,
    make_single_device_sharding,
    use_abstract_mesh,
)

P = PartitionSpec
"""Short name of :class:`PartitionSpec` (as ``jax.P``)."""

__all__ = [
    "AbstractDevice",
    "AbstractMesh",
    "AxisType",
    "Device",
    "Mesh",
    "NamedSharding",
    "P",
    "PartitionSpec",
    "Sharding",
    "SingleDeviceSharding",
    "get_abstract_mesh",
    "get_mesh",
    "make_single_device_sharding",
    "reshard",
    "set_mesh",
    "use_abstract_mesh",
]
