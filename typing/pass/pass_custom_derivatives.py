"""jt.custom_jvp and jt.custom_vjp keep the decorated function's signature
and result type in both checkers, in the JAX docs' forms: a bare decorator
with ``defjvp`` used as a decorator, ``defjvps``, ``nondiff_argnums`` with a
function argument, ``custom_vjp`` with ``defvjp`` (``None`` cotangents,
pytree residuals); the results flow through grad, jit and vmap with their
types. The file is also executed: the asserted values are the rules'."""

from collections.abc import Callable

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


@jt.custom_jvp
def f(x: Array, y: float) -> Array:
    return jnp.sin(x) * y


@f.defjvp
def f_jvp(primals: tuple[Array, float], tangents: tuple[Array, float]) -> tuple[Array, Array]:
    x, y = primals
    x_dot, y_dot = tangents
    return f(x, y), jnp.cos(x) * x_dot * y + jnp.sin(x) * y_dot


x = jnp.asarray(0.5)
out: Array = f(x, 2.0)
grad_f: Callable[[Array, float], Array] = jt.grad(f)
assert np.allclose(np.asarray(grad_f(x, 2.0)), 2.0 * np.cos(0.5))
jitted: Array = jt.jit(f)(x, 2.0)
batched: Array = jt.vmap(f, in_axes=(0, None))(jnp.arange(3.0), 2.0)
assert batched.shape == (3,)
# defjvp returns the rule, so f_jvp is still callable directly.
pair: tuple[Array, Array] = f_jvp((x, 2.0), (jnp.asarray(1.0), 0.0))
name: str = f.__name__
wrapped: Callable[[Array, float], Array] = f.__wrapped__


@jt.custom_jvp
def g(x: Array, y: Array) -> Array:
    return jnp.sin(x) * y


def g_jvp_x(x_dot: Array, ans: Array, x: Array, y: Array) -> Array:
    return jnp.cos(x) * x_dot * y


g.defjvps(g_jvp_x, None)
assert np.allclose(np.asarray(jt.grad(g)(x, jnp.asarray(3.0))), 3.0 * np.cos(0.5))


def apply_twice(fn: Callable[[Array], Array], x: Array) -> Array:
    return fn(fn(x))


def app_jvp(fn: Callable[[Array], Array], primals: tuple[Array], tangents: tuple[Array]) -> tuple[Array, Array]:
    return app(fn, *primals), 2.0 * tangents[0]


def app_sin(x: Array) -> Array:
    return app(jnp.sin, x)


app = jt.custom_jvp(apply_twice, nondiff_argnums=(0,))
app.defjvp(app_jvp)
assert float(jt.grad(app_sin)(x)) == 2.0

# A lambda rule gets typed parameters from defjvp's first overload.
def sin(x: Array) -> Array:
    return jnp.sin(x)


h = jt.custom_jvp(sin)
h.defjvp(lambda primals, tangents: (h(*primals), 3.0 * tangents[0]))
assert float(jt.grad(h)(x)) == 3.0


@jt.custom_vjp
def clip_gradient(lo: float, hi: float, x: Array) -> Array:
    return x


def clip_fwd(lo: float, hi: float, x: Array) -> tuple[Array, dict[str, float]]:
    return x, {"lo": lo, "hi": hi}


def clip_bwd(res: dict[str, float], g: Array) -> tuple[None, None, Array]:
    return (None, None, jnp.clip(g, res["lo"], res["hi"]))


def clipped_triple(x: Array) -> Array:
    return clip_gradient(-0.5, 0.5, 3.0 * x)


clip_gradient.defvjp(clip_fwd, clip_bwd)
clipped: Array = jt.grad(clipped_triple)(x)
assert float(clipped) == 1.5  # the clipped cotangent 0.5, times 3

# A lambda bwd gets typed parameters (the cotangent has f's result type).
def ident_fwd(x: Array) -> tuple[Array, None]:
    return x, None


ident = jt.custom_vjp(sin)
ident.defvjp(ident_fwd, lambda res, ct: (2.0 * ct,))
assert float(jt.grad(ident)(x)) == 2.0
