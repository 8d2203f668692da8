"""Misuses of the eigh and SVD family both checkers reject: flags passed
positionally or with wrong types, strings where arrays or enums are
expected, and results used at the wrong structure (svd with
compute_uv=False is one array, not three)."""

import numpy as np

from jaxtyped import lax
from jaxtyped.typing import Array

a = np.eye(3, dtype=np.float32)

lax.linalg.eigh(a, True)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.linalg.eigh("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.linalg.eigh(a, lower="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.linalg.eigh(a, subset_by_index=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.linalg.eigh(a, implementation="qr")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.linalg.svd(a, False)  # expect: mypy[call-overload] pyright[reportCallIssue]
lax.linalg.svd("a")  # expect: mypy[call-overload] pyright[reportArgumentType]
lax.linalg.svd(a, algorithm="QR")  # expect: mypy[call-overload] pyright[reportArgumentType]
three: tuple[Array, Array, Array] = lax.linalg.svd(a, compute_uv=False)  # expect: mypy[assignment] pyright[reportAssignmentType]
values: Array = lax.linalg.svd(a)  # expect: mypy[assignment] pyright[reportAssignmentType]
pair: tuple[Array, Array, Array] = lax.linalg.eigh(a)  # expect: mypy[assignment] pyright[reportAssignmentType]
algorithm: lax.linalg.SvdAlgorithm = "QR"  # expect: mypy[assignment] pyright[reportAssignmentType]
implementation: lax.linalg.EighImplementation = lax.linalg.SvdAlgorithm.QR  # expect: mypy[assignment] pyright[reportAssignmentType]
