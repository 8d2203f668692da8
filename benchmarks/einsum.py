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

import functools
import statistics
from collections.abc import Callable
from typing import Any

import numpy as np
import opt_einsum

import jaxtyped as jt
from jaxtyped._src.numpy.einsum import _cached_search  # pyright: ignore[reportPrivateUsage]  # cleared for a cold first call
from side_by_side import benchmark_parser, compare_jitted, import_jax, timed

CASES: dict[str, tuple[str, list[tuple[int, ...]]]] = {
    "chain 4x 256x256": ("ab,bc,cd,de->ae", [(256, 256)] * 4),
    "batched chain 32x 4x 64x64": ("bij,bjk,bkl,blm->bim", [(32, 64, 64)] * 4),
}


def _einsum(subscripts: str, library: Any) -> Callable[..., Any]:
    """``library.numpy.einsum(subscripts, ...)`` as a new function (``library``: ``jaxtyped`` or ``jax``)."""

    def f(*operands: Any) -> Any:
        return library.numpy.einsum(subscripts, *operands)

    return f


def _clear_caches() -> None:
    jt.clear_caches()
    _cached_search.cache_clear()  # the path search is part of a first call


def _agree(ours: np.ndarray[Any, Any], theirs: np.ndarray[Any, Any]) -> bool:
    return bool(np.allclose(ours, theirs, rtol=1e-4, atol=1e-4))


def run_case(jax: Any, label: str, subscripts: str, shapes: list[tuple[int, ...]], repeat: int) -> None:
    rng = np.random.default_rng(0)
    # Scaled so that products of four stay near 1 (comparable in float32).
    hosts = [(rng.normal(size=s) / np.sqrt(s[-1])).astype(np.float32) for s in shapes]
    make = functools.partial(_einsum, subscripts)
    compare_jitted(
        jax, f"{label}: {subscripts} (jit, float32)", make, hosts, _agree,
        repeat=repeat, number=50, steady_unit="us", clear_ours=_clear_caches,
    )

    # What the path search costs at trace time, beside a whole trace.
    stand_ins = [np.empty(s, np.float32) for s in shapes]
    search = [timed(lambda: opt_einsum.contract_path(subscripts, *stand_ins, einsum_call=True, use_blas=True, optimize="auto"), 200)]
    trace = [timed(lambda: jt.make_jaxpr(make(jt))(*hosts), 50)]
    for _ in range(repeat - 1):
        search.append(timed(lambda: opt_einsum.contract_path(subscripts, *stand_ins, einsum_call=True, use_blas=True, optimize="auto"), 200))
        trace.append(timed(lambda: jt.make_jaxpr(make(jt))(*hosts), 50))
    print(
        f"{'  opt_einsum path search':<34} {statistics.median(search) * 1e6:10.2f} us"
        f"   (make_jaxpr of the einsum: {statistics.median(trace) * 1e6:.2f} us)"
    )


def main() -> None:
    args = benchmark_parser(__doc__).parse_args()
    jax = import_jax()
    for label, (subscripts, shapes) in CASES.items():
        run_case(jax, label, subscripts, shapes, args.repeat)


if __name__ == "__main__":
    main()
