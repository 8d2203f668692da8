"""``ravel_pytree`` (JAX's ``jax.flatten_util``): a pytree of arrays as one
flat vector, and the function that rebuilds the tree from such a vector.

The leaves are concatenated after promotion to their common dtype. When
every leaf already has that dtype, the rebuilding function keeps the
vector's dtype (it is dtype-polymorphic, as JAX's: an optimizer may hand it
a float64 vector of a float32 tree); otherwise it requires the promoted
dtype and converts each piece back to its leaf's dtype.
"""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import numpy as np

from jaxtyped._src.core.array import Array
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.convenience import split
from jaxtyped._src.lax.elementwise_base import convert_element_type
from jaxtyped._src.lax.structural import concatenate, reshape
from jaxtyped._src.numpy.creation import asarray, zeros
from jaxtyped._src.numpy.promotion import result_type
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten

__all__ = ["ravel_pytree"]

T = TypeVar("T")


@dataclass(frozen=True)
class _Unravel:
    """Rebuild the tree from a flat vector (hashable, so it can be a static
    argument of ``jit``, as JAX's)."""

    tree: PyTreeDef
    sizes: tuple[int, ...]
    shapes: tuple[tuple[int, ...], ...]
    # The leaves' dtypes and the promoted one; None when they all had it
    # (then the vector's own dtype is kept).
    from_dtypes: tuple[np.dtype[Any], ...] | None
    to_dtype: np.dtype[Any] | None

    def __call__(self, flat: Array) -> object:
        vector = asarray(flat)
        total = sum(self.sizes)
        if vector.shape != (total,):
            raise JaxtypedValueError(
                f"ravel_pytree's unravel function expected an array of shape ({total},), "
                f"got {vector.aval.str_short()}"
            )
        if self.from_dtypes is not None and vector.dtype != self.to_dtype:
            raise JaxtypedTypeError(
                f"unravel function given array of dtype {vector.dtype}, but expected dtype {self.to_dtype}"
            )
        if not self.sizes:
            return tree_unflatten(self.tree, [])
        chunks = split(vector, self.sizes) if len(self.sizes) > 1 else [vector]
        leaves = [reshape(chunk, shape) for chunk, shape in zip(chunks, self.shapes)]
        if self.from_dtypes is not None:
            leaves = [convert_element_type(leaf, dtype) for leaf, dtype in zip(leaves, self.from_dtypes)]
        return tree_unflatten(self.tree, leaves)


def ravel_pytree(pytree: T) -> tuple[Array, Callable[[Array], T]]:
    """The leaves of ``pytree`` raveled and concatenated into one 1-D array
    (of their promoted dtype), and the function that rebuilds a tree of the
    same structure from such an array (JAX's ``jax.flatten_util.ravel_pytree``).
    A tree without leaves gives an empty float32 array.

    Example:
        >>> import jaxtyped.numpy as jnp
        >>> from jaxtyped.flatten_util import ravel_pytree
        >>> flat, unravel = ravel_pytree({"w": jnp.ones((2, 2)), "b": jnp.zeros(2)})
        >>> flat
        Array([0., 0., 1., 1., 1., 1.], dtype=float32)
        >>> unravel(flat)["w"].shape
        (2, 2)

    Raises:
        JaxtypedTypeError: a leaf is not an array or a scalar.
    """
    leaves, tree = tree_flatten(pytree)
    arrays = [_leaf_array(leaf, i) for i, leaf in enumerate(leaves)]
    if not arrays:
        unravel = _Unravel(tree, (), (), None, None)
        return zeros((0,), np.float32), unravel  # type: ignore[return-value]  # _Unravel rebuilds pytree's tree, a T  # pyright: ignore[reportReturnType]
    dtypes_in = tuple(a.dtype for a in arrays)
    to_dtype = result_type(*dtypes_in)
    sizes = tuple(a.size for a in arrays)
    shapes = tuple(a.shape for a in arrays)
    if all(d == to_dtype for d in dtypes_in):
        flat = concatenate([reshape(a, (a.size,)) for a in arrays], 0)
        unravel = _Unravel(tree, sizes, shapes, None, None)
    else:
        flat = concatenate([reshape(convert_element_type(a, to_dtype), (a.size,)) for a in arrays], 0)
        unravel = _Unravel(tree, sizes, shapes, dtypes_in, to_dtype)
    return flat, unravel  # type: ignore[return-value]  # as above  # pyright: ignore[reportReturnType]


def _leaf_array(leaf: object, index: int) -> Array:
    try:
        return asarray(leaf)
    except (TypeError, ValueError) as err:
        raise JaxtypedTypeError(
            f"ravel_pytree: leaf {index} must be an array or a scalar, got {type(leaf).__name__}"
        ) from err

