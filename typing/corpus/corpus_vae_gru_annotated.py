"""Fully annotated: a VAE of registered dataclass layers with methods, a
custom_vjp gradient clip, a donated jit step, a scanned GRU over a
NamedTuple, FFT, triangular solves and debug.print."""
from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from typing import NamedTuple, reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.scipy.linalg as jsl
from jaxtyped import Array, lax, random


@jt.tree_util.register_dataclass
@dataclasses.dataclass
class Dense:
    w: Array
    b: Array

    def __call__(self, x: Array) -> Array:
        return x @ self.w + self.b


@jt.tree_util.register_dataclass
@dataclasses.dataclass
class VAE:
    enc: Dense
    mu: Dense
    logvar: Dense
    dec: Dense

    @staticmethod
    def create(key: Array, d_in: int, d_hidden: int, d_latent: int) -> VAE:
        ks = random.split(key, 4)

        def dense(k: Array, a: int, b: int) -> Dense:
            return Dense(random.normal(k, (a, b)) / np.sqrt(a), jnp.zeros(b))

        return VAE(dense(ks[0], d_in, d_hidden), dense(ks[1], d_hidden, d_latent),
                   dense(ks[2], d_hidden, d_latent), dense(ks[3], d_latent, d_in))

    def encode(self, x: Array) -> tuple[Array, Array]:
        h = jt.nn.relu(self.enc(x))
        return self.mu(h), self.logvar(h)

    def decode(self, z: Array) -> Array:
        return jt.nn.sigmoid(self.dec(z))


@jt.custom_vjp
def clip_gradient(x: Array, bound: float) -> Array:
    return x


def clip_fwd(x: Array, bound: float) -> tuple[Array, float]:
    return x, bound


def clip_bwd(bound: float, g: Array) -> tuple[Array, None]:
    return jnp.clip(g, -bound, bound), None


clip_gradient.defvjp(clip_fwd, clip_bwd)


def elbo(model: VAE, key: Array, x: Array) -> Array:
    mu, logvar = model.encode(x)
    eps = random.normal(key, mu.shape)
    z = mu + jnp.exp(0.5 * logvar) * eps
    recon = model.decode(clip_gradient(z, 1.0))
    log_lik = jnp.sum(x * jnp.log(recon + 1e-7) + (1 - x) * jnp.log(1 - recon + 1e-7), axis=-1)
    kl = -0.5 * jnp.sum(1 + logvar - mu**2 - jnp.exp(logvar), axis=-1)
    return jnp.mean(log_lik - kl)


@functools.partial(jt.jit, donate_argnums=0)
def sgd_step(model: VAE, key: Array, x: Array, lr: float = 1e-2) -> tuple[VAE, Array]:
    value, grads = jt.value_and_grad(lambda m: -elbo(m, key, x))(model)
    new_model = jt.tree_util.tree_map(lambda p, g: p - lr * g, model, grads)
    return new_model, value


class GRUParams(NamedTuple):
    wz: Array
    wr: Array
    wh: Array


def gru(params: GRUParams, xs: Array, h0: Array) -> tuple[Array, Array]:
    def cell(h: Array, x: Array) -> tuple[Array, Array]:
        hx = jnp.concatenate([h, x])
        z = jt.nn.sigmoid(params.wz @ hx)
        r = jt.nn.sigmoid(params.wr @ hx)
        h_new = jnp.tanh(params.wh @ jnp.concatenate([r * h, x]))
        h = (1 - z) * h + z * h_new
        return h, h

    return lax.scan(cell, h0, xs)


def batched(f: Callable[[Array], Array]) -> Callable[[Array], Array]:
    return jt.vmap(f)


def spectrum(x: Array) -> Array:
    return jnp.abs(jnp.fft.rfft(x)) ** 2


def solve_spd(a: Array, b: Array) -> Array:
    chol = jnp.linalg.cholesky(a @ a.T + jnp.eye(a.shape[0]))
    y = jsl.solve_triangular(chol, b, lower=True)
    return jsl.solve_triangular(chol.T, y, lower=False)


def log_debug(x: Array) -> Array:
    jt.debug.print("norm={n}", n=jnp.linalg.norm(x))
    return x


key = random.PRNGKey(0)
k_model, k_data, k_step, k_gru = random.split(key, 4)
model = VAE.create(k_model, 6, 8, 2)
data = (random.uniform(k_data, (16, 6)) > 0.5).astype(jnp.float32)
losses: list[float] = []
for step_key in random.split(k_step, 3):
    model, loss = sgd_step(model, step_key, data)
    losses.append(float(loss))
assert all(np.isfinite(losses))
gp = GRUParams(*(random.normal(k, (3, 5)) * 0.1 for k in random.split(k_gru, 3)))
h_last, hs = gru(gp, jnp.ones((4, 2)), jnp.zeros(3))
assert h_last.shape == (3,) and hs.shape == (4, 3)
power = batched(spectrum)(jnp.ones((2, 8)))
assert power.shape == (2, 5)
sol = solve_spd(jnp.eye(3), jnp.ones(3))
assert sol.shape == (3,)
logged = log_debug(jnp.ones(2))
recon = model.decode(model.encode(data)[0])
assert recon.shape == data.shape
reveal_type(model)
reveal_type(losses)
reveal_type(hs)
reveal_type(power)
reveal_type(sol)
