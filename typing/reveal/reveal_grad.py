"""Exact types through the reverse-mode API: ``grad`` has the type of the
argument it differentiates (``argnums`` 0, 1 or ``(0, 1)``; a dict of
parameters gives a dict; the gradient function takes any ``ArrayLike``
for an ``Array`` parameter, which it converts), ``value_and_grad`` pairs it with an ``Array``
value, ``has_aux`` (a literal or a run-time bool) adds the aux type, any
other ``argnums`` (-1, 2, a run-time int or tuple) gives a ``PyTree`` while
keeping the parameters; ``vjp`` returns the output and a pullback from the
output type to a tuple of the primals' types; ``linearize`` a function of
the tangents; ``jacrev`` has the output's type for an array-like argument
and the argument's type for a single-array output (a dict of parameters
gives a dict); ``hessian`` is an ``Array`` for array-like arguments and a
``PyTree`` otherwise."""

from collections.abc import Callable

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import (
    Array,
    ArrayLike,
    Gradient,
    GradientOfPair,
    GradientOfPairWithAux,
    GradientOfSecond,
    GradientOfSecondWithAux,
    GradientWithAux,
    Hessian,
    HessianMaybeWithAux,
    HessianOfPair,
    HessianOfPairWithAux,
    HessianOfSecond,
    HessianOfSecondWithAux,
    HessianWithAux,
    Jacobian,
    JacobianMaybeWithAux,
    JacobianOfPair,
    JacobianOfPairWithAux,
    JacobianOfSecond,
    JacobianOfSecondWithAux,
    JacobianWithAux,
    PyTree,
    ValueAndGradient,
    ValueAndGradientOfPair,
    ValueAndGradientOfPairWithAux,
    ValueAndGradientOfSecond,
    ValueAndGradientOfSecondWithAux,
    ValueAndGradientWithAux,
)

Params = dict[str, Array]


class Stats:
    """A user's auxiliary output type."""


# Positional-only parameters, so that the expected types can be spelled
# ``Callable[[...], ...]`` (both checkers keep parameter names otherwise).
def loss(x: Array, /) -> Array:
    return jnp.sum(jnp.sin(x))


def loss2(w: Array, x: Array, /) -> Array:
    return jnp.sum(w * x)


def mixed(params: Params, scale: float, /) -> Array:
    return jnp.sum(params["w"]) * scale


def scaled(scale: float, params: Params, /) -> Array:
    return jnp.sum(params["w"]) * scale


def scaled_aux(scale: float, params: Params, /) -> tuple[Array, Stats]:
    return jnp.sum(params["w"]) * scale, Stats()


def float_pair(a: float, b: float, /) -> Array:
    return jnp.asarray(a * b)


def model_loss(params: Params, x: Array, y: Array, /) -> Array:
    return jnp.sum((params["w"] * x + params["b"] - y) ** 2)


def loss_aux(x: Array, /) -> tuple[Array, Stats]:
    return jnp.sum(x), Stats()


def loss2_aux(w: Array, x: Array, /) -> tuple[Array, Stats]:
    return jnp.sum(w * x), Stats()


def float_loss(x: Array, /) -> float:
    return float(jnp.sum(x))


def unary(x: Array, /) -> Array:
    return jnp.sin(x)


def binary(x: Array, y: Array, /) -> Array:
    return x * y


def pair_out(x: Array, /) -> tuple[Array, Array]:
    return x, x * 2.0


def with_label(x: Array, /) -> tuple[Array, str]:
    return jnp.sin(x), "label"


def dict_out(params: Params, /) -> Params:
    return {"w2": params["w"] * 2.0}


def params_aux(params: Params, /) -> tuple[Array, Stats]:
    return jnp.sum(params["w"]), Stats()


def named(params: Params, x: Array) -> Array:
    return jnp.sum(params["w"] * x)


