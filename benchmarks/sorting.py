"""Sorting and cumulative sums beside JAX's: ``python benchmarks/sorting.py``.

Under ``jit``, on 1M random float32 values, interleaving the two libraries
run by run (medians, ratio jaxtyped / JAX):

- ``jnp.sort``, ``jnp.argsort`` and ``jnp.cumsum``;

each as its first call (trace + lower + compile + run, caches cleared) and
its compiled steady state. Results are checked against JAX before anything
is timed (sort and argsort exactly; cumsum to float32 rounding).
"""

import functools
from collections.abc import Callable
from typing import Any

import numpy as np

from side_by_side import Agree, benchmark_parser, compare_jitted, import_jax

SIZE = 1_000_000
FUNCTIONS = ("sort", "argsort", "cumsum")


def _make(name: str, library: Any) -> Callable[[Any], Any]:
    """``library.numpy.<name>`` as a new function (``library``: ``jaxtyped`` or ``jax``)."""

    def f(x: Any) -> Any:
        return getattr(library.numpy, name)(x)

    return f


def _agree(name: str) -> Agree:
    """Sort and argsort exactly; cumsum to float32 rounding."""
    if name == "cumsum":
        return lambda ours, theirs: bool(np.allclose(ours, theirs, rtol=1e-4, atol=1e-2))
    return lambda ours, theirs: bool(np.array_equal(ours, theirs))


def main() -> None:
    args = benchmark_parser(__doc__, FUNCTIONS).parse_args()
    jax = import_jax()
    host = np.random.default_rng(0).standard_normal(SIZE).astype(np.float32)
    for name in args.only.split(","):
        title = f"jnp.{name} of {SIZE} float32 (jit)"
        compare_jitted(jax, title, functools.partial(_make, name), (host,), _agree(name), repeat=args.repeat, number=5)


if __name__ == "__main__":
    main()
