"""``jt.jit``: the stages (trace, lower, compile), static and donated
arguments, pytrees, keyword arguments, closures, nested jit, disable_jit,
the trace cache (when retracing happens), errors, methods and threads.

Jitted functions use only ``+``, ``*`` and ``sin`` so that they need no
lowering rule beyond the elementwise basics. Values are compared with
NumPy (float64) and, for jaxprs, with JAX's printing.
"""

import dataclasses
import functools
import re
import threading
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src.api_jit import DEFAULT_CACHE_SIZE, Jitted
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped.errors import (
    JaxtypedTypeError,
    JaxtypedValueError,
    TracerBoolConversionError,
    UnexpectedTracerError,
)
from jaxtyped.tree_util import register_dataclass


def jax_module() -> Any:
    """The JAX oracle (the tests that need it skip without it)."""
    return pytest.importorskip("jax")


def concrete(x: object) -> ArrayImpl:
    """``x`` as the concrete array type, which carries the device API."""
    assert type(x) is ArrayImpl, type(x)
    return x


def f32(*values: float) -> jt.Array:
    return jnp.asarray(np.array(values, np.float32))


def host(x: object) -> np.ndarray[Any, Any]:
    value: np.ndarray[Any, Any] = np.asarray(x)
    return value


def sin_affine(x: jt.Array, y: jt.Array) -> jt.Array:
    return jnp.sin(x) * y + x


def sin_affine_any(x: Any, y: Any) -> Any:
    sin: Any = jax_module().numpy.sin
    return sin(x) * y + x


def sin_affine_np(x: np.ndarray[Any, Any], y: float) -> np.ndarray[Any, Any]:
    value: np.ndarray[Any, Any] = np.sin(x.astype(np.float64)) * y + x
    return value


X = np.linspace(-2.0, 2.0, 6, dtype=np.float32).reshape(2, 3)


class Counter:
    """Counts traces: a Python side effect in the traced function runs
    once per trace (and never on a cache hit)."""

    def __init__(self) -> None:
        self.count = 0

    def tick(self) -> None:
        self.count += 1


# === stages: trace, lower, compile ===


def test_call_matches_numpy() -> None:
    out = jt.jit(sin_affine)(jnp.asarray(X), jnp.float32(2.0))
    assert isinstance(out, jt.Array)
    assert out.dtype == np.float32 and out.shape == (2, 3)
    np.testing.assert_allclose(host(out), sin_affine_np(X, 2.0), rtol=1e-6)


def test_lower_as_text_is_stablehlo() -> None:
    text = jt.jit(sin_affine).lower(jnp.asarray(X), jnp.float32(2.0)).as_text()
    assert text.startswith("module @jit_sin_affine")
    assert "func.func public @main(%arg0: tensor<2x3xf32>, %arg1: tensor<f32>) -> tensor<2x3xf32>" in text
    assert "stablehlo.sine %arg0" in text
    assert "stablehlo.multiply" in text and "stablehlo.add" in text
    assert "return " in text


def test_lower_module_name_follows_jax() -> None:
    def f(x: jt.Array) -> jt.Array:
        return x + x

    assert "module @jit_f " in jt.jit(f).lower(f32(1.0)).as_text()


def test_lower_as_text_agrees_with_jax_ops() -> None:
    jax = jax_module()
    ours = jt.jit(sin_affine).lower(jnp.asarray(X), jnp.float32(2.0)).as_text()
    theirs: str = jax.jit(sin_affine_any).lower(X, np.float32(2.0)).as_text()

    def ops(text: str) -> list[str]:
        return re.findall(r"stablehlo\.[a-z_]+", text)

    assert ops(ours) == ops(theirs)


def test_lower_rejects_unknown_dialect() -> None:
    lowered = jt.jit(sin_affine).lower(jnp.asarray(X), jnp.float32(2.0))
    with pytest.raises(JaxtypedValueError, match="dialect"):
        lowered.as_text("hlo")


def test_compile_returns_a_callable_executable() -> None:
    compiled = jt.jit(sin_affine).lower(jnp.asarray(X), jnp.float32(2.0)).compile()
    out = compiled(jnp.asarray(X), jnp.float32(3.0))
    assert isinstance(out, jt.Array)
    np.testing.assert_allclose(host(out), sin_affine_np(X, 3.0), rtol=1e-6)
    assert "HloModule" in compiled.as_text()


def test_compiled_rejects_other_types() -> None:
    compiled = jt.jit(sin_affine).lower(jnp.asarray(X), jnp.float32(2.0)).compile()
    with pytest.raises(JaxtypedTypeError, match=r"f32\[3\].*compiled for.*f32\[2,3\]"):
        compiled(f32(1.0, 2.0, 3.0), jnp.float32(2.0))


def test_trace_jaxpr_matches_jax_and_make_jaxpr() -> None:
    jax = jax_module()
    ours = jt.jit(sin_affine).trace(jnp.asarray(X), jnp.float32(2.0)).jaxpr
    theirs = jax.jit(sin_affine_any).trace(X, np.float32(2.0)).jaxpr
    assert str(ours) == str(theirs)
    assert str(ours) == str(jt.make_jaxpr(sin_affine)(jnp.asarray(X), jnp.float32(2.0)))


