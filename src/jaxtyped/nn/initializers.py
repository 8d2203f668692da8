"""Weight initializers (JAX's ``jax.nn.initializers``), bit for bit JAX's
for the same key, shape and dtype.

Example:
    >>> import jaxtyped as jt
    >>> init = jt.nn.initializers.glorot_normal()
    >>> init(jt.random.key(0), (3, 4)).shape
    (3, 4)
"""

from jaxtyped._src.nn.initializers import (
    Initializer,
    constant,
    delta_orthogonal,
    glorot_normal,
    glorot_uniform,
    he_normal,
    he_uniform,
    kaiming_normal,
    kaiming_uniform,
    lecun_normal,
    lecun_uniform,
    normal,
    ones,
    orthogonal,
    truncated_normal,
    uniform,
    variance_scaling,
    xavier_normal,
    xavier_uniform,
    zeros,
)

__all__ = [
    "Initializer", "constant", "delta_orthogonal", "glorot_normal", "glorot_uniform", "he_normal", "he_uniform",
    "kaiming_normal", "kaiming_uniform", "lecun_normal", "lecun_uniform", "normal", "ones", "orthogonal",
    "truncated_normal", "uniform", "variance_scaling", "xavier_normal", "xavier_uniform", "zeros",
]  # fmt: skip
