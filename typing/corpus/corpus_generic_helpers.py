"""Generic helpers over pytrees and functions, as libraries write them: an
SGD step generic in the parameter tree, a zeros-like of any tree, typed
wrappers of vmap and jit, value_and_grad of a generic loss, an optimizer of
Any-typed trees (as Optax annotates them)."""
from collections.abc import Callable
from typing import Any, NamedTuple, TypeVar, reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array

T = TypeVar("T")
S = TypeVar("S")


def sgd(params: T, grads: T, lr: float) -> T:
    return jt.tree.map(lambda p, g: p - lr * g, params, grads)


def zeros_like_tree(tree: T) -> T:
    return jt.tree_util.tree_map(jnp.zeros_like, tree)


def batched(f: Callable[[Array], Array]) -> Callable[[Array], Array]:
    return jt.vmap(f)


def compiled(f: Callable[[Array, Array], Array]) -> Callable[[Array, Array], Array]:
    return jt.jit(f)


def value_and_grad_of(loss: Callable[[T], Array], params: T) -> tuple[Array, T]:
    return jt.value_and_grad(loss)(params)


def scan_sum(xs: Array) -> Array:
    def body(carry: Array, x: Array) -> tuple[Array, None]:
        return carry + x, None

    total, _ = jt.lax.scan(body, jnp.zeros(()), xs)
    return total


class Opt(NamedTuple):
    init: Callable[[Any], Any]
    update: Callable[[Any, Any], Any]


def momentum(beta: float) -> Opt:
    def init(params: Any) -> Any:
        return zeros_like_tree(params)

    def update(grads: Any, state: Any) -> Any:
        return jt.tree.map(lambda m, g: beta * m + g, state, grads)

    return Opt(init, update)


def count_leaves(tree: Any) -> int:
    return len(jt.tree.leaves(tree))


params = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}
grads = {"w": jnp.ones((2, 2)), "b": jnp.ones(2)}
new = sgd(params, grads, 0.1)
reveal_type(new)
assert abs(float(new["b"][0]) + 0.1) < 1e-6
zeros = zeros_like_tree(params)
f = batched(jnp.sin)
h = compiled(jnp.add)
reveal_type(h(jnp.ones(2), jnp.ones(2)))
loss, g = value_and_grad_of(lambda p: jnp.sum(p["w"] ** 2), params)
reveal_type(g)
assert float(scan_sum(jnp.arange(4.0))) == 6.0
opt = momentum(0.9)
state = opt.init(params)
state = opt.update(grads, state)
assert count_leaves(state) == 2
