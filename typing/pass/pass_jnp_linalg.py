"""jnp.linalg as users write it: norms of every kind, products,
decompositions unpacked or read by field name, solvers and determinants;
each result annotated with its strict type and checked with NumPy."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.numpy.linalg import EighResult, EigResult, QRResult, SlogdetResult, SVDResult
from jaxtyped.typing import Array

host = np.array([[4.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 2.0]], dtype=np.float32)
a = jnp.asarray(host)
v = jnp.arange(3.0)

length: Array = jnp.linalg.norm(v)
by_rows: Array = jnp.linalg.norm(a, ord=1, axis=1, keepdims=True)
spectral: Array = jnp.linalg.norm(a, 2)
nuclear: Array = jnp.linalg.matrix_norm(a, ord="nuc")
largest: Array = jnp.linalg.vector_norm(a, ord=jnp.inf, axis=(0, 1))
assert np.isclose(float(length), np.sqrt(5.0)) and by_rows.shape == (3, 1)
assert float(spectral) <= float(nuclear) and largest.shape == ()

product: Array = jnp.linalg.matmul(a, a, precision="highest")
contracted: Array = jnp.linalg.tensordot(a, a, axes=2)
dots: Array = jnp.linalg.vecdot(a, a, axis=0)
outer: Array = jnp.linalg.outer(v, v)
crossed: Array = jnp.linalg.cross(v, jnp.ones(3))
diagonal: Array = jnp.linalg.diagonal(a, offset=1)
traced: Array = jnp.linalg.trace(a)
flipped: Array = jnp.linalg.matrix_transpose(a)
chain: Array = jnp.linalg.multi_dot([v, a, a, v])
cubed: Array = jnp.linalg.matrix_power(a, 3)
assert product.shape == outer.shape == flipped.shape == cubed.shape == (3, 3)
assert contracted.shape == () and dots.shape == crossed.shape == (3,) and diagonal.shape == (2,)
assert float(traced) == 9.0 and chain.shape == ()

lower: Array = jnp.linalg.cholesky(a)
upper: Array = jnp.linalg.cholesky(a, upper=True)
q, r = jnp.linalg.qr(a)
only_r: Array = jnp.linalg.qr(a, mode="r")
factors: QRResult = jnp.linalg.qr(a, mode="complete")
u, s, vh = jnp.linalg.svd(a)
singular: Array = jnp.linalg.svd(a, compute_uv=False)
thin: SVDResult = jnp.linalg.svd(a, full_matrices=False)
values: Array = jnp.linalg.svdvals(a)
spectrum: EighResult = jnp.linalg.eigh(a)
ascending: Array = jnp.linalg.eigvalsh(a, "U")
general: EigResult = jnp.linalg.eig(a)
roots: Array = jnp.linalg.eigvals(a)
np.testing.assert_allclose(np.asarray(lower @ upper), host, atol=1e-5)
np.testing.assert_allclose(np.asarray(q @ r), host, atol=1e-5)
np.testing.assert_allclose(np.asarray((u * s) @ vh), host, atol=1e-5)
assert only_r.shape == factors.R.shape and thin.S.shape == singular.shape == values.shape
assert spectrum.eigenvalues.shape == ascending.shape and general.eigenvectors.shape == (3, 3)
assert roots.dtype == jnp.complex64

inverse: Array = jnp.linalg.inv(a)
solution: Array = jnp.linalg.solve(a, v)
determinant: Array = jnp.linalg.det(a)
sign_and_log: SlogdetResult = jnp.linalg.slogdet(a)
x, residuals, rank, sv = jnp.linalg.lstsq(a, v)
pseudo: Array = jnp.linalg.pinv(a, rtol=1e-6)
full_rank: Array = jnp.linalg.matrix_rank(a, tol=1e-3)
condition: Array = jnp.linalg.cond(a, "fro")
square_inverse: Array = jnp.linalg.tensorinv(jnp.reshape(a, (3, 1, 3)), ind=2)
square_solution: Array = jnp.linalg.tensorsolve(a, v)
np.testing.assert_allclose(np.asarray(inverse @ a), np.eye(3), atol=1e-5)
np.testing.assert_allclose(np.asarray(a @ solution), np.asarray(v), atol=1e-5)
assert np.isclose(float(determinant), float(sign_and_log.sign) * np.exp(float(sign_and_log.logabsdet)))
assert int(rank) == int(full_rank) == 3 and x.shape == sv.shape == (3,) and residuals.shape == (1,)
assert pseudo.shape == (3, 3) and float(condition) > 1.0
assert square_inverse.shape == (3, 3, 1) and square_solution.shape == (3,)

gradient = jt.grad(jnp.linalg.det)(a)
np.testing.assert_allclose(np.asarray(gradient), float(determinant) * np.linalg.inv(host).T, rtol=1e-4)
