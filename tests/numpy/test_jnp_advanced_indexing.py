"""NumPy advanced indexing, ``x[idx]`` with integer arrays, lists, boolean
masks mixed with slices, ``None``, ``...`` and scalars, against JAX through
the oracle: values, shapes, dtypes, weak types, out-of-bounds clamping,
negative wrapping; the same under jit, vmap (operand, indices, both), jvp
and grad (the gather's transpose) against JAX; and the errors."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import NonConcreteBooleanIndexError
from oracle import Case, CaseTable, Group, Namespace, assert_same, jax, jax_numpy

X = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
I2 = np.array([[0, 2], [-1, 1]], np.int32)
J = np.array([1, -4], np.int32)
FAR = np.array([5, -7, 2, 100], np.int32)  # out of bounds: clamped, as JAX's default gather

INDICES: dict[str, Any] = {
    "matrix": (I2,),
    "after-slice": (slice(None), I2),
    "two-adjacent": (I2, J),
    "separated-by-slice": (I2, slice(None), J),
    "slice-before-and-none": (slice(1, 3), I2, None),
    "strided-slice": (slice(None, None, 2), J),
    "none-first": (None, I2, 1),
    "scalar-slice-array": (1, slice(None), J),
    "ellipsis-last": (Ellipsis, J),
    "ellipsis-after": (I2, Ellipsis),
    "list": ([0, 1],),
    "two-lists": ([0, 1], [1, 2]),
    "nested-list": ([[0, 1], [2, 0]], slice(None), 3),
    "mask-2d": (X[:, :, 0] > 20,),
    "mask-then-int": (np.array([True, False, True]), 0),
    "mask-after-ellipsis": (Ellipsis, np.array([True, False, True, False, True])),
    "reversed": (slice(None, None, -1), J, slice(1, 4, 2)),
    "int-none-array-reversed": (2, None, J, slice(3, 0, -1)),
    "scalar-array": (np.array(1), J),
    "empty-slice": ([[0, 1]], slice(0, 0)),
    "out-of-bounds": (FAR,),
    "out-of-bounds-inner": (0, slice(None), FAR),
    "int8": (np.array([1, -1], np.int8),),
    "uint8": (np.array([2, 0], np.uint8), np.array([3], np.uint8)),
    "int16-broadcast": (np.array([[0], [2]], np.int16), np.array([0, 3, 4], np.int32)),
    "empty-array": (np.zeros((0,), np.int32),),
}


def _as(L: Namespace, item: Any) -> Any:
    """NumPy index arrays as arrays of ``L`` (lists and masks of NumPy
    stay host values: both libraries accept them)."""
    if isinstance(item, np.ndarray):
        host: np.ndarray[Any, Any] = item  # pyright: ignore[reportUnknownVariableType]  # an index array
        return host if host.dtype == np.bool_ else L.asarray(host)
    return item


def _getitem(name: str, x: np.ndarray[Any, Any], convert: bool) -> Case:
    index = INDICES[name]

    def fn(L: Namespace) -> Any:
        items = tuple(_as(L, i) for i in index) if convert else index
        return L.asarray(x)[items]

    return Case(f"{name.replace('-', '_')}{'' if convert else '_host'}-", fn)


def _cases() -> list[Case]:
    cases = [_getitem(name, X, convert) for name in INDICES for convert in (True, False)]
    weak = Case("weak-", lambda L: L.full((4, 5), 2.0)[np.array([0, 3]), 1:])
    ints = Case("dtypes-int", lambda L: L.asarray(X.astype(np.int16))[np.array([2, 0])])
    bools = Case("dtypes-bool", lambda L: L.asarray(X > 30)[np.array([2, 0]), :, 1])
    bf16 = Case("dtypes-bfloat16", lambda L: L.asarray(X.astype(jnp.bfloat16))[:, J])
    empty = [
        Case("empty_axis-no-indices", lambda L: L.zeros((0, 3))[np.zeros(0, np.int32)]),
        Case("empty_axis-empty-batch", lambda L: L.zeros((0, 3))[np.zeros((2, 0), np.int32), None]),
        Case("empty_axis-some-index", lambda L: L.zeros((0, 3))[np.array([0])]),
        Case("empty_axis-at-add", lambda L: L.zeros((0, 3)).at[np.zeros(0, np.int32)].add(1.0)),
    ]
    return [*cases, weak, ints, bools, bf16, *empty]


TABLE = CaseTable("advanced-indexing", _cases)


@pytest.mark.parametrize("group", TABLE.params())
def test_getitem_matches_jax(group: Group) -> None:
    TABLE.check(group)


# === jit, vmap, jvp, grad ===

TRACEABLE = [name for name in INDICES if not name.startswith("mask")]


def _host_arrays(index: tuple[Any, ...]) -> list[np.ndarray[Any, Any]]:
    return [i for i in index if isinstance(i, np.ndarray)]


@pytest.mark.parametrize("name", TRACEABLE)
def test_jit_matches_eager(name: str) -> None:
    index = INDICES[name]
    x = jnp.asarray(X)
    arrays = [jnp.asarray(i) for i in _host_arrays(index)]

    def f(x: jt.Array, *arrays: jt.Array) -> jt.Array:
        it = iter(arrays)
        return x[tuple(next(it) if isinstance(i, np.ndarray) else i for i in index)]

    jitted, eager = jt.jit(f)(x, *arrays), f(x, *arrays)
    assert (jitted.shape, jitted.dtype, jitted.weak_type) == (eager.shape, eager.dtype, eager.weak_type)
    np.testing.assert_array_equal(np.asarray(jitted), np.asarray(eager))


def test_gather_jaxpr_looks_like_jax() -> None:
    def f(x: Any, i: Any) -> Any:
        return x[i]

    ours = str(jt.make_jaxpr(f)(jnp.asarray(X), jnp.asarray(I2)))
    theirs = str(jax.make_jaxpr(f)(X, I2))
    for part in ("offset_dims=(2, 3)", "collapsed_slice_dims=(0,)", "start_index_map=(0,)", "slice_sizes=(1, 4, 5)"):
        assert part in ours and part in theirs
    assert "mode=GatherScatterMode.PROMISE_IN_BOUNDS" in ours


def test_vmap_batched_operand_indices_and_both() -> None:
    xs, idx = X, np.array([[0, 3], [1, 1], [-1, 2]], np.int32)

    def f(x: Any, i: Any) -> Any:
        return x[i, 1:]

    for in_axes in ((0, None), (None, 0), (0, 0)):
        i_arg = idx if in_axes[1] == 0 else idx[0]
        ours = jt.vmap(f, in_axes=in_axes)(jnp.asarray(xs), jnp.asarray(i_arg))
        theirs = jax.vmap(f, in_axes=in_axes)(jax_numpy.asarray(xs), jax_numpy.asarray(i_arg))
        assert_same(ours, theirs)


@pytest.mark.parametrize("name", ["two-adjacent", "separated-by-slice", "strided-slice", "out-of-bounds", "list"])
def test_grad_and_jvp_match_jax(name: str) -> None:
    index = INDICES[name]
    weights = np.linspace(-1.0, 2.0, X[index].size, dtype=np.float32).reshape(X[index].shape) if name != "out-of-bounds" else None

    def loss(L: Namespace) -> Callable[..., Any]:
        def f(x: Any) -> Any:
            y = x[index]
            return L.sum(y * (weights if weights is not None else 1.0))

        return f

    assert_same(jt.grad(loss(jnp))(jnp.asarray(X)), jax.grad(loss(jax_numpy))(X))
    def indexed(x: Any) -> Any:
        return x[index]

    tangent = np.ones_like(X)
    ours = jt.jvp(indexed, (jnp.asarray(X),), (jnp.asarray(tangent),))
    theirs = jax.jvp(indexed, (X,), (tangent,))
    assert_same(ours, theirs)


# === errors ===


def test_traced_boolean_mask_names_the_fix() -> None:
    def traced_mask(x: Any) -> Any:
        return x[x > 3]

    def host_mask(x: Any) -> Any:
        return x[X > 40]

    x = jnp.asarray(X)
    with pytest.raises(NonConcreteBooleanIndexError, match="nonzero"):
        jt.jit(traced_mask)(x)
    with pytest.raises(IndexError):
        jax.jit(traced_mask)(X)
    assert issubclass(NonConcreteBooleanIndexError, IndexError)
    # A concrete NumPy mask is fine under jit.
    assert_same(jt.jit(host_mask)(x), jax.jit(host_mask)(X))


@pytest.mark.parametrize(
    "index",
    [
        pytest.param((np.array([0, 1]), np.array([0, 1, 2])), id="incompatible-shapes"),
        pytest.param((np.array([True, False]),), id="mask-shape"),
        pytest.param((np.array([0.0, 1.0]),), id="float-array"),
        pytest.param((np.array([0]), np.array([0]), np.array([0]), np.array([0])), id="too-many"),
        pytest.param(([0.5, 1],), id="float-list"),
    ],
)
def test_errors_match_jax_kind(index: tuple[Any, ...]) -> None:
    with pytest.raises(Exception) as theirs:
        jax_numpy.asarray(X)[index]
    kind = next(k for k in (TypeError, ValueError, IndexError) if isinstance(theirs.value, k))
    with pytest.raises(kind):
        jnp.asarray(X)[index]


def test_bare_list_is_rejected_as_in_jax() -> None:
    with pytest.raises(TypeError, match="non-tuple sequence"):
        jnp.asarray(X)[[0, 1]]  # a list is a valid index type inside a tuple only; rejected at run time
