"""Side-by-side overheads of jaxtyped's core and JAX's: ``python benchmarks/core_overheads.py``.

Measures, interleaving the two libraries run by run and reporting medians
and the ratio jaxtyped / JAX:

- ``jit`` dispatch: a tiny jitted function, one taking 10 array arguments,
  one taking a dict of 20 arrays (steady state, cache hits; both libraries
  dispatch asynchronously, so a call is timed without waiting);
- eager per-operation latency (``sin``, ``+``, ``@`` on 4x4 float32 arrays;
  JAX's results are waited for with ``block_until_ready``), next to the
  cost of running the same operation as a one-primitive XLA program (the
  alternative eager backend);
- ``make_jaxpr`` time for chains of 100, 1000 and 10000 operations, and the
  cost per operation (it should stay flat: tracing is linear in program size);
- a 4-layer MLP (256 wide, batch 128): first-call latency of the jitted
  function (trace + lower + compile + run) and its steady-state time;
- a 1024x1024 float32 matmul under ``jit`` in GFLOP/s, beside NumPy's.

``--only dispatch,eager,trace,mlp,matmul`` runs a subset.

JAX is an optional oracle here: without it only jaxtyped's numbers print.
These are measurements, not tests: nothing asserts on them.
"""

import argparse
import importlib
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp


def _timed(fun: Callable[[], object], number: int) -> float:
    """Seconds per call of ``fun``, over ``number`` calls."""
    start = time.perf_counter()
    for _ in range(number):
        fun()
    return (time.perf_counter() - start) / number


def compare(
    name: str, ours: Callable[[], object], theirs: Callable[[], object] | None, number: int, repeat: int, unit: str
) -> None:
    """Interleave ``repeat`` timings of each and print medians and the ratio."""
    scale = {"us": 1e6, "ms": 1e3}[unit]
    ours()
    if theirs is not None:
        theirs()
    ours_times: list[float] = []
    theirs_times: list[float] = []
    for _ in range(repeat):
        ours_times.append(_timed(ours, number))
        if theirs is not None:
            theirs_times.append(_timed(theirs, number))
    mine = statistics.median(ours_times) * scale
    if theirs is None:
        print(f"{name:<34} jaxtyped {mine:10.2f} {unit}")
        return
    jax_time = statistics.median(theirs_times) * scale
    print(f"{name:<34} jaxtyped {mine:10.2f} {unit}   jax {jax_time:10.2f} {unit}   ratio {mine / jax_time:5.2f}")


