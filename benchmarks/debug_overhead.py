"""What debug mode costs: ``python benchmarks/debug_overhead.py``.

Runs the same measurements in fresh processes with ``JAXTYPED_DEBUG`` off
and on (alternating, ``--repeat`` times, medians) and prints per-call times
and the ratio on/off:

- checked public functions called eagerly: ``jnp.add`` and ``jnp.sum`` on
  4x4 float32 arrays, ``tree_util.tree_map`` over a dict of 10 arrays;
- ``jit`` dispatch (steady state) of a plain function and of one with
  shape annotations (``Float[Array, "m n"]``): compiled code runs no checks,
  so both columns should match;
- tracing by ``jit`` (``jit(f).trace``, a fresh ``jit`` each time) with and
  without shape annotations: the shape check runs once per trace, here;
- a ``typechecked`` function called eagerly (in debug mode: beartype's type
  check plus the shape check with named dimensions; off: ``typechecked``
  returns the function itself), and the shape check alone.

JAX's eager ``jnp.add`` and jit dispatch are printed beside for scale where
JAX is installed. These are measurements, not tests: nothing asserts on them.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable

NUMBER = 2000


def _per_call(fun: Callable[[], object], number: int = NUMBER) -> float:
    """Median seconds per call over 5 rounds of ``number`` calls."""
    fun()
    rounds = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(number):
            fun()
        rounds.append((time.perf_counter() - start) / number)
    return statistics.median(rounds)


def _child() -> dict[str, float]:
    import jaxtyped as jt
    import jaxtyped.numpy as jnp
    from jaxtyped._src.core.shape_annotations import checker_for
    from jaxtyped.typing import Array, Float, typechecked

    x = jnp.ones((4, 4))
    tree = {f"p{i}": jnp.ones(4) for i in range(10)}

    def plain(a: Array, v: Array) -> Array:
        return a @ v

    def annotated(a: Float[Array, "m n"], v: Float[Array, "n"]) -> Float[Array, "m"]:
        return a @ v

    v = jnp.ones(4)
    results: dict[str, float] = {
        "jnp.add eager": _per_call(lambda: jnp.add(x, x)),
        "jnp.sum eager": _per_call(lambda: jnp.sum(x)),
        "tree_map, 10 leaves": _per_call(lambda: jt.tree_util.tree_map(lambda a: a, tree)),
    }
    jit_plain, jit_annotated = jt.jit(plain), jt.jit(annotated)
    results["jit dispatch, plain"] = _per_call(lambda: jit_plain(x, v))
    results["jit dispatch, annotated"] = _per_call(lambda: jit_annotated(x, v))

    def trace(fun: Callable[[Array, Array], Array]) -> float:
        times = []
        for _ in range(20):
            jitted = jt.jit(fun)  # a fresh cache: every call traces
            start = time.perf_counter()
            jitted.trace(x, v)
            times.append(time.perf_counter() - start)
        return statistics.median(times)

    results["jit trace, plain"] = trace(plain)
    results["jit trace, annotated"] = trace(annotated)
    checked = typechecked(annotated)
    results["typechecked eager call"] = _per_call(lambda: checked(x, v))
    results["undecorated eager call"] = _per_call(lambda: annotated(x, v))
    checker = checker_for(annotated)
    assert checker is not None
    results["shape check alone"] = _per_call(lambda: checker.check_arguments((x, v), {}))
    return results


def _jax_reference() -> dict[str, float]:
    try:
        import jax
        import jax.numpy as jax_numpy
    except ImportError:
        return {}
    x = jax_numpy.ones((4, 4))
    v = jax_numpy.ones(4)
    jitted = jax.jit(lambda a, b: a @ b)
    return {
        "jnp.add eager": _per_call(lambda: jax_numpy.add(x, x).block_until_ready()),
        "jit dispatch, plain": _per_call(lambda: jitted(x, v)),
    }


def _run_child(debug: bool) -> dict[str, float]:
    env = dict(os.environ, JAXTYPED_DEBUG="1" if debug else "0")
    out = subprocess.run([sys.executable, __file__, "--child"], env=env, check=True, capture_output=True, text=True)
    parsed: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return parsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="processes per mode (alternating)")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_child()))
        return
    runs: dict[bool, list[dict[str, float]]] = {False: [], True: []}
    for _ in range(args.repeat):
        for debug in (False, True):
            runs[debug].append(_run_child(debug))
    jax_times = _jax_reference()
    names = list(runs[False][0])
    print(f"{'measurement':<28} {'debug off':>12} {'debug on':>12} {'on/off':>8} {'JAX':>12}")
    for name in names:
        off = statistics.median(r[name] for r in runs[False])
        on = statistics.median(r[name] for r in runs[True])
        jax_time = jax_times.get(name)
        shown_jax = f"{jax_time * 1e6:10.1f}us" if jax_time is not None else f"{'':>12}"
        print(f"{name:<28} {off * 1e6:10.1f}us {on * 1e6:10.1f}us {on / off:7.2f}x {shown_jax}")


if __name__ == "__main__":
    main()
