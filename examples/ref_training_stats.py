"""Training statistics kept in ``Ref``\\ s (``jt.new_ref``): a jitted step updates running counters in place.

A linear regression is trained with SGD on minibatches of generated data.
The jitted step takes, beside the parameters, three mutable references
created once with ``jt.new_ref``: the running sum of the losses, the number
of steps, and the largest gradient norm seen. The step writes them in place
(``ref[...] = ...``) and returns only the new parameters, so the training
loop never threads the statistics through by hand. ``--quick`` asserts that
the counters agree with the losses the loop recorded itself and that the
final loss is below 0.02.

    python examples/ref_training_stats.py [--quick] [--plot loss.png] [--steps N]
"""

from __future__ import annotations

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array
from _common import Progress, check, parse_args, plot_curve, summary


def loss(w: Array, x: Array, y: Array) -> Array:
    return jnp.mean((x @ w - y) ** 2)


@jt.jit
def step(
    w: Array, x: Array, y: Array, loss_sum: jt.Ref[Array], count: jt.Ref[Array], max_norm: jt.Ref[Array]
) -> tuple[Array, Array]:
    """One SGD step; the statistics are updated in place through the refs."""
    value, grad = jt.value_and_grad(loss)(w, x, y)
    loss_sum[...] = loss_sum[...] + value
    count[...] = count[...] + 1
    max_norm[...] = jnp.maximum(max_norm[...], jnp.linalg.norm(grad))
    return w - 0.1 * grad, value


def main() -> None:
    args = parse_args(__doc__)
    steps = args.steps or (200 if args.quick else 1000)
    rng = np.random.default_rng(0)
    true_w = rng.normal(size=4).astype(np.float32)
    xs_host = rng.normal(size=(1024, 4)).astype(np.float32)
    ys_host = (xs_host @ true_w + 0.1 * rng.normal(size=1024)).astype(np.float32)
    # Created once, outside jit; every call of the jitted step updates them in place.
    loss_sum, max_norm = jt.new_ref(jnp.zeros(())), jt.new_ref(jnp.zeros(()))
    count = jt.new_ref(jnp.zeros((), jnp.int32))
    w = jnp.zeros(4)
    progress, losses = Progress(steps, every=50), list[float]()
    for i in range(steps):
        batch = slice((i * 32) % 1024, (i * 32) % 1024 + 32)
        w, value = step(w, jnp.asarray(xs_host[batch]), jnp.asarray(ys_host[batch]), loss_sum, count, max_norm)
        losses.append(float(value))
        progress.update(i, losses[-1])
    mean_loss, counted, largest = float(loss_sum[...]) / int(count[...]), int(count[...]), float(max_norm[...])
    final = float(np.mean(losses[-20:]))
    summary(
        "ref_training_stats", progress.seconds(),
        steps_counted=counted, mean_loss=mean_loss, max_grad_norm=largest, final_loss=final,
    )
    plot_curve(args.plot, losses)
    if args.quick:
        check(counted == steps, f"the step counter in its ref reads {counted} == {steps}")
        recorded = float(np.mean(losses))
        check(abs(mean_loss - recorded) < 1e-4 * max(1.0, recorded), "the loss-sum ref agrees with the recorded losses")
        check(final < 0.02, f"final loss {final:.4f} < 0.02")


if __name__ == "__main__":
    main()
