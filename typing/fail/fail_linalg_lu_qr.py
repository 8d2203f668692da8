"""Misuses of the LU and QR family both checkers reject: flags passed
positionally or with wrong types, unknown keywords, strings where arrays
are expected, and results used at the wrong type."""

import numpy as np

from jaxtyped import lax
from jaxtyped.typing import Array

a = np.ones((4, 3), np.float32)
t = np.ones(3, np.float32)

lax.linalg.lu("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.linalg.lu(a, True)  # expect: mypy[call-arg] pyright[reportCallIssue]
single: Array = lax.linalg.lu(a)  # expect: mypy[assignment] pyright[reportAssignmentType]
lax.linalg.lu_pivots_to_permutation(t, "4")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.linalg.lu_pivots_to_permutation(t)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.qr(a, True)  # expect: mypy[call-overload] pyright[reportCallIssue]
lax.linalg.qr(a, full_matrices="no")  # expect: mypy[call-overload] pyright[reportArgumentType]
lax.linalg.qr(a, mode="r")  # expect: mypy[call-overload] pyright[reportCallIssue]
q, r = lax.linalg.qr(a, pivoting=True)  # expect: mypy[misc] pyright[reportAssignmentType]
lax.linalg.geqrf(a, t)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.householder_product(a)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.ormqr(a, t, a, True)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.ormqr(a, t, a, left="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
