"""``jaxtyped.distributed`` (issue 17, step 6): two processes on 127.0.0.1,
each with 2 CPU devices, form one 4-device mesh; a jitted ``shard_map`` with
``psum`` and ``all_gather`` and a data-parallel training step run across
them and equal the single-process results; ``process_allgather`` and
``sync_global_devices`` work. Every wait is bounded and both processes are
always reaped; a process that dies makes the other fail, never hang.
"""

import json
import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import distributed

WORKER = Path(__file__).with_name("distributed_worker.py")
TIMEOUT_S = 90


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _run_pair(mode: str) -> list[tuple[int, str, str]]:
    """Run both workers; (exit code, stdout, stderr) each. Both are killed
    (by pid) if they outlive the timeout."""
    port = _free_port()
    env = dict(os.environ)
    env.pop("JAXTYPED_DEBUG", None)
    env["XLA_FLAGS"] = "--xla_cpu_collective_timeout_seconds=20"
    procs = [
        subprocess.Popen(
            [sys.executable, str(WORKER), str(port), str(pid), mode],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env,
        )
        for pid in (0, 1)
    ]
    results: list[tuple[int, str, str]] = []
    try:
        for proc in procs:
            try:
                out, err = proc.communicate(timeout=TIMEOUT_S)
            except subprocess.TimeoutExpired:
                proc.kill()
                _, err = proc.communicate()
                results.append((-999, "", err))
                continue
            results.append((proc.returncode, out, err))
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    return results


def _single_process_step() -> np.ndarray[Any, np.dtype[Any]]:
    rng = np.random.default_rng(0)
    w = rng.normal(size=(3, 2)).astype(np.float32)
    xs = rng.normal(size=(8, 3)).astype(np.float32)
    ys = rng.normal(size=(8, 2)).astype(np.float32)

    def loss(w: jt.Array, xs: jt.Array, ys: jt.Array) -> jt.Array:
        return jnp.mean((jnp.tanh(xs @ w) - ys) ** 2)

    def sgd(w: jt.Array, xs: jt.Array, ys: jt.Array) -> jt.Array:
        return w - 0.1 * jt.grad(loss)(w, xs, ys)

    step = jt.jit(sgd)
    return np.asarray(step(jnp.asarray(w), jnp.asarray(xs), jnp.asarray(ys)))


def test_two_processes_run_one_program() -> None:
    runs = _run_pair("ok")
    for code, _, err in runs:
        assert code == 0, f"worker failed ({code}):\n{err[-3000:]}"
    results = [json.loads(out.strip().splitlines()[-1]) for _, out, _ in runs]
    expected_w = _single_process_step()
    for pid, result in enumerate(results):
        assert result["process_index"] == pid and result["process_count"] == 2
        assert len(result["device_ids"]) == 4 and len(result["local_device_ids"]) == 2
        assert set(result["local_device_ids"]) < set(result["device_ids"])
        x = np.arange(8.0)
        np.testing.assert_allclose(result["psum"], x.reshape(4, 2).sum(0))
        np.testing.assert_allclose(result["all_gather"], x)
        np.testing.assert_allclose(result["new_w"], expected_w, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(result["allgather_processes"], [[0.0], [10.0]])


def test_a_dead_process_makes_the_other_fail_not_hang() -> None:
    (code0, _, err0), (code1, _, _) = _run_pair("die")
    assert code1 == 3
    assert code0 not in (0, -999), "the surviving process should fail within the timeouts"
    assert err0  # jaxlib reports why it ended the process


def test_initialize_checks_its_arguments() -> None:
    with pytest.raises(ValueError, match="process_id"):
        distributed.initialize("127.0.0.1:1234", 2, 2)
    with pytest.raises(ValueError, match="host:port"):
        distributed.initialize("localhost", 2, 0)
    assert not distributed.is_initialized()
    with pytest.raises(RuntimeError, match="initialize"):
        distributed.sync_global_devices("x")
