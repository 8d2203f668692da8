"""Whole programs built on control flow, each compared with real JAX on
the same program and data: training an RNN written with ``scan``,
Newton's method with ``while_loop`` (vmapped over starting points that
converge after different numbers of iterations), ``vmap`` of a ``cond``
whose branch holds a ``scan``, and per-example gradients through
``scan``.
"""

from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.test_util import check_grads

jax: Any = pytest.importorskip("jax")
jax_numpy: Any = pytest.importorskip("jax.numpy")


class Impl(NamedTuple):
    """One library's namespaces, so that a program is written once."""

    api: Any  # ``jaxtyped`` or ``jax``
    lax: Any
    np: Any


OURS = Impl(jt, jt.lax, jnp)
JAX = Impl(jax, jax.lax, jax_numpy)

NDArray = np.ndarray[Any, np.dtype[Any]]
Params = dict[str, NDArray]


def fn1(f: Callable[[Any], Any]) -> Callable[..., Any]:
    """``f`` as is: gives a lambda's parameter the type Any where the
    callee (JAX's, or a transformation) does not say."""
    return f


def fn2(f: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    """As :func:`fn1`, for two parameters."""
    return f


def assert_close(ours: object, theirs: Any, *, rtol: float = 1e-5, atol: float = 1e-6) -> None:
    """Same tree structure, shapes and dtypes; values close."""
    ours_leaves, ours_tree = jt.tree_util.tree_flatten(ours)
    theirs_leaves, theirs_tree = jax.tree_util.tree_flatten(theirs)
    assert str(ours_tree) == str(theirs_tree)
    for a, b in zip(ours_leaves, theirs_leaves, strict=True):
        assert isinstance(a, jt.Array), type(a)
        assert (a.shape, a.dtype) == (b.shape, b.dtype), (a, b)
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=atol)


# === an RNN trained with SGD ===

HIDDEN, INPUT, STEPS = 32, 8, 100


def rnn_params(rng: np.random.RandomState, dtype: type[np.generic] = np.float32) -> Params:
    return {
        "wx": (rng.randn(HIDDEN, INPUT) / np.sqrt(INPUT)).astype(dtype),
        "wh": (rng.randn(HIDDEN, HIDDEN) * 0.5 / np.sqrt(HIDDEN)).astype(dtype),
        "b": np.zeros(HIDDEN, dtype),
        "wo": (rng.randn(HIDDEN) / np.sqrt(HIDDEN)).astype(dtype),
    }


def rnn_data(rng: np.random.RandomState, steps: int, dtype: type[np.generic] = np.float32) -> tuple[NDArray, NDArray]:
    xs: NDArray = rng.randn(steps, INPUT).astype(dtype)
    # A target the network can learn: a smoothed function of the inputs.
    targets = np.tanh(np.cumsum(xs[:, 0] - 0.5 * xs[:, 1]) * 0.3).astype(dtype)
    return xs, targets


def rnn_loss(impl: Impl) -> Callable[[Any, Any, Any], Any]:
    """Mean squared error of a linear readout of a tanh RNN's hidden
    states (the recurrence is a ``scan``)."""

    def loss(params: Any, xs: Any, targets: Any) -> Any:
        def cell(h: Any, x: Any) -> Any:
            h = impl.np.tanh(impl.np.dot(params["wx"], x) + impl.np.dot(params["wh"], h) + params["b"])
            return h, impl.np.dot(params["wo"], h)

        h0 = impl.np.zeros(HIDDEN, xs.dtype)
        _, preds = impl.lax.scan(cell, h0, xs)
        return ((preds - targets) ** 2).mean()

    return loss


def sgd_trajectory(impl: Impl, params: Params, xs: Any, targets: Any, steps: int, lr: float) -> tuple[list[float], Any]:
    step = impl.api.jit(impl.api.value_and_grad(rnn_loss(impl)))
    losses: list[float] = []
    p: Any = params
    for _ in range(steps):
        value, grads = step(p, xs, targets)
        losses.append(float(np.asarray(value)))
        p = impl.api.tree_util.tree_map(fn2(lambda w, g: w - lr * g), p, grads)
    return losses, p


def test_rnn_training_decreases_the_loss_and_follows_jax() -> None:
    rng = np.random.RandomState(0)
    params = rnn_params(rng)
    xs, targets = rnn_data(rng, STEPS)
    losses, trained = sgd_trajectory(OURS, params, xs, targets, 20, 0.2)
    losses_j, trained_j = sgd_trajectory(JAX, params, xs, targets, 20, 0.2)
    assert losses[-1] < 0.8 * losses[0]
    assert all(b < a for a, b in zip(losses, losses[1:]))
    np.testing.assert_allclose(losses, losses_j, rtol=1e-4)
    assert_close(trained, trained_j, rtol=1e-4, atol=1e-5)


