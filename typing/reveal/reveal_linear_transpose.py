"""Result types of ``linear_transpose``: a tuple of Arrays for array,
scalar and ``ShapeDtypeStruct`` primals, of pytrees for pytree primals."""

from collections.abc import Callable

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, PyTree


def check(x: Array, f: Callable[[Array], Array], g: Callable[[dict[str, Array]], Array]) -> None:
    assert_type(jt.linear_transpose(f, 2.0)(x), tuple[Array, ...])
    assert_type(jt.linear_transpose(f, jt.ShapeDtypeStruct((), jnp.float32, weak_type=True))(x), tuple[Array, ...])
    assert_type(jt.linear_transpose(g, {"a": x})(x), tuple[PyTree, ...])
