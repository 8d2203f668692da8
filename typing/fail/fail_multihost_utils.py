"""Misuse of jaxtyped.experimental.multihost_utils that both checkers
reject: wrong argument types, results used at the wrong type, missing
arguments."""

from typing import Any

import numpy as np

from jaxtyped.experimental import multihost_utils as mhu
from jaxtyped.sharding import Mesh, PartitionSpec as P
from jaxtyped.typing import Array


def misuse(x: Array, mesh: Mesh) -> None:
    mhu.sync_global_devices(3)  # expect: mypy[arg-type] pyright[reportArgumentType]
    mhu.reached_preemption_sync_point("step")  # expect: mypy[arg-type] pyright[reportArgumentType]
    mhu.assert_equal(x, fail_message=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
    mhu.process_allgather(x, tiled="yes")  # expect: mypy[call-overload] pyright[reportCallIssue, reportArgumentType]
    mhu.broadcast_one_to_all(x, is_source=1.0)  # expect: mypy[call-overload] pyright[reportCallIssue, reportArgumentType]
    mhu.host_local_array_to_global_array(x, "mesh", P("x"))  # expect: mypy[call-overload] pyright[reportCallIssue, reportArgumentType]
    mhu.global_array_to_host_local_array(x, mesh)  # expect: mypy[call-overload] pyright[reportCallIssue]
    y: Array = mhu.process_allgather(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
    z: np.ndarray[Any, np.dtype[np.float32]] = mhu.host_local_array_to_global_array(x, mesh, P())  # expect: mypy[assignment] pyright[reportAssignmentType]
    ok: bool = mhu.sync_global_devices("a")  # expect: mypy[assignment, func-returns-value] pyright[reportAssignmentType]
    del y, z, ok
