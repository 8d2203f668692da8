"""A training example against JAX: a small MLP initialised with
``glorot_normal`` weights and ``zeros`` biases, trained by SGD under ``jit``
with dropout (``random.bernoulli`` masks, the key split once per step).

The same program runs with ``L = jaxtyped`` and ``L = jax``; every step's
dropout masks and initial weights must be JAX's bit for bit, and the
losses and weights equal to float tolerance (XLA may fuse the two
libraries' backward passes differently).
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt

from oracle import assert_same, jax

Lib = Any  # the jaxtyped or jax package: same API by contract
Params = dict[str, Any]

KEEP = 0.8
STEPS = 6
LEARNING_RATE = 0.1
RNG = np.random.default_rng(15)
X = RNG.normal(size=(32, 5)).astype(np.float32)
Y = np.sin(X @ RNG.normal(size=(5, 1))).astype(np.float32)


def init_params(L: Lib, key: Any) -> Params:
    """Two dense layers: glorot_normal kernels, zero biases."""
    k1, k2 = L.random.split(key)
    init = L.nn.initializers
    return {
        "w1": init.glorot_normal()(k1, (5, 16)),
        "b1": init.zeros(k1, (16,)),
        "w2": init.glorot_normal()(k2, (16, 1)),
        "b2": init.zeros(k2, (1,)),
    }


def make_step(L: Lib) -> Callable[[Params, Any, Any, Any], tuple[Params, Any, Any]]:
    """``step(params, key, x, y) -> (new params, loss, dropout mask)``, jitted."""
    np_ = L.numpy

    def loss_fn(params: Params, mask: Any, x: Any, y: Any) -> Any:
        hidden = L.nn.relu(x @ params["w1"] + params["b1"])
        hidden = np_.where(mask, hidden / KEEP, 0.0)
        prediction = hidden @ params["w2"] + params["b2"]
        return np_.mean((prediction - y) ** 2)

    def sgd(p: Any, g: Any) -> Any:
        return p - LEARNING_RATE * g

    def step(params: Params, key: Any, x: Any, y: Any) -> tuple[Params, Any, Any]:
        mask = L.random.bernoulli(key, KEEP, (x.shape[0], 16))
        loss, grads = L.value_and_grad(loss_fn)(params, mask, x, y)
        new_params: Params = L.tree.map(sgd, params, grads)
        return new_params, loss, mask

    jitted: Callable[[Params, Any, Any, Any], tuple[Params, Any, Any]] = L.jit(step)
    return jitted


def train(L: Lib, seed: int) -> tuple[Params, list[tuple[Params, Any, Any]]]:
    """Initial parameters and, per step, (parameters after, loss, mask)."""
    key = L.random.key(seed)
    key, init_key = L.random.split(key)
    params = init_params(L, init_key)
    initial = params
    step = make_step(L)
    x, y = L.numpy.asarray(X), L.numpy.asarray(Y)
    history: list[tuple[Params, Any, Any]] = []
    for _ in range(STEPS):
        key, step_key = L.random.split(key)
        params, loss, mask = step(params, step_key, x, y)
        history.append((params, loss, mask))
    return initial, history


@pytest.mark.parametrize("seed", [0, 7])
def test_training_with_dropout_matches_jax_step_by_step(seed: int) -> None:
    ours_initial, ours = train(jt, seed)
    theirs_initial, theirs = train(jax, seed)
    for name in theirs_initial:
        assert_same(ours_initial[name], theirs_initial[name], 0, 0, f"initial {name}")
    losses: list[float] = []
    for i, ((params, loss, mask), (their_params, their_loss, their_mask)) in enumerate(zip(ours, theirs, strict=True)):
        assert_same(mask, their_mask, 0, 0, f"step {i} dropout mask")
        assert_same(loss, their_loss, 1e-5, 1e-6, f"step {i} loss")
        for name in their_params:
            assert_same(params[name], their_params[name], 1e-5, 1e-6, f"step {i} {name}")
        losses.append(float(loss))
    # The masks differ between steps (a fresh key each step) and training makes progress.
    assert not np.array_equal(np.asarray(ours[0][2]), np.asarray(ours[1][2]))
    assert losses[-1] < losses[0]
