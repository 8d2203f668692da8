"""Classification losses and metrics as training scripts compute them:
one-hot targets, log-softmax cross-entropy picked with take_along_axis,
label smoothing, masked means over padded batches, accuracy and a
confusion matrix from integer arrays, top-k accuracy, bincount class
weights, Python conversions for logging, and isinstance checks on
jax.Array."""
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp


def cross_entropy(logits, labels, smoothing=0.0):
    num_classes = logits.shape[-1]
    targets = jt.nn.one_hot(labels, num_classes)
    targets = targets * (1.0 - smoothing) + smoothing / num_classes
    return -jnp.sum(targets * jt.nn.log_softmax(logits), axis=-1)


def picked_nll(logits, labels):
    logp = jt.nn.log_softmax(logits)
    return -jnp.take_along_axis(logp, labels[:, None], axis=-1)[:, 0]


def masked_mean(values, mask):
    return jnp.where(mask, values, 0.0).sum() / jnp.maximum(mask.sum(), 1)


def confusion_matrix(predictions, labels, num_classes):
    index = labels * num_classes + predictions
    return jnp.bincount(index, length=num_classes * num_classes).reshape(num_classes, num_classes)


def top_k_accuracy(logits, labels, k):
    _, top = jt.lax.top_k(logits, k)
    return jnp.any(top == labels[:, None], axis=-1).mean()


rng = np.random.default_rng(0)
logits = jnp.asarray(rng.normal(size=(8, 4)), dtype=jnp.float32)
labels = jnp.array([0, 1, 2, 3, 0, 1, 2, 3])
mask = jnp.arange(8) < 6

loss = masked_mean(cross_entropy(logits, labels, smoothing=0.1), mask)
nll = picked_nll(logits, labels)
assert np.allclose(np.asarray(nll), np.asarray(cross_entropy(logits, labels)), atol=1e-5)
predictions = jnp.argmax(logits, axis=-1)
accuracy = (predictions == labels).mean()
reveal_type(accuracy)
matrix = confusion_matrix(predictions, labels, 4)
reveal_type(matrix)
assert int(matrix.sum()) == 8 and int(jnp.trace(matrix)) == int((predictions == labels).sum())
top2 = top_k_accuracy(logits, labels, 2)
assert float(top2) >= float(accuracy)
weights = 1.0 / jnp.bincount(labels, length=4)
reveal_type(weights)
assert weights.shape == (4,)

grads = jt.grad(lambda w: masked_mean(cross_entropy(logits @ w, labels), mask))(jnp.eye(4))
frozen = jt.lax.stop_gradient(grads)
metrics = {"loss": float(loss), "accuracy": float(accuracy), "top2": top2.item(), "best": int(jnp.argmax(weights))}
reveal_type(metrics)
assert isinstance(loss, jt.Array) and isinstance(frozen, jt.Array) and not isinstance(metrics["loss"], jt.Array)
assert all(np.isfinite(v) for v in (metrics["loss"], metrics["accuracy"]))
print(f"loss {metrics['loss']:.3f} accuracy {metrics['accuracy']:.2f} confusion\n{np.asarray(matrix)}")
