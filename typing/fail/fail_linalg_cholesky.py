"""Misuses of the Cholesky and triangular-solve family both checkers
reject: flags passed positionally or with wrong types, unknown keywords,
strings where arrays are expected, and results used at the wrong type."""

import numpy as np

from jaxtyped import lax
from jaxtyped.typing import Array

a = np.eye(3, dtype=np.float32)
b = np.ones((3, 2), np.float32)
d = np.ones(3, np.float32)

lax.linalg.cholesky(a, True)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.cholesky("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.linalg.cholesky(a, lower=True)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.triangular_solve(a, b, True)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.triangular_solve(a, b, left_side="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.linalg.triangular_solve(a)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.tridiagonal_solve(d, d, b)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.tridiagonal_solve(d, d, d, b, perturb_singular="no")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.linalg.symmetric_product(b, a, alpha="2")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.linalg.cholesky_update(a)  # expect: mypy[call-arg] pyright[reportCallIssue]
factor: tuple[Array, Array] = lax.linalg.cholesky(a)  # expect: mypy[assignment] pyright[reportAssignmentType]
lax.linalg.triangular_solve(a, b).factor  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
