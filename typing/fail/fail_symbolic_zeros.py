"""Misuse of the symbolic_zeros API that both checkers reject: a
SymbolicZero is not an array (no arithmetic, no array methods, no
attributes beyond its type's), it is built from an aval, a CustomVJPPrimal
needs its ``perturbed`` flag and unwraps to its value's type, and a
symbolic_zeros jvp rule must still produce the function's primal type."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.custom_derivatives import CustomVJPPrimal, SymbolicZero, custom_vjp_primal_tree_values, zero_from_primal
from jaxtyped.typing import Array


@jt.custom_jvp
def f(x: Array, y: float) -> Array:
    return jnp.sin(x) * y


def str_primal(primals: tuple[Array, float], tangents: tuple[Array | SymbolicZero, float]) -> tuple[str, Array]:
    return "out", jnp.ones(3)


x = jnp.ones(3)
z = SymbolicZero.from_primal_value(x)

SymbolicZero(x)  # expect: mypy[arg-type] pyright[reportArgumentType]
z + 1.0  # expect: mypy[operator] pyright[reportOperatorIssue,reportUnusedExpression]
x * z  # expect: mypy[operator] pyright[reportOperatorIssue,reportUnusedExpression]
z.sum()  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
jnp.sin(z)  # expect: mypy[arg-type] pyright[reportArgumentType]
rank: str = z.ndim  # expect: mypy[assignment] pyright[reportAssignmentType]
zero_from_primal(x, symbolic_zeros=True).block_until_ready()  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
CustomVJPPrimal(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
custom_vjp_primal_tree_values(CustomVJPPrimal(x, True)).perturbed  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
text: str = CustomVJPPrimal(x, False).value  # expect: mypy[assignment] pyright[reportAssignmentType]
f.defjvp(str_primal, symbolic_zeros=True)  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