@pytest.mark.usefixtures("x64")
def test_rnn_gradient_against_finite_differences_in_float64() -> None:
    rng = np.random.RandomState(1)
    params = rnn_params(rng, np.float64)
    xs, targets = rnn_data(rng, 12, np.float64)
    loss = rnn_loss(OURS)
    # Forward and reverse mode (second order through scan is checked
    # against JAX in tests/lax/test_control_flow_scan.py).
    check_grads(fn1(lambda p: loss(p, xs, targets)), (params,), order=1)
    # And one directional derivative against a central difference by hand.
    direction = {k: rng.randn(*v.shape) for k, v in params.items()}
    grads = jt.grad(loss)(params, xs, targets)
    predicted = sum(float(np.vdot(np.asarray(grads[k]), direction[k])) for k in params)
    eps = 1e-6

    def at(t: float) -> float:
        return float(np.asarray(loss({k: v + t * direction[k] for k, v in params.items()}, xs, targets)))

    assert grads["wh"].dtype == np.float64
    np.testing.assert_allclose(predicted, (at(eps) - at(-eps)) / (2 * eps), rtol=1e-6)


# === Newton's method with while_loop ===

TOL = 1e-5
MAX_ITERS = 50


def newton_cbrt(impl: Impl) -> Callable[[Any, Any], Any]:
    """The cube root of ``a`` by Newton's method from ``x0``: stops when
    ``|x**3 - a| < TOL * a`` or after ``MAX_ITERS`` iterations; returns
    (iterations, root)."""

    def solve(x0: Any, a: Any) -> Any:
        def residual(x: Any) -> Any:
            return x * x * x - a

        def keep_going(c: Any) -> Any:
            i, x = c
            return (impl.np.abs(residual(x)) >= TOL * a) & (i < MAX_ITERS)

        def step(c: Any) -> Any:
            i, x = c
            return i + 1, x - residual(x) / (3.0 * x * x)

        return impl.lax.while_loop(keep_going, step, (np.int32(0), x0))

    return solve


STARTS = np.array([0.5, 1.0, 1.3, 3.0, 10.0, 40.0], np.float32)


def newton_float64(x0: float, a: float) -> float:
    x = np.float64(x0)
    for _ in range(MAX_ITERS):
        x = x - (x**3 - a) / (3 * x * x)
    return float(x)


@pytest.mark.parametrize("mode", ["eager", "jit"])
def test_newton_cube_root_matches_jax_and_numpy(mode: str) -> None:
    a = np.float32(2.0)
    ours_f, theirs_f = newton_cbrt(OURS), newton_cbrt(JAX)
    if mode == "jit":
        ours_f, theirs_f = jt.jit(ours_f), jax.jit(theirs_f)
    for x0 in (np.float32(0.5), np.float32(40.0)):
        (iters, root), (iters_j, root_j) = ours_f(x0, a), theirs_f(x0, a)
        assert int(np.asarray(iters)) == int(np.asarray(iters_j)) < MAX_ITERS
        np.testing.assert_allclose(np.asarray(root), np.asarray(root_j), rtol=1e-6)
        np.testing.assert_allclose(np.asarray(root), newton_float64(float(x0), 2.0), rtol=1e-5)
        np.testing.assert_allclose(np.asarray(root), np.cbrt(2.0), rtol=1e-5)


@pytest.mark.parametrize("jit", [False, True], ids=["vmap", "jit-vmap"])
def test_newton_vmapped_over_starting_points_and_targets(jit: bool) -> None:
    targets = np.array([2.0, 27.0, 0.5, 100.0, 8.0, 3.0], np.float32)
    ours_f = jt.vmap(newton_cbrt(OURS))
    theirs_f = jax.vmap(newton_cbrt(JAX))
    if jit:
        ours_f, theirs_f = jt.jit(ours_f), jax.jit(theirs_f)
    (iters, roots), (iters_j, roots_j) = ours_f(STARTS, targets), theirs_f(STARTS, targets)
    counts = np.asarray(iters)
    np.testing.assert_array_equal(counts, np.asarray(iters_j))
    assert len(set(counts.tolist())) >= 3 and counts.max() < MAX_ITERS  # lanes stop at different steps
    np.testing.assert_allclose(np.asarray(roots), np.asarray(roots_j), rtol=1e-6)
    expected = [newton_float64(float(x0), float(t)) for x0, t in zip(STARTS, targets)]
    np.testing.assert_allclose(np.asarray(roots), expected, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(roots), np.cbrt(targets.astype(np.float64)), rtol=1e-5)


