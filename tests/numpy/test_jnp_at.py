"""``x.at[idx].op(...)`` against JAX through the oracle: every operation
and mode, duplicate indices, out-of-bounds and negative indices, dtypes and
weak types; under jit and vmap (operand, indices, both); jvp and grad with
respect to operand and values (``set``'s winner, ``max``'s ties)."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from oracle import Case, CaseTable, Group, Namespace, assert_same, jax, jax_numpy

X = np.arange(20, dtype=np.float32).reshape(4, 5) - 7.0
DUP = np.array([0, 2, 2, -1, 9, -9], np.int32)  # repeats, negative, out of bounds both ways
V = (np.arange(30, dtype=np.float32).reshape(6, 5) % 7) - 2.0
XI = X.astype(np.int32)
OPS = ("set", "add", "subtract", "multiply", "mul", "divide", "power", "min", "max")
MODES = (None, "clip", "drop", "promise_in_bounds", "fill")


def _op(op: str, index: Any, values: Any, x: np.ndarray[Any, Any] = X, **kw: Any) -> Any:
    def fn(L: Namespace) -> Any:
        ref = L.asarray(x).at[tuple(L.asarray(i) if isinstance(i, np.ndarray) else i for i in index)]
        return getattr(ref, op)(L.asarray(values) if isinstance(values, np.ndarray) else values, **kw)

    return fn


def _cases() -> list[Case]:
    cases: list[Case] = []
    for op in OPS:
        in_bounds = "clip" if op == "power" else None  # power of duplicates: products of updates
        cases += [
            Case(f"{op}-duplicates", _op(op, (DUP,), V)),
            Case(f"{op}-scalar-row", _op(op, (1, DUP[:3]), 2.0)),
            Case(f"{op}-slices", _op(op, (slice(None), slice(1, 3)), 2.0, mode=in_bounds)),
            Case(f"{op}-strided", _op(op, (slice(None, None, 2), -1), np.array([3.0, 4.0], np.float32))),
            Case(f"{op}-int", _op(op, (2,), 1.5)),
            Case(f"{op}-int-out-of-bounds", _op(op, (7,), 1.5)),
        ]
        for mode in MODES[1:4]:
            cases.append(Case(f"{op}-mode-{mode}", _op(op, (DUP[:5],), V[:5], mode=mode)))
    for get_mode in MODES:
        cases.append(Case(f"get-mode-{get_mode}", _get(get_mode)))
    cases += [
        Case("get-fill-value", _get("fill", fill_value=-1.0)),
        Case("get-fill-int", lambda L: L.asarray(X.astype(np.int32)).at[L.asarray(DUP)].get(mode="fill")),
        Case("get-fill-uint", lambda L: L.asarray(X.astype(np.uint8)).at[L.asarray(DUP)].get(mode="fill")),
        Case("get-fill-bool", lambda L: L.asarray(X > 0).at[L.asarray(DUP)].get(mode="fill")),
        Case("apply-unique", lambda L: L.asarray(X).at[L.asarray(np.array([0, 3]))].apply(L.sin)),
        Case("apply-duplicates", lambda L: L.asarray(X).at[L.asarray(DUP), ::2].apply(_times_ten)),
        Case("apply-int-mode-clip", lambda L: L.asarray(XI).at[L.asarray(DUP)].apply(L.negative, mode="clip")),
        Case("weak-set", lambda L: L.full((4,), 1.0).at[1].set(5)),
        Case("weak-add-strong-values", lambda L: L.full((4,), 1.0).at[1].add(L.float32(2))),
        Case("dtypes-int-set", _op("set", (DUP,), 3, X.astype(np.int32))),
        Case("dtypes-int-divide", _op("divide", (DUP[:2],), 2, X.astype(np.int32))),
        Case("dtypes-int-min", _op("min", (DUP,), -20, X.astype(np.int32))),
        Case("dtypes-bool-set", _op("set", (DUP,), False, X > 0)),
        Case("dtypes-bool-max", _op("max", (DUP,), True, X > 0)),
        Case("dtypes-bool-add", _op("add", (DUP,), True, X > 0)),
        Case("dtypes-float16-add", _op("add", (DUP,), np.ones((6, 5), np.float16), X.astype(np.float16))),
        Case("dtypes-bfloat16-max", _op("max", (DUP,), 1.0, X.astype(jnp.bfloat16))),
        Case("dtypes-int8-index", _op("add", (np.array([1, -1, 1], np.int8),), 1.0)),
        Case("dtypes-complex-max", _op("max", (DUP,), (V + 1j * V[::-1]).astype(np.complex64), (X + 0j).astype(np.complex64))),
        Case("dtypes-complex-min", _op("min", (DUP,), (V - 1j * V).astype(np.complex64), (X + 1j).astype(np.complex64))),
        Case("broadcast-row", _op("set", (np.array([[0], [2]]), np.array([1, 3])), np.array([5.0, 6.0], np.float32))),
        Case("broadcast-bad", _op("set", (np.array([0, 1]),), np.ones((3, 5), np.float32))),
        Case("mask", lambda L: L.asarray(X).at[X > 3].set(0.0)),
        Case("none", _op("add", (None, DUP[:2]), 1.0)),
    ]
    return cases


def _times_ten(v: Any) -> Any:
    return v * 10


def _get(mode: str | None, **kw: Any) -> Any:
    def fn(L: Namespace) -> Any:
        return L.asarray(X).at[L.asarray(DUP), 1:].get(mode=mode, **kw)

    return fn


TABLE = CaseTable("index-update", _cases)


@pytest.mark.parametrize("group", TABLE.params())
def test_at_matches_jax(group: Group) -> None:
    TABLE.check(group)


# === jit and vmap ===


@pytest.mark.parametrize("op", OPS)
def test_jit_matches_jax(op: str) -> None:
    def f(x: Any, i: Any, v: Any) -> Any:
        return getattr(x.at[i], op)(v)

    ours = jt.jit(f)(jnp.asarray(X), jnp.asarray(DUP), jnp.asarray(V))
    theirs = jax.jit(f)(X, DUP, V)
    assert_same(ours, theirs)


@pytest.mark.parametrize("op", ["min", "max"])
def test_complex_min_max_under_jit_order_lexicographically_like_jax(op: str) -> None:
    x = (X + 1j * X[::-1]).astype(np.complex64)
    v = (V + 1j * V[::-1]).astype(np.complex64)
    v[1] = x[0] + 0.5j  # a tie in the real part

    def f(x: Any, v: Any) -> Any:
        return getattr(x.at[DUP], op)(v)

    assert_same(jt.jit(f)(jnp.asarray(x), jnp.asarray(v)), jax.jit(f)(x, v))


def test_apply_under_jit_and_vmap_applies_once_per_index_like_jax() -> None:
    def f(x: Any, i: Any) -> Any:
        return x.at[i].apply(_times_ten)

    idx = np.array([[1, 1, 0], [3, -1, 3], [2, 2, 2]], np.int32)
    assert_same(jt.jit(f)(jnp.asarray(X), jnp.asarray(idx[0])), jax.jit(f)(X, idx[0]))
    assert_same(
        jt.vmap(f, in_axes=(None, 0))(jnp.asarray(X), jnp.asarray(idx)),
        jax.vmap(f, in_axes=(None, 0))(jax_numpy.asarray(X), jax_numpy.asarray(idx)),
    )


@pytest.mark.parametrize("in_axes", [(0, None, None), (None, 0, None), (0, 0, 0), (None, 0, 0)])
@pytest.mark.parametrize("op", ["set", "add", "max"])
def test_vmap_matches_jax(op: str, in_axes: tuple[int | None, ...]) -> None:
    xs = np.stack([X, X * 2, -X])
    idx = np.array([[0, 1], [3, 3], [-1, 7]], np.int32)
    vals = np.arange(30, dtype=np.float32).reshape(3, 2, 5)
    args = [a if ax == 0 else a[0] for a, ax in zip((xs, idx, vals), in_axes)]

    def f(x: Any, i: Any, v: Any) -> Any:
        return getattr(x.at[i], op)(v)

    ours = jt.vmap(f, in_axes=in_axes)(*(jnp.asarray(a) for a in args))
    theirs = jax.vmap(f, in_axes=in_axes)(*(jax_numpy.asarray(a) for a in args))
    assert_same(ours, theirs)


# === derivatives ===

GRAD_OPS = ["set", "add", "subtract", "min", "max", "get"]


@pytest.mark.parametrize("op", GRAD_OPS)
def test_grad_wrt_operand_and_values_matches_jax(op: str) -> None:
    # Ties: X has the values 1 and -2 that V also holds; indices repeat.
    idx = DUP

    def loss(L: Namespace) -> Callable[[Any, Any], Any]:
        weights = np.linspace(-1.0, 1.0, 20, dtype=np.float32).reshape(4, 5) if op != "get" else 1.0

        def f(x: Any, v: Any) -> Any:
            if op == "get":
                return L.sum(x.at[idx].get(mode="fill", fill_value=0.0) * v)
            return L.sum(getattr(x.at[idx], op)(v) * weights)

        return f

    ours = jt.grad(loss(jnp), argnums=(0, 1))(jnp.asarray(X), jnp.asarray(V))
    theirs = jax.grad(loss(jax_numpy), argnums=(0, 1))(X, V)
    assert_same(ours, theirs)


def test_max_ties_share_the_gradient_like_jax() -> None:
    x = np.arange(5, dtype=np.float32)
    idx = np.array([1, 1, 2], np.int32)
    v = np.array([1.0, 1.0, 2.0], np.float32)

    def f(L: Namespace) -> Callable[[Any, Any], Any]:
        return lambda x, v: L.sum(x.at[idx].max(v))

    assert_same(jt.grad(f(jnp), argnums=(0, 1))(jnp.asarray(x), jnp.asarray(v)), jax.grad(f(jax_numpy), argnums=(0, 1))(x, v))


def test_multiply_gradient_wrt_operand_with_repeats_and_values_when_unique() -> None:
    x = np.arange(5, dtype=np.float32)

    def f(L: Namespace, unique: bool) -> Callable[[Any, Any], Any]:
        idx = np.array([1, 3], np.int32) if unique else np.array([1, 1, 2], np.int32)
        v = np.array([2.0, 3.0], np.float32) if unique else np.array([2.0, 3.0, 4.0], np.float32)
        if unique:
            return lambda x, w: L.sum(x.at[idx].multiply(w * v, unique_indices=True))
        return lambda x, w: L.sum(x.at[idx].multiply(v) * w)

    for unique in (True, False):
        ours = jt.grad(f(jnp, unique), argnums=(0, 1))(jnp.asarray(x), jnp.float32(1.5))
        theirs = jax.grad(f(jax_numpy, unique), argnums=(0, 1))(x, np.float32(1.5))
        assert_same(ours, theirs)
    with pytest.raises(NotImplementedError):
        jt.grad(_multiply_repeated)(jnp.ones(2))


def _multiply_repeated(v: jt.Array) -> jt.Array:
    return jnp.sum(jnp.arange(5.0).at[np.array([1, 1])].multiply(v))


def test_jvp_of_set_matches_jax() -> None:
    def f(x: jt.Array, v: jt.Array) -> jt.Array:
        return x.at[DUP].set(v)

    t = (np.ones_like(X), np.arange(30, dtype=np.float32).reshape(6, 5))
    ours = jt.jvp(f, (jnp.asarray(X), jnp.asarray(V)), (jnp.asarray(t[0]), jnp.asarray(t[1])))
    theirs = jax.jvp(f, (X, V), t)
    assert_same(ours, theirs)


def test_at_helpers_have_jax_like_reprs_and_are_arrays_methods() -> None:
    x = jnp.zeros(3)
    assert "IndexUpdate" in repr(x.at) and "IndexUpdate" in repr(x.at[0])
    with pytest.raises(TypeError):
        x.at[0].set("a")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # deliberately ill-typed
