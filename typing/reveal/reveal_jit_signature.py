"""Exact types of jit's new forms (issue 20): ``functools.partial(jit,
...)`` with the new options and ``jit(f, donate_argnames=...)`` are
``Jitted[<f's parameters>, <f's result>]`` in both checkers."""

import functools

from typing_extensions import assert_type

import jaxtyped as jt
from jaxtyped.stages import Jitted
from jaxtyped.typing import Array


def g(x: Array, n: int, /) -> Array:
    return x * n


def check(x: Array) -> None:
    assert_type(jt.jit(g, donate_argnames="x"), Jitted[[Array, int], Array])
    assert_type(jt.jit(g, keep_unused=True, inline=True, compiler_options={}), Jitted[[Array, int], Array])
    partial_jit = functools.partial(jt.jit, static_argnames="n", donate_argnames="x")
    assert_type(partial_jit(g), Jitted[[Array, int], Array])
    assert_type(partial_jit(g)(x, 2), Array)
