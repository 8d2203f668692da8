"""Fully annotated: a register_pytree_node_class polynomial with a jitted
method (self static), vmap and grad through it, a functools.partial(vmap)
decorator, a custom_jvp with nondiff_argnums, a scan without xs, a
tree_util.Partial."""
from __future__ import annotations

import functools
from typing import Any, reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


@jt.tree_util.register_pytree_node_class
class Poly:
    def __init__(self, coeffs: jt.Array, name: str) -> None:
        self.coeffs = coeffs
        self.name = name

    def tree_flatten(self) -> tuple[tuple[jt.Array], str]:
        return (self.coeffs,), self.name

    @classmethod
    def tree_unflatten(cls, aux: str, children: tuple[jt.Array]) -> Poly:
        return cls(children[0], aux)

    @functools.partial(jt.jit, static_argnums=0)
    def scaled_eval(self, x: jt.Array) -> jt.Array:
        return jnp.polyval(self.coeffs, x)

    def __call__(self, x: jt.Array) -> jt.Array:
        return jnp.polyval(self.coeffs, x)


@functools.partial(jt.vmap, in_axes=(0, None))
def affine(x: jt.Array, w: jt.Array) -> jt.Array:
    return x @ w


@functools.partial(jt.custom_jvp, nondiff_argnums=(1,))
def soft_clip(x: jt.Array, limit: float) -> jt.Array:
    return limit * jnp.tanh(x / limit)


@soft_clip.defjvp
def soft_clip_jvp(limit: float, primals: tuple[jt.Array], tangents: tuple[jt.Array]) -> tuple[jt.Array, jt.Array]:
    (x,), (t,) = primals, tangents
    y = soft_clip(x, limit)
    return y, t * (1 - (y / limit) ** 2)


def counter(n: int) -> jt.Array:
    def step(c: jt.Array, _: None) -> tuple[jt.Array, jt.Array]:
        return c + 1, c

    _, ys = lax.scan(step, jnp.zeros((), jnp.int32), None, length=n)
    return ys


def tree_size(tree: dict[str, jt.Array]) -> int:
    return sum(int(leaf.size) for leaf in jt.tree_util.tree_leaves(tree))


def add_partial(x: jt.Array) -> jt.Array:
    f = jt.tree_util.Partial(jnp.add, jnp.ones(()))
    return f(x)


def labels(n: int) -> jt.Array:
    return jnp.arange(n)


p = Poly(jnp.array([1.0, 0.0, -1.0]), "p")
vals = jt.vmap(p)(jnp.arange(3.0))
direct = p.scaled_eval(jnp.array(2.0))
grads = jt.grad(lambda q: q(jnp.array(2.0)))(p)
coeff_grad: jt.Array = grads.coeffs
out = affine(jnp.ones((4, 3)), jnp.ones((3, 2)))
clipped = jt.grad(soft_clip)(jnp.array(0.5), 2.0)
ys = counter(4)
size = tree_size({"a": jnp.ones(3), "b": jnp.ones(2)})
extra: dict[str, Any] = {"p": p}
assert vals.shape == (3,) and out.shape == (4, 2) and ys.shape == (4,) and size == 5
assert float(direct) == 3.0 and coeff_grad.shape == (3,) and labels(3).shape == (3,)
assert add_partial(jnp.ones(2)).shape == (2,) and float(clipped) > 0
reveal_type(vals)
reveal_type(grads)
reveal_type(out)
reveal_type(clipped)
reveal_type(ys)
