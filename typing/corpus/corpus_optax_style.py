"""An Optax-style optimizer library, annotated as a library author would:
trees typed with a chex-style recursive alias (Iterable and Mapping nodes),
transformations as NamedTuples of protocol-typed functions, chained."""
from collections.abc import Iterable, Mapping
from typing import Any, NamedTuple, Protocol, TypeVar, Union, reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array
from jaxtyped.typing import ArrayLike

ArrayTree = Union[Array, Iterable["ArrayTree"], Mapping[Any, "ArrayTree"]]
Params = ArrayTree
Updates = ArrayTree
OptState = Any
ParamsT = TypeVar("ParamsT", bound=ArrayTree)


class TransformInitFn(Protocol):
    def __call__(self, params: Params) -> OptState: ...


class TransformUpdateFn(Protocol):
    def __call__(
        self, updates: Updates, state: OptState, params: Params | None = None
    ) -> tuple[Updates, OptState]: ...


class GradientTransformation(NamedTuple):
    init: TransformInitFn
    update: TransformUpdateFn


class ScaleByAdamState(NamedTuple):
    step: Array
    mu: Updates
    nu: Updates


class EmptyState(NamedTuple):
    pass


def safe_int32_increment(count: Array) -> Array:
    max_int32_value = jnp.iinfo(jnp.int32).max
    one = jnp.array(1, dtype=jnp.int32)
    return jnp.where(count < max_int32_value, count + one, max_int32_value)


def update_moment(updates: Updates, moments: Updates, decay: float, order: int) -> Updates:
    return jt.tree_util.tree_map(lambda g, t: (1 - decay) * (g**order) + decay * t, updates, moments)


def bias_correction(moment: Updates, decay: float, count: Array) -> Updates:
    bias_correction_ = 1 - decay**count
    return jt.tree_util.tree_map(lambda t: t / bias_correction_.astype(t.dtype), moment)


def scale_by_adam(b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8) -> GradientTransformation:
    def init_fn(params: Params) -> ScaleByAdamState:
        mu = jt.tree_util.tree_map(jnp.zeros_like, params)
        nu = jt.tree_util.tree_map(jnp.zeros_like, params)
        return ScaleByAdamState(step=jnp.zeros([], jnp.int32), mu=mu, nu=nu)

    def update_fn(
        updates: Updates, state: OptState, params: Params | None = None
    ) -> tuple[Updates, ScaleByAdamState]:
        del params
        mu = update_moment(updates, state.mu, b1, 1)
        nu = update_moment(updates, state.nu, b2, 2)
        count_inc = safe_int32_increment(state.step)
        mu_hat = bias_correction(mu, b1, count_inc)
        nu_hat = bias_correction(nu, b2, count_inc)
        new_updates = jt.tree_util.tree_map(lambda m, v: m / (jnp.sqrt(v) + eps), mu_hat, nu_hat)
        return new_updates, ScaleByAdamState(step=count_inc, mu=mu, nu=nu)

    return GradientTransformation(init_fn, update_fn)


def scale(step_size: float) -> GradientTransformation:
    def init_fn(params: Params) -> EmptyState:
        del params
        return EmptyState()

    def update_fn(
        updates: Updates, state: OptState, params: Params | None = None
    ) -> tuple[Updates, OptState]:
        del params
        return jt.tree_util.tree_map(lambda g: step_size * g, updates), state

    return GradientTransformation(init_fn, update_fn)


def chain(*args: GradientTransformation) -> GradientTransformation:
    init_fns, update_fns = zip(*args)

    def init_fn(params: Params) -> tuple[OptState, ...]:
        return tuple(fn(params) for fn in init_fns)

    def update_fn(
        updates: Updates, state: OptState, params: Params | None = None
    ) -> tuple[Updates, tuple[OptState, ...]]:
        new_state = []
        for s, fn in zip(state, update_fns):
            updates, new_s = fn(updates, s, params)
            new_state.append(new_s)
        return updates, tuple(new_state)

    return GradientTransformation(init_fn, update_fn)


def adam(learning_rate: float) -> GradientTransformation:
    return chain(scale_by_adam(), scale(-learning_rate))


def apply_updates(params: ParamsT, updates: Updates) -> ParamsT:
    return jt.tree_util.tree_map(
        lambda p, u: jnp.asarray(p + u).astype(jnp.asarray(p).dtype), params, updates
    )


def global_norm(updates: Updates) -> Array:
    return jnp.sqrt(sum(jnp.sum(jnp.square(x)) for x in jt.tree_util.tree_leaves(updates)))


def clip_by_global_norm(max_norm: float) -> GradientTransformation:
    def init_fn(params: Params) -> EmptyState:
        del params
        return EmptyState()

    def update_fn(
        updates: Updates, state: OptState, params: Params | None = None
    ) -> tuple[Updates, OptState]:
        del params
        g_norm = global_norm(updates)
        trigger = jnp.squeeze(g_norm < max_norm)

        def clip_fn(t: Array) -> Array:
            return jt.lax.select(trigger, t, (t / g_norm.astype(t.dtype)) * max_norm)

        return jt.tree_util.tree_map(clip_fn, updates), state

    return GradientTransformation(init_fn, update_fn)


def l2_loss(predictions: ArrayLike, targets: ArrayLike | None = None) -> Array:
    errors = jnp.asarray(predictions) - targets if targets is not None else jnp.asarray(predictions)
    return 0.5 * errors**2


def softmax_cross_entropy(logits: Array, labels: Array) -> Array:
    return -jnp.sum(labels * jt.nn.log_softmax(logits, axis=-1), axis=-1)


def loss_fn(params: dict[str, Array], x: Array, y: Array) -> Array:
    logits = x @ params["w"] + params["b"]
    return jnp.mean(softmax_cross_entropy(logits, jt.nn.one_hot(y, 3)))


key = jt.random.key(0)
params: dict[str, Array] = {"w": jt.random.normal(key, (4, 3)) * 0.1, "b": jnp.zeros(3)}
x = jt.random.normal(jt.random.fold_in(key, 1), (8, 4))
y = jnp.arange(8) % 3
opt = chain(clip_by_global_norm(1.0), adam(1e-2))
opt_state = opt.init(params)


@jt.jit
def step(params: dict[str, Array], opt_state: OptState) -> tuple[dict[str, Array], OptState, Array]:
    loss, grads = jt.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = opt.update(grads, opt_state, params)
    return apply_updates(params, updates), opt_state, loss


losses = []
for _ in range(20):
    params, opt_state, loss = step(params, opt_state)
    losses.append(float(loss))
assert losses[-1] < losses[0]
assert float(jnp.sum(l2_loss(jnp.ones(3), jnp.zeros(3)))) == 1.5
reveal_type(global_norm(params))
reveal_type(apply_updates(params, params))
reveal_type(jt.tree_util.tree_leaves(update_moment(params, params, 0.9, 1)))
