"""Side-by-side overheads of jaxtyped's core and JAX's: ``python benchmarks/core_overheads.py``.

Measures, interleaving the two libraries run by run and reporting medians
and the ratio jaxtyped / JAX:

- ``jit`` dispatch: a tiny jitted function, one taking 10 array arguments,
  one taking a dict of 20 arrays (steady state, cache hits; both libraries
  dispatch asynchronously, so a call is timed without waiting); the tiny
  function and a parameters dict with a new array on every call (arrays
  put one by one, as a batch put on the device at each step); an array and
  a Python float (a constant such as a learning rate); the tiny function
  on a NumPy array (transferred by the call); a function with a static
  argument, one donating its argument (fed back its result), and one
  taking a registered dataclass;
- eager per-operation latency (``sin``, ``+``, ``@`` on 4x4 float32 arrays,
  ``@`` of 16x16 ones, ``jnp.sum`` of a 4x4 array, the indexing reads
  ``v[3]`` and ``v[1:4]`` of an 8-vector; JAX's results are waited for
  with ``block_until_ready``), next to the cost of running the first three
  as a one-primitive XLA program (the alternative eager backend);
- ``make_jaxpr`` time for chains of 100, 1000 and 10000 operations, and the
  cost per operation (it should stay flat: tracing is linear in program size);
- a 4-layer MLP (256 wide, batch 128): first-call latency of the jitted
  function (trace + lower + compile + run) and its steady-state time;
- a 1024x1024 float32 matmul under ``jit`` in GFLOP/s, beside NumPy's;
- reverse mode: ``jit(grad(loss))`` of the same MLP (first call and steady
  state); per-example gradients ``jit(vmap(grad(loss), in_axes=(None, 0,
  0)))`` of a small model over a batch of 128, and the same eagerly (no
  ``jit``) over a batch of 16; ``make_jaxpr(grad(chain))`` for chains of 100
  and 1000 elementwise operations, also per operation. Each is checked
  against JAX (``np.allclose``) before it is timed;
- a training loop: the MLP's jitted SGD step (``value_and_grad`` and a
  ``tree_map`` update) fed back its own parameters, on a host batch put
  on the device at every step (8 batches, cycled), waiting for the loss;
- control flow: a tanh RNN written with ``lax.scan`` (hidden 128, input 32,
  batch 16, 100 steps): ``jit(value_and_grad(loss))`` first call and steady
  state, and the forward ``jit(loss)``; the compile time (trace + lower +
  compile, caches cleared) of a scan with a small body over 10 and 1000
  steps, and over 1000 steps with ``unroll=10``, beside the size of the
  lowered module text (a loop, not the unrolled steps, so 1000 steps cost
  what 10 do).

``--only dispatch,eager,trace,mlp,matmul,grad_mlp,train_step,per_example,grad_trace,scan_rnn,scan_compile``
runs a subset (the default is all of them).

JAX is an optional oracle here: without it only jaxtyped's numbers print.
These are measurements, not tests: nothing asserts on them.
"""

import dataclasses
import itertools
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from side_by_side import benchmark_parser, compare, import_jax, timed


SECTIONS = (
    "dispatch", "eager", "trace", "mlp", "matmul", "grad_mlp", "train_step", "per_example", "grad_trace", "scan_rnn",
    "scan_compile",
)


