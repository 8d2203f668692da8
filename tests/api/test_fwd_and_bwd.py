# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (each program is written once for jaxtyped and for JAX, whose API is untyped: its values are Any)
"""``fwd_and_bwd`` and ``vjp`` functions as pytrees, against JAX: the
forward and backward passes' values (one or several ``argnums``,
``has_aux``, jitted or not), the VJP function passed to and returned from
jitted functions (JAX's ``vjp`` returns a ``Partial`` whose leaves are
the residuals), the backward pass compiled once for a loop's iterations,
and errors by kind."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, jax, raises_as_jax

import jaxtyped as jt
import jaxtyped.numpy as jnp

Lib = Any  # jaxtyped or jax: the same API by contract
X = np.linspace(-1.0, 1.0, 12, dtype=np.float32).reshape(3, 4)
W = np.linspace(0.5, 2.0, 8, dtype=np.float32).reshape(4, 2)


def layer(J: Lib, x: Any, w: Any, b: Any) -> Any:
    return J.numpy.tanh(x @ w + b)


def passes(J: Lib, argnums: Any, has_aux: bool, jitted: bool) -> Any:
    def f(x: Any, w: Any, b: Any) -> Any:
        y = layer(J, x, w, b)
        return (y, {"norm": (y**2).sum()}) if has_aux else y

    fwd, bwd = J.fwd_and_bwd(f, argnums=argnums, has_aux=has_aux, jitted=jitted)
    x, w, b = J.numpy.asarray(X), J.numpy.asarray(W), J.numpy.ones(2)
    out = fwd(x, w, b)
    ct = J.numpy.full((3, 2), 0.5)
    return out[0], bwd(out[1], ct), (out[2] if has_aux else None)


@pytest.mark.parametrize("argnums", [0, 1, (0, 1), (2, 0)], ids=str)
@pytest.mark.parametrize("has_aux", [False, True], ids=["plain", "aux"])
@pytest.mark.parametrize("jitted", [True, False], ids=["jitted", "eager"])
def test_passes_as_jax(argnums: Any, has_aux: bool, jitted: bool) -> None:
    assert_same(passes(jt, argnums, has_aux, jitted), passes(jax, argnums, has_aux, jitted))


def test_the_backward_pass_compiles_once() -> None:
    fwd, bwd = jt.fwd_and_bwd(lambda x, w: jnp.sin(x @ w), argnums=(0, 1))
    x, w = jnp.asarray(X), jnp.asarray(W)
    for step in range(3):
        y, residuals = fwd(x * (step + 1), w)
        bwd(residuals, jnp.ones_like(y))
    infos = [getattr(f, "cache_info")() for f in (fwd, bwd)]  # jitted functions, typed as plain callables
    assert [info.misses for info in infos] == [1, 1]


VJP_PROGRAMS: dict[str, Callable[[Lib], Any]] = {
    # JAX's docstring of fwd_and_bwd: jit of a vjp function
    "jit-of-vjp-function": lambda J: J.jit(J.vjp(lambda x, w: x @ w, J.numpy.asarray(X), J.numpy.asarray(W))[1])(
        J.numpy.ones((3, 2))
    ),
    "vjp-function-as-argument": lambda J: J.jit(lambda f, ct: f(ct))(
        J.vjp(lambda x: J.numpy.sin(x) * 2, J.numpy.asarray(X))[1], J.numpy.ones((3, 4))
    ),
    "vjp-function-returned": lambda J: J.jit(lambda x: J.vjp(J.numpy.cos, x))(J.numpy.asarray(X))[1](J.numpy.ones((3, 4))),
    "residual-leaves": lambda J: [
        leaf.shape for leaf in J.tree_util.tree_leaves(J.vjp(lambda x: J.numpy.sin(x) * x, J.numpy.asarray(X))[1])
    ][:1],
}


@pytest.mark.parametrize("name", list(VJP_PROGRAMS))
def test_vjp_functions_are_pytrees_as_jax(name: str) -> None:
    ours, theirs = VJP_PROGRAMS[name](jt), VJP_PROGRAMS[name](jax)
    if name == "residual-leaves":
        assert ours == theirs and ours
    else:
        assert_same(ours, theirs)


ERRORS: dict[str, Callable[[Lib], object]] = {
    "argnums-out-of-range": lambda J: J.fwd_and_bwd(lambda x: x, argnums=3)[0](1.0),
    "not-callable": lambda J: J.fwd_and_bwd(3, argnums=0),
    "cotangent-structure": lambda J: (lambda fb: fb[1](fb[0](1.0)[1], (1.0, 2.0)))(J.fwd_and_bwd(lambda x: x * 2, 0)),
    "cotangent-shape": lambda J: J.vjp(J.numpy.sin, 1.0)[1](J.numpy.ones(3)),
    "cotangent-dtype": lambda J: J.vjp(J.numpy.sin, 1.0)[1](J.numpy.ones((), J.numpy.int32)),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_errors_as_jax(name: str) -> None:
    raises_as_jax(ERRORS[name])
