"""``jt.checkpoint`` / ``jt.remat`` (JEP 11830): what differentiation saves
and what it recomputes, per policy, proved by inspecting the residuals
(``saved_residuals``) and the backward pass's jaxpr, and compared with real
JAX's ``saved_residuals`` on the same programs.

Numerics and composition with other transformations are in
``test_remat_numerics.py``.
"""

import doctest
import functools
import importlib
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import lax
from jaxtyped._src.core.avals import ShapedArray, UndefinedPrimal
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Eqn, Jaxpr
from jaxtyped._src.remat import Checkpoint
from jaxtyped._src.remat_policies import Name
from jaxtyped._src.runtime import xla
from jaxtyped.ad_checkpoint import checkpoint_name, print_saved_residuals, saved_residuals
from jaxtyped.errors import JaxtypedTypeError, JaxtypedValueError, TracerBoolConversionError
from jaxtyped.typing import Array, ArrayLike

cp = jt.checkpoint_policies
# Under JAXTYPED_DEBUG=1, beartype rejects arguments of the wrong type first.
DEBUG_MODE = "|violates type hint" if jt.DEBUG else ""
Residuals = list[tuple[str, str]]


def jax_module() -> Any:
    jax = pytest.importorskip("jax")
    importlib.import_module("jax.ad_checkpoint")  # a submodule jax does not import itself
    return jax


def ours(f: Callable[..., Any], *args: Any) -> Residuals:
    """Our saved residuals as (short type, provenance) pairs."""
    return [(aval.str_short(), text) for aval, text in saved_residuals(f, *args)]


def theirs(f: Callable[..., Any], *args: Any) -> Residuals:
    """JAX's saved residuals in the same form: JAX appends the source
    location (``from file:line (fun)``), which jaxtyped does not track."""
    jax = jax_module()
    ad_checkpoint: Any = importlib.import_module("jax._src.ad_checkpoint")
    pairs: list[tuple[Any, str]] = ad_checkpoint.saved_residuals(f, *args)
    out: Residuals = []
    for aval, text in pairs:
        short: str = aval.str_short(short_dtypes=True)
        out.append((short, text.split(" from /")[0] if not text.startswith("from the") else text))
    del jax
    return out


def namespaces() -> Iterator[tuple[ModuleType, ModuleType]]:
    """(T, N) for jaxtyped, then for JAX."""
    yield jt, jnp
    jax = jax_module()
    yield jax, importlib.import_module("jax.numpy")


def all_eqns(jaxpr: Jaxpr) -> Iterator[Eqn]:
    """Every equation, nested ones included (depth first)."""
    for eqn in jaxpr.eqns:
        yield eqn
        if isinstance(eqn.primitive, Checkpoint):
            yield from all_eqns(eqn.primitive.jaxpr)
        for _, value in eqn.primitive.params():
            if isinstance(value, Jaxpr) and not isinstance(eqn.primitive, Checkpoint):
                yield from all_eqns(value)


def checkpoints(jaxpr: Jaxpr, *, differentiated: bool) -> list[Checkpoint]:
    return [
        e.primitive for e in all_eqns(jaxpr) if isinstance(e.primitive, Checkpoint) and e.primitive.differentiated == differentiated
    ]


def prim_names(jaxpr: Jaxpr) -> set[str]:
    return {e.primitive.name for e in all_eqns(jaxpr)}


def backward_jaxpr(f: Callable[[Any], Any], x: Any) -> ClosedJaxpr[jt.Array | jt.Ref[jt.Array]]:
    """The jaxpr of the whole reverse pass of ``f`` at ``x`` (forward and
    backward), as ``make_jaxpr(grad)``."""
    def summed(y: Any) -> Any:
        return f(y).sum()

    return jt.make_jaxpr(jt.grad(summed))(x)


def two_sins(N: Any) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        return N.sin(N.sin(x))

    return f


def scalar(x: object) -> float:
    return float(np.asarray(x))


def sin_sin(x: ArrayLike) -> Array:
    return jnp.sin(jnp.sin(x))


def sin_times_two(x: ArrayLike) -> Array:
    return jnp.sin(x) * 2.0


X3 = np.array([0.5, 1.0, 2.0], np.float32)


# === printing ===