def test_trace_and_lower_accept_shape_dtype_struct() -> None:
    jax = jax_module()

    def f(d: Any) -> Any:
        return {"o": d["a"] * d["b"], "p": [d["a"]]}

    for weak in (True, False):
        spec = {"a": jt.ShapeDtypeStruct((3,), np.float32), "b": jt.ShapeDtypeStruct((), np.float32, weak_type=weak)}
        jax_spec = {"a": jax.ShapeDtypeStruct((3,), np.float32), "b": jax.ShapeDtypeStruct((), np.float32, weak_type=weak)}
        traced = jt.jit(f).trace(spec)
        assert str(traced.jaxpr) == str(jax.jit(f).trace(jax_spec).jaxpr)
        assert repr(traced.out_info) == repr(jax.jit(f).trace(jax_spec).out_info)
    spec = {"a": jt.ShapeDtypeStruct((3,), np.float32), "b": jt.ShapeDtypeStruct((), np.float32)}
    text = jt.jit(f).lower(spec).as_text()
    assert "func.func public @main(%arg0: tensor<3xf32>, %arg1: tensor<f32>)" in text
    compiled = jt.jit(f).lower(spec).compile()
    out = compiled({"a": f32(1.0, 2.0, 3.0), "b": jnp.float32(2.0)})
    np.testing.assert_array_equal(host(out["o"]), [2.0, 4.0, 6.0])
    np.testing.assert_array_equal(host(out["p"][0]), [1.0, 2.0, 3.0])


def test_trace_traces_once_without_compiling() -> None:
    calls = Counter()

    def f(x: jt.Array) -> jt.Array:
        calls.tick()
        return x * x

    jitted = jt.jit(f)
    traced = jitted.trace(jt.ShapeDtypeStruct((4,), np.float32))
    assert calls.count == 1
    assert traced.fun_name == "f"
    jitted.trace(jt.ShapeDtypeStruct((4,), np.float32))
    assert calls.count == 1  # cached


def test_call_after_trace_reuses_the_trace() -> None:
    calls = Counter()

    def f(x: jt.Array) -> jt.Array:
        calls.tick()
        return x * x

    jitted = jt.jit(f)
    jitted.trace(jt.ShapeDtypeStruct((4,), np.float32))
    jitted(jnp.asarray(np.ones(4, np.float32)))
    assert calls.count == 1


# === static arguments ===


def scaled(x: jt.Array, n: jt.Array | float, mode: str = "mul") -> jt.Array:
    return x * n if mode == "mul" else x + n


TWO = jnp.float32(2.0)


def test_static_argnums() -> None:
    jitted = jt.jit(scaled, static_argnums=(1, 2))
    x = jnp.asarray(X)
    np.testing.assert_allclose(host(jitted(x, 3.0, "mul")), X * 3.0)
    np.testing.assert_allclose(host(jitted(x, 3.0, "add")), X + 3.0)
    assert jitted.cache_info().misses == 2
    jitted(x, 3.0, "add")
    assert jitted.cache_info().misses == 2  # same static values: a hit
    # the static value is baked in: no parameter for it
    text = jitted.lower(x, 5.0, "mul").as_text()
    assert "@main(%arg0: tensor<2x3xf32>) ->" in text
    assert "5.000000e+00" in text


def test_static_argnames() -> None:
    jitted = jt.jit(scaled, static_argnames="mode")
    x = jnp.asarray(X)
    np.testing.assert_allclose(host(jitted(x, TWO, mode="add")), X + 2.0)
    np.testing.assert_allclose(host(jitted(x, TWO, mode="mul")), X * 2.0)
    assert jitted.cache_info().misses == 2


def test_negative_static_argnums() -> None:
    jitted = jt.jit(scaled, static_argnums=-1)
    x = jnp.asarray(X)
    np.testing.assert_allclose(host(jitted(x, TWO, "add")), X + 2.0)
    np.testing.assert_allclose(host(jitted(x, TWO, "mul")), X * 2.0)


def test_static_name_inferred_from_position() -> None:
    # static_argnums=2 also makes the parameter named ``mode`` static when
    # passed by keyword: a string only works as a static argument.
    jitted = jt.jit(scaled, static_argnums=2)
    np.testing.assert_allclose(host(jitted(jnp.asarray(X), TWO, mode="add")), X + 2.0)


def test_static_position_inferred_from_name() -> None:
    # static_argnames="mode" also makes position 2 static when passed
    # positionally.
    jitted = jt.jit(scaled, static_argnames="mode")
    np.testing.assert_allclose(host(jitted(jnp.asarray(X), TWO, "add")), X + 2.0)


def test_non_hashable_static_argument_by_position() -> None:
    def f(x: jt.Array, shape: Any) -> jt.Array:
        return x

    jitted = jt.jit(f, static_argnums=1)
    with pytest.raises(JaxtypedValueError, match=r"non-hashable static argument 1 of type list") as info:
        jitted(f32(1.0), [1, 2])
    assert re.search(r"jit of \S*\bf at ", str(info.value))


def test_non_hashable_static_argument_by_name() -> None:
    jitted = jt.jit(scaled, static_argnames="mode")
    with pytest.raises(JaxtypedValueError, match=r"non-hashable static argument 'mode' of type dict"):
        jitted(f32(1.0), 2.0, mode={"a": 1})  # type: ignore[arg-type]  # the wrong type is the point  # pyright: ignore[reportArgumentType]


