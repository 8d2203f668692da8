"""JAX's ``jax.experimental.mesh_utils``: ``create_device_mesh`` lays the
devices out in a mesh's shape, for ``jaxtyped.sharding.Mesh``."""

from jaxtyped._src.api_sharding import create_device_mesh

__all__ = ["create_device_mesh"]