def test_checkpoint_prints_as_jax_does() -> None:
    closed = jt.make_jaxpr(jt.checkpoint(two_sins(jnp)))(X3)
    assert str(closed) == (
        "{ lambda ; a:f32[3]. let\n"
        "    b:f32[3] = checkpoint[\n"
        "      differentiated=False\n"
        "      jaxpr={ lambda ; c:f32[3]. let\n"
        "          d:f32[3] = sin c\n"
        "          e:f32[3] = sin d\n"
        "        in (e,) }\n"
        "      policy=None\n"
        "      prevent_cse=True\n"
        "    ] a\n"
        "  in (b,) }"
    )
    jax = jax_module()
    text = str(jax.make_jaxpr(jax.checkpoint(two_sins(importlib.import_module("jax.numpy"))))(X3))
    # JAX 0.10 names the primitive remat2 (it was checkpoint before); the
    # parameters are the same.
    for line in ("differentiated=False", "policy=None", "prevent_cse=True", "= sin"):
        assert line in text and line in str(closed)


def test_policy_param_prints_like_jax() -> None:
    closed = jt.make_jaxpr(jt.checkpoint(jnp.sin, policy=cp.dots_saveable))(1.0)
    assert "policy=DotsSaveable(only_if_no_batch_dims=False)" in str(closed)
    jax = jax_module()
    assert "policy=DotsSaveable(only_if_no_batch_dims=False)" in str(
        jax.make_jaxpr(jax.checkpoint(jax.numpy.sin, policy=jax.checkpoint_policies.dots_saveable))(1.0)
    )
    named = jt.make_jaxpr(jt.checkpoint(jnp.sin, policy=cp.save_only_these_names("a")))(1.0)
    assert "policy=SaveOnlyTheseNames(saveable_names=frozenset({'a'}))" in str(named)
    # Functions print without their (varying) address.
    assert "policy=<function everything_saveable>" in str(jt.make_jaxpr(jt.checkpoint(jnp.sin, policy=cp.everything_saveable))(1.0))


def test_checkpoint_name_prints_and_jvp_keeps_the_tangent_unnamed() -> None:
    def f(N: ModuleType, T: ModuleType) -> Callable[[Any, Any], Any]:
        def named_sin(y: Any) -> Any:
            return T.ad_checkpoint.checkpoint_name(N.sin(y), "a")

        return lambda x, t: T.jvp(named_sin, (x,), (t,))

    expected = (
        "{ lambda ; a:f32[] b:f32[]. let\n"
        "    c:f32[] = sin a\n"
        "    d:f32[] = cos a\n"
        "    e:f32[] = mul b d\n"
        "    f:f32[] = name[name=a] c\n"
        "  in (f, e) }"
    )
    assert str(jt.make_jaxpr(f(jnp, jt))(1.0, 1.0)) == expected
    jax = jax_module()
    assert str(jax.make_jaxpr(f(importlib.import_module("jax.numpy"), jax))(1.0, 1.0)) == expected


# === what is saved, what is recomputed ===


def test_default_policy_saves_only_the_inputs_and_recomputes_sin_and_cos() -> None:
    f = jt.checkpoint(two_sins(jnp))
    assert ours(f, X3) == [("f32[3]", "from the argument x")]
    closed = backward_jaxpr(f, X3)
    (backward,) = checkpoints(closed.jaxpr, differentiated=True)
    # The backward pass recomputes sin (the inner sin's value) and the two
    # cosines from x alone.
    names = [e.primitive.name for e in backward.jaxpr.eqns]
    assert names.count("sin") == 1 and names.count("cos") == 2
    (forward,) = checkpoints(closed.jaxpr, differentiated=False)
    assert "cos" not in prim_names(forward.jaxpr)  # the forward pass computes no derivative
    assert ours(f, X3) == theirs(jax_module().checkpoint(two_sins(jax_module().numpy)), X3)


def test_linearize_keeps_only_the_input_as_residual() -> None:
    f = jt.checkpoint(two_sins(jnp))
    _, f_jvp = jt.linearize(f, jnp.asarray(X3))
    linear = jt.make_jaxpr(f_jvp)(jnp.ones(3))
    # The only const of the linear map is x itself.
    (const,) = linear.consts
    assert isinstance(const, jt.Array) and const.aval.str_short() == "f32[3]"
    np.testing.assert_array_equal(np.asarray(linear.consts[0]), X3)
    (recompute,) = checkpoints(linear.jaxpr, differentiated=True)
    assert {"sin", "cos", "mul"} == prim_names(recompute.jaxpr)


