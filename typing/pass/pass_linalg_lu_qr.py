"""The LU and QR family as users write it: lax.linalg.lu,
lu_pivots_to_permutation, qr (full and reduced, with and without
pivoting), geqrf, householder_product and ormqr; each result is annotated
with its strict type and checked with NumPy."""

import numpy as np

import jaxtyped as jt
from jaxtyped import lax
from jaxtyped.typing import Array

host = np.array([[1.0, 2.0, 0.5], [4.0, 1.0, 3.0], [2.0, 5.0, 1.0], [0.0, 1.0, 1.0]], dtype=np.float32)
a = jt.numpy.asarray(host)

packed, pivots, permutation = lax.linalg.lu(a)
lu_result: tuple[Array, Array, Array] = lax.linalg.lu(host)
lower = np.tril(np.asarray(packed)[:, :3], -1) + np.eye(4, 3)
assert np.allclose(lower @ np.triu(np.asarray(packed)[:3]), host[np.asarray(permutation)], atol=1e-5)
perm: Array = lax.linalg.lu_pivots_to_permutation(pivots, 4)
assert np.array_equal(np.asarray(perm), np.asarray(lu_result[2]))

q, r = lax.linalg.qr(a)
q_reduced, r_reduced = lax.linalg.qr(host, full_matrices=False, use_magma=None)
q_pivoted, r_pivoted, columns = lax.linalg.qr(a, pivoting=True, full_matrices=False)
assert q.shape == (4, 4) and r.shape == (4, 3) and q_reduced.shape == (4, 3) and r_reduced.shape == (3, 3)
assert np.allclose(np.asarray(q_reduced) @ np.asarray(r_reduced), host, atol=1e-5)
assert np.allclose(np.asarray(q_pivoted) @ np.asarray(r_pivoted), host[:, np.asarray(columns)], atol=1e-5)

reflectors, taus = lax.linalg.geqrf(a)
formed: Array = lax.linalg.householder_product(reflectors, taus)
applied: Array = lax.linalg.ormqr(reflectors, taus, np.eye(4, dtype=np.float32), left=True, transpose=False)
assert np.allclose(np.asarray(formed), np.asarray(q_reduced), atol=1e-5)
assert np.allclose(np.asarray(applied), np.asarray(q), atol=1e-5)
