"""What the side-by-side benchmarks share: jaxtyped timed beside JAX,
interleaving the two libraries run by run, medians and the ratio
jaxtyped / JAX.

- :func:`timed` and :func:`compare`: the timing loop;
- :func:`import_jax`: JAX, an optional oracle (``None`` where it is not
  installed: then only jaxtyped's numbers print);
- :func:`benchmark_parser`: the command line the scripts share
  (``--repeat``, ``--json PATH`` to save every measurement, and ``--only``
  for a script of several cases);
- :func:`compare_jitted`: one function under ``jit`` in both libraries,
  checked against JAX, then timed as its first call (trace + lower +
  compile + run, caches cleared) and as its compiled steady state.

The scripts run as ``python benchmarks/<name>.py``, so this module is
imported from the scripts' own folder.
"""

import argparse
import atexit
import importlib
import json
import platform
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import jaxtyped as jt


def timed(fun: Callable[[], object], number: int) -> float:
    """Seconds per call of ``fun``, over ``number`` calls."""
    start = time.perf_counter()
    for _ in range(number):
        fun()
    return (time.perf_counter() - start) / number


# Every measurement of this run, for ``--json`` (``tools/plot_benchmarks.py`` reads the file).
RESULTS: list[dict[str, object]] = []


def compare(
    name: str,
    ours: Callable[[], object],
    theirs: Callable[[], object] | None,
    number: int,
    repeat: int,
    unit: str,
    *,
    record_as: str | None = None,
) -> None:
    """Interleave ``repeat`` timings of each and print medians and the ratio
    (recorded under ``record_as``, or ``name``, for ``--json``)."""
    scale = {"us": 1e6, "ms": 1e3}[unit]
    ours()
    if theirs is not None:
        theirs()
    ours_times: list[float] = []
    theirs_times: list[float] = []
    for _ in range(repeat):
        ours_times.append(timed(ours, number))
        if theirs is not None:
            theirs_times.append(timed(theirs, number))
    mine = statistics.median(ours_times) * scale
    jax_time = statistics.median(theirs_times) * scale if theirs is not None else None
    RESULTS.append({
        "name": (record_as or name).strip(),
        "unit": unit,
        "jaxtyped": mine,
        "jax": jax_time,
        "ratio": mine / jax_time if jax_time else None,
        "jaxtyped_samples": [t * scale for t in ours_times],
        "jax_samples": [t * scale for t in theirs_times],
    })
    if jax_time is None:
        print(f"{name:<34} jaxtyped {mine:10.2f} {unit}")
        return
    print(f"{name:<34} jaxtyped {mine:10.2f} {unit}   jax {jax_time:10.2f} {unit}   ratio {mine / jax_time:5.2f}")


def import_jax() -> Any:
    """The ``jax`` module, or ``None`` (saying so) where it is not installed."""
    try:
        return importlib.import_module("jax")
    except ImportError:
        print("JAX is not installed: printing jaxtyped's numbers only")
        return None


def benchmark_parser(description: str | None, cases: Sequence[str] = ()) -> argparse.ArgumentParser:
    """A parser with ``--repeat`` (interleaved timings per measurement) and,
    where ``cases`` are given, ``--only`` (a comma-separated subset of them,
    all by default)."""
    parser = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7, help="interleaved timings per measurement")
    parser.add_argument("--json", metavar="PATH", action=_SaveJsonAtExit, default=None, help="also write every measurement to PATH as JSON")
    if cases:
        parser.add_argument("--only", default=",".join(cases), help="comma-separated subset of " + ",".join(cases))
    return parser


class _SaveJsonAtExit(argparse.Action):
    """``--json PATH``: write the measurements to PATH when the script ends,
    so that every script sharing the parser saves them."""

    def __call__(
        self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: Any, option_string: str | None = None
    ) -> None:
        setattr(namespace, self.dest, values)
        atexit.register(write_json, str(values))


def write_json(path: str) -> None:
    """Write this run's measurements (the script, the machine, the versions
    and every :func:`compare`) to ``path``."""
    jax = sys.modules.get("jax")
    document = {
        "script": sys.argv[0],
        "argv": sys.argv[1:],
        "machine": platform.machine(),
        "python": platform.python_version(),
        "jaxtyped": getattr(jt, "__version__", None),
        "jax": getattr(jax, "__version__", None),
        "results": RESULTS,
    }
    with open(path, "w") as file:
        json.dump(document, file, indent=1)


def block(value: object) -> None:
    """Wait for an array, or for each array of a tuple (either library's)."""
    leaves: list[Any] = list(value) if isinstance(value, tuple) else [value]  # pyright: ignore[reportUnknownArgumentType]  # either library's arrays
    for leaf in leaves:
        leaf.block_until_ready()


Agree = Callable[[np.ndarray[Any, Any], np.ndarray[Any, Any]], bool]  # (ours, JAX's) -> close enough


def compare_jitted(
    jax: Any,
    title: str,
    make: Callable[[Any], Callable[..., Any]],
    hosts: Sequence[np.ndarray[Any, Any]],
    agree: Agree,
    *,
    repeat: int,
    number: int,
    steady_unit: str = "ms",
    clear_ours: Callable[[], object] = jt.clear_caches,
) -> None:
    """Print ``== title ==``, then time ``make(library)`` under ``jit`` on
    ``hosts`` (put on each library's device) in ``jaxtyped`` and in ``jax``:
    its first call (caches cleared by ``clear_ours`` and
    ``jax.clear_caches``, a new function each time) in ms, and its compiled
    steady state (``number`` calls per timing) in ``steady_unit``.

    ``make`` is given the library module (``jaxtyped`` or ``jax``) and
    returns a new function. Before anything is timed, every output leaf of
    ours must ``agree`` with JAX's: timing a wrong result would be
    meaningless.
    """
    ours_args = tuple(jt.device_put(h) for h in hosts)
    ours_steady: Callable[..., Any] = jt.jit(make(jt))

    def ours_first() -> None:
        clear_ours()
        block(jt.jit(make(jt))(*ours_args))

    def ours_steady_run() -> None:
        block(ours_steady(*ours_args))

    theirs_first: Callable[[], object] | None = None
    theirs_steady: Callable[[], object] | None = None
    if jax is not None:
        jax_args = tuple(jax.device_put(h) for h in hosts)
        jax_steady = jax.jit(make(jax))
        expected: list[Any] = jax.tree_util.tree_leaves(jax_steady(*jax_args))
        ours: object = ours_steady(*ours_args)  # object: tree_leaves's overloads are ambiguous for Any
        got = jt.tree_util.tree_leaves(ours)
        for g, e in zip(got, expected, strict=True):
            assert agree(np.asarray(g), np.asarray(e)), title

        def theirs_first_run() -> None:
            jax.clear_caches()
            block(jax.jit(make(jax))(*jax_args))

        def theirs_steady_run() -> None:
            block(jax_steady(*jax_args))

        theirs_first, theirs_steady = theirs_first_run, theirs_steady_run
    print(f"== {title} ==")
    compare("first call (trace+compile+run)", ours_first, theirs_first, 1, repeat, "ms", record_as=f"{title}: first call")
    compare("compiled steady state", ours_steady_run, theirs_steady, number, repeat, steady_unit, record_as=f"{title}: steady state")
