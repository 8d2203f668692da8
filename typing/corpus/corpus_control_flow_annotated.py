"""Control flow and transformations in annotated code: scan over pytrees of
carries and outputs, while_loop over a NamedTuple, cond and switch with
several operands, associative_scan, lax.map with batches, checkpoint
policies, vmap with dict in_axes, custom_vjp with typed residuals, Partial."""
from functools import partial
from typing import NamedTuple, reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array, lax


class SolverState(NamedTuple):
    x: Array
    residual: Array
    iteration: Array


def newton_sqrt(a: Array, tol: float = 1e-6, max_iter: int = 50) -> SolverState:
    def cond_fun(state: SolverState) -> Array:
        return (state.residual > tol) & (state.iteration < max_iter)

    def body_fun(state: SolverState) -> SolverState:
        x = 0.5 * (state.x + a / state.x)
        return SolverState(x, jnp.abs(x * x - a), state.iteration + 1)

    init = SolverState(a, jnp.abs(a * a - a), jnp.array(0))
    return lax.while_loop(cond_fun, body_fun, init)


def ema_scan(xs: Array, decay: float) -> tuple[Array, dict[str, Array]]:
    def step(carry: tuple[Array, Array], x: Array) -> tuple[tuple[Array, Array], dict[str, Array]]:
        mean, count = carry
        new_mean = decay * mean + (1 - decay) * x
        return (new_mean, count + 1), {"mean": new_mean, "delta": x - mean}

    (final, _), history = lax.scan(step, (jnp.zeros(()), jnp.zeros((), jnp.int32)), xs)
    return final, history


def piecewise(x: Array, index: Array, scale: float) -> Array:
    branches = [lambda v, s: v * s, lambda v, s: v + s, lambda v, s: jnp.sin(v) * s]
    return lax.switch(index, branches, x, scale)


def safe_log(x: Array, eps: float) -> Array:
    return lax.cond(x > eps, lambda v, e: jnp.log(v), lambda v, e: jnp.log(e) + (v - e) / e, x, eps)


def cumulative_max(xs: Array) -> Array:
    return lax.associative_scan(jnp.maximum, xs)


def batched_norms(xs: Array) -> Array:
    return lax.map(lambda row: jnp.linalg.norm(row), xs, batch_size=2)


@partial(jt.checkpoint, policy=jt.checkpoint_policies.dots_with_no_batch_dims_saveable)
def block(w: Array, x: Array) -> Array:
    return jnp.tanh(w @ x)


def affine(params: dict[str, Array], x: Array) -> Array:
    return params["w"] @ x + params["b"]


@jt.custom_vjp
def clip_gradient(x: Array, limit: float) -> Array:
    return x


def clip_fwd(x: Array, limit: float) -> tuple[Array, float]:
    return x, limit


def clip_bwd(limit: float, g: Array) -> tuple[Array, None]:
    return jnp.clip(g, -limit, limit), None


clip_gradient.defvjp(clip_fwd, clip_bwd)


def scaled(factor: float, x: Array) -> Array:
    return factor * x


state = newton_sqrt(jnp.array(2.0))
assert abs(float(state.x) - 2**0.5) < 1e-5
final, history = ema_scan(jnp.arange(5.0), 0.5)
assert history["mean"].shape == (5,)
assert float(piecewise(jnp.array(1.0), jnp.array(1), 2.0)) == 3.0
assert float(safe_log(jnp.array(0.0), 1e-3)) < 0
assert [float(v) for v in cumulative_max(jnp.array([1.0, 3.0, 2.0]))] == [1.0, 3.0, 3.0]
assert batched_norms(jnp.ones((5, 4))).shape == (5,)
w = jnp.eye(3)
g = jt.grad(lambda w: jnp.sum(block(w, jnp.ones(3))))(w)
params = {"w": jnp.ones((4, 3)), "b": jnp.zeros(4)}
per_example = jt.vmap(affine, in_axes=({"w": None, "b": None}, 0))(params, jnp.ones((7, 3)))
assert per_example.shape == (7, 4)
clipped = jt.grad(lambda x: jnp.sum(clip_gradient(x, 0.5) * 10.0))(jnp.ones(3))
assert float(clipped[0]) == 0.5
double = jt.tree_util.Partial(scaled, 2.0)
assert float(jt.jit(lambda f, x: f(x))(double, jnp.array(3.0))) == 6.0
jt.debug.print("final={f}", f=final)
ready = jt.block_until_ready({"a": final, "b": [history["mean"]]})
reveal_type(state)
reveal_type(history)
reveal_type(g)
reveal_type(per_example)
reveal_type(double)
reveal_type(ready)
