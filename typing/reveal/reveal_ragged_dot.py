"""Result types of the grouped matmul: arrays from ``ragged_dot`` and
``ragged_dot_general``, tuples of ints in ``RaggedDotDimensionNumbers``."""

import numpy as np
from typing_extensions import assert_type

from jaxtyped import lax
from jaxtyped.typing import Array


def check(x: Array, w: Array, sizes: Array) -> None:
    assert_type(lax.ragged_dot(x, w, sizes), Array)
    assert_type(lax.ragged_dot(x, w, sizes, preferred_element_type=np.float32, precision="highest"), Array)
    numbers = lax.RaggedDotDimensionNumbers((([1], [0]), ([], [])), [1], [])
    assert_type(numbers.lhs_ragged_dimensions, tuple[int, ...])
    assert_type(numbers.rhs_group_dimensions, tuple[int, ...])
    assert_type(numbers.dot_dimension_numbers[0][0], tuple[int, ...])
    assert_type(lax.ragged_dot_general(x, w, sizes, numbers), Array)
    assert_type(lax.ragged_dot_general(x, w, np.array([2, 1], np.int32), numbers, None, np.int32), Array)
