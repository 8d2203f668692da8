"""Idiomatic reverse-mode code type-checks and runs: ``grad`` and
``value_and_grad`` over arrays and over a dict of parameters (the gradient
is a dict), with extra non-differentiated arguments, ``argnums`` 0, 1,
``(0, 1)`` or only known at run time, ``has_aux``; ``vjp`` with its
pullback, ``linearize``, ``jacrev``, ``hessian``; and the usual
compositions (``jit(grad(...))``, per-example gradients with ``vmap``).
Every annotated assignment would be rejected if a result had the wrong
type; the asserts compare with NumPy."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array, ArrayLike

Params = dict[str, Array]


def close(a: ArrayLike, b: ArrayLike) -> bool:
    return bool(np.allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-6))


host_x = np.array([0.5, -1.0, 2.0], np.float32)
host_y = np.array([1.0, 0.0, -1.0], np.float32)
x = jnp.asarray(host_x)
y = jnp.asarray(host_y)


# --- grad of an Array function; argnums 0, 1, (0, 1) ---


def sin_sum(v: Array) -> Array:
    return jnp.sum(jnp.sin(v))


def dot(w: Array, v: Array) -> Array:
    return jnp.sum(w * v)


g: Array = jt.grad(sin_sum)(x)
assert close(g, np.cos(host_x))
g_v: Array = jt.grad(dot, argnums=1)(x, y)
assert close(g_v, host_x)
g_w, g_v2 = jt.grad(dot, argnums=(0, 1))(x, y)
assert close(g_w, host_y) and close(g_v2, host_x)
both: tuple[Array, Array] = jt.grad(dot, (0, 1))(x, y)
assert close(both[0], host_y)


# --- a dict of parameters with extra, non-differentiated arguments ---


def mse(params: Params, inputs: Array, targets: Array) -> Array:
    pred = params["w"] * inputs + params["b"]
    return jnp.mean((pred - targets) ** 2)


params: Params = {"w": jnp.asarray(np.float32(2.0)), "b": jnp.asarray(np.float32(0.5))}
grads: Params = jt.grad(mse)(params, x, y)
residual = 2.0 * host_x + 0.5 - host_y
assert sorted(grads) == ["b", "w"]
assert close(grads["w"], np.mean(2 * residual * host_x))
assert close(grads["b"], np.mean(2 * residual))
updated: Params = {k: params[k] - 0.1 * grads[k] for k in params}  # an SGD step keeps the type
assert float(mse(updated, x, y)) < float(mse(params, x, y))
g_inputs: Array = jt.grad(mse, argnums=1)(params, x, y)
assert g_inputs.shape == (3,)
loss_value, grads2 = jt.value_and_grad(mse)(params, x, y)
assert close(loss_value, np.mean(residual**2)) and close(grads2["w"], grads["w"])


# --- has_aux: the aux output passes through untouched ---


def mse_with_stats(params: Params, inputs: Array, targets: Array) -> tuple[Array, dict[str, Array]]:
    pred = params["w"] * inputs + params["b"]
    return jnp.mean((pred - targets) ** 2), {"pred": pred}


grads_aux, stats = jt.grad(mse_with_stats, has_aux=True)(params, x, y)
assert close(grads_aux["w"], grads["w"]) and close(stats["pred"], 2.0 * host_x + 0.5)
(value_aux, stats2), grads3 = jt.value_and_grad(mse_with_stats, has_aux=True)(params, x, y)
assert close(value_aux, loss_value) and close(stats2["pred"], stats["pred"]) and close(grads3["b"], grads["b"])
g_in_aux, _ = jt.grad(mse_with_stats, argnums=1, has_aux=True)(params, x, y)
assert close(g_in_aux, g_inputs)


# --- argnums only known at run time (or -1): parameters checked, the
# gradient is a PyTree that the caller narrows ---


def grad_wrt(index: int) -> Array:
    g_dyn = jt.grad(dot, argnums=index)(x, y)
    assert isinstance(g_dyn, jt.Array)  # narrows the PyTree
    return g_dyn


assert close(grad_wrt(0), host_y) and close(grad_wrt(1), host_x)
indices: tuple[int, ...] = (1, 0)
g_dyn_tuple = jt.grad(dot, argnums=indices)(x, y)
g_first, g_second = g_dyn_tuple
assert isinstance(g_first, jt.Array) and isinstance(g_second, jt.Array)
assert close(g_first, host_x) and close(g_second, host_y)
g_last = jt.grad(mse, argnums=-1)(params, x, y)  # the targets
assert isinstance(g_last, jt.Array) and g_last.shape == (3,)
value_last, g_last2 = jt.value_and_grad(mse, argnums=-1)(params, x, y)
assert isinstance(g_last2, jt.Array) and close(g_last2, g_last) and close(value_last, loss_value)


# --- has_aux known only at run time: the loss's result type decides ---


def train_step(with_stats: bool) -> Params:
    if with_stats:
        g_stats, _ = jt.grad(mse_with_stats, has_aux=with_stats)(params, x, y)
        return g_stats
    return jt.grad(mse, has_aux=with_stats)(params, x, y)


assert close(train_step(True)["w"], train_step(False)["w"])


# --- vjp: the pullback maps an output cotangent to one per primal ---


def scale_shift(w: Array, v: Array) -> Array:
    return w * v + 1.0


out, pullback = jt.vjp(scale_shift, x, y)
ct_w, ct_v = pullback(jnp.ones(3))
assert close(out, host_x * host_y + 1.0) and close(ct_w, host_y) and close(ct_v, host_x)
per_primal: tuple[Array, Array] = pullback(out)
assert close(per_primal[0], (host_x * host_y + 1.0) * host_y)
(out_p, pullback_p) = jt.vjp(mse, params, x, y)
ct_params, ct_inputs, ct_targets = pullback_p(jnp.asarray(np.float32(1.0)))
assert close(ct_params["w"], grads["w"]) and close(ct_inputs, g_inputs)
assert close(out_p, loss_value) and ct_targets.shape == (3,)


def tanh_with_label(v: Array) -> tuple[Array, str]:
    return jnp.tanh(v), "tanh"


out_a, pullback_a, label = jt.vjp(tanh_with_label, x, has_aux=True)
(ct_a,) = pullback_a(jnp.ones(3))
assert label == "tanh" and close(ct_a, 1.0 - np.tanh(host_x) ** 2) and close(out_a, np.tanh(host_x))


# --- linearize: the Jacobian-vector product from saved residuals ---

out_l, f_jvp = jt.linearize(scale_shift, x, y)
tangent_out: Array = f_jvp(jnp.ones(3), jnp.zeros(3))
assert close(tangent_out, host_y) and close(out_l, out)


# --- jacrev and hessian ---


def square(v: Array) -> Array:
    return v * v


def cubes(v: Array) -> Array:
    return jnp.sum(v * v * v)


jac: Array = jt.jacrev(square)(x)
assert close(jac, np.diag(2 * host_x))
jac_fwd: Array = jt.jacfwd(square)(x)
assert close(jac, jac_fwd)
hess: Array = jt.hessian(cubes)(x)
assert close(hess, np.diag(6 * host_x))
jac_pair: tuple[Array, Array] = jt.jacrev(dot, argnums=(0, 1))(x, y)
assert close(jac_pair[0], host_y) and close(jac_pair[1], host_x)

# With respect to a dict of parameters: the Jacobian of a scalar loss is a
# dict like the parameters; the Hessian (a dict of dicts) is a PyTree.
jac_params: Params = jt.jacrev(mse)(params, x, y)
jac_params_fwd: Params = jt.jacfwd(mse)(params, x, y)
assert close(jac_params["w"], grads["w"]) and close(jac_params_fwd["b"], grads["b"])
hess_params = jt.hessian(mse)(params, x, y)
assert isinstance(hess_params, dict)
hess_w = hess_params["w"]
assert isinstance(hess_w, dict)
hess_ww = hess_w["w"]
assert isinstance(hess_ww, jt.Array) and close(hess_ww, np.mean(2 * host_x**2))


# --- compositions: jit of grad, per-example gradients, grad of grad ---

train_grad = jt.jit(jt.grad(mse))
jitted_grads: Params = train_grad(params, x, y)
assert close(jitted_grads["w"], grads["w"])


def example_loss(params: Params, inputs: Array, target: Array) -> Array:
    return (params["w"] * jnp.sum(inputs) + params["b"] - target) ** 2


batch = jnp.asarray(np.arange(6.0, dtype=np.float32).reshape(3, 2))
per_example: Params = jt.vmap(jt.grad(example_loss), in_axes=(None, 0, 0))(params, batch, y)
row_sums = np.arange(6.0).reshape(3, 2).sum(axis=1)
assert per_example["w"].shape == (3,)
assert close(per_example["w"], 2 * (2.0 * row_sums + 0.5 - host_y) * row_sums)


def d_sin_sum(v: Array) -> Array:
    return jnp.sum(jt.grad(sin_sum)(v))


second: Array = jt.grad(d_sin_sum)(x)
assert close(second, -np.sin(host_x))