def test_everything_saveable_is_the_same_as_no_checkpoint() -> None:
    plain = ours(two_sins(jnp), X3)
    assert plain == [("f32[3]", "output of cos"), ("f32[3]", "output of cos")]
    assert ours(jt.checkpoint(two_sins(jnp), policy=cp.everything_saveable), X3) == plain
    jax = jax_module()
    assert plain == theirs(jax.checkpoint(two_sins(jax.numpy), policy=jax.checkpoint_policies.everything_saveable), X3)
    # Nothing is left to recompute in the backward pass.
    closed = backward_jaxpr(jt.checkpoint(two_sins(jnp), policy=cp.everything_saveable), X3)
    assert all("sin" not in prim_names(c.jaxpr) and "cos" not in prim_names(c.jaxpr) for c in checkpoints(closed.jaxpr, differentiated=True))


def make_predict(T: ModuleType, N: ModuleType) -> Callable[[Any, Any], Any]:
    """The JEP's example."""

    def apply_layer(W: Any, x: Any) -> Any:
        return N.sin(N.dot(W, x))

    @functools.partial(T.checkpoint, policy=T.checkpoint_policies.checkpoint_dots)
    def predict(params: Any, x: Any) -> Any:
        for W in params[:-1]:
            x = apply_layer(W, x)
        return N.dot(params[-1], x)

    result: Callable[[Any, Any], Any] = predict
    return result


PARAMS = [np.random.RandomState(i).randn(4, 4).astype(np.float32) for i in range(3)]
X4 = np.linspace(-1.0, 1.0, 4, dtype=np.float32)


def test_checkpoint_dots_saves_exactly_the_dot_outputs() -> None:
    predict = make_predict(jt, jnp)
    expected = [("f32[4,4]", f"from the argument params[{i}]") for i in range(3)]
    expected += [("f32[4]", "from the argument x"), ("f32[4]", "output of dot_general"), ("f32[4]", "output of dot_general")]
    assert ours(predict, PARAMS, X4) == expected
    jax = jax_module()
    assert theirs(make_predict(jax, jax.numpy), PARAMS, X4) == expected
    # The sin values (and their cosines) are recomputed in the backward pass.
    def summed(p: Any) -> Any:
        return predict(p, X4).sum()

    closed = jt.make_jaxpr(jt.grad(summed))(PARAMS)
    (backward,) = checkpoints(closed.jaxpr, differentiated=True)
    assert {"sin", "cos"} <= prim_names(backward.jaxpr)
    # ... but no dot is recomputed there: the backward dots are the
    # transposes (cotangent times saved value), two per layer plus the last.
    dots = [e for e in backward.jaxpr.eqns if e.primitive.name == "dot_general"]
    assert len(dots) == 2 * 2 + 1


def batched_then_plain(N: ModuleType) -> Callable[[Any, Any], Any]:
    def f(w: Any, x: Any) -> Any:
        y = N.sin(N.matmul(w, x))  # batch dimension 0
        return N.sin(N.dot(y[0], x[0])).sum()  # no batch dimension

    return f


W344 = np.random.RandomState(3).randn(3, 4, 4).astype(np.float32)


def test_dots_with_no_batch_dims_saves_only_the_unbatched_dot() -> None:
    f = batched_then_plain(jnp)
    both = ours(jt.checkpoint(f, policy=cp.dots_saveable), W344, W344)
    unbatched_only = ours(jt.checkpoint(f, policy=cp.dots_with_no_batch_dims_saveable), W344, W344)
    inputs = [("f32[3,4,4]", "from the argument w"), ("f32[3,4,4]", "from the argument x")]
    assert both == inputs + [("f32[3,4,4]", "output of dot_general"), ("f32[4,4]", "output of dot_general")]
    assert unbatched_only == inputs + [("f32[4,4]", "output of dot_general")]
    assert cp.checkpoint_dots_with_no_batch_dims is cp.dots_with_no_batch_dims_saveable
    jax = jax_module()
    jcp = jax.checkpoint_policies
    g = batched_then_plain(jax.numpy)
    assert theirs(jax.checkpoint(g, policy=jcp.dots_saveable), W344, W344) == both
    assert theirs(jax.checkpoint(g, policy=jcp.dots_with_no_batch_dims_saveable), W344, W344) == unbatched_only


def named_sins(T: ModuleType, N: ModuleType) -> Callable[[Any], Any]:
    def h(x: Any) -> Any:
        y = T.ad_checkpoint.checkpoint_name(N.sin(x), "a")
        z = T.ad_checkpoint.checkpoint_name(N.sin(y), "b")
        return N.sin(z)

    return h


