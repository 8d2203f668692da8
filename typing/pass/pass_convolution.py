"""The windowed-reduction and convolution family as users write it:
lax.conv_general_dilated with layout strings or ConvDimensionNumbers, the
conv helpers, pooling with lax.reduce_window, and jnp.convolve/correlate;
each result is annotated with its strict type and checked."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array

images = jnp.ones((2, 8, 8, 3))
kernel = jnp.ones((3, 3, 3, 4))
layout = ("NHWC", "HWIO", "NHWC")

features: Array = lax.conv_general_dilated(images, kernel, (1, 1), "SAME", dimension_numbers=layout)
strided: Array = lax.conv_general_dilated(
    images, kernel, (2, 2), [(1, 1), (0, 1)], lhs_dilation=(1, 1), rhs_dilation=(2, 1), dimension_numbers=layout
)
numbers: lax.ConvDimensionNumbers = lax.conv_dimension_numbers(images.shape, kernel.shape, layout)
same_numbers: Array = lax.conv_general_dilated(images, kernel, (1, 1), "VALID", dimension_numbers=numbers)
pads: list[tuple[int, int]] = lax.padtype_to_pads((8, 8), (3, 3), (2, 2), "SAME")
assert features.shape == (2, 8, 8, 4) and strided.shape == (2, 3, 4, 4) and same_numbers.shape == (2, 6, 6, 4)
assert numbers == lax.ConvDimensionNumbers((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2)) and pads == [(0, 1), (0, 1)]

nchw = jnp.ones((2, 3, 8, 8))
oihw = jnp.ones((4, 3, 3, 3))
plain: Array = lax.conv(nchw, oihw, (1, 1), "SAME")
general: Array = lax.conv_with_general_padding(nchw, oihw, (1, 1), [(1, 1), (1, 1)], None, (1, 1))
up: Array = lax.conv_transpose(images, kernel, (2, 2), "SAME")
patches: Array = lax.conv_general_dilated_patches(nchw, (2, 2), (1, 1), "VALID")
half: Array = lax.conv(nchw.astype(jnp.bfloat16), oihw.astype(jnp.bfloat16), (1, 1), "SAME", preferred_element_type=jnp.float32)
assert plain.shape == general.shape == (2, 4, 8, 8) and up.shape == (2, 16, 16, 4)
assert patches.shape == (2, 12, 7, 7) and half.dtype == np.float32

pooled: Array = lax.reduce_window(images, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
summed: Array = lax.reduce_window(images, 0.0, lax.add, (1, 3, 3, 1), (1, 1, 1, 1), "SAME")
smallest: Array = lax.reduce_window(images, jnp.inf, lax.min, (1, 2, 2, 1), padding=[(0, 0), (1, 0), (0, 1), (0, 0)])
shape: tuple[int, ...] = lax.reduce_window_shape_tuple((2, 8, 8, 3), (1, 2, 2, 1), (1, 2, 2, 1), [(0, 0)] * 4)
assert pooled.shape == shape == (2, 4, 4, 3) and summed.shape == (2, 8, 8, 3) and smallest.shape == (2, 8, 8, 3)


def loss(w: Array, x: Array) -> Array:
    y = lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers=layout)
    return jnp.sum(lax.reduce_window(y, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID") ** 2)


gradient: Array = jt.jit(jt.grad(loss))(kernel, images)
assert gradient.shape == kernel.shape

signal = jnp.array([1.0, 2.0, 3.0, 4.0])
full: Array = jnp.convolve(signal, jnp.array([0.0, 1.0, 0.5]))
valid: Array = jnp.correlate(signal, np.array([1.0, -1.0]), "valid")
exact: Array = jnp.convolve(np.arange(4), np.arange(3), mode="same", preferred_element_type=jnp.int32)
assert np.allclose(np.asarray(full), np.convolve([1.0, 2.0, 3.0, 4.0], [0.0, 1.0, 0.5]))
assert np.allclose(np.asarray(valid), np.correlate([1.0, 2.0, 3.0, 4.0], [1.0, -1.0], "valid"))
assert exact.dtype == np.int32 and exact.shape == (4,)
