"""Misuses of the eig, Schur and tridiagonal family both checkers reject:
flags passed positionally or with wrong types, unknown keywords, strings
where arrays are expected, and results unpacked to the wrong length."""

import numpy as np

from jaxtyped import lax
from jaxtyped.typing import Array

a = np.eye(3, dtype=np.float32)

lax.linalg.eig(a, False)  # expect: mypy[call-overload] pyright[reportCallIssue]
lax.linalg.eig("a")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
lax.linalg.eig(a, implementation="lapack")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
lax.linalg.eig(a, lower=True)  # expect: mypy[call-overload] pyright[reportCallIssue]
lax.linalg.schur(a, True)  # expect: mypy[call-overload] pyright[reportCallIssue]
lax.linalg.schur(a, sort_eig_vals="no")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
lax.linalg.hessenberg(a, lower=True)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.tridiagonal(a, True)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.tridiagonal(a, lower="L")  # expect: mypy[arg-type] pyright[reportArgumentType]
w, v = lax.linalg.eig(a)  # expect: mypy[misc] pyright[reportAssignmentType]
t: Array = lax.linalg.schur(a)  # expect: mypy[assignment] pyright[reportAssignmentType]
lax.linalg.EigImplementation.CPU  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
