"""``jt.pmap`` against ``jax.pmap`` (both built as a ``jit`` of a
``shard_map``, over the test session's 8 CPU devices): the docstring's
examples, ``in_axes``/``out_axes`` trees, keyword arguments, static and
donated arguments, ``devices``, collectives over the axis name, the results'
sharding, ``grad``/``vmap``/``jit`` of a pmapped function, and the errors.
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the cases are functions over either library, untyped by design)

import re
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, debug_violations, jax, jax_numpy

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors

Case = Callable[[Any, Any], Any]  # (api namespace, numpy namespace) -> result

_X = np.arange(12.0, dtype=np.float32).reshape(4, 3)


def _both(case: Case) -> None:
    """``case`` with jaxtyped's namespaces and JAX's agree in values, dtypes
    and weak types, leaf by leaf."""
    ours = case(jt, jnp)
    theirs = case(jax, jax_numpy)
    ours_leaves, ours_tree = jt.tree_util.tree_flatten(ours)
    theirs_leaves, theirs_tree = jax.tree_util.tree_flatten(theirs)
    assert ours_tree.num_leaves == theirs_tree.num_leaves
    for a, b in zip(ours_leaves, theirs_leaves):
        assert_same(a, b)


CASES: dict[str, Case] = {
    "square": lambda api, np_: api.pmap(lambda x: x**2)(np_.arange(8.0)),
    "fewer rows than devices": lambda api, np_: api.pmap(lambda x: x**2)(np_.arange(3.0)),
    "dot of blocks": lambda api, np_: api.pmap(np_.dot)(
        np_.arange(12.0).reshape(3, 2, 2), np_.arange(12.0).reshape(3, 2, 2) ** 2
    ),
    "broadcast argument": lambda api, np_: api.pmap(lambda x, y: (x + y, y * 2.0), in_axes=(0, None))(
        np_.arange(2.0), 4.0
    ),
    "psum normalises": lambda api, np_: api.pmap(lambda x: x / api.lax.psum(x, "i"), axis_name="i")(np_.arange(4.0)),
    "pmean, axis_index, all_gather": lambda api, np_: api.pmap(
        lambda x: (api.lax.pmean(x, "d"), api.lax.axis_index("d"), api.lax.all_gather(x, "d")), axis_name="d"
    )(np_.asarray(_X)),
    "ppermute ring": lambda api, np_: api.pmap(
        lambda x: api.lax.ppermute(x, "r", [(k, (k + 1) % 4) for k in range(4)]), axis_name="r"
    )(np_.asarray(_X)),
    "in_axes 1": lambda api, np_: api.pmap(lambda x: x.sum(), in_axes=1)(np_.asarray(_X)),
    "out_axes 1": lambda api, np_: api.pmap(lambda x: x * 2.0, out_axes=1)(np_.asarray(_X)),
    "out_axes None": lambda api, np_: api.pmap(lambda x: (x, np_.ones(3)), out_axes=(0, None))(np_.asarray(_X)),
    "in_axes dict tree": lambda api, np_: api.pmap(lambda d: d["a"] * d["b"], in_axes=({"a": 0, "b": None},))(
        {"a": np_.asarray(_X), "b": np_.ones(3)}
    ),
    "keyword mapped over axis 0": lambda api, np_: api.pmap(lambda x, *, y: x + y)(np_.ones(2), y=np_.arange(2.0)),
    "static argument": lambda api, np_: [
        api.pmap(lambda x, k: x * k, static_broadcasted_argnums=1)(np_.ones(2), k) for k in (3, 2, 3)
    ],
    "static argument first, tuple in_axes": lambda api, np_: api.pmap(
        lambda k, x, y: x * k + y, static_broadcasted_argnums=0, in_axes=(None, 0, None)
    )(2, np_.asarray(_X), 1.0),
    "integer and bool outputs": lambda api, np_: api.pmap(lambda x: (x > 1.0, x.astype(np_.int32)))(np_.arange(4.0)),
    "devices": lambda api, np_: partial(api.pmap, axis_name="i", devices=api.devices()[-2:])(
        lambda x: api.lax.psum(x**2, "i")
    )(np_.array([2.0, 3.0])),
    "grad of a pmapped function": lambda api, np_: api.grad(lambda x: api.pmap(np_.sin)(x).sum())(np_.ones(2)),
    "vmap of a pmapped function": lambda api, np_: api.vmap(api.pmap(lambda x: x * 2.0))(np_.asarray(_X).T),
    "jit of a pmapped function": lambda api, np_: api.jit(api.pmap(lambda x: x * 2.0))(np_.arange(4.0)),
}


@pytest.mark.parametrize("name", list(CASES))
def test_pmap_agrees_with_jax(name: str) -> None:
    _both(CASES[name])


def test_results_are_split_over_the_first_devices() -> None:
    """A result's sharding is JAX's: a one-axis mesh over the first ``n``
    devices named by the axis name (JAX's internal name without one)."""
    out = jt.pmap(lambda x: x + 1.0)(jnp.arange(3.0))
    theirs = jax.pmap(lambda x: x + 1.0)(jax_numpy.arange(3.0))
    assert out.sharding.mesh.axis_names == tuple(theirs.sharding.mesh.axis_names) == ("_internal_pmap_axis_name",)
    assert sorted(d.id for d in out.sharding.device_set) == sorted(d.id for d in theirs.sharding.device_set) == [0, 1, 2]
    assert [s.data.shape for s in out.addressable_shards] == [(1,)] * 3


def test_a_pmapped_function_compiles_once_per_signature() -> None:
    """Repeated calls reuse the program; a new static value or shape traces again."""
    traces: list[int] = []

    def f(x: jt.Array, k: int) -> jt.Array:
        traces.append(k)
        return x * k

    g = jt.pmap(f, static_broadcasted_argnums=1)
    for _ in range(3):
        g(jnp.ones(2), 2)
    g(jnp.ones(2), 5)
    g(jnp.ones((2, 3)), 5)
    assert traces == [2, 5, 5]


def test_donate_argnums_is_accepted() -> None:
    """``donate_argnums`` gives JAX's values. An argument on one device is
    copied to the devices and stays, as in JAX; a pmap's result passed back
    is already split over the devices, so the call consumes it, as JAX's."""
    double = jt.pmap(lambda a: a * 2.0, donate_argnums=0)
    jax_double = jax.pmap(lambda a: a * 2.0, donate_argnums=0)
    x, jax_x = jnp.asarray(_X), jax_numpy.asarray(_X)
    y, jax_y = double(x), jax_double(jax_x)
    assert not x.is_deleted() and not jax_x.is_deleted()
    assert_same(double(y), jax_double(jax_y))
    assert y.is_deleted() and jax_y.is_deleted()


def test_negative_in_axes_count_from_the_end() -> None:
    """``in_axes=-1`` maps the last axis, as ``vmap``'s does (JAX's pmap
    takes the size from the last axis but splits the first: an error or a
    wrong mapping)."""
    x = np.arange(6.0, dtype=np.float32).reshape(3, 2)
    assert_same(jt.pmap(lambda v: v.sum(), in_axes=-1)(jnp.asarray(x)), jax.vmap(lambda v: v.sum(), in_axes=-1)(x))


ERRORS: dict[str, tuple[Case, type[Exception], str | None]] = {
    "axis larger than the devices": (lambda api, np_: api.pmap(lambda x: x)(np_.arange(9.0)), ValueError, None),
    "different mapped sizes": (lambda api, np_: api.pmap(lambda x, y: x + y)(np_.ones(2), np_.ones(3)), ValueError, None),
    "nothing mapped": (
        lambda api, np_: api.pmap(lambda x: x, in_axes=None)(np_.ones(2)),
        ValueError,
        "at least one argument with a mapped axis",
    ),
    "float in_axes": (lambda api, np_: api.pmap(lambda x: x, in_axes=1.0)(np_.ones(2)), TypeError, "in_axes must be an int"),
    "float out_axes": (lambda api, np_: api.pmap(lambda x: x, out_axes=0.5)(np_.ones(2)), TypeError, "out_axes must be an int"),
    "axis_size mismatch": (
        lambda api, np_: api.pmap(lambda x: x, axis_size=3)(np_.ones(2)),
        ValueError,
        "Specified axis_size 3 doesn't match received axis_size 2",
    ),
    "static argument missing": (
        lambda api, np_: api.pmap(lambda x, k: x * k, static_broadcasted_argnums=1)(np_.ones(2)),
        ValueError,
        "All static broadcasted arguments must be passed positionally",
    ),
    "empty devices": (lambda api, np_: api.pmap(lambda x: x, devices=[])(np_.ones(2)), ValueError, "must be non-empty"),
    "in_axes tuple of the wrong length": (
        lambda api, np_: api.pmap(lambda x, y: x, in_axes=(0,))(np_.ones(2), np_.ones(2)),
        ValueError,
        None,
    ),
    "not callable": (lambda api, np_: api.pmap(3), TypeError, None),
}


@pytest.mark.parametrize("name", list(ERRORS))
def test_pmap_errors_as_jax(name: str) -> None:
    """The error kinds are JAX's (an axis larger than the devices and
    different mapped sizes raise JAX's IndivisibleError, a ValueError; ours
    name pmap and the sizes), with JAX's message where it has one."""
    case, kind, message = ERRORS[name]
    with pytest.raises(kind, match=message):
        case(jax, jax_numpy)
    with pytest.raises((kind, *debug_violations())) as ours:
        case(jt, jnp)
    assert isinstance(ours.value, errors.JaxtypedError)
    if message is not None and not isinstance(ours.value, errors.DebugTypeError):  # beartype's own words in debug mode
        assert re.search(message, str(ours.value)), str(ours.value)


def test_our_messages_name_pmap_and_the_sizes() -> None:
    with pytest.raises(errors.JaxtypedValueError, match=r"mapped axis has size 9 but only 8 devices"):
        jt.pmap(lambda x: x)(jnp.arange(9.0))
    with pytest.raises(errors.JaxtypedValueError, match=r"different sizes: leaf 0 of shape \(2,\).*leaf 1 of shape \(3,\)"):
        jt.pmap(lambda x, y: x + y)(jnp.ones(2), jnp.ones(3))
