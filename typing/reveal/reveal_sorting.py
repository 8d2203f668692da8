"""Return types of the sorting family: arrays for every array function,
tuples for the multi-result lax functions and the flagged ``unique``, and
named tuples of arrays for the array-API unique functions."""

from typing_extensions import assert_type

import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array, ArrayLike


def check(x: Array, a: ArrayLike) -> None:
    assert_type(jnp.sort(a), Array)
    assert_type(jnp.argsort(x, descending=True), Array)
    assert_type(jnp.lexsort((x, a)), Array)
    assert_type(jnp.sort_complex(a), Array)
    assert_type(jnp.partition(x, 1), Array)
    assert_type(jnp.argpartition(a, 0), Array)
    assert_type(jnp.searchsorted(x, a), Array)
    assert_type(jnp.digitize(a, x), Array)
    assert_type(jnp.cumsum(a), Array)
    assert_type(jnp.cumprod(x, axis=0), Array)
    assert_type(jnp.nancumsum(a), Array)
    assert_type(jnp.nancumprod(a), Array)
    assert_type(jnp.cumulative_sum(x, axis=0), Array)
    assert_type(jnp.cumulative_prod(a, include_initial=True), Array)
    assert_type(jnp.unique(a), Array)
    assert_type(jnp.unique(a, return_counts=True), Array | tuple[Array, ...])
    assert_type(jnp.unique_values(a), Array)
    assert_type(jnp.unique_counts(a).counts, Array)
    assert_type(jnp.unique_inverse(a).inverse_indices, Array)
    assert_type(jnp.unique_all(a).values, Array)
    assert_type(x.sort(), Array)
    assert_type(x.argsort(), Array)
    assert_type(x.cumsum(), Array)
    assert_type(x.cumprod(0), Array)
    assert_type(x.searchsorted(a), Array)
    assert_type(x.argpartition(1), Array)
    assert_type(lax.sort(x), Array)
    assert_type(lax.sort([x, a], num_keys=2), tuple[Array, ...])
    assert_type(lax.sort_key_val(x, a), tuple[Array, Array])
    assert_type(lax.top_k(a, 1), tuple[Array, Array])
    assert_type(lax.cumsum(x), Array)
    assert_type(lax.cumprod(a, 0, True), Array)
    assert_type(lax.cummax(x), Array)
    assert_type(lax.cummin(x), Array)
    assert_type(lax.cumlogsumexp(x, reverse=True), Array)
