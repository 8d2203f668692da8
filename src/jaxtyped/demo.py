"""The jaxtyped demo: ``python -m jaxtyped.demo``.

A small multilayer perceptron fitted to built-in data (64 samples of
``y = sin(3x)`` on ``[-1, 1]``), showing each transformation:

1. the model staged to a jaxpr with ``make_jaxpr``;
2. a directional derivative of the loss with ``jvp``, checked against
   finite differences;
3. per-example predictions and losses with ``vmap``;
4. per-example input Jacobians with ``vmap(jacfwd(...))``;
5. gradient descent with reverse-mode gradients of the loss with respect to
   a pytree of parameters (``value_and_grad``), checked against the
   forward-mode Jacobian (``jacfwd``);
6. the same training step compiled with ``jit`` through XLA: its StableHLO,
   its speed against the eager step, and the same parameters after 300 steps;
7. structured control flow: Newton's method with ``while_loop`` vectorised
   over starting points (lanes stop at different iterations), and the
   model's predictions accumulated with ``scan``, differentiated in reverse
   mode under ``jit``;
8. shape-and-dtype annotations: a layer annotated ``Float[Array, "batch n"]``
   checked by ``jit`` when it traces (named dimensions agree across the
   arguments), and the error a mismatch gives.
"""

import time

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import AnnotationMismatchError
from jaxtyped.typing import Array, Float

Params = dict[str, Array]


def init_params(seed: int = 0, hidden: int = 16) -> Params:
    """Weights of a 1 -> hidden -> 1 tanh network."""
    rng = np.random.default_rng(seed)
    return {
        "w1": jnp.asarray(rng.normal(0.0, 1.0, (1, hidden)).astype(np.float32)),
        "b1": jnp.zeros(hidden),
        "w2": jnp.asarray(rng.normal(0.0, 1.0 / np.sqrt(hidden), (hidden, 1)).astype(np.float32)),
        "b2": jnp.zeros(1),
    }


def predict(params: Params, x: Array) -> Array:
    """The network's output for inputs ``x`` of shape ``(batch, 1)``."""
    hidden = jnp.tanh(x @ params["w1"] + params["b1"])
    return hidden @ params["w2"] + params["b2"]


def loss(params: Params, x: Array, y: Array) -> Array:
    """Mean squared error."""
    return jnp.mean((predict(params, x) - y) ** 2)


def dataset() -> tuple[Array, Array]:
    """The built-in data: 64 points of sin(3x) on [-1, 1]."""
    xs = jnp.linspace(-1.0, 1.0, 64).reshape(64, 1)
    return xs, jnp.sin(3.0 * xs)


def _section(title: str) -> None:
    print(f"\n=== {title} ===")


