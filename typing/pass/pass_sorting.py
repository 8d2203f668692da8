"""The sorting family as users write it: jnp sort/argsort/lexsort/
partition/searchsorted/digitize, the cumulative and unique functions, the
Array methods, and lax.sort/sort_key_val/top_k/cumulative reductions; each
result is annotated with its strict type and checked with NumPy."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array

host = np.array([[3.0, 1.0, 2.0], [0.5, 4.0, 1.0]], dtype=np.float32)
x = jnp.asarray(host)
flat = jnp.array([1.0, 2.0, 2.0, 5.0])

sorted_rows: Array = jnp.sort(x)
order: Array = jnp.argsort(x, axis=0, descending=True)
keys: Array = jnp.lexsort((flat, jnp.array([1, 0, 1, 0])))
complex_sorted: Array = jnp.sort_complex(host)
parts: Array = jnp.partition(x, 1)
part_order: Array = jnp.argpartition(x, 1, axis=1)
positions: Array = jnp.searchsorted(flat, jnp.array([2.0, 6.0]), side="right")
bins: Array = jnp.digitize(host, flat)
assert np.array_equal(np.asarray(sorted_rows), np.sort(host))
assert np.array_equal(np.asarray(positions), [3, 4]) and keys.shape == (4,)
assert complex_sorted.dtype == np.complex64 and parts.shape == part_order.shape == bins.shape == (2, 3)
assert order.shape == (2, 3)

sums: Array = jnp.cumsum(x, axis=1)
products: Array = jnp.cumprod(host)
nan_sums: Array = jnp.nancumsum(host, dtype=jnp.float32)
nan_products: Array = jnp.nancumprod(x)
array_api_sum: Array = jnp.cumulative_sum(flat, include_initial=True)
array_api_prod: Array = jnp.cumulative_prod(x, axis=0)
assert np.allclose(np.asarray(sums), np.cumsum(host, axis=1)) and products.shape == (6,)
assert nan_sums.shape == (6,) and nan_products.shape == (6,) and array_api_sum.shape == (5,)
assert array_api_prod.shape == (2, 3)

values: Array = jnp.unique(flat)
values_and_counts = jnp.unique(flat, return_counts=True)
padded: Array = jnp.unique(flat, size=5, fill_value=-1.0)
everything = jnp.unique_all(flat)
first_seen: Array = everything.indices
counts = jnp.unique_counts(flat).counts
inverse = jnp.unique_inverse(flat).inverse_indices
only_values: Array = jnp.unique_values(flat)
assert np.array_equal(np.asarray(values), [1.0, 2.0, 5.0]) and isinstance(values_and_counts, tuple)
assert padded.shape == (5,) and first_seen.shape == counts.shape == only_values.shape == (3,)
assert inverse.shape == (4,)

by_method: list[Array] = [
    x.sort(), x.argsort(descending=True), x.cumsum(axis=0), x.cumprod(), flat.searchsorted(2.0), x.argpartition(0),
]  # fmt: skip
assert [a.shape for a in by_method] == [(2, 3), (2, 3), (2, 3), (6,), (), (2, 3)]

one: Array = lax.sort(x, dimension=0)
several: tuple[Array, ...] = lax.sort((flat, jnp.arange(4.0)), num_keys=1)
k, v = lax.sort_key_val(flat, jnp.arange(4))
top_values, top_indices = lax.top_k(x, 2)
scans: list[Array] = [
    lax.cumsum(x, axis=1), lax.cumprod(x, reverse=True), lax.cummax(x), lax.cummin(x, 1), lax.cumlogsumexp(x),
]  # fmt: skip
assert one.shape == (2, 3) and len(several) == 2 and k.shape == v.shape == (4,)
assert top_values.shape == top_indices.shape == (2, 2) and all(s.shape == (2, 3) for s in scans)



def distinct_three(a: Array) -> Array:
    return jnp.unique(a, size=3)


def weighted_running_max(a: Array) -> Array:
    return jnp.sum(lax.cummax(a) * 2.0)


compiled: Array = jt.jit(distinct_three)(flat)
slope: Array = jt.grad(weighted_running_max)(flat)
assert compiled.shape == (3,) and slope.shape == (4,)
