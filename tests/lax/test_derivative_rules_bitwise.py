"""The elementwise derivative rules round as JAX's do: under ``jit`` a
gradient and a forward-mode tangent of every differentiable elementwise
primitive are JAX's bit for bit.

Both libraries lower to the same XLA operations, so equal bits need equal
groupings: JAX's ``log`` rule is ``t / x``, not ``t * (1 / x)``; ``tanh``'s
is ``(t + t * y) * (1 - y)``, not ``t * (1 - y * y)``; ``div``'s are
``t_x / y`` and ``(-t_y * x) * y ** -2``. A rule that regroups differs in
the last bit on some elements, which the weighted cotangent (not all ones)
and 64 points per primitive bring out. The census makes a new unary or
binary differentiable primitive come with a row here.

(The eager path computes with NumPy, whose transcendental functions are not
XLA's, so bitwise agreement is a property of compiled code only.)
"""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
from jaxtyped._src.lax.arithmetic import BinaryDifferentiable, UnaryDifferentiable
from oracle import binary_fn, jax, unary_fn

N = 64
RNG = np.random.default_rng(20261126)
WEIGHTS = RNG.normal(size=N).astype(np.float32)


def _uniform(lo: float, hi: float) -> np.ndarray[Any, Any]:
    return RNG.uniform(lo, hi, N).astype(np.float32)


# name -> (the function of the library's lax, its operands' sampling range)
Unary = Callable[[Any, Any], Any]
UNARY: dict[str, tuple[Unary, tuple[float, float]]] = {
    "abs": (lambda L, x: L.abs(x), (-4, 4)),
    "acos": (lambda L, x: L.acos(x), (-0.95, 0.95)),
    "acosh": (lambda L, x: L.acosh(x), (1.05, 5)),
    "asin": (lambda L, x: L.asin(x), (-0.95, 0.95)),
    "asinh": (lambda L, x: L.asinh(x), (-4, 4)),
    "atan": (lambda L, x: L.atan(x), (-4, 4)),
    "atanh": (lambda L, x: L.atanh(x), (-0.999, 0.999)),
    "bessel_i0e": (lambda L, x: L.bessel_i0e(x), (-4, 4)),
    "bessel_i1e": (lambda L, x: L.bessel_i1e(x), (-4, 4)),
    "cbrt": (lambda L, x: L.cbrt(x), (0.1, 4)),
    "cos": (lambda L, x: L.cos(x), (-4, 4)),
    "cosh": (lambda L, x: L.cosh(x), (-4, 4)),
    "digamma": (lambda L, x: L.digamma(x), (0.2, 5)),
    "erf": (lambda L, x: L.erf(x), (-3, 3)),
    "erf_inv": (lambda L, x: L.erf_inv(x), (-0.95, 0.95)),
    "erfc": (lambda L, x: L.erfc(x), (-3, 3)),
    "exp": (lambda L, x: L.exp(x), (-4, 4)),
    "exp2": (lambda L, x: L.exp2(x), (-4, 4)),
    "expm1": (lambda L, x: L.expm1(x), (-4, 4)),
    "integer_pow": (lambda L, x: L.integer_pow(x, 3) + L.integer_pow(x, -2), (0.2, 3)),
    "lgamma": (lambda L, x: L.lgamma(x), (0.2, 5)),
    "log": (lambda L, x: L.log(x), (0.05, 5)),
    "log1p": (lambda L, x: L.log1p(x), (-0.9, 3)),
    "logistic": (lambda L, x: L.logistic(x), (-4, 4)),
    "rsqrt": (lambda L, x: L.rsqrt(x), (0.05, 5)),
    "sin": (lambda L, x: L.sin(x), (-4, 4)),
    "sinh": (lambda L, x: L.sinh(x), (-4, 4)),
    "sqrt": (lambda L, x: L.sqrt(x), (0.05, 5)),
    "square": (lambda L, x: L.square(x), (-4, 4)),
    "tan": (lambda L, x: L.tan(x), (-1.4, 1.4)),
    "tanh": (lambda L, x: L.tanh(x), (-6, 6)),
}
Binary = Callable[[Any, Any, Any], Any]
BINARY: dict[str, tuple[Binary, tuple[float, float]]] = {
    "atan2": (lambda L, x, y: L.atan2(x, y), (-3, 3)),
    "div": (lambda L, x, y: L.div(x, y), (0.3, 3)),
    "max": (lambda L, x, y: L.max(x, y), (-3, 3)),
    "min": (lambda L, x, y: L.min(x, y), (-3, 3)),
    "mul": (lambda L, x, y: L.mul(x, y), (-3, 3)),
    # polygamma's order is not differentiable (in JAX either): y only
    "polygamma": (lambda L, x, y: L.polygamma(L.round(L.abs(x)), y + 3.5), (0.2, 2.4)),
    "rem": (lambda L, x, y: L.rem(x, y), (0.3, 3)),
}


