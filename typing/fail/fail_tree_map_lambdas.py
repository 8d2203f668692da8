"""tree_map's precise results are checked (issue 20): a container keeps its
type through a lambda, so misusing the result is an error in both
checkers; a result that is not a tree of the same type is object."""

import dataclasses

import jaxtyped.numpy as jnp
from jaxtyped.tree_util import register_dataclass, tree_map
from jaxtyped.typing import Array


@register_dataclass
@dataclasses.dataclass
class Linear:
    w: Array
    b: Array


params = {"w": jnp.ones(2)}
lin = Linear(jnp.ones(2), jnp.ones(2))
updated = tree_map(lambda p: p * 2, params)
updated[0]  # expect: mypy[index] pyright[reportArgumentType]
moved = tree_map(lambda p, g: p - g, lin, lin)
moved.bias  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
wrong: list[Array] = tree_map(lambda p: p + 1, params)  # expect: mypy[assignment] pyright[reportAssignmentType]
shapes = tree_map(lambda p: p.shape, [1, 2])
shapes[0]  # expect: mypy[index] pyright[reportIndexIssue]
