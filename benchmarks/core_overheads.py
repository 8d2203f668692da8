"""Side-by-side overheads of jaxtyped's core and JAX's: ``python benchmarks/core_overheads.py``.

Measures, interleaving the two libraries run by run and reporting medians
and the ratio jaxtyped / JAX:

- eager per-operation latency (``sin``, ``+``, ``@`` on 4x4 float32 arrays;
  JAX's results are waited for with ``block_until_ready``);
- ``make_jaxpr`` time for chains of 100, 1000 and 10000 operations, and the
  cost per operation (it should stay flat: tracing is linear in program size).

JAX is an optional oracle here: without it only jaxtyped's numbers print.
These are measurements, not tests: nothing asserts on them.
"""

import argparse
import importlib
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp


def _timed(fun: Callable[[], object], number: int) -> float:
    """Seconds per call of ``fun``, over ``number`` calls."""
    start = time.perf_counter()
    for _ in range(number):
        fun()
    return (time.perf_counter() - start) / number


def compare(
    name: str, ours: Callable[[], object], theirs: Callable[[], object] | None, number: int, repeat: int, unit: str
) -> None:
    """Interleave ``repeat`` timings of each and print medians and the ratio."""
    scale = {"us": 1e6, "ms": 1e3}[unit]
    ours()
    if theirs is not None:
        theirs()
    ours_times: list[float] = []
    theirs_times: list[float] = []
    for _ in range(repeat):
        ours_times.append(_timed(ours, number))
        if theirs is not None:
            theirs_times.append(_timed(theirs, number))
    mine = statistics.median(ours_times) * scale
    if theirs is None:
        print(f"{name:<34} jaxtyped {mine:10.2f} {unit}")
        return
    jax_time = statistics.median(theirs_times) * scale
    print(f"{name:<34} jaxtyped {mine:10.2f} {unit}   jax {jax_time:10.2f} {unit}   ratio {mine / jax_time:5.2f}")


def _chain(namespace: Any, n: int) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        for _ in range(n // 2):
            x = namespace.sin(x) * 2.0
        return x

    return f


def main() -> None:
    """Run every measurement."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7, help="interleaved timings per measurement")
    args = parser.parse_args()
    try:
        jax: Any = importlib.import_module("jax")
    except ImportError:
        jax = None
        print("JAX is not installed: printing jaxtyped's numbers only")

    host = np.ones((4, 4), np.float32)
    x, y = jnp.asarray(host), jnp.asarray(host)
    jx: Any = jax.numpy.asarray(host) if jax else None

    def jax_sin() -> object:
        return jax.numpy.sin(jx).block_until_ready()

    def jax_add() -> object:
        return (jx + jx).block_until_ready()

    def jax_matmul() -> object:
        return (jx @ jx).block_until_ready()

    print("== eager, per operation (4x4 float32) ==")
    for name, ours, theirs in (
        ("sin", lambda: jnp.sin(x), jax_sin),
        ("add", lambda: x + y, jax_add),
        ("matmul", lambda: x @ y, jax_matmul),
    ):
        compare(name, ours, theirs if jax else None, number=2000, repeat=args.repeat, unit="us")

    print("== make_jaxpr of a chain of n operations ==")
    for n in (100, 1000, 10000):
        # A new function each call: JAX caches traces by function identity.
        def ours_trace(n: int = n) -> object:
            return jt.make_jaxpr(_chain(jnp, n))(1.0)

        def theirs_trace(n: int = n) -> object:
            return jax.make_jaxpr(_chain(jax.numpy, n))(1.0)

        number = max(1, 2000 // n)
        compare(f"make_jaxpr n={n}", ours_trace, theirs_trace if jax else None, number, args.repeat, "ms")
        per_op = _timed(ours_trace, number) / n * 1e6
        print(f"{'':<34} jaxtyped per operation: {per_op:.1f} us")


if __name__ == "__main__":
    main()
