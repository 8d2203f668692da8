"""First call of a jitted MLP training step in a fresh process, with a cold
and a warm persistent compilation cache, jaxtyped beside JAX:
``python benchmarks/persistent_cache.py [runs]``.

Each measurement is a new Python process (so nothing is cached in memory)
that sets ``jax_compilation_cache_dir`` (minimum compile time 0) and times
the first call of ``jit(grad(loss))`` of a 4-layer MLP (256 wide, batch
128), trace + lower + compile-or-load + run. Medians over ``runs``
processes. A measurement, not a test: nothing asserts on it.
"""

import json
import statistics
import subprocess
import sys
import tempfile
import textwrap

_CHILD = textwrap.dedent(
    """
    import json, sys, time
    import numpy as np
    lib_name, directory = sys.argv[1], sys.argv[2]
    if lib_name == "jax":
        import jax as lib, jax.numpy as jnp
    else:
        import jaxtyped as lib, jaxtyped.numpy as jnp
    lib.config.update("jax_compilation_cache_dir", directory)
    lib.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    rng = np.random.default_rng(0)
    params = [(rng.standard_normal((256, 256), np.float32) * 0.05, np.zeros(256, np.float32)) for _ in range(4)]
    x = rng.standard_normal((128, 256), np.float32)

    def loss(params, x):
        for w, b in params:
            x = jnp.tanh(x @ w + b)
        return jnp.mean(x * x)

    step = lib.jit(lib.grad(loss))
    start = time.perf_counter()
    out = step(params, x)
    out[0][0].block_until_ready()
    print(json.dumps(time.perf_counter() - start))
    """
)


def first_call(lib_name: str, directory: str) -> float:
    """Seconds of the first call in a fresh process using ``directory``."""
    proc = subprocess.run(
        [sys.executable, "-c", _CHILD, lib_name, directory], capture_output=True, text=True, check=True, timeout=300
    )
    seconds: float = json.loads(proc.stdout.strip().splitlines()[-1])
    return seconds


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    for lib_name in ("jaxtyped", "jax"):
        cold: list[float] = []
        warm: list[float] = []
        for _ in range(runs):
            with tempfile.TemporaryDirectory() as directory:
                cold.append(first_call(lib_name, directory))
                warm.append(first_call(lib_name, directory))
        print(
            f"{lib_name:9s} MLP step first call: cold cache {statistics.median(cold) * 1e3:8.1f} ms   "
            f"warm cache {statistics.median(warm) * 1e3:8.1f} ms"
        )


if __name__ == "__main__":
    main()
