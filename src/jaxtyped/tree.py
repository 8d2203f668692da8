"""Short names for the pytree utilities, mirroring ``jax.tree``.

``jaxtyped.tree.map`` is ``jaxtyped.tree_util.tree_map`` and so on; the
signatures and semantics are those of ``jax.tree``.
"""

from jaxtyped._src.api_tree import tree_flatten as flatten
from jaxtyped._src.api_tree import tree_flatten_with_path as flatten_with_path
from jaxtyped._src.api_tree import tree_leaves as leaves
from jaxtyped._src.api_tree import tree_leaves_with_path as leaves_with_path
from jaxtyped._src.api_tree import tree_map as map
from jaxtyped._src.api_tree import tree_map_with_path as map_with_path
from jaxtyped._src.api_tree import tree_reduce as reduce
from jaxtyped._src.api_tree import tree_reduce_associative as reduce_associative
from jaxtyped._src.api_tree import tree_structure as structure
from jaxtyped._src.api_tree import tree_transpose as transpose
from jaxtyped._src.api_tree import tree_unflatten as unflatten
from jaxtyped._src.tree_util import static
from jaxtyped._src.tree_util import tree_all as all
from jaxtyped._src.tree_util import tree_broadcast as broadcast

__all__ = [
    "all",
    "broadcast",
    "reduce_associative",
    "static",
    "flatten",
    "flatten_with_path",
    "leaves",
    "leaves_with_path",
    "map",
    "map_with_path",
    "reduce",
    "structure",
    "transpose",
    "unflatten",
]
