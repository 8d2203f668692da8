"""A small CNN (``lax.conv_general_dilated``) classifies generated 12x12 images of horizontal vs vertical bars.

Two convolution layers (3x3, stride 1 then 2, NHWC/HWIO layouts), a global
average pool and a dense layer, trained with SGD under ``jit``. The images
are generated: a random bar of either orientation on a noisy background.
``--quick`` asserts an accuracy above 0.95 on held-out images.

    python examples/cnn.py [--quick] [--plot loss.png] [--steps N]
"""

from __future__ import annotations

import numpy as np

import jaxtyped as jt
import jaxtyped.lax as lax
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array
from _common import Progress, check, parse_args, plot_curve, summary

SIZE = 12
Params = dict[str, Array]
DIMENSIONS = ("NHWC", "HWIO", "NHWC")


def bars(count: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Images (count, SIZE, SIZE, 1) with one bar each; label 1 for a vertical bar."""
    rng = np.random.default_rng(seed)
    images = 0.3 * rng.normal(size=(count, SIZE, SIZE)).astype(np.float32)
    labels = rng.integers(0, 2, count)
    for image, label, where, start in zip(images, labels, rng.integers(1, SIZE - 1, count), rng.integers(0, 4, count)):
        if label:
            image[start:start + 8, where] += 1.0
        else:
            image[where, start:start + 8] += 1.0
    return images[..., None], labels.astype(np.int32)


def init(key: Array) -> Params:
    k1, k2, k3 = jt.random.split(key, 3)
    return {
        "conv1": jt.random.normal(k1, (3, 3, 1, 8)) * 0.4,
        "conv2": jt.random.normal(k2, (3, 3, 8, 16)) * 0.15,
        "dense": jt.random.normal(k3, (16, 2)) * 0.25,
        "bias": jnp.zeros(2),
    }


def logits(params: Params, images: Array) -> Array:
    x = lax.conv_general_dilated(images, params["conv1"], (1, 1), "SAME", dimension_numbers=DIMENSIONS)
    x = jt.nn.relu(x)
    x = lax.conv_general_dilated(x, params["conv2"], (2, 2), "SAME", dimension_numbers=DIMENSIONS)
    x = jnp.mean(jt.nn.relu(x), axis=(1, 2))
    return x @ params["dense"] + params["bias"]


def loss(params: Params, images: Array, labels: Array) -> Array:
    log_p = jt.nn.log_softmax(logits(params, images))
    return -jnp.mean(jnp.take_along_axis(log_p, labels[:, None], axis=1))


@jt.jit
def step(params: Params, images: Array, labels: Array) -> tuple[Params, Array]:
    value, grads = jt.value_and_grad(loss)(params, images, labels)
    return jt.tree_util.tree_map(lambda p, g: p - 0.3 * g, params, grads), value


def main() -> None:
    args = parse_args(__doc__)
    steps = args.steps or (150 if args.quick else 600)
    train_x, train_y = bars(256, seed=0)
    test_x, test_y = bars(256, seed=1)
    params = init(jt.random.key(0))
    progress, losses = Progress(steps, every=25), list[float]()
    for i in range(steps):
        batch = slice((i * 64) % 256, (i * 64) % 256 + 64)
        params, value = step(params, jnp.asarray(train_x[batch]), jnp.asarray(train_y[batch]))
        losses.append(float(value))
        progress.update(i, losses[-1])
    predicted = np.asarray(jnp.argmax(jt.jit(logits)(params, jnp.asarray(test_x)), axis=1))
    accuracy = float(np.mean(np.equal(predicted, test_y)))
    summary("cnn", progress.seconds(), final_loss=losses[-1], test_accuracy=accuracy)
    plot_curve(args.plot, losses)
    if args.quick:
        check(accuracy > 0.95, f"held-out accuracy {accuracy:.3f} > 0.95")


if __name__ == "__main__":
    main()