def _chain(namespace: Any, n: int) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        for _ in range(n // 2):
            x = namespace.sin(x) * 2.0
        return x

    return f


def main() -> None:
    """Run every measurement."""
    parser = benchmark_parser(__doc__)
    parser.add_argument("--only", default=",".join(SECTIONS), help="comma-separated sections")
    args = parser.parse_args()
    sections = set(args.only.split(","))
    unknown = sections - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections {sorted(unknown)}; choose from {','.join(SECTIONS)}")
    jax = import_jax()

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
        eager_more(jax, args.repeat)
    if "trace" in sections:
        trace(jax, args.repeat)
    if "mlp" in sections:
        mlp(jax, args.repeat)
    if "matmul" in sections:
        matmul(jax, args.repeat)
    if "grad_mlp" in sections:
        grad_mlp(jax, args.repeat)
    if "train_step" in sections:
        train_step(jax, args.repeat)
    if "per_example" in sections:
        per_example(jax, args.repeat)
    if "grad_trace" in sections:
        grad_trace(jax, args.repeat)
    if "scan_rnn" in sections:
        scan_rnn(jax, args.repeat)
    if "scan_compile" in sections:
        scan_compile(jax, args.repeat)


def _add(a: Any, b: Any) -> Any:
    return a + b


def _matmul(a: Any, b: Any) -> Any:
    return a @ b


def eager_more(jax: Any, repeat: int) -> None:
    """Eager latency of a 16x16 product, a reduction and indexing reads."""
    square = np.ones((16, 16), np.float32)
    small = np.ones((4, 4), np.float32)
    vector = np.arange(8, dtype=np.float32)
    m, s, v = jnp.asarray(square), jnp.asarray(small), jnp.asarray(vector)
    theirs: dict[str, Callable[[], object] | None] = {"matmul": None, "sum": None, "index": None, "slice": None}
    if jax is not None:
        jm, js, jv = jax.numpy.asarray(square), jax.numpy.asarray(small), jax.numpy.asarray(vector)
        theirs = {
            "matmul": lambda: (jm @ jm).block_until_ready(),
            "sum": lambda: jax.numpy.sum(js).block_until_ready(),
            "index": lambda: jv[3].block_until_ready(),
            "slice": lambda: jv[1:4].block_until_ready(),
        }
    compare("matmul 16x16", lambda: m @ m, theirs["matmul"], 2000, repeat, "us")
    compare("sum (4x4)", lambda: jnp.sum(s), theirs["sum"], 2000, repeat, "us")
    compare("index v[3]", lambda: v[3], theirs["index"], 2000, repeat, "us")
    compare("slice v[1:4]", lambda: v[1:4], theirs["slice"], 2000, repeat, "us")


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

    def affine(params: dict[str, Any], x: Any) -> Any:
        return params["w"] * x + params["b"]

    def scaled(x: Any, s: Any) -> Any:
        return x * s

    ours_args = [jt.device_put(host) for _ in range(20)]
    ours_dict = {f"k{i}": ours_args[i] for i in range(20)}
    # A fresh argument on every call, as a batch put on the device at each
    # step: arrays put one by one (each has its own aval object), cycled.
    ours_fresh = itertools.cycle([jt.device_put(host) for _ in range(1000)])
    ours_params = {"w": ours_args[0], "b": ours_args[1]}
    f1, f10, f20, faffine, fscaled = jt.jit(tiny), jt.jit(ten), jt.jit(twenty), jt.jit(affine), jt.jit(scaled)
    names = ("tiny", "ten", "dict", "fresh", "batch", "scalar", "numpy")
    theirs: dict[str, Callable[[], object] | None] = dict.fromkeys(names)
    if jax is not None:
        jargs = [jax.device_put(host) for _ in range(20)]
        jdict = {f"k{i}": jargs[i] for i in range(20)}
        jfresh = itertools.cycle([jax.device_put(host) for _ in range(1000)])
        jparams = {"w": jargs[0], "b": jargs[1]}
        g1, g10, g20, gaffine, gscaled = jax.jit(tiny), jax.jit(ten), jax.jit(twenty), jax.jit(affine), jax.jit(scaled)
        theirs = {
            "tiny": lambda: g1(jargs[0]),
            "ten": lambda: g10(*jargs[:10]),
            "dict": lambda: g20(jdict),
            "fresh": lambda: g1(next(jfresh)),
            "batch": lambda: gaffine(jparams, next(jfresh)),
            "scalar": lambda: gscaled(jargs[0], 2.0),
            "numpy": lambda: g1(host),
        }
    compare("jit tiny function", lambda: f1(ours_args[0]), theirs["tiny"], 5000, repeat, "us")
    compare("jit 10 array arguments", lambda: f10(*ours_args[:10]), theirs["ten"], 5000, repeat, "us")
    compare("jit dict of 20 arrays", lambda: f20(ours_dict), theirs["dict"], 5000, repeat, "us")
    compare("jit tiny, a fresh array each call", lambda: f1(next(ours_fresh)), theirs["fresh"], 5000, repeat, "us")
    compare("jit params dict + fresh batch", lambda: faffine(ours_params, next(ours_fresh)), theirs["batch"], 5000, repeat, "us")
    compare("jit array and a Python float", lambda: fscaled(ours_args[0], 2.0), theirs["scalar"], 5000, repeat, "us")
    compare("jit tiny on a NumPy array", lambda: f1(host), theirs["numpy"], 5000, repeat, "us")
    # jit(f)(x) written inline: a new jitted object every call, the traces kept by function.
    theirs_inline = (lambda: jax.jit(tiny)(jargs[0])) if jax is not None else None
    compare("jit(f)(x) written inline", lambda: jt.jit(tiny)(ours_args[0]), theirs_inline, 1000, repeat, "us")
    dispatch_options(jax, repeat)


@dataclasses.dataclass(frozen=True)
class _Affine:
    """A parameters dataclass, registered as a pytree node in each library."""

    w: Any
    b: Any


def _affine_apply(layer: _Affine, x: Any) -> Any:
    return layer.w * x + layer.b


def _power(x: Any, k: int) -> Any:
    return x**k


def _sgd(p: Any, g: Any) -> Any:
    return p - 0.1 * g


def _option_calls(library: Any) -> dict[str, Callable[[], object]]:
    """Steady calls, in ``library`` (``jaxtyped`` or ``jax``), of a jitted
    function with a static argument, one donating its argument (fed back
    its result, as a training loop's state) and one taking a registered
    dataclass, on 4x4 float32 arrays."""
    host = np.ones((4, 4), np.float32)
    library.tree_util.register_dataclass(_Affine, data_fields=["w", "b"], meta_fields=[])
    x = library.device_put(host)
    static, donate, apply = (
        library.jit(_power, static_argnums=1), library.jit(_sgd, donate_argnums=0), library.jit(_affine_apply)
    )  # fmt: skip
    layer = _Affine(library.device_put(host), library.device_put(host))
    state: list[Any] = [library.device_put(host)]

    def donating() -> object:
        state[0] = donate(state[0], x)
        return state[0]

    return {"static": lambda: static(x, 3), "donate": donating, "layer": lambda: apply(layer, x)}


def dispatch_options(jax: Any, repeat: int) -> None:
    """Dispatch of jitted functions with a static argument, a donated
    argument and a registered dataclass argument (:func:`_option_calls`)."""
    ours = _option_calls(jt)
    theirs: dict[str, Callable[[], object] | None] = dict(_option_calls(jax)) if jax is not None else dict.fromkeys(ours)
    compare("jit with a static argument", ours["static"], theirs["static"], 5000, repeat, "us")
    compare("jit donating its argument", ours["donate"], theirs["donate"], 5000, repeat, "us")
    compare("jit on a registered dataclass", ours["layer"], theirs["layer"], 5000, repeat, "us")


def mlp_params(rng: np.random.Generator) -> list[tuple[np.ndarray[Any, Any], np.ndarray[Any, Any]]]:
    """The MLP's host parameters: five 256x256 layers' ``(w, b)``."""
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
    host_params = mlp_params(rng)
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
    for round_ in range(repeat):
        # NumPy's BLAS threads spin for a while after a product and slow
        # whatever runs next (measured: 11.3 ms instead of 6.7): NumPy runs
        # first, then a pause, and the two libraries alternate their order.
        times["numpy"].append(timed(lambda: a @ b, 10))
        time.sleep(0.2)
        order = ["jaxtyped", "jax"] if round_ % 2 == 0 else ["jax", "jaxtyped"]
        for name in order:
            if name == "jaxtyped":
                times["jaxtyped"].append(timed(lambda: ours_f(oa, ob).block_until_ready(), 10))
            elif jax is not None:
                times["jax"].append(timed(lambda: jf(ja, jb).block_until_ready(), 10))
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
        per_op = timed(ours_trace, number) / n * 1e6
        print(f"{'':<34} jaxtyped per operation: {per_op:.1f} us")


# === reverse mode ===


def _agree(name: str, ours: object, theirs: object, jax: Any) -> None:
    """Fail loudly unless both libraries computed the same pytree of numbers:
    timing a wrong result would be meaningless."""
    if jax is None:
        return
    ours_leaves = jt.tree_util.tree_leaves(ours)
    theirs_leaves = jax.tree_util.tree_leaves(theirs)
    assert len(ours_leaves) == len(theirs_leaves), f"{name}: {len(ours_leaves)} vs {len(theirs_leaves)} leaves"
    for a, b in zip(ours_leaves, theirs_leaves):
        a_np, b_np = np.asarray(a), np.asarray(b)
        assert a_np.shape == b_np.shape, f"{name}: shapes {a_np.shape} vs {b_np.shape}"
        assert np.allclose(a_np, b_np, rtol=2e-4, atol=2e-5), f"{name}: max |diff| {np.abs(a_np - b_np).max()}"


def _block(tree: object) -> object:
    """Wait for every array leaf of a jaxtyped pytree, as a user does
    (``jax.block_until_ready`` is JAX's side)."""
    return jt.block_until_ready(tree)


def _block_jax(jax: Any, tree: object) -> object:
    return jax.block_until_ready(tree)


def mlp_loss(namespace: Any) -> Callable[[Any, Any], Any]:
    """The MLP's scalar loss ``mean(forward(params, x) ** 2)`` written
    against ``namespace`` (``jaxtyped.numpy`` or ``jax.numpy``)."""
    forward = _mlp(namespace)

    def loss(params: Any, x: Any) -> Any:
        return namespace.mean(forward(params, x) ** 2)

    return loss


def grad_mlp(jax: Any, repeat: int) -> None:
    """First call and steady state of ``jit(grad(loss))`` for the MLP of :func:`mlp`."""
    print("== jit(grad(loss)) of the 4-layer MLP, 256 wide, batch 128 ==")
    rng = np.random.default_rng(0)
    host_params = mlp_params(rng)
    host_x = rng.normal(size=(128, 256)).astype(np.float32)
    ours_params = [(jt.device_put(w), jt.device_put(b)) for w, b in host_params]
    ours_x = jt.device_put(host_x)
    ours_steady_f = jt.jit(jt.grad(mlp_loss(jnp)))

    def ours_first() -> object:
        jt.clear_caches()
        return _block(jt.jit(jt.grad(mlp_loss(jnp)))(ours_params, ours_x))  # a new function: no cache

    theirs_first: Callable[[], object] | None = None
    theirs_steady: Callable[[], object] | None = None
    if jax is not None:
        jparams = [(jax.device_put(w), jax.device_put(b)) for w, b in host_params]
        jx = jax.device_put(host_x)
        theirs_steady_f = jax.jit(jax.grad(mlp_loss(jax.numpy)))
        _agree("grad_mlp", ours_steady_f(ours_params, ours_x), theirs_steady_f(jparams, jx), jax)

        def theirs_first_fn() -> object:
            jax.clear_caches()
            return _block_jax(jax, jax.jit(jax.grad(mlp_loss(jax.numpy)))(jparams, jx))

        theirs_first = theirs_first_fn
        theirs_steady = lambda: _block_jax(jax, theirs_steady_f(jparams, jx))  # noqa: E731

    compare("grad MLP first (trace+compile+run)", ours_first, theirs_first, 1, repeat, "ms")
    compare(
        "grad MLP steady state",
        lambda: _block(ours_steady_f(ours_params, ours_x)),
        theirs_steady,
        100,
        repeat,
        "us",
    )


def small_params(rng: np.random.Generator) -> dict[str, np.ndarray[Any, Any]]:
    return {
        "w1": (rng.normal(size=(16, 32)) / 4).astype(np.float32),
        "b1": rng.normal(size=(32,)).astype(np.float32),
        "w2": (rng.normal(size=(32,)) / 6).astype(np.float32),
        "b2": np.array(0.1, np.float32),
    }



def sgd_step(library: Any, namespace: Any) -> Callable[[Any, Any], Any]:
    """The MLP's jitted training step in ``library`` (``jaxtyped`` or
    ``jax``): the loss and its gradient, and the parameters moved by 0.01 of it."""
    loss = mlp_loss(namespace)

    def sgd(p: Any, g: Any) -> Any:
        return p - 0.01 * g

    def step(params: Any, x: Any) -> Any:
        value, grads = library.value_and_grad(loss)(params, x)
        return library.tree_util.tree_map(sgd, params, grads), value

    jitted: Callable[[Any, Any], Any] = library.jit(step)
    return jitted


def train_step(jax: Any, repeat: int) -> None:
    """A training loop's step: the jitted SGD step of :func:`sgd_step` fed
    back its parameters, on a host batch put on the device at each step."""
    print("== MLP training loop: SGD step on a fresh host batch each step ==")
    rng = np.random.default_rng(0)
    host_params = mlp_params(rng)
    batches = [rng.normal(size=(128, 256)).astype(np.float32) for _ in range(8)]
    ours_step = sgd_step(jt, jnp)
    ours_state: list[Any] = [[(jt.device_put(w), jt.device_put(b)) for w, b in host_params]]
    ours_batches = itertools.cycle(batches)

    def ours() -> object:
        params, value = ours_step(ours_state[0], jt.device_put(next(ours_batches)))
        ours_state[0] = params
        return _block(value)

    theirs: Callable[[], object] | None = None
    if jax is not None:
        theirs_step = sgd_step(jax, jax.numpy)
        theirs_state: list[Any] = [[(jax.device_put(w), jax.device_put(b)) for w, b in host_params]]
        theirs_batches = itertools.cycle(batches)
        first = jt.device_put(batches[0]), jax.device_put(batches[0])
        _agree("train_step", ours_step(ours_state[0], first[0]), theirs_step(theirs_state[0], first[1]), jax)

        def theirs_fn() -> object:
            params, value = theirs_step(theirs_state[0], jax.device_put(next(theirs_batches)))
            theirs_state[0] = params
            return _block_jax(jax, value)

        theirs = theirs_fn
    compare("SGD step, fresh batch", ours, theirs, 50, repeat, "us")


def per_example_hosts() -> tuple[dict[str, np.ndarray[Any, Any]], np.ndarray[Any, Any], np.ndarray[Any, Any]]:
    """The per-example workload's host inputs: the small model's parameters
    and a batch of 128 inputs ``x`` (16 features) and targets ``y``, the
    same on every call (seed 1)."""
    rng = np.random.default_rng(1)
    host_params = small_params(rng)
    host_x = rng.normal(size=(128, 16)).astype(np.float32)
    host_y = rng.normal(size=(128,)).astype(np.float32)
    return host_params, host_x, host_y


def example_loss(namespace: Any) -> Callable[[Any, Any, Any], Any]:
    """Squared error of a 16 -> 32 -> 1 tanh network on one example."""

    def loss(params: Any, x: Any, y: Any) -> Any:
        hidden = namespace.tanh(x @ params["w1"] + params["b1"])
        return (hidden @ params["w2"] + params["b2"] - y) ** 2

    return loss


def per_example(jax: Any, repeat: int) -> None:
    """Per-example gradients: ``jit(vmap(grad(loss), in_axes=(None, 0, 0)))``
    over a batch of 128 (first call and steady state), and the same without
    ``jit`` over a batch of 16 (every primitive dispatched eagerly)."""
    print("== per-example gradients, 16->32->1 tanh model ==")
    host_params, host_x, host_y = per_example_hosts()
    ours_params = {k: jt.device_put(np.asarray(v)) for k, v in host_params.items()}
    ours_x, ours_y = jt.device_put(host_x), jt.device_put(host_y)

    def ours_fn() -> Callable[..., Any]:
        return jt.vmap(jt.grad(example_loss(jnp)), in_axes=(None, 0, 0))

    ours_jit = jt.jit(ours_fn())
    ours_eager = ours_fn()

    def ours_first() -> object:
        jt.clear_caches()
        return _block(jt.jit(ours_fn())(ours_params, ours_x, ours_y))

    small = 16
    theirs: dict[str, Callable[[], object] | None] = {"first": None, "steady": None, "eager": None}
    if jax is not None:
        jparams = {k: jax.device_put(np.asarray(v)) for k, v in host_params.items()}
        jx, jy = jax.device_put(host_x), jax.device_put(host_y)

        def theirs_fn() -> Any:
            return jax.vmap(jax.grad(example_loss(jax.numpy)), in_axes=(None, 0, 0))

        theirs_jit = jax.jit(theirs_fn())
        theirs_eager = theirs_fn()
        _agree("per_example jit", ours_jit(ours_params, ours_x, ours_y), theirs_jit(jparams, jx, jy), jax)
        _agree(
            "per_example eager",
            ours_eager(ours_params, ours_x[:small], ours_y[:small]),
            theirs_eager(jparams, jx[:small], jy[:small]),
            jax,
        )

        def theirs_first() -> object:
            jax.clear_caches()
            return _block_jax(jax, jax.jit(theirs_fn())(jparams, jx, jy))

        jx_small, jy_small = jx[:small], jy[:small]
        theirs = {
            "first": theirs_first,
            "steady": lambda: _block_jax(jax, theirs_jit(jparams, jx, jy)),
            "eager": lambda: _block_jax(jax, theirs_eager(jparams, jx_small, jy_small)),
        }
    ox_small, oy_small = ours_x[:small], ours_y[:small]
    compare("per-example first call, batch 128", ours_first, theirs["first"], 1, repeat, "ms")
    compare(
        "per-example steady, batch 128",
        lambda: _block(ours_jit(ours_params, ours_x, ours_y)),
        theirs["steady"],
        200,
        repeat,
        "us",
    )
    compare(
        "per-example eager, batch 16",
        lambda: _block(ours_eager(ours_params, ox_small, oy_small)),
        theirs["eager"],
        5,
        repeat,
        "ms",
    )


def grad_trace(jax: Any, repeat: int) -> None:
    """make_jaxpr(grad(chain)) for chains of growing length: linearize,
    partial evaluation and the transpose pass, all at trace level."""
    print("== make_jaxpr(grad(chain)) of a chain of n operations ==")
    for n in (100, 1000):
        # A new function each call: JAX caches traces by function identity.
        def ours_trace(n: int = n) -> object:
            return jt.make_jaxpr(jt.grad(_chain(jnp, n)))(1.0)

        def theirs_trace(n: int = n) -> object:
            return jax.make_jaxpr(jax.grad(_chain(jax.numpy, n)))(1.0)

        if jax:  # not "is not None": pyright would narrow jax to None in the closures above
            _agree(f"grad chain n={n}", jt.grad(_chain(jnp, n))(0.3), jax.grad(_chain(jax.numpy, n))(0.3), jax)
        number = max(1, 200 // n)
        compare(f"make_jaxpr(grad) n={n}", ours_trace, theirs_trace if jax else None, number, repeat, "ms")
        per_op = timed(ours_trace, number) / n * 1e6
        line = f"{'':<34} jaxtyped per operation: {per_op:.1f} us"
        if jax:
            line += f"   jax per operation: {timed(theirs_trace, number) / n * 1e6:.1f} us"
        print(line)


# === control flow ===


def _rnn_params(rng: np.random.Generator) -> dict[str, np.ndarray[Any, Any]]:
    hidden, inputs = 128, 32
    return {
        "wx": (rng.normal(size=(inputs, hidden)) / np.sqrt(inputs)).astype(np.float32),
        "wh": (rng.normal(size=(hidden, hidden)) / np.sqrt(hidden)).astype(np.float32),
        "b": (rng.normal(size=(hidden,)) * 0.1).astype(np.float32),
    }


def _rnn_loss(namespace: Any, lax: Any) -> Callable[[Any, Any, Any], Any]:
    """Mean squared hidden state of a tanh RNN over the leading axis of ``xs``;
    the cell closes over ``params`` (they become the scan's consts)."""

    def loss(params: Any, h0: Any, xs: Any) -> Any:
        def cell(h: Any, x: Any) -> tuple[Any, Any]:
            h = namespace.tanh(x @ params["wx"] + h @ params["wh"] + params["b"])
            return h, h

        _, hs = lax.scan(cell, h0, xs)
        return namespace.mean(hs**2)

    return loss


def scan_rnn(jax: Any, repeat: int) -> None:
    """A scan RNN: first call and steady state of ``jit(value_and_grad(loss))``,
    and the steady state of the forward ``jit(loss)``."""
    print("== tanh RNN with scan: hidden 128, input 32, batch 16, 100 steps ==")
    rng = np.random.default_rng(2)
    host_params = _rnn_params(rng)
    host_h0 = np.zeros((16, 128), np.float32)
    host_xs = rng.normal(size=(100, 16, 32)).astype(np.float32)
    ours_args = ({k: jt.device_put(v) for k, v in host_params.items()}, jt.device_put(host_h0), jt.device_put(host_xs))
    ours_loss = jt.jit(_rnn_loss(jnp, jt.lax))
    ours_vg = jt.jit(jt.value_and_grad(_rnn_loss(jnp, jt.lax)))

    def ours_first() -> object:
        jt.clear_caches()
        return _block(jt.jit(jt.value_and_grad(_rnn_loss(jnp, jt.lax)))(*ours_args))  # a new function: no cache

    theirs: dict[str, Callable[[], object] | None] = {"first": None, "steady": None, "forward": None}
    if jax is not None:
        jargs = ({k: jax.device_put(v) for k, v in host_params.items()}, jax.device_put(host_h0), jax.device_put(host_xs))
        theirs_loss = jax.jit(_rnn_loss(jax.numpy, jax.lax))
        theirs_vg = jax.jit(jax.value_and_grad(_rnn_loss(jax.numpy, jax.lax)))
        _agree("scan_rnn loss", ours_loss(*ours_args), theirs_loss(*jargs), jax)
        _agree("scan_rnn value_and_grad", ours_vg(*ours_args), theirs_vg(*jargs), jax)

        def theirs_first() -> object:
            jax.clear_caches()
            return _block_jax(jax, jax.jit(jax.value_and_grad(_rnn_loss(jax.numpy, jax.lax)))(*jargs))

        theirs = {
            "first": theirs_first,
            "steady": lambda: _block_jax(jax, theirs_vg(*jargs)),
            "forward": lambda: _block_jax(jax, theirs_loss(*jargs)),
        }
    compare("RNN value_and_grad first call", ours_first, theirs["first"], 1, repeat, "ms")
    compare("RNN value_and_grad steady state", lambda: _block(ours_vg(*ours_args)), theirs["steady"], 20, repeat, "ms")
    compare("RNN forward steady state", lambda: _block(ours_loss(*ours_args)), theirs["forward"], 50, repeat, "ms")


def _small_scan(namespace: Any, lax: Any, unroll: int) -> Callable[[Any], Any]:
    """A scan with a small body (a few elementwise operations on 8 floats)."""

    def f(xs: Any) -> Any:
        def body(c: Any, x: Any) -> tuple[Any, Any]:
            c = namespace.sin(c) * 0.9 + x
            return c, c * 2.0

        return lax.scan(body, namespace.zeros_like(xs[0]), xs, unroll=unroll)

    return f


def scan_compile(jax: Any, repeat: int) -> None:
    """Compile time (trace + lower + compile, every cache cleared, a new
    function each time) of a small-bodied scan over 10 and 1000 steps, and
    over 1000 steps with ``unroll=10``; the lowered module's text size."""
    print("== scan compile time (trace+lower+compile), small body on 8 floats ==")
    for length, unroll in ((10, 1), (1000, 1), (1000, 10)):
        host = np.random.default_rng(3).normal(size=(length, 8)).astype(np.float32)
        ours_x = jt.device_put(host)

        def ours_compile(unroll: int = unroll, x: Any = ours_x) -> object:
            jt.clear_caches()
            return jt.jit(_small_scan(jnp, jt.lax, unroll)).lower(x).compile()

        theirs_compile: Callable[[], object] | None = None
        sizes = f"module text: jaxtyped {len(jt.jit(_small_scan(jnp, jt.lax, unroll)).lower(ours_x).as_text()):6d} chars"
        if jax is not None:
            jx = jax.device_put(host)
            _agree(
                f"scan length={length} unroll={unroll}",
                jt.jit(_small_scan(jnp, jt.lax, unroll))(ours_x),
                jax.jit(_small_scan(jax.numpy, jax.lax, unroll))(jx),
                jax,
            )

            def theirs_compile_fn(unroll: int = unroll, x: Any = jx) -> object:
                jax.clear_caches()
                return jax.jit(_small_scan(jax.numpy, jax.lax, unroll)).lower(x).compile()

            theirs_compile = theirs_compile_fn
            sizes += f"   jax {len(jax.jit(_small_scan(jax.numpy, jax.lax, unroll)).lower(jx).as_text()):6d} chars"
        compare(f"scan compile length={length} unroll={unroll}", ours_compile, theirs_compile, 1, repeat, "ms")
        print(f"{'':<34} {sizes}")


if __name__ == "__main__":
    main()
