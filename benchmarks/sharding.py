"""Programs over several host devices, side by side with JAX on the same
device count: ``python benchmarks/sharding.py [--devices 8]``.

Interleaving the two libraries run by run, medians and the ratio
jaxtyped / JAX, each result checked against JAX's first:

- ``psum``: a jitted ``shard_map`` summing 1M float32 (split over the
  devices) with ``lax.psum``, the input already sharded;
- ``block-matmul``: JEP 14273's block matmul (``psum`` over ``j``) of two
  1024x1024 float32 matrices on a (devices/2, 2) mesh, jitted;
- ``dp-step``: a data-parallel MLP training step (batch 1024 split over the
  devices, 2 layers of width 256, replicated weights), jitted.

jaxtyped's ``shard_map`` lowers, as JAX's does, to a Shardy manual-sharding
region whose collectives are StableHLO collectives. These are measurements,
not tests.
"""

import sys
from typing import Any

import numpy as np
from side_by_side import benchmark_parser, block, compare, import_jax

CASES = ("psum", "block-matmul", "dp-step")


def main() -> None:
    """Run the measurements."""
    parser = benchmark_parser(__doc__, CASES)
    parser.add_argument("--devices", type=int, default=8, help="host CPU devices in both libraries")
    args = parser.parse_args()
    import jaxtyped as jt

    jt.config.update("jax_num_cpu_devices", args.devices)
    jax = import_jax()
    if jax is not None:
        jax.config.update("jax_num_cpu_devices", args.devices)
    import jaxtyped.numpy as jnp
    from jaxtyped.sharding import Mesh, NamedSharding, PartitionSpec as P

    n = args.devices
    only = set(args.only.split(","))
    print(f"{n} host devices; median of {args.repeat} interleaved timings")

    def sides() -> list[tuple[str, Any, Any, Any, Any, Any]]:
        out: list[tuple[str, Any, Any, Any, Any, Any]] = [("jaxtyped", jt, jnp, jt.lax, Mesh, (NamedSharding, P))]
        if jax is not None:
            js = jax.sharding
            out.append(("jax", jax, jax.numpy, jax.lax, js.Mesh, (js.NamedSharding, js.PartitionSpec)))
        return out

    def run_case(name: str, build: Any, number: int) -> None:
        fns = [build(*side[1:]) for side in sides()]
        results = [np.asarray(f()) for f in fns]
        if len(results) == 2 and not np.allclose(results[0], results[1], rtol=1e-4, atol=1e-4):
            sys.exit(f"{name}: jaxtyped and JAX disagree")

        def timed_call(f: Any) -> Any:
            return lambda: block(f())

        compare(name, timed_call(fns[0]), timed_call(fns[1]) if len(fns) == 2 else None, number, args.repeat, "ms")

    if "psum" in only:

        def build_psum(api: Any, np_: Any, lax: Any, mesh_t: Any, sh: Any) -> Any:
            named, spec = sh
            mesh = mesh_t(np.array(api.devices()[:n]), ("i",))
            x = api.device_put(np_.asarray(np.ones(1 << 20, np.float32)), named(mesh, spec("i")))
            f = api.jit(api.shard_map(lambda b: lax.psum(b, "i"), mesh=mesh, in_specs=spec("i"), out_specs=spec()))
            return lambda: f(x)

        run_case("psum 1M f32 (shard_map)", build_psum, 20)

    if "block-matmul" in only:
        a = np.random.default_rng(0).normal(size=(1024, 1024)).astype(np.float32)
        b = np.random.default_rng(1).normal(size=(1024, 1024)).astype(np.float32)

        def build_matmul(api: Any, np_: Any, lax: Any, mesh_t: Any, sh: Any) -> Any:
            named, spec = sh
            mesh = mesh_t(np.array(api.devices()[:n]).reshape(n // 2, 2), ("i", "j"))
            body = lambda x, y: lax.psum(np_.dot(x, y), "j")  # noqa: E731
            f = api.jit(
                api.shard_map(body, mesh=mesh, in_specs=(spec("i", "j"), spec("j", None)), out_specs=spec("i", None))
            )
            xa = api.device_put(np_.asarray(a), named(mesh, spec("i", "j")))
            xb = api.device_put(np_.asarray(b), named(mesh, spec("j", None)))
            return lambda: f(xa, xb)

        run_case("block matmul 1024^2 (shard_map)", build_matmul, 5)

    if "dp-step" in only:
        rng = np.random.default_rng(2)
        w1 = (rng.normal(size=(128, 256)) / 16).astype(np.float32)
        w2 = (rng.normal(size=(256, 10)) / 16).astype(np.float32)
        xs = rng.normal(size=(1024, 128)).astype(np.float32)
        ys = rng.normal(size=(1024, 10)).astype(np.float32)

        def build_step(api: Any, np_: Any, lax: Any, mesh_t: Any, sh: Any) -> Any:
            named, spec = sh
            mesh = mesh_t(np.array(api.devices()[:n]), ("batch",))

            def loss(params: Any, x: Any, y: Any) -> Any:
                h = np_.tanh(x @ params[0])
                return np_.mean((h @ params[1] - y) ** 2)

            step = api.jit(lambda p, x, y: [w - 0.01 * g for w, g in zip(p, api.grad(loss)(p, x, y))])
            batch = named(mesh, spec("batch"))
            params = [np_.asarray(w1), np_.asarray(w2)]
            bx, by = api.device_put(np_.asarray(xs), batch), api.device_put(np_.asarray(ys), batch)
            return lambda: tuple(step(params, bx, by))[1]

        run_case("data-parallel MLP step", build_step, 10)


if __name__ == "__main__":
    main()
