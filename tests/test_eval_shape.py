"""``jt.eval_shape`` and ``jt.ensure_compile_time_eval`` against JAX."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors

from oracle import jax

Lib = Any  # the jaxtyped or jax module: same API by contract


def shapes_of(tree: Any) -> Any:
    """A ``ShapeDtypeStruct`` pytree as plain ``(shape, dtype, weak_type)`` tuples."""
    if isinstance(tree, dict):
        items: dict[Any, Any] = tree  # pyright: ignore[reportUnknownVariableType]  # a pytree of Any
        return {k: shapes_of(v) for k, v in items.items()}
    if isinstance(tree, (tuple, list)):
        return tuple(shapes_of(v) for v in tree)  # pyright: ignore[reportUnknownVariableType]  # a pytree of Any
    return (tuple(tree.shape), np.dtype(tree.dtype), bool(tree.weak_type))


def _sum0(x: Any) -> Any:
    return x.sum(axis=0)


def _three(x: Any) -> Any:
    return (x, x.sum(), x.astype("int32"))


def _double(x: Any) -> Any:
    return x * 2


def _matmul(x: Any, y: Any) -> Any:
    return x @ y


def _scaled(x: Any, *, scale: Any) -> Any:
    return x * scale


def _as_dict(x: Any) -> Any:
    return {"a": x, "b": x[0]}


def _tree_sum(t: Any) -> Any:
    return t[0] + t[1]["w"]


def _add(x: Any, y: Any) -> Any:
    return x + y


CASES: list[tuple[str, Callable[[Lib], Any]]] = [
    ("struct-sum", lambda L: L.eval_shape(_sum0, L.ShapeDtypeStruct((1000, 3), "float32"))),
    ("tuple-out", lambda L: L.eval_shape(_three, L.ShapeDtypeStruct((2, 3), "float32"))),
    ("python-scalar", lambda L: L.eval_shape(_double, 1.0)),
    ("python-int", lambda L: L.eval_shape(_double, 3)),
    ("array-arg", lambda L: L.eval_shape(_matmul, L.numpy.ones((4, 5)), L.numpy.ones((5, 2)))),
    ("kwargs", lambda L: L.eval_shape(_scaled, L.numpy.ones(3), scale=2)),
    ("dict-out", lambda L: L.eval_shape(_as_dict, L.ShapeDtypeStruct((4, 2), "int32"))),
    ("pytree-in", lambda L: L.eval_shape(_tree_sum, (L.numpy.ones(3), {"w": L.numpy.zeros(3, "float16")}))),
    ("promotion", lambda L: L.eval_shape(_add, L.ShapeDtypeStruct((3,), "int8"), L.ShapeDtypeStruct((3,), "uint8"))),
]


@pytest.mark.parametrize(("name", "case"), CASES, ids=[name for name, _ in CASES])
def test_eval_shape_matches_jax(name: str, case: Callable[[Lib], Any]) -> None:
    assert shapes_of(case(jt)) == shapes_of(case(jax))


def test_eval_shape_returns_shape_dtype_structs_and_computes_nothing() -> None:
    calls: list[int] = []

    def f(x: jt.Array) -> jt.Array:
        calls.append(1)
        return jnp.zeros((10**6, 10**6)) @ x  # far too big to compute

    out = jt.eval_shape(f, jt.ShapeDtypeStruct((10**6, 3), "float32"))
    assert isinstance(out, jt.ShapeDtypeStruct)
    assert out.shape == (10**6, 3) and out.dtype == np.float32
    assert calls == [1]


def test_eval_shape_errors_like_jax() -> None:
    def bad(x: Any) -> Any:
        return x + x[:2]

    with pytest.raises(TypeError):
        jax.eval_shape(bad, jax.ShapeDtypeStruct((3,), "float32"))
    with pytest.raises(TypeError, match=r"f32\[3\]"):
        jt.eval_shape(bad, jt.ShapeDtypeStruct((3,), "float32"))
    with pytest.raises(TypeError, match="eval_shape"):
        jt.eval_shape(3, 1.0)  # type: ignore[call-overload]  # pyright: ignore[reportArgumentType, reportCallIssue]  # the misuse under test


def compile_time_program(L: Lib) -> Callable[[Any], Any]:
    def f(x: Any) -> Any:
        with L.ensure_compile_time_eval():
            n = int(L.numpy.sum(L.numpy.arange(4)))  # concrete inside jit
            table = L.numpy.sin(L.numpy.arange(3.0))
            biggest = table[int(L.numpy.argmax(table))]
            staged = x + 1  # still traced
        return staged * n + biggest

    return f


def test_ensure_compile_time_eval_under_jit_matches_jax() -> None:
    ours = jt.jit(compile_time_program(jt))(jnp.float32(2.0))
    theirs = jax.jit(compile_time_program(jax))(jax.numpy.float32(2.0))
    assert ours.dtype == theirs.dtype and ours.weak_type == theirs.weak_type
    np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-6)


def test_ensure_compile_time_eval_values_are_concrete_and_tracers_stay_staged() -> None:
    seen: list[object] = []

    def f(x: jt.Array) -> jt.Array:
        with jt.ensure_compile_time_eval():
            y = jnp.sin(jnp.float32(3.0))
            z = x + 1
            seen.extend([y, z])
        return z + y

    jaxpr = jt.make_jaxpr(f)(jnp.float32(1.0))
    y, z = seen
    assert type(y).__name__ == "ArrayImpl" and float(y) == pytest.approx(np.sin(3.0), rel=1e-6)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # an Array
    assert not type(z).__name__ == "ArrayImpl"
    # The sine was computed at trace time: only the two additions are staged.
    assert "sin" not in [str(e.primitive) for e in jaxpr.jaxpr.eqns]


def test_ensure_compile_time_eval_under_grad_and_vmap() -> None:
    def f(x: jt.Array) -> jt.Array:
        with jt.ensure_compile_time_eval():
            scale = jnp.float32(float(jnp.sum(jnp.arange(3.0))))  # 3.0, concrete
            out = jnp.sin(x) * scale  # x is traced: differentiated and batched
        return out

    xs = jnp.arange(3.0)
    np.testing.assert_allclose(np.asarray(jt.vmap(jt.grad(f))(xs)), 3.0 * np.cos(np.arange(3.0)), rtol=1e-6)


def test_ensure_compile_time_eval_at_top_level_is_a_no_op() -> None:
    with jt.ensure_compile_time_eval():
        x = jnp.arange(3) * 2
    assert x.tolist() == [0, 2, 4]


def test_errors_module_still_imports() -> None:
    assert issubclass(errors.JaxtypedTypeError, TypeError)
