"""Result types of jaxtyped.experimental.multihost_utils: the host-value
functions give NumPy arrays (a list, tuple or dict of arrays keeps its
container), the conversions give Arrays (a sequence or dict of Arrays keeps
its type); other pytrees give ``object``."""

from typing import Any

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.experimental import multihost_utils as mhu
from jaxtyped.sharding import Mesh, PartitionSpec as P
from jaxtyped.typing import Array

HostArray = np.ndarray[Any, np.dtype[Any]]


def host_values(x: Array, xs: list[Array], pair: tuple[Array, float], named: dict[str, Array]) -> None:
    assert_type(mhu.broadcast_one_to_all(x), HostArray)
    assert_type(mhu.broadcast_one_to_all(np.ones(3), is_source=True), HostArray)
    assert_type(mhu.broadcast_one_to_all(xs), list[HostArray])
    assert_type(mhu.broadcast_one_to_all(pair), tuple[HostArray, ...])
    assert_type(mhu.broadcast_one_to_all(named), dict[str, HostArray])
    assert_type(mhu.process_allgather(1.5), HostArray)
    assert_type(mhu.process_allgather(x, tiled=True), HostArray)
    assert_type(mhu.process_allgather(named), dict[str, HostArray])
    assert_type(mhu.process_allgather({"a": [x]}), object)
    assert_type(mhu.assert_equal(named, "differs"), None)
    assert_type(mhu.sync_global_devices("step"), None)
    assert_type(mhu.reached_preemption_sync_point(3), bool)


def conversions(mesh: Mesh, x: Array, xs: list[Array], named: dict[str, Array]) -> None:
    assert_type(mhu.host_local_array_to_global_array(np.ones(4), mesh, P("x")), Array)
    assert_type(mhu.host_local_array_to_global_array(x, mesh, P()), Array)
    assert_type(mhu.host_local_array_to_global_array(xs, mesh, P("x")), list[Array])
    assert_type(mhu.host_local_array_to_global_array((x, x), mesh, (P("x"), P())), tuple[Array, Array])
    assert_type(mhu.host_local_array_to_global_array(named, mesh, P()), dict[str, Array])
    assert_type(mhu.global_array_to_host_local_array(jnp.ones(4), mesh, P("x")), Array)
    assert_type(mhu.global_array_to_host_local_array(named, mesh, {"w": P("x")}), dict[str, Array])
    assert_type(mhu.global_array_to_host_local_array({"a": (1.0, x)}, mesh, P()), object)


def failure(e: mhu.ProcessFailureError) -> None:
    assert_type(e.failed_devices, set[jt.Device])
