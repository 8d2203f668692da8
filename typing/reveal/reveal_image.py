"""Return types of jaxtyped.image: resize and scale_and_translate return an
Array for any array-like image, method name or ResizeMethod, also through
jit, vmap and grad; ResizeMethod.from_string returns a ResizeMethod."""

from typing import Any, Literal

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
from jaxtyped import image, lax
from jaxtyped.typing import Array, ArrayLike


def check(x: Array, a: ArrayLike, n: "np.ndarray[Any, np.dtype[np.float32]]") -> None:
    assert_type(image.resize(x, (4, 5), "linear"), Array)
    assert_type(image.resize(a, [4], image.ResizeMethod.CUBIC, antialias=False), Array)
    assert_type(image.resize(n, 7, "nearest", precision=lax.Precision.HIGH), Array)
    assert_type(image.resize(x, (4, 5), "bilinear", precision="highest"), Array)
    assert_type(image.scale_and_translate(x, (2, 8, 8, 3), (1, 2), x, x, "lanczos3"), Array)
    assert_type(image.scale_and_translate(n, (8,), [0], n, a, image.ResizeMethod.AREA, antialias=True), Array)
    assert_type(image.ResizeMethod.from_string("bicubic"), image.ResizeMethod)
    assert_type(image.ResizeMethod.LANCZOS5, Literal[image.ResizeMethod.LANCZOS5])


def check_transformations(x: Array) -> None:
    def shrink(im: Array) -> Array:
        return image.resize(im, (3, 3), "cubic")

    def loss(scale: Array) -> Array:
        return image.scale_and_translate(x, (5, 5), (0, 1), scale, jt.numpy.zeros(2), "linear").sum()

    assert_type(jt.jit(shrink)(x), Array)
    assert_type(jt.vmap(shrink)(x), Array)
    assert_type(jt.grad(loss)(x), Array)
