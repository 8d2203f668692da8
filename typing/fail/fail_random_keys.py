"""Misuse of jaxtyped.random keys: a data array where a typed key is
required, key data passed as a seed of the wrong kind, unknown implementations
and misspelt arguments."""

import jaxtyped.numpy as jnp
import jaxtyped.random as jrandom
from jaxtyped.typing import Array, KeyArray


def needs_key(key: KeyArray) -> Array:
    return jrandom.bits(key)


floats = jnp.zeros(2)
key = jrandom.key(0)

needs_key(floats)  # expect: mypy[arg-type] pyright[reportArgumentType]
needs_key(jrandom.PRNGKey(0))  # expect: mypy[arg-type] pyright[reportArgumentType]
needs_key(jrandom.key_data(key))  # expect: mypy[arg-type] pyright[reportArgumentType]
typed: KeyArray = jrandom.split(floats)  # expect: mypy[assignment] pyright[reportAssignmentType]
jrandom.key("0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.split(key, 2.0)  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jrandom.fold_in(key, "a")  # expect: mypy[call-overload] pyright[reportCallIssue,reportArgumentType]
jrandom.bits(key, dtype="uint32", shape=(2,), seed=1)  # expect: mypy[call-arg] pyright[reportCallIssue]
jrandom.key(0, impl=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
jrandom.wrap_key_data(key, impl=2)  # expect: mypy[arg-type] pyright[reportArgumentType]
impl_name: int = jrandom.key_impl(key)  # expect: mypy[assignment] pyright[reportAssignmentType]
jrandom.clone()  # expect: mypy[call-overload] pyright[reportCallIssue]