def test_static_and_donated_overlap_is_an_error() -> None:
    with pytest.raises(JaxtypedValueError, match="both static and donated"):
        jt.jit(scaled, static_argnums=1, donate_argnums=1)


def test_bad_static_argnums_type() -> None:
    with pytest.raises(JaxtypedTypeError, match="static_argnums"):
        jt.jit(scaled, static_argnums="n")  # type: ignore[arg-type]  # the wrong type is the point  # pyright: ignore[reportArgumentType]


# === donation ===


def add_scaled(x: jt.Array, y: jt.Array) -> jt.Array:
    return x * y + x


def fresh_device_array(n: int = 1024) -> ArrayImpl:
    """A jitted output never read on the host (its buffer can be reused)."""

    def make(x: jt.Array) -> jt.Array:
        return x + x

    return concrete(jt.jit(make)(jnp.asarray(np.arange(n, dtype=np.float32))))


@pytest.mark.parametrize("read_first", [False, True], ids=["fresh", "after_an_eager_read"])
def test_donated_buffer_is_reused(read_first: bool) -> None:
    # An eager read caches a zero-copy host view of the buffer; donation must
    # drop it, or jaxlib sees an external reference and copies (issue 19).
    donating = jt.jit(add_scaled, donate_argnums=0)
    a = fresh_device_array()
    if read_first:
        assert float(a[3]) == 6.0
    pointer = a.unsafe_buffer_pointer()
    out = concrete(donating(a, jnp.float32(3.0)))
    assert out.unsafe_buffer_pointer() == pointer
    assert a.is_deleted()
    np.testing.assert_array_equal(host(out), np.arange(1024, dtype=np.float32) * 8)


def test_donation_keeps_a_host_view_the_user_holds_valid() -> None:
    # A view the caller still holds keeps its values: jaxlib copies then.
    donating = jt.jit(add_scaled, donate_argnums=0)
    a = fresh_device_array()
    view = host(a)
    out = donating(a, jnp.float32(3.0))
    np.testing.assert_array_equal(view, np.arange(1024, dtype=np.float32) * 2)
    np.testing.assert_array_equal(host(out), np.arange(1024, dtype=np.float32) * 8)


def test_donated_array_cannot_be_used() -> None:
    donating = jt.jit(add_scaled, donate_argnums=0)
    a = fresh_device_array()
    donating(a, jnp.float32(3.0))
    with pytest.raises(RuntimeError, match="deleted"):
        np.asarray(a)
    with pytest.raises(RuntimeError, match="deleted"):
        _ = a + 1.0
    with pytest.raises(RuntimeError, match="deleted"):
        donating(a, jnp.float32(3.0))
    with pytest.raises(RuntimeError, match="deleted"):
        jt.jit(add_scaled)(a, a)


def test_negative_donate_argnums() -> None:
    donating = jt.jit(add_scaled, donate_argnums=-2)
    a = fresh_device_array()
    pointer = a.unsafe_buffer_pointer()
    out = concrete(donating(a, jnp.float32(1.0)))
    assert a.is_deleted()
    assert out.unsafe_buffer_pointer() == pointer


def test_donated_pytree_argument() -> None:
    def f(state: dict[str, jt.Array], g: jt.Array) -> dict[str, jt.Array]:
        return {"p": state["p"] + g, "q": state["q"] * g}

    donating = jt.jit(f, donate_argnums=0)
    state = {"p": fresh_device_array(), "q": fresh_device_array()}
    pointers = {k: v.unsafe_buffer_pointer() for k, v in state.items()}
    g = jnp.float32(2.0)
    out = donating(dict[str, jt.Array](state), g)
    assert all(v.is_deleted() for v in state.values())
    assert {concrete(v).unsafe_buffer_pointer() for v in out.values()} == set(pointers.values())
    expected = np.arange(1024, dtype=np.float32) * 2
    np.testing.assert_array_equal(host(out["p"]), expected + 2)
    np.testing.assert_array_equal(host(out["q"]), expected * 2)


def test_same_array_donated_and_not_donated_is_an_error() -> None:
    donating = jt.jit(add_scaled, donate_argnums=0)
    a = fresh_device_array(4)
    with pytest.raises(JaxtypedValueError, match=r"same array f32\[4\] is passed as donated argument"):
        donating(a, a)
    assert not a.is_deleted()  # nothing was consumed
    np.testing.assert_array_equal(host(a), [0.0, 2.0, 4.0, 6.0])


def test_host_view_survives_donation_unchanged() -> None:
    # A zero-copy host view of the donated input must not see the output.
    donating = jt.jit(add_scaled, donate_argnums=0)
    a = fresh_device_array(8)
    view = np.asarray(a)
    out = donating(a, jnp.float32(3.0))
    np.testing.assert_array_equal(view, np.arange(8, dtype=np.float32) * 2)
    np.testing.assert_array_equal(host(out), np.arange(8, dtype=np.float32) * 8)


def test_donating_a_host_array() -> None:
    donating = jt.jit(add_scaled, donate_argnums=0)
    source = np.arange(4, dtype=np.float32)
    a = concrete(jnp.asarray(source))
    out = donating(a, jnp.float32(2.0))
    assert a.is_deleted()
    np.testing.assert_array_equal(host(out), source * 3)
    np.testing.assert_array_equal(source, np.arange(4, dtype=np.float32))  # the user's data untouched


