"""k-means with vmap'd distances, argmin assignment and a fori_loop."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax


def assign(points, centroids):
    dists = jt.vmap(lambda p: jnp.sum((centroids - p) ** 2, axis=1))(points)
    return jnp.argmin(dists, axis=1)


def update(points, labels, k):
    one_hot = jt.nn.one_hot(labels, k)
    counts = one_hot.sum(axis=0)
    sums = one_hot.T @ points
    return sums / jnp.maximum(counts, 1.0)[:, None]


@jt.jit
def kmeans(points, init):
    k = init.shape[0]

    def step(i, centroids):
        return update(points, assign(points, centroids), k)

    return lax.fori_loop(0, 5, step, init)


key = jt.random.PRNGKey(5)
a = jt.random.normal(key, (10, 2)) * 0.1
points = jnp.concatenate([a, a + 3.0])
centroids = kmeans(points, points[jnp.array([0, 10])])
labels = assign(points, centroids)
assert jnp.all(labels[:10] == labels[0]) and jnp.all(labels[10:] != labels[0])
inertia = jnp.sum((points - centroids[labels]) ** 2)
reveal_type(centroids)
reveal_type(labels)
reveal_type(inertia)
