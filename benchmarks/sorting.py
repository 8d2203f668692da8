"""Sorting and cumulative sums beside JAX's: ``python benchmarks/sorting.py``.

Under ``jit``, on 1M random float32 values, interleaving the two libraries
run by run (medians, ratio jaxtyped / JAX):

- ``jnp.sort``, ``jnp.argsort`` and ``jnp.cumsum``;

each as its first call (trace + lower + compile + run, caches cleared) and
its compiled steady state. Results are checked against JAX before anything
is timed (sort and argsort exactly; cumsum to float32 rounding).
"""

import argparse
import importlib
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from core_overheads import compare

SIZE = 1_000_000
FUNCTIONS = ("sort", "argsort", "cumsum")


def _call(namespace: Any, name: str) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return getattr(namespace, name)(x)

    return f


def run_case(jax: Any, name: str, host: np.ndarray[Any, Any], repeat: int) -> None:
    ours_x = jt.device_put(host)
    ours_steady = jt.jit(_call(jnp, name))

    def ours_first() -> object:
        jt.clear_caches()
        return jt.jit(_call(jnp, name))(ours_x).block_until_ready()

    theirs_first: Callable[[], object] | None = None
    theirs_steady: Callable[[], object] | None = None
    if jax is not None:
        jax_x = jax.device_put(host)
        jax_steady = jax.jit(_call(jax.numpy, name))
        expected = np.asarray(jax_steady(jax_x))
        got = np.asarray(ours_steady(ours_x))
        if name == "cumsum":
            assert np.allclose(got, expected, rtol=1e-4, atol=1e-2), name
        else:
            assert np.array_equal(got, expected), name

        def theirs_first_fn() -> object:
            jax.clear_caches()
            return jax.jit(_call(jax.numpy, name))(jax_x).block_until_ready()

        theirs_first = theirs_first_fn
        theirs_steady = lambda: jax_steady(jax_x).block_until_ready()  # noqa: E731
    print(f"== jnp.{name} of {SIZE} float32 (jit) ==")
    compare("first call (trace+compile+run)", ours_first, theirs_first, 1, repeat, "ms")
    compare("compiled steady state", lambda: ours_steady(ours_x).block_until_ready(), theirs_steady, 5, repeat, "ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7, help="interleaved timings per measurement")
    parser.add_argument("--only", default=",".join(FUNCTIONS), help="comma-separated subset of " + ",".join(FUNCTIONS))
    args = parser.parse_args()
    try:
        jax: Any = importlib.import_module("jax")
    except ImportError:
        jax = None
        print("JAX is not installed: printing jaxtyped's numbers only")
    host = np.random.default_rng(0).standard_normal(SIZE).astype(np.float32)
    for name in args.only.split(","):
        run_case(jax, name, host, args.repeat)


if __name__ == "__main__":
    main()
