"""Types of the symbolic_zeros API (jaxtyped.custom_derivatives):
``SymbolicZero``'s attributes, ``zero_from_primal`` (an array, a
SymbolicZero, or the pytree's own type), ``CustomVJPPrimal`` generic over
its value, ``custom_vjp_primal_tree_values`` unwrapping it (containers
included), and ``defjvp``/``defvjp`` with ``symbolic_zeros=True``, whose
rules keep their own types and may be unannotated lambdas."""

from collections.abc import Callable
from typing import Any

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.core import ShapedArray
from jaxtyped.custom_derivatives import CustomVJPPrimal, SymbolicZero, custom_vjp_primal_tree_values, zero_from_primal
from jaxtyped.typing import Array

Tangent = Array | SymbolicZero


def mul_impl(x: Array, y: Array, /) -> Array:
    return x * y


def mul_jvp(primals: tuple[Array, Array], tangents: tuple[Tangent, Tangent]) -> tuple[Array, Tangent]:
    (x, y), (tx, ty) = primals, tangents
    if isinstance(tx, SymbolicZero) and isinstance(ty, SymbolicZero):
        return x * y, SymbolicZero(tx.aval)
    tx = jnp.zeros_like(x) if isinstance(tx, SymbolicZero) else tx
    ty = jnp.zeros_like(y) if isinstance(ty, SymbolicZero) else ty
    return x * y, tx * y + x * ty


def mul_fwd(x: CustomVJPPrimal[Array], y: CustomVJPPrimal[Array], /) -> tuple[Array, tuple[Array, Array]]:
    xv, yv = custom_vjp_primal_tree_values((x, y))
    return xv * yv, (xv, yv)


def mul_bwd(res: tuple[Array, Array], g: Tangent) -> tuple[Array | None, Array | None]:
    if isinstance(g, SymbolicZero):
        return None, None
    return g * res[1], g * res[0]


def check(x: Array, flag: bool) -> None:
    z = SymbolicZero.from_primal_value(x)
    assert_type(z, SymbolicZero)
    assert_type(z.aval, ShapedArray)
    assert_type(z.shape, tuple[int, ...])
    assert_type(z.dtype, np.dtype[Any])
    assert_type(z.ndim, int)
    assert_type(z.size, int)
    assert_type(z.weak_type, bool)
    assert_type(SymbolicZero(jt.typeof(x)), SymbolicZero)

    assert_type(zero_from_primal(x), Array)
    assert_type(zero_from_primal(1.0), Array)
    assert_type(zero_from_primal(x, symbolic_zeros=True), SymbolicZero)
    assert_type(zero_from_primal(x, flag), Array | SymbolicZero)
    assert_type(zero_from_primal({"a": x}), dict[str, Array])
    assert_type(zero_from_primal({"a": x}, symbolic_zeros=True), object)  # SymbolicZero leaves: not the dict of arrays

    p = CustomVJPPrimal(x, True)
    assert_type(p, CustomVJPPrimal[Array])
    assert_type(p.value, Array)
    assert_type(p.perturbed, bool)
    assert_type(custom_vjp_primal_tree_values(p), Array)
    assert_type(custom_vjp_primal_tree_values((p, CustomVJPPrimal(2.0, False))), tuple[Array, float])
    assert_type(custom_vjp_primal_tree_values([p, p]), list[Array])
    assert_type(custom_vjp_primal_tree_values({"w": p}), dict[str, Array])

    f = jt.custom_jvp(mul_impl)
    rule = f.defjvp(mul_jvp, symbolic_zeros=True)
    assert_type(rule, Callable[[tuple[Array, Array], tuple[Tangent, Tangent]], tuple[Array, Tangent]])
    f.defjvp(lambda primals, tangents: (primals[0] * primals[1], tangents[0]), symbolic_zeros=True)
    f.defjvp(lambda primals, tangents: (primals[0] * primals[1], tangents[0]), symbolic_zeros=flag)
    assert_type(f(x, x), Array)
    assert_type(jt.grad(f, argnums=1)(x, x), Array)

    v = jt.custom_vjp(mul_impl)
    assert_type(v.defvjp(mul_fwd, mul_bwd, symbolic_zeros=True), None)
    v.defvjp(mul_fwd, lambda res, g: (g * res[1], g * res[0]), symbolic_zeros=True)
    assert_type(v.symbolic_zeros, bool)
    assert_type(v.optimize_remat, bool)
    assert_type(jt.grad(v)(x, jnp.ones(())), Array)
