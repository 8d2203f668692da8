"""Result types of jaxtyped.dtypes: result_type is a dtype, or a (dtype,
weak) pair with return_weak_type_flag=True; canonicalize_dtype is a dtype
(or an extended dtype when those are allowed); issubdtype accepts a key
array's dtype."""

from typing import Any

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import dtypes
from jaxtyped._src.dtypes import ExtendedDType


def check(x: jt.Array) -> None:
    assert_type(dtypes.result_type(x, 1.0), np.dtype[Any])
    assert_type(dtypes.result_type(x, 1.0, return_weak_type_flag=True), tuple[np.dtype[Any], bool])
    assert_type(dtypes.canonicalize_dtype("float64"), np.dtype[Any])
    key_dtype = jt.random.key(0).dtype
    assert_type(dtypes.canonicalize_dtype(key_dtype, allow_extended_dtype=True), np.dtype[Any] | ExtendedDType)
    assert_type(dtypes.issubdtype(key_dtype, dtypes.prng_key), bool)
    assert_type(jnp.issubdtype(x.dtype, jnp.floating), bool)
    assert_type(dtypes.itemsize_bits("int4"), int)
    assert_type(dtypes.scalar_type_of(x), type[bool] | type[int] | type[float] | type[complex])
