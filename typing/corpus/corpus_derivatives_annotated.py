"""Derivatives in annotated code: vjp with has_aux, linearize and its
transpose, jvp of pytrees, hessian of a dict, jacrev with two argnums and
aux, custom_jvp with defjvps, custom_vjp with nondiff_argnums,
linear_transpose, closure_convert, checkify of a NaN."""
from functools import partial
from typing import reveal_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import Array
from jaxtyped.experimental import checkify


def energy(params: dict[str, Array], x: Array) -> tuple[Array, dict[str, Array]]:
    h = jnp.tanh(params["w"] @ x)
    e = jnp.sum(h**2)
    return e, {"h": h}


def residuals(p: Array, q: Array) -> tuple[Array, Array]:
    r = jnp.stack([p[0] * q[0] - 1.0, p[1] + q[1] ** 2])
    return r, jnp.sum(r)


@jt.custom_jvp
def smooth_abs(x: Array) -> Array:
    return jnp.sqrt(x**2 + 1e-6)


smooth_abs.defjvps(lambda t, ans, x: x / ans * t)


@partial(jt.custom_vjp, nondiff_argnums=(1,))
def clip_by_norm(x: Array, max_norm: float) -> Array:
    return x


def clip_fwd(x: Array, max_norm: float) -> tuple[Array, Array]:
    return x, jnp.linalg.norm(x)


def clip_bwd(max_norm: float, norm: Array, g: Array) -> tuple[Array]:
    return (g * jnp.minimum(1.0, max_norm / (norm + 1e-9)),)


clip_by_norm.defvjp(clip_fwd, clip_bwd)


def apply_matrix(m: Array, v: Array) -> Array:
    return m @ v


params = {"w": jnp.eye(3) * 0.5}
x = jnp.array([1.0, -2.0, 0.5])
e, vjp_fn, aux = jt.vjp(energy, params, x, has_aux=True)
param_ct, x_ct = vjp_fn(jnp.ones(()))
assert param_ct["w"].shape == (3, 3) and aux["h"].shape == (3,)
y, f_jvp = jt.linearize(lambda v: jnp.sin(v) * v, x)
tangent_out = f_jvp(jnp.ones(3))
transposed = jt.linear_transpose(f_jvp, x)
(cotangent,) = transposed(jnp.ones(3))
primal_out, tangent = jt.jvp(lambda p: energy(p, x)[0], (params,), ({"w": jnp.ones((3, 3))},))
hess = jt.hessian(lambda p: energy(p, x)[0])(params)
assert hess["w"]["w"].shape == (3, 3, 3, 3)
jac, total = jt.jacrev(residuals, argnums=(0, 1), has_aux=True)(jnp.ones(2), jnp.ones(2))
assert jac[0].shape == (2, 2)
assert float(jt.grad(smooth_abs)(jnp.array(-2.0))) < 0
g = jt.grad(lambda v: jnp.sum(clip_by_norm(v, 1.0) * 10.0))(x)
assert abs(float(g[0]) - 10.0 / float(jnp.linalg.norm(x))) < 1e-4
converted, consts = jt.closure_convert(lambda v: apply_matrix(params["w"], v), x)
assert converted(x, *consts).shape == (3,)
checked = checkify.checkify(lambda v: jnp.log(v), errors=checkify.float_checks)
err, out = checked(jnp.array([-1.0]))
assert err.get() is not None
reveal_type(param_ct)
reveal_type(aux)
reveal_type(tangent_out)
reveal_type(hess)
reveal_type(jac)
reveal_type(err)
