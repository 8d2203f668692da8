"""jt.jacfwd keeps the function's parameters; for an Array -> Array
function the Jacobian is an Array, with has_aux a (jacobian, aux) pair."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


def cube(x: Array) -> Array:
    return x * x * x


def weighted(w: Array, x: Array) -> Array:
    return jnp.sum(w * x)


def with_aux(x: Array) -> tuple[Array, Array]:
    y = jnp.sin(x)
    return y, y


x = jnp.array([1.0, 2.0])

jac: Array = jt.jacfwd(cube)(x)
assert np.allclose(np.asarray(jac), np.diag([3.0, 12.0]))

grad_x: Array = jt.jacfwd(weighted, argnums=1)(jnp.array([5.0, 7.0]), x)
assert np.allclose(np.asarray(grad_x), [5.0, 7.0])

jac_sin, value = jt.jacfwd(with_aux, has_aux=True)(x)
assert jac_sin.shape == (2, 2) and value.shape == (2,)

# Second derivative: jacfwd of jacfwd is still (Array) -> Array.
def cubes(v: Array) -> Array:
    return jnp.sum(v * v * v)


hessian = jt.jacfwd(jt.jacfwd(cubes))
h: Array = hessian(x)
assert np.allclose(np.asarray(h), np.diag([6.0, 12.0]))

# With respect to a dict of parameters, the Jacobian of a scalar has the
# dict's structure; a pytree output of a dict input is a PyTree to narrow.
def loss(params: dict[str, Array]) -> Array:
    return jnp.sum(params["w"] ** 2)


params = {"w": jnp.array([1.0, 2.0])}
jac_params: dict[str, Array] = jt.jacfwd(loss)(params)
assert np.allclose(np.asarray(jac_params["w"]), [2.0, 4.0])
def twice(params: dict[str, Array]) -> dict[str, Array]:
    return {"twice": params["w"] * 2.0}


jac_tree = jt.jacfwd(twice)(params)
assert isinstance(jac_tree, dict) and sorted(jac_tree) == ["twice"]
