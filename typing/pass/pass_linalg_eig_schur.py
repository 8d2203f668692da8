"""The eig, Schur and tridiagonal family as users write it: lax.linalg.eig
(every flag combination, the implementation enum), schur (with and
without Schur vectors), hessenberg and tridiagonal; each result is
annotated with its strict type and checked with NumPy."""

import numpy as np

from jaxtyped import lax
from jaxtyped.typing import Array

host = np.array([[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]], dtype=np.float32)

w, vl, vr = lax.linalg.eig(host)
assert np.allclose(host @ np.asarray(vr), np.asarray(vr) * np.asarray(w), atol=1e-4) and vl.shape == (3, 3)
w_right, v_right = lax.linalg.eig(host, compute_left_eigenvectors=False, enable_eigvec_derivs=True)
w_left, v_left = lax.linalg.eig(host, compute_right_eigenvectors=False)
(only_w,) = lax.linalg.eig(host, compute_left_eigenvectors=False, compute_right_eigenvectors=False)
chosen: Array = lax.linalg.eig(host, implementation=lax.linalg.EigImplementation.LAPACK)[0]
assert only_w.shape == w_right.shape == w_left.shape == chosen.shape == (3,) and v_right.shape == v_left.shape

t, q = lax.linalg.schur(host)
assert np.allclose(np.asarray(q) @ np.asarray(t) @ np.asarray(q).T, host, atol=1e-4)
(t_only,) = lax.linalg.schur(host, compute_schur_vectors=False, sort_eig_vals=False, select_callable=None)
assert t_only.shape == (3, 3)

packed, taus = lax.linalg.hessenberg(host)
assert packed.shape == (3, 3) and taus.shape == (2,)
reduced, d, e, tri_taus = lax.linalg.tridiagonal(host, lower=False)
assert np.allclose(np.asarray(d), np.diagonal(np.asarray(reduced))) and e.shape == tri_taus.shape == (2,)
