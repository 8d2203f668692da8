"""MLP classifier: a two-hidden-layer network learns three interleaved spirals.

The data is generated (300 points in 2-D, three classes); training is
full-batch gradient descent with momentum, one ``jit(value_and_grad)`` step.
``--quick`` asserts a training accuracy above 0.9.

    python examples/mlp_classifier.py [--quick] [--plot loss.png] [--steps N]
"""

from __future__ import annotations

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array
from _common import Progress, check, parse_args, plot_curve, summary

Params = list[tuple[Array, Array]]


def spirals(points_per_class: int, classes: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Interleaved noisy spirals: inputs of shape (n, 2) and integer labels of shape (n,)."""
    rng = np.random.default_rng(seed)
    xs: list[np.ndarray] = []
    ys: list[np.ndarray] = []
    for c in range(classes):
        radius = np.linspace(0.05, 1.0, points_per_class)
        angle = np.linspace(c * 4.0, (c + 1) * 4.0, points_per_class) + rng.normal(0, 0.2, points_per_class)
        xs.append(np.stack([radius * np.sin(angle), radius * np.cos(angle)], axis=1))
        ys.append(np.full(points_per_class, c))
    return np.concatenate(xs).astype(np.float32), np.concatenate(ys).astype(np.int32)


def init(key: Array, sizes: list[int]) -> Params:
    """He-initialised weights and zero biases."""
    params: Params = []
    for k, (n_in, n_out) in zip(jt.random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        w = jt.random.normal(k, (n_in, n_out)) * np.sqrt(2.0 / n_in)
        params.append((w, jnp.zeros(n_out)))
    return params


def logits(params: Params, x: Array) -> Array:
    for w, b in params[:-1]:
        x = jt.nn.relu(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def loss(params: Params, x: Array, labels: Array) -> Array:
    """Mean cross-entropy."""
    log_p = jt.nn.log_softmax(logits(params, x))
    return -jnp.mean(jnp.take_along_axis(log_p, labels[:, None], axis=1))


@jt.jit
def step(params: Params, velocity: Params, x: Array, labels: Array) -> tuple[Params, Params, Array]:
    value, grads = jt.value_and_grad(loss)(params, x, labels)
    velocity = jt.tree_util.tree_map(lambda v, g: 0.9 * v + g, velocity, grads)
    params = jt.tree_util.tree_map(lambda p, v: p - 0.1 * v, params, velocity)
    return params, velocity, value


def main() -> None:
    args = parse_args(__doc__)
    steps = args.steps or (300 if args.quick else 2000)
    x_host, y_host = spirals(100, 3)
    x, labels = jnp.asarray(x_host), jnp.asarray(y_host)
    params = init(jt.random.key(0), [2, 64, 64, 3])
    velocity = jt.tree_util.tree_map(jnp.zeros_like, params)
    progress, losses = Progress(steps, every=100), list[float]()
    for i in range(steps):
        params, velocity, value = step(params, velocity, x, labels)
        losses.append(float(value))
        progress.update(i, losses[-1])
    accuracy = float(jnp.mean(jnp.argmax(logits(params, x), axis=1) == labels))
    summary("mlp_classifier", progress.seconds(), final_loss=losses[-1], accuracy=accuracy)
    plot_curve(args.plot, losses)
    if args.quick:
        check(accuracy > 0.9, f"training accuracy {accuracy:.3f} > 0.9")


if __name__ == "__main__":
    main()
