"""Exact types through jt.checkpoint: ``checkpoint(f)`` is ``f``'s own
callable type in every form (decorator, ``partial`` with a policy or
``static_argnums``, the ``remat`` alias), calls return ``f``'s result, and
the policies and ``saved_residuals`` have precise types."""

import functools
from collections.abc import Callable

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.ad_checkpoint import checkpoint_name, saved_residuals
from jaxtyped.core import ShapedArray
from jaxtyped.typing import Array

cp = jt.checkpoint_policies


def f(x: Array, n: int, /) -> Array:
    return x * n


@functools.partial(jt.checkpoint, policy=cp.dots_saveable)
def g(x: Array, y: Array, /) -> tuple[Array, Array]:
    return x, y


@functools.partial(jt.checkpoint, static_argnums=(1,))
def h(x: Array, training: bool, /) -> Array:
    return x if training else -x


def check(x: Array) -> None:
    assert_type(jt.checkpoint(f), Callable[[Array, int], Array])
    assert_type(jt.remat(f, policy=cp.nothing_saveable), Callable[[Array, int], Array])
    assert_type(jt.checkpoint(f)(x, 2), Array)
    assert_type(g(x, x), tuple[Array, Array])
    assert_type(h(x, True), Array)
    assert_type(checkpoint_name(x, "a"), Array)
    assert_type(checkpoint_name(1.0, "a"), Array)
    assert_type(checkpoint_name((x, x), "a"), tuple[Array, Array])
    assert_type(saved_residuals(f, x, 2), list[tuple[ShapedArray, str]])
    assert_type(cp.save_only_these_names("a"), cp.SaveOnlyTheseNames)
    assert_type(cp.dots_saveable, cp.DotsSaveable)
    assert_type(cp.save_from_both_policies(cp.dots_saveable, cp.nothing_saveable), cp.SaveFromBothPolicies)
    assert_type(jnp.sin(x), Array)
