"""Run-time side of the fixes the second typing-corpus round made (issue
20), each compared with JAX: ``precision=`` on ``jnp.dot``/``matmul``/
``einsum``; ``jt.scipy.stats``/``special``/``linalg`` reachable as
attributes after ``import jaxtyped``; the placement methods ``Array``
declares for the checkers (``block_until_ready``, ``devices``,
``sharding``) on concrete arrays, and their absence on traced ones;
Python's ``round`` of an array; and tree_unflatten of a structure
rebuilding the tree (its types are in typing/*/..._corpus2.py)."""

from typing import Any

import numpy as np
import pytest
from oracle import Case, CaseTable, Group, assert_same, expect_same_error, host, jax, jax_numpy, library

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.lax import PrecisionLike
from jaxtyped.tree_util import KeyPath, keystr
from jaxtyped.typing import Array

A = host("float32", np.arange(6.0).reshape(2, 3) / 7)
B = host("float32", np.arange(12.0).reshape(3, 4) / 5)


def lax(L: Any) -> Any:
    """The lax module of the library ``L`` belongs to."""
    return library(L).lax


def _products() -> list[Case]:
    return [
        Case("dot-highest", lambda L: L.dot(L.asarray(A), L.asarray(B), precision=lax(L).Precision.HIGHEST)),
        Case("dot-name", lambda L: L.dot(L.asarray(A), L.asarray(B), precision="highest")),
        Case("matmul-pair", lambda L: L.matmul(L.asarray(A), L.asarray(B), precision=("default", "highest"))),
        Case("einsum-highest", lambda L: L.einsum("ij,jk->ik", L.asarray(A), L.asarray(B), precision="highest")),
        Case("einsum-none", lambda L: L.einsum("ij,jk->ik", L.asarray(A), L.asarray(B), precision=None)),
    ]


PRODUCTS = CaseTable("precision", _products)


@pytest.mark.parametrize("group", PRODUCTS.params())
def test_precision_is_accepted_as_jax_does(group: Group) -> None:
    PRODUCTS.check(group)


@pytest.mark.parametrize("name", ["dot", "matmul"])
# Well-typed but unknown values: an ill-typed one is the debug mode's to refuse.
@pytest.mark.parametrize("bad", ["bad", ("highest", "nope")])
def test_a_bad_precision_is_refused_as_jax_does(name: str, bad: PrecisionLike) -> None:
    with pytest.raises(Exception) as theirs:
        getattr(jax_numpy, name)(jax_numpy.asarray(A), jax_numpy.asarray(B), precision=bad)
    expect_same_error(theirs.value, lambda: getattr(jnp, name)(jnp.asarray(A), jnp.asarray(B), precision=bad))
    with pytest.raises(Exception) as theirs:
        jax_numpy.einsum("ij,jk->ik", jax_numpy.asarray(A), jax_numpy.asarray(B), precision=bad)
    expect_same_error(theirs.value, lambda: jnp.einsum("ij,jk->ik", jnp.asarray(A), jnp.asarray(B), precision=bad))


def test_scipy_submodules_are_attributes_of_the_package() -> None:
    x = host("float32", [0.5, 1.5])
    assert_same(jt.scipy.stats.norm.logpdf(jnp.asarray(x), 0.0, 2.0), jax.scipy.stats.norm.logpdf(x, 0.0, 2.0))
    assert_same(jt.scipy.special.gammaln(jnp.asarray(x)), jax.scipy.special.gammaln(x))
    assert_same(jt.scipy.linalg.expm(jnp.zeros((2, 2))), jax.scipy.linalg.expm(jax_numpy.zeros((2, 2))))
    assert {"linalg", "special", "stats"} <= set(dir(jt.scipy))
    with pytest.raises(AttributeError):
        getattr(jt.scipy, "no_such_module")  # noqa: B009 - the attribute access is the test


