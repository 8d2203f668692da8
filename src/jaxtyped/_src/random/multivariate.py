"""Multivariate distributions of ``jaxtyped.random`` (layer L5):
``multivariate_normal``, ``ball`` and ``orthogonal``, bit-exact with JAX
0.10.2 for the same key.

- ``multivariate_normal`` is ``mean + factor @ z`` for standard normal
  ``z``, the factor of ``cov`` from a Cholesky, ``eigh`` or SVD
  decomposition (the last two allow singular covariances);
- ``ball`` scales a generalized-normal vector by the p-norm of itself and
  an exponential draw (Barthe, Guedon, Mendelson, Naor 2005);
- ``orthogonal`` is the Q of a normal matrix's QR decomposition with the
  columns' signs fixed by R's diagonal, which makes it Haar-distributed
  (Mezzadri 2007).

Each is jitted internally with static shapes and dtypes, as in JAX, so the
same XLA program runs eagerly and under ``jit``.
"""

from typing import Any

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.api_jit import jit
from jaxtyped._src.core.array import Array, ArrayLike, ShapeLike
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.numpy import ufuncs as ju
from jaxtyped._src.numpy.einsum import einsum
from jaxtyped._src.numpy.linalg_decompositions import cholesky, eigh, qr, svd
from jaxtyped._src.numpy.linalg_products import diagonal, matrix_transpose
from jaxtyped._src.numpy.promotion import promote_dtypes
from jaxtyped._src.numpy.shape_ops import expand_dims
from jaxtyped._src.random.continuous import exponential, normal
from jaxtyped._src.random.continuous_derived import generalized_normal
from jaxtyped._src.random.discrete import broadcast_shapes_checked, check_no_sharding, check_shape_argument, split_pair
from jaxtyped._src.random.keys import KeyArray, KeyArrayLike, canonical_shape, check_single_key
from jaxtyped._src.util import index_arg

__all__ = ["multivariate_normal", "ball", "orthogonal"]

_METHODS = ("svd", "eigh", "cholesky")


def _float_dtype(dtype: dtypes.DTypeLike | None) -> np.dtype[Any]:
    return dtypes.canonicalize_dtype(float if dtype is None else dtype)


# === multivariate_normal ===


def _multivariate_normal_impl(
    key: KeyArray, mean: Array, cov: Array, shape: tuple[int, ...] | None, dtype: np.dtype[Any], method: str
) -> Array:
    if mean.ndim < 1:
        raise JaxtypedValueError(f"multivariate_normal requires mean.ndim >= 1, got mean.ndim == {mean.ndim}")
    if cov.ndim < 2:
        raise JaxtypedValueError(f"multivariate_normal requires cov.ndim >= 2, got cov.ndim == {cov.ndim}")
    n = mean.shape[-1]
    if cov.shape[-2:] != (n, n):
        raise JaxtypedValueError(
            f"multivariate_normal requires cov.shape == (..., n, n) for n={n}, but got cov.shape == {cov.shape}."
        )
    if shape is None:
        shape = broadcast_shapes_checked("multivariate_normal", mean.shape[:-1], cov.shape[:-2])
    else:
        check_shape_argument("normal", shape, mean.shape[:-1], cov.shape[:-2])
    if method == "svd":
        # Square: the reduced SVD is the full one (and has a derivative here).
        u, s, _ = svd(cov, full_matrices=False)
        factor = u * ju.sqrt(s[..., None, :])
    elif method == "eigh":
        w, v = eigh(cov)
        factor = v * ju.sqrt(w[..., None, :])
    else:
        factor = cholesky(cov)
    samples = normal(key, shape + mean.shape[-1:], dtype)
    return mean + einsum("...ij,...j->...i", factor, samples)


_multivariate_normal_jit = jit(_multivariate_normal_impl, static_argnums=(3, 4, 5))


