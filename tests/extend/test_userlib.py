# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (each case is written once for both libraries, over a tuple of their namespaces.)
"""Two primitives defined outside the package in the native typed form
(``tests/extend/userlib``) under every transformation, compared with the
same functions written with built-in operations in JAX."""

from typing import Any

import numpy as np
import pytest
from oracle import assert_same, jax
from userlib import cube, scale_add

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors, lax

X = np.linspace(-1.0, 2.0, 6, dtype=np.float32)
Y = np.linspace(0.5, 1.5, 6, dtype=np.float32)


def mine() -> Any:
    return jt, jnp, lax, cube, lambda x, y, factor: scale_add(x, y, factor)


def theirs() -> Any:
    return jax, jax.numpy, jax.lax, lambda x: x * x * x, lambda x, y, factor: factor * x + y


def f(L: Any, x: Any, y: Any) -> Any:
    _, np_, _, cube_, scale_add_ = L
    return np_.sum(scale_add_(cube_(x), np_.sin(y), 0.5) * x)


CASES: dict[str, Any] = {
    "eval": lambda L: (L[3](X), L[4](X, Y, 2.0)),
    "jit": lambda L: L[0].jit(lambda x, y: (L[3](x), L[4](x, y, 2.0)))(X, Y),
    "jvp": lambda L: L[0].jvp(lambda x, y: f(L, x, y), (X, Y), (Y, X)),
    "grad": lambda L: L[0].grad(lambda x, y: f(L, x, y), (0, 1))(X, Y),
    "grad-jit": lambda L: L[0].jit(L[0].grad(lambda x, y: f(L, x, y), (0, 1)))(X, Y),
    "vjp": lambda L: L[0].vjp(lambda x, y: L[4](x, y, -3.0), X, Y)[1](X),
    "hessian": lambda L: L[0].hessian(lambda x: L[1].sum(L[3](x) * L[4](x, x, 2.0)))(X[:3]),
    "vmap": lambda L: L[0].vmap(lambda x, y: L[4](L[3](x), y, 2.0), in_axes=(1, None))(X.reshape(3, 2), Y[:3]),
    "vmap-grad": lambda L: L[0].vmap(L[0].grad(lambda x: L[1].sum(L[3](L[4](x, x, 0.5)))))(X.reshape(2, 3)),
    "jacfwd": lambda L: L[0].jacfwd(lambda x: L[4](L[3](x), x, 2.0))(X[:3]),
    "linearize": lambda L: L[0].linearize(lambda x: L[3](x), X)[1](Y),
    "scan": lambda L: L[2].scan(lambda c, x: (L[4](L[3](c), x, 0.5), c), np.float32(0.5), X),
    "scan-grad": lambda L: L[0].grad(lambda x: L[2].scan(lambda c, e: (L[4](L[3](c), e, 0.5), None), np.float32(0.5), x)[0])(X),
    "cond-grad": lambda L: L[0].grad(
        lambda x: L[1].sum(L[2].cond(x[0] > 0, lambda v: L[3](v), lambda v: L[4](v, v, 3.0), x))
    )(X),
    "while": lambda L: L[2].while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, L[4](c[1], c[1], 0.5)), (0, X))[1],
    "checkpoint-grad": lambda L: L[0].grad(lambda x: L[1].sum(L[0].checkpoint(lambda v: L[3](L[4](v, v, 2.0)))(x)))(X),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_user_primitives_match_jax(case: str) -> None:
    fn = CASES[case]
    assert_same(fn(mine()), fn(theirs()), rtol=2e-5, atol=1e-5, where=case, tree=True)


def test_user_primitives_print_in_jaxprs_and_lower() -> None:
    text = str(jt.make_jaxpr(lambda x: scale_add(cube(x), x, 2.0))(X))
    assert "cube a" in text and "scale_add[factor=2.0]" in text
    hlo = jt.jit(lambda x: cube(x)).lower(X).as_text()
    assert hlo.count("stablehlo.multiply") == 2


def test_user_primitives_report_bad_operands() -> None:
    with pytest.raises(errors.JaxtypedTypeError, match=r"cube requires a floating-point operand, got i32\[3\]"):
        cube(np.arange(3, dtype=np.int32))
    with pytest.raises(errors.JaxtypedTypeError, match=r"scale_add requires operands of one type, got f32\[6\] vs f32\[3\]"):
        jt.jit(lambda x, y: scale_add(x, y, 1.0))(X, Y[:3])
