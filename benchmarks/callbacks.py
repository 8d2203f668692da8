"""Side-by-side costs of host callbacks in jaxtyped and JAX: ``python benchmarks/callbacks.py``.

Measures, interleaving the two libraries run by run and reporting medians
and the ratio jaxtyped / JAX (issue 16, item 8):

- a jitted function with 10 ``debug.print(ordered=True)`` calls: the time of
  a call (dispatch; jaxtyped runs a program with callbacks to completion
  before returning, JAX may return earlier) and of a call followed by
  ``effects_barrier`` (every print done, in both libraries);
- the same with 10 unordered prints;
- a jitted ``pure_callback`` round trip (one float32[1000] through NumPy's
  ``sin``), waited for.

The programs' printed text goes to a buffer while timing. These are measurements,
not tests: nothing asserts on them.
"""

import contextlib
import io
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
from side_by_side import benchmark_parser, block, compare, import_jax


def ten_prints(lib: Any, ordered: bool) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        for i in range(10):
            lib.debug.print("step {} x={}", i, x, ordered=ordered)
            x = x + 1.0
        return x

    jitted: Callable[[Any], Any] = lib.jit(f)
    return jitted


def sin_callback(lib: Any) -> Callable[[Any], Any]:
    spec = lib.ShapeDtypeStruct((1000,), lib.numpy.float32)

    def host_sin(v: Any) -> Any:
        return np.sin(np.asarray(v))

    def f(x: Any) -> Any:
        return lib.pure_callback(host_sin, spec, x)

    jitted: Callable[[Any], Any] = lib.jit(f)
    return jitted


def main() -> None:
    """Run every measurement."""
    args = benchmark_parser(__doc__).parse_args()
    jax = import_jax()
    libs: list[Any] = [jt] if jax is None else [jt, jax]
    calls: dict[str, list[Callable[[], object]]] = {}
    for lib in libs:
        x = lib.numpy.float32(0.0)
        ordered, unordered = ten_prints(lib, True), ten_prints(lib, False)
        vector = lib.numpy.arange(1000.0, dtype=lib.numpy.float32)
        sin = sin_callback(lib)
        np.testing.assert_allclose(np.asarray(sin(vector)), np.sin(np.arange(1000.0, dtype=np.float32)), rtol=1e-6)

        def call(f: Callable[[Any], Any], x: Any = x) -> Callable[[], object]:
            return lambda: f(x)

        def then_barrier(f: Callable[[Any], Any], lib: Any = lib, x: Any = x) -> Callable[[], object]:
            return lambda: (f(x), lib.effects_barrier())

        def waited(f: Callable[[Any], Any], v: Any = vector) -> Callable[[], object]:
            return lambda: block(f(v))

        calls.setdefault("10 ordered prints: call", []).append(call(ordered))
        calls.setdefault("10 ordered prints: call + barrier", []).append(then_barrier(ordered))
        calls.setdefault("10 unordered prints: call + barrier", []).append(then_barrier(unordered))
        calls.setdefault("pure_callback sin f32[1000]", []).append(waited(sin))
    for name, fns in calls.items():
        # The programs' prints (compiled callbacks' too) and compare's line
        # go to a buffer; its last line is the result.
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            compare(name, fns[0], fns[1] if len(fns) > 1 else None, number=200, repeat=args.repeat, unit="us")
            for lib in libs:
                lib.effects_barrier()
        result = [line for line in text.getvalue().splitlines() if line.startswith(name)]
        print(result[-1])

if __name__ == "__main__":
    main()
