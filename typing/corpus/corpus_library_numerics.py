"""Numerics helpers as optimizer and layer libraries write them: masks by
tree path, a safe norm, NaN and infinity guards, complex parameters, and the
array utilities such code reaches for (tile, take, roll, repeat, newaxis,
triu, swapaxes, vstack, broadcast_arrays, logaddexp, vectorize, ...)."""
import math
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp


def safe_norm(x, min_norm, ord=None, axis=None, keepdims=False):
    norm = jnp.linalg.norm(x, ord=ord, axis=axis, keepdims=True)
    x = jnp.where(norm <= min_norm, jnp.ones_like(x), x)
    norm = jnp.squeeze(norm, axis=axis) if not keepdims else norm
    masked_norm = jnp.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)
    return jnp.where(norm <= min_norm, min_norm, masked_norm)


def decay_mask(params):
    def is_kernel(path, leaf):
        name = jt.tree_util.keystr(path)
        return leaf.ndim > 1 and "bias" not in name

    return jt.tree_util.tree_map_with_path(is_kernel, params)


def weight_decay(updates, params, mask, rate=1e-4):
    return jt.tree_util.tree_map(lambda g, p, m: g + rate * p if m else g, updates, params, mask)


def global_norm(tree):
    return jnp.sqrt(jt.tree.reduce(lambda acc, x: acc + jnp.sum(jnp.real(jnp.conj(x) * x)), tree, 0.0))


def all_finite(tree):
    flags = [jnp.all(jnp.isfinite(x)) for x in jt.tree_util.tree_leaves(tree)]
    return jnp.stack(flags).all()


def zero_nans(x):
    bad = jnp.logical_or(jnp.isnan(x), jnp.isinf(x))
    return jnp.where(jnp.logical_not(bad), x, 0.0)


params = {"dense": {"kernel": jnp.ones((3, 2)), "bias": jnp.zeros(2)}, "scale": jnp.ones((2, 2))}
grads = jt.tree_util.tree_map(lambda p: 0.1 * p, params)
mask = decay_mask(params)
updated = weight_decay(grads, params, mask)
paths = [jt.tree_util.keystr(path) for path, _ in jt.tree_util.tree_leaves_with_path(params)]
named, treedef = jt.tree.flatten_with_path(params)
assert paths == ["['dense']['bias']", "['dense']['kernel']", "['scale']"]
assert len(named) == 3 and treedef.num_leaves == 3
reveal_type(updated)
reveal_type(global_norm(params))
assert math.isclose(float(global_norm(params)), math.sqrt(10.0), rel_tol=1e-6)
assert bool(all_finite(params))

v = jnp.array([3.0, 4.0, jnp.nan, jnp.inf, -jnp.inf])
cleaned = zero_nans(v)
count = jnp.count_nonzero(cleaned)
reveal_type(count)
assert int(count) == 2 and bool(jnp.equal(cleaned[2], 0.0)) and bool(jnp.not_equal(v[0], v[1]))
cleaned_np = jnp.nan_to_num(v, nan=0.0, posinf=1e6, neginf=-1e6)
assert float(cleaned_np[3]) == 1e6

n = safe_norm(jnp.zeros(3), 1e-6)
assert math.isclose(float(n), 1e-6, rel_tol=1e-6) and float(safe_norm(jnp.array([3.0, 4.0]), 1e-6)) == 5.0

# complex parameters, as in a spectral layer
weights = jnp.ones((2, 2), dtype=jnp.complex64) * (1 + 1j)
if jnp.iscomplexobj(weights):
    magnitude = jnp.sqrt(jnp.real(weights * jnp.conj(weights)))
else:
    magnitude = jnp.abs(weights)
reveal_type(magnitude)
assert magnitude.dtype == jnp.float32 and not jnp.isrealobj(weights)
phase = jnp.angle(weights)
assert jnp.issubdtype(weights.dtype, jnp.complexfloating) and phase.shape == (2, 2)

