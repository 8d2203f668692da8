"""Misuses that stay rejected with the container-keeping tree maps and
typed structures (issue 20, second corpus round): the leaves of a mask
are not arrays, a rebuilt tree has the structure it was taken from, and a
structure rebuilt with non-array leaves is a PyTree; the placement methods
and precision= take what JAX's do."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array


def is_matrix(x: Array) -> bool:
    return x.ndim == 2


params = {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}
layers = [jnp.ones(2), jnp.ones(3)]

jt.tree.map(is_matrix, params)["w"].shape  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
jt.tree.map(is_matrix, layers)["w"]  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
mask: dict[str, Array] = jt.tree.map(is_matrix, params)  # expect: mypy[assignment] pyright[reportAssignmentType]
jt.tree.unflatten(jt.tree.structure(layers), layers).keys()  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
jt.tree.unflatten(jt.tree.structure(params), [1.0, 2.0])["w"]  # expect: mypy[index,call-overload] pyright[reportArgumentType,reportOptionalSubscript,reportCallIssue,reportIndexIssue]  # a PyTree, not a dict

x = jnp.ones(3)
x.block_until_ready(True)  # expect: mypy[call-arg] pyright[reportCallIssue]
x.sharding()  # expect: mypy[operator] pyright[reportCallIssue]
x.devices()[0]  # expect: mypy[index] pyright[reportIndexIssue]
jnp.dot(x, x, precision=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.matmul(x, x, lax.Precision.HIGHEST)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.einsum("i,i->", x, x, precision=lax.Precision)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.scipy.stats.nonexistent  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]


def grow(i: Array, c: tuple[Array, Array]) -> tuple[Array, Array, Array]:
    return c[0], c[1], c[0]


def first(c: tuple[Array, Array]) -> Array:
    return c[0]


# (mypy also reports these pair-carry calls against the pair-of-Any overload:
# type-var, and an operator error in the lambda it types there.)
jt.lax.fori_loop(0, 3, grow, (x, 0.0))  # expect: mypy[arg-type,type-var] pyright[reportCallIssue,reportArgumentType]
jt.lax.while_loop(lambda c: c[0] < 3, first, (0, x))  # expect: mypy[arg-type,operator,type-var] pyright[reportCallIssue,reportArgumentType]
jt.lax.fori_loop(0, 3, grow, (x, "a"))  # expect: mypy[arg-type,type-var] pyright[reportCallIssue,reportArgumentType]
