"""jt.checkpoint keeps the wrapped function's signature in every form JAX
code uses it (bare decorator, ``checkpoint(f, policy=...)``,
``functools.partial(jt.checkpoint, policy=..., static_argnums=...)``, the
``jt.remat`` alias); every policy is accepted, including user-written ones;
``checkpoint_name`` returns what it is given and ``saved_residuals`` is a
list of (ShapedArray, str) pairs. The annotated assignments below would be
rejected if a checkpointed callable degraded to ``Any``."""

import functools
from collections.abc import Callable

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.ad_checkpoint import checkpoint_name, print_saved_residuals, saved_residuals
from jaxtyped.checkpoint_policies import Policy
from jaxtyped.core import Primitive, ShapedArray
from jaxtyped.typing import Array, ArrayLike

cp = jt.checkpoint_policies


@jt.checkpoint
def two_sins(x: ArrayLike) -> Array:
    return jnp.sin(jnp.sin(x))


def apply_layer(w: Array, x: Array) -> Array:
    return jnp.sin(jnp.dot(w, x))


@functools.partial(jt.checkpoint, policy=cp.checkpoint_dots)
def predict(params: list[Array], x: Array) -> Array:
    for w in params[:-1]:
        x = apply_layer(w, x)
    return jnp.dot(params[-1], x)


@functools.partial(jt.checkpoint, static_argnums=(1,))
def foo(x: Array, is_training: bool) -> Array:
    if is_training:
        return jnp.sin(x)
    return jnp.cos(x)


def save_sin(prim: Primitive, *avals: ShapedArray, **params: object) -> bool:
    return prim.name == "sin"


x = jnp.arange(3.0)
params = [jnp.ones((3, 3)), jnp.ones((3, 3))]

y: Array = two_sins(x)
z: Array = predict(params, x)
w: Array = foo(x, True)
as_callable: Callable[[ArrayLike], Array] = two_sins
named: Array = checkpoint_name(jnp.sin(x), "a")
named_tree: dict[str, Array] = checkpoint_name({"a": x}, "a")

policies: list[Policy] = [
    cp.everything_saveable,
    cp.nothing_saveable,
    cp.dots_saveable,
    cp.checkpoint_dots,
    cp.dots_with_no_batch_dims_saveable,
    cp.checkpoint_dots_with_no_batch_dims,
    cp.save_only_these_names("a", "b"),
    cp.save_any_names_but_these("a"),
    cp.save_anything_except_these_names("a"),
    cp.save_from_both_policies(cp.dots_saveable, save_sin),
    save_sin,
]
for policy in policies:
    g: Callable[[ArrayLike], Array] = jt.checkpoint(two_sins, policy=policy, prevent_cse=False)
    grad_value: ArrayLike = jt.grad(g)(1.0)

remat_f: Callable[[Array, bool], Array] = jt.remat(foo, static_argnums=1)
pairs: list[tuple[ShapedArray, str]] = saved_residuals(predict, params, x)
shapes: list[str] = [aval.str_short() for aval, _ in pairs]
print_saved_residuals(two_sins, x)