def _chain(namespace: Any, n: int) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        for _ in range(n // 2):
            x = namespace.sin(x) * 2.0
        return x

    return f


def main() -> None:
    """Run every measurement."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=7, help="interleaved timings per measurement")
    parser.add_argument("--only", default="dispatch,eager,trace,mlp,matmul", help="comma-separated sections")
    args = parser.parse_args()
    sections = set(args.only.split(","))
    try:
        jax: Any = importlib.import_module("jax")
    except ImportError:
        jax = None
        print("JAX is not installed: printing jaxtyped's numbers only")

    host = np.ones((4, 4), np.float32)
    x, y = jnp.asarray(host), jnp.asarray(host)
    jx: Any = jax.numpy.asarray(host) if jax else None

    def jax_sin() -> object:
        return jax.numpy.sin(jx).block_until_ready()

    def jax_add() -> object:
        return (jx + jx).block_until_ready()

    def jax_matmul() -> object:
        return (jx @ jx).block_until_ready()

    if "dispatch" in sections:
        dispatch(jax, args.repeat)
    if "eager" in sections:
        print("== eager, per operation (4x4 float32) ==")
        one_op_sin = jt.jit(jnp.sin)
        one_op_add = jt.jit(_add)
        one_op_matmul = jt.jit(_matmul)
        for name, ours, theirs, xla_op in (
            ("sin", lambda: jnp.sin(x), jax_sin, lambda: one_op_sin(x)),
            ("add", lambda: x + y, jax_add, lambda: one_op_add(x, y)),
            ("matmul", lambda: x @ y, jax_matmul, lambda: one_op_matmul(x, y)),
        ):
            compare(name, ours, theirs if jax else None, number=2000, repeat=args.repeat, unit="us")
            compare(f"  {name} as a one-op XLA program", xla_op, None, number=2000, repeat=args.repeat, unit="us")
    if "trace" in sections:
        trace(jax, args.repeat)
    if "mlp" in sections:
        mlp(jax, args.repeat)
    if "matmul" in sections:
        matmul(jax, args.repeat)


def _add(a: Any, b: Any) -> Any:
    return a + b


def _matmul(a: Any, b: Any) -> Any:
    return a @ b


def dispatch(jax: Any, repeat: int) -> None:
    """Steady-state dispatch of small jitted functions."""
    print("== jit dispatch (cache hit, 4x4 float32 arguments) ==")
    host = np.ones((4, 4), np.float32)

    def tiny(a: Any) -> Any:
        return a + 1.0

    def ten(*xs: Any) -> Any:
        total = xs[0]
        for v in xs[1:]:
            total = total + v
        return total

    def twenty(d: dict[str, Any]) -> Any:
        return d["k0"] * d["k19"]

    ours_args = [jt.device_put(host) for _ in range(20)]
    ours_dict = {f"k{i}": ours_args[i] for i in range(20)}
    f1, f10, f20 = jt.jit(tiny), jt.jit(ten), jt.jit(twenty)
    theirs: dict[str, Callable[[], object] | None] = {"tiny": None, "ten": None, "dict": None}
    if jax is not None:
        jargs = [jax.device_put(host) for _ in range(20)]
        jdict = {f"k{i}": jargs[i] for i in range(20)}
        g1, g10, g20 = jax.jit(tiny), jax.jit(ten), jax.jit(twenty)
        theirs = {
            "tiny": lambda: g1(jargs[0]),
            "ten": lambda: g10(*jargs[:10]),
            "dict": lambda: g20(jdict),
        }
    compare("jit tiny function", lambda: f1(ours_args[0]), theirs["tiny"], 5000, repeat, "us")
    compare("jit 10 array arguments", lambda: f10(*ours_args[:10]), theirs["ten"], 5000, repeat, "us")
    compare("jit dict of 20 arrays", lambda: f20(ours_dict), theirs["dict"], 5000, repeat, "us")


def _mlp_params(rng: np.random.Generator) -> list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
    sizes = [256, 256, 256, 256, 256]
    return [
        (rng.normal(size=(m, n)).astype(np.float32) / np.sqrt(m), rng.normal(size=(n,)).astype(np.float32))
        for m, n in zip(sizes[:-1], sizes[1:])
    ]


def _mlp(namespace: Any) -> Callable[[Any, Any], Any]:
    def forward(params: Any, x: Any) -> Any:
        for w, b in params[:-1]:
            x = namespace.tanh(x @ w + b)
        w, b = params[-1]
        return x @ w + b

    return forward


def mlp(jax: Any, repeat: int) -> None:
    """First-call latency and steady state of a jitted 4-layer MLP."""
    print("== 4-layer MLP, 256 wide, batch 128 (jit) ==")
    rng = np.random.default_rng(0)
    host_params = _mlp_params(rng)
    host_x = rng.normal(size=(128, 256)).astype(np.float32)
    ours_params = [(jt.device_put(w), jt.device_put(b)) for w, b in host_params]
    ours_x = jt.device_put(host_x)

    def ours_first() -> object:
        return jt.jit(_mlp(jnp))(ours_params, ours_x).block_until_ready()  # a new function: no cache

    ours_steady_f = jt.jit(_mlp(jnp))
    theirs_first: Callable[[], object] | None = None
    theirs_steady: Callable[[], object] | None = None
    if jax is not None:
        jparams = [(jax.device_put(w), jax.device_put(b)) for w, b in host_params]
        jx = jax.device_put(host_x)
        theirs_steady_f = jax.jit(_mlp(jax.numpy))

        def theirs_first_fn() -> object:
            jax.clear_caches()
            return jax.jit(_mlp(jax.numpy))(jparams, jx).block_until_ready()

        theirs_first = theirs_first_fn
        theirs_steady = lambda: theirs_steady_f(jparams, jx).block_until_ready()  # noqa: E731

    def ours_first_uncached() -> object:
        jt.clear_caches()  # compiled programs are cached by jaxpr and module text
        return ours_first()

    compare("MLP first call (trace+compile+run)", ours_first_uncached, theirs_first, 1, repeat, "ms")
    compare(
        "MLP steady state", lambda: ours_steady_f(ours_params, ours_x).block_until_ready(), theirs_steady, 200, repeat, "us"
    )


def matmul(jax: Any, repeat: int) -> None:
    """Throughput of a jitted 1024x1024 float32 matmul, in GFLOP/s."""
    print("== 1024x1024 float32 matmul under jit ==")
    rng = np.random.default_rng(0)
    a = rng.normal(size=(1024, 1024)).astype(np.float32)
    b = rng.normal(size=(1024, 1024)).astype(np.float32)
    flops = 2 * 1024**3
    ours_f = jt.jit(_matmul)
    oa, ob = jt.device_put(a), jt.device_put(b)
    ours_f(oa, ob).block_until_ready()
    times: dict[str, list[float]] = {"jaxtyped": [], "jax": [], "numpy": []}
    jf: Any = None
    ja: Any = None
    jb: Any = None
    if jax is not None:
        jf = jax.jit(_matmul)
        ja, jb = jax.device_put(a), jax.device_put(b)
        jf(ja, jb).block_until_ready()
    for _ in range(repeat):
        times["jaxtyped"].append(_timed(lambda: ours_f(oa, ob).block_until_ready(), 10))
        if jax is not None:
            times["jax"].append(_timed(lambda: jf(ja, jb).block_until_ready(), 10))
        times["numpy"].append(_timed(lambda: a @ b, 10))
    rates = {k: flops / statistics.median(v) / 1e9 for k, v in times.items() if v}
    line = "   ".join(f"{k} {v:7.1f} GFLOP/s" for k, v in rates.items())
    print(f"{'matmul 1024x1024 f32':<34} {line}")
    if "jax" in rates:
        print(f"{'':<34} ratio jaxtyped/jax time {rates['jax'] / rates['jaxtyped']:5.2f}")


def trace(jax: Any, repeat: int) -> None:
    """make_jaxpr cost for chains of growing length."""
    print("== make_jaxpr of a chain of n operations ==")
    for n in (100, 1000, 10000):
        # A new function each call: JAX caches traces by function identity.
        def ours_trace(n: int = n) -> object:
            return jt.make_jaxpr(_chain(jnp, n))(1.0)

        def theirs_trace(n: int = n) -> object:
            return jax.make_jaxpr(_chain(jax.numpy, n))(1.0)

        number = max(1, 2000 // n)
        compare(f"make_jaxpr n={n}", ours_trace, theirs_trace if jax else None, number, repeat, "ms")
        per_op = _timed(ours_trace, number) / n * 1e6
        print(f"{'':<34} jaxtyped per operation: {per_op:.1f} us")


if __name__ == "__main__":
    main()