def _family(base: type[Any]) -> set[str]:
    names: set[str] = set()
    pending: list[type[Any]] = list(base.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if "name" in vars(cls):
            names.add(str(vars(cls)["name"]))
    return names


def test_every_elementwise_derivative_rule_has_a_row() -> None:
    assert _family(UnaryDifferentiable) == set(UNARY)
    assert _family(BinaryDifferentiable) == set(BINARY)


# Rows whose rule is JAX's but whose forward function is not computed
# alike: the comparison allows a relative 1e-5 there.
FORWARD_DIFFERS = {
    "bessel_i0e": "JAX lowers it through its own Cephes polynomial, jaxtyped through chlo.bessel_i0e",
    "bessel_i1e": "its derivative calls bessel_i0e",
}


def _grad_and_tangent(
    api: Any, f: Callable[..., Any], args: tuple[np.ndarray[Any, Any], ...], wrt: tuple[int, ...]
) -> list[np.ndarray[Any, Any]]:
    """Under the library's ``jit`` (every argument traced): the gradient of
    ``sum(f(*args) * w)`` in the arguments ``wrt``, and ``f``'s tangent
    along ``w * args[i]`` for those."""

    def both(*primals: Any) -> Any:
        def loss(*a: Any) -> Any:
            return (f(*a) * WEIGHTS).sum()

        grads = api.grad(loss, argnums=wrt)(*primals)

        def along(*moving: Any) -> Any:
            full = list(primals)
            for i, m in zip(wrt, moving, strict=True):
                full[i] = m
            return f(*full)

        tangent = api.jvp(along, tuple(primals[i] for i in wrt), tuple(primals[i] * WEIGHTS for i in wrt))[1]
        return (*grads, tangent)

    return [np.asarray(r) for r in api.jit(both)(*args)]


def _assert_jaxs_bits(name: str, ours: list[np.ndarray[Any, Any]], theirs: list[np.ndarray[Any, Any]]) -> None:
    for i, (a, b) in enumerate(zip(ours, theirs, strict=True)):
        what = "jvp" if i == len(ours) - 1 else f"gradient {i}"
        assert a.dtype == b.dtype == np.float32
        if name in FORWARD_DIFFERS:
            np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-7, err_msg=what)
            continue
        differ = np.flatnonzero(a.view(np.uint32) != b.view(np.uint32))
        assert differ.size == 0, f"{what}: {differ.size} of {a.size} elements differ, e.g. {a[differ[0]]!r} vs JAX {b[differ[0]]!r}"


@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_derivatives_are_jaxs_bit_for_bit(name: str) -> None:
    fn, (lo, hi) = UNARY[name]
    x = _uniform(lo, hi)
    ours = _grad_and_tangent(jt, unary_fn(lambda v: fn(jt.lax, v)), (x,), (0,))
    theirs = _grad_and_tangent(jax, unary_fn(lambda v: fn(jax.lax, v)), (x,), (0,))
    _assert_jaxs_bits(name, ours, theirs)


@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_derivatives_are_jaxs_bit_for_bit(name: str) -> None:
    fn, (lo, hi) = BINARY[name]
    x, y = _uniform(lo, hi), _uniform(lo, hi)
    wrt = (1,) if name == "polygamma" else (0, 1)
    ours = _grad_and_tangent(jt, binary_fn(lambda u, v: fn(jt.lax, u, v)), (x, y), wrt)
    theirs = _grad_and_tangent(jax, binary_fn(lambda u, v: fn(jax.lax, u, v)), (x, y), wrt)
    _assert_jaxs_bits(name, ours, theirs)
