"""Where a steady jitted call's time goes, jaxtyped beside JAX:
``python benchmarks/steady_call_phases.py``.

For two steady-state calls of ``core_overheads.py`` (the tiny jitted
function, and the per-example gradients ``jit(vmap(grad(loss), in_axes=(None,
0, 0)))`` over a batch of 128), each call is split into its *dispatch* (until
the call returns its futures) and its *wait* (``block_until_ready`` of the
result), timed call by call with ``perf_counter_ns``; the libraries alternate
round by round and the medians print. Beside them, each library's compiled
program is launched straight through jaxlib (``execute_sharded`` with the
result handlers, then one batched wait): the program's own cost, without
either library's dispatch. When the two "launch" rows agree and the "call"
rows do not, the difference is dispatch (Python here, C++ in JAX), not the
compiled program.

The script also prints the compile options that differ between JAX's
compilation of the same function and jaxtyped's.

It reaches into both libraries' internals (the compiled executables); these
are measurements, not tests: nothing asserts on them.
"""

import importlib
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src.core.array_impl import ArrayImpl, device_buffer
from jaxtyped._src.runtime import xla
from core_overheads import example_loss, per_example_hosts
from side_by_side import RESULTS, benchmark_parser, import_jax

Phases = Callable[[], tuple[int, int]]  # one call: (dispatch ns, wait ns)


def _phases(call: Callable[[], object], wait: Callable[[object], object]) -> Phases:
    def run() -> tuple[int, int]:
        start = time.perf_counter_ns()
        out = call()
        returned = time.perf_counter_ns()
        wait(out)
        return returned - start, time.perf_counter_ns() - returned

    return run


def _launch(executable: Any, buffers: list[object], handlers: list[object]) -> Phases:
    """A program launched straight through jaxlib (either library's)."""
    import jaxlib.xla_client as xc

    def run() -> tuple[int, int]:
        start = time.perf_counter_ns()
        outs: list[object] = executable.execute_sharded(buffers).consume_with_handlers(handlers)
        returned = time.perf_counter_ns()
        xc.batched_block_until_ready(outs)
        return returned - start, time.perf_counter_ns() - returned

    return run


def _our_buffers(tree: object) -> list[object]:
    """The device buffers of a tree of jaxtyped's concrete arrays."""
    leaves: list[Any] = jt.tree_util.tree_leaves(tree)
    return [device_buffer(leaf) for leaf in leaves if isinstance(leaf, ArrayImpl)]


def _report(title: str, rows: dict[str, Phases], rounds: int, calls: int) -> None:
    for row in rows.values():
        for _ in range(20):
            row()
    dispatch: dict[str, list[int]] = {name: [] for name in rows}
    total: dict[str, list[int]] = {name: [] for name in rows}
    names = list(rows)
    for r in range(rounds):
        for name in names if r % 2 == 0 else reversed(names):
            for _ in range(calls):
                d, w = rows[name]()
                dispatch[name].append(d)
                total[name].append(d + w)
    print(f"== {title} (medians of {rounds * calls} calls, us) ==")
    for name in names:
        dispatch_us, whole_us = statistics.median(dispatch[name]) / 1e3, statistics.median(total[name]) / 1e3
        print(f"{name:<34} dispatch {dispatch_us:8.2f}   wait {whole_us - dispatch_us:8.2f}   whole call {whole_us:8.2f}")
        RESULTS.append({"name": f"{title}: {name}", "unit": "us", "dispatch": dispatch_us, "whole": whole_us})
    for ours, theirs in (("jaxtyped call", "jax call"), ("jaxtyped launch", "jax launch")):
        if ours in total and theirs in total:
            ratio = statistics.median(total[ours]) / statistics.median(total[theirs])
            print(f"  {ours} / {theirs}: {ratio:.3f}")


def _handlers(executable: xla.Executable) -> list[object]:
    launcher = xla.launcher(executable)
    assert launcher is not None
    return launcher.handlers


def _our_program(jitted: Any, *args: Any) -> tuple[Any, list[object]]:
    """jaxtyped's compiled program of ``jitted`` for ``args`` and its result
    handlers (the entry the dispatch memo runs)."""
    (entry,) = jitted._cache.values()
    assert not entry.const_buffers and entry.kept is None
    return entry.executable._loaded, _handlers(entry.executable)