# layout utilities
row = jnp.arange(4.0)
grid = jnp.tile(row[jnp.newaxis, :], (3, 1))
picked = jnp.take(grid, jnp.array([0, 2]), axis=1)
shifted = jnp.roll(row, 1)
doubled = jnp.repeat(row, 2)
upper = jnp.triu(jnp.ones((3, 3)))
stacked = jnp.vstack([row, shifted])
swapped = jnp.swapaxes(grid, 0, 1)
a, b = jnp.broadcast_arrays(row, jnp.ones((2, 1)))
halves = jnp.array_split(row, 2)
reveal_type(picked)
reveal_type(a)
reveal_type(halves)
assert grid.shape == (3, 4) and picked.shape == (3, 2) and float(shifted[0]) == 3.0
assert doubled.shape == (8,) and float(upper.sum()) == 6.0 and stacked.shape == (2, 4)
assert swapped.shape == (4, 3) and a.shape == (2, 4) and b.shape == (2, 4) and len(halves) == 2
empty = jnp.empty((2, 3))
like = jnp.full_like(empty, 7.0)
blank = jnp.empty_like(row, dtype=jnp.int32)
assert empty.shape == (2, 3) and float(like[0, 0]) == 7.0 and blank.dtype == jnp.int32

# elementwise helpers
lse = jnp.logaddexp(jnp.log(2.0), jnp.log(3.0))
steps = jnp.nextafter(jnp.float32(1.0), jnp.float32(2.0))
tail = jnp.expm1(1e-5) - jnp.log1p(1e-5)
wrapped = jnp.mod(jnp.arange(-3, 3), 3)
inverse = ~jnp.array([True, False])
flipped = jnp.invert(jnp.array([0, 1], dtype=jnp.uint8))
dist = jnp.hypot(3.0, 4.0)
ramp = jnp.cumprod(jnp.array([1.0, 2.0, 3.0]))
roots = jnp.cbrt(jnp.array([8.0, 27.0]))
mean = jnp.average(jnp.array([1.0, 3.0]), weights=jnp.array([3.0, 1.0]))
freqs = jnp.logspace(0.0, 2.0, 3)
bits = jnp.log2(jnp.array([1.0, 8.0]))
squash = jnp.arctanh(jnp.array([0.0, 0.5]))
reveal_type(lse)
reveal_type(wrapped)
reveal_type(flipped)
assert math.isclose(float(lse), math.log(5.0), rel_tol=1e-6) and float(steps) > 1.0
assert abs(float(tail)) < 1e-8 and wrapped.tolist() == [0, 1, 2, 0, 1, 2]
assert inverse.tolist() == [False, True] and flipped.tolist() == [255, 254]
assert float(dist) == 5.0 and float(ramp[-1]) == 6.0 and np.allclose(np.asarray(roots), [2.0, 3.0])
assert float(mean) == 1.5 and float(freqs[-1]) == 100.0 and float(bits[1]) == 3.0
assert float(squash[0]) == 0.0 and jnp.isdtype(freqs.dtype, "real floating")

matrix = jnp.arange(6.0).reshape(2, 3)
fro = jnp.linalg.matrix_norm(matrix)
assert math.isclose(float(fro), math.sqrt(55.0), rel_tol=1e-6)


def pairwise(u, w):
    return jnp.dot(u, w) / (jnp.linalg.norm(u) * jnp.linalg.norm(w))


cosine = jnp.vectorize(pairwise, signature="(n),(n)->()")
sims = cosine(jnp.ones((4, 3)), jnp.ones(3))
reveal_type(sims)
assert sims.shape == (4,)

# dtype plumbing
wide = jnp.zeros(2, dtype=jnp.float64)
assert wide.dtype in (jnp.float32, jnp.float64) and jnp.dtype(jnp.complex128).itemsize == 16
flat = jnp.ravel_multi_index((jnp.array([0, 1]), jnp.array([2, 0])), (2, 3))
assert flat.tolist() == [2, 3]
with jnp.printoptions(precision=2):
    text = str(jnp.array([1.23456]))
assert "1.23" in text
