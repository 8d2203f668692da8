"""JAX's module paths of names that live at the top level too:
``jaxtyped.custom_derivatives`` and ``jaxtyped.version`` give the same
objects, with the same types."""

from typing_extensions import assert_type

import jaxtyped as jt
from jaxtyped.custom_derivatives import custom_jvp, custom_vjp
from jaxtyped.typing import Array


@custom_jvp
def f(x: Array) -> Array:
    return x * 2.0


@custom_vjp
def g(x: Array) -> Array:
    return x * 3.0


def check(x: Array) -> None:
    assert_type(f(x), Array)
    assert_type(g(x), Array)
    assert_type(jt.version.__version__, str)
    assert_type(jt.__version__, str)
