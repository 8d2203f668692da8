"""Result types of ``jaxtyped.experimental.jet``: ``jet`` of a function
returning an ``Array`` gives ``tuple[Array, list[Array]]`` (the primal output
and its Taylor terms); of a function returning another pytree ``R``, the
output keeps its type ``R`` and the series (``R``'s structure with a list of
terms per leaf) is an ``object``; primals and terms may be any array-likes."""

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.experimental.jet import jet
from jaxtyped.typing import Array


def pair(x: Array, y: Array) -> tuple[Array, dict[str, Array]]:
    return x * y, {"y": y}


def check(x: Array) -> None:
    primal, series = jet(jnp.sin, (x,), ((x, x),))
    assert_type(primal, Array)
    assert_type(series, list[Array])
    assert_type(jet(jnp.exp, [1.0], [[1.0, np.float32(2.0)]], factorial_scaled=False), tuple[Array, list[Array]])
    assert_type(jet(pair, (x, 2.0), ((x,), (1.0,))), tuple[tuple[Array, dict[str, Array]], object])
    assert_type(jet(jt.jit(jnp.tanh), (x,), ((x, x, x),))[1], list[Array])
