"""Exact types through jt.jit: ``jit(f)`` is ``Jitted[<f's parameters>,
<f's result>]`` in every form (decorator, ``jit(f, static_argnums=...)``,
``functools.partial(jit, ...)``), calls return ``f``'s result type (not
``Any``: ``assert_type(..., Array)`` fails on ``Any`` in both checkers), a
method accessed on an instance is ``Jitted`` without ``self`` and through
the class keeps it, and the staging methods return the stage types."""

import functools
from typing import Any

from typing_extensions import assert_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.stages import CacheInfo, Compiled, Jitted, Lowered, Traced
from jaxtyped.core import ClosedJaxpr
from jaxtyped.typing import Array


# Positional-only parameters, so that the expected ParamSpec can be spelled
# ``[Array, int]`` (with named parameters both checkers keep the names, and
# ``Jitted[[Array, int], Array]`` is then a different, wider type).
def g(x: Array, n: int, /) -> Array:
    return x * n


def g_named(x: Array, n: int) -> Array:
    return x * n


def tree_fun(params: dict[str, Array], x: Array, /) -> tuple[Array, dict[str, Array]]:
    return x, params


def kw_only(x: Array, *, scale: float = 1.0) -> Array:
    return x * scale


@jt.jit
def decorated(x: Array, y: Array, /) -> Array:
    return x + y


@jt.jit
def decorated_named(x: Array, y: Array) -> Array:
    return x + y


@functools.partial(jt.jit, static_argnums=1)
def partial_pos(x: Array, n: int, /) -> Array:
    return x * n


@functools.partial(jt.jit, static_argnames="n")
def partial_kw(x: Array, *, n: int = 2) -> Array:
    return x * n


class Model:
    @jt.jit
    def apply(self, x: Array, /) -> Array:
        return x

    @functools.partial(jt.jit, static_argnums=0)
    def apply_static(self, x: Array, y: Array, /) -> Array:
        return x * y

    @jt.jit
    def apply_named(self, x: Array, *, scale: float = 1.0) -> Array:
        return x * scale


def check(x: Array, model: Model) -> None:
    # jit(f) in each form: the parameters and the result survive.
    assert_type(jt.jit(g), Jitted[[Array, int], Array])
    assert_type(jt.jit(g, static_argnums=1), Jitted[[Array, int], Array])
    assert_type(jt.jit(g, static_argnames=("n",), donate_argnums=0), Jitted[[Array, int], Array])
    assert_type(jt.jit(tree_fun), Jitted[[dict[str, Array], Array], tuple[Array, dict[str, Array]]])
    assert_type(decorated, Jitted[[Array, Array], Array])
    assert_type(partial_pos, Jitted[[Array, int], Array])

    # Calls: the result type, not Any.
    assert_type(jt.jit(g)(x, 2), Array)
    assert_type(jt.jit(g_named, static_argnums=1)(x, n=3), Array)
    assert_type(jt.jit(g_named)(x, n=2), Array)
    assert_type(decorated(x, x), Array)
    assert_type(decorated_named(x, y=x), Array)
    assert_type(partial_pos(x, 2), Array)
    assert_type(partial_kw(x, n=3), Array)
    assert_type(partial_kw(x), Array)
    assert_type(jt.jit(kw_only)(x, scale=2.0), Array)
    assert_type(jt.jit(tree_fun)({"w": x}, x), tuple[Array, dict[str, Array]])

    # Methods: bound on an instance, unbound through the class.
    assert_type(model.apply, Jitted[[Array], Array])
    assert_type(model.apply(x), Array)
    assert_type(Model.apply, Jitted[[Model, Array], Array])
    assert_type(Model.apply(model, x), Array)
    assert_type(model.apply_static, Jitted[[Array, Array], Array])
    assert_type(model.apply_static(x, x), Array)
    assert_type(Model.apply_static(model, x, x), Array)
    assert_type(model.apply_named(x, scale=2.0), Array)
    assert_type(model.apply.lower(x), Lowered[[Array], Array])
    assert_type(model.apply.cache_info(), CacheInfo)

    # Stages.
    # Stages keep the signature: a compiled function takes and returns
    # what the jitted one does.
    assert_type(decorated.trace(x, x), Traced[[Array, Array], Array])
    assert_type(decorated.trace(x, x).jaxpr, ClosedJaxpr)
    assert_type(decorated.trace(x, x).lower(), Lowered[[Array, Array], Array])
    assert_type(decorated.lower(x, x), Lowered[[Array, Array], Array])
    assert_type(partial_pos.lower(x, 2), Lowered[[Array, int], Array])
    assert_type(decorated.lower(x, x).as_text(), str)
    assert_type(decorated.lower(x, x).compile(), Compiled[[Array, Array], Array])
    assert_type(decorated.lower(x, x).compile()(x, x), Array)
    assert_type(decorated.lower(x, x).compile().as_text(), str)
    assert_type(decorated.cache_info(), CacheInfo)
    assert_type(decorated.cache_info().misses, int)
    # Ahead of time: ShapeDtypeStructs (or trees of them) for arrays.
    spec = jt.ShapeDtypeStruct((3,), jnp.float32)
    assert_type(decorated.lower(spec, spec), Lowered[[Array, Array], Array])
    assert_type(decorated.lower(x, spec).compile()(x, x), Array)
    assert_type(decorated.trace(spec, x), Traced[[Array, Array], Array])
    assert_type(partial_pos.lower(spec, 2), Lowered[[Array, int], Array])
    assert_type(model.apply.lower(spec), Lowered[[Array], Array])
    assert_type(model.apply.trace((spec, [spec])), Traced[[Array], Array])
    assert_type(decorated.lower({"w": spec}, spec), Lowered[[Array, Array], Array])
    # The wrapped function's names, as JAX's jitted functions have them.
    assert_type(decorated.__name__, str)
    assert_type(model.apply.__qualname__, str)

    # block_until_ready keeps the argument's type; device_get turns an
    # Array into a NumPy array (pytrees of them are Any: their leaves change type).
    assert_type(jt.block_until_ready(x), Array)
    assert_type(jt.block_until_ready({"a": x}), dict[str, Array])
    assert_type(jt.device_get(x), np.ndarray[Any, np.dtype[Any]])
    assert_type(jt.device_put(x), Array)
    assert_type(jt.devices()[0], jt.Device)
    assert_type(jt.local_devices(), list[jt.Device])
    assert_type(jt.clear_caches(), None)
    wrapped: jt.stages.Wrapped[[Array, Array], Array] = decorated
    assert_type(wrapped(x, x), Array)


pair: tuple[Array, int] = (jnp.ones(3), 1)
