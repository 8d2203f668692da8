"""Several processes (JAX's ``jax.distributed``): one program over the devices
of every process, on jaxlib's distributed runtime (a coordinator service in
process 0, a client in each process) with CPU collectives over TCP.

Each process calls :func:`initialize` before any computation; then
``jt.devices()`` lists every process's devices (``jt.local_devices()`` its
own), a mesh over them spans the processes, and a jitted function over
arrays sharded on that mesh runs as one SPMD program whose collectives cross
process boundaries. Reading an array to the host needs its value on this
process: a replicated result, or :func:`process_allgather`.

A process that dies makes the others fail (jaxlib ends them) once the
heartbeat timeout has passed; a collective waiting on it fails after the
collective timeout (``XLA_FLAGS=--xla_cpu_collective_timeout_seconds=N``,
set before the process starts).
"""

import pickle
from typing import Any

import numpy as np

from jaxtyped._src.core.array import Array
from jaxtyped._src.runtime import xla

__all__ = ["initialize", "shutdown", "is_initialized", "process_allgather", "sync_global_devices"]

_BARRIER_TIMEOUT_MS = 60_000
_counters: dict[str, int] = {}


def initialize(
    coordinator_address: str,
    num_processes: int,
    process_id: int,
    local_device_ids: list[int] | None = None,
    *,
    initialization_timeout: int = 60,
    heartbeat_timeout: int = 10,
    shutdown_timeout: int = 10,
) -> None:
    """Join a computation of ``num_processes`` processes coordinated at
    ``coordinator_address`` (``"host:port"``; process 0 serves it).

    Args:
        coordinator_address: where process 0 runs the coordinator service.
        num_processes: how many processes take part.
        process_id: this process's index, ``0 <= process_id < num_processes``.
        local_device_ids: accepted for JAX compatibility; every CPU device
            of the process takes part (set their number with
            ``jax_num_cpu_devices``).
        initialization_timeout: seconds to wait for every process to connect.
        heartbeat_timeout: seconds after which a silent process counts as dead.
        shutdown_timeout: seconds :func:`shutdown` waits for the others.

    Raises:
        ValueError: a bad process count or index.
        RuntimeError: called twice, or after the first computation.
    """
    if num_processes < 1 or not 0 <= process_id < num_processes:
        raise ValueError(f"distributed.initialize: process_id {process_id} is not in 0..{num_processes - 1}")
    if ":" not in coordinator_address:
        raise ValueError(f"distributed.initialize: coordinator_address {coordinator_address!r} must be 'host:port'")
    del local_device_ids
    xla.initialize_distributed(
        coordinator_address,
        num_processes,
        process_id,
        init_timeout_s=initialization_timeout,
        heartbeat_timeout_s=heartbeat_timeout,
        shutdown_timeout_s=shutdown_timeout,
    )


def shutdown() -> None:
    """Leave the computation (waits for the other processes to leave too)."""
    xla.shutdown_distributed()


def is_initialized() -> bool:
    """Whether :func:`initialize` was called (and not shut down)."""
    return xla.distributed_client() is not None


def _client() -> Any:
    client = xla.distributed_client()
    if client is None:
        raise RuntimeError("jaxtyped.distributed: call initialize(...) first")
    return client


def _next_key(kind: str, name: str) -> str:
    count = _counters.get(name, 0)
    _counters[name] = count + 1
    return f"jaxtyped/{kind}/{name}/{count}"


def sync_global_devices(name: str) -> None:
    """Wait until every process has reached the barrier ``name`` (JAX's
    ``multihost_utils.sync_global_devices``)."""
    _client().wait_at_barrier(_next_key("barrier", name), _BARRIER_TIMEOUT_MS)


def process_allgather(x: Array | np.ndarray[Any, np.dtype[Any]], *, tiled: bool = False) -> np.ndarray[Any, np.dtype[Any]]:
    """Every process's host value of ``x``, stacked along a new leading axis
    in process order (concatenated along axis 0 with ``tiled``), on every
    process (JAX's ``multihost_utils.process_allgather``, for values each
    process can read)."""
    client = _client()
    value = np.asarray(x)
    key = _next_key("allgather", "values")
    me, count = xla.process_index(), xla.process_count()
    client.key_value_set_bytes(f"{key}/{me}", pickle.dumps(value))
    parts = [
        value if p == me else pickle.loads(client.blocking_key_value_get_bytes(f"{key}/{p}", _BARRIER_TIMEOUT_MS))
        for p in range(count)
    ]
    return np.concatenate(parts, axis=0) if tiled else np.stack(parts)