def check(x: Array, p: Params, dyn: int, dyn_nums: tuple[int, ...], flag: bool) -> None:
    # grad: the gradient has the differentiated argument's type.
    assert_type(jt.grad(loss), Gradient[Array, []])
    assert_type(jt.grad(loss)(x), Array)
    assert_type(jt.grad(loss, argnums=0)(x), Array)
    assert_type(jt.grad(loss2, argnums=1), GradientOfSecond[Array, Array, []])
    assert_type(jt.grad(loss2, 1)(x, x), Array)
    assert_type(jt.grad(loss2, argnums=(0, 1)), GradientOfPair[Array, Array, []])
    assert_type(jt.grad(mixed)(p, 2.0), Params)
    # argnums=(0, 1): each parameter's gradient typed as for one, in any mix.
    assert_type(jt.grad(mixed, argnums=(0, 1))(p, 2.0), tuple[Params, Array])
    assert_type(jt.grad(scaled, argnums=(0, 1))(2.0, p), tuple[Array, Params])
    assert_type(jt.grad(float_pair, argnums=(0, 1))(1.0, 2.0), tuple[Array, Array])
    assert_type(jt.grad(scaled_aux, argnums=(0, 1), has_aux=True)(2.0, p), tuple[tuple[Array, Params], Stats])
    assert_type(jt.value_and_grad(mixed, argnums=(0, 1))(p, 2.0), tuple[Array, tuple[Params, Array]])
    assert_type(
        jt.value_and_grad(scaled_aux, argnums=(0, 1), has_aux=True)(2.0, p),
        tuple[tuple[Array, Stats], tuple[Array, Params]],
    )
    assert_type(jt.grad(model_loss), Gradient[Params, [Array, Array]])
    assert_type(jt.grad(model_loss)(p, x, x), Params)
    assert_type(jt.grad(float_loss)(x), Array)  # a float loss is fine

    # has_aux: (gradient, aux).
    assert_type(jt.grad(loss_aux, has_aux=True), GradientWithAux[Array, Stats, []])
    assert_type(jt.grad(loss2_aux, argnums=1, has_aux=True)(x, x), tuple[Array, Stats])
    assert_type(jt.grad(loss2_aux, argnums=(0, 1), has_aux=True)(x, x), tuple[tuple[Array, Array], Stats])

    # has_aux known only at run time, for an (output, aux)-valued function
    # (the only kind for which it can be True; without it, it fails).
    assert_type(jt.grad(loss_aux, has_aux=flag), GradientWithAux[Array, Stats, []])
    assert_type(jt.grad(loss2_aux, 1, flag)(x, x), tuple[Array, Stats])

    # Any other argnums keeps the parameters; the gradient is a PyTree (a
    # tuple of them for a sequence), which the caller narrows.
    assert_type(jt.grad(loss2, argnums=dyn), Callable[[Array, Array], PyTree])
    assert_type(jt.grad(loss2, argnums=dyn_nums)(x, x), tuple[PyTree, ...])
    assert_type(jt.grad(loss2, 2), Callable[[Array, Array], PyTree])  # an index not in the overloads
    assert_type(jt.grad(loss2, argnums=-1)(x, x), PyTree)  # the last argument
    assert_type(jt.grad(loss2, argnums=(1, 0))(x, x), tuple[PyTree, ...])
    assert_type(jt.grad(loss2_aux, argnums=dyn, has_aux=True)(x, x), tuple[PyTree, Stats])
    assert_type(jt.grad(loss2_aux, argnums=-1, has_aux=flag)(x, x), tuple[PyTree, Stats])

    # The first argument is positional-only in the gradient function (it
    # must be passed positionally at run time too); the rest keep names.
    assert_type(jt.grad(named)(p, x=x), Params)

    # value_and_grad: (value, gradient), value an Array.
    assert_type(jt.value_and_grad(loss), ValueAndGradient[Array, []])
    assert_type(jt.value_and_grad(model_loss)(p, x, x), tuple[Array, Params])
    assert_type(jt.value_and_grad(loss2, argnums=1)(x, x), tuple[Array, Array])
    assert_type(jt.value_and_grad(loss2, argnums=(0, 1))(x, x), tuple[Array, tuple[Array, Array]])
    assert_type(jt.value_and_grad(loss_aux, has_aux=True)(x), tuple[tuple[Array, Stats], Array])
    assert_type(jt.value_and_grad(loss2_aux, 1, True)(x, x), tuple[tuple[Array, Stats], Array])
    assert_type(
        jt.value_and_grad(loss2_aux, argnums=(0, 1), has_aux=True)(x, x),
        tuple[tuple[Array, Stats], tuple[Array, Array]],
    )
    assert_type(jt.value_and_grad(loss_aux, has_aux=flag)(x), tuple[tuple[Array, Stats], Array])
    assert_type(jt.value_and_grad(loss2, argnums=dyn)(x, x), tuple[Array, PyTree])
    assert_type(jt.value_and_grad(loss2, argnums=-1)(x, x), tuple[Array, PyTree])
    assert_type(jt.value_and_grad(loss2_aux, dyn_nums, True)(x, x), tuple[tuple[Array, Stats], tuple[PyTree, ...]])

    # vjp: (output, pullback[, aux]); the pullback maps an output cotangent
    # to one cotangent per primal.
    assert_type(jt.vjp(unary, x), tuple[Array, Callable[[Array], tuple[Array]]])
    assert_type(jt.vjp(binary, x, x), tuple[Array, Callable[[Array], tuple[Array, Array]]])
    assert_type(jt.vjp(model_loss, p, x, x), tuple[Array, Callable[[Array], tuple[Params, Array, Array]]])
    assert_type(jt.vjp(pair_out, x), tuple[tuple[Array, Array], Callable[[tuple[Array, Array]], tuple[Array]]])
    assert_type(jt.vjp(with_label, x, has_aux=True), tuple[Array, Callable[[Array], tuple[Array]], str])
    assert_type(jt.vjp(jnp.sin, x), tuple[Array, Callable[[Array], tuple[Array]]])
    out, pullback = jt.vjp(binary, x, x)
    assert_type(pullback(out), tuple[Array, Array])

    # linearize: (output, f_jvp[, aux]); f_jvp takes tangents like the primals.
    assert_type(jt.linearize(unary, x), tuple[Array, Callable[[Array], Array]])
    assert_type(jt.linearize(binary, x, x), tuple[Array, Callable[[Array, Array], Array]])
    assert_type(jt.linearize(with_label, x, has_aux=True), tuple[Array, Callable[[Array], Array], str])
    _, f_jvp = jt.linearize(model_loss, p, x, x)
    assert_type(f_jvp(p, x, x), Array)

    # jacrev: with respect to an array-like argument, the output's type;
    # for a single-array output, the argument's type; else a PyTree.
    assert_type(jt.jacrev(unary), Jacobian[Array, Array, []])
    assert_type(jt.jacrev(unary)(x), Array)
    assert_type(jt.jacrev(jnp.sin)(2.0), Array)
    assert_type(jt.jacrev(pair_out)(x), tuple[Array, Array])
    assert_type(jt.jacrev(model_loss)(p, x, x), Params)
    assert_type(jt.jacrev(dict_out)(p), PyTree)
    assert_type(jt.jacrev(binary, argnums=1)(x, x), Array)
    assert_type(jt.jacrev(model_loss, argnums=1)(p, x, x), Array)
    assert_type(jt.jacrev(binary, argnums=(0, 1))(x, x), tuple[Array, Array])
    assert_type(jt.jacrev(model_loss, argnums=(0, 1))(p, x, x), tuple[Params, Array])
    assert_type(jt.jacrev(scaled, argnums=(0, 1))(2.0, p), tuple[Array, Params])
    assert_type(jt.jacfwd(mixed, argnums=(0, 1))(p, 2.0), tuple[Params, Array])
    assert_type(jt.jacfwd(float_pair, argnums=(0, 1))(1.0, 2.0), tuple[Array, Array])
    assert_type(jt.jacrev(scaled_aux, argnums=(0, 1), has_aux=True)(2.0, p), tuple[tuple[Array, Params], Stats])
    assert_type(jt.jacrev(binary, argnums=dyn)(x, x), PyTree)
    assert_type(jt.jacrev(with_label, has_aux=True)(x), tuple[Array, str])
    assert_type(jt.jacrev(params_aux, has_aux=True)(p), tuple[Params, Stats])
    assert_type(jt.jacrev(with_label, has_aux=flag)(x), tuple[Array, str])

    # hessian: an Array (a 2x2 tuple for argnums=(0, 1)) for array-like
    # arguments; a PyTree for a dict of parameters (a dict of dicts).
    assert_type(jt.hessian(loss), Hessian[Array, []])
    assert_type(jt.hessian(loss2, argnums=1)(x, x), Array)
    assert_type(jt.hessian(loss2, argnums=(0, 1))(x, x), tuple[tuple[Array, Array], tuple[Array, Array]])
    assert_type(jt.hessian(loss_aux, has_aux=True)(x), tuple[Array, Stats])
    assert_type(jt.hessian(model_loss)(p, x, x), PyTree)
    assert_type(jt.hessian(model_loss, argnums=dyn)(p, x, x), PyTree)
    assert_type(jt.hessian(loss_aux, has_aux=flag)(x), tuple[Array, Stats])
    assert_type(jt.hessian(params_aux, has_aux=flag)(p), PyTree | tuple[PyTree, Stats])

    # Transformations compose: grad of grad, jit of grad, vmap of grad.
    def scalar(v: Array, /) -> Array:
        return jt.grad(loss)(v).sum()

    assert_type(jt.grad(scalar)(x), Array)
    assert_type(jt.jit(jt.grad(model_loss))(p, x, x), Params)
    assert_type(jt.vmap(jt.grad(model_loss), in_axes=(None, 0, 0))(p, x, x), Params)