def test_save_only_these_names_saves_only_the_named_value() -> None:
    h = jt.checkpoint(named_sins(jt, jnp), policy=cp.save_only_these_names("a"))
    assert ours(h, X3) == [("f32[3]", "from the argument x"), ("f32[3]", "named 'a'")]
    closed = backward_jaxpr(h, X3)
    (backward,) = checkpoints(closed.jaxpr, differentiated=True)
    # sin(x) is saved (not recomputed); sin(a) and the cosines are.
    sins = [e for e in backward.jaxpr.eqns if e.primitive.name == "sin"]
    assert len(sins) == 1
    jax = jax_module()
    jh = jax.checkpoint(named_sins(jax, jax.numpy), policy=jax.checkpoint_policies.save_only_these_names("a"))
    assert theirs(jh, X3) == ours(h, X3)


def test_save_any_names_but_these_and_anything_except_these_names() -> None:
    f = named_sins(jt, jnp)
    assert ours(jt.checkpoint(f, policy=cp.save_any_names_but_these("a")), X3) == [
        ("f32[3]", "from the argument x"),
        ("f32[3]", "named 'b'"),
    ]
    jax = jax_module()
    jf = named_sins(jax, jax.numpy)
    assert theirs(jax.checkpoint(jf, policy=jax.checkpoint_policies.save_any_names_but_these("a")), X3) == ours(
        jt.checkpoint(f, policy=cp.save_any_names_but_these("a")), X3
    )
    # Everything but 'a': the cosines and 'b' can be saved; sin(x) is only
    # available as 'a' (the name is the identity's output), so the cosine of
    # x is saved and nothing needs 'a' itself.
    except_a = ours(jt.checkpoint(f, policy=cp.save_anything_except_these_names("a")), X3)
    assert except_a == [("f32[3]", "output of cos")] * 3
    # With "b" excluded, b's consumers recompute from 'a' (saved).
    except_b = ours(jt.checkpoint(f, policy=cp.save_anything_except_these_names("a", "b")), X3)
    assert except_b == [("f32[3]", "output of cos")] * 3


def test_save_from_both_policies() -> None:
    def f(T: ModuleType, N: ModuleType) -> Callable[[Any, Any], Any]:
        def g(w: Any, x: Any) -> Any:
            y = N.sin(N.dot(w, x))
            return N.sin(T.ad_checkpoint.checkpoint_name(N.sin(y), "s")).sum()

        return g

    both = cp.save_from_both_policies(cp.dots_saveable, cp.save_only_these_names("s"))
    result = ours(jt.checkpoint(f(jt, jnp), policy=both), PARAMS[0], X4)
    assert result == [
        ("f32[4,4]", "from the argument w"),
        ("f32[4]", "from the argument x"),
        ("f32[4]", "output of dot_general"),
        ("f32[4]", "named 's'"),
    ]
    jax = jax_module()
    jcp = jax.checkpoint_policies
    jboth = jcp.save_from_both_policies(jcp.dots_saveable, jcp.save_only_these_names("s"))
    assert theirs(jax.checkpoint(f(jax, jax.numpy), policy=jboth), PARAMS[0], X4) == result


def big_constant_times(N: ModuleType, size: int) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        a = N.sin(N.arange(size, dtype=N.float32))  # `a` does not depend on `x`
        return a * x

    return f


def test_constants_are_rematerialized_not_saved() -> None:
    size = 10_000_000  # the JEP's example; only staged here, never computed
    f = jt.checkpoint(big_constant_times(jnp, size))
    x = jt.ShapeDtypeStruct((size,), jnp.float32)
    assert saved_residuals(f, x) == []  # `a` is not a residual
    # Without checkpoint, `a` is saved.
    assert ours(big_constant_times(jnp, size), x) == [(f"f32[{size}]", "output of sin")]
    # The backward pass rebuilds it: iota and sin run inside the recomputation.
    def summed(y: Any) -> Any:
        return f(y).sum()

    closed = jt.make_jaxpr(jt.grad(summed))(x)
    (backward,) = checkpoints(closed.jaxpr, differentiated=True)
    assert {"iota", "sin"} <= prim_names(backward.jaxpr)
    assert all(e.outvars[0].aval.shape != (size,) for e in closed.jaxpr.eqns if not isinstance(e.primitive, Checkpoint) and e.primitive.name != "broadcast_in_dim")


def test_constants_example_matches_jax_on_a_small_size() -> None:
    size = 1000
    jax = jax_module()
    x = np.linspace(0, 1, size, dtype=np.float32)
    assert ours(jt.checkpoint(big_constant_times(jnp, size)), x) == theirs(jax.checkpoint(big_constant_times(jax.numpy, size)), x) == []
    f = jt.checkpoint(big_constant_times(jnp, size))

    def loss(y: ArrayLike) -> Array:
        return jnp.sum(f(y))

    np.testing.assert_allclose(np.asarray(jt.grad(loss)(x)), np.sin(np.arange(size, dtype=np.float32)), rtol=1e-6, atol=1e-6)