# === pytrees, keyword arguments, closures ===


def pytree_fn(tree: dict[str, Any], scale: jt.Array) -> dict[str, Any]:
    a = tree["a"]
    b0, b1 = tree["b"]
    return {
        "sum": a + b0,
        "nested": [b1 * scale, None, (a,), {"deep": (jnp.sin(a),)}],
        "none": None,
    }


def test_pytrees_in_and_out() -> None:
    a, b0, b1 = X, X * 2, X * 3
    tree = {"a": jnp.asarray(a), "b": [jnp.asarray(b0), jnp.asarray(b1)]}
    out = jt.jit(pytree_fn)(tree, jnp.float32(0.5))
    assert str(jt.tree_util.tree_structure(out)) == "PyTreeDef({'nested': [*, None, (*,), {'deep': (*,)}], 'none': None, 'sum': *})"
    np.testing.assert_allclose(host(out["sum"]), a + b0)
    np.testing.assert_allclose(host(out["nested"][0]), b1 * 0.5)
    np.testing.assert_allclose(host(out["nested"][2][0]), a)
    np.testing.assert_allclose(host(out["nested"][3]["deep"][0]), np.sin(a.astype(np.float64)), rtol=1e-6)
    assert out["none"] is None and out["nested"][1] is None


def test_pytree_structure_matches_jax() -> None:
    jax = jax_module()
    tree_np = {"a": X, "b": [X, X]}
    ours = jt.jit(pytree_fn)({"a": jnp.asarray(X), "b": [jnp.asarray(X), jnp.asarray(X)]}, jnp.float32(2.0))

    def theirs_fn(tree: Any, scale: Any) -> Any:
        sin: Any = jax.numpy.sin
        return {"sum": tree["a"] + tree["b"][0], "nested": [tree["b"][1] * scale, None, (tree["a"],), {"deep": (sin(tree["a"]),)}], "none": None}

    theirs = jax.jit(theirs_fn)(tree_np, np.float32(2.0))
    assert str(jt.tree_util.tree_structure(ours)) == str(jax.tree_util.tree_structure(theirs))
    for o, t in zip(jt.tree_util.tree_leaves(ours), jax.tree_util.tree_leaves(theirs), strict=True):
        assert repr(o) == repr(t)


def test_none_and_empty_containers_as_arguments() -> None:
    def f(x: jt.Array, extra: Any, empty: Any) -> Any:
        return (x + x, extra, empty)

    out = jt.jit(f)(f32(1.0, 2.0), None, ())
    np.testing.assert_array_equal(host(out[0]), [2.0, 4.0])
    assert out[1] is None and out[2] == ()


def test_keyword_arguments() -> None:
    def f(x: jt.Array, *, y: jt.Array, z: jt.Array | float = 1.0) -> jt.Array:
        return x * y + z

    jitted = jt.jit(f)
    x = jnp.asarray(X)
    np.testing.assert_allclose(host(jitted(x, y=jnp.float32(2.0))), X * 2 + 1)
    np.testing.assert_allclose(host(jitted(x, z=jnp.float32(3.0), y=jnp.float32(2.0))), X * 2 + 3)
    np.testing.assert_allclose(host(jitted(x=x, y=jnp.float32(2.0))), X * 2 + 1)


GLOBAL = jnp.asarray(np.array([10.0, 20.0, 30.0], np.float32))


def times_global(x: jt.Array) -> jt.Array:
    return x * GLOBAL


def test_closed_over_global_array() -> None:
    jitted = jt.jit(times_global)
    np.testing.assert_array_equal(host(jitted(f32(1.0, 2.0, 3.0))), [10.0, 40.0, 90.0])
    jaxpr = jitted.trace(f32(1.0, 2.0, 3.0)).jaxpr
    assert str(jaxpr) == "{ lambda a:f32[3]; b:f32[3]. let c:f32[3] = mul b a in (c,) }"
    assert len(jaxpr.consts) == 1
    np.testing.assert_array_equal(host(jaxpr.consts[0]), [10.0, 20.0, 30.0])


def test_closed_over_array_jaxpr_matches_jax() -> None:
    jax = jax_module()
    g = jax.numpy.asarray(np.array([10.0, 20.0, 30.0], np.float32))

    def theirs_fn(x: Any) -> Any:
        return x * g

    theirs = jax.jit(theirs_fn).trace(np.ones(3, np.float32)).jaxpr
    assert str(jt.jit(times_global).trace(f32(1.0, 1.0, 1.0)).jaxpr) == str(theirs)


def test_closed_over_numpy_array() -> None:
    weights = np.array([1.0, -1.0], np.float32)

    def f(x: jt.Array) -> jt.Array:
        return x * weights + weights

    np.testing.assert_array_equal(host(jt.jit(f)(f32(3.0, 4.0))), [4.0, -5.0])


# === nested jit ===


def inner(x: jt.Array) -> jt.Array:
    return x * x + x


jit_inner = jt.jit(inner)


def outer(x: jt.Array) -> jt.Array:
    return jit_inner(x) * 2.0


