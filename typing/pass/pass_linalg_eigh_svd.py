"""The eigh and SVD family as users write it: lax.linalg.eigh (every
keyword) and lax.linalg.svd, whose result is three arrays or, with
compute_uv=False, one; each result annotated with its strict type and
checked with NumPy."""

import numpy as np

import jaxtyped as jt
from jaxtyped import lax
from jaxtyped.typing import Array

host = np.array([[2.0, 1.0], [1.0, 3.0]], dtype=np.float32)
a = jt.numpy.asarray(host)

v, w = lax.linalg.eigh(a)
vectors: Array = v
values: Array = w
assert np.allclose(np.asarray(w), np.linalg.eigvalsh(host), atol=1e-5) and vectors.shape == (2, 2)
raw: tuple[Array, Array] = lax.linalg.eigh(
    host,
    lower=False,
    symmetrize_input=False,
    sort_eigenvalues=True,
    subset_by_index=None,
    implementation=lax.linalg.EighImplementation.QR,
)
assert raw[1].shape == (2,)

u, s, vh = lax.linalg.svd(a)
left: Array = u
right: Array = vh
assert np.allclose(np.asarray(s), np.linalg.svd(host, compute_uv=False), atol=1e-5) and left.shape == right.shape == (2, 2)
singular: Array = lax.linalg.svd(host, compute_uv=False)
reduced: tuple[Array, Array, Array] = lax.linalg.svd(
    host, full_matrices=False, compute_uv=True, subset_by_index=None, algorithm=lax.linalg.SvdAlgorithm.QR
)
assert singular.shape == (2,) and reduced[0].shape == (2, 2)


def flexible(flag: bool) -> Array | tuple[Array, Array, Array]:
    return lax.linalg.svd(a, compute_uv=flag)


assert isinstance(flexible(False), jt.Array) and isinstance(flexible(True), tuple)
