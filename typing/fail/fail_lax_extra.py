"""Misuses of the lax extras family both checkers reject: strings where
arrays, shapes, axes or sizes are expected, missing arguments, and results
used at the wrong type."""

import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array

x = jnp.ones((2, 3))


def same(v: Array) -> Array:
    return v


lax.select("p", x, x)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.full("2", 1.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.full_like(x, "a")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.broadcast_to_rank(x, "3")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.collapse(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.index_in_dim(x, 0, axis="1")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.split(x, 2)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.tile(x, 2)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.stack(x, axis=0.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.unstack(x, axis=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.empty((2,))  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.reduce_and(x, 0)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.reduce_or("x", (0,))  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.reduce_xor(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.bitcast_convert_type(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.batch_matmul(x, x, precision=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.dot(x, x, precision=1.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.index_take(x, x, 0)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.dynamic_update_slice_in_dim(x, x, 0)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.associative_scan(lax.add, x, reverse="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.broadcast_shapes(x)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.custom_linear_solve(same, x)  # expect: mypy[call-overload] pyright[reportCallIssue]
shape: int = lax.broadcast_shapes((2,), (2,))  # expect: mypy[assignment] pyright[reportAssignmentType]
count: int = lax.reduce_and(x, (0,))  # expect: mypy[assignment] pyright[reportAssignmentType]
bits: bytes = x.view()  # expect: mypy[assignment] pyright[reportAssignmentType]
x.view(jnp.int32, type=list)  # expect: mypy[arg-type] pyright[reportArgumentType]
pieces: Array = lax.split(x, (1, 2), 1)  # expect: mypy[assignment] pyright[reportAssignmentType]
lax.broadcast_like(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.dynamic_update_index_in_dim(x, x, 0, "0")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.reduce(x, 0.0, lax.add)  # expect: mypy[call-overload] pyright[reportCallIssue]
lax.optimization_barrier()  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.custom_root(same, x)  # expect: mypy[call-overload] pyright[reportCallIssue]
lax.dtype()  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.approx_max_k(x, "2")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.approx_min_k(x, 2, recall_target="high")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.mulhi(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.rng_bit_generator(x, 3)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.rng_bit_generator(x, (3,), algorithm="philox")  # expect: mypy[arg-type] pyright[reportArgumentType]