def per_example(jax: Any, rounds: int) -> None:
    """The per-example gradients of ``core_overheads.per_example``."""
    params, x, y = per_example_hosts()
    op = {k: jt.device_put(np.asarray(v)) for k, v in params.items()}
    ox, oy = jt.device_put(x), jt.device_put(y)
    ours = jt.jit(jt.vmap(jt.grad(example_loss(jnp)), in_axes=(None, 0, 0)))
    ours(op, ox, oy)
    program, handlers = _our_program(ours, op, ox, oy)
    our_buffers = _our_buffers((op, ox, oy))
    rows: dict[str, Phases] = {
        "jaxtyped call": _phases(lambda: ours(op, ox, oy), jt.block_until_ready),
        "jaxtyped launch": _launch(program, our_buffers, handlers),
    }
    if jax is not None:
        jp = {k: jax.device_put(np.asarray(v)) for k, v in params.items()}
        jx, jy = jax.device_put(x), jax.device_put(y)
        theirs = jax.jit(jax.vmap(jax.grad(example_loss(jax.numpy)), in_axes=(None, 0, 0)))
        theirs(jp, jx, jy)
        their_program = theirs.lower(jp, jx, jy).compile()._executable.xla_executable
        rows["jax call"] = _phases(lambda: theirs(jp, jx, jy), jax.block_until_ready)
        # Our handlers build arrays of the same avals on JAX's client's device 0.
        rows["jax launch"] = _launch(their_program, jax.tree_util.tree_leaves((jp, jx, jy)), handlers)
    _report("per-example gradients, batch 128", rows, rounds, 100)


def tiny(jax: Any, rounds: int) -> None:
    """The tiny function of ``core_overheads.dispatch``."""
    host = np.ones((4, 4), np.float32)

    def fun(a: Any) -> Any:
        return a + 1.0

    ox = jt.device_put(host)
    ours = jt.jit(fun)
    ours(ox)
    program, handlers = _our_program(ours, ox)
    rows: dict[str, Phases] = {
        "jaxtyped call": _phases(lambda: ours(ox), jt.block_until_ready),
        "jaxtyped launch": _launch(program, _our_buffers(ox), handlers),
    }
    if jax is not None:
        jx = jax.device_put(host)
        theirs = jax.jit(fun)
        theirs(jx)
        rows["jax call"] = _phases(lambda: theirs(jx), jax.block_until_ready)
    _report("tiny jitted function", rows, rounds, 2000)


def compile_options(jax: Any) -> None:
    """The compile options JAX passes that differ from jaxtyped's (the
    defaults of ``CompileOptions``)."""
    import jaxlib.xla_client as xc

    compiler: Any = importlib.import_module("jax._src.compiler")
    captured: list[Any] = []
    original = compiler.backend_compile_and_load

    def spy(*args: Any, **kwargs: Any) -> Any:
        captured.append(args[3])
        return original(*args, **kwargs)

    compiler.backend_compile_and_load = spy
    try:
        jax.jit(_triple)(jax.numpy.ones(3))
    finally:
        compiler.backend_compile_and_load = original
    print("== compile options: JAX's that differ from jaxtyped's ==")
    theirs, ours = _option_fields(captured[0]), _option_fields(xc.CompileOptions())
    for name in sorted(set(theirs) | set(ours)):
        if theirs.get(name) != ours.get(name):
            print(f"{name:<55} jax {theirs.get(name)!s:<12} jaxtyped {ours.get(name)}")


def _triple(a: Any) -> Any:
    return a * 3.0


def _option_fields(options: Any) -> dict[str, str]:
    fields: dict[str, str] = {}
    build = options.executable_build_options
    for prefix, obj in (("", options), ("build.", build)):
        for name in dir(obj):
            value = getattr(obj, name, None) if not name.startswith("_") and name != "debug_options" else None
            if value is not None and not callable(value):
                fields[prefix + name] = str(value)
    for line in str(build.debug_options).splitlines():
        name, sep, value = line.partition(":")
        if sep:
            fields.setdefault("debug." + name.strip(), value.strip())
    return fields


def main() -> None:
    """Run every measurement."""
    parser = benchmark_parser(__doc__, ("tiny", "per_example", "options"))
    args = parser.parse_args()
    sections = set(args.only.split(","))
    jax = import_jax()
    rounds = max(args.repeat, 2)
    if "tiny" in sections:
        tiny(jax, rounds)
    if "per_example" in sections:
        per_example(jax, rounds)
    if "options" in sections and jax is not None:
        compile_options(jax)


if __name__ == "__main__":
    main()
