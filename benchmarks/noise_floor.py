"""How far apart two runs of the same compiled program read on this machine:
``python benchmarks/noise_floor.py``.

The steady-state rows of ``core_overheads.py`` compare two libraries whose
compiled programs are the same (``tests/test_compiled_parity.py`` checks
that the MLP's gradient and the per-example gradients hold exactly JAX's
operations and give JAX's results bit for bit). A ratio of 1.15 on such a
row can be the machine, not the library. This script measures that floor:
for the ``jit(grad(mlp))`` step and the per-example gradients it runs the
same harness (``side_by_side.compare``, interleaved medians) ``--rounds``
times for three pairs, and prints each pair's ratios:

- JAX against JAX (two jitted functions of the same program);
- jaxtyped against jaxtyped;
- jaxtyped against JAX.

When the JAX/JAX and jaxtyped/jaxtyped ratios spread as widely as the
jaxtyped/JAX ones, a single reading outside 1 +- that spread says nothing
about either library.

``--method calls`` (the default) alternates the two functions call by call
(A B, then B A, ...) for ``--calls`` calls and compares the medians of the
single-call times: the machine's drift (another process, frequency
changes) then falls on both sides alike, which the harness's blocks of
``number`` calls do not ensure. ``--method blocks`` runs
``side_by_side.compare`` as ``core_overheads.py`` does. These are
measurements, not tests: nothing asserts on them.
"""

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from core_overheads import example_loss, mlp_loss, mlp_params, per_example_hosts
from side_by_side import RESULTS, benchmark_parser, compare, import_jax

Step = Callable[[], object]


def _grad_mlp_steps(jax: Any) -> tuple[Callable[[], Step], Callable[[], Step]]:
    """Makers of a steady ``jit(grad(loss))`` step of the MLP: each call
    makes a new jitted function (compiled once, before timing)."""
    rng = np.random.default_rng(0)
    host_params = mlp_params(rng)
    host_x = rng.normal(size=(128, 256)).astype(np.float32)
    ours_params = [(jt.device_put(w), jt.device_put(b)) for w, b in host_params]
    ours_x = jt.device_put(host_x)
    jparams = [(jax.device_put(w), jax.device_put(b)) for w, b in host_params]
    jx = jax.device_put(host_x)

    def ours() -> Step:
        f = jt.jit(jt.grad(mlp_loss(jnp)))
        return lambda: jt.block_until_ready(f(ours_params, ours_x))

    def theirs() -> Step:
        f = jax.jit(jax.grad(mlp_loss(jax.numpy)))
        return lambda: jax.block_until_ready(f(jparams, jx))

    return ours, theirs


def _per_example_steps(jax: Any) -> tuple[Callable[[], Step], Callable[[], Step]]:
    """Makers of a steady per-example-gradients call (``core_overheads.per_example``)."""
    host_params, host_x, host_y = per_example_hosts()
    op = {k: jt.device_put(np.asarray(v)) for k, v in host_params.items()}
    ox, oy = jt.device_put(host_x), jt.device_put(host_y)
    jp = {k: jax.device_put(np.asarray(v)) for k, v in host_params.items()}
    jx, jy = jax.device_put(host_x), jax.device_put(host_y)

    def ours() -> Step:
        f = jt.jit(jt.vmap(jt.grad(example_loss(jnp)), in_axes=(None, 0, 0)))
        return lambda: jt.block_until_ready(f(op, ox, oy))

    def theirs() -> Step:
        f = jax.jit(jax.vmap(jax.grad(example_loss(jax.numpy)), in_axes=(None, 0, 0)))
        return lambda: jax.block_until_ready(f(jp, jx, jy))

    return ours, theirs


def _alternated(name: str, first: Step, second: Step, calls: int) -> float:
    """Median single-call times of ``first`` and ``second`` called in turn
    (their order swapped every call), printed and recorded; their ratio."""
    clock = time.perf_counter_ns
    for _ in range(max(calls // 10, 20)):  # warm both (allocator, caches)
        first()
        second()
    times: tuple[list[int], list[int]] = ([], [])
    for i in range(calls):
        for side in (0, 1) if i % 2 == 0 else (1, 0):
            step = first if side == 0 else second
            start = clock()
            step()
            times[side].append(clock() - start)
    mine, other = (statistics.median(t) / 1e3 for t in times)
    RESULTS.append({"name": name, "unit": "us", "jaxtyped": mine, "jax": other, "ratio": mine / other})
    print(f"  {name.rpartition(': ')[2]:<32} first {mine:10.2f} us   second {other:10.2f} us   ratio {mine / other:5.2f}")
    return mine / other


def _pairs(
    title: str,
    ours: Callable[[], Step],
    theirs: Callable[[], Step],
    number: int,
    args: argparse.Namespace,
) -> None:
    if args.method == "calls":
        how = f"{args.calls} calls each, alternated call by call"
    else:
        how = f"{args.repeat} x {number} calls each"
    print(f"== {title}: ratios of {args.rounds} interleaved comparisons ({how}) ==")
    pairs = {"jax / jax": (theirs, theirs), "jaxtyped / jaxtyped": (ours, ours), "jaxtyped / jax": (ours, theirs)}
    ratios: dict[str, list[float]] = {name: [] for name in pairs}
    for _ in range(args.rounds):
        for name, (first, second) in pairs.items():
            if args.method == "calls":
                ratios[name].append(_alternated(f"{title}: {name}", first(), second(), args.calls))
                continue
            before = len(RESULTS)
            compare(f"  {name}", first(), second(), number, args.repeat, "us", record_as=f"{title}: {name}")
            ratio = RESULTS[before]["ratio"]
            assert isinstance(ratio, float)
            ratios[name].append(ratio)
    for name, values in ratios.items():
        spread = " ".join(f"{r:.2f}" for r in sorted(values))
        print(f"{name:<22} median {statistics.median(values):.3f}   sorted: {spread}")


def main() -> None:
    """Run every measurement."""
    parser = benchmark_parser(__doc__, ("grad_mlp", "per_example"))
    parser.add_argument("--rounds", type=int, default=5, help="comparisons per pair")
    parser.add_argument("--method", choices=("calls", "blocks"), default="calls", help="alternate call by call, or in blocks (side_by_side.compare)")
    parser.add_argument("--calls", type=int, default=3000, help="calls per side and comparison with --method calls")
    args = parser.parse_args()
    jax = import_jax()
    if jax is None:
        print("JAX is not installed: there is nothing to compare")
        return
    sections = set(args.only.split(","))
    if "grad_mlp" in sections:
        _pairs("jit(grad(mlp)) steady", *_grad_mlp_steps(jax), number=100, args=args)
    if "per_example" in sections:
        _pairs("per-example gradients steady", *_per_example_steps(jax), number=200, args=args)


if __name__ == "__main__":
    main()
