# pyright: standard
# (strict mode reports the Unknown types of unannotated lambdas, which is
# what strictness asks for on unannotated code; no other diagnostic.)
"""Unannotated lambdas and functions passed to the transformations
type-check in both checkers (issue 20): a lambda's parameters support every
Array operation (``**``, ``@``, methods such as ``.mean()``, passing to a
function annotated with ``Array``), its derivative function takes Python
floats and pytrees, and the results are usable as arrays. The asserts
compare with NumPy, so the file also runs."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array, ArrayLike


def close(a: ArrayLike, b: ArrayLike) -> bool:
    return bool(np.allclose(np.asarray(a), np.asarray(b), rtol=1e-5, atol=1e-5))


host = np.array([0.5, -1.0, 2.0], np.float32)
x = jnp.asarray(host)
y = jnp.ones(3)
W = jnp.eye(3) * 2.0


def predict(w: Array, inputs: Array) -> Array:
    return jnp.tanh(inputs @ w)


# --- reverse and forward mode over lambdas ---
g1: Array = jt.grad(lambda v: jnp.sum(v**2))(x)
assert close(g1, 2 * host)
h1: Array = jt.hessian(lambda v: jnp.sum(v**3))(x)
assert close(h1, np.diag(6 * host))
g_readme: Array = jt.grad(lambda w: jnp.sum(predict(w, W) ** 2))(x)  # the README's line
assert g_readme.shape == (3,)
value, g2 = jt.value_and_grad(lambda v: jnp.sum(v * v))(x)
assert close(value, np.sum(host**2)) and close(g2, 2 * host)
j1: Array = jt.jacfwd(lambda v: v**2)(x)
j2: Array = jt.jacrev(lambda v: v**2)(x)
assert close(j1, np.diag(2 * host)) and close(j2, j1)
g3, aux = jt.grad(lambda v: (jnp.sum(v**2), v.mean()), has_aux=True)(x)
assert close(g3, 2 * host) and close(aux, host.mean())
ga, gb = jt.grad(lambda v, a: jnp.sum(v * a), argnums=(0, 1))(x, y)
assert close(ga, np.ones(3)) and close(gb, host)
g_second: Array = jt.grad(lambda v, a: jnp.sum(v * a**2), argnums=1)(x, y)
assert close(g_second, 2 * host)
g_max: Array = jt.grad(lambda v: jnp.sum(jnp.maximum(v, 0.0)))(x)
assert close(g_max, (host > 0).astype(np.float32))

# --- the derivative function of a lambda takes floats and pytrees ---
d_float: Array = jt.grad(lambda v: v**2)(3.0)
assert close(d_float, 6.0) and d_float.shape == ()
shape: tuple[int, ...] = jt.grad(lambda v: jnp.sum(v**2))(x).shape
assert shape == (3,)
params = {"w": x, "b": jnp.asarray(np.float32(1.0))}


def loss(p: dict[str, Array], scale: float) -> Array:
    return (jnp.sum(p["w"] ** 2) + p["b"]) * scale


grads = jt.grad(loss)(params, 1.0)  # annotated: a dict of Arrays
assert close(grads["w"], 2 * host) and close(grads["b"], 1.0)
grads_any = jt.grad(lambda p, s: jnp.sum(p**2) * s)(x, 2.0)
assert close(grads_any, 4 * host)

# --- compositions ---
per_row: Array = jt.vmap(jt.grad(lambda v: jnp.sum(v**2)))(W)
assert close(per_row, 2 * np.eye(3) * 2.0)
jitted_grad: Array = jt.jit(jt.grad(lambda v: jnp.sum(jnp.sin(v))))(x)
assert close(jitted_grad, np.cos(host))
second: Array = jt.grad(jt.grad(lambda v: v**3))(2.0)
assert close(second, 12.0)

# --- vmap, jit, jvp, vjp, linearize, checkpoint ---
v1: Array = jt.vmap(lambda v: v @ v)(W)
assert close(v1, np.full(3, 4.0))
v2: Array = jt.vmap(lambda a, b: a.dot(b), in_axes=(0, None))(W, x)
assert close(v2, 2 * host)
v3: Array = jt.vmap(jt.vmap(lambda a, b: a * b))(W, W)
assert close(v3, np.eye(3) * 4.0)
f1: Array = jt.jit(lambda v: v * 2 + 1)(x)
assert close(f1, 2 * host + 1)
p_out, t_out = jt.jvp(lambda v: v**2, (x,), (y,))
assert close(p_out, host**2) and close(t_out, 2 * host)
out, pullback = jt.vjp(lambda v: v**2, x)
(ct,) = pullback(y)
assert close(out, host**2) and close(ct, 2 * host)
lin_out, f_jvp = jt.linearize(lambda v: jnp.sin(v) * v, x)
assert close(f_jvp(y), np.cos(host) * host + np.sin(host))
c1: Array = jt.checkpoint(lambda v: jnp.sin(v) ** 2)(x)
assert close(c1, np.sin(host) ** 2)
softplus = jt.custom_jvp(lambda v: jnp.log1p(jnp.exp(v)))
softplus.defjvps(lambda t, ans, v: t / (1.0 + jnp.exp(-v)))
sp: Array = softplus(x)
assert close(sp, np.log1p(np.exp(host)))

# --- control flow ---
k1: Array = lax.cond(True, lambda v: v + 1, lambda v: v - 1, x)
assert close(k1, host + 1)
carry, ys = lax.scan(lambda c, xi: (c + xi, c * xi), 0.0, x)
assert close(carry, host.sum())
k3: Array = lax.while_loop(lambda v: v < 10, lambda v: v + 1, 0)
assert int(k3) == 10
k4: Array = lax.fori_loop(0, 3, lambda i, v: v + i, x)
assert close(k4, host + 3)
