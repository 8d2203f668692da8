"""Misuse of shape-annotated functions is rejected as for ``Array``: a
string or a list where an annotated array is expected, an annotated result
used as a ``float``, and an annotation without its shape string. (Shapes and
dtypes themselves are checked at run time, not statically.)"""

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, Float, typechecked


@typechecked
def norm(x: Float[Array, "n"]) -> Float[Array, ""]:
    return jnp.sqrt((x * x).sum())


norm("abc")  # expect: mypy[arg-type] pyright[reportArgumentType]
norm([1.0, 2.0])  # expect: mypy[arg-type] pyright[reportArgumentType]
as_float: float = norm(jnp.ones(3))  # expect: mypy[assignment] pyright[reportAssignmentType]


def no_shape(x: Float[Array]) -> Array:  # expect: mypy[valid-type] pyright[reportInvalidTypeForm]
    return jnp.ones(1)
