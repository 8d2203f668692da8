"""How far apart two runs of the same compiled program read on this machine:
``python benchmarks/noise_floor.py``.

The steady-state rows of ``core_overheads.py`` compare two libraries whose
compiled programs are the same (``tests/test_compiled_parity.py`` checks
that the MLP's gradient and the per-example gradients hold exactly JAX's
operations and give JAX's results bit for bit). A ratio of 1.15 on such a
row can be the machine, not the library. This script measures that floor:
for the ``jit(grad(mlp))`` step and the per-example gradients it runs the
same comparison ``--rounds`` times for three pairs, and prints each pair's
ratios:

- JAX against JAX (two jitted functions of the same program);
- jaxtyped against jaxtyped;
- jaxtyped against JAX.

When the JAX/JAX and jaxtyped/jaxtyped ratios spread as widely as the
jaxtyped/JAX ones, a single reading outside 1 +- that spread says nothing
about either library.

``--method`` picks how the two sides of a pair are interleaved:

- ``processes`` (the default): each side runs in a process of its own that
  imports only its library, as a user's program does; the processes take
  turns, ``--calls`` calls at a time (order swapped every turn), and the
  medians of the turns' median single-call times are compared. In one
  process, the two libraries' CPU clients each keep a thread pool, taking
  turns on the machine's cores; there a jaxtyped/JAX pair spread 1.06-1.17
  in a run where both same-library pairs read 0.99-1.02;
- ``calls``: both sides in this process, alternated call by call;
- ``blocks``: both sides in this process, ``side_by_side.compare``'s
  blocks of calls, as ``core_overheads.py`` runs them.

These are measurements, not tests: nothing asserts on them.
"""

import argparse
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from core_overheads import example_loss, mlp_loss, mlp_params, per_example_hosts
from side_by_side import RESULTS, benchmark_parser, compare, import_jax

Step = Callable[[], object]
Maker = Callable[[], Step]  # makes a new jitted function and returns one steady call of it


def _grad_mlp_maker(library: Any) -> Maker:
    """A steady ``jit(grad(loss))`` step of the MLP in ``library``
    (``jaxtyped`` or ``jax``)."""
    rng = np.random.default_rng(0)
    host_params = mlp_params(rng)
    host_x = rng.normal(size=(128, 256)).astype(np.float32)
    params = [(library.device_put(w), library.device_put(b)) for w, b in host_params]
    x = library.device_put(host_x)

    def make() -> Step:
        f = library.jit(library.grad(mlp_loss(library.numpy)))
        return lambda: library.block_until_ready(f(params, x))

    return make


def _per_example_maker(library: Any) -> Maker:
    """A steady per-example-gradients call (``core_overheads.per_example``) in ``library``."""
    host_params, host_x, host_y = per_example_hosts()
    params = {k: library.device_put(np.asarray(v)) for k, v in host_params.items()}
    x, y = library.device_put(host_x), library.device_put(host_y)

    def make() -> Step:
        f = library.jit(library.vmap(library.grad(example_loss(library.numpy)), in_axes=(None, 0, 0)))
        return lambda: library.block_until_ready(f(params, x, y))

    return make


# section: (title, maker, calls per block with --method blocks)
SECTIONS: dict[str, tuple[str, Callable[[Any], Maker], int]] = {
    "grad_mlp": ("jit(grad(mlp)) steady", _grad_mlp_maker, 100),
    "per_example": ("per-example gradients steady", _per_example_maker, 200),
}


def _import(library: str) -> Any:
    if library == "jax":
        return import_jax()
    import jaxtyped

    return jaxtyped


def _single_calls(step: Step, calls: int) -> list[int]:
    clock = time.perf_counter_ns
    times: list[int] = []
    for _ in range(calls):
        start = clock()
        step()
        times.append(clock() - start)
    return times


def _serve(library: str, section: str) -> None:
    """A worker of ``--method processes``: compile the step, say ``ready``,
    then for each line ``N`` on stdin time N single calls and print their
    median in ns; end at end of input."""
    step = SECTIONS[section][1](_import(library))()
    _single_calls(step, 200)  # compile and warm
    from jaxtyped._src.runtime import xla

    # The JAX worker must not hold a jaxtyped CPU client (and its threads) too.
    assert library == "jaxtyped" or not xla._backend_cell  # pyright: ignore[reportPrivateUsage]
    print("ready", flush=True)
    for line in sys.stdin:
        print(statistics.median(_single_calls(step, int(line))), flush=True)


class _Worker:
    """One ``_serve`` process."""

    def __init__(self, library: str, section: str) -> None:
        self._library = library
        command = [sys.executable, str(Path(__file__).resolve()), "--serve", library, "--only", section]
        self._process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def _line(self) -> str:
        assert self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            raise RuntimeError(f"noise_floor: the {self._library} worker ended (exit code {self._process.wait()})")
        return line.strip()

    def wait_ready(self) -> None:
        if self._line() != "ready":
            raise RuntimeError("noise_floor worker did not start")

    def median_ns(self, calls: int) -> float:
        assert self._process.stdin is not None
        self._process.stdin.write(f"{calls}\n")
        self._process.stdin.flush()
        return float(self._line())

    def close(self) -> None:
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._process.wait()


