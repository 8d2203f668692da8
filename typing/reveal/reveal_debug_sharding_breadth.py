"""Result types of this stop's breadth names: debug.breakpoint (None, or
the token's type), the visualize/inspect functions (None), the mesh context
(set_mesh, get_abstract_mesh), reshard (an Array for an
array-like, the same pytree type otherwise), pjit (a jitted function with
the signature kept), create_device_mesh and conv_general_dilated_local."""

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.experimental.mesh_utils import create_device_mesh
from jaxtyped.experimental.pjit import pjit
from jaxtyped.sharding import AbstractMesh, Mesh, NamedSharding, P, SingleDeviceSharding
from jaxtyped.typing import Array


def scale(x: Array, k: float) -> Array:
    return x * k


def check(x: Array, mesh: Mesh) -> None:
    assert_type(jt.debug.breakpoint(), None)
    assert_type(jt.debug.breakpoint(token=x), Array)
    assert_type(jt.debug.visualize_array_sharding(x), None)
    assert_type(jt.debug.visualize_sharding((4, 4), NamedSharding(mesh, P("x"))), None)
    assert_type(jt.debug.inspect_array_sharding(x, callback=lambda s: print(s)), None)
    assert_type(jt.sharding.get_abstract_mesh(), AbstractMesh)
    with jt.set_mesh(mesh):
        assert_type(jt.sharding.reshard(np.ones((4, 4)), P("x")), Array)
        assert_type(jt.sharding.reshard({"w": x}, P()), dict[str, Array])
    assert_type(jt.sharding.make_single_device_sharding(jt.devices()[0]), SingleDeviceSharding)
    assert_type(create_device_mesh((2, 2)).shape, tuple[int, ...])
    assert_type(pjit(scale)(x, 2.0), Array)
    lhs, rhs = jnp.ones((1, 2, 5, 5)), jnp.ones((3, 8, 4, 4))
    assert_type(lax.conv_general_dilated_local(lhs, rhs, (1, 1), "VALID", (2, 2)), Array)