def test_newton_vmapped_over_starting_points_only() -> None:
    # The target is unbatched, the predicate still is (through x).
    ours = jt.vmap(newton_cbrt(OURS), in_axes=(0, None))(STARTS, np.float32(5.0))
    theirs = jax.vmap(newton_cbrt(JAX), in_axes=(0, None))(STARTS, np.float32(5.0))
    assert_close(ours, theirs)
    assert len(set(np.asarray(ours[0]).tolist())) >= 3


# === vmap of cond whose branch scans ===

SEQ = np.linspace(-1.0, 1.0, 6, dtype=np.float32)


def branchy(impl: Impl) -> Callable[[Any, Any], Any]:
    """``cond`` on the sign of ``p``: the true branch runs a ``scan`` over
    a sequence scaled by ``x``, the false branch is closed-form."""

    def f(p: Any, x: Any) -> Any:
        def with_scan(x: Any) -> Any:
            final, ys = impl.lax.scan(fn2(lambda c, s: (impl.np.tanh(c * 1.5 + s * x), c * s)), x, SEQ)
            return final + ys.sum()

        def closed_form(x: Any) -> Any:
            return impl.np.sin(x) * p

        return impl.lax.cond(p > 0, with_scan, closed_form, x)

    return f


PS = np.array([0.5, -1.0, 2.0, -0.3], np.float32)
XS4 = np.array([0.2, 0.7, -0.4, 1.1], np.float32)


@pytest.mark.parametrize("predicate", ["batched", "unbatched"])
@pytest.mark.parametrize("transform", ["vmap", "jit-vmap", "vmap-grad", "grad-of-vmap-sum", "jit-vmap-grad"])
def test_vmap_of_cond_with_a_scan_branch_matches_jax(predicate: str, transform: str) -> None:
    in_axes = (0, 0) if predicate == "batched" else (None, 0)
    p = PS if predicate == "batched" else np.float32(0.5)

    def run(impl: Impl) -> Any:
        api, f = impl.api, branchy(impl)
        if transform == "vmap":
            return api.vmap(f, in_axes=in_axes)(p, XS4)
        if transform == "jit-vmap":
            return api.jit(api.vmap(f, in_axes=in_axes))(p, XS4)
        if transform == "vmap-grad":
            return api.vmap(api.grad(f, argnums=(0, 1)), in_axes=in_axes)(p, XS4)
        if transform == "grad-of-vmap-sum":
            return api.grad(fn1(lambda x: api.vmap(f, in_axes=in_axes)(p, x).sum()))(XS4)
        return api.jit(api.vmap(api.grad(f, argnums=1), in_axes=in_axes))(p, XS4)

    ours, theirs = run(OURS), run(JAX)
    assert_close(ours, theirs, rtol=2e-5)


def test_both_branches_are_taken_in_the_batched_case() -> None:
    # The batched predicate really mixes the two branches' results.
    ours = np.asarray(jt.vmap(branchy(OURS))(PS, XS4))
    for k in range(len(PS)):
        one = float(np.asarray(branchy(OURS)(PS[k], XS4[k])))
        np.testing.assert_allclose(ours[k], one, rtol=1e-6)
    assert np.allclose(ours[PS < 0], np.sin(XS4[PS < 0]) * PS[PS < 0], rtol=1e-6)


# === per-example gradients through scan ===


def test_per_example_gradients_through_scan_match_jax() -> None:
    rng = np.random.RandomState(2)
    params = rnn_params(rng)
    batch = [rnn_data(rng, 20) for _ in range(16)]
    xs = np.stack([b[0] for b in batch])
    targets = np.stack([b[1] for b in batch])
    ours = jt.jit(jt.vmap(jt.grad(rnn_loss(OURS)), in_axes=(None, 0, 0)))(params, xs, targets)
    theirs = jax.jit(jax.vmap(jax.grad(rnn_loss(JAX)), in_axes=(None, 0, 0)))(params, xs, targets)
    assert_close(ours, theirs, rtol=1e-4, atol=1e-6)
    assert ours["wh"].shape == (16, HIDDEN, HIDDEN)
    # Each row is that example's own gradient.
    one = jt.jit(jt.grad(rnn_loss(OURS)))(params, xs[3], targets[3])
    assert_close({k: v[3] for k, v in ours.items()}, one, rtol=1e-4, atol=1e-6)
    # Their mean is the gradient of the mean loss.
    mean_loss = jt.jit(fn1(lambda p: jt.vmap(rnn_loss(OURS), in_axes=(None, 0, 0))(p, xs, targets).mean()))
    mean_grad = jt.grad(mean_loss)(params)
    assert_close({k: v.mean(axis=0) for k, v in ours.items()}, mean_grad, rtol=1e-4, atol=1e-6)
