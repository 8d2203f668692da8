"""The eig, Schur and tridiagonal family's result structure follows its
flags: eig gives three, two or one Arrays as eigenvectors are requested
(a variable-length tuple when the flags are not literals), schur two or
one, hessenberg two and tridiagonal four."""

import numpy as np
from typing_extensions import assert_type

from jaxtyped import lax
from jaxtyped.typing import Array

a = np.eye(3, dtype=np.float32)
flag = bool(a.sum() > 0)

assert_type(lax.linalg.eig(a), tuple[Array, Array, Array])
assert_type(lax.linalg.eig(a, compute_left_eigenvectors=False), tuple[Array, Array])
assert_type(lax.linalg.eig(a, compute_right_eigenvectors=False), tuple[Array, Array])
assert_type(lax.linalg.eig(a, compute_left_eigenvectors=False, compute_right_eigenvectors=False), tuple[Array])
assert_type(lax.linalg.eig(a, compute_left_eigenvectors=flag), tuple[Array, ...])
assert_type(lax.linalg.schur(a), tuple[Array, Array])
assert_type(lax.linalg.schur(a, compute_schur_vectors=False), tuple[Array])
assert_type(lax.linalg.schur(a, compute_schur_vectors=flag), tuple[Array, ...])
assert_type(lax.linalg.hessenberg(a), tuple[Array, Array])
assert_type(lax.linalg.tridiagonal(a, lower=False), tuple[Array, Array, Array, Array])
assert_type(lax.linalg.EigImplementation("lapack"), lax.linalg.EigImplementation)
