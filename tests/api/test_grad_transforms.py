"""Reverse mode composes with every transformation: jaxtyped against real
JAX on the same programs (grad of jit, jit of grad, vmap of grad, grad of
vmap, grad of grad, hessian, jacrev on pytrees, vjp, linearize).

Each program is written once against a pair of namespaces (``T`` is
``jaxtyped`` or ``jax``, ``N`` is ``jaxtyped.numpy`` or ``jax.numpy``).
"""

import functools
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from lambdas import fn1, fn2
from oracle import assert_same as oracle_assert_same

jx: Any = importlib.import_module("jax")
jxnp: Any = importlib.import_module("jax.numpy")

Program = Callable[[ModuleType, ModuleType], Any]


RNG = np.random.RandomState(1)
X = RNG.randn(5, 3).astype(np.float32)
V = RNG.randn(3).astype(np.float32)
Y = RNG.randn(5, 2).astype(np.float32)
PARAMS = {
    "w1": RNG.randn(3, 4).astype(np.float32),
    "b1": RNG.randn(4).astype(np.float32),
    "w2": RNG.randn(4, 2).astype(np.float32),
}


assert_same = functools.partial(oracle_assert_same, tree=True, rtol=2e-5, atol=2e-5)


def both(program: Program, **kwargs: Any) -> None:
    assert_same(program(jt, jnp), program(jx, jxnp), **kwargs)


def mlp_loss(N: ModuleType, params: dict[str, Any], x: Any, y: Any) -> Any:
    h = N.tanh(x @ params["w1"] + params["b1"])
    return N.mean((h @ params["w2"] - y) ** 2)


# === single transformations ===


def test_grad_of_scalar_functions() -> None:
    both(lambda T, N: T.grad(fn1(lambda x: N.sin(x) * x))(0.7))
    both(lambda T, N: T.grad(fn1(lambda x: N.sum(N.tanh(x) * N.exp(x))))(V))


def test_grad_of_mlp_over_params_pytree() -> None:
    both(lambda T, N: T.grad(fn2(lambda p, x: mlp_loss(N, p, x, Y)))(PARAMS, X), rtol=1e-4, atol=1e-6)


def test_value_and_grad_argnums_and_aux() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        def loss(p: Any, x: Any) -> Any:
            value = mlp_loss(N, p, x, Y)
            return value, {"value_doubled": 2.0 * value}

        return T.value_and_grad(loss, argnums=(0, 1), has_aux=True)(PARAMS, X)

    both(program, rtol=1e-4, atol=1e-6)


def test_grad_argnums_negative_and_tuple() -> None:
    both(lambda T, N: T.grad(fn2(lambda a, b: N.sum(a * N.sin(b))), argnums=-1)(V, 2.0 * V))
    both(lambda T, N: T.grad(fn2(lambda a, b: N.sum(a * N.sin(b))), argnums=(1, 0))(V, 2.0 * V))


def test_vjp_with_aux_and_pytree_cotangent() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        def f(x: Any) -> Any:
            return {"a": N.sin(x), "b": x[:2] * 3.0}, N.cos(x)

        out, pullback, aux = T.vjp(f, V, has_aux=True)
        return out, aux, pullback({"a": N.ones(3), "b": N.arange(2.0)})

    both(program)


def test_linearize_matches_jvp() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        out, f_jvp = T.linearize(fn1(lambda x: N.sin(x) * N.sum(x**2)), V)
        return out, f_jvp(N.ones(3)), f_jvp(N.arange(3.0))

    both(program)


def test_jacrev_equals_jacfwd_and_jax_on_pytrees() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        def f(p: Any) -> Any:
            return {"out": N.tanh(V @ p["w1"] + p["b1"]), "s": N.sum(p["w2"])}

        return T.jacrev(f)(PARAMS)

    both(program)
    fwd = jt.jacfwd(fn1(lambda p: {"out": jnp.tanh(V @ p["w1"] + p["b1"]), "s": jnp.sum(p["w2"])}))(PARAMS)
    rev = jt.jacrev(fn1(lambda p: {"out": jnp.tanh(V @ p["w1"] + p["b1"]), "s": jnp.sum(p["w2"])}))(PARAMS)
    assert_same(rev, fwd, rtol=1e-5, atol=1e-6)


def test_jacrev_argnums_tuple_and_aux() -> None:
    both(lambda T, N: T.jacrev(fn2(lambda a, b: (a * b, N.sum(a))), argnums=(0, 1), has_aux=True)(V, 2.0 * V))


# === compositions ===


def test_grad_of_jit_and_jit_of_grad() -> None:
    both(lambda T, N: T.grad(T.jit(fn2(lambda p, x: mlp_loss(N, p, x, Y))))(PARAMS, X), rtol=1e-4, atol=1e-6)
    both(lambda T, N: T.jit(T.grad(fn2(lambda p, x: mlp_loss(N, p, x, Y))))(PARAMS, X), rtol=1e-4, atol=1e-6)