def nestings(T: Any, N: Any) -> dict[str, Callable[[Any], Any]]:
    cp: Any = T.checkpoint_policies

    def s2(x: Any) -> Any:
        return N.sin(N.sin(x))

    def dot_sin(y: Any) -> Any:
        return N.sin(N.dot(y, y)) * y

    def cos_of(f: Callable[[Any], Any]) -> Callable[[Any], Any]:
        return lambda x: N.cos(f(x))

    return {
        "checkpoint of jit": T.checkpoint(T.jit(s2)),
        "jit of checkpoint": T.jit(T.checkpoint(s2)),
        "checkpoint of checkpoint(everything)": T.checkpoint(cos_of(T.checkpoint(s2, policy=cp.everything_saveable))),
        "checkpoint of checkpoint": T.checkpoint(cos_of(T.checkpoint(s2))),
        "checkpoint(dots) of jit": T.checkpoint(cos_of(T.jit(dot_sin)), policy=cp.dots_saveable),
        "checkpoint(everything) of checkpoint": T.checkpoint(cos_of(T.checkpoint(s2)), policy=cp.everything_saveable),
    }


def test_the_outermost_policy_decides_inside_nested_calls() -> None:
    """JAX hands the outer checkpoint's policy to nested jit calls and
    checkpoints: a checkpoint around a jitted function saves only what its
    policy allows, and an inner policy does not force residuals."""
    jax = jax_module()
    mine, yours = nestings(jt, jnp), nestings(jax, jax.numpy)
    for name in mine:
        got, want = ours(mine[name], X3), theirs(yours[name], X3)
        if name in ("checkpoint(dots) of jit", "checkpoint(everything) of checkpoint"):
            # JAX names the producer as the call it sits in; the types agree.
            assert [t for t, _ in got] == [t for t, _ in want], name
        else:
            assert got == want == [("f32[3]", "from the argument x")], name
    assert ours(mine["checkpoint(dots) of jit"], X3) == [("f32[3]", "from the argument x"), ("f32[]", "output of dot_general")]


def test_closed_over_array_is_an_operand_and_saved_from_a_constant() -> None:
    w = jnp.asarray(np.arange(3, dtype=np.float32))

    @jt.checkpoint
    def f(x: ArrayLike) -> Array:
        return jnp.sin(w * x)

    assert ours(f, X3) == [("f32[3]", "from a constant"), ("f32[3]", "from the argument x")]
    closed = jt.make_jaxpr(f)(X3)
    (eqn,) = closed.jaxpr.eqns
    assert isinstance(eqn.primitive, Checkpoint)
    assert len(eqn.invars) == 2 and not eqn.primitive.jaxpr.constvars  # consts are leading operands


def test_custom_policy_sees_primitives_avals_and_params() -> None:
    seen: list[tuple[str, tuple[ShapedArray, ...], dict[str, object]]] = []

    def policy(prim: jt.core.Primitive, *avals: ShapedArray, **params: object) -> bool:
        seen.append((prim.name, avals, params))
        return prim.name == "cos"

    def cos_dot(w: ArrayLike, x: ArrayLike) -> Array:
        return jnp.sum(jnp.cos(jnp.dot(w, x)))

    f = jt.checkpoint(cos_dot, policy=policy)
    result = ours(f, PARAMS[0], X4)
    assert ("f32[4]", "output of cos") not in result  # cos's output is not needed by the backward pass
    by_name = {name: (avals, params) for name, avals, params in seen}
    avals, params = by_name["dot_general"]
    assert all(isinstance(a, ShapedArray) for a in avals)
    assert [a.str_short() for a in avals] == ["f32[4,4]", "f32[4]"]
    assert params["dimension_numbers"] == (((1,), (0,)), ((), ()))
    # A policy saving sin's output is asked about it and obeyed.
    def save_sin(prim: jt.core.Primitive, *avals: ShapedArray, **params: object) -> bool:
        return prim.name == "sin"

    g = jt.checkpoint(sin_sin, policy=save_sin)
    assert ours(g, X3) == [("f32[3]", "from the argument x"), ("f32[3]", "output of sin")]


def test_unhashable_policy_object_works() -> None:
    class Unhashable:
        __hash__ = None  # type: ignore[assignment]  # pyright: ignore[reportAssignmentType]  # the point of the test

        def __call__(self, prim: jt.core.Primitive, *avals: ShapedArray, **params: object) -> bool:
            return prim.name == "cos"

    f = jt.checkpoint(two_sins(jnp), policy=Unhashable())
    assert ours(f, X3) == [("f32[3]", "output of cos"), ("f32[3]", "output of cos")]