def test_placement_methods_of_a_concrete_array() -> None:
    ours, theirs = jnp.arange(3.0), jax_numpy.arange(3.0)
    assert ours.block_until_ready() is ours
    assert len(ours.devices()) == len(theirs.devices()) == 1
    assert ours.sharding.is_fully_replicated == theirs.sharding.is_fully_replicated
    assert jt.random.key(0).block_until_ready().shape == ()


@pytest.mark.parametrize("transform", ["jit", "vmap"])
def test_placement_methods_of_a_traced_array_fail_as_jax_does(transform: str) -> None:
    seen: dict[str, list[type[BaseException]]] = {"jaxtyped": [], "jax": []}

    def probe(name: str, api: Any) -> Any:
        def f(x: Any) -> Any:
            attempts: list[Any] = [lambda: x.block_until_ready(), lambda: x.sharding]
            for attempt in attempts:
                try:
                    attempt()
                except Exception as err:  # noqa: BLE001 - the kind is what is compared
                    seen[name].append(type(err))
            # Declared for the checkers only: a tracer has no devices() (JAX's
            # raises a concretization error when called).
            assert not hasattr(x, "devices") or name == "jax"
            return x

        return getattr(api, transform)(f)

    probe("jaxtyped", jt)(jnp.ones((2, 3)))
    probe("jax", jax)(jax_numpy.ones((2, 3)))
    assert len(seen["jax"]) == len(seen["jaxtyped"]) == 2
    for ours, theirs in zip(seen["jaxtyped"], seen["jax"]):
        assert issubclass(ours, AttributeError) and issubclass(theirs, AttributeError), (ours, theirs)


def is_kernel(path: KeyPath, x: object) -> bool:
    return keystr(path).endswith("['w']")


def test_unflatten_of_a_structure_rebuilds_the_tree_as_jax() -> None:
    tree: dict[str, Any] = {
        "dense": {"w": np.ones((2, 3), np.float32), "b": np.zeros(3, np.float32)}, "out": [np.ones(2, np.float32)]
    }
    ours_leaves, ours_def = jt.tree.flatten(jt.tree.map(jnp.asarray, tree))
    theirs_leaves, theirs_def = jax.tree.flatten(jax.tree.map(jax_numpy.asarray, tree))
    doubled: list[Array] = [leaf * 2 for leaf in ours_leaves]
    ours = jt.tree.unflatten(jt.tree.structure(tree), doubled)
    theirs = jax.tree.unflatten(jax.tree.structure(tree), [leaf * 2 for leaf in theirs_leaves])
    assert_same(ours, theirs, tree=True)
    assert ours_def == jt.tree.structure(tree) and theirs_def == jax.tree.structure(tree)
    assert jt.tree.map_with_path(is_kernel, tree) == jax.tree.map_with_path(is_kernel, tree)


ROUNDED = host("float32", [1.5, 2.5, -0.4, 2.567, -3.5])


@pytest.mark.parametrize("ndigits", [None, 0, 1, 2])
@pytest.mark.parametrize("dtype", ["float32", "int32", "bfloat16"])
def test_builtin_round_as_jax(ndigits: int | None, dtype: str) -> None:
    values = ROUNDED.astype(jnp.dtype(dtype))
    assert_same(round(jnp.asarray(values), ndigits), round(jax_numpy.asarray(values), ndigits), rtol=1e-2)


def test_builtin_round_of_a_scalar_is_an_integer_array_as_jax() -> None:
    # (round(x, n) of a 0-d array is JAX's weakly typed float: jnp.round's business.)
    for value in ROUNDED:
        assert_same(round(jnp.asarray(value)), round(jax_numpy.asarray(value)))


def builtin_round(v: Any) -> Any:
    return round(v)


def test_builtin_round_under_jit_as_jax() -> None:
    assert_same(jt.jit(builtin_round)(jnp.asarray(ROUNDED)), jax.jit(builtin_round)(jax_numpy.asarray(ROUNDED)))
