"""Every form of ``jit`` JAX 0.10.2 accepts keeps the wrapped signature in
both checkers (issue 20): ``jit(f)``, ``jit(f, **options)``, ``@jit``, the
decorator-factory form ``@jit(**options)`` / ``jit(**options)(f)`` /
``jit()(f)``, ``functools.partial(jit, **options)``, and each of them on a
method (bound: without ``self``; through the class: with it)."""

import functools

from typing_extensions import assert_type

import jaxtyped as jt
from jaxtyped.stages import Jitted, Lowered
from jaxtyped.typing import Array


def g(x: Array, n: int, /) -> Array:
    return x * n


@jt.jit(static_argnames="n")
def factory_names(x: Array, n: int, /) -> Array:
    return x * n


@jt.jit(static_argnums=1, donate_argnums=0, keep_unused=True, inline=True)
def factory_nums(x: Array, n: int, /) -> Array:
    return x * n


@jt.jit()
def factory_empty(x: Array, /) -> Array:
    return x


@functools.partial(jt.jit, static_argnames="n")
def through_partial(x: Array, n: int, /) -> Array:
    return x * n


def loss(w: Array, n: int) -> Array:
    return (w * n).sum()


class Model:
    @jt.jit
    def plain(self, x: Array, /) -> Array:
        return x

    @jt.jit(static_argnames="n")
    def factory(self, x: Array, n: int, /) -> Array:
        return x * n

    @functools.partial(jt.jit, static_argnums=(0, 2))
    def partial_method(self, x: Array, n: int, /) -> Array:
        return x * n


def check(x: Array, m: Model) -> None:
    assert_type(jt.jit(g), Jitted[[Array, int], Array])
    assert_type(jt.jit(g, static_argnums=1, donate_argnames="x", compiler_options={}), Jitted[[Array, int], Array])
    assert_type(jt.jit(static_argnames="n")(g), Jitted[[Array, int], Array])
    assert_type(jt.jit(static_argnames=("n",), donate_argnums=(0,))(g), Jitted[[Array, int], Array])
    assert_type(jt.jit()(g), Jitted[[Array, int], Array])
    assert_type(factory_names, Jitted[[Array, int], Array])
    assert_type(factory_names(x, 2), Array)
    assert_type(factory_names.lower(x, 2), Lowered[[Array, int], Array])
    assert_type(factory_nums, Jitted[[Array, int], Array])
    assert_type(factory_empty, Jitted[[Array], Array])
    assert_type(through_partial, Jitted[[Array, int], Array])
    assert_type(m.plain, Jitted[[Array], Array])
    assert_type(m.factory, Jitted[[Array, int], Array])
    assert_type(m.factory(x, 3), Array)
    assert_type(Model.factory, Jitted[[Model, Array, int], Array])
    assert_type(m.partial_method(x, 3), Array)
    # A jitted function of a jitted function, and grad of one made by the factory form.
    assert_type(jt.jit(factory_names), Jitted[[Array, int], Array])
    assert_type(jt.grad(jt.jit(static_argnames="n")(loss))(x, 2), Array)
