"""``jnp.einsum`` beside JAX's: ``python benchmarks/einsum.py``.

Two 4-operand contractions under ``jit``, interleaving the two libraries
run by run (medians, ratio jaxtyped / JAX):

- a matrix chain ``ab,bc,cd,de->ae`` of four 256x256 float32 matrices;
- a batched chain ``bij,bjk,bkl,blm->bim`` (batch 32, 64x64 float32);

each as its first call (trace + path search + lower + compile + run, caches
cleared, the path cache included) and its compiled steady state. (The first
einsum of a process also imports opt_einsum, about 70 ms, which JAX pays at
``import jax``.) Then what the path search costs at
trace time: ``opt_einsum.contract_path`` alone (the dependency einsum takes
its paths from, as JAX does) beside a whole ``make_jaxpr`` of the einsum.
Results are checked against JAX (``np.allclose``) before anything is timed.
"""

import argparse
import importlib
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import opt_einsum

import jaxtyped as jt
import jaxtyped.numpy as jnp
from core_overheads import compare
from jaxtyped._src.numpy.einsum import _cached_search

CASES: dict[str, tuple[str, list[tuple[int, ...]]]] = {
    "chain 4x 256x256": ("ab,bc,cd,de->ae", [(256, 256)] * 4),
    "batched chain 32x 4x 64x64": ("bij,bjk,bkl,blm->bim", [(32, 64, 64)] * 4),
}


def _einsum(namespace: Any, subscripts: str) -> Callable[..., Any]:
    def f(*operands: Any) -> Any:
        return namespace.einsum(subscripts, *operands)

    return f


def run_case(jax: Any, label: str, subscripts: str, shapes: list[tuple[int, ...]], repeat: int) -> None:
    rng = np.random.default_rng(0)
    # Scaled so that products of four stay near 1 (comparable in float32).
    hosts = [(rng.normal(size=s) / np.sqrt(s[-1])).astype(np.float32) for s in shapes]
    ours_args = [jt.device_put(h) for h in hosts]
    ours_steady = jt.jit(_einsum(jnp, subscripts))

    def ours_first() -> object:
        jt.clear_caches()
        _cached_search.cache_clear()  # the path search is part of a first call
        return jt.jit(_einsum(jnp, subscripts))(*ours_args).block_until_ready()

    theirs_first: Callable[[], object] | None = None
    theirs_steady: Callable[[], object] | None = None
    if jax is not None:
        jargs = [jax.device_put(h) for h in hosts]
        jax_steady = jax.jit(_einsum(jax.numpy, subscripts))
        expected = np.asarray(jax_steady(*jargs))
        assert np.allclose(np.asarray(ours_steady(*ours_args)), expected, rtol=1e-4, atol=1e-4), label

        def theirs_first_fn() -> object:
            jax.clear_caches()
            return jax.jit(_einsum(jax.numpy, subscripts))(*jargs).block_until_ready()

        theirs_first = theirs_first_fn
        theirs_steady = lambda: jax_steady(*jargs).block_until_ready()  # noqa: E731
    print(f"== {label}: {subscripts} (jit, float32) ==")
    compare("first call (trace+compile+run)", ours_first, theirs_first, 1, repeat, "ms")
    compare("compiled steady state", lambda: ours_steady(*ours_args).block_until_ready(), theirs_steady, 50, repeat, "us")

    # What the path search costs at trace time, beside a whole trace.
    stand_ins = [np.empty(s, np.float32) for s in shapes]
    search = [_time(lambda: opt_einsum.contract_path(subscripts, *stand_ins, einsum_call=True, use_blas=True, optimize="auto"), 200)]
    trace = [_time(lambda: jt.make_jaxpr(_einsum(jnp, subscripts))(*hosts), 50)]
    for _ in range(repeat - 1):
        search.append(_time(lambda: opt_einsum.contract_path(subscripts, *stand_ins, einsum_call=True, use_blas=True, optimize="auto"), 200))
        trace.append(_time(lambda: jt.make_jaxpr(_einsum(jnp, subscripts))(*hosts), 50))
    print(
        f"{'  opt_einsum path search':<34} {statistics.median(search) * 1e6:10.2f} us"
        f"   (make_jaxpr of the einsum: {statistics.median(trace) * 1e6:.2f} us)"
    )


def _time(fun: Callable[[], object], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        fun()
    return (time.perf_counter() - start) / number


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7, help="interleaved timings per measurement")
    args = parser.parse_args()
    try:
        jax: Any = importlib.import_module("jax")
    except ImportError:
        jax = None
        print("JAX is not installed: printing jaxtyped's numbers only")
    for label, (subscripts, shapes) in CASES.items():
        run_case(jax, label, subscripts, shapes, args.repeat)


if __name__ == "__main__":
    main()
