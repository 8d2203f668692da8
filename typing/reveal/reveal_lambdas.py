# pyright: standard
# (as pass_lambdas.py: strict mode reports a lambda's Unknown types)
"""Types through the transformations for unannotated lambdas (issue 20):
where the lambda's result type decides the result (vmap, jit, jvp, vjp,
linearize, checkpoint, custom_jvp, control flow) it is exact; a lambda's
parameters are Any in grad, value_and_grad, hessian, jacfwd and jacrev
(its body may pass them to a function taking a dict or a float), and so
are its derivatives (Any in mypy, Unknown in pyright). Gradients of
annotated functions of float, int and ArrayLike parameters are Arrays, and
the gradient function takes any ArrayLike for an Array parameter."""

from collections.abc import Callable
from typing import Any

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped.typing import Array, ArrayLike, Gradient


def of_float(v: float) -> Array:
    return jnp.sin(v)


def of_int(v: int) -> Array:
    return jnp.asarray(v * 1.0)


def of_arraylike(v: ArrayLike) -> Array:
    return jnp.sum(jnp.sin(v))


def of_array(v: Array) -> Array:
    return jnp.sum(v**2)


Params = dict[str, Array]


def of_params(p: Params) -> Array:
    return jnp.sum(p["w"] ** 2)


def of_any(p: Any) -> Any:
    return p


def check(x: Array, params: Params) -> None:
    # Gradients of lambdas: Any/Unknown (a lambda's parameter is Any, so is
    # its gradient; usable as anything, no error).
    assert_type(jt.grad(lambda v: jnp.sum(v**2))(x), Any)
    assert_type(jt.grad(lambda v: v**2)(1.0), Any)
    assert_type(jt.value_and_grad(lambda v: jnp.sum(v**2))(x)[1], Any)
    assert_type(jt.hessian(lambda v: jnp.sum(v**3))(x), Any)
    assert_type(jt.grad(lambda v, a: jnp.sum(v * a), argnums=(0, 1))(x, x)[0], Any)
    # The lambda's body may use its parameter as a dict of parameters, or
    # pass it to a function of a float.
    assert_type(jt.grad(lambda p: of_params(p))(params), Any)
    assert_type(jt.grad(lambda p: jnp.sum(p["w"] ** 2))(params), Any)
    assert_type(jt.value_and_grad(lambda p: of_params(p))(params)[1], Any)
    assert_type(jt.grad(lambda s, p: of_params(p) * s, argnums=1)(2.0, params), Any)
    assert_type(jt.grad(lambda s, p: of_params(p) * s, argnums=(0, 1))(2.0, params)[1], Any)
    assert_type(jt.grad(lambda p: (of_params(p), "aux"), has_aux=True)(params)[1], str)
    assert_type(jt.grad(lambda v: of_float(v))(1.0), Any)
    assert_type(jt.value_and_grad(lambda v: of_float(v))(1.0), tuple[Array, Any])
    assert_type(jt.grad(lambda a, b: of_float(a) * of_float(b), argnums=1)(1.0, 2.0), Any)
    assert_type(jt.hessian(lambda p: of_params(p))(params), Any)
    assert_type(jt.hessian(lambda v: of_float(v))(1.0), Any)
    # Composed: the lambda's parameter stays Any inside vmap, jit and grad.
    assert_type(jt.vmap(jt.grad(lambda p: of_params(p)), in_axes=(None,))(params), Any)
    assert_type(jt.jit(jt.grad(lambda p: of_params(p)))(params), Any)
    assert_type(jt.grad(jt.grad(lambda v: of_float(v) ** 3))(2.0), Any)
    # Jacobians of lambdas: Any, as gradients (the parameter may be a dict
    # of parameters, passed to a typed function, or indexed with a str).
    assert_type(jt.jacfwd(lambda v: jnp.sin(v))(x), Any)
    assert_type(jt.jacrev(lambda v: jnp.sin(v))(x), Any)
    assert_type(jt.jacrev(lambda p: of_params(p))(params), Any)
    assert_type(jt.jacfwd(lambda p: jnp.sum(p["w"] ** 2))(params), Any)
    assert_type(jt.jacfwd(lambda v: of_float(v))(1.0), Any)
    # Twice transformed, an Any-typed function still takes a dict.
    assert_type(jt.jacfwd(jt.jacrev(of_any))(params), Any)
    # Shape-preserving transformations keep the lambda's result type.
    assert_type(jt.vmap(lambda v: jnp.sum(v))(x), Array)
    assert_type(jt.jit(lambda v: jnp.sin(v))(x), Array)
    assert_type(jt.checkpoint(lambda v: jnp.sin(v))(x), Array)
    assert_type(jt.jvp(lambda v: jnp.sin(v), (x,), (x,)), tuple[Array, Array])
    assert_type(jt.vjp(lambda v: jnp.sin(v), x)[0], Array)
    assert_type(jt.linearize(lambda v: jnp.sin(v), x)[0], Array)
    assert_type(jt.custom_jvp(lambda v: jnp.sin(v))(x), Array)
    assert_type(lax.cond(True, lambda v: v + 1, lambda v: v - 1, x), Array)
    assert_type(lax.while_loop(lambda v: v < 10, lambda v: v + 1, x), Array)
    assert_type(lax.fori_loop(0, 3, lambda i, v: v + i, x), Array)
    assert_type(lax.scan(lambda c, xi: (c + xi, c * xi), x, x), tuple[Array, Array])

    # Annotated functions: float, int and ArrayLike parameters give Arrays.
    assert_type(jt.grad(of_float), Gradient[float, []])
    assert_type(jt.grad(of_float)(1.0).shape, tuple[int, ...])
    assert_type(jt.grad(of_int)(1), Array)
    assert_type(jt.grad(of_arraylike)(1.0), Array)
    assert_type(jt.value_and_grad(of_float)(1.0), tuple[Array, Array])
    # An Array parameter: the gradient function converts any ArrayLike.
    assert_type(jt.grad(of_array), Gradient[Array, []])
    assert_type(jt.grad(of_array)(2.0), Array)
    assert_type(jt.hessian(of_array)(2.0), Array)
    # An Any parameter (a pytree, perhaps) gives an Any gradient.
    assert_type(jt.grad(of_any)({"w": x}), Any)
    assert_type(jt.jacfwd(of_any)({"w": x}), Any)