# === static_argnums ===


def test_static_argnums_replaces_concrete_for_a_training_flag() -> None:
    calls: list[bool] = []

    @functools.partial(jt.checkpoint, static_argnums=(1,))
    def foo(x: ArrayLike, is_training: bool) -> Array:
        calls.append(is_training)
        if is_training:
            return jnp.sin(x)
        return jnp.cos(x)

    assert scalar(jt.grad(foo)(1.0, True)) == pytest.approx(np.cos(1.0), rel=1e-6)
    assert scalar(jt.grad(foo)(1.0, False)) == pytest.approx(-np.sin(1.0), rel=1e-6)
    before = len(calls)
    for _ in range(3):
        foo(jnp.float32(2.0), True)
    assert len(calls) == before + 1  # traced once per (static value, argument types)
    # Negative positions count from the end, as in JAX.
    def bar(x: ArrayLike, flag: bool) -> Array:
        return jnp.asarray(x) * 2 if flag else jnp.asarray(x)

    assert float(jt.checkpoint(bar, static_argnums=-1)(3.0, True)) == 6.0
    jax = jax_module()
    jfoo = jax.checkpoint(lambda x, t: jax.numpy.sin(x) if t else jax.numpy.cos(x), static_argnums=(1,))  # pyright: ignore[reportUnknownLambdaType]  # JAX is untyped
    assert float(jax.grad(jfoo)(1.0, True)) == pytest.approx(scalar(jt.grad(foo)(1.0, True)), rel=1e-6)


def test_branching_on_a_traced_flag_suggests_static_argnums() -> None:
    def foo(x: ArrayLike, is_training: ArrayLike) -> Array:
        return jnp.sin(x) if is_training else jnp.asarray(x)

    with pytest.raises(TracerBoolConversionError, match="static_argnums"):
        jt.checkpoint(foo)(1.0, True)


def test_unhashable_static_argument_is_traced_every_call() -> None:
    calls: list[int] = []

    def f(x: ArrayLike, scales: list[float]) -> Array:
        calls.append(1)
        return jnp.asarray(x) * scales[0]

    g = jt.checkpoint(f, static_argnums=1)
    assert float(g(2.0, [3.0])) == 6.0
    assert float(g(2.0, [4.0])) == 8.0
    assert len(calls) == 2


def test_method_decorated_with_self_static() -> None:
    class Layer:
        def __init__(self, scale: float) -> None:
            self.scale = scale

        @functools.partial(jt.checkpoint, static_argnums=0)
        def __call__(self, x: ArrayLike) -> Array:
            return jnp.sin(x) * self.scale

    layer = Layer(3.0)
    assert scalar(jt.grad(layer)(0.0)) == pytest.approx(3.0)
    assert layer.__call__.__name__ == "__call__"


def test_pytree_arguments_keyword_arguments_and_outputs() -> None:
    @jt.checkpoint
    def f(p: dict[str, jt.Array], *, scale: jt.Array) -> tuple[jt.Array, dict[str, jt.Array]]:
        return jnp.sin(p["w"]) * scale, {"b": p["b"] * 2}

    p = {"w": jnp.asarray(X3), "b": jnp.ones(2)}
    out, aux = f(p, scale=jnp.float32(2.0))
    np.testing.assert_allclose(np.asarray(out), np.sin(X3) * 2, rtol=1e-6)
    np.testing.assert_array_equal(np.asarray(aux["b"]), [2.0, 2.0])
    def loss(q: dict[str, jt.Array]) -> Array:
        return jnp.sum(f(q, scale=jnp.float32(2.0))[0])

    def first(q: dict[str, jt.Array], s: jt.Array) -> Array:
        return f(q, scale=s)[0]

    g = jt.grad(loss)(p)
    np.testing.assert_allclose(np.asarray(g["w"]), 2 * np.cos(X3), rtol=1e-6)
    assert ours(first, p, 2.0) == [
        ("f32[3]", "from the argument q['w']"),
        ("f32[]", "from the argument s"),
    ]
    # A concrete scalar closed over is inlined: JAX calls it a literal.
    assert ours(lambda q: f(q, scale=jnp.float32(2.0))[0], p) == [  # pyright: ignore[reportUnknownLambdaType, reportUnknownArgumentType]  # any pytree
        ("f32[]", "from a literal"),
        ("f32[3]", "from the argument q['w']"),
    ]


