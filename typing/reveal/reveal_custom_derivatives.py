"""Exact types of jt.custom_jvp / jt.custom_vjp: the decorated function is
``custom_jvp[<f's parameters>, <f's result>]`` (positional-only parameters,
so that the ParamSpec can be spelled ``[Array, float]``), calls return
``f``'s result type, ``defjvp`` returns the rule with its own type,
``defjvps``/``defvjp`` return None, and the functools-style attributes have
``f``'s types."""

from collections.abc import Callable

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.stages import Jitted
from jaxtyped.typing import Array


def f_impl(x: Array, y: float, /) -> Array:
    return jnp.sin(x) * y


def f_rule(primals: tuple[Array, float], tangents: tuple[Array, float]) -> tuple[Array, Array]:
    return f_impl(*primals), tangents[0]


def y_rule(y_dot: float, ans: Array, x: Array, y: float) -> Array:
    return ans * y_dot


def app_rule(n: int, primals: tuple[Array], tangents: tuple[Array], /) -> tuple[Array, Array]:
    return primals[0], tangents[0]


def tree_impl(x: Array, /) -> dict[str, Array]:
    return {"y": x}


def fwd(x: Array, /) -> tuple[dict[str, Array], Array]:
    return {"y": x}, x


def bwd(res: Array, ct: dict[str, Array]) -> tuple[Array]:
    return (ct["y"],)


def check(x: Array) -> None:
    f = jt.custom_jvp(f_impl)
    assert_type(f, jt.custom_jvp[[Array, float], Array])
    assert_type(f(x, 2.0), Array)
    # defjvp returns the rule itself, typed as written.
    assert_type(f.defjvp(f_rule), Callable[[tuple[Array, float], tuple[Array, float]], tuple[Array, Array]])
    assert_type(f.defjvp(app_rule), Callable[[int, tuple[Array], tuple[Array]], tuple[Array, Array]])
    assert_type(f.defjvps(None, y_rule), None)
    assert_type(f.jvp, Callable[..., tuple[Array, Array]] | None)
    assert_type(f.__wrapped__, Callable[[Array, float], Array])
    assert_type(f.fun, Callable[[Array, float], Array])
    assert_type(f.__name__, str)
    assert_type(f.nondiff_argnums, tuple[int, ...])
    assert_type(jt.custom_jvp(f_impl, nondiff_argnums=(1,)), jt.custom_jvp[[Array, float], Array])
    assert_type(jt.jit(f), Jitted[[Array, float], Array])
    assert_type(jt.grad(f)(x, 2.0), Array)
    assert_type(jt.vmap(f)(x, 2.0), Array)

    t = jt.custom_vjp(tree_impl)
    assert_type(jt.custom_vjp(tree_impl), jt.custom_vjp[[Array], dict[str, Array]])
    assert_type(t, jt.custom_vjp[[Array], dict[str, Array]])
    assert_type(t(x), dict[str, Array])
    assert_type(t.defvjp(fwd, bwd), None)
    assert_type(t.fwd, Callable[..., tuple[dict[str, Array], object]] | None)
    assert_type(t.bwd, Callable[..., tuple[object, ...]] | None)
    assert_type(t.__wrapped__, Callable[[Array], dict[str, Array]])


@jt.custom_vjp
def scaled_sin(x: Array, scale: float) -> Array:
    return jnp.sin(x) * scale


# Lambda rules of an annotated function: fwd's parameters are the
# function's and bwd's residual parameter is fwd's residuals, so pyright
# strict finds no unknown parameter (mypy types them Any: no error either).
assert_type(
    scaled_sin.defvjp(
        lambda x, scale: (scaled_sin(x, scale), (x.shape, scale)),
        lambda res, g: (jnp.zeros(res[0]) * g * res[1], None),
    ),
    None,
)
