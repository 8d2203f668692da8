"""Memory of a large eager result passed to ``jit``: ``python benchmarks/host_homes.py``.

A 100 MB float32 array is computed eagerly (``base * 0.5 + 1.0``) and then
passed to a jitted reduction. The script prints, per library, the growth of
the process's resident memory after the eager result and after the jitted
call. jaxtyped computes eager results on the host; the first jitted call
puts the value on the device, and the two homes of the value should share
one copy (Note [two homes of a value] in ``_src/core/array_impl.py``), as
JAX holds one. Each library runs in a fresh process. A measurement, not a
test: nothing asserts on it.
"""

import importlib
import importlib.util
import os
import subprocess
import sys
from typing import Any

N = 25_000_000  # float32 elements: 100 MB


def rss_mb() -> float:
    """The resident set size of this process, in MiB."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def measure(lib_name: str) -> None:
    """Print the two growths for one library (run in its own process)."""
    lib: Any = importlib.import_module(lib_name)
    np_lib: Any = importlib.import_module(f"{lib_name}.numpy")
    def reduce(a: Any) -> Any:
        return a.sum()

    total = lib.jit(reduce)
    base = np_lib.arange(N, dtype=np_lib.float32)
    total(base).block_until_ready()
    before = rss_mb()
    result = base * 0.5 + 1.0
    result.block_until_ready()
    after_eager = rss_mb()
    total(result).block_until_ready()
    after_jit = rss_mb()
    print(f"{lib_name:9s} eager result +{after_eager - before:6.0f} MiB   then passed to jit +{after_jit - after_eager:6.0f} MiB")


def main() -> None:
    if len(sys.argv) > 1:
        measure(sys.argv[1])
        return
    print(f"== resident memory: a {N * 4 // 10**6} MB eager result, then a jitted call on it ==")
    for lib_name in ("jaxtyped", "jax"):
        if lib_name == "jax" and importlib.util.find_spec("jax") is None:
            continue
        subprocess.run([sys.executable, __file__, lib_name], check=True)


if __name__ == "__main__":
    main()
