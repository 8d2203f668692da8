"""Memory growth of fresh jitted functions: ``python benchmarks/memory_growth.py jaxtyped|jax [N]``.

Each of N fresh jitted functions bakes a different constant into its program
(``MODE=scalar``, the default) or closes over a 100x100 array (``MODE=array``),
is called once and dropped; the script prints the growth of the process's
resident memory. Run it once per library, in separate processes (issue 19:
programs of functions that no longer exist must be released). A
measurement, not a test: nothing asserts on it.
"""

import gc
import importlib
import os
import sys
from collections.abc import Callable
from typing import Any

import numpy as np


def rss_mb() -> float:
    """The resident set size of this process, in MiB."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    lib_name = sys.argv[1] if len(sys.argv) > 1 else "jaxtyped"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
    mode = os.environ.get("MODE", "scalar")
    lib: Any = importlib.import_module(lib_name)
    np_lib: Any = importlib.import_module(f"{lib_name}.numpy")
    x = np_lib.ones((100, 100), np_lib.float32)

    def make(i: int) -> Callable[[Any], Any]:
        constant: Any = float(i) if mode == "scalar" else np.full((100, 100), float(i), np.float32)

        def f(v: Any) -> Any:
            return np_lib.sin(v) * constant + 1.0

        jitted: Callable[[Any], Any] = lib.jit(f)
        return jitted

    for i in range(50):  # warm up: imports, first compiles
        make(i)(x).block_until_ready()
    gc.collect()
    before = rss_mb()
    for i in range(50, 50 + n):
        make(i)(x).block_until_ready()
    gc.collect()
    after = rss_mb()
    print(
        f"{lib_name}: {n} fresh jitted functions ({mode} constant): "
        f"RSS +{after - before:.1f} MiB ({before:.0f} -> {after:.0f} MiB)"
    )


if __name__ == "__main__":
    main()
