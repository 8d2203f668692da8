"""Functions whose results depend on their flags, called as analysis code
calls them: unique with counts, histograms, meshgrids, decompositions
unpacked by position and by field, index tuples from nonzero and where,
and flags passed through a helper's own parameters rather than written
as literals."""
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.scipy.linalg import lu_factor

labels = jnp.array([3, 1, 3, 2, 1, 3])
values, counts = jnp.unique(labels, return_counts=True)
reveal_type(counts)
assert values.tolist() == [1, 2, 3] and counts.tolist() == [2, 1, 3]
values, index, inverse, counts = jnp.unique(labels, return_index=True, return_inverse=True, return_counts=True)
assert inverse.tolist() == [2, 0, 2, 1, 0, 2] and index.tolist() == [1, 3, 0]


def summarize(x, with_counts):
    # the flag is the caller's: not a literal here
    result = jnp.unique(x, return_counts=with_counts, size=3, fill_value=0)
    return result


both = summarize(labels, True)
assert len(both) == 2

hist, bin_edges = jnp.histogram(jnp.linspace(0.0, 1.0, 11), bins=5, range=(0.0, 1.0))
reveal_type(bin_edges)
assert hist.sum() == 11 and bin_edges.shape == (6,)
xx, yy = jnp.meshgrid(jnp.arange(3.0), jnp.arange(2.0), indexing="ij")
grid = jnp.meshgrid(jnp.arange(3.0), jnp.arange(2.0), jnp.arange(4.0))
assert xx.shape == (3, 2) and len(grid) == 3

m = jnp.array([[4.0, 1.0], [1.0, 3.0]])
u, s, vh = jnp.linalg.svd(m, full_matrices=False)
svd = jnp.linalg.svd(m)
reveal_type(s)
assert np.allclose(np.asarray((u * s) @ vh), np.asarray(m), atol=1e-5) and svd.S.shape == (2,)
singular = jnp.linalg.svd(m, compute_uv=False)
reveal_type(singular)
w, v = jnp.linalg.eigh(m)
eig = jnp.linalg.eigh(m)
assert np.allclose(np.asarray(eig.eigenvalues), np.asarray(w)) and v.shape == (2, 2)
sign, logdet = jnp.linalg.slogdet(m)
assert float(sign) == 1.0 and np.isclose(float(logdet), np.log(11.0), rtol=1e-5)
q, r = jnp.linalg.qr(m)
r_only = jnp.linalg.qr(m, mode="r")
reveal_type(r_only)
assert np.allclose(np.asarray(q @ r), np.asarray(m), atol=1e-5)
lu_and_piv = lu_factor(m)
assert len(lu_and_piv) == 2

rows, cols = jnp.nonzero(m > 2.0)
where_rows, where_cols = jnp.where(m > 2.0)
assert rows.tolist() == where_rows.tolist() == [0, 1] and cols.tolist() == [0, 1]
flat_rows, flat_cols = jnp.unravel_index(jnp.array([1, 3]), (2, 2))
lower = jnp.tril_indices(3)
assert flat_cols.tolist() == [1, 1] and len(lower) == 2
order = jnp.argsort(jnp.array([3.0, 1.0, 2.0]), descending=True)
top_values, top_index = jt.lax.top_k(jnp.array([3.0, 1.0, 2.0]), 2)
assert order.tolist() == [0, 2, 1] and top_index.tolist() == [0, 2]
parts = jnp.split(jnp.arange(6.0), 3)
gradient_rows, gradient_cols = jnp.gradient(jnp.outer(jnp.arange(3.0), jnp.arange(3.0)))
reveal_type(parts)
assert len(parts) == 3 and gradient_rows.shape == (3, 3)
