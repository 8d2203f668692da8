"""Gradient transformations chained as optimizer libraries chain them: each
an (init, update) pair of functions over Any-typed trees in a NamedTuple,
states holding None for masked-out leaves (tree_map with is_leaf), tree
helpers built from tree.map and tree.reduce (vdot, norms, scalar-mul-add),
and a chain applied inside a jitted train step."""
import operator
from typing import Any, Callable, NamedTuple, reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp

Params = Any
Updates = Any
State = Any


class GradientTransformation(NamedTuple):
    init: Callable[[Params], State]
    update: Callable[[Updates, State, Params], tuple[Updates, State]]


class ScaleByAdamState(NamedTuple):
    step: jt.Array  # not `count`: a NamedTuple field may not shadow tuple.count
    mu: Updates
    nu: Updates


def tree_zeros_like(tree):
    return jt.tree.map(jnp.zeros_like, tree)


def tree_vdot(a, b):
    return jt.tree.reduce(operator.add, jt.tree.map(lambda x, y: jnp.vdot(x, y), a, b), 0.0)


def tree_add_scalar_mul(a, scalar, b):
    return jt.tree.map(lambda x, y: x + scalar * y, a, b)


def scale_by_adam(b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8) -> GradientTransformation:
    def init(params: Params) -> State:
        return ScaleByAdamState(jnp.zeros((), jnp.int32), tree_zeros_like(params), tree_zeros_like(params))

    def update(updates: Updates, state: State, params: Params = None) -> tuple[Updates, State]:
        del params
        mu = jt.tree.map(lambda m, g: b1 * m + (1 - b1) * g, state.mu, updates)
        nu = jt.tree.map(lambda v, g: b2 * v + (1 - b2) * g**2, state.nu, updates)
        step = state.step + 1
        mu_hat = jt.tree.map(lambda m: m / (1 - b1**step), mu)
        nu_hat = jt.tree.map(lambda v: v / (1 - b2**step), nu)
        new = jt.tree.map(lambda m, v: m / (jnp.sqrt(v) + eps), mu_hat, nu_hat)
        return new, ScaleByAdamState(step, mu, nu)

    return GradientTransformation(init, update)


def masked(inner: GradientTransformation, mask: Any) -> GradientTransformation:
    def mask_tree(tree: Any) -> Any:
        return jt.tree.map(lambda keep, x: x if keep else None, mask, tree)

    def init(params: Params) -> State:
        return inner.init(mask_tree(params))

    def update(updates: Updates, state: State, params: Params = None) -> tuple[Updates, State]:
        inner_updates, state = inner.update(mask_tree(updates), state, params)
        merged = jt.tree.map(
            lambda keep, new, old: new if keep else old, mask, inner_updates, updates, is_leaf=lambda x: x is None
        )
        return merged, state

    return GradientTransformation(init, update)


def scale(step: float) -> GradientTransformation:
    def init(params: Params) -> State:
        del params
        return ()

    def update(updates: Updates, state: State, params: Params = None) -> tuple[Updates, State]:
        return jt.tree.map(lambda g: step * g, updates), state

    return GradientTransformation(init, update)


def chain(*transforms: GradientTransformation) -> GradientTransformation:
    def init(params: Params) -> State:
        return tuple(t.init(params) for t in transforms)

    def update(updates: Updates, state: State, params: Params = None) -> tuple[Updates, State]:
        new_state = []
        for t, s in zip(transforms, state):
            updates, s = t.update(updates, s, params)
            new_state.append(s)
        return updates, tuple(new_state)

    return GradientTransformation(init, update)


params = {"w": jnp.ones((3, 2)), "b": jnp.zeros(2)}
mask = {"w": True, "b": False}
optimizer = chain(masked(scale_by_adam(), mask), scale(-0.01))
opt_state = optimizer.init(params)


@jt.jit
def train_step(params, opt_state, x):
    loss, grads = jt.value_and_grad(lambda p: jnp.sum((x @ p["w"] + p["b"]) ** 2))(params)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return tree_add_scalar_mul(params, 1.0, updates), opt_state, loss


x = jnp.ones((4, 3))
losses = []
for _ in range(3):
    params, opt_state, loss = train_step(params, opt_state, x)
    losses.append(loss)
reveal_type(losses[-1])
norm = jnp.sqrt(tree_vdot(params, params))
reveal_type(norm)
assert float(params["b"][0]) < 0.0 and float(params["w"][0, 0]) < 1.0
assert opt_state[0].mu["b"] is None and int(opt_state[0].step) == 3 and float(losses[-1]) < float(losses[0])
