"""NumPy interop in a data pipeline: host arrays into jit, results back with np.asarray, float() and .tolist()."""
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp


def standardize(batch, mean, std):
    return (batch - mean) / std


def batches(data, labels, batch_size):
    for start in range(0, data.shape[0], batch_size):
        yield data[start : start + batch_size], labels[start : start + batch_size]


@jt.jit
def evaluate(w, x, y):
    logits = x @ w
    pred = jnp.argmax(logits, axis=-1)
    return jnp.sum(pred == y), jnp.mean(jt.nn.logsumexp(logits, axis=-1))


rng = np.random.default_rng(0)
data = rng.normal(size=(50, 3)).astype(np.float32)
labels = rng.integers(0, 2, size=50)
mean, std = data.mean(axis=0), data.std(axis=0)

w = jnp.array(rng.normal(size=(3, 2)), dtype=jnp.float32)
correct = 0
history = []
for xb, yb in batches(data, labels, 16):
    hits, lse = evaluate(w, standardize(jnp.asarray(xb), mean, std), yb)
    correct += int(hits)
    history.append(float(lse))
accuracy = correct / data.shape[0]
assert 0.0 <= accuracy <= 1.0 and len(history) == 4

host = np.asarray(standardize(jnp.asarray(data), mean, std))
assert isinstance(host, np.ndarray) and host.dtype == np.float32
assert np.allclose(host.mean(axis=0), 0.0, atol=1e-5)

w_host = jt.device_get(w)
assert np.array_equal(np.asarray(w_host), np.asarray(w))
as_list = jnp.arange(3).tolist()
assert as_list == [0, 1, 2]
mixed = jnp.array([1, 2]) + np.array([0.5, 0.5], dtype=np.float32)
assert mixed.dtype == jnp.float32
total = float(jnp.sum(jnp.asarray(labels)))
assert total == float(labels.sum())
reveal_type(history)
reveal_type(host)
reveal_type(mixed)
reveal_type(as_list)
