"""Return types of eager jaxtyped.numpy code and Array members: outputs are
typed strictly (Array, tuple[int, ...], np.dtype[Any], Python scalars)."""

from collections.abc import Iterator
from typing import Any

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike, DType, Shape


def check(x: Array, y: Array, n: "np.ndarray[Any, np.dtype[np.float32]]", a: ArrayLike) -> None:
    assert_type(jnp.sin(x), Array)
    assert_type(jnp.sin(a), Array)
    assert_type(jnp.asarray(a), Array)
    assert_type(x + 1, Array)
    assert_type(1 + x, Array)
    assert_type(2.5 * x, Array)
    assert_type(x + n, Array)
    # n + x is NumPy's operator's type (an ndarray), as for JAX: an Array has
    # __array__, so NumPy's operators accept it (typing/pass/pass_eager_arraylike.py).
    assert_type(np.float32(2.0) * x, Array)
    assert_type(x @ y, Array)
    assert_type(-x, Array)
    assert_type(x**2, Array)
    assert_type(x == y, Array)
    assert_type(x != 1, Array)
    assert_type(x < y, Array)
    assert_type((x > 0) & (y > 0), Array)
    assert_type(x.shape, tuple[int, ...])
    assert_type(x.shape, Shape)
    assert_type(x.dtype, np.dtype[Any])
    assert_type(x.dtype, DType)
    assert_type(x.ndim, int)
    assert_type(x.size, int)
    assert_type(x.weak_type, bool)
    assert_type(jnp.zeros(3).sum(), Array)
    assert_type(x.sum(axis=0), Array)
    assert_type(x.mean(), Array)
    assert_type(x.reshape(2, -1), Array)
    assert_type(x.reshape((2, -1)), Array)
    assert_type(x.T, Array)
    assert_type(x.astype(jnp.int32), Array)
    assert_type(x[0], Array)
    assert_type(x[1:, None], Array)
    assert_type(float(x), float)
    assert_type(int(x), int)
    assert_type(bool(x), bool)
    assert_type(complex(x), complex)
    assert_type(x.item(), bool | int | float | complex)
    assert_type(x.item(0), bool | int | float | complex)
    assert_type(x.item(1, 2), bool | int | float | complex)
    assert_type(x.tolist(), object)
    assert_type(len(x), int)
    assert_type(iter(x), Iterator[Array])
    assert_type(divmod(x, 2), tuple[Array, Array])
    assert_type(jnp.float32(1.0), Array)
    assert_type(jnp.float32.dtype, np.dtype[Any])
    assert_type(jnp.zeros(3, dtype=jnp.float32), Array)
    assert_type(jnp.where(x > 0, x, 0.0), Array)
    assert_type(jt.config.jax_enable_x64, bool)
