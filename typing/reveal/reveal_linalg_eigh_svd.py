"""The eigh and SVD family's result types: eigh gives two arrays, svd three,
or one with compute_uv=False (a bool only known at run time gives the
union)."""

import numpy as np
from typing_extensions import assert_type

from jaxtyped import lax
from jaxtyped.typing import Array

a = np.eye(3, dtype=np.float32)


def check(flag: bool) -> None:
    assert_type(lax.linalg.eigh(a), tuple[Array, Array])
    assert_type(lax.linalg.eigh(a, lower=False, symmetrize_input=False, sort_eigenvalues=False), tuple[Array, Array])
    assert_type(lax.linalg.eigh(a, implementation=lax.linalg.EighImplementation.QR), tuple[Array, Array])
    assert_type(lax.linalg.svd(a), tuple[Array, Array, Array])
    assert_type(lax.linalg.svd(a, full_matrices=False), tuple[Array, Array, Array])
    assert_type(lax.linalg.svd(a, compute_uv=True, algorithm=lax.linalg.SvdAlgorithm.QR), tuple[Array, Array, Array])
    assert_type(lax.linalg.svd(a, compute_uv=False), Array)
    assert_type(lax.linalg.svd(a, compute_uv=flag), Array | tuple[Array, Array, Array])
    algorithm: lax.linalg.SvdAlgorithm = lax.linalg.SvdAlgorithm.DEFAULT
    assert_type(lax.linalg.svd(a, algorithm=algorithm)[1], Array)
