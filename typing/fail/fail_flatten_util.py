"""Wrong uses of ``ravel_pytree``'s results: the rebuilt tree keeps its type,
and the rebuilding function takes an Array."""

from jaxtyped.flatten_util import ravel_pytree
from jaxtyped.typing import Array


def check(params: dict[str, Array]) -> str:
    flat, unravel = ravel_pytree(params)
    unravel(flat)[0]  # expect: mypy[index] pyright[reportArgumentType]
    unravel("flat")  # expect: mypy[arg-type] pyright[reportArgumentType]
    name: str = ravel_pytree(params)[0]  # expect: mypy[assignment] pyright[reportAssignmentType]
    return name