def test_nested_jit_values() -> None:
    out = jt.jit(outer)(jnp.asarray(X))
    np.testing.assert_allclose(host(out), (X * X + X) * 2.0, rtol=1e-6)


def test_nested_jit_is_staged_as_a_jit_equation() -> None:
    text = str(jt.make_jaxpr(outer)(jnp.asarray(X)))
    # The inner jaxpr's input is named after the operand, as JAX names it.
    assert "jit[\n      name=inner\n      jaxpr={ lambda ; a:f32[2,3]. let" in text
    assert text.count("jit[") == 1
    outer_text = str(jt.make_jaxpr(jt.jit(outer))(jnp.asarray(X)))
    assert outer_text.count("jit[") == 2
    assert "name=outer" in outer_text and "name=inner" in outer_text


def test_nested_jit_lowers_inline() -> None:
    text = jt.jit(outer).lower(jnp.asarray(X)).as_text()
    assert text.startswith("module @jit_outer")
    assert text.count("func.func") == 1  # the inner call is inlined
    assert text.count("stablehlo.multiply") == 2


# === disable_jit ===


def test_disable_jit_runs_python_every_call() -> None:
    log: list[int] = []

    def f(x: jt.Array) -> jt.Array:
        log.append(1)
        return x * 2.0

    jitted = jt.jit(f)
    x = f32(1.0, 2.0)
    jitted(x)
    jitted(x)
    assert len(log) == 1  # traced once
    previous = jt.config.jax_disable_jit
    with jt.disable_jit():
        assert jt.config.jax_disable_jit
        out = jitted(x)
        jitted(x)
        assert len(log) == 3  # the Python function ran on each call
        assert isinstance(out, jt.Array)
        np.testing.assert_array_equal(host(out), [2.0, 4.0])
    assert jt.config.jax_disable_jit == previous
    jitted(x)
    assert len(log) == 3  # compiled again: no Python side effect


def test_disable_jit_restores_config_after_an_exception() -> None:
    previous = jt.config.jax_disable_jit
    with pytest.raises(ZeroDivisionError):
        with jt.disable_jit():
            _ = 1 / 0
    assert jt.config.jax_disable_jit == previous


def test_disable_jit_gives_concrete_values_inside() -> None:
    seen: list[object] = []

    def f(x: jt.Array) -> jt.Array:
        seen.append(type(x))
        return x + x if float(x[0]) > 0 else x  # Python control flow on values

    with jt.disable_jit():
        out = jt.jit(f)(f32(1.0))
    assert seen == [ArrayImpl]
    np.testing.assert_array_equal(host(out), [2.0])


# === the trace cache: when retracing happens ===


def counted() -> tuple[Counter, Jitted[[Any], Any]]:
    counter = Counter()

    def f(x: Any) -> Any:
        counter.tick()
        return x + x

    return counter, jt.jit(f)


def test_same_aval_different_values_does_not_retrace() -> None:
    counter, jitted = counted()
    jitted(f32(1.0, 2.0))
    out = jitted(f32(5.0, 6.0))
    np.testing.assert_array_equal(host(out), [10.0, 12.0])
    assert counter.count == 1
    info = jitted.cache_info()
    assert (info.hits, info.misses, info.size) == (1, 1, 1)


def test_python_scalar_values_do_not_retrace() -> None:
    counter, jitted = counted()
    assert float(jitted(1.0)) == 2.0
    assert float(jitted(2.5)) == 5.0
    assert counter.count == 1


def test_weak_type_retraces() -> None:
    counter, jitted = counted()
    weak = jitted(1.0)  # f32[] weakly typed
    strong = jitted(jnp.float32(1.0))  # f32[]
    assert counter.count == 2
    assert weak.weak_type and not strong.weak_type
    assert jitted.cache_info().size == 2


def test_shape_and_dtype_retrace() -> None:
    counter, jitted = counted()
    jitted(f32(1.0, 2.0))
    jitted(f32(1.0, 2.0, 3.0))
    assert counter.count == 2
    jitted(jnp.asarray(np.array([1, 2], np.int32)))
    assert counter.count == 3
    jitted(f32(7.0, 8.0))
    jitted(jnp.asarray(np.array([3, 4], np.int32)))
    assert counter.count == 3
    assert jitted.cache_info() == (2, 3, 3, DEFAULT_CACHE_SIZE)


def test_tree_structure_retraces() -> None:
    counter = Counter()

    def f(tree: Any) -> Any:
        counter.tick()
        return jt.tree_util.tree_map(lambda v: v * 2.0, tree)

    jitted = jt.jit(f)
    a = f32(1.0)
    jitted({"a": a})
    jitted({"b": a})
    jitted([a])
    jitted((a,))
    jitted([a, a])
    assert counter.count == 5
    jitted({"a": f32(3.0)})
    jitted((f32(4.0),))
    assert counter.count == 5


class Settings:
    """A registered node whose auxiliary data is a dict (unhashable), which
    JAX accepts: structures with such data are told apart by ``==``."""

    def __init__(self, x: Any, meta: dict[str, float]) -> None:
        self.x, self.meta = x, meta


# The aux data typed Any: JAX's types, and ours, ask for Hashable aux data,
# which a dict is not; at run time both libraries accept it.
def _flatten_settings(s: Settings) -> tuple[tuple[Any], Any]:
    return (s.x,), s.meta


