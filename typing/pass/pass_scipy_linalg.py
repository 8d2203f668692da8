"""The ``jaxtyped.scipy.linalg`` family type-checks and runs: decompositions
(with their flag-dependent result structures), solvers, the matrix
exponential and other matrix functions, and the special matrices."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy.linalg as sla
from jaxtyped.typing import Array

a = jnp.asarray(np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]], np.float32))
b = jnp.ones((3, 2))
v = jnp.ones(3)

upper: Array = sla.cholesky(a)
factor, lower = sla.cho_factor(a, lower=True)
flag: bool = lower
solved: list[Array] = [
    sla.cho_solve((factor, lower), b),
    sla.solve_triangular(upper, v, trans="T"),
    sla.lu_solve(sla.lu_factor(a), b, trans=1),
    sla.solve(a, b, assume_a="pos"),
    sla.solve(a, v),
    sla.inv(a),
    sla.det(a),
    sla.expm(a, max_squarings=8),
    sla.sqrtm(a),
]

p, l_factor, u_factor = sla.lu(a)
pl, u_only = sla.lu(a, permute_l=True)
q, r = sla.qr(a)
(r_only,) = sla.qr(a, mode="r")
q_piv, r_piv, perm = sla.qr(a, pivoting=True)
u_svd, s, vh = sla.svd(a, full_matrices=False)
singular: Array = sla.svd(a, compute_uv=False)
w, vectors = sla.eigh(a)
eigenvalues: Array = sla.eigh(a, eigvals_only=True)
t, z = sla.schur(a, output="complex")
h: Array = sla.hessenberg(a)
h2, q_h = sla.hessenberg(a, calc_q=True)
unitary, positive = sla.polar(a, side="left", method="svd")
value, derivative = sla.expm_frechet(a, a)
only_derivative: Array = sla.expm_frechet(a, a, compute_expm=False)
tri_values: Array = sla.eigh_tridiagonal(v, v[:2], eigvals_only=True)
tri_w, tri_v = sla.eigh_tridiagonal(v, v[:2])
applied, r_mult = sla.qr_multiply(a, b.T)
applied_left, r_left, perm_left = sla.qr_multiply(a, v, mode="left", pivoting=True)
exp_a: Array = sla.funm(a, jnp.exp)
exp_b, estimate = sla.funm(a, jnp.exp, disp=False)
t_complex, z_complex = sla.rsf2csf(*sla.schur(a))
sylvester: Array = sla.solve_sylvester(a, a[:2, :2], b, method="eigen")

matrices: list[Array] = [
    sla.block_diag(a, v, 1.0), sla.toeplitz(v), sla.toeplitz(v, b[:, 0]), sla.hankel(v),
    sla.circulant(v), sla.companion(v), sla.fiedler_companion(v), sla.leslie(v, v[:2]), sla.fiedler(v),
    sla.convolution_matrix(v, 4, "same"), sla.hilbert(3), sla.invhilbert(3), sla.pascal(3, "lower"),
    sla.invpascal(3), sla.helmert(4, full=True), sla.dft(4, "sqrtn"), sla.hadamard(4, dtype=jnp.float32),
]  # fmt: skip

jitted: Array = jt.jit(sla.expm)(a)
assert all(isinstance(x, jt.Array) for x in [*solved, *matrices, jitted, singular, h])
