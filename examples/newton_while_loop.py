"""Newton's method with ``lax.while_loop``: fit a logistic regression to generated data to machine precision.

The whole optimisation is one jitted ``while_loop`` whose body takes a
Newton step (gradient from ``grad``, Hessian from ``hessian``, the step
from ``jnp.linalg.solve``) until the gradient norm falls below a tolerance
or 50 iterations pass. A gradient-descent run of the same problem is shown
beside it for contrast. ``--quick`` asserts convergence (gradient norm
below 1e-4) in fewer than 20 Newton iterations.

    python examples/newton_while_loop.py [--quick] [--plot loss.png]
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

import jaxtyped as jt
import jaxtyped.lax as lax
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array
from _common import Progress, check, parse_args, plot_curve, summary

TOLERANCE = 1e-4
MAX_ITERATIONS = 50


def make_loss(xs: Array, labels: Array) -> Callable[[Array], Array]:
    def loss(w: Array) -> Array:
        """Mean logistic loss with a small L2 penalty (so the minimum is finite and unique)."""
        logits = xs @ w
        return jnp.mean(jt.nn.softplus(logits) - labels * logits) + 1e-2 * jnp.sum(w * w)

    return loss


def main() -> None:
    args = parse_args(__doc__)
    rng = np.random.default_rng(0)
    xs_host = rng.normal(size=(500, 5)).astype(np.float32)
    labels_host = (xs_host @ np.arange(1.0, 6.0) + rng.normal(size=500) > 0).astype(np.float32)
    loss = make_loss(jnp.asarray(xs_host), jnp.asarray(labels_host))
    gradient, hessian = jt.grad(loss), jt.hessian(loss)

    @jt.jit
    def newton(w0: Array) -> tuple[Array, Array, Array]:
        def keep_going(state: tuple[Array, Array, Array]) -> Array:
            _, i, norm = state
            return (norm > TOLERANCE) & (i < MAX_ITERATIONS)

        def newton_step(state: tuple[Array, Array, Array]) -> tuple[Array, Array, Array]:
            w, i, _ = state
            w = w - jnp.linalg.solve(hessian(w), gradient(w))
            return w, i + 1, jnp.linalg.norm(gradient(w))

        return lax.while_loop(keep_going, newton_step, (w0, jnp.asarray(0), jnp.linalg.norm(gradient(w0))))

    @jt.jit
    def descent_step(w: Array) -> tuple[Array, Array]:
        return w - 1.0 * gradient(w), loss(w)

    w_newton, iterations, norm = newton(jnp.zeros(5))
    steps = args.steps or (100 if args.quick else 500)
    w, progress, losses = jnp.zeros(5), Progress(steps, every=50), list[float]()
    for i in range(steps):
        w, value = descent_step(w)
        losses.append(float(value))
        progress.update(i, losses[-1])
    summary(
        "newton_while_loop", progress.seconds(), newton_iterations=int(iterations), newton_grad_norm=float(norm),
        newton_loss=float(loss(w_newton)), descent_loss=losses[-1],
    )
    plot_curve(args.plot, losses, "loss (gradient descent)")
    if args.quick:
        check(float(norm) < TOLERANCE, f"Newton's gradient norm {float(norm):.2e} < {TOLERANCE}")
        check(int(iterations) < 20, f"Newton converged in {int(iterations)} < 20 iterations")
        check(float(loss(w_newton)) <= losses[-1] + 1e-6, "Newton's loss is no worse than gradient descent's")


if __name__ == "__main__":
    main()