def _unflatten_settings(meta: Any, children: Any) -> Settings:
    return Settings(children[0], meta)


jt.tree_util.register_pytree_node(Settings, _flatten_settings, _unflatten_settings)


@functools.cache
def _register_settings_in_jax() -> None:
    jax_module().tree_util.register_pytree_node(Settings, _flatten_settings, _unflatten_settings)


def test_unhashable_aux_data_is_cached_by_equality_like_jax() -> None:
    jax = jax_module()
    _register_settings_in_jax()
    results: dict[str, tuple[list[np.ndarray[Any, Any]], int]] = {}
    for name, library in (("ours", jt), ("jax", jax)):
        counter = Counter()

        def scaled(s: Any, counter: Counter = counter) -> Any:
            counter.tick()
            return s.x * s.meta["a"]

        def loss(s: Any, library: Any = library) -> Any:
            return library.numpy.sum(s.x**2) * s.meta["a"]

        f = library.jit(scaled)
        x = library.numpy.arange(3.0)
        outs = [host(f(Settings(x, {"a": a}))) for a in (1.0, 1.0, 2.0, 1.0)]
        outs.append(host(library.grad(loss)(Settings(x, {"a": 3.0})).x))
        outs.append(host(library.vmap(scaled)(Settings(x, {"a": 2.0}))))
        results[name] = (outs, counter.count)
    ours, theirs = results["ours"], results["jax"]
    assert ours[1] == theirs[1] == 3  # jit: {"a": 1.0} traced once, {"a": 2.0} once; vmap: once
    for o, t in zip(ours[0], theirs[0], strict=True):
        np.testing.assert_array_equal(o, t)


def test_static_argument_retraces() -> None:
    counter = Counter()

    def f(x: jt.Array, k: int) -> jt.Array:
        counter.tick()
        return x * float(k)

    jitted = jt.jit(f, static_argnums=1)
    x = f32(1.0)
    jitted(x, 1)
    jitted(x, 2)
    jitted(x, 1)
    assert counter.count == 2
    assert jitted.cache_info().hits == 1


def test_x64_config_change_retraces_pytree_arguments() -> None:
    counter = Counter()

    def f(tree: dict[str, jt.Array]) -> jt.Array:
        counter.tick()
        return tree["x"] + tree["x"]

    jitted = jt.jit(f)
    arg = {"x": f32(1.0, 2.0)}
    jitted(arg)
    previous = jt.config.jax_enable_x64
    jt.config.update("jax_enable_x64", True)
    try:
        jitted(arg)
        assert counter.count == 2
    finally:
        jt.config.update("jax_enable_x64", previous)
    jitted(arg)
    assert counter.count == 2  # the x64-off entry is still cached


def test_x64_config_change_retraces_array_arguments() -> None:
    counter, jitted = counted()
    x = f32(1.0, 2.0)
    jitted(x)
    previous = jt.config.jax_enable_x64
    jt.config.update("jax_enable_x64", True)
    try:
        jitted(x)
        assert counter.count == 2
    finally:
        jt.config.update("jax_enable_x64", previous)


def test_x64_result_dtype_after_config_change() -> None:
    def f(x: jt.Array) -> jt.Array:
        return x + np.float64(1.0)

    jitted = jt.jit(f)
    x = f32(1.0)
    assert jitted(x).dtype == np.float32
    previous = jt.config.jax_enable_x64
    jt.config.update("jax_enable_x64", True)
    try:
        assert f(x).dtype == np.float64  # eager
        assert jitted(x).dtype == np.float64
    finally:
        jt.config.update("jax_enable_x64", previous)


def test_numpy_argument_with_the_same_aval_does_not_retrace() -> None:
    counter, jitted = counted()
    jitted(f32(1.0, 2.0))
    jitted(np.array([3.0, 4.0], np.float32))
    assert counter.count == 1


def test_cache_is_bounded() -> None:
    _, jitted = counted()
    assert jitted.cache_info().maxsize == DEFAULT_CACHE_SIZE
    assert 0 < DEFAULT_CACHE_SIZE <= 100_000


def test_oldest_entry_is_evicted_and_retraced() -> None:
    counter = Counter()

    def f(x: jt.Array) -> jt.Array:
        counter.tick()
        return x + x

    jitted = Jitted(f, (), (), (), cache_size=2)
    one, two, three = (jnp.asarray(np.ones(n, np.float32)) for n in (1, 2, 3))
    jitted(one)
    jitted(two)
    jitted(three)  # evicts the entry for f32[1]
    assert jitted.cache_info() == (0, 3, 2, 2)
    jitted(three)
    assert counter.count == 3  # still cached
    out = jitted(one)  # retraced
    assert counter.count == 4
    np.testing.assert_array_equal(host(out), [2.0])
    assert jitted.cache_info().size == 2


def test_recently_used_entry_survives_eviction_with_static_arguments() -> None:
    counter = Counter()

    def f(x: jt.Array, tag: str) -> jt.Array:
        counter.tick()
        return x + x

    jitted = Jitted(f, (1,), (), (), cache_size=2)
    x = f32(1.0)
    jitted(x, "a")
    jitted(x, "b")
    jitted(x, "a")  # a hit: "a" is now the most recently used
    jitted(x, "c")  # evicts "b"
    jitted(x, "a")
    assert counter.count == 3


