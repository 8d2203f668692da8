# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false
# (JAX-form impl and abstract-eval rules are untyped lambdas, as JAX users write them.)
"""``jaxtyped.extend.core`` for jaxprs: built-in primitives in JAX's form,
building a jaxpr by hand, checking, printing and running it (eval, jit,
grad, vmap)."""

from collections.abc import Callable

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.lax as lax
import jaxtyped.numpy as jnp
from jaxtyped import errors
from jaxtyped.extend import core
from jaxtyped.extend.core import primitives as P
from jaxtyped.typing import ArrayLike

F32 = np.dtype(np.float32)
X = np.linspace(0.0, 1.0, 4, dtype=np.float32)


def hand_built() -> core.ClosedJaxpr:
    """``sum(sin(x) * x)`` written equation by equation."""
    vec, scalar = core.ShapedArray((4,), F32), core.ShapedArray((), F32)
    x, s, m, out = core.Var(0, vec), core.Var(1, vec), core.Var(2, vec), core.Var(3, scalar)
    eqns = (
        core.new_jaxpr_eqn([x], [s], P.sin_p, {}),
        core.new_jaxpr_eqn([s, x], [m], P.mul_p, {}),
        core.new_jaxpr_eqn([m], [out], P.reduce_sum_p, {"axes": (0,)}),
    )
    jaxpr = core.Jaxpr((), (x,), (out,), eqns)
    core.check_jaxpr(jaxpr)
    return core.ClosedJaxpr(jaxpr, ())


def f(x: ArrayLike) -> jt.Array:
    return jnp.sum(jnp.sin(x) * x)


def test_hand_built_jaxpr_prints_like_a_traced_one() -> None:
    assert str(hand_built()) == str(jt.make_jaxpr(f)(X))


def test_hand_built_jaxpr_runs_under_every_transformation() -> None:
    fun = core.jaxpr_as_fun(hand_built())

    def g(x: ArrayLike) -> jt.Array:
        return fun(x)[0]

    np.testing.assert_allclose(np.asarray(g(jnp.asarray(X))), np.asarray(f(jnp.asarray(X))), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jt.jit(g)(X)), np.asarray(f(jnp.asarray(X))), rtol=1e-6)
    np.testing.assert_allclose(np.asarray(jt.grad(g)(X)), np.asarray(jt.grad(f)(X)), rtol=1e-6)
    batch = np.stack([X, 2 * X])
    np.testing.assert_allclose(np.asarray(jt.vmap(g)(batch)), np.asarray(jt.vmap(f)(batch)), rtol=1e-6)
    (value,) = core.eval_jaxpr(hand_built().jaxpr, (), X)
    assert value.shape == ()


def test_builtin_handles_compare_with_equations_and_bind() -> None:
    eqns = jt.make_jaxpr(f)(X).eqns
    assert [e.primitive == p for e, p in zip(eqns, (P.sin_p, P.mul_p, P.reduce_sum_p), strict=True)] == [True] * 3
    assert eqns[0].primitive != P.cos_p and P.add_p.name == "add" and str(P.reduce_sum_p) == "reduce_sum"
    assert P.add_p == P.add_p and hash(P.add_p) == hash(P.add_p)
    out = P.reduce_sum_p.bind(X, axes=(0,))
    assert isinstance(out, jt.Array) and float(out) == pytest.approx(float(X.sum()))
    values = P.sort_p.bind(X[::-1], dimension=0, is_stable=True, num_keys=1)
    assert isinstance(values, list) and np.asarray(values[0]).tolist() == X.tolist()
    with pytest.raises(errors.JaxtypedTypeError, match="reduce_sum: invalid parameters"):
        P.reduce_sum_p.bind(X, axis=0)


def test_check_jaxpr_rejects_an_ill_typed_equation() -> None:
    vec = core.ShapedArray((4,), F32)
    x, y = core.Var(0, vec), core.Var(1, core.ShapedArray((3,), F32))
    bad = core.Jaxpr((), (x,), (y,), (core.new_jaxpr_eqn([x], [y], P.sin_p, {}),))
    with pytest.raises(errors.JaxprTypeError):
        core.check_jaxpr(bad)


