"""Meshes and shardings (JAX's ``jax.sharding``): lay arrays out over
several devices and run ``jit`` over them.

Example::

    import jaxtyped as jt
    from jaxtyped.sharding import NamedSharding, PartitionSpec as P

    mesh = jt.make_mesh((2, 2), ("x", "y"))           # needs 4 devices
    x = jt.device_put(jt.numpy.arange(8.0).reshape(4, 2), NamedSharding(mesh, P("x")))
"""

from jaxtyped._src.sharding import (
    AxisType,
    Device,
    Mesh,
    NamedSharding,
    PartitionSpec,
    Sharding,
    SingleDeviceSharding,
)

P = PartitionSpec
"""Short name of :class:`PartitionSpec` (as ``jax.P``)."""

__all__ = ["AxisType", "Device", "Mesh", "NamedSharding", "P", "PartitionSpec", "Sharding", "SingleDeviceSharding"]
