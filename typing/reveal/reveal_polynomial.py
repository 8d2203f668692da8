"""Result types of ``roots``, ``poly`` of a matrix and ``polyfit``: the
``full``/``cov`` overloads pick the result structure from literals."""

from typing_extensions import assert_type

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike


def check(x: Array, a: ArrayLike, flag: bool) -> None:
    assert_type(jnp.roots(x, strip_zeros=False), Array)
    assert_type(jnp.poly(x), Array)
    assert_type(jnp.polyfit(x, a, 2), Array)
    assert_type(jnp.polyfit(x, a, 2, full=False), Array)
    assert_type(jnp.polyfit(x, a, 2, cov=True), tuple[Array, Array])
    assert_type(jnp.polyfit(x, a, 2, full=True), tuple[Array, Array, Array, Array, Array])
    assert_type(jnp.polyfit(x, a, 2, 1e-3, True), tuple[Array, Array, Array, Array, Array])
    assert_type(jnp.polyfit(x, a, 2, full=True, cov=True), tuple[Array, Array, Array, Array, Array])
    assert_type(jnp.polyfit(x, a, 2, full=flag), Array | tuple[Array, ...])
    assert_type(jnp.polyfit(x, a, 2, w=a, cov=True), tuple[Array, Array])
    assert_type(jnp.polyfit(x, a, 2, full=True)[2], Array)