def test_trace_cache_retraces_for_new_types_only() -> None:
    calls: list[int] = []

    def f(x: ArrayLike) -> Array:
        calls.append(1)
        return jnp.sin(x)

    g = jt.checkpoint(f)

    def loss(x: ArrayLike) -> Array:
        return jnp.sum(g(x))

    g(jnp.ones(3))
    g(jnp.zeros(3))
    assert len(calls) == 1
    g(jnp.ones(4))
    assert len(calls) == 2
    jt.grad(loss)(jnp.ones(3))  # new tracer types: jvp tracers have the same avals
    assert len(calls) == 2


# === prevent_cse ===


@pytest.mark.parametrize("prevent_cse", [True, False])
def test_prevent_cse_adds_an_optimization_barrier(prevent_cse: bool) -> None:
    x = np.float32(1.5)
    text = jt.jit(jt.grad(jt.checkpoint(two_sins(jnp), prevent_cse=prevent_cse))).lower(x).as_text()
    assert ("optimization_barrier" in text) == prevent_cse
    # Without differentiation there is nothing to protect.
    assert "optimization_barrier" not in jt.jit(jt.checkpoint(two_sins(jnp))).lower(x).as_text()
    jax = jax_module()
    jtext = jax.jit(jax.grad(jax.checkpoint(two_sins(jax.numpy), prevent_cse=prevent_cse))).lower(x).as_text()
    assert ("optimization_barrier" in jtext) == prevent_cse
    assert float(jt.jit(jt.grad(jt.checkpoint(two_sins(jnp), prevent_cse=prevent_cse)))(x)) == pytest.approx(
        float(jax.grad(two_sins(jax.numpy))(x)), rel=1e-6
    )


def test_barrier_covers_every_operand_of_the_recomputation() -> None:
    def f(x: ArrayLike, y: ArrayLike) -> Array:
        return jnp.sin(jnp.multiply(x, y))

    text = jt.jit(jt.grad(jt.checkpoint(f))).lower(np.float32(1.0), np.float32(2.0)).as_text()
    (line,) = [ln for ln in text.splitlines() if "optimization_barrier" in ln]
    # x, y and the incoming cotangent all go through the barrier.
    assert ":3 = stablehlo.optimization_barrier" in line and line.count("tensor<f32>") == 3


# === evaluation ===


def test_eager_checkpoint_compiles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    compiled: list[str] = []
    original = xla.compile_module

    def counting(text: str, *args: Any, **kwargs: Any) -> Any:
        compiled.append(text)
        return original(text, *args, **kwargs)

    monkeypatch.setattr(xla, "compile_module", counting)
    f = jt.checkpoint(sin_times_two, policy=cp.dots_saveable)

    def loss(x: ArrayLike) -> Array:
        return jnp.sum(f(x))

    y = f(jnp.asarray(X3))
    g = jt.grad(loss)(jnp.asarray(X3))
    assert compiled == []
    np.testing.assert_allclose(np.asarray(y), np.sin(X3) * 2, rtol=1e-6)
    np.testing.assert_allclose(np.asarray(g), 2 * np.cos(X3), rtol=1e-6)


def test_vmap_of_checkpoint_is_a_checkpoint_of_the_batched_function() -> None:
    f = jt.checkpoint(sin_times_two)
    closed = jt.make_jaxpr(jt.vmap(f))(jnp.ones((2, 3)))
    (eqn,) = closed.jaxpr.eqns
    assert isinstance(eqn.primitive, Checkpoint)
    assert eqn.primitive.jaxpr.in_avals[0].shape == (2, 3)


# === the name primitive's rules ===


def test_name_rules() -> None:
    prim = Name("a")
    aval = ShapedArray((3,), np.dtype(np.float32))
    ct = jnp.ones(3)
    assert prim.transpose((ct,), (UndefinedPrimal(aval),)) == (ct,)
    assert dict(prim.params()) == {"name": "a"}
    x = jnp.asarray(X3)
    assert checkpoint_name(x, "a") is x  # eager: an identity, not a copy
    def named(y: Array) -> Array:
        return checkpoint_name(jnp.sin(y), "a")

    out = jt.vmap(named)(jnp.ones((2, 3)))
    np.testing.assert_allclose(np.asarray(out), np.sin(np.ones((2, 3))), rtol=1e-6)
    text = jt.jit(named).lower(x).as_text()
    assert "name" not in text.split("func.func")[1].split("{", 1)[1].replace("@main", "")
    tree = checkpoint_name({"u": x, "v": 1.0}, "t")
    assert set(tree) == {"u", "v"}


# === errors ===


