"""A VAE-style loss: reparameterised sampling with jt.random and a KL term."""
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp


def encoder(params, x):
    h = jnp.tanh(x @ params["enc"])
    return h @ params["mu"], h @ params["logvar"]


def decoder(params, z):
    return jt.nn.sigmoid(z @ params["dec"])


def elbo(params, key, x):
    mu, logvar = encoder(params, x)
    eps = jt.random.normal(key, mu.shape)
    z = mu + jnp.exp(0.5 * logvar) * eps
    recon = decoder(params, z)
    bce = -jnp.sum(x * jnp.log(recon + 1e-6) + (1 - x) * jnp.log(1 - recon + 1e-6))
    kl = -0.5 * jnp.sum(1 + logvar - mu**2 - jnp.exp(logvar))
    return (bce + kl) / x.shape[0]


key = jt.random.key(0)
keys = jt.random.split(key, 6)
params = {
    "enc": jt.random.normal(keys[0], (6, 5)) * 0.2,
    "mu": jt.random.normal(keys[1], (5, 2)) * 0.2,
    "logvar": jt.random.normal(keys[2], (5, 2)) * 0.2,
    "dec": jt.random.normal(keys[3], (2, 6)) * 0.2,
}
x = jt.random.bernoulli(keys[4], 0.5, (4, 6)).astype(jnp.float32)
value, grads = jt.jit(jt.value_and_grad(elbo))(params, keys[5], x)
assert jnp.isfinite(value)
assert set(grads) == set(params)
reveal_type(value)
reveal_type(grads)
reveal_type(x)
