"""Types of ``jaxtyped.flatten_util.ravel_pytree``: the flat vector is an
Array, the rebuilding function returns the tree's own type."""

from collections.abc import Callable

from typing_extensions import assert_type

from jaxtyped.flatten_util import ravel_pytree
from jaxtyped.typing import Array


def check(params: dict[str, Array], pair: tuple[Array, Array]) -> None:
    flat, unravel = ravel_pytree(params)
    assert_type(flat, Array)
    assert_type(unravel, Callable[[Array], dict[str, Array]])
    assert_type(unravel(flat)["w"], Array)
    assert_type(ravel_pytree(pair)[1](flat), tuple[Array, Array])
