"""Misuse of ``jaxtyped.typing`` names: a set or an arbitrary object is not
a ``PyTree``, an array or a string is not a ``ScalarLike``, and a ``Shape``
is not a ``DType``."""

import jaxtyped.numpy as jnp
from jaxtyped.typing import DType, PyTree, ScalarLike


def count_leaves(tree: PyTree) -> int:
    return 0


def takes_scalar(value: ScalarLike) -> None:
    pass


count_leaves({1, 2})  # expect: mypy[arg-type] pyright[reportArgumentType]
count_leaves(object())  # expect: mypy[arg-type] pyright[reportArgumentType]
takes_scalar(jnp.ones(3))  # expect: mypy[arg-type] pyright[reportArgumentType]
takes_scalar("1.0")  # expect: mypy[arg-type] pyright[reportArgumentType]
wrong: DType = jnp.ones(3).shape  # expect: mypy[assignment] pyright[reportAssignmentType]
