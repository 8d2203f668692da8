"""Every script in ``examples/`` runs with ``--quick`` and reaches its stated result (issue 21, item 2).

Each example asserts its own result under ``--quick`` (a loss below, or an
accuracy above, a value stated in its docstring) and exits 1 with
``FAILED: ...`` when it is not reached; here each runs in a subprocess, as a
user would run it, and must exit 0, print its ``OK:`` lines and its summary
line. The timings beside the names were measured on the 2-core CI machine
(wall time, most of it importing and compiling); none is slow enough to be
left out of the suite, so ``SLOW`` is empty.
"""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"

# script -> wall seconds measured with --quick (2 cores, other jobs running)
QUICK_SECONDS = {
    "mlp_classifier.py": 8,
    "dp_sgd.py": 6,
    "rnn_scan.py": 10,
    "newton_while_loop.py": 6,
    "cnn.py": 15,
    "gaussian_process.py": 10,
    "vae.py": 10,
    "ref_training_stats.py": 4,
    "shard_map_data_parallel.py": 6,
}
SLOW: frozenset[str] = frozenset()  # scripts over ~30 s with --quick (none today)


def run_example(name: str, *flags: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    # The examples are user programs: they run without the test suite's debug mode.
    env.pop("JAXTYPED_DEBUG", None)
    return subprocess.run(
        [sys.executable, str(EXAMPLES / name), "--quick", *flags],
        cwd=EXAMPLES.parent, env=env, capture_output=True, text=True, timeout=120, check=False,
    )


def test_every_example_is_run_here() -> None:
    scripts = {p.name for p in EXAMPLES.glob("*.py") if not p.name.startswith("_")}
    assert scripts == set(QUICK_SECONDS), "add new examples to QUICK_SECONDS (and remove deleted ones)"


@pytest.mark.parametrize("name", sorted(set(QUICK_SECONDS) - SLOW))
def test_example_reaches_its_stated_result(name: str) -> None:
    result = run_example(name)
    output = result.stdout + result.stderr
    assert result.returncode == 0, output[-3000:]
    assert "OK: " in result.stdout and "FAILED" not in output, output[-3000:]
    assert f"[{name.removesuffix('.py')}] done in" in result.stdout  # the final summary
    assert "steps/s" in result.stdout  # the progress line


def test_a_failed_result_exits_non_zero() -> None:
    """--quick really asserts: one step of training cannot reach the stated accuracy."""
    result = run_example("mlp_classifier.py", "--steps", "1")
    assert result.returncode == 1
    assert "FAILED: training accuracy" in result.stderr


def test_plot_writes_a_png_or_says_matplotlib_is_missing(tmp_path: Path) -> None:
    target = tmp_path / "loss.png"
    result = run_example("ref_training_stats.py", "--plot", str(target))
    assert result.returncode == 0, result.stdout + result.stderr
    if importlib.util.find_spec("matplotlib") is None:  # an optional extra
        assert "matplotlib is not installed" in result.stdout and not target.exists()
    else:
        assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
