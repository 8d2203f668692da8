"""The LU and QR family's result types: ``lu`` and ``geqrf`` return
tuples of Arrays, ``qr`` a pair, or a triple with ``pivoting=True``."""

import numpy as np
from typing_extensions import assert_type

from jaxtyped import lax
from jaxtyped.typing import Array

a = np.ones((4, 3), np.float32)
flag: bool = bool(a.sum() > 0)

assert_type(lax.linalg.lu(a), tuple[Array, Array, Array])
assert_type(lax.linalg.lu_pivots_to_permutation(np.zeros(3, np.int32), 4), Array)
assert_type(lax.linalg.qr(a), tuple[Array, Array])
assert_type(lax.linalg.qr(a, full_matrices=False), tuple[Array, Array])
assert_type(lax.linalg.qr(a, pivoting=False), tuple[Array, Array])
assert_type(lax.linalg.qr(a, pivoting=True), tuple[Array, Array, Array])
assert_type(lax.linalg.qr(a, pivoting=flag), tuple[Array, Array] | tuple[Array, Array, Array])
assert_type(lax.linalg.geqrf(a), tuple[Array, Array])
assert_type(lax.linalg.householder_product(a, np.ones(3, np.float32)), Array)
assert_type(lax.linalg.ormqr(a, np.ones(3, np.float32), a, left=False, transpose=True), Array)
