"""Gaussian-process regression: fit an RBF kernel's hyperparameters by gradient ascent on the marginal likelihood.

The data is 40 noisy samples of ``sin(3x)``; the kernel's log length-scale,
log amplitude and log noise are learned with ``grad`` of the exact log
marginal likelihood, computed through a Cholesky factorisation
(``jaxtyped.scipy.linalg.cholesky`` / ``cho_solve``). The posterior mean is
then evaluated on a grid. ``--quick`` asserts a posterior RMSE against the
noiseless function below 0.1.

    python examples/gaussian_process.py [--quick] [--plot loss.png] [--steps N]
"""

from __future__ import annotations

import math
import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy.linalg as linalg
from jaxtyped.typing import Array
from _common import Progress, check, parse_args, plot_curve, summary


def kernel(params: Array, a: Array, b: Array) -> Array:
    """RBF kernel matrix between the points ``a`` (n,) and ``b`` (m,); params = log (length, amplitude, noise)."""
    length, amplitude = jnp.exp(params[0]), jnp.exp(params[1])
    return amplitude**2 * jnp.exp(-0.5 * ((a[:, None] - b[None, :]) / length) ** 2)


def negative_log_likelihood(params: Array, x: Array, y: Array) -> Array:
    """-log p(y | x, params) of the GP, through the Cholesky factor of K + noise^2 I."""
    noise = jnp.exp(params[2])
    k = kernel(params, x, x) + (noise**2 + 1e-5) * jnp.eye(x.shape[0])
    factor = linalg.cholesky(k, lower=True)
    alpha = linalg.cho_solve((factor, True), y)
    return 0.5 * y @ alpha + jnp.sum(jnp.log(jnp.diag(factor))) + 0.5 * x.shape[0] * math.log(2 * math.pi)


@jt.jit
def posterior_mean(params: Array, x: Array, y: Array, grid: Array) -> Array:
    noise = jnp.exp(params[2])
    k = kernel(params, x, x) + (noise**2 + 1e-5) * jnp.eye(x.shape[0])
    return kernel(params, grid, x) @ linalg.cho_solve((linalg.cholesky(k, lower=True), True), y)


@jt.jit
def step(params: Array, x: Array, y: Array) -> tuple[Array, Array]:
    value, grad = jt.value_and_grad(negative_log_likelihood)(params, x, y)
    return params - 0.01 * grad, value


def main() -> None:
    args = parse_args(__doc__)
    steps = args.steps or (100 if args.quick else 500)
    rng = np.random.default_rng(0)
    x_host = rng.uniform(-2, 2, 40).astype(np.float32)
    y_host = (np.sin(3 * x_host) + 0.1 * rng.normal(size=40)).astype(np.float32)
    x, y = jnp.asarray(x_host), jnp.asarray(y_host)
    params = jnp.asarray([0.0, 0.0, -1.0])
    progress, losses = Progress(steps, every=50), list[float]()
    for i in range(steps):
        params, value = step(params, x, y)
        losses.append(float(value))
        progress.update(i, losses[-1])
    grid_host = np.linspace(-1.8, 1.8, 100).astype(np.float32)
    mean = np.asarray(posterior_mean(params, x, y, jnp.asarray(grid_host)))
    rmse = float(np.sqrt(np.mean((mean - np.sin(3 * grid_host)) ** 2)))
    length, amplitude, noise = np.exp(np.asarray(params))
    summary(
        "gaussian_process", progress.seconds(), final_nll=losses[-1], rmse=rmse,
        length_scale=float(length), amplitude=float(amplitude), noise=float(noise),
    )
    plot_curve(args.plot, losses, "negative log marginal likelihood")
    if args.quick:
        check(losses[-1] < losses[0], f"marginal likelihood improved ({losses[0]:.2f} -> {losses[-1]:.2f})")
        check(rmse < 0.1, f"posterior mean RMSE {rmse:.4f} < 0.1")


if __name__ == "__main__":
    main()
