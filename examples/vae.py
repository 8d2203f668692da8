"""A variational autoencoder (``jt.random``) learns a 2-D latent code for generated 16-D data.

The data lies near a 2-D curved manifold embedded in 16 dimensions. The
encoder outputs a Gaussian's mean and log variance, a latent sample is
drawn with the reparameterisation trick from a fresh ``jt.random`` key per
step (``split``), and the loss is the negative ELBO (reconstruction error
plus KL divergence), trained with Adam under ``jit``. ``--quick`` asserts
a negative ELBO per example below 4.0 (it starts near 13).

    python examples/vae.py [--quick] [--plot loss.png] [--steps N]
"""

from __future__ import annotations

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array
from _common import Progress, check, parse_args, plot_curve, summary

DATA, HIDDEN, LATENT = 16, 64, 2
Params = dict[str, Array]


def manifold(count: int, seed: int = 0) -> np.ndarray:
    """Points near a curved 2-D surface in 16-D, with small noise."""
    rng = np.random.default_rng(seed)
    z = rng.normal(size=(count, 2))
    lift = rng.normal(size=(4, DATA)) / 2
    features = np.concatenate([z, np.sin(z), ], axis=1)
    return (features @ lift + 0.05 * rng.normal(size=(count, DATA))).astype(np.float32)


def dense(key: Array, n_in: int, n_out: int) -> tuple[Array, Array]:
    return jt.random.normal(key, (n_in, n_out)) / np.sqrt(n_in), jnp.zeros(n_out)


def init(key: Array) -> Params:
    keys = jt.random.split(key, 4)
    params: Params = {}
    for name, k, shape in [
        ("enc", keys[0], (DATA, HIDDEN)), ("enc_out", keys[1], (HIDDEN, 2 * LATENT)),
        ("dec", keys[2], (LATENT, HIDDEN)), ("dec_out", keys[3], (HIDDEN, DATA)),
    ]:
        params[name + "_w"], params[name + "_b"] = dense(k, *shape)
    return params


def negative_elbo(params: Params, key: Array, x: Array) -> Array:
    """Mean over the batch of the reconstruction error (unit-variance Gaussian) plus KL(q(z|x) || N(0, I))."""
    h = jnp.tanh(x @ params["enc_w"] + params["enc_b"])
    mean, log_var = jnp.split(h @ params["enc_out_w"] + params["enc_out_b"], 2, axis=1)
    z = mean + jnp.exp(0.5 * log_var) * jt.random.normal(key, mean.shape)
    h = jnp.tanh(z @ params["dec_w"] + params["dec_b"])
    reconstruction = h @ params["dec_out_w"] + params["dec_out_b"]
    error = 0.5 * jnp.sum((x - reconstruction) ** 2, axis=1)
    kl = 0.5 * jnp.sum(jnp.exp(log_var) + mean**2 - 1.0 - log_var, axis=1)
    return jnp.mean(error + kl)


@jt.jit
def step(
    params: Params, m: Params, v: Params, t: Array, key: Array, x: Array
) -> tuple[Params, Params, Params, Array]:
    """One Adam step (learning rate 3e-3)."""
    value, grads = jt.value_and_grad(negative_elbo)(params, key, x)
    m = jt.tree_util.tree_map(lambda m_, g: 0.9 * m_ + 0.1 * g, m, grads)
    v = jt.tree_util.tree_map(lambda v_, g: 0.999 * v_ + 0.001 * g * g, v, grads)
    scale = 3e-3 * jnp.sqrt(1 - 0.999**t) / (1 - 0.9**t)

    def update(p: Array, m_: Array, v_: Array) -> Array:
        return p - scale * m_ / (jnp.sqrt(v_) + 1e-8)

    params = {name: update(params[name], m[name], v[name]) for name in params}
    return params, m, v, value


def main() -> None:
    args = parse_args(__doc__)
    steps = args.steps or (400 if args.quick else 2000)
    x = jnp.asarray(manifold(512))
    key, init_key = jt.random.split(jt.random.key(0))
    params = init(init_key)
    m = jt.tree_util.tree_map(jnp.zeros_like, params)
    v = jt.tree_util.tree_map(jnp.zeros_like, params)
    progress, losses = Progress(steps, every=50), list[float]()
    for i in range(steps):
        key, sample_key = jt.random.split(key)
        params, m, v, value = step(params, m, v, jnp.asarray(i + 1.0), sample_key, x)
        losses.append(float(value))
        progress.update(i, losses[-1])
    final = float(np.mean(losses[-20:]))  # the loss is a one-sample estimate: average the last few steps
    summary("vae", progress.seconds(), first_negative_elbo=losses[0], final_negative_elbo=final)
    plot_curve(args.plot, losses, "negative ELBO")
    if args.quick:
        check(final < 4.0, f"negative ELBO per example {final:.3f} < 4.0")


if __name__ == "__main__":
    main()
