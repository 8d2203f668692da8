"""``jaxtyped.experimental.multihost_utils`` across two processes on
127.0.0.1 (2 CPU devices each), run by ``distributed_worker.py`` in mode
``multihost`` with ``test_distributed.py``'s bounded, reaping runner:
broadcasting, gathering, ``assert_equal`` passing and failing, the barrier,
the preemption point without a preemption service, and host-local <-> global
conversions, checked on both processes."""

import importlib.util
import json
from collections.abc import Callable
from pathlib import Path

import numpy as np


def _run_pair() -> Callable[[str], list[tuple[int, str, str]]]:
    """``test_distributed._run_pair`` (imported from its file: pytest's
    importlib mode puts no test directory on the path)."""
    spec = importlib.util.spec_from_file_location(
        "_test_distributed_runner", Path(__file__).with_name("test_distributed.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    run: Callable[[str], list[tuple[int, str, str]]] = getattr(module, "_run_pair")
    return run


def test_multihost_utils_across_two_processes() -> None:
    runs = _run_pair()("multihost")
    for code, _, err in runs:
        assert code == 0, f"worker failed ({code}):\n{err[-3000:]}"
    results = [json.loads(out.strip().splitlines()[-1]) for _, out, _ in runs]
    for pid, result in enumerate(results):
        # broadcast_one_to_all: process 0's values (canonical dtypes, as JAX's), or the chosen source's.
        assert result["broadcast"] == {"a": [[1.0], "float32"], "b": [5, "int32"]}
        assert result["broadcast_from_1"] == {"a": [11.0], "b": 6}
        assert result["allgather"] == {"v": [[0, 7], [1, 7]], "s": [0.0, 1.0]}
        assert result["allgather_tiled"] == {"v": [0, 7, 1, 7], "s": [0.0, 1.0]}
        assert result["assert_equal_differs"] == f"values differ. Expected: [0 1]; got: [{pid}]."
        assert result["sync_names_differ"].startswith(f"sync_global_devices name mismatch ('process {pid}'). ")
        assert "preemption" in result["preemption"]
        # host-local -> global: each process's (2, 2) rows, process 0's first; P() stays (3,).
        assert result["global_shape"] == [[4, 2], [3]]
        expected = np.concatenate([np.arange(4.0).reshape(2, 2), np.arange(4.0).reshape(2, 2) + 100])
        np.testing.assert_array_equal(result["global_value"], expected)
        assert result["replicated_value"] == [0.0, 1.0, 2.0]
        # global -> host-local: this process's part again, on its own devices.
        local = np.arange(4.0).reshape(2, 2) + 100 * pid
        shape, back, doubled = result["local_back"]
        assert shape == [2, 2]
        np.testing.assert_array_equal(back, local)
        np.testing.assert_array_equal(doubled, 2 * local)
        assert len(result["local_back_devices"]) == 2
        assert "tiled=True" in result["untiled_global"]
    assert results[0]["local_back_devices"] != results[1]["local_back_devices"]
