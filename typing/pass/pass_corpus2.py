"""What users write with tree masks and flat parameter vectors (issue 20,
second corpus round): a weight-decay mask by key path indexed as the dict
it is, and a ravel/unravel pair whose rebuilt tree is used as the
parameters' dict, with no cast, in both checkers; a timing loop that
blocks on its results; jt.scipy reached from the package; loops whose
carry is a tuple with Python-number leaves; the file runs."""

import time

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.tree_util import keystr
from jaxtyped.typing import Array

params = {
    "dense": {"w": jnp.ones((2, 3)), "b": jnp.zeros(3)},
    "out": {"w": jnp.ones((3, 1)), "b": jnp.zeros(1)},
}

decay = jt.tree.map_with_path(lambda path, p: keystr(path).endswith("['w']"), params)
assert decay["dense"]["w"] and not decay["out"]["b"]
ranks = jt.tree.map(lambda p: int(p.ndim), {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)})
assert ranks["w"] + ranks["b"] == 3

leaves, treedef = jt.tree.flatten(params)
sizes = [leaf.size for leaf in leaves]
vector = jnp.concatenate([leaf.ravel() for leaf in leaves])
assert vector.shape == (sum(sizes),)
offsets = [sum(sizes[:i]) for i in range(1, len(sizes))]
pieces = [piece.reshape(leaf.shape) for piece, leaf in zip(jnp.split(vector, offsets), leaves)]
rebuilt = jt.tree.unflatten(treedef, pieces)
kernel: Array = rebuilt["dense"]["w"]
assert kernel.shape == (2, 3)
assert jt.tree.structure(rebuilt) == jt.tree.structure(params)



@jt.jit
def predict(p: dict[str, dict[str, Array]], v: Array) -> Array:
    return jnp.tanh(v @ p["dense"]["w"] + p["dense"]["b"])


inputs = jnp.ones((4, 2))
out = predict(params, inputs).block_until_ready()  # compile outside the timed loop
start = time.perf_counter()
for _ in range(3):
    out = predict(params, inputs).block_until_ready()
elapsed = time.perf_counter() - start
assert elapsed >= 0.0 and out.shape == (4, 3) and len(out.devices()) == 1
assert out.sharding.is_fully_replicated
log_density = jt.scipy.stats.norm.logpdf(out, 0.0, 1.0).sum() + jt.scipy.special.logsumexp(out)
assert log_density.shape == ()


def power_step(i: Array, carry: tuple[Array, Array]) -> tuple[Array, Array]:
    v, _ = carry
    w = jnp.array([[2.0, 1.0], [1.0, 3.0]]) @ v
    return w / jnp.linalg.norm(w), jnp.linalg.norm(w)


vec, eig = jt.lax.fori_loop(0, 30, power_step, (jnp.ones(2), 0.0))
assert abs(float(eig) - 3.618034) < 1e-3 and vec.shape == (2,)
steps, halved = jt.lax.while_loop(lambda c: c[1] > 1.0, lambda c: (c[0] + 1, c[1] / 2), (0, 100.0))
assert int(steps) == 7 and float(halved) <= 1.0
