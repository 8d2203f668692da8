"""Return types of the windowed-reduction and convolution family: every
convolution and windowed reduction returns Array; the helpers return
ConvDimensionNumbers, padding pairs and shape tuples."""

from typing_extensions import assert_type

import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array


def check(x: Array, w: Array, v: Array) -> None:
    layout = ("NHWC", "HWIO", "NHWC")
    assert_type(lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=layout), Array)
    assert_type(lax.conv(x, w, (1, 1), "VALID"), Array)
    assert_type(lax.conv_with_general_padding(x, w, (1, 1), [(0, 0), (1, 1)], (1, 1), None), Array)
    assert_type(lax.conv_transpose(x, w, (2, 2), "SAME"), Array)
    assert_type(lax.conv_general_dilated_patches(x, (2, 2), (1, 1), "SAME"), Array)
    assert_type(lax.conv_dimension_numbers(x.shape, w.shape, layout), lax.ConvDimensionNumbers)
    assert_type(lax.padtype_to_pads((4, 4), (3, 3), (1, 1), "SAME"), list[tuple[int, int]])
    assert_type(lax.reduce_window(x, 0.0, lax.add, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"), Array)
    assert_type(lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1)), Array)
    assert_type(lax.reduce_window_shape_tuple((4, 4), (2, 2), (2, 2), [(0, 0), (0, 0)]), tuple[int, ...])
    assert_type(jnp.convolve(v, v), Array)
    assert_type(jnp.correlate(v, v, "full"), Array)