def test_recently_used_entry_survives_eviction() -> None:
    counter = Counter()

    def f(x: jt.Array) -> jt.Array:
        counter.tick()
        return x + x

    jitted = Jitted(f, (), (), (), cache_size=2)
    one, two, three = (jnp.asarray(np.ones(n, np.float32)) for n in (1, 2, 3))
    jitted(one)
    jitted(two)
    jitted(one)  # a hit: f32[1] is now the most recently used
    jitted(three)  # should evict f32[2]
    jitted(one)
    assert counter.count == 3


def test_clear_cache_retraces() -> None:
    counter, jitted = counted()
    jitted(f32(1.0))
    jitted.clear_cache()
    assert jitted.cache_info().size == 0
    jitted(f32(1.0))
    assert counter.count == 2


# === errors ===


def test_string_argument_is_a_type_error_naming_jit_and_the_argument() -> None:
    def f(params: dict[str, Any], *, scale: Any = 1.0) -> Any:
        return params["w"] * scale

    jitted = jt.jit(f)
    with pytest.raises(JaxtypedTypeError, match=r"jit: params\['w'\] has type str"):
        jitted({"w": "abc"})
    with pytest.raises(JaxtypedTypeError, match=r"jit: scale has type str"):
        jitted({"w": 1.0}, scale="x")


def test_string_output_is_a_type_error() -> None:
    def f(x: jt.Array) -> Any:
        return {"label": "text", "x": x}

    with pytest.raises(JaxtypedTypeError, match=r"jit: output\['label'\] has type str"):
        jt.jit(f)(f32(1.0))


def test_traced_bool_conversion() -> None:
    def f(x: jt.Array) -> jt.Array:
        return x * 2.0 if x > 0 else x

    with pytest.raises(TracerBoolConversionError, match="jit"):
        jt.jit(f)(f32(1.0))


def test_leaked_tracer() -> None:
    leaked: list[jt.Array] = []

    def f(x: jt.Array) -> jt.Array:
        leaked.append(x)
        return x + 1.0

    jt.jit(f)(f32(1.0))
    with pytest.raises(UnexpectedTracerError, match=r"tracer f32\[1\] created by jit of \S*\bf at .*already finished"):
        _ = leaked[0] + 1.0


def test_python_int_too_large() -> None:
    _, jitted = counted()
    with pytest.raises(OverflowError):
        jitted(2**40)


# === methods ===


@register_dataclass
@dataclasses.dataclass
class Affine:
    """A pytree ``self``: its fields are dynamic arguments."""

    w: jt.Array
    b: jt.Array

    @jt.jit
    def apply(self, x: jt.Array) -> jt.Array:
        return self.w * x + self.b


def test_jitted_method_with_a_pytree_self() -> None:
    model = Affine(f32(2.0, 3.0), f32(1.0, 1.0))
    x = f32(10.0, 20.0)
    np.testing.assert_array_equal(host(model.apply(x)), [21.0, 61.0])
    np.testing.assert_array_equal(host(Affine.apply(model, x)), [21.0, 61.0])
    # another instance with the same avals reuses the trace
    other = Affine(f32(0.0, 1.0), f32(5.0, 5.0))
    np.testing.assert_array_equal(host(other.apply(x)), [5.0, 25.0])
    assert Affine.apply.cache_info().misses == 1
    jaxpr = str(model.apply.trace(x).jaxpr)
    assert jaxpr.startswith("{ lambda ; a:f32[2] b:f32[2] c:f32[2]. let")


class Scaler:
    """A hashable ``self`` passed as a static argument."""

    def __init__(self, k: float) -> None:
        self.k = k

    def __hash__(self) -> int:
        return hash(self.k)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Scaler) and other.k == self.k

    def _scale(self, x: jt.Array) -> jt.Array:
        return x * self.k

    scale = jt.jit(_scale, static_argnums=0)


def test_jitted_method_with_a_static_self() -> None:
    x = f32(1.0, 2.0)
    np.testing.assert_array_equal(host(Scaler(3.0).scale(x)), [3.0, 6.0])
    np.testing.assert_array_equal(host(Scaler.scale(Scaler(3.0), x)), [3.0, 6.0])
    np.testing.assert_array_equal(host(Scaler(4.0).scale(x)), [4.0, 8.0])
    assert Scaler.scale.cache_info().misses == 2  # one trace per distinct (equal) self
    assert "mul" in str(Scaler(3.0).scale.trace(x).jaxpr)


def test_jitted_functions_and_methods_carry_the_wrapped_names() -> None:
    jax = jax_module()

    class Model:
        @jt.jit
        def apply(self, x: jt.Array) -> jt.Array:
            """Apply the model."""
            return x

    class JaxModel:
        def apply(self, x: Any) -> Any:
            """Apply the model."""
            return x

    setattr(JaxModel, "apply", jax.jit(vars(JaxModel)["apply"]))  # jax.jit is untyped here: decorated by hand
    ours, theirs = Model().apply, getattr(JaxModel(), "apply")
    assert (ours.__name__, ours.__doc__) == (theirs.__name__, theirs.__doc__) == ("apply", "Apply the model.")
    assert ours.__qualname__.endswith("Model.apply") and theirs.__qualname__.endswith("JaxModel.apply")
    assert ours.__wrapped__ is Model.apply.__wrapped__ is vars(Model)["apply"].__wrapped__
    jitted = jt.jit(sin_affine)
    assert (jitted.__name__, jitted.__wrapped__) == ("sin_affine", sin_affine)


