"""jaxtyped.test_util.check_grads accepts JAX's arguments (function, args
tuple, order, modes, tolerances, eps); a pytree argument is
fine."""

import jaxtyped.numpy as jnp
from jaxtyped.test_util import check_grads
from jaxtyped.typing import Array


def loss(w: Array, x: Array) -> Array:
    return jnp.sum(jnp.tanh(w * x))


def tree_loss(params: dict[str, Array]) -> Array:
    return jnp.sum(jnp.sin(params["w"]))


w = jnp.linspace(0.1, 0.9, 3)
check_grads(loss, (w, w + 1.0), order=2)
check_grads(loss, (w, w), 1, modes=("rev",), atol=1e-2, rtol=1e-2, eps=1e-3)
check_grads(tree_loss, ({"w": w},), order=1, modes=["fwd"])
