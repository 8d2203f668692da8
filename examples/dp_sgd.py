"""Per-example gradients with clipping (DP-SGD style): logistic regression on generated data.

Each step computes one gradient per example with ``vmap(grad(...))``,
clips each to an L2 norm of at most ``CLIP``, averages them and adds
Gaussian noise (``jt.random``) before the update: the shape of
differentially private SGD. ``--quick`` asserts a training accuracy above
0.85 and that every clipped per-example gradient has norm <= CLIP.

    python examples/dp_sgd.py [--quick] [--plot loss.png] [--steps N]
"""

from __future__ import annotations

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array
from _common import Progress, check, parse_args, plot_curve, summary

CLIP = 1.0
NOISE = 0.5
LEARNING_RATE = 0.5


def example_loss(w: Array, x: Array, label: Array) -> Array:
    """Logistic loss of one example (x has shape (d,), label is 0 or 1)."""
    logit = jnp.dot(x, w)
    return jt.nn.softplus(logit) - label * logit


def clipped_gradients(w: Array, xs: Array, labels: Array) -> Array:
    """One gradient per example, each scaled down to an L2 norm of at most CLIP."""
    grads = jt.vmap(jt.grad(example_loss), in_axes=(None, 0, 0))(w, xs, labels)
    norms = jnp.linalg.norm(grads, axis=1, keepdims=True)
    return grads * jnp.minimum(1.0, CLIP / jnp.maximum(norms, 1e-12))


@jt.jit
def step(w: Array, key: Array, xs: Array, labels: Array) -> tuple[Array, Array]:
    clipped = clipped_gradients(w, xs, labels)
    noise = jt.random.normal(key, w.shape) * (NOISE * CLIP / xs.shape[0])
    w = w - LEARNING_RATE * (jnp.mean(clipped, axis=0) + noise)
    return w, jnp.mean(jt.vmap(example_loss, in_axes=(None, 0, 0))(w, xs, labels))


def main() -> None:
    args = parse_args(__doc__)
    steps = args.steps or (200 if args.quick else 1000)
    rng = np.random.default_rng(0)
    true_w = rng.normal(size=8).astype(np.float32)
    xs_host = rng.normal(size=(256, 8)).astype(np.float32)
    labels_host = (xs_host @ true_w + 0.3 * rng.normal(size=256) > 0).astype(np.float32)
    xs, labels = jnp.asarray(xs_host), jnp.asarray(labels_host)
    w = jnp.zeros(8)
    keys = jt.random.split(jt.random.key(42), steps)
    progress, losses = Progress(steps, every=50), list[float]()
    for i in range(steps):
        w, value = step(w, keys[i], xs, labels)
        losses.append(float(value))
        progress.update(i, losses[-1])
    accuracy = float(jnp.mean((xs @ w > 0) == (labels > 0.5)))
    largest_norm = float(jnp.max(jnp.linalg.norm(clipped_gradients(w, xs, labels), axis=1)))
    summary("dp_sgd", progress.seconds(), final_loss=losses[-1], accuracy=accuracy, max_clipped_norm=largest_norm)
    plot_curve(args.plot, losses)
    if args.quick:
        check(accuracy > 0.85, f"training accuracy {accuracy:.3f} > 0.85")
        check(largest_norm <= CLIP + 1e-5, f"largest clipped per-example gradient norm {largest_norm:.4f} <= {CLIP}")


if __name__ == "__main__":
    main()
