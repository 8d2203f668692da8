"""The index functions of ``jaxtyped.numpy`` against ``jax.numpy``:
``take``/``take_along_axis`` (every mode), ``put``/``put_along_axis``,
``choose``, ``compress``, ``extract``, ``place``, ``nonzero`` and friends
(with and without ``size``), ``select``, ``piecewise``, the index builders,
``fill_diagonal`` and the index-expression objects; traceable ones through
the oracle's one-jit table, the value-dependent ones eagerly; jit, vmap
and grad where they apply; the errors."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.errors import ConcretizationTypeError
from oracle import Case, CaseTable, Group, Namespace, assert_same, call, jax, jax_numpy

X = np.arange(12, dtype=np.float32).reshape(3, 4) - 4.0
XI = X.astype(np.int32)
IDX = np.array([[0, 5], [-1, 2]], np.int32)
MASK = np.array([True, False, True, True])


def _strictly_above(a: Any, k: int) -> Any:
    return a * (a > k)


def _double(v: Any) -> Any:
    return v * 2


def _square(v: Any) -> Any:
    return v * v


def _negate(v: Any) -> Any:
    return -v


def _take_cases() -> list[Case]:
    cases = [
        Case("take-flat", call("take", X, IDX)),
        Case("take-axis1", call("take", X, IDX, axis=1)),
        Case("take-axis0-negative", call("take", X, np.array([-1, -3, -4]), axis=0)),
        Case("take-fill-value", call("take", X, IDX, axis=1, fill_value=-1.0)),
        Case("take-int-fill", call("take", XI, IDX)),
        Case("take-raise", call("take", X, IDX, mode="raise")),
        Case("take-bad-mode", call("take", X, IDX, mode="nope")),
        Case("take-float-indices", call("take", X, np.array([0.0, 1.0]))),
        Case("take-axis-out-of-range", call("take", X, IDX, axis=2)),
    ]
    for mode in ("clip", "wrap", "fill", "promise_in_bounds"):
        cases.append(Case(f"take-mode-{mode}", call("take", X, IDX, axis=0, mode=mode)))
    along = np.array([[0, 3], [5, -1], [2, -9]], np.int32)
    for along_mode in (None, "clip", "fill"):
        cases.append(Case(f"take_along_axis-{along_mode}", call("take_along_axis", X, along, axis=1, mode=along_mode)))
    cases += [
        Case("take_along_axis-axis0", call("take_along_axis", X, np.array([[2, 0, 1, 1]]), axis=0)),
        Case("take_along_axis-none", call("take_along_axis", X, np.array([11, 0, -1]), axis=None)),
        Case("take_along_axis-rank-mismatch", call("take_along_axis", X, np.array([1]), axis=1)),
        Case("put-default", call("put", X, np.array([0, 13, -2, -30]), np.array([9.0, 8.0]), inplace=False)),
        Case("put-clip", call("put", X, np.array([0, 13, -2]), np.array([9.0, 8.0]), mode="clip", inplace=False)),
        Case("put-wrap", call("put", X, np.array([0, 13, -2]), 7.0, mode="wrap", inplace=False)),
        Case("put-inplace", call("put", X, np.array([0]), 1.0)),
        Case("put_along_axis-axis1", call("put_along_axis", X, np.array([[0], [3], [-1]]), 7.0, axis=1, inplace=False)),
        Case("put_along_axis-none", call("put_along_axis", X, np.array([0, 5]), np.array([1.0, 2.0]), axis=None, inplace=False)),
        Case("put_along_axis-inplace", call("put_along_axis", X, np.array([[0]]), 7.0, axis=1)),
    ]
    return cases


def _nonzero_cases() -> list[Case]:
    return [
        Case("nonzero-size", call("nonzero", X > 0, size=10)),
        Case("nonzero-size-fill", call("nonzero", X > 0, size=10, fill_value=-1)),
        Case("nonzero-size-fill-tuple", call("nonzero", X > 0, size=10, fill_value=(-1, -2))),
        Case("nonzero-size-short", call("nonzero", X, size=3)),
        Case("nonzero-size-1d-int", call("nonzero", np.array([0, 3, 0, 1], np.int32), size=4)),
        Case("nonzero-0d", call("nonzero", np.array(1.0), size=1)),
        Case("flatnonzero-size", call("flatnonzero", X > 1, size=7, fill_value=99)),
        Case("argwhere-size", call("argwhere", X > 1, size=7, fill_value=3)),
        Case("where-size", call("where", X > 1, size=4)),
        Case("where-three", call("where", X > 1, X, -X)),
        Case("where-half", lambda L: L.where(X > 1, X)),
        Case("compress-size", call("compress", MASK, X, axis=1, size=4, fill_value=-3.0)),
        Case("compress-size-flat", call("compress", np.array([True, False, True]), X, size=2)),
        Case("extract-size", call("extract", X > 3, X, size=9, fill_value=-2.0)),
        Case("mask_indices-size", lambda L: L.mask_indices(3, _strictly_above, 0, size=9)),
    ]


def _other_cases() -> list[Case]:
    choices = [X, -X, 2 * X]
    which = np.array([[0, 1, 2, 0], [1, 1, 0, 2], [2, 0, 5, -1]], np.int32)
    return [
        Case("choose-wrap", call("choose", which, choices, mode="wrap")),
        Case("choose-clip", call("choose", which, choices, mode="clip")),
        Case("choose-broadcast", call("choose", np.array([0, 1, 1, 0]), [X, np.float32(1.0)], mode="clip")),
        Case("choose-mixed-dtypes", call("choose", np.array([0, 1, 1, 0]), [XI, X], mode="clip")),
        Case("select-first-wins", call("select", [X > 1, X > 3], [X, -X], 7.0)),
        Case("select-int-default", call("select", [X > 1], [XI])),
        Case("select-non-bool", call("select", [XI], [X])),
        Case("select-length-mismatch", call("select", [X > 1], [X, X])),
        Case("piecewise-otherwise", lambda L: L.piecewise(L.asarray(X), [X < 0, X > 5], [_double, _negate, 7.0])),
        Case("piecewise-constants", lambda L: L.piecewise(L.asarray(XI), [X < 0], [1, 2])),
        Case("piecewise-no-otherwise", lambda L: L.piecewise(L.asarray(X), [X < 0, X > 5], [L.sin, L.cos])),
        Case("ix_-ints", call("ix_", np.array([0, 2]), np.array([1, 3, 2]))),
        Case("ix_-bools", call("ix_", np.array([True, False]))),
        Case("indices-dense", lambda L: L.indices((2, 3))),
        Case("indices-sparse", lambda L: L.indices((2, 3), sparse=True)),
        Case("indices-dtype", lambda L: L.indices((2, 3), dtype=L.int16)),
        Case("ravel_multi_index-clip", call("ravel_multi_index", (np.array([1, 5]), np.array([3, -1])), (3, 4), mode="clip")),
        Case("ravel_multi_index-wrap-F", call("ravel_multi_index", (np.array([1, 5]), np.array([3, -1])), (3, 4), mode="wrap", order="F")),
        Case("unravel_index-clips", call("unravel_index", np.array([7, 30, -1, -40]), (3, 4))),
        Case("unravel_index-scalar", lambda L: L.unravel_index(5, (3, 4))),
        Case("diag_indices-3d", lambda L: L.diag_indices(3, 3)),
        Case("diag_indices_from-square", call("diag_indices_from", np.zeros((3, 3)))),
        Case("diag_indices_from-not-square", call("diag_indices_from", X)),
        Case("tril_indices-k", lambda L: L.tril_indices(3, 1, 4)),
        Case("triu_indices-k", lambda L: L.triu_indices(4, -1)),
        Case("tril_indices_from-x", call("tril_indices_from", X)),
        Case("triu_indices_from-x", call("triu_indices_from", X, 1)),
        Case("fill_diagonal-scalar", call("fill_diagonal", X, 9.0, inplace=False)),
        Case("fill_diagonal-cycled", call("fill_diagonal", X, np.array([1.0, 2.0]), inplace=False)),
        Case("fill_diagonal-cube", call("fill_diagonal", np.zeros((2, 2, 2), np.float32), 1.0, inplace=False)),
        Case("fill_diagonal-inplace", call("fill_diagonal", X, 9.0)),
        Case("fill_diagonal-wrap", call("fill_diagonal", X, 9.0, wrap=True, inplace=False)),
        Case("mgrid-int", lambda L: L.mgrid[0:3, 1:5:2]),
        Case("mgrid-linspace", lambda L: L.mgrid[0:1:5j]),
        Case("mgrid-float", lambda L: L.mgrid[0:1:0.25, 0:2]),
        Case("ogrid-int", lambda L: tuple(L.ogrid[0:3, 1:5:2])),
        Case("r_-mixed", lambda L: L.r_[1, 2, np.array([3, 4]), 0:3]),
        Case("r_-linspace", lambda L: L.r_[0:1:3j, 5.0]),
        Case("r_-directive", lambda L: L.r_["0,2", np.array([1, 2]), np.array([3, 4])]),
        Case("r_-directive-axis1", lambda L: L.r_["1,2,0", np.array([1, 2]), np.array([3, 4])]),
        Case("c_-columns", lambda L: L.c_[np.array([1, 2]), np.array([3, 4])]),
        Case("c_-matrix", lambda L: L.c_[np.ones((2, 2), np.float32), np.array([3.0, 4.0], np.float32)]),
        Case("s_-index", lambda L: L.asarray(X)[L.s_[1:, ::2]]),
        Case("index_exp-index", lambda L: L.asarray(X)[L.index_exp[..., 1]]),
    ]


TABLE = CaseTable("index-functions", lambda: [*_take_cases(), *_nonzero_cases(), *_other_cases()])


@pytest.mark.parametrize("group", TABLE.params())
def test_index_functions_match_jax(group: Group) -> None:
    TABLE.check(group)


# === value-dependent results: eager only (JAX raises under jit) ===

EAGER: dict[str, Callable[[Namespace], Any]] = {
    "nonzero": call("nonzero", X > 0),
    "nonzero-int": call("nonzero", XI),
    "nonzero-0d": call("nonzero", np.array(1.0)),
    "flatnonzero": call("flatnonzero", X > 1),
    "argwhere": call("argwhere", X > 1),
    "argwhere-0d": call("argwhere", np.array(2.0)),
    "where-one": call("where", X > 1),
    "compress-axis1": call("compress", MASK, X, axis=1),
    "compress-short": call("compress", np.array([True, False]), X, axis=1),
    "compress-long": call("compress", np.array([True, False, True, False, True]), X, axis=1),
    "compress-flat": call("compress", np.array([True, False, True]), X),
    "extract": call("extract", X > 3, X),
    "place": call("place", X, X > 1, np.array([1.0, 2.0, 3.0]), inplace=False),
    "place-inplace": call("place", X, X > 1, 1.0),
    "choose-raise": call("choose", np.array([0, 1, 1, 0]), [X, -X]),
    "choose-raise-bad": call("choose", np.array([0, 1, 5, 0]), [X, -X]),
    "ravel_multi_index-raise": call("ravel_multi_index", (np.array([1, 2]), np.array([3, 0])), (3, 4)),
    "ravel_multi_index-raise-bad": call("ravel_multi_index", (np.array([1, 3]), np.array([3, 0])), (3, 4)),
    "mask_indices": lambda L: L.mask_indices(3, _strictly_above, 0),
}


@pytest.mark.parametrize("name", list(EAGER))
def test_value_dependent_functions_match_jax_eagerly(name: str) -> None:
    fn = EAGER[name]
    try:
        theirs = fn(jax_numpy)
    except Exception as error:  # noqa: BLE001 - compared with ours
        kind = next(k for k in (TypeError, ValueError, IndexError, NotImplementedError) if isinstance(error, k))
        with pytest.raises(kind):
            fn(jnp)
        return
    assert_same(fn(jnp), theirs)


VALUE_DEPENDENT: list[Callable[[Namespace, Any], Any]] = [
        lambda L, x: L.nonzero(x),
        lambda L, x: L.argwhere(x),
        lambda L, x: L.compress(x > 0, x),
        lambda L, x: L.choose(L.asarray(x > 0, dtype=L.int32), [x, -x]),
]


@pytest.mark.parametrize("fn", VALUE_DEPENDENT, ids=["nonzero", "argwhere", "compress", "choose-raise"])
def test_value_dependent_functions_need_size_under_jit(fn: Callable[[Namespace, Any], Any]) -> None:
    def ours(x: Any) -> Any:
        return fn(jnp, x)

    def theirs(x: Any) -> Any:
        return fn(jax_numpy, x)

    v = np.array([1.0, 0.0, 2.0], np.float32)
    with pytest.raises(ConcretizationTypeError):
        jt.jit(ours)(jnp.asarray(v))
    with pytest.raises(TypeError):
        jax.jit(theirs)(v)


# === transformations ===


def test_take_under_jit_vmap_and_grad_matches_jax() -> None:
    idx = np.array([[0, 3], [1, -1], [7, 2]], np.int32)

    def f(L: Namespace) -> Callable[[Any, Any], Any]:
        return lambda x, i: L.take(x, i, axis=1)

    assert_same(jt.jit(f(jnp))(jnp.asarray(X), jnp.asarray(idx)), jax.jit(f(jax_numpy))(X, idx))
    assert_same(
        jt.vmap(f(jnp), in_axes=(None, 0))(jnp.asarray(X), jnp.asarray(idx)),
        jax.vmap(f(jax_numpy), in_axes=(None, 0))(X, idx),
    )

    def loss(L: Namespace) -> Callable[[Any], Any]:
        return lambda x: L.sum(L.take_along_axis(x, idx[:3, :2], axis=1) * 2.0)

    assert_same(jt.grad(loss(jnp))(jnp.asarray(X)), jax.grad(loss(jax_numpy))(X))


def test_nonzero_with_size_under_jit_and_vmap_matches_jax() -> None:
    def f(L: Namespace) -> Callable[[Any], Any]:
        return lambda x: L.nonzero(x > 0, size=5, fill_value=-1)

    assert_same(jt.jit(f(jnp))(jnp.asarray(X)), jax.jit(f(jax_numpy))(X))
    assert_same(jt.vmap(f(jnp))(jnp.asarray(X)), jax.vmap(f(jax_numpy))(X))


def test_select_piecewise_where_take_choose_fill_diagonal_gradients_match_jax() -> None:
    def select_loss(L: Namespace) -> Callable[[Any], Any]:
        return lambda x: L.sum(L.select([x > 1, x > 3], [x * x, -x], 7.0))

    def piecewise_loss(L: Namespace) -> Callable[[Any], Any]:
        return lambda x: L.sum(L.piecewise(x, [x < 0, x > 5], [_square, _negate, 1.0]))

    def where_loss(L: Namespace) -> Callable[[Any], Any]:
        return lambda x: L.sum(L.where(x > 0, x * x, 2.0 * x))

    def take_loss(L: Namespace) -> Callable[[Any], Any]:
        return lambda x: L.sum(L.take(x, IDX, axis=1, mode="clip") * 3.0) + L.sum(L.choose(XI % 2, [x, x * x], mode="clip"))

    def fill_diagonal_loss(L: Namespace) -> Callable[[Any], Any]:
        return lambda x: L.sum(L.fill_diagonal(x, x[0, 0] * 2.0, inplace=False) ** 2)

    for loss in (select_loss, piecewise_loss, where_loss, take_loss, fill_diagonal_loss):
        assert_same(jt.grad(loss(jnp))(jnp.asarray(X)), jax.grad(loss(jax_numpy))(X))


def test_array_methods_match_jax() -> None:
    methods: list[Callable[[Namespace], Any]] = [
        lambda L: L.asarray(X).take(L.asarray(IDX), axis=1),
        lambda L: L.asarray(X > 0).nonzero(size=3),
        lambda L: L.asarray(np.array([0, 1, 1, 0], np.int32)).choose([L.asarray(X), L.asarray(-X)], mode="clip"),
        lambda L: L.asarray(X).compress(L.asarray(MASK), axis=1, size=3),
    ]
    for fn in methods:
        assert_same(fn(jnp), fn(jax_numpy))
