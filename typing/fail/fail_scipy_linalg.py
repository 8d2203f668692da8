"""Misuses of ``jaxtyped.scipy.linalg`` both checkers reject: strings where
arrays or integers are expected, unknown literal options, missing
arguments, and flag-dependent results used as the wrong structure."""

import jaxtyped.numpy as jnp
import jaxtyped.scipy.linalg as sla
from jaxtyped.typing import Array

x = jnp.eye(3)

sla.cholesky("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.cho_factor(x, lowr=True)  # expect: mypy[call-arg] pyright[reportCallIssue]
sla.cho_solve(x, x)  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.solve_triangular(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
sla.lu_factor()  # expect: mypy[call-arg] pyright[reportCallIssue]
sla.lu_solve(x, x)  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.det(x, overwrite=True)  # expect: mypy[call-arg] pyright[reportCallIssue]
sla.inv()  # expect: mypy[call-arg] pyright[reportCallIssue]
sla.solve(x, x, assume_a="triangular")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.schur(x, output="quasi")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.polar(x, side="up")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.expm(x, max_squarings="16")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.sqrtm(x, "1")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.eigh_tridiagonal(x, x, select="z")  # expect: mypy[call-overload] pyright[reportArgumentType]
sla.qr_multiply(x)  # expect: mypy[call-overload] pyright[reportCallIssue]
sla.rsf2csf(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
sla.funm(x, 2.0)  # expect: mypy[call-overload] pyright[reportArgumentType]
sla.solve_sylvester(x, x, x, method="qr")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.fiedler_companion("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.block_diag(x, "x")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.toeplitz()  # expect: mypy[call-arg] pyright[reportCallIssue]
sla.hankel("c")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.circulant()  # expect: mypy[call-arg] pyright[reportCallIssue]
sla.companion("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.leslie(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
sla.fiedler(x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
sla.convolution_matrix(x, 3, "wide")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.hilbert("3")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.invhilbert(3.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.pascal(3, "diagonal")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.invpascal(3, "diagonal")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.helmert("4")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.dft(4, "half")  # expect: mypy[arg-type] pyright[reportArgumentType]
sla.hadamard("4")  # expect: mypy[arg-type] pyright[reportArgumentType]
wrong_lu: tuple[Array, Array] = sla.lu(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
wrong_qr: tuple[Array, Array] = sla.qr(x, mode="r")  # expect: mypy[assignment] pyright[reportAssignmentType]
wrong_svd: Array = sla.svd(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
wrong_eigh: Array = sla.eigh(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
wrong_hessenberg: tuple[Array, Array] = sla.hessenberg(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
wrong_frechet: Array = sla.expm_frechet(x, x)  # expect: mypy[assignment] pyright[reportAssignmentType]