def test_grad_of_nested_jit_with_closure() -> None:
    scale = jnp.asarray(V)

    def inner(x: Any) -> Any:
        return jnp.sin(x) * scale

    f = jt.jit(fn1(lambda x: jnp.sum(jt.jit(inner)(x) ** 2)))
    g = jx.jit(fn1(lambda x: jxnp.sum(jx.jit(fn1(lambda y: jxnp.sin(y) * V))(x) ** 2)))
    assert_same(jt.grad(f)(V), jx.grad(g)(V))
    assert_same(jt.jit(jt.grad(f))(V), jx.jit(jx.grad(g))(V))


def test_per_example_gradients_vmap_of_grad() -> None:
    def program(T: ModuleType, N: ModuleType) -> Any:
        per_example = T.grad(fn2(lambda p, xy: mlp_loss(N, p, xy[0][None], xy[1][None])))
        return T.vmap(per_example, in_axes=(None, 0))(PARAMS, (X, Y))

    both(program, rtol=1e-4, atol=1e-6)
    out = program(jt, jnp)
    assert out["w1"].shape == (5, 3, 4)


def test_jit_of_vmap_of_grad() -> None:
    both(lambda T, N: T.jit(T.vmap(T.grad(fn1(lambda x: N.sum(N.sin(x) * x)))))(X))


def test_grad_of_vmap() -> None:
    both(lambda T, N: T.grad(fn1(lambda x: N.sum(T.vmap(fn1(lambda r: N.sin(r) * N.sum(r)))(x))))(X))


def test_grad_of_grad_and_third_derivative() -> None:
    both(lambda T, N: T.grad(T.grad(fn1(lambda x: N.sin(x) * x**3)))(0.4))
    both(lambda T, N: T.grad(T.grad(T.grad(fn1(lambda x: N.exp(N.sin(x))))))(0.4), rtol=1e-4)


def test_grad_of_grad_through_jit() -> None:
    both(lambda T, N: T.grad(T.jit(T.grad(T.jit(fn1(lambda x: N.tanh(x) ** 2)))))(0.3))


def test_hessian_is_jacfwd_of_jacrev() -> None:
    both(lambda T, N: T.hessian(fn1(lambda x: mlp_loss(N, PARAMS, x[None], Y[:1])))(V), rtol=1e-4, atol=1e-5)
    ours = jt.hessian(fn1(lambda x: jnp.sum(jnp.sin(x) * x[0])))(V)
    via = jt.jacfwd(jt.jacrev(fn1(lambda x: jnp.sum(jnp.sin(x) * x[0]))))(V)
    np.testing.assert_allclose(np.asarray(ours), np.asarray(via), rtol=1e-6)


def test_hessian_over_params_pytree() -> None:
    both(lambda T, N: T.hessian(fn1(lambda p: mlp_loss(N, p, X, Y)))(PARAMS), rtol=2e-4, atol=1e-5)


def test_grad_matches_finite_differences_in_float64(x64: None) -> None:
    def f(x: Any) -> Any:
        return jnp.sum(jnp.tanh(x) * jnp.sin(x @ x.T).sum(0)[:, None])

    x = np.random.RandomState(3).randn(4, 3)
    g = np.asarray(jt.grad(f)(x))
    eps = 1e-6
    numeric = np.zeros_like(x)
    for index in np.ndindex(*x.shape):
        dx = np.zeros_like(x)
        dx[index] = eps
        numeric[index] = (float(f(x + dx)) - float(f(x - dx))) / (2 * eps)
    np.testing.assert_allclose(g, numeric, rtol=1e-7, atol=1e-8)


# === symbolic zeros ===


def test_unused_input_gets_zeros_without_backward_work() -> None:
    def f(x: Any, y: Any) -> Any:
        return jnp.sum(jnp.sin(x))

    gx, gy = jt.grad(fn2(f), argnums=(0, 1))(V, V)
    np.testing.assert_array_equal(np.asarray(gy), np.zeros(3, np.float32))
    text = str(jt.make_jaxpr(jt.grad(fn2(f), argnums=(0, 1)))(V, V))
    # The backward pass touches only x: y's gradient is one broadcast zero.
    assert text.count("mul") == 1 and "broadcast_in_dim 0.0" in text
    np.testing.assert_allclose(np.asarray(gx), np.cos(V), rtol=1e-6)


def test_linear_jaxpr_holds_only_tangent_work() -> None:
    out, f_jvp = jt.linearize(fn1(lambda x: jnp.sin(jnp.cos(x))), V)
    text = str(jt.make_jaxpr(f_jvp)(V))
    # sin and cos ran at linearize time; the linear map only multiplies.
    assert "sin" not in text and "cos" not in text and text.count("mul") == 2
    np.testing.assert_allclose(np.asarray(out), np.sin(np.cos(V)), rtol=1e-6)


