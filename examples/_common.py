"""Shared plumbing of the example scripts: flags, a progress line, a summary, an optional plot.

Every example takes ``--quick`` (fewer steps, then assert the stated result
and exit non-zero if it is not reached) and ``--plot PATH`` (a PNG of the
loss curve, written only where matplotlib is installed: it is an optional
extra and never required).
"""

from __future__ import annotations

import argparse
import importlib
import sys
import time
from collections.abc import Sequence


def parse_args(description: str | None) -> argparse.Namespace:
    """``--quick``, ``--plot PATH`` and ``--steps N`` (override the step count)."""
    parser = argparse.ArgumentParser(description=(description or "").strip().splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="few steps, then assert the stated result")
    parser.add_argument("--plot", metavar="PATH", help="write the loss curve as a PNG (needs matplotlib)")
    parser.add_argument("--steps", type=int, default=None, help="number of steps (overrides the default)")
    return parser.parse_args()


class Progress:
    """A one-line progress report (step, loss, steps/s) rewritten in place on a terminal."""

    def __init__(self, total: int, every: int = 10) -> None:
        self.total = total
        self.every = max(1, every)
        self.start = time.perf_counter()
        self.tty = sys.stdout.isatty()

    def update(self, step: int, loss: float) -> None:
        """Show the line every ``every`` steps and at the last one."""
        done = step + 1
        if done % self.every and done != self.total:
            return
        rate = done / max(time.perf_counter() - self.start, 1e-9)
        line = f"step {done:>5}/{self.total}  loss {loss:10.5f}  {rate:8.1f} steps/s"
        if self.tty:
            print("\r" + line, end="\n" if done == self.total else "", flush=True)
        else:
            print(line, flush=True)

    def seconds(self) -> float:
        """Wall time since the progress line was created."""
        return time.perf_counter() - self.start


def summary(name: str, seconds: float, **values: float) -> None:
    """The closing line: the example's name, its wall time and its results."""
    shown = "  ".join(f"{key}={value:.4g}" for key, value in values.items())
    print(f"[{name}] done in {seconds:.1f}s  {shown}")


def check(condition: bool, message: str) -> None:
    """``--quick``'s assertion: a clear message and exit status 1 when the result is not reached."""
    if not condition:
        print(f"FAILED: {message}", file=sys.stderr)
        raise SystemExit(1)
    print(f"OK: {message}")


def plot_curve(path: str | None, values: Sequence[float], label: str = "loss") -> None:
    """Write ``values`` against the step as a PNG at ``path`` if matplotlib is installed."""
    if path is None:
        return
    try:  # an optional extra, imported by name so that nothing requires it
        importlib.import_module("matplotlib").use("Agg")
        plt = importlib.import_module("matplotlib.pyplot")
    except ImportError:
        print(f"--plot {path}: matplotlib is not installed (pip install matplotlib); no plot written")
        return
    fig, ax = plt.subplots(figsize=(5, 3.2))
    ax.plot(range(len(values)), list(values))
    ax.set_xlabel("step")
    ax.set_ylabel(label)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    print(f"wrote {path}")