def test_jax_form_primitive_in_a_hand_built_jaxpr() -> None:
    twice = core.Primitive("twice")
    twice.def_impl(lambda x, *, k: x * k)
    twice.def_abstract_eval(lambda x, *, k: x)
    vec = core.ShapedArray((4,), F32)
    x, y = core.Var(0, vec), core.Var(1, vec)
    jaxpr = core.Jaxpr((), (x,), (y,), (core.new_jaxpr_eqn([x], [y], twice, {"k": 2.0}),))
    core.check_jaxpr(jaxpr)
    assert "twice[k=2.0] a" in str(jaxpr)
    (out,) = core.eval_jaxpr(jaxpr, (), X)
    np.testing.assert_allclose(np.asarray(out), 2 * X)


def test_backend() -> None:
    from jaxtyped.extend import backend

    b = backend.get_backend()
    assert b.platform == "cpu" and b.device_count() == len(b.devices()) >= 1 and b is backend.get_backend("cpu")
    def plus_one(x: jt.Array) -> jt.Array:
        return x + 1

    f = jt.jit(plus_one)
    f(jnp.float32(1.0))
    backend.clear_backends()
    assert float(f(jnp.float32(1.0))) == 2.0
    with pytest.raises(errors.JaxtypedValueError, match="Unknown backend 'tpu'"):
        backend.get_backend("tpu")


def test_lax_primitive_objects_are_the_handles_with_jaxs_names() -> None:
    # ``lax.add_p`` and the others, as code that walks jaxprs imports them
    # from jax.lax: the same handles, with JAX's name and result arity.
    jax_lax = pytest.importorskip("jax.lax")
    handles = [n for n in lax.__all__ if n.endswith("_p")]
    assert len(handles) > 100
    for name in handles:
        ours, theirs = getattr(lax, name), getattr(jax_lax, name)
        assert ours is getattr(P, name)
        assert (ours.name, ours.multiple_results) == (theirs.name, theirs.multiple_results), name


_DN = jt.lax.ScatterDimensionNumbers(update_window_dims=(), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))
_IDX = np.array([[0], [2]], np.int32)


@pytest.mark.parametrize(
    ("handle", "fn"),
    [
        ("bessel_i0e_p", lambda x: lax.bessel_i0e(x)),
        ("bitcast_convert_type_p", lambda x: lax.bitcast_convert_type(x, jnp.int32)),
        ("clz_p", lambda x: lax.clz(lax.convert_element_type(x, jnp.int32))),
        ("cumlogsumexp_p", lambda x: lax.cumlogsumexp(x)),
        ("igamma_p", lambda x: lax.igamma(x, x)),
        ("reduce_window_max_p", lambda x: lax.reduce_window(x, -jnp.inf, lax.max, (2,), (1,), "VALID")),
        ("reduce_xor_p", lambda x: lax.reduce_xor(lax.convert_element_type(x, jnp.int32), (0,))),
        ("scatter_mul_p", lambda x: lax.scatter_mul(x, _IDX, x[:2], _DN)),
        ("scatter_max_p", lambda x: lax.scatter_max(x, _IDX, x[:2], _DN)),
        ("optimization_barrier_p", lambda x: lax.optimization_barrier((x, x))[0]),
        ("linear_solve_p", lambda x: lax.custom_linear_solve(lambda v: v * 2.0, x, lambda m, b: b / 2.0)),
        ("fft_p", lambda x: jnp.fft.fft(x)),
    ],
)
def test_lax_primitive_objects_match_traced_equations(handle: str, fn: Callable[[jt.Array], jt.Array]) -> None:
    eqns = jt.make_jaxpr(fn)(jnp.asarray(X)).eqns
    primitive = getattr(lax, handle)
    assert any(primitive.matches(e.primitive) for e in eqns), [str(e.primitive) for e in eqns]
    (add,) = jt.make_jaxpr(lambda x: x + 1.0)(jnp.asarray(X)).eqns
    assert not primitive.matches(add.primitive) and primitive != add.primitive