def multivariate_normal(
    key: KeyArrayLike,
    mean: ArrayLike,
    cov: ArrayLike,
    shape: ShapeLike | None = None,
    dtype: dtypes.DTypeLike | None = None,
    method: str = "cholesky",
    *,
    out_sharding: None = None,
) -> Array:
    """Samples of normal distributions with ``mean`` (``(..., n)``) and
    covariance ``cov`` (``(..., n, n)``) (JAX's ``jax.random.multivariate_normal``).

    ``method`` ('cholesky', 'eigh' or 'svd') factors ``cov``; the last two
    allow singular covariances. The result has shape ``shape + (n,)``
    (``shape`` defaults to the broadcast batch shapes of ``mean`` and ``cov``).
    """
    check_no_sharding("multivariate_normal", out_sharding)
    typed_key = check_single_key("multivariate_normal", key)
    mean_arr, cov_arr = promote_dtypes("multivariate_normal", [mean, cov], inexact=True)
    if method not in _METHODS:
        raise JaxtypedValueError("method must be one of {'svd', 'eigh', 'cholesky'}")
    out_dtype = mean_arr.dtype if dtype is None else dtypes.canonicalize_dtype(dtype)
    if not dtypes.is_floating(out_dtype):
        raise JaxtypedValueError(f"dtype argument to `multivariate_normal` must be a float dtype, got {out_dtype}")
    out_shape = None if shape is None else canonical_shape("multivariate_normal", shape)
    return _multivariate_normal_jit(typed_key, mean_arr, cov_arr, out_shape, out_dtype, method)


# === ball ===


def _ball_impl(key: KeyArray, p: ArrayLike, d: int, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Array:
    key_g, key_e = split_pair("ball", key)
    g = generalized_normal(key_g, p, (*shape, d), dtype)
    e = exponential(key_e, shape, dtype)
    norm = ju.power(ju.power(ju.abs(g), p).sum(-1) + e, ju.divide(1, p))
    return g / norm[..., None]


_ball_jit = jit(_ball_impl, static_argnums=(2, 3, 4))


def ball(
    key: KeyArrayLike,
    d: int,
    p: float = 2,
    shape: ShapeLike = (),
    dtype: dtypes.DTypeLike | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Uniform samples of the unit ``p``-norm ball in ``d`` dimensions
    (JAX's ``jax.random.ball``), of shape ``(*shape, d)``."""
    check_no_sharding("ball", out_sharding)
    out_shape = canonical_shape("ball", shape)
    typed_key = check_single_key("ball", key)
    out_dtype = _float_dtype(dtype)
    size = index_arg(d, "random.ball d")
    return _ball_jit(typed_key, p, size, out_shape, out_dtype)


# === orthogonal ===


def _orthogonal_impl(key: KeyArray, n: int, m: int, shape: tuple[int, ...], dtype: np.dtype[Any]) -> Array:
    z = normal(key, (*shape, max(n, m), min(n, m)), dtype)
    q, r = qr(z)
    x = q * expand_dims(ju.sign(diagonal(r)), -2)
    return matrix_transpose(x) if n < m else x


_orthogonal_jit = jit(_orthogonal_impl, static_argnums=(1, 2, 3, 4))


def orthogonal(
    key: KeyArrayLike,
    n: int,
    shape: ShapeLike = (),
    dtype: dtypes.DTypeLike | None = None,
    m: int | None = None,
    *,
    out_sharding: None = None,
) -> Array:
    """Haar-random orthogonal (unitary, for a complex dtype) ``n x n``
    matrices, or semi-orthogonal ``n x m`` ones, of shape ``(*shape, n, m)``
    (JAX's ``jax.random.orthogonal``)."""
    check_no_sharding("orthogonal", out_sharding)
    out_shape = canonical_shape("orthogonal", shape)
    typed_key = check_single_key("orthogonal", key)
    out_dtype = _float_dtype(dtype)
    rows = index_arg(n, "random.orthogonal n")
    cols = rows if m is None else index_arg(m, "random.orthogonal m")
    return _orthogonal_jit(typed_key, rows, cols, out_shape, out_dtype)
