"""``return tree_map(lambda ..., tree)`` in an annotated function keeps the
tree's type under the expected return type, so mypy --strict has no
``no-any-return`` to report (issue 20): an optimizer's update written as
users write it."""

import dataclasses
from typing import NamedTuple

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.tree_util import register_dataclass, tree_map, tree_map_with_path
from jaxtyped.typing import Array

Params = dict[str, Array]


class Momentum(NamedTuple):
    velocity: Array
    step: Array


@register_dataclass
@dataclasses.dataclass
class Linear:
    w: Array
    b: Array


def scale(params: Params, factor: Array) -> Params:
    return tree_map(lambda p: p * factor, params)


def sgd(params: Params, grads: Params, lr: float) -> Params:
    return jt.tree.map(lambda p, g: p - lr * g, params, grads)


def adam_step(params: Params, mu: Params, nu: Params, lr: float) -> Params:
    return tree_map(lambda p, m, v: p - lr * m / (jnp.sqrt(v) + 1e-8), params, mu, nu)


def nested(tree: dict[str, Params]) -> dict[str, Params]:
    return tree_map(lambda p: p * 0.5, tree)


def layers(ws: list[Array]) -> list[Array]:
    return tree_map(lambda w: w.T, ws)


def pair(ws: tuple[Array, Array]) -> tuple[Array, Array]:
    return jt.tree.map(lambda w: -w, ws)


def decay(m: Momentum) -> Momentum:
    return tree_map(lambda v: 0.9 * v, m)


def shrink(lin: Linear) -> Linear:
    return tree_map(lambda p: p * 0.99, lin)


def weight_decay(params: Params, lr: float) -> Params:
    return tree_map_with_path(lambda path, p: p * (1 - lr), params)


def zeros(params: Params) -> Params:
    return tree_map(jnp.zeros_like, params)


def annotated_assignment(params: Params) -> Params:
    doubled: Params = tree_map(lambda p: 2 * p, params)
    return doubled


p = {"w": jnp.ones(2)}
assert abs(float(scale(sgd(p, p, 0.1), jnp.asarray(2.0))["w"][0]) - 1.8) < 1e-6
assert adam_step(p, p, p, 0.1)["w"].shape == (2,)
assert nested({"a": p})["a"]["w"].shape == (2,)
assert layers([jnp.ones((2, 3))])[0].shape == (3, 2)
assert pair((jnp.ones(1), jnp.ones(1)))[1].shape == (1,)
assert isinstance(decay(Momentum(jnp.ones(2), jnp.ones(()))), Momentum)
assert isinstance(shrink(Linear(jnp.ones(2), jnp.ones(2))), Linear)
assert weight_decay(p, 0.5)["w"].shape == (2,)
assert zeros(p)["w"].shape == annotated_assignment(p)["w"].shape