def main() -> None:
    """Run every part of the demo and print what it shows."""
    params = init_params()
    xs, ys = dataset()

    _section("1. make_jaxpr: the model as a jaxpr")
    print(jt.make_jaxpr(predict)(params, xs[:4]))

    _section("2. jvp: the loss's derivative along a direction, vs finite differences")
    direction = jt.tree_util.tree_map(jnp.ones_like, params)
    value, slope = jt.jvp(lambda p: loss(p, xs, ys), (params,), (direction,))
    eps = 1e-3
    shifted = jt.tree_util.tree_map(lambda p, d: p + eps * d, params, direction)
    back = jt.tree_util.tree_map(lambda p, d: p - eps * d, params, direction)
    fd = (loss(shifted, xs, ys) - loss(back, xs, ys)) / (2 * eps)
    print(f"loss = {float(value):.5f}, jvp slope = {float(slope):.5f}, finite differences = {float(fd):.5f}")

    _section("3. vmap: per-example predictions and losses")

    def example_loss(x: Array, y: Array) -> Array:
        return loss(params, x[None], y[None])

    per_example = jt.vmap(example_loss)(xs, ys)
    print(f"per-example losses: shape {per_example.shape}, mean {float(per_example.mean()):.5f} "
          f"(equals the batch loss {float(value):.5f})")

    _section("4. vmap(jacfwd): d prediction / d input for every example")

    def scalar_model(x: Array) -> Array:
        return predict(params, x.reshape(1, 1))[0, 0]

    slopes = jt.vmap(jt.jacfwd(scalar_model))(xs[:, 0])
    print(f"input slopes at x = -1, 0, 1: {float(slopes[0]):.4f}, {float(slopes[32]):.4f}, {float(slopes[63]):.4f}")

    _section("5. training with reverse-mode gradients (grad over the parameter pytree)")
    reverse = jt.grad(loss)(params, xs, ys)
    forward = jt.jacfwd(loss)(params, xs, ys)
    agree = max(
        float(jnp.max(jnp.abs(a - b)))
        for a, b in zip(jt.tree_util.tree_leaves(reverse), jt.tree_util.tree_leaves(forward))
    )
    print(f"grad (reverse mode) vs jacfwd (forward mode): largest difference {agree:.1e}")

    def small_loss(w: Array) -> Array:
        return jnp.sum(jnp.tanh(w) * 2.0)

    print("the backward pass of a small loss, staged:")
    print(jt.make_jaxpr(jt.grad(small_loss))(jnp.ones(2)))
    rate = 0.2
    initial = params

    def train_step(params: Params, x: Array, y: Array) -> Params:
        grads = jt.grad(loss)(params, x, y)
        updated: Params = jt.tree_util.tree_map(lambda p, g: p - rate * g, params, grads)
        return updated

    start = time.perf_counter()
    for step in range(301):
        if step % 50 == 0:
            print(f"step {step:3d}: loss {float(loss(params, xs, ys)):.5f}")
        params = train_step(params, xs, ys)
    eager_seconds = time.perf_counter() - start

    _section("6. the same training step under jit (StableHLO compiled by XLA)")
    fast_step = jt.jit(train_step)
    module = fast_step.lower(initial, xs, ys).as_text()
    ops = sum(1 for line in module.splitlines() if "stablehlo." in line)
    print(f"lowered module: {len(module.splitlines())} lines, {ops} StableHLO ops; first lines:")
    print("\n".join(module.splitlines()[:4]))
    compiled_params = initial
    start = time.perf_counter()
    for _ in range(301):
        compiled_params = fast_step(compiled_params, xs, ys)
    jt.block_until_ready(compiled_params)
    jit_seconds = time.perf_counter() - start
    gap = max(
        float(jnp.max(jnp.abs(a - b)))
        for a, b in zip(jt.tree_util.tree_leaves(params), jt.tree_util.tree_leaves(compiled_params))
    )
    print(f"301 steps: eager {eager_seconds:.2f} s, jit {jit_seconds:.2f} s (first call compiles); "
          f"largest parameter difference {gap:.2e}; final loss {float(loss(compiled_params, xs, ys)):.5f}")

    _section("7. control flow: while_loop (Newton's method) and scan, under vmap, grad and jit")

    def newton_cube_root(a: Array) -> tuple[Array, Array]:
        def not_done(state: tuple[Array, Array]) -> Array:
            x, steps = state
            return (jnp.abs(x**3 - a) > 1e-5 * a) & (steps < 50)

        def step(state: tuple[Array, Array]) -> tuple[Array, Array]:
            x, steps = state
            return x - (x**3 - a) / (3 * x**2), steps + 1

        return jt.lax.while_loop(not_done, step, (a, jnp.int32(0)))

    targets = jnp.array([2.0, 27.0, 1000.0])
    roots, iterations = jt.jit(jt.vmap(newton_cube_root))(targets)
    print(f"cube roots of {np.asarray(targets)}: {np.asarray(roots)} after {np.asarray(iterations)} Newton steps each")

    def running_loss(params: Params, x: Array, y: Array) -> Array:
        # A scan over the examples accumulating the squared error: the same
        # loss as a sum, computed by a loop that grad differentiates.
        def accumulate(total: Array, example: tuple[Array, Array]) -> tuple[Array, Array]:
            xi, yi = example
            err = predict(params, xi[None])[0, 0] - yi[0]
            return total + err**2, err

        total, _ = jt.lax.scan(accumulate, jnp.float32(0.0), (x, y))
        return total / x.shape[0]

    scan_grads = jt.jit(jt.grad(running_loss))(compiled_params, xs, ys)
    direct_grads = jt.grad(loss)(compiled_params, xs, ys)
    gap = max(
        float(jnp.max(jnp.abs(a - b)))
        for a, b in zip(jt.tree_util.tree_leaves(scan_grads), jt.tree_util.tree_leaves(direct_grads))
    )
    print(f"grad through a 64-step scan vs the vectorised loss: largest difference {gap:.1e}")

    _section("8. shape annotations: Float[Array, \"batch n\"], checked by jit when it traces")

    @jt.jit
    def dense(x: Float[Array, "batch n"], w: Float[Array, "n k"], b: Float[Array, "k"]) -> Float[Array, "batch k"]:
        return jnp.tanh(x @ w + b)

    hidden = dense(xs, compiled_params["w1"], compiled_params["b1"])
    print(f"dense(x: f32{list(xs.shape)}, w: f32{list(compiled_params['w1'].shape)}) -> f32{list(hidden.shape)}")
    try:
        dense(xs, compiled_params["w2"], compiled_params["b1"])
    except AnnotationMismatchError as error:
        print(f"with w of the wrong shape: {type(error).__name__}: {error}")


if __name__ == "__main__":
    main()
