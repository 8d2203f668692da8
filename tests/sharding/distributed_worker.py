"""One process of the 2-process test (``test_distributed.py`` runs it):
``python distributed_worker.py PORT PROCESS_ID MODE``; prints one JSON line."""

import json
import os
import sys
import time

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import distributed
from jaxtyped.sharding import NamedSharding, PartitionSpec as P


def main() -> None:
    port, process_id, mode = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    jt.config.update("jax_num_cpu_devices", 2)
    distributed.initialize(f"127.0.0.1:{port}", 2, process_id, initialization_timeout=30, heartbeat_timeout=5)
    if mode == "die" and process_id == 1:
        os._exit(3)  # dies without shutting down: the other process must not hang
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
