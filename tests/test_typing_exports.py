"""``jaxtyped.typing``'s names at run time: each is importable, means what
its docstring says (checked with beartype's ``is_bearable`` as the oracle of
"does this value fit this annotation"), and fits what jaxtyped returns."""

from typing import Any, cast

import numpy as np
import pytest
from beartype.door import is_bearable as _is_bearable

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.typing as jtt


def is_bearable(value: object, hint: object) -> bool:
    """beartype's check of value against hint (beartype's own annotations
    only admit hints it can narrow to)."""
    return bool(_is_bearable(value, cast(Any, hint)))


def test_exports() -> None:
    expected = {"Array", "ArrayLike", "DType", "DTypeLike", "Shape", "ShapeLike", "DimSize", "ScalarLike", "KeyArray", "PyTree"}
    assert expected <= set(jtt.__all__)
    for name in jtt.__all__:
        assert getattr(jtt, name) is not None, name


def every_array_value() -> list[tuple[str, object]]:
    """A concrete array and what each transformation passes to a function."""
    seen: list[tuple[str, object]] = [("concrete", jnp.ones(3))]

    def grab(label: str) -> Any:
        def f(x: jtt.Array) -> jtt.Array:
            seen.append((label, x))
            return x

        return f

    x = jnp.ones(3)
    jt.jit(grab("jit"))(x)
    jt.vmap(grab("vmap"))(jnp.ones((2, 3)))
    jt.jvp(grab("jvp"), (x,), (x,))
    jt.grad(lambda v: grab("grad")(v).sum())(x)
    jt.make_jaxpr(grab("make_jaxpr"))(x)
    return seen


def test_array_is_the_type_of_concrete_arrays_and_every_tracer() -> None:
    for label, value in every_array_value():
        assert isinstance(value, jtt.Array), label
        assert is_bearable(value, jtt.Array), label
    # singledispatch on Array is tested in tests/core/test_array_type.py.


@pytest.mark.parametrize(
    ("value", "fits"),
    [(jnp.ones(2), True), (np.ones(2), True), (np.float32(1), True), (1, True), (1.5, True), (1j, True),
     (True, True), ("1", False), ([1.0], False), (None, False)],
)
def test_array_like(value: object, fits: bool) -> None:
    assert is_bearable(value, jtt.ArrayLike) is fits
    if fits:
        assert isinstance(jnp.asarray(value), jtt.Array)  # every ArrayLike converts


@pytest.mark.parametrize(
    ("value", "fits"),
    [(1, True), (1.5, True), (True, True), (2j, True), (np.float32(1), True), (np.int8(3), True),
     (jnp.ones(()), False), (np.ones(()), False), ("1", False)],
)
def test_scalar_like(value: object, fits: bool) -> None:
    assert is_bearable(value, jtt.ScalarLike) is fits


def test_dtype_and_dtype_like() -> None:
    assert isinstance(jnp.ones(2).dtype, np.dtype) and is_bearable(jnp.ones(2).dtype, jtt.DType)
    for like in ("float32", np.float32, np.dtype("int8"), jnp.bfloat16, jnp.ones(2)):
        assert is_bearable(like, jtt.DTypeLike), like
        assert isinstance(jnp.dtype(like), np.dtype)
    assert not is_bearable(3, jtt.DTypeLike)


def test_shape_shape_like_and_dim_size() -> None:
    shape = jnp.ones((2, 3)).shape
    assert shape == (2, 3) and is_bearable(shape, jtt.Shape)
    for like in (3, (2, 3), [2, 3], np.int64(4), (np.int32(2),)):
        assert is_bearable(like, jtt.ShapeLike), like
        assert jnp.zeros(like).size > 0  # every ShapeLike is accepted
    assert is_bearable(np.int64(2), jtt.DimSize) and not is_bearable(2.0, jtt.DimSize)
    assert not is_bearable("23", jtt.ShapeLike) or not isinstance("23", int)


def test_key_array_is_an_array_subclass() -> None:
    key: object = jt.random.key(0)
    assert issubclass(jtt.KeyArray, jtt.Array)
    assert isinstance(key, jtt.KeyArray) and isinstance(key, jtt.Array)
    assert not isinstance(jnp.zeros(2, jnp.uint32), jtt.KeyArray)  # legacy raw keys are plain arrays


@pytest.mark.parametrize(
    "tree",
    [{"w": jnp.ones(2), "b": [jnp.zeros(()), (1.0, None)]}, [jnp.ones(1)], (np.ones(2), {"a": 3}), None, jnp.ones(2)],
)
def test_pytree_accepts_nested_containers_of_arrays(tree: object) -> None:
    assert is_bearable(tree, jtt.PyTree)
    leaves = jt.tree_util.tree_leaves(tree)
    assert all(is_bearable(leaf, jtt.ArrayLike) for leaf in leaves)


@pytest.mark.parametrize("tree", [{1, 2}, object(), {"a": object()}, [jnp.ones(1), object()]])
def test_pytree_rejects_other_values(tree: object) -> None:
    assert not is_bearable(tree, jtt.PyTree)
