"""The Cholesky and triangular-solve family as users write it:
lax.linalg.cholesky, triangular_solve (every keyword), tridiagonal_solve,
cholesky_update and symmetric_product; each result is annotated with its
strict type and checked with NumPy."""

import numpy as np

import jaxtyped as jt
from jaxtyped import lax
from jaxtyped.typing import Array

host = np.array([[4.0, 2.0], [2.0, 3.0]], dtype=np.float32)
a = jt.numpy.asarray(host)

factor: Array = lax.linalg.cholesky(a)
raw: Array = lax.linalg.cholesky(host, symmetrize_input=False)
assert np.allclose(np.asarray(factor), np.linalg.cholesky(host)) and raw.shape == (2, 2)

b = np.ones((2, 3), np.float32)
x: Array = lax.linalg.triangular_solve(factor, b, left_side=True, lower=True)
y: Array = lax.linalg.triangular_solve(
    factor, b.T, left_side=False, lower=True, transpose_a=True, conjugate_a=False, unit_diagonal=False
)
assert np.allclose(np.asarray(factor) @ np.asarray(x), b, atol=1e-5) and y.shape == (3, 2)

ones = np.ones(3, np.float32)
solved: Array = lax.linalg.tridiagonal_solve(ones, 4 * ones, ones, np.ones((3, 1), np.float32))
perturbed: Array = lax.linalg.tridiagonal_solve(ones, 4 * ones, ones, np.ones((3, 1), np.float32), perturb_singular=True)
assert solved.shape == perturbed.shape == (3, 1)

updated: Array = lax.linalg.cholesky_update(factor.T, jt.numpy.ones(2))
product: Array = lax.linalg.symmetric_product(b, a, alpha=2.0, beta=0.5, symmetrize_output=True)
assert updated.shape == (2, 2) and product.shape == (2, 2)
