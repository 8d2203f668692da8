"""jaxtyped.numpy misuse both checkers reject, one or more per function of
the main families: strings where arrays, shapes, axes or dtypes are
expected, missing or extra arguments, and results used at the wrong type
(every array function returns an Array, never a Python scalar)."""

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

x = jnp.ones((2, 3))

# Creation: shapes are ints or sequences of ints, fill values array-like.
jnp.ones("3")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.full((2,), "a")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.empty(2.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.arange("5")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.linspace(0.0, 1.0, "5")  # expect: mypy[call-overload] pyright[reportArgumentType]
jnp.eye("3")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.identity()  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.zeros_like("abc")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.ones_like(x, dtype=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.full_like(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.array([1.0], ndmin="2")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.asarray(x, copy="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
n: int = jnp.zeros(())  # expect: mypy[assignment] pyright[reportAssignmentType]

# Elementwise: array-like operands only.
jnp.cos("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.tanh(None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.exp([1.0, 2.0])  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.log(x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.sqrt()  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.abs("-1")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.sign(x, 1)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.floor(b"1")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.round(x, "1")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.isnan({"a": x})  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.add(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.subtract(x, "1")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.multiply("2", x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.divide(x, None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.power(x, [2])  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.maximum(x, (0.0,))  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.minimum(x, x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.clip(x, "0", 1.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.equal(x, "x")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.greater("x", x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.logical_and(x > 0, "yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
s: float = jnp.sin(x)  # expect: mypy[assignment] pyright[reportAssignmentType]

# Reductions: axes are ints or tuples of ints.
jnp.sum("abc")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.sum(x, axis="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.prod(x, axis=0.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.mean(x, keepdims="no")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.max(x, out=x)  # expect: mypy[arg-type] pyright[reportArgumentType]  # out= is not supported
jnp.min("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.amax(x, axis="1")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.argmax(x, axis="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.argmin(None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.all(x, axis="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.any("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
total: float = jnp.sum(x)  # expect: mypy[assignment] pyright[reportAssignmentType]

# Shape manipulation: shapes and axes are ints.
jnp.reshape(x, "6")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.transpose(x, "10")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.concatenate(x, x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.stack(["a", "b"])  # expect: mypy[list-item] pyright[reportArgumentType]
jnp.expand_dims(x, "0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.squeeze(x, axis=0.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.moveaxis(x, "0", 1)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.ravel("abc")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.broadcast_to(x, "23")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.swapaxes(x, 0)  # expect: mypy[call-arg] pyright[reportCallIssue]
dims: tuple[int, int] = jnp.shape(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
rank: str = jnp.ndim(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
jnp.size(x, axis="0")  # expect: mypy[arg-type] pyright[reportArgumentType]

# where: condition and branches are array-like.
jnp.where("x > 0", x, 0.0)  # expect: mypy[call-overload] pyright[reportArgumentType]
chosen: bool = jnp.where(x > 0, x, 0.0)  # expect: mypy[assignment] pyright[reportAssignmentType]

# Linear algebra.
jnp.dot(x, "x")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.matmul(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.tensordot(x, x, axes="1")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.inner([1.0], x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.outer(x, None)  # expect: mypy[arg-type] pyright[reportArgumentType]
scalar: float = jnp.vdot(x, x)  # expect: mypy[assignment] pyright[reportAssignmentType]

# dtype objects and helpers.
jnp.float32()  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.int32(x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.bool_(None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.bfloat16.itemsize  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
jnp.promote_types(x, 1)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.result_type(None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.issubdtype(x.dtype)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.finfo(3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.iinfo(x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.dtype(jnp.float32).shape()  # expect: mypy[operator] pyright[reportCallIssue]
wrong: Array = jnp.dtype(jnp.float32)  # expect: mypy[assignment] pyright[reportAssignmentType]
