"""Side-by-side costs of mutable array references in jaxtyped and JAX: ``python benchmarks/refs.py``.

Measures, interleaving the two libraries run by run and reporting medians
and the ratio jaxtyped / JAX (issue 16, item 8):

- a jitted in-place update of a 1M-element float32 ref
  (``x_ref[...] = sin(x_ref[...])``), steady state, waited for; before
  timing, each library's buffer address is checked to stay the same over
  calls (the update reuses the ref's buffer: no extra copy of 1M elements);
- the same with the ref closed over instead of passed;
- the seed's ``foreach`` (a scan whose body accumulates into a closed-over
  ref) over 10k elements, eagerly (a fresh loop each call) and inside
  ``jit``;
- an eager full read ``x_ref[...]`` of the 1M-element ref;
- peak memory of the jitted in-place update (``--memory``, on by default):
  each library in a fresh process makes the 1M-element float32 ref (4 MB),
  compiles and runs the update once, resets the process's RSS high-water
  mark (``/proc/self/clear_refs``), runs 20 more updates and reports the
  high-water mark's rise over the RSS before them. An update in place
  needs no new 4 MB buffer; as a control, the same update written as a
  jitted function of an array (``x = sin(x)``, not donated) is measured
  too, and shows the cost of one copy.

These are measurements, not tests: nothing asserts on them.
"""

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

import jaxtyped as jt
from side_by_side import benchmark_parser, compare, import_jax

F = TypeVar("F", bound=Callable[..., Any])


def typed(decorator: Any) -> Callable[[F], F]:
    """A library's decorator (jit, ...) as the checkers see it: signature-preserving."""
    return cast(Callable[[F], F], decorator)


N = 1_000_000
M = 10_000


def foreach(lib: Any, *args: Any) -> Callable[[Callable[..., Any]], Any]:
    def decorator(body: Callable[..., Any]) -> Any:
        def step(_: None, elts: Any) -> tuple[None, Any]:
            return None, body(*elts)

        return lib.lax.scan(step, None, args)[1]

    return decorator


def cases(lib: Any) -> dict[str, Callable[[], object]]:
    jnp = lib.numpy

    @typed(lib.jit)
    def sin_inplace(x_ref: Any) -> None:
        x_ref[...] = jnp.sin(x_ref[...])

    x_ref = lib.new_ref(jnp.arange(N, dtype=jnp.float32) / N)
    before = x_ref.unsafe_buffer_pointer()
    for _ in range(3):
        sin_inplace(x_ref)
    same = x_ref.unsafe_buffer_pointer() == before
    print(f"{lib.__name__}: 1M-element ref updated in place over calls: {same}")

    closed = lib.new_ref(jnp.arange(N, dtype=jnp.float32) / N)

    @typed(lib.jit)
    def sin_closed() -> None:
        closed[...] = jnp.sin(closed[...])

    total = lib.new_ref(0)
    xs = jnp.arange(M, dtype=jnp.int32)

    def run_foreach() -> object:
        @typed(foreach(lib, xs))
        def ys(x: Any) -> Any:
            total[...] += x
            return x * 2

        return ys

    jitted_foreach = lib.jit(run_foreach)
    np.testing.assert_array_equal(np.asarray(run_foreach()), np.arange(M) * 2)

    def wait(value: Any) -> None:
        value.block_until_ready()

    return {
        "jit in-place sin, 1M ref argument": lambda: [sin_inplace(x_ref), x_ref[0].block_until_ready()],
        "jit in-place sin, 1M ref closed over": lambda: [sin_closed(), closed[0].block_until_ready()],
        "foreach 10k, eager": lambda: wait(run_foreach()),
        "foreach 10k, jit": lambda: wait(jitted_foreach()),
        "eager read x_ref[...] of 1M": lambda: wait(x_ref[...]),
    }


def _rss_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"no {field} in /proc/self/status")


def memory_child(lib_name: str, variant: str) -> None:
    """In this (fresh) process: the RSS high-water rise, in KiB, of 20
    jitted updates of a 1M-element float32 ref (``variant`` "ref") or of
    the same update as a function of an array ("copy"), printed alone."""
    lib: Any = jt if lib_name == "jaxtyped" else import_jax()
    jnp = lib.numpy
    if variant in {"ref", "ref-eager-read"}:

        @typed(lib.jit)
        def sin_inplace(x_ref: Any) -> None:
            x_ref[...] = jnp.sin(x_ref[...])

        @typed(lib.jit)
        def first(x_ref: Any) -> Any:
            return x_ref[0]

        x_ref = lib.new_ref(jnp.arange(N, dtype=jnp.float32) / N)

        def step() -> None:
            sin_inplace(x_ref)
            # Waited for through a jitted read ("ref") or an eager one.
            (first(x_ref) if variant == "ref" else x_ref[0]).block_until_ready()

    else:
        sin = lib.jit(jnp.sin)
        box = [jnp.arange(N, dtype=jnp.float32) / N]

        def step() -> None:
            box[0] = sin(box[0])
            box[0].block_until_ready()

    step()
    step()
    Path("/proc/self/clear_refs").write_text("5")  # reset VmHWM to the current RSS
    before = _rss_kib("VmRSS")
    for _ in range(20):
        step()
    print(_rss_kib("VmHWM") - before)


def measure_memory() -> None:
    """Run :func:`memory_child` for each library and variant in its own process."""
    print("peak RSS rise over 20 jitted updates of a 1M-element f32 ref (4096 KiB = one copy):")
    variants = (
        ("ref", "jit in-place sin, 1M ref argument"),
        ("ref-eager-read", "the same, then an eager read x_ref[0]"),
        ("copy", "control: jit sin of a 1M array (a new buffer)"),
    )
    for variant, what in variants:
        row: list[str] = []
        for lib_name in ("jaxtyped", "jax"):
            done = subprocess.run(
                [sys.executable, __file__, "--memory-child", lib_name, variant], capture_output=True, text=True, check=True
            )
            row.append(f"{lib_name} {int(done.stdout.split()[-1]):6d} KiB")
        print(f"  {what:48s} " + "   ".join(row))


def main() -> None:
    """Run every measurement."""
    parser = benchmark_parser(__doc__)
    parser.add_argument("--memory-child", nargs=2, metavar=("LIB", "VARIANT"), help=argparse_hidden())
    parser.add_argument("--no-memory", action="store_true", help="skip the peak-memory measurement")
    args = parser.parse_args()
    if args.memory_child:
        memory_child(*args.memory_child)
        return
    jax = import_jax()
    ours = cases(jt)
    theirs = cases(jax) if jax is not None else None
    for name, fn in ours.items():
        compare(name, fn, theirs[name] if theirs is not None else None, number=20, repeat=args.repeat, unit="ms")
    if not args.no_memory and jax is not None:
        measure_memory()


def argparse_hidden() -> str:
    """argparse's marker for an option left out of ``--help``."""
    import argparse

    return argparse.SUPPRESS


if __name__ == "__main__":
    main()
