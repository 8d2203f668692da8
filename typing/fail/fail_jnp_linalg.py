"""Misuses of jnp.linalg both checkers reject: fields a flag-dependent
result does not have (``svd(compute_uv=False)`` is one Array), wrong
argument types (strings for counts, a float power), unknown keywords, a
bare array where a sequence is expected, and results used at the wrong type."""

import jaxtyped.numpy as jnp

x = jnp.ones((3, 3))

jnp.linalg.svd(x, compute_uv=False).U  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
jnp.linalg.qr(x, mode="r").Q  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
jnp.linalg.eigh(x).values  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
jnp.linalg.slogdet(x).det  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
jnp.linalg.matrix_power(x, 2.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.norm(x, axis="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.norm(x, keepdim=True)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.vector_norm(x, 2)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.matrix_norm(x, ord=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.multi_dot(x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.solve(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.inv("abc")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.det(x).shape = (1,)  # expect: mypy[misc] pyright[reportAttributeAccessIssue]
jnp.linalg.cholesky(x, lower=True)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.eigh(x, UPLO=0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.eigvals(x, True)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.lstsq(x, x, rcond="0.1")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.pinv(x, hermitian=1.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.matrix_rank(x, hermitian=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.tensorinv(x, ind="2")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.tensorsolve(x, x, axes=0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.cross(x, x, axisa=0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.outer(x, x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.trace(x, 1)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.diagonal(x, axis1=0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.matrix_transpose(x, (1, 0))  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.matmul(x, x, precision=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.tensordot(x, x, 2)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.vecdot(x, x, -1)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.svdvals(x, full_matrices=False)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.linalg.cond(x, p=[2])  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linalg.eig(x).eigenvalues.real = x  # expect: mypy[misc] pyright[reportAttributeAccessIssue]
jnp.linalg.eigvalsh(x, symmetrize_input=1.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