def _in_processes(name: str, first: str, second: str, section: str, args: argparse.Namespace, round_index: int) -> float:
    """``first``'s and ``second``'s steps, each in a worker process, taking
    turns of ``args.calls`` calls (16 turns each, order swapped every
    turn); the ratio of the medians of their turns' medians. Which worker
    starts first alternates by round: on this 2-core machine the order of
    start alone moved a same-library pair by up to 10%."""
    if round_index % 2 == 0:
        workers = (_Worker(first, section), _Worker(second, section))
    else:
        second_worker = _Worker(second, section)
        workers = (_Worker(first, section), second_worker)
    try:
        for worker in workers:
            worker.wait_ready()
        turns: tuple[list[float], list[float]] = ([], [])
        for turn in range(16):
            for side in (0, 1) if turn % 2 == 0 else (1, 0):
                turns[side].append(workers[side].median_ns(args.calls))
    finally:
        for worker in workers:
            worker.close()
    return _record(name, statistics.median(turns[0]) / 1e3, statistics.median(turns[1]) / 1e3)


def _alternated(name: str, first: Step, second: Step, calls: int) -> float:
    """Median single-call times of ``first`` and ``second`` called in turn
    (their order swapped every call) in this process; their ratio."""
    for _ in range(max(calls // 10, 20)):  # warm both (allocator, caches)
        first()
        second()
    times: tuple[list[int], list[int]] = ([], [])
    for i in range(calls):
        for side in (0, 1) if i % 2 == 0 else (1, 0):
            times[side].extend(_single_calls(first if side == 0 else second, 1))
    return _record(name, statistics.median(times[0]) / 1e3, statistics.median(times[1]) / 1e3)


def _record(name: str, first_us: float, second_us: float) -> float:
    RESULTS.append({"name": name, "unit": "us", "jaxtyped": first_us, "jax": second_us, "ratio": first_us / second_us})
    label = name.rpartition(": ")[2]
    print(f"  {label:<32} first {first_us:10.2f} us   second {second_us:10.2f} us   ratio {first_us / second_us:5.2f}")
    return first_us / second_us


def _pairs(section: str, args: argparse.Namespace) -> None:
    title, maker, number = SECTIONS[section]
    how = {
        "processes": f"one process per side, 16 turns of {args.calls} calls each",
        "calls": f"{args.calls} calls each, alternated call by call",
        "blocks": f"{args.repeat} x {number} calls each",
    }[args.method]
    print(f"== {title}: ratios of {args.rounds} interleaved comparisons ({how}) ==")
    pairs = {"jax / jax": ("jax", "jax"), "jaxtyped / jaxtyped": ("jaxtyped", "jaxtyped"), "jaxtyped / jax": ("jaxtyped", "jax")}
    makers = {} if args.method == "processes" else {library: maker(_import(library)) for library in ("jaxtyped", "jax")}
    ratios: dict[str, list[float]] = {name: [] for name in pairs}
    for round_index in range(args.rounds):
        for name, (first, second) in pairs.items():
            record_as = f"{title}: {name}"
            if args.method == "processes":
                ratios[name].append(_in_processes(record_as, first, second, section, args, round_index))
            elif args.method == "calls":
                ratios[name].append(_alternated(record_as, makers[first](), makers[second](), args.calls))
            else:
                before = len(RESULTS)
                compare(f"  {name}", makers[first](), makers[second](), number, args.repeat, "us", record_as=record_as)
                ratio = RESULTS[before]["ratio"]
                assert isinstance(ratio, float)
                ratios[name].append(ratio)
    for name, values in ratios.items():
        spread = " ".join(f"{r:.2f}" for r in sorted(values))
        print(f"{name:<22} median {statistics.median(values):.3f}   sorted: {spread}")


def main() -> None:
    """Run every measurement."""
    parser = benchmark_parser(__doc__, tuple(SECTIONS))
    parser.add_argument("--rounds", type=int, default=5, help="comparisons per pair")
    parser.add_argument("--method", choices=("processes", "calls", "blocks"), default="processes", help="how the two sides interleave (see above)")
    parser.add_argument("--calls", type=int, default=None, help="calls per turn (processes: 200) or per side (calls: 3000)")
    parser.add_argument("--serve", metavar="LIBRARY", choices=("jaxtyped", "jax"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve is not None:
        _serve(args.serve, args.only)
        return
    if args.calls is None:
        args.calls = 200 if args.method == "processes" else 3000
    if import_jax() is None:
        print("JAX is not installed: there is nothing to compare")
        return
    for section in args.only.split(","):
        _pairs(section, args)


if __name__ == "__main__":
    main()
