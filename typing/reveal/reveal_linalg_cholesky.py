"""The Cholesky and triangular-solve family returns one Array for every
function and every flag."""

import numpy as np
from typing_extensions import assert_type

from jaxtyped import lax
from jaxtyped.typing import Array

a = np.eye(3, dtype=np.float32)
b = np.ones((3, 2), np.float32)
d = np.ones(3, np.float32)

assert_type(lax.linalg.cholesky(a), Array)
assert_type(lax.linalg.cholesky(a, symmetrize_input=False), Array)
assert_type(lax.linalg.triangular_solve(a, b, left_side=True), Array)
assert_type(lax.linalg.triangular_solve(a, b.T, lower=True, transpose_a=True, conjugate_a=True, unit_diagonal=True), Array)
assert_type(lax.linalg.tridiagonal_solve(d, d, d, b), Array)
assert_type(lax.linalg.tridiagonal_solve(d, d, d, b, perturb_singular=True), Array)
assert_type(lax.linalg.cholesky_update(a, d), Array)
assert_type(lax.linalg.symmetric_product(b, a, alpha=0.5), Array)
