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

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from side_by_side import benchmark_parser, compare_jitted, import_jax

SIZE = 1_000_000
COUNT = 100_000
CASES = ("scatter_add", "gather")


def _scatter_add(x: Any, idx: Any, v: Any) -> Any:
    return x.at[idx].add(v)


def _gather(x: Any, idx: Any, v: Any) -> Any:
    return x[idx]


FUNCTIONS: dict[str, Callable[[Any, Any, Any], Any]] = {"scatter_add": _scatter_add, "gather": _gather}


def _make(name: str, library: Any) -> Callable[[Any, Any, Any], Any]:
    """The function ``name`` serves both libraries: it uses array methods only."""
    return FUNCTIONS[name]


def _agree(ours: np.ndarray[Any, Any], theirs: np.ndarray[Any, Any]) -> bool:
    return bool(np.allclose(ours, theirs, rtol=1e-5, atol=1e-4))


def main() -> None:
    args = benchmark_parser(__doc__, CASES).parse_args()
    jax = import_jax()
    rng = np.random.default_rng(0)
    x = rng.standard_normal(SIZE).astype(np.float32)
    idx = rng.integers(0, SIZE, COUNT).astype(np.int32)
    v = rng.standard_normal(COUNT).astype(np.float32)
    for name in args.only.split(","):
        label = "x.at[idx].add(v)" if name == "scatter_add" else "x[idx]"
        title = f"{label}: {COUNT} indices into {SIZE} float32 (jit)"
        compare_jitted(jax, title, functools.partial(_make, name), (x, idx, v), _agree, repeat=args.repeat, number=10)


if __name__ == "__main__":
    main()