def test_errors_name_the_function_and_the_argument() -> None:
    def f(x: ArrayLike, label: Any) -> Array:
        return jnp.asarray(x)

    with pytest.raises(JaxtypedTypeError, match=r"checkpoint of .*\.f at .*argument label has type str"):
        jt.checkpoint(f)(1.0, "hello")
    with pytest.raises(JaxtypedValueError, match="static_argnums=\\(5,\\) is out of range"):
        jt.checkpoint(f, static_argnums=5)(1.0, "x")
    with pytest.raises(JaxtypedTypeError, match="expected a callable" + DEBUG_MODE):
        jt.checkpoint(42)  # type: ignore[type-var]  # pyright: ignore[reportArgumentType]  # the point of the test
    with pytest.raises(JaxtypedTypeError, match="static_argnums must be an int or a tuple of ints" + DEBUG_MODE):
        jt.checkpoint(f, static_argnums=[1])  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the point of the test
    with pytest.raises(JaxtypedTypeError, match="policy must be callable" + DEBUG_MODE):
        jt.checkpoint(f, policy="dots")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the point of the test
    with pytest.raises(JaxtypedTypeError, match="prevent_cse must be a bool" + DEBUG_MODE):
        jt.checkpoint(f, prevent_cse=None)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the point of the test
    with pytest.raises(JaxtypedTypeError, match="checkpoint_name: name must be a str" + DEBUG_MODE):
        checkpoint_name(1.0, 3)  # type: ignore[call-overload]  # pyright: ignore[reportCallIssue, reportArgumentType]  # the point of the test
    def with_string(x: ArrayLike) -> tuple[ArrayLike, str]:
        return x, "s"

    with pytest.raises(JaxtypedTypeError, match=r"output\[1\]"):
        jt.checkpoint(with_string)(1.0)


def test_policy_returning_a_non_bool_is_rejected() -> None:
    def says_yes(*_: object, **__: object) -> Any:
        return "yes"

    def says_one(*_: object, **__: object) -> Any:
        return 1

    f = jt.checkpoint(jnp.sin, policy=says_yes)
    with pytest.raises(JaxtypedTypeError, match="returned str 'yes' for primitive 'cos'; a policy must return a bool"):
        jt.grad(f)(1.0)
    both = cp.save_from_both_policies(cp.dots_saveable, says_one)
    with pytest.raises(JaxtypedTypeError, match="save_from_both_policies: a policy returned int"):
        jt.grad(jt.checkpoint(jnp.sin, policy=both))(1.0)


def test_print_saved_residuals(capsys: pytest.CaptureFixture[str]) -> None:
    def f(w: ArrayLike, x: ArrayLike) -> Array:
        return jnp.sin(jnp.dot(w, x))

    print_saved_residuals(jt.checkpoint(f, policy=cp.dots_saveable), PARAMS[0], X4)
    assert capsys.readouterr().out == (
        "f32[4,4] from the argument w\nf32[4] from the argument x\nf32[4] output of dot_general\n"
    )


def test_saved_residuals_of_plain_functions_match_jax() -> None:
    def programs(N: Any) -> list[Callable[[Any], Any]]:
        def sin_times(x: Any) -> Any:
            return N.sin(x) * x

        def exp_sin(x: Any) -> Any:
            return N.exp(N.sin(x)).sum()

        def square(x: Any) -> Any:
            return (x * x + 1.0).sum()

        def dot(x: Any) -> Any:
            return N.dot(x, x)

        return [sin_times, exp_sin, square, dot]

    jax = jax_module()
    for mine, yours in zip(programs(jnp), programs(jax.numpy), strict=True):
        assert ours(mine, X3) == theirs(yours, X3)


def test_docstring_examples() -> None:
    for name in ("jaxtyped._src.remat", "jaxtyped._src.remat_policies"):
        module = importlib.import_module(name)
        failures, tried = doctest.testmod(module, optionflags=doctest.NORMALIZE_WHITESPACE)
        assert tried > 0 and failures == 0, name


def test_public_names() -> None:
    assert jt.remat is jt.checkpoint
    assert jt.ad_checkpoint.checkpoint is jt.checkpoint
    assert cp.checkpoint_dots is cp.dots_saveable
    assert lax is not None


def test_clear_caches_forgets_checkpoint_traces() -> None:
    traces: list[int] = []

    def f(x: jt.Array) -> jt.Array:
        traces.append(1)
        return jnp.sin(x)

    g = jt.checkpoint(f)
    g(jnp.ones(2))
    g(jnp.ones(2))
    assert len(traces) == 1
    jt.clear_caches()
    g(jnp.ones(2))
    assert len(traces) == 2
