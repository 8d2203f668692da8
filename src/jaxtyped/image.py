"""Image resampling (JAX's ``jax.image``).

``jaxtyped.image.resize(image, shape, method)`` resamples an image to a new
shape (dimensions whose size does not change, such as batch and channels,
are left alone); ``scale_and_translate(image, shape, spatial_dims, scale,
translation, method)`` applies a scale and a translation to chosen
dimensions, with array (traceable) ``scale`` and ``translation``.
``method`` is a :class:`ResizeMethod` (NEAREST, LINEAR, LANCZOS3, LANCZOS5,
CUBIC, CUBIC_PYTORCH, AREA) or one of its names (``"bilinear"``,
``"bicubic"``, ...); antialiasing applies when downsampling.

Example:
    >>> import jaxtyped.numpy as jnp
    >>> from jaxtyped import image
    >>> image.resize(jnp.array([0.0, 1.0]), (4,), "linear")
    Array([0.  , 0.25, 0.75, 1.  ], dtype=float32)
"""

from jaxtyped._src.image import ResizeMethod, resize, scale_and_translate

__all__ = ["ResizeMethod", "resize", "scale_and_translate"]
