"""A data-parallel training step with ``shard_map`` on 4 host CPU devices.

The batch is split over a one-axis mesh (``"batch"``); each device computes
its shard's loss and ``lax.pmean`` averages it across devices. The
parameters are replicated, so differentiating that average gives every
device the whole batch's gradient (the transpose sums over the devices),
and every device applies the same update to its copy of the parameters. The script checks at the start that one sharded step equals
the same step on the whole batch on one device, then trains a two-layer
regression network. ``--quick`` asserts that agreement and a final loss
below 0.03.

    python examples/shard_map_data_parallel.py [--quick] [--plot loss.png] [--steps N]
"""

from __future__ import annotations

import numpy as np

import jaxtyped as jt

DEVICES = 4
jt.config.update("jax_num_cpu_devices", DEVICES)  # before the backend starts

import jaxtyped.lax as lax  # noqa: E402
import jaxtyped.numpy as jnp  # noqa: E402
from jaxtyped.sharding import Mesh, NamedSharding, PartitionSpec as P  # noqa: E402
from jaxtyped.typing import Array  # noqa: E402
from _common import Progress, check, parse_args, plot_curve, summary  # noqa: E402

Params = tuple[Array, Array]
LEARNING_RATE = 0.3


def loss(params: Params, x: Array, y: Array) -> Array:
    hidden = jnp.tanh(x @ params[0])
    return jnp.mean((hidden @ params[1] - y) ** 2)


def global_loss(params: Params, x: Array, y: Array) -> Array:
    """The whole batch's loss, seen from one device: its shard's loss
    averaged over the mesh."""
    return lax.pmean(loss(params, x, y), "batch")


def local_step(params: Params, x: Array, y: Array) -> tuple[Params, Array]:
    """One device's part. The parameters are replicated (device-invariant,
    JEP 17111), so their gradient is summed over the devices by the
    transpose itself: no explicit pmean of the gradients (that would be
    counted twice)."""
    value, grads = jt.value_and_grad(global_loss)(params, x, y)
    new = (params[0] - LEARNING_RATE * grads[0], params[1] - LEARNING_RATE * grads[1])
    return new, value


@jt.jit
def whole_batch_step(params: Params, x: Array, y: Array) -> tuple[Params, Array]:
    """The same step on one device, for the check."""
    value, grads = jt.value_and_grad(loss)(params, x, y)
    return (params[0] - LEARNING_RATE * grads[0], params[1] - LEARNING_RATE * grads[1]), value


def main() -> None:
    args = parse_args(__doc__)
    steps = args.steps or (300 if args.quick else 1500)
    mesh = Mesh(np.array(jt.devices()[:DEVICES]), ("batch",))
    sharded_step = jt.jit(
        jt.shard_map(local_step, mesh=mesh, in_specs=(P(), P("batch"), P("batch")), out_specs=(P(), P()))
    )
    rng = np.random.default_rng(0)
    xs_host = rng.normal(size=(512, 8)).astype(np.float32)
    ys_host = np.sin(xs_host[:, :2].sum(axis=1, keepdims=True)).astype(np.float32)
    batch = NamedSharding(mesh, P("batch"))
    xs, ys = jt.device_put(jnp.asarray(xs_host), batch), jt.device_put(jnp.asarray(ys_host), batch)
    params: Params = (jnp.asarray(rng.normal(size=(8, 32)).astype(np.float32) / 3), jnp.zeros((32, 1)))

    (sharded, _), (whole, _) = sharded_step(params, xs, ys), whole_batch_step(params, xs, ys)
    difference = max(float(jnp.max(jnp.abs(a - b))) for a, b in zip(sharded, whole))
    progress, losses = Progress(steps, every=25), list[float]()
    for i in range(steps):
        params, value = sharded_step(params, xs, ys)
        losses.append(float(value))
        progress.update(i, losses[-1])
    summary(
        "shard_map_data_parallel", progress.seconds(),
        devices=DEVICES, final_loss=losses[-1], step_difference=difference,
    )
    plot_curve(args.plot, losses)
    if args.quick:
        check(difference < 1e-5, f"a sharded step equals the whole-batch step (max difference {difference:.2e})")
        check(losses[-1] < 0.03, f"final loss {losses[-1]:.4f} < 0.03")


if __name__ == "__main__":
    main()
