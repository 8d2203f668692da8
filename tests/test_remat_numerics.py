"""``jt.checkpoint`` changes what is saved, never a value: gradients with
every policy equal gradients without checkpoint and real JAX's
``jax.grad(jax.checkpoint(f, policy=...))`` on the same program, through
every composition (jit of grad, grad of jit, vmap of grad, grad of grad,
nested checkpoints, checkpoint inside jit inside grad, hessian).

Each program is written once against a pair of namespaces (``T`` is
``jaxtyped`` or ``jax``, ``N`` their numpy).
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

POLICIES = [
    "none",
    "everything_saveable",
    "nothing_saveable",
    "dots_saveable",
    "dots_with_no_batch_dims_saveable",
    "save_only_these_names",
    "save_any_names_but_these",
    "save_from_both_policies",
]

RNG = np.random.RandomState(0)
PARAMS = {
    "w1": RNG.randn(3, 4).astype(np.float32) * 0.5,
    "b1": RNG.randn(4).astype(np.float32),
    "w2": RNG.randn(4, 4).astype(np.float32) * 0.5,
}
X = RNG.randn(3).astype(np.float32)
CONST = np.linspace(0.5, 1.5, 4, dtype=np.float32)


def jax_pair() -> tuple[Any, ModuleType]:
    jax = pytest.importorskip("jax")
    importlib.import_module("jax.ad_checkpoint")
    return jax, importlib.import_module("jax.numpy")


def make_policy(T: ModuleType, name: str) -> Any:
    cp: Any = T.checkpoint_policies
    if name == "none":
        return None
    if name == "save_only_these_names":
        return cp.save_only_these_names("h")
    if name == "save_any_names_but_these":
        return cp.save_any_names_but_these("pre")
    if name == "save_from_both_policies":
        return cp.save_from_both_policies(cp.dots_with_no_batch_dims_saveable, cp.save_only_these_names("pre"))
    return getattr(cp, name)


def model(T: ModuleType, N: ModuleType) -> Callable[[Any, Any], Any]:
    """Unbatched and batched dots, named values, nonlinearities and a
    closed-over constant."""
    name: Any = T.ad_checkpoint.checkpoint_name

    def f(params: Any, x: Any) -> Any:
        pre = name(N.dot(x, params["w1"]) + params["b1"], "pre")
        h = name(N.sin(pre), "h")
        h = N.tanh(N.matmul(h[None, None], params["w2"][None])[0, 0])  # a dot with a batch dimension
        return (N.exp(h) * CONST).sum() + (N.cos(h) ** 2).sum()

    return f


def checkpointed(T: ModuleType, N: ModuleType, policy: str) -> Callable[[Any, Any], Any]:
    result: Callable[[Any, Any], Any] = T.checkpoint(model(T, N), policy=make_policy(T, policy))
    return result


def assert_close(ours: object, theirs: object, rtol: float = 2e-5) -> None:
    ours_flat = jt.tree_util.tree_leaves(ours)
    theirs_flat = [np.asarray(leaf) for leaf in jt.tree_util.tree_leaves(theirs)]
    assert len(ours_flat) == len(theirs_flat)
    for a, b in zip(ours_flat, theirs_flat):
        assert isinstance(a, jt.Array)
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=rtol)


@pytest.mark.parametrize("policy", POLICIES)
def test_grad_equals_no_checkpoint_and_jax(policy: str) -> None:
    jax, jnumpy = jax_pair()
    expected = jt.grad(model(jt, jnp))(PARAMS, X)
    got = jt.grad(checkpointed(jt, jnp, policy))(PARAMS, X)
    assert_close(got, expected, rtol=1e-6)
    assert_close(got, jax.grad(checkpointed(jax, jnumpy, policy))(PARAMS, X))
    value = checkpointed(jt, jnp, policy)(PARAMS, X)
    np.testing.assert_allclose(float(value), float(model(jax, jnumpy)(PARAMS, X)), rtol=1e-6)


@pytest.mark.parametrize("policy", POLICIES)
def test_vjp_with_respect_to_both_arguments(policy: str) -> None:
    jax, jnumpy = jax_pair()
    _, f_vjp = jt.vjp(checkpointed(jt, jnp, policy), PARAMS, X)
    _, g_vjp = jax.vjp(checkpointed(jax, jnumpy, policy), PARAMS, X)
    ours_p, ours_x = f_vjp(jnp.float32(1.5))
    theirs_p, theirs_x = g_vjp(np.float32(1.5))
    assert_close(ours_p, theirs_p)
    assert_close(ours_x, theirs_x)


COMPOSITIONS = ["jit_of_grad", "grad_of_jit", "vmap_of_grad", "grad_of_grad", "nested", "inside_jit_inside_grad", "hessian"]


def composed(T: ModuleType, N: ModuleType, policy: str, how: str) -> Callable[[Any], Any]:
    """A function of one array ``s``, built by composition ``how``."""
    f = checkpointed(T, N, policy)
    t: Any = T

    def scalar(s: Any) -> Any:
        return f(PARAMS, X * s)

    def g(x: Any) -> Any:
        return f(PARAMS, x)

    def twice(x: Any) -> Any:
        return g(x) * 2.0

    def sin_times(x: Any) -> Any:
        return N.sin(x) * x

    inner = t.checkpoint(sin_times, policy=make_policy(T, policy))

    def nested(x: Any) -> Any:
        return g(inner(x)) * N.sum(inner(x))

    def jit_inside(x: Any) -> Any:
        return t.jit(twice)(x)

    table: dict[str, Callable[[], Any]] = {
        "jit_of_grad": lambda: t.jit(t.grad(g)),
        "grad_of_jit": lambda: t.grad(t.jit(g)),
        "vmap_of_grad": lambda: t.vmap(t.grad(g)),
        "grad_of_grad": lambda: t.grad(t.grad(scalar)),
        "nested": lambda: t.grad(t.checkpoint(nested)),
        "inside_jit_inside_grad": lambda: t.grad(jit_inside),
        "hessian": lambda: t.hessian(g),
    }
    result: Callable[[Any], Any] = table[how]()
    return result


def composition_input(how: str) -> Any:
    if how == "vmap_of_grad":
        return np.stack([X, X * 0.5, -X])
    if how == "grad_of_grad":
        return np.float32(0.7)
    return X


@pytest.mark.parametrize("how", COMPOSITIONS)
@pytest.mark.parametrize("policy", ["none", "dots_saveable", "save_only_these_names"])
def test_compositions_match_jax_and_no_checkpoint(policy: str, how: str) -> None:
    jax, jnumpy = jax_pair()
    arg = composition_input(how)
    got = composed(jt, jnp, policy, how)(arg)
    assert_close(got, composed(jax, jnumpy, policy, how)(arg), rtol=5e-5)
    assert_close(got, composed(jt, jnp, "everything_saveable", how)(arg), rtol=5e-5)


def test_gradient_matches_finite_differences_in_float64(x64: None) -> None:
    def f(x: jt.Array) -> jt.Array:
        return jnp.sin(jnp.arange(5, dtype=jnp.float64) * x).sum() * jnp.cos(x)

    g = jt.grad(jt.checkpoint(f, policy=jt.checkpoint_policies.nothing_saveable))
    x, eps = 0.3, 1e-6
    fd = (float(f(jnp.float64(x + eps))) - float(f(jnp.float64(x - eps)))) / (2 * eps)
    assert g(jnp.float64(x)).dtype == np.float64
    np.testing.assert_allclose(float(g(jnp.float64(x))), fd, rtol=1e-7)


def test_checkpoint_of_a_jitted_function_and_of_integer_inputs() -> None:
    jax, jnumpy = jax_pair()

    def program(T: ModuleType, N: ModuleType) -> Callable[[Any, Any], Any]:
        def sin3(x: Any) -> Any:
            return N.sin(x) * 3.0

        inner = T.jit(sin3)

        @functools.partial(T.checkpoint, policy=T.checkpoint_policies.dots_saveable)
        def f(x: Any, n: Any) -> Any:
            return (inner(x) * n).sum()

        result: Callable[[Any, Any], Any] = f
        return result

    n = np.arange(3, dtype=np.int32)
    grad_both: Callable[..., Any] = jt.grad(program(jt, jnp), argnums=(0, 1), allow_int=True)
    got = grad_both(X, n)
    want = jax.grad(program(jax, jnumpy), argnums=(0, 1), allow_int=True)(X, n)
    assert_close(got[0], want[0])
    assert got[1].dtype == jnp.float0 and got[1].shape == (3,)


def test_linearize_and_jvp_agree_with_jax() -> None:
    jax, jnumpy = jax_pair()
    f = checkpointed(jt, jnp, "dots_saveable")
    g = checkpointed(jax, jnumpy, "dots_saveable")
    t = np.ones(3, np.float32)
    def f_of_x(x: Any) -> Any:
        return f(PARAMS, x)

    def g_of_x(x: Any) -> Any:
        return g(PARAMS, x)

    _, f_jvp = jt.linearize(f_of_x, X)
    _, want = jax.jvp(g_of_x, (X,), (t,))
    np.testing.assert_allclose(float(f_jvp(t)), float(want), rtol=2e-5)
    _, tangent = jt.jvp(f_of_x, (X,), (t,))
    np.testing.assert_allclose(float(tangent), float(want), rtol=2e-5)