def as_callables(x: Array, p: Params) -> None:
    # What grad returns is also a Callable with the loss's parameters.
    g: Callable[[ArrayLike], Array] = jt.grad(loss)
    g_params: Callable[[Params, Array, Array], Params] = jt.grad(model_loss)
    g_second: Callable[[Array, ArrayLike], Array] = jt.grad(loss2, argnums=1)
    vg: Callable[[ArrayLike], tuple[Array, Array]] = jt.value_and_grad(loss)
    assert_type(g(x), Array)
    assert_type(g_params(p, x, x), Params)
    assert_type(g_second(x, x), Array)
    assert_type(vg(x), tuple[Array, Array])


def derivative_classes(flag: bool) -> None:
    # Every class in jaxtyped.typing that a literal argnums gives.
    assert_type(jt.grad(loss2_aux, argnums=1, has_aux=True), GradientOfSecondWithAux[Array, Array, Stats, []])
    assert_type(jt.grad(loss2_aux, argnums=(0, 1), has_aux=True), GradientOfPairWithAux[Array, Array, Stats, []])
    assert_type(jt.value_and_grad(loss_aux, has_aux=True), ValueAndGradientWithAux[Array, Stats, []])
    assert_type(jt.value_and_grad(loss2, argnums=1), ValueAndGradientOfSecond[Array, Array, []])
    assert_type(jt.value_and_grad(loss2_aux, 1, True), ValueAndGradientOfSecondWithAux[Array, Array, Stats, []])
    assert_type(jt.value_and_grad(loss2, argnums=(0, 1)), ValueAndGradientOfPair[Array, Array, []])
    assert_type(
        jt.value_and_grad(loss2_aux, argnums=(0, 1), has_aux=True),
        ValueAndGradientOfPairWithAux[Array, Array, Stats, []],
    )
    assert_type(jt.hessian(loss_aux, has_aux=True), HessianWithAux[Array, Stats, []])
    assert_type(jt.hessian(loss_aux, has_aux=flag), HessianMaybeWithAux[Array, Stats, []])
    assert_type(jt.hessian(loss2, argnums=1), HessianOfSecond[Array, Array, []])
    assert_type(jt.hessian(loss2_aux, argnums=1, has_aux=True), HessianOfSecondWithAux[Array, Array, Stats, []])
    assert_type(jt.hessian(loss2, argnums=(0, 1)), HessianOfPair[Array, Array, []])
    assert_type(jt.hessian(loss2_aux, argnums=(0, 1), has_aux=True), HessianOfPairWithAux[Array, Array, Stats, []])
    assert_type(jt.jacfwd(with_label, has_aux=True), JacobianWithAux[Array, Array, str, []])
    assert_type(jt.jacrev(with_label, has_aux=flag), JacobianMaybeWithAux[Array, Array, str, []])
    assert_type(jt.jacfwd(binary, argnums=1), JacobianOfSecond[Array, Array, Array, []])
    assert_type(jt.jacrev(loss2_aux, argnums=1, has_aux=True), JacobianOfSecondWithAux[Array, Array, Array, Stats, []])
    assert_type(jt.jacfwd(binary, argnums=(0, 1)), JacobianOfPair[Array, Array, Array, []])
    assert_type(jt.jacrev(loss2_aux, argnums=(0, 1), has_aux=True), JacobianOfPairWithAux[Array, Array, Array, Stats, []])
