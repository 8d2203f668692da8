"""RNN with ``lax.scan``: a tanh recurrent network learns to predict the next value of noisy sine waves.

The sequences are generated (a batch of 32 sine waves with random phases
and frequencies, 40 steps); the recurrence is one ``lax.scan`` over time,
differentiated with ``value_and_grad`` under ``jit`` and trained with Adam
written in a few lines. ``--quick`` asserts a mean squared error below 0.02.

    python examples/rnn_scan.py [--quick] [--plot loss.png] [--steps N]
"""

from __future__ import annotations

import numpy as np

import jaxtyped as jt
import jaxtyped.lax as lax
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array
from _common import Progress, check, parse_args, plot_curve, summary

HIDDEN = 32
Params = dict[str, Array]


def waves(batch: int, length: int, seed: int = 0) -> np.ndarray:
    """Noisy sine waves, shape (length, batch, 1): time is the leading axis, as scan wants."""
    rng = np.random.default_rng(seed)
    t = np.arange(length + 1)[:, None]
    phase, freq = rng.uniform(0, 2 * np.pi, batch), rng.uniform(0.15, 0.35, batch)
    values = np.sin(freq * t + phase) + 0.02 * rng.normal(size=(length + 1, batch))
    return values[..., None].astype(np.float32)


def init(key: Array) -> Params:
    k1, k2, k3 = jt.random.split(key, 3)
    return {
        "w_in": jt.random.normal(k1, (1, HIDDEN)) * 0.5,
        "w_h": jt.random.normal(k2, (HIDDEN, HIDDEN)) / np.sqrt(HIDDEN),
        "b": jnp.zeros(HIDDEN),
        "w_out": jt.random.normal(k3, (HIDDEN, 1)) / np.sqrt(HIDDEN),
    }


def loss(params: Params, sequence: Array) -> Array:
    """Mean squared error of the one-step-ahead predictions over the whole sequence."""

    def cell(h: Array, x: Array) -> tuple[Array, Array]:
        h = jnp.tanh(x @ params["w_in"] + h @ params["w_h"] + params["b"])
        return h, h @ params["w_out"]

    h0 = jnp.zeros((sequence.shape[1], HIDDEN))
    _, predictions = lax.scan(cell, h0, sequence[:-1])
    return jnp.mean((predictions - sequence[1:]) ** 2)


@jt.jit
def step(params: Params, m: Params, v: Params, t: Array, sequence: Array) -> tuple[Params, Params, Params, Array]:
    """One Adam step (learning rate 1e-2)."""
    value, grads = jt.value_and_grad(loss)(params, sequence)
    m = jt.tree_util.tree_map(lambda m_, g: 0.9 * m_ + 0.1 * g, m, grads)
    v = jt.tree_util.tree_map(lambda v_, g: 0.999 * v_ + 0.001 * g * g, v, grads)
    scale = 1e-2 * jnp.sqrt(1 - 0.999**t) / (1 - 0.9**t)

    def update(p: Array, m_: Array, v_: Array) -> Array:
        return p - scale * m_ / (jnp.sqrt(v_) + 1e-8)

    params = {name: update(params[name], m[name], v[name]) for name in params}
    return params, m, v, value


def main() -> None:
    args = parse_args(__doc__)
    steps = args.steps or (300 if args.quick else 1500)
    sequence = jnp.asarray(waves(32, 40))
    params = init(jt.random.key(1))
    m = jt.tree_util.tree_map(jnp.zeros_like, params)
    v = jt.tree_util.tree_map(jnp.zeros_like, params)
    progress, losses = Progress(steps, every=50), list[float]()
    for i in range(steps):
        params, m, v, value = step(params, m, v, jnp.asarray(i + 1.0), sequence)
        losses.append(float(value))
        progress.update(i, losses[-1])
    summary("rnn_scan", progress.seconds(), final_mse=losses[-1], first_mse=losses[0])
    plot_curve(args.plot, losses, "mean squared error")
    if args.quick:
        check(losses[-1] < 0.02, f"final mean squared error {losses[-1]:.4f} < 0.02")


if __name__ == "__main__":
    main()
