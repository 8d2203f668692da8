"""jt.jacfwd keeps the function's parameters and requires an (output, aux)
pair with has_aux=True; tree_util functions reject non-callables,
non-treedefs and non-classes."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import tree_util
from jaxtyped.typing import Array


def unary(x: Array) -> Array:
    return jnp.sin(x)


x = jnp.ones(2)

jt.jacfwd(unary)(x, x)  # expect: mypy[call-overload] pyright[reportCallIssue]
jt.jacfwd(unary)("1")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.jacfwd(unary, has_aux="yes")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jt.jacfwd(unary, argnums="0")  # expect: mypy[arg-type] pyright[reportArgumentType,reportCallIssue]
jt.jacfwd(unary, argnums=1.0)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
jt.vmap(unary, in_axes=1.5)  # expect: mypy[arg-type] pyright[reportArgumentType]

tree_util.tree_map(1, {"a": x})  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
tree_util.tree_unflatten([1, 2], [x, x])  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
tree_util.register_dataclass(x)  # expect: mypy[arg-type] pyright[reportArgumentType]
leaves, treedef = tree_util.tree_flatten({"a": x})
treedef.unflatten(3)  # expect: mypy[arg-type] pyright[reportArgumentType]
