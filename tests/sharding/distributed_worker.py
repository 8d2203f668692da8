"""One process of the 2-process tests (``test_distributed.py`` and
``test_multihost_utils_processes.py`` run it):
``python distributed_worker.py PORT PROCESS_ID MODE``; prints one JSON line.
MODE ``ok``: one program over both processes; ``die``: process 1 dies;
``multihost``: ``jaxtyped.experimental.multihost_utils``."""

import json
import os
import sys
import time
from typing import Any, cast

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import distributed
from jaxtyped.experimental import multihost_utils
from jaxtyped.sharding import Mesh, NamedSharding, PartitionSpec as P


def multihost(process_id: int) -> dict[str, object]:
    """``multihost_utils`` across the two processes: what each one got."""
    result: dict[str, object] = {}
    mine = {"a": np.array([process_id * 10.0 + 1.0]), "b": np.int32(process_id + 5)}
    # Dicts of mixed leaves: typed object, read as the dicts they are.
    from_0 = cast("dict[str, np.ndarray[Any, Any]]", multihost_utils.broadcast_one_to_all(mine))
    from_1 = cast("dict[str, np.ndarray[Any, Any]]", multihost_utils.broadcast_one_to_all(mine, is_source=process_id == 1))
    result["broadcast"] = {k: [v.tolist(), str(v.dtype)] for k, v in from_0.items()}
    result["broadcast_from_1"] = {k: v.tolist() for k, v in from_1.items()}
    gathered = cast(
        "dict[str, np.ndarray[Any, Any]]",
        multihost_utils.process_allgather({"v": np.array([process_id, 7]), "s": float(process_id)}),
    )
    tiled = cast(
        "dict[str, np.ndarray[Any, Any]]",
        multihost_utils.process_allgather({"v": np.array([process_id, 7]), "s": float(process_id)}, tiled=True),
    )
    result["allgather"] = {k: v.tolist() for k, v in gathered.items()}
    result["allgather_tiled"] = {k: v.tolist() for k, v in tiled.items()}
    multihost_utils.assert_equal({"same": np.arange(3), "scalar": 2.0}, "never")
    try:
        multihost_utils.assert_equal(np.array([process_id]), "values differ")
        result["assert_equal_differs"] = None
    except AssertionError as e:
        result["assert_equal_differs"] = str(e)
    multihost_utils.sync_global_devices("multihost")
    try:
        multihost_utils.sync_global_devices(f"process {process_id}")
        result["sync_names_differ"] = None
    except AssertionError as e:
        result["sync_names_differ"] = str(e)
    try:
        multihost_utils.reached_preemption_sync_point(0)
        result["preemption"] = None
    except RuntimeError as e:
        result["preemption"] = str(e)
    # Host-local <-> global over a 2x2 mesh: axis "h" spans the processes.
    mesh = Mesh(np.array(jt.devices()).reshape(2, 2), ("h", "d"))
    local = np.arange(4.0).reshape(2, 2) + 100 * process_id
    converted = cast(
        "tuple[jt.Array, jt.Array]",
        multihost_utils.host_local_array_to_global_array((local, np.arange(3.0)), mesh, (P("h"), P())),
    )
    glob, rep = converted
    result["global_shape"] = [list(glob.shape), list(rep.shape)]
    result["global_value"] = multihost_utils.process_allgather(glob, tiled=True).tolist()
    result["replicated_value"] = np.asarray(rep).tolist()

    def double(x: jt.Array) -> jt.Array:
        return 2 * x

    doubled = jt.jit(double)(glob)
    back, doubled_back = multihost_utils.global_array_to_host_local_array((glob, doubled), mesh, P("h"))
    result["local_back"] = [list(back.shape), np.asarray(back).tolist(), np.asarray(doubled_back).tolist()]
    result["local_back_devices"] = sorted(d.id for d in back.sharding.device_list)
    try:
        multihost_utils.process_allgather(glob)
        result["untiled_global"] = None
    except ValueError as e:
        result["untiled_global"] = str(e)
    multihost_utils.sync_global_devices("multihost done")
    return result


def main() -> None:
    port, process_id, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    jt.config.update("jax_num_cpu_devices", 2)
    distributed.initialize(f"127.0.0.1:{port}", 2, process_id, initialization_timeout=30, heartbeat_timeout=5)
    if mode == "die" and process_id == 1:
        os._exit(3)  # dies without shutting down: the other process must not hang
    if mode == "multihost":
        outcome = multihost(process_id)
        distributed.shutdown()
        print(json.dumps(outcome), flush=True)
        return
    result: dict[str, object] = {
        "process_index": jt.process_index(),
        "process_count": jt.process_count(),
        "device_ids": [d.id for d in jt.devices()],
        "local_device_ids": [d.id for d in jt.local_devices()],
    }
    mesh = jt.make_mesh((4,), ("i",))
    x = np.arange(8.0, dtype=np.float32)

    # all_gather leaves its result varying (JEP 17111), as in JAX: P() for it needs check_vma=False.
    def body(block: jt.Array) -> tuple[jt.Array, jt.Array]:
        return jt.lax.psum(block, "i"), jt.lax.all_gather(block, "i", tiled=True)

    summed, gathered = jt.jit(jt.shard_map(body, mesh=mesh, in_specs=P("i"), out_specs=(P(), P()), check_vma=False))(
        jt.device_put(jnp.asarray(x), NamedSharding(mesh, P("i")))
    )
    result["psum"] = np.asarray(summed).tolist()
    result["all_gather"] = np.asarray(gathered).tolist()

    # A data-parallel training step: the batch is split over the 4 devices
    # of both processes, the weights are replicated.
    rng = np.random.default_rng(0)
    w = rng.normal(size=(3, 2)).astype(np.float32)
    xs = rng.normal(size=(8, 3)).astype(np.float32)
    ys = rng.normal(size=(8, 2)).astype(np.float32)

    def loss(w: jt.Array, xs: jt.Array, ys: jt.Array) -> jt.Array:
        return jnp.mean((jnp.tanh(xs @ w) - ys) ** 2)

    def sgd(w: jt.Array, xs: jt.Array, ys: jt.Array) -> jt.Array:
        return w - 0.1 * jt.grad(loss)(w, xs, ys)

    step = jt.jit(sgd)
    batch = NamedSharding(mesh, P("i"))
    new_w = step(jnp.asarray(w), jt.device_put(jnp.asarray(xs), batch), jt.device_put(jnp.asarray(ys), batch))
    result["new_w"] = np.asarray(new_w).tolist()
    # Steady-state time of the step across both processes (reported, not asserted).
    placed = (jnp.asarray(w), jt.device_put(jnp.asarray(xs), batch), jt.device_put(jnp.asarray(ys), batch))
    times: list[float] = []
    for _ in range(10):
        start = time.perf_counter()
        jt.block_until_ready(step(*placed))
        times.append(time.perf_counter() - start)
    result["step_ms"] = 1e3 * sorted(times)[len(times) // 2]
    result["allgather_processes"] = distributed.process_allgather(np.array([process_id * 10.0])).tolist()
    distributed.sync_global_devices("done")
    distributed.shutdown()
    print(json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
