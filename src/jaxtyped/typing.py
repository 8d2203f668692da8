"""Types for annotating code that uses jaxtyped (JEP 12049).

Inputs are typed loosely, outputs strictly: annotate parameters with
``ArrayLike``/``DTypeLike``/``ShapeLike`` and results with ``Array``/
``DType``/``Shape``.

Example:
    >>> from jaxtyped.typing import Array, ArrayLike
    >>> import jaxtyped.numpy as jnp
    >>> def double(x: ArrayLike) -> Array:
    ...     return jnp.asarray(x) * 2
"""

from typing import Any

import numpy as np

from jaxtyped._src.core.array import Array, ArrayLike, DimSize, ShapeLike
from jaxtyped._src.dtypes import DTypeLike

# A dtype as jaxtyped returns it.
DType = np.dtype[Any]
# A shape as jaxtyped returns it.
Shape = tuple[int, ...]

__all__ = ["Array", "ArrayLike", "DType", "DTypeLike", "DimSize", "Shape", "ShapeLike"]
