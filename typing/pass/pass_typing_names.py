"""The names of ``jaxtyped.typing`` annotate user code in both checkers:
``PyTree`` accepts plain dicts, lists and tuples of arrays (and nestings,
scalars, None), ``ScalarLike`` Python and NumPy scalars, ``KeyArray`` is an
``Array``, and ``DType``/``Shape`` are what arrays report."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, DType, DTypeLike, KeyArray, PyTree, ScalarLike, Shape, ShapeLike


def count_leaves(tree: PyTree) -> int:
    return len(jt.tree_util.tree_leaves(tree))


def as_scalar(value: ScalarLike) -> Array:
    return jnp.asarray(value)


def describe(x: Array) -> tuple[Shape, DType]:
    return x.shape, x.dtype


def fresh(shape: ShapeLike, dtype: DTypeLike) -> Array:
    return jnp.zeros(shape, dtype)


x = jnp.ones(3)
params: dict[str, Array] = {"w": x, "b": x}
layers: list[Array] = [x, x]
nested: tuple[Array, dict[str, list[Array]], None] = (x, {"h": [x]}, None)
assert count_leaves(params) == 2 and count_leaves(layers) == 2 and count_leaves(nested) == 2
assert count_leaves(1.0) == 1 and count_leaves(np.ones(2)) == 1
key: KeyArray = jt.random.key(0)
raw_key: Array = jt.random.PRNGKey(0)
assert as_scalar(2).shape == () and as_scalar(np.float32(2.0)).dtype == jnp.float32
assert describe(fresh((2, 3), jnp.int32)) == ((2, 3), np.dtype("int32"))
