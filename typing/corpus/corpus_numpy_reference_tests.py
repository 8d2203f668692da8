"""A user's test module: a small model checked against NumPy references with
np.testing, finite differences and NumPy reductions of the results, the way
JAX projects write their tests."""
from typing import reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp


def gelu_np(x):
    return 0.5 * x * (1 + np.tanh(np.sqrt(2 / np.pi) * (x + 0.044715 * x**3)))


def layer(params, x):
    return jt.nn.gelu(x @ params["w"] + params["b"])


def reference_layer(params, x):
    return gelu_np(np.asarray(x) @ np.asarray(params["w"]) + np.asarray(params["b"]))


def test_layer_matches_numpy():
    key = jt.random.key(0)
    params = {"w": jt.random.normal(key, (3, 2)), "b": jnp.ones(2)}
    x = jt.random.normal(jt.random.fold_in(key, 1), (4, 3))
    out = layer(params, x)
    np.testing.assert_allclose(out, reference_layer(params, x), rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(out.shape, (4, 2))
    assert np.all(np.isfinite(out))
    return out


def test_gradient_by_finite_differences():
    def f(x):
        return jnp.sum(jnp.sin(x) * x)

    x = jnp.array([0.3, -1.2, 2.0])
    eps = 1e-3
    numeric = np.array([(f(x + eps * e) - f(x - eps * e)) / (2 * eps) for e in jnp.eye(3)])
    np.testing.assert_allclose(jt.grad(f)(x), numeric, rtol=1e-2)


def test_reductions_agree():
    x = jnp.linspace(-1.0, 1.0, 11)
    assert np.isclose(np.mean(x), float(jnp.mean(x)))
    assert np.allclose(np.cumsum(x), jnp.cumsum(x), atol=1e-6)
    stacked = np.stack([x, jnp.flip(x)])
    np.testing.assert_allclose(stacked.sum(axis=0), np.zeros(11), atol=1e-6)
    assert x.tolist()[0] == -1.0


def test_vmap_matches_loop():
    xs = jnp.arange(12.0).reshape(4, 3)
    batched = jt.vmap(lambda row: jnp.dot(row, row))(xs)
    looped = [float(jnp.dot(row, row)) for row in xs]
    np.testing.assert_allclose(batched, looped)
    return batched


out = test_layer_matches_numpy()
test_gradient_by_finite_differences()
test_reductions_agree()
batched = test_vmap_matches_loop()
reveal_type(out)
reveal_type(batched)
reveal_type(jnp.linspace(-1.0, 1.0, 11))