def test_integer_input_with_allow_int_gets_float0() -> None:
    g = jt.grad(fn2(lambda x, n: jnp.sum(x * n)), argnums=(0, 1), allow_int=True)(V, jnp.arange(3))
    assert g[1].dtype == jnp.float0 and g[1].shape == (3,)
    np.testing.assert_allclose(np.asarray(g[0]), np.arange(3.0), rtol=0)
    both(lambda T, N: T.vjp(fn2(lambda x, n: N.sum(x * n)), V, N.arange(3))[1](1.0))


# === errors ===


def test_grad_of_non_scalar_output_names_function_and_type() -> None:
    def vector_loss(x: Any) -> Any:
        return x * 2.0

    with pytest.raises(jt.errors.JaxtypedTypeError, match=r"grad of .*vector_loss.*scalar-output.*f32\[3\]"):
        jt.grad(vector_loss)(V)


def test_grad_of_integer_input_names_argument_path() -> None:
    def loss(params: Any) -> Any:
        return jnp.sum(params["w"] * 1.0)

    with pytest.raises(jt.errors.JaxtypedTypeError, match=r"grad of .*loss.*params\['w'\] has type i32\[3\].*allow_int"):
        jt.grad(loss)({"w": jnp.arange(3)})


def test_grad_of_non_array_output() -> None:
    def labelled(x: Any) -> Any:
        return "label"

    with pytest.raises(jt.errors.JaxtypedTypeError, match=r"grad: output has type str"):
        jt.grad(labelled)(1.0)
    with pytest.raises(jt.errors.JaxtypedTypeError, match=r"grad of .*pair.*must return a scalar array"):

        def pair(x: Any) -> Any:
            return x, x

        jt.grad(pair)(1.0)


def test_grad_of_complex_output_needs_holomorphic() -> None:
    with pytest.raises(jt.errors.JaxtypedTypeError, match="holomorphic=True"):
        jt.grad(fn1(lambda z: z * z))(jnp.complex64(1 + 1j))
    both(lambda T, N: T.grad(fn1(lambda z: z * z), holomorphic=True)(N.complex64(1 + 2j)))


def test_missing_derivative_rule_names_function_and_argument() -> None:
    from dataclasses import dataclass

    from jaxtyped._src.core.avals import ShapedArray
    from jaxtyped._src.core.interpreter import bind1
    from jaxtyped._src.core.primitive import HostValue, NDArray, Primitive

    @dataclass(frozen=True, slots=True)
    class Opaque(Primitive):
        name = "opaque"

        def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
            return avals

        def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
            return args

    def uses_opaque(params: Any) -> Any:
        return jnp.sum(bind1(Opaque(), params["w"]))

    with pytest.raises(jt.errors.MissingRuleError, match=r"grad of .*uses_opaque.* with respect to params\['w'\].*'opaque'"):
        jt.grad(uses_opaque)({"w": jnp.ones(3)})


def test_vjp_cotangent_of_wrong_type() -> None:
    _, pullback = jt.vjp(jnp.sin, jnp.ones(3))
    with pytest.raises(jt.errors.JaxtypedValueError, match=r"cotangent for output has type f32\[2\].*f32\[3\]"):
        pullback(jnp.ones(2))
    untyped_pullback: Callable[[Any], Any] = pullback
    with pytest.raises(jt.errors.JaxtypedValueError, match="structure of the output"):
        untyped_pullback((jnp.ones(3),))


def test_argnums_out_of_range() -> None:
    with pytest.raises(jt.errors.JaxtypedValueError, match="argnums=3 is out of range"):
        jt.grad(jnp.sin, argnums=3)(1.0)


# === check_grads over composite programs ===


@jt.custom_jvp
def _softplus(x: jt.Array) -> jt.Array:
    return jnp.log1p(jnp.exp(x))


@_softplus.defjvp
def _softplus_jvp(primals: tuple[Any, ...], tangents: tuple[Any, ...]) -> tuple[Any, Any]:
    (x,), (t,) = primals, tangents
    return _softplus(x), t / (1.0 + jnp.exp(-x))


COMPOSITE: dict[str, Callable[..., Any]] = {
    "mlp": fn2(lambda p, x: mlp_loss(jnp, p, x, Y[:2])),
    "jit-mlp": jt.jit(fn2(lambda p, x: mlp_loss(jnp, p, x, Y[:2]))),
    "vmap-inside": fn2(lambda p, x: jnp.sum(jt.vmap(fn1(lambda r: jnp.tanh(r @ p["w1"])))(x))),
    "custom-jvp": fn2(lambda p, x: jnp.sum(_softplus(x @ p["w1"] + p["b1"]))),
    "checkpoint": jt.checkpoint(fn2(lambda p, x: jnp.sum(jnp.sin(jnp.tanh(x @ p["w1"]) @ p["w2"])))),
}


@pytest.mark.parametrize("name", sorted(COMPOSITE))
def test_check_grads_of_composite_programs(name: str, x64: None) -> None:
    params = {k: v.astype(np.float64) for k, v in PARAMS.items()}
    jt.test_util.check_grads(COMPOSITE[name], (params, X[:2].astype(np.float64)), order=2, modes=("fwd", "rev"))
