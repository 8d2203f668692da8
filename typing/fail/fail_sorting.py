"""Misuses of the sorting family both checkers reject: strings where
arrays, axes or counts are expected, unknown keywords, and results used at
the wrong type."""

import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array

x = jnp.ones((2, 3))

jnp.sort(x, axis="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.argsort("abc")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.lexsort(x, axis=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.sort_complex(x, 0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.partition(x, "1")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.argpartition(x, 1.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.searchsorted(x, 1.0, sorter="idx")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.digitize(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.cumsum(x, axis=(0, 1))  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.cumprod(x, dtype=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.nancumsum(x, keepdims=True)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.nancumprod("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.cumulative_sum(x, 0)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.cumulative_prod(x, include_initial="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
jnp.unique(x, size="3")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jnp.unique_values(x, 3)  # expect: mypy[call-arg] pyright[reportCallIssue]
jnp.unique_counts(x).totals  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
jnp.unique_inverse(x).inverse  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
jnp.unique_all("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
x.sort(kind="stable")  # expect: mypy[arg-type] pyright[reportArgumentType]
x.argsort(axis="last")  # expect: mypy[arg-type] pyright[reportArgumentType]
x.cumsum(out=x)  # expect: mypy[arg-type] pyright[reportArgumentType]
x.cumprod(axis=1.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
x.searchsorted()  # expect: mypy[call-arg] pyright[reportCallIssue]
x.argpartition()  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.sort(x, dimension="0")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
lax.sort_key_val(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.top_k(x, "2")  # expect: mypy[arg-type] pyright[reportArgumentType]
values: Array = lax.top_k(x, 2)  # expect: mypy[assignment] pyright[reportAssignmentType]
lax.cumsum(x, axis=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.cumprod("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.cummax(x, reverse="no")  # expect: mypy[arg-type] pyright[reportArgumentType]
lax.cummin(x, 0, True, 1)  # expect: mypy[call-arg] pyright[reportCallIssue]
lax.cumlogsumexp(x, axis=0.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
