"""Misuse of advanced indexing, ``x.at[...]`` and the index functions that
both checkers reject: misspelt update methods, non-numeric values, wrong
keyword types, results used at the wrong type, index functions given
strings or missing arguments."""

import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

x = jnp.ones((3, 4))
i = jnp.array([0, 1])

x.at[0].sett(1)  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue, reportUnknownMemberType]
x.at[0].set("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
x.at[0].add(None)  # expect: mypy[arg-type] pyright[reportArgumentType]
x.at[0].set(1.0, unique_indices="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
x.at[0].set(1.0, mode=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
x.at[0].get(fill_value="nan")  # expect: mypy[arg-type] pyright[reportArgumentType]
x.at[0].apply(1.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
x.at["a"].set(1.0)  # expect: mypy[index] pyright[reportArgumentType]
n: float = x.at[0].set(1.0)  # expect: mypy[assignment] pyright[reportAssignmentType]
x.take("a")  # expect: mypy[arg-type] pyright[reportArgumentType]

jnp.take(x, "a")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.take(x, i, axis="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.take_along_axis(x, i, axis=1.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.put(x, i)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.put_along_axis(x, i, 1.0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.choose(i, "ab")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.compress("a", x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.extract(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.place(x, x > 0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.nonzero(x, size="3")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.flatnonzero("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.argwhere(x, fill_value="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.select(x > 0, [x])  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.piecewise(x, [x > 0])  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.ix_("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.indices(3)  # expect: mypy[call-overload] pyright[reportArgumentType]
jnp.ravel_multi_index(i, (3, 4))  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.unravel_index(i, "34")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.diag_indices("3")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.diag_indices_from("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.tril_indices(3.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.triu_indices("3")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.tril_indices_from("a")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.triu_indices_from(x, k="1")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.mask_indices(3, 1)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.fill_diagonal(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
t: Array = jnp.nonzero(x)  # expect: mypy[assignment] pyright[reportAssignmentType]
