"""A Hamiltonian Monte Carlo sampler as probabilistic-programming libraries
write one: a NamedTuple state, a leapfrog integrator under fori_loop, the
potential's gradient over a parameter pytree, flat views with
ravel_pytree, keys split per step and folded per chain, chains under vmap,
and summaries with scipy.stats and logsumexp."""
from typing import NamedTuple, reveal_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.flatten_util import ravel_pytree
from jaxtyped.scipy.special import logsumexp
from jaxtyped.scipy.stats import norm


class HMCState(NamedTuple):
    position: dict[str, jt.Array]
    potential: jt.Array
    grad: dict[str, jt.Array]
    accepted: jt.Array


def potential_fn(params):
    prior = -jnp.sum(norm.logpdf(params["loc"], 0.0, 5.0)) - norm.logpdf(params["log_scale"], 0.0, 1.0)
    scale = jnp.exp(params["log_scale"])
    likelihood = -jnp.sum(norm.logpdf(DATA, params["loc"], scale))
    return prior + likelihood


def leapfrog(position, momentum, grad, step_size, n_steps):
    def body(_, carry):
        q, p, g = carry
        p = jt.tree.map(lambda p_, g_: p_ - 0.5 * step_size * g_, p, g)
        q = jt.tree.map(lambda q_, p_: q_ + step_size * p_, q, p)
        g = jt.grad(potential_fn)(q)
        p = jt.tree.map(lambda p_, g_: p_ - 0.5 * step_size * g_, p, g)
        return q, p, g

    return jt.lax.fori_loop(0, n_steps, body, (position, momentum, grad))


def kinetic(momentum):
    flat, _ = ravel_pytree(momentum)
    return 0.5 * jnp.dot(flat, flat)


def hmc_step(state, key, step_size=0.05, n_steps=10):
    momentum_key, accept_key = jt.random.split(key)
    flat, unravel = ravel_pytree(state.position)
    momentum = unravel(jt.random.normal(momentum_key, flat.shape))
    q, p, g = leapfrog(state.position, momentum, state.grad, step_size, n_steps)
    new_potential = potential_fn(q)
    log_ratio = state.potential + kinetic(momentum) - new_potential - kinetic(p)
    accept = jnp.log(jt.random.uniform(accept_key)) < log_ratio
    position = jt.tree.map(lambda new, old: jnp.where(accept, new, old), q, state.position)
    potential = jnp.where(accept, new_potential, state.potential)
    grad = jt.tree.map(lambda new, old: jnp.where(accept, new, old), g, state.grad)
    return HMCState(position, potential, grad, state.accepted + accept)


def sample_chain(key, init, n_samples):
    state = HMCState(init, potential_fn(init), jt.grad(potential_fn)(init), jnp.zeros((), jnp.int32))

    def step(state, key):
        state = hmc_step(state, key)
        return state, state.position["loc"]

    final, locs = jt.lax.scan(step, state, jt.random.split(key, n_samples))
    return final, locs


DATA = jnp.asarray(np.random.default_rng(0).normal(1.5, 0.5, size=(50, 2)), dtype=jnp.float32)
init = {"loc": jnp.zeros(2), "log_scale": jnp.zeros(())}
key = jt.random.key(0)
chain_keys = jt.vmap(lambda i: jt.random.fold_in(key, i))(jnp.arange(4))
finals, locs = jt.jit(jt.vmap(sample_chain, in_axes=(0, None, None)), static_argnums=2)(chain_keys, init, 200)
reveal_type(locs)
reveal_type(finals)
assert locs.shape == (4, 200, 2)
posterior_mean = locs[:, 100:].mean(axis=(0, 1))
assert np.allclose(np.asarray(posterior_mean), [1.5, 1.5], atol=0.2), posterior_mean
acceptance = finals.accepted / 200
assert bool(jnp.all(acceptance > 0.3))

log_weights = -jt.vmap(lambda loc: potential_fn({"loc": loc, "log_scale": jnp.log(0.5)}))(locs[0, 100:])
log_evidence = logsumexp(log_weights) - jnp.log(log_weights.shape[0])
reveal_type(log_evidence)
assert jnp.isfinite(log_evidence)
flat, unravel = ravel_pytree(init)
reveal_type(flat)
assert flat.shape == (3,) and unravel(flat)["loc"].shape == (2,)
