"""Misuses of the windowed-reduction and convolution family both checkers
reject: strings where strides, shapes or counts are expected, a
computation that is not a binary function of arrays, unknown keywords, and
results used at the wrong type."""

import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array

x = jnp.ones((2, 3, 8, 8))
w = jnp.ones((4, 3, 3, 3))

lax.conv_general_dilated(x, w, 1, "SAME")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.conv_general_dilated(x, w, (1, 1), 3)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.conv_general_dilated(x, w, (1, 1), "SAME", feature_group_count="2")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.conv_general_dilated(x, w, (1, 1), "SAME", dimension_numbers="NCHW")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.conv(x, w, (1, 1), [(1, 1), (1, 1)])  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.conv_with_general_padding(x, w, (1, 1), "SAME")  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.conv_transpose(x, w, (2, 2), "SAME", transpose_kernel="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.conv_general_dilated_patches(x, 3, (1, 1), "SAME")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.conv_dimension_numbers(x.shape, w.shape, "NCHW")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.padtype_to_pads((4,), (3,), (1,), 0)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.reduce_window(x, 0.0, "add", (1, 1, 2, 2))  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.reduce_window(x, 0.0, lax.add, 2)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.reduce_window(x, 0.0, lax.neg, (1, 1, 2, 2))  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.reduce_window_shape_tuple((4, 4), (2, 2), (1, 1), "SAME")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.convolve(x, w, mode=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.correlate(x, w, "valid", None)  # expect: mypy[call-arg] pyright[reportCallIssue]
pooled: int = lax.reduce_window(x, 0.0, lax.add, (1, 1, 2, 2))  # expect: mypy[assignment] pyright[reportAssignmentType]
y: Array = jnp.convolve("ab", w)  # expect: mypy[arg-type] pyright[reportArgumentType]