def test_lower_of_a_typed_function_takes_shape_dtype_structs() -> None:
    # Typed: the checkers accept ShapeDtypeStructs where g takes arrays
    # (Note [abstract arguments]), as they accept the arrays themselves.
    def g(x: jt.Array, n: int) -> jt.Array:
        return x * n

    jitted = jt.jit(g, static_argnums=1)
    spec = jt.ShapeDtypeStruct((3,), np.float32)
    compiled = jitted.lower(spec, 2).compile()
    np.testing.assert_array_equal(host(compiled(f32(1.0, 2.0, 3.0), 2)), [2.0, 4.0, 6.0])
    assert str(jitted.trace(spec, 2).jaxpr) == str(jitted.trace(f32(0.0, 0.0, 0.0), 2).jaxpr)


# === threads ===


def test_calls_from_two_threads() -> None:
    def f(x: jt.Array, y: jt.Array) -> jt.Array:
        return jnp.sin(x) * y + x

    jitted = jt.jit(f)
    barrier = threading.Barrier(2)
    results: dict[int, list[np.ndarray[Any, Any]]] = {}
    errors: list[BaseException] = []

    def work(i: int) -> None:
        try:
            x = jnp.asarray(np.full(5, float(i), np.float32))
            y = jnp.float32(i + 1)
            barrier.wait()  # both threads start together, the first call traces
            results[i] = [host(jitted(x, y)) for _ in range(30)]
        except BaseException as err:  # reported in the main thread
            errors.append(err)

    threads = [threading.Thread(target=work, args=(i,)) for i in (1, 2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i in (1, 2):
        expected = np.full(5, np.sin(float(i)) * (i + 1) + i)
        assert len(results[i]) == 30
        for r in results[i]:
            np.testing.assert_allclose(r, expected, rtol=1e-6)
    assert jitted.cache_info().size == 1


def test_tracing_different_signatures_in_threads() -> None:
    jitted: Callable[[jt.Array], jt.Array] = jt.jit(inner)
    out: dict[int, np.ndarray[Any, Any]] = {}

    def work(n: int) -> None:
        out[n] = host(jitted(jnp.asarray(np.arange(n, dtype=np.float32))))

    threads = [threading.Thread(target=work, args=(n,)) for n in (2, 3, 4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for n in (2, 3, 4):
        v = np.arange(n, dtype=np.float32)
        np.testing.assert_array_equal(out[n], v * v + v)


def test_clear_caches_forgets_traces_and_executables() -> None:
    traces: list[int] = []

    def f(x: jt.Array) -> jt.Array:
        traces.append(1)
        return x * 3.0

    jf = jt.jit(f)
    x = jnp.ones(3)
    np.testing.assert_allclose(np.asarray(jf(x)), np.full(3, 3.0))
    jt.clear_caches()
    assert jf.cache_info().size == 0
    np.testing.assert_allclose(np.asarray(jf(x)), np.full(3, 3.0))
    assert len(traces) == 2


def _scales(c: float) -> Callable[[jt.Array], jt.Array]:
    def scale(v: jt.Array) -> jt.Array:
        return v * c

    return scale


def _adds(c: float) -> Callable[[jt.Array], jt.Array]:
    def add(v: jt.Array) -> jt.Array:
        return v + c

    return add


def test_caches_are_dropped_when_memory_mappings_near_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    """Note [mapping pressure]: past half of ``vm.max_map_count``, a compile
    first drops every cached program, so the process recompiles instead of
    aborting inside XLA."""
    from jaxtyped._src.runtime import xla

    jf = jt.jit(_scales(5.0))
    x = jnp.ones(3)
    jf(x)
    assert jf.cache_info().size == 1
    monkeypatch.setattr(xla, "mapping_count_and_cap", lambda: (40_000, 65_530))
    # Fresh programs, so that compiles (and the periodic check) happen.
    for n in range(1, 2 * xla.MAPPING_CHECK_EVERY + 1):
        jt.jit(_adds(float(n)))(jnp.ones(n + 100))
    assert jf.cache_info().size == 0
    np.testing.assert_array_equal(np.asarray(jf(x)), np.full(3, 5.0, np.float32))


def test_caches_are_kept_below_the_mapping_threshold(monkeypatch: pytest.MonkeyPatch) -> None:
    from jaxtyped._src.runtime import xla

    jf = jt.jit(_scales(7.0))
    jf(jnp.ones(3))
    monkeypatch.setattr(xla, "mapping_count_and_cap", lambda: (1_000, 65_530))
    for n in range(1, 2 * xla.MAPPING_CHECK_EVERY + 1):
        jt.jit(_adds(-float(n)))(jnp.ones(n + 200))
    assert jf.cache_info().size == 1


def test_mapping_count_is_read_from_the_system() -> None:
    from jaxtyped._src.runtime import xla

    measured = xla.mapping_count_and_cap()
    if measured is None:
        pytest.skip("the system does not report memory mappings (not Linux)")
    count, cap = measured
    assert 0 < count < cap
