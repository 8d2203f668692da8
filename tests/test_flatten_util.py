"""``jaxtyped.flatten_util.ravel_pytree`` against ``jax.flatten_util``:
values, dtypes and weak types of the flat vector and of the rebuilt tree for
trees of one dtype, of mixed dtypes and without leaves; the rebuilding
function's dtype polymorphism, its errors, its use as a static argument of
``jit``, and derivatives through both directions."""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownVariableType=false
# (the cases are functions over either library, untyped by design)

import importlib
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pytest
from oracle import assert_same, debug_violations, jax, jax_numpy

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors
from jaxtyped.flatten_util import ravel_pytree

jax_flatten_util: Any = importlib.import_module("jax.flatten_util")


class Pair(NamedTuple):
    first: Any
    second: Any


Tree = Callable[[Any], object]  # numpy namespace -> a pytree

TREES: dict[str, Tree] = {
    "dict of float32": lambda np_: {"w": np_.ones((2, 3)), "b": np_.arange(3.0)},
    "mixed dtypes": lambda np_: [np_.arange(3), np_.ones(2, np_.float32), np_.array([True, False])],
    "python scalars": lambda np_: (1.0, 2, np_.ones(2)),
    "one python float": lambda np_: 1.5,
    "namedtuple and None": lambda np_: Pair(np_.ones((2, 2)), {"x": None, "y": np_.zeros(1, np_.int32)}),
    "no leaves": lambda np_: {"a": (), "b": None},
    "complex and float": lambda np_: [np_.ones(2, np_.complex64), np_.arange(2.0)],
}


@pytest.mark.parametrize("name", list(TREES))
def test_ravel_and_unravel_as_jax(name: str) -> None:
    flat, unravel = ravel_pytree(TREES[name](jnp))
    jax_flat, jax_unravel = jax_flatten_util.ravel_pytree(TREES[name](jax_numpy))
    assert_same(flat, jax_flat)
    rebuilt, jax_rebuilt = unravel(flat), jax_unravel(jax_flat)
    assert type(rebuilt) is type(jax_rebuilt) or isinstance(rebuilt, jt.Array)
    ours_leaves = jt.tree_util.tree_leaves(rebuilt)
    theirs_leaves: list[Any] = jax.tree_util.tree_leaves(jax_rebuilt)
    for a, b in zip(ours_leaves, theirs_leaves, strict=True):
        assert_same(a, b)


def test_one_dtype_unravel_keeps_the_vector_dtype() -> None:
    """A tree of one dtype gives a dtype-polymorphic unravel (JAX's issue
    7809): a float16 vector comes back as float16 leaves."""
    _, unravel = ravel_pytree({"a": jnp.ones(2), "b": jnp.ones(1)})
    _, jax_unravel = jax_flatten_util.ravel_pytree({"a": jax_numpy.ones(2), "b": jax_numpy.ones(1)})
    half = np.arange(3, dtype=np.float16)
    ours: Any = unravel(jnp.asarray(half))
    theirs: Any = jax_unravel(jax_numpy.asarray(half))
    assert_same(ours["a"], theirs["a"])
    assert_same(ours["b"], theirs["b"])


def test_unravel_errors() -> None:
    """A mixed-dtype unravel refuses another dtype with JAX's TypeError; a
    vector of the wrong length raises a ValueError naming the shapes (JAX
    fails inside split)."""
    _, unravel = ravel_pytree([jnp.arange(2), jnp.ones(1)])
    _, jax_unravel = jax_flatten_util.ravel_pytree([jax_numpy.arange(2), jax_numpy.ones(1)])
    with pytest.raises(TypeError, match="unravel function given array of dtype int32, but expected dtype float32"):
        jax_unravel(jax_numpy.arange(3))
    with pytest.raises((TypeError, *debug_violations()), match="unravel function given array of dtype int32"):
        unravel(jnp.arange(3))
    with pytest.raises(errors.JaxtypedValueError, match=r"expected an array of shape \(3,\), got f32\[4\]"):
        unravel(jnp.ones(4))
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match="leaf 1 must be an array"):
        ravel_pytree([jnp.ones(1), "text"])


def test_unravel_is_a_static_argument_and_differentiable() -> None:
    """The unravel function hashes, so ``jit`` takes it as a static
    argument; gradients flow through ravel and unravel as in JAX."""
    params = {"w": jnp.full((2, 2), 0.5), "b": jnp.arange(2.0)}
    jax_params = {"w": jax_numpy.full((2, 2), 0.5), "b": jax_numpy.arange(2.0)}
    flat, unravel = ravel_pytree(params)
    jax_flat, jax_unravel = jax_flatten_util.ravel_pytree(jax_params)

    def loss(np_: Any, vector: Any, rebuild: Any) -> Any:
        tree = rebuild(vector)
        return np_.sum(np_.tanh(tree["w"] @ tree["b"]) ** 2)

    ours = jt.jit(lambda v, r: loss(jnp, v, r), static_argnums=1)
    theirs = jax.jit(lambda v, r: loss(jax_numpy, v, r), static_argnums=1)
    assert_same(ours(flat, unravel), theirs(jax_flat, jax_unravel))
    assert_same(jt.grad(lambda v: loss(jnp, v, unravel))(flat), jax.grad(lambda v: loss(jax_numpy, v, jax_unravel))(jax_flat))
    ours_grads: Any = jt.grad(lambda p: jnp.sum(ravel_pytree(p)[0] ** 3))(params)
    theirs_grads: Any = jax.grad(lambda p: jax_numpy.sum(jax_flatten_util.ravel_pytree(p)[0] ** 3))(jax_params)
    assert_same(ours_grads["w"], theirs_grads["w"])
    assert_same(ours_grads["b"], theirs_grads["b"])
