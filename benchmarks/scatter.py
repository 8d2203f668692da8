"""Scatter-add and gather beside JAX's: ``python benchmarks/scatter.py``.

Under ``jit``, 100k random int32 indices (repeats included) into a 1M
float32 array, interleaving the two libraries run by run (medians, ratio
jaxtyped / JAX):

- ``x.at[idx].add(v)`` (one ``scatter-add``);
- ``x[idx]`` (one ``gather``);

each as its first call (trace + lower + compile + run, caches cleared) and
its compiled steady state. Results are checked against JAX before anything
is timed (gather exactly; scatter-add to float32 rounding, since the order
in which repeated indices accumulate is unspecified).
"""

import argparse
import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
from core_overheads import compare

SIZE = 1_000_000
COUNT = 100_000
CASES = ("scatter_add", "gather")


def _scatter_add(x: Any, idx: Any, v: Any) -> Any:
    return x.at[idx].add(v)


def _gather(x: Any, idx: Any, v: Any) -> Any:
    return x[idx]


FUNCTIONS: dict[str, Callable[[Any, Any, Any], Any]] = {"scatter_add": _scatter_add, "gather": _gather}


def run_case(jax: Any, name: str, hosts: tuple[np.ndarray[Any, Any], ...], repeat: int) -> None:
    fn = FUNCTIONS[name]
    ours_args = tuple(jt.device_put(h) for h in hosts)
    ours_steady = jt.jit(fn)

    def ours_first() -> object:
        jt.clear_caches()
        return jt.jit(fn)(*ours_args).block_until_ready()

    theirs_first: Callable[[], object] | None = None
    theirs_steady: Callable[[], object] | None = None
    if jax is not None:
        jax_args = tuple(jax.device_put(h) for h in hosts)
        jax_steady = jax.jit(fn)
        expected = np.asarray(jax_steady(*jax_args))
        got = np.asarray(ours_steady(*ours_args))
        assert np.allclose(got, expected, rtol=1e-5, atol=1e-4), name

        def theirs_first_fn() -> object:
            jax.clear_caches()
            return jax.jit(fn)(*jax_args).block_until_ready()

        theirs_first = theirs_first_fn
        theirs_steady = lambda: jax_steady(*jax_args).block_until_ready()  # noqa: E731
    label = "x.at[idx].add(v)" if name == "scatter_add" else "x[idx]"
    print(f"== {label}: {COUNT} indices into {SIZE} float32 (jit) ==")
    compare("first call (trace+compile+run)", ours_first, theirs_first, 1, repeat, "ms")
    compare("compiled steady state", lambda: ours_steady(*ours_args).block_until_ready(), theirs_steady, 10, repeat, "ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7, help="interleaved timings per measurement")
    parser.add_argument("--only", default=",".join(CASES), help="comma-separated subset of " + ",".join(CASES))
    args = parser.parse_args()
    try:
        jax: Any = importlib.import_module("jax")
    except ImportError:
        jax = None
        print("JAX is not installed: printing jaxtyped's numbers only")
    rng = np.random.default_rng(0)
    x = rng.standard_normal(SIZE).astype(np.float32)
    idx = rng.integers(0, SIZE, COUNT).astype(np.int32)
    v = rng.standard_normal(COUNT).astype(np.float32)
    for name in args.only.split(","):
        run_case(jax, name, (x, idx, v), args.repeat)


if __name__ == "__main__":
    main()
