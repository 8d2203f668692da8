"""A probe corpus of bad input to creation and shape functions (issue 13,
item 9): each call must raise the kind of error JAX raises (compared through
the oracle, eagerly: several of them only fail when JAX allocates), and our
message must name the function and the argument at fault."""

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp

from oracle import Case, CaseTable, Group, Namespace, debug_violations, jax

X23 = np.arange(6, dtype=np.float32).reshape(2, 3)
HUGE = (10**6, 10**6)


@dataclass(frozen=True)
class Probe:
    """A bad call, and the words our message must contain (the function,
    the argument, and any value worth naming)."""

    id: str
    fn: Callable[[Namespace], Any]
    words: tuple[str, ...]


def x(L: Namespace) -> Any:
    return L.asarray(X23)


PROBES = [
    # Python ints in lists must fit the dtype, as Python scalars must.
    Probe("array-int-too-large", lambda L: L.array([1, 2**40]), ("jnp.array", "1099511627776", "int32")),
    Probe("array-uint8-300", lambda L: L.array([300], dtype=L.uint8), ("jnp.array", "300", "uint8")),
    Probe("array-uint8-negative", lambda L: L.array([-1], dtype=L.uint8), ("jnp.array", "-1", "uint8")),
    Probe("array-nested-negative", lambda L: L.array([[1], [-1]], dtype=L.uint8), ("jnp.array", "-1", "uint8")),
    Probe("array-int8-tuple", lambda L: L.array((1, 128), dtype=L.int8), ("jnp.array", "128", "int8")),
    Probe("asarray-uint32", lambda L: L.asarray([2**33], dtype=L.uint32), ("jnp.array", "8589934592", "uint32")),
    Probe("array-int8-leaf", lambda L: L.array([np.int8(1), 200]), ("jnp.array", "200", "int8")),
    Probe("array-uint8-leaf", lambda L: L.array([np.uint8(1), -1]), ("jnp.array", "-1", "uint8")),
    Probe("array-none", lambda L: L.array(None), ("jnp.array", "None")),
    Probe("array-none-in-list", lambda L: L.array([1.0, None]), ("jnp.array", "None")),
    Probe("array-str-in-list", lambda L: L.array([1, "a"]), ("jnp.array",)),
    # Integer arguments of the wrong kind.
    Probe("eye-float-N", lambda L: L.eye(2.5), ("jnp.eye", "N", "2.5")),
    Probe("eye-float-M", lambda L: L.eye(2, 2.5), ("jnp.eye", "M", "2.5")),
    Probe("linspace-str-num", lambda L: L.linspace(0, 1, "a"), ("jnp.linspace", "num", "'a'")),
    Probe("linspace-float-num", lambda L: L.linspace(0, 1, num=2.5), ("jnp.linspace", "num", "2.5")),
    Probe("logspace-str-num", lambda L: L.logspace(0, 1, "a"), ("jnp.linspace", "num")),
    Probe("reshape-float-dim", lambda L: L.reshape(x(L), (2.0, 3)), ("jnp.reshape", "shape", "2.0")),
    Probe("zeros-float-dim", lambda L: L.zeros((2.0, 3)), ("jnp.zeros", "shape", "2.0")),
    Probe("ones-str-dim", lambda L: L.ones(("a", 3)), ("jnp.ones", "shape", "'a'")),
    Probe("full-float-dim", lambda L: L.full((2.5,), 1.0), ("jnp.full", "shape", "2.5")),
    Probe("tri-float-N", lambda L: L.tri(2.5), ("jnp.tri", "N", "2.5")),
    Probe("tile-float-reps", lambda L: L.tile(x(L), 1.5), ("jnp.tile", "reps", "1.5")),
    Probe("repeat-float-repeats", lambda L: L.repeat(x(L), 1.5), ("jnp.repeat", "repeats")),
    Probe("moveaxis-float-source", lambda L: L.moveaxis(x(L), 0.0, 1), ("jnp.moveaxis", "source", "0.0")),
    Probe("moveaxis-str-destination", lambda L: L.moveaxis(x(L), 0, "a"), ("jnp.moveaxis", "destination", "'a'")),
    Probe("squeeze-float-axis", lambda L: L.squeeze(x(L), axis=1.5), ("jnp.squeeze", "axis", "1.5")),
    Probe("expand_dims-float-axis", lambda L: L.expand_dims(x(L), 1.5), ("jnp.expand_dims", "axis", "1.5")),
    Probe("concatenate-float-axis", lambda L: L.concatenate([x(L), x(L)], axis=1.5), ("jnp.concatenate", "axis", "1.5")),
    Probe("stack-str-axis", lambda L: L.stack([x(L), x(L)], axis="a"), ("jnp.stack", "axis", "'a'")),
    Probe("transpose-float-axes", lambda L: L.transpose(x(L), (1.5, 0)), ("jnp.transpose", "axes", "1.5")),
    Probe("size-str-axis", lambda L: L.size(x(L), axis="a"), ("jnp.size", "axis", "'a'")),
    Probe("flip-str-axis", lambda L: L.flip(x(L), axis="a"), ("jnp.flip", "axis", "'a'")),
    Probe("roll-float-axis", lambda L: L.roll(x(L), 1, axis=1.5), ("jnp.roll", "axis", "1.5")),
    Probe("split-float-axis", lambda L: L.split(x(L), 2, axis=1.5), ("jnp.split", "axis", "1.5")),
    Probe("round-float-decimals", lambda L: L.round(x(L), decimals=1.5), ("jnp.round", "decimals", "1.5")),
    Probe("around-str-decimals", lambda L: L.around(x(L), "1"), ("jnp.round", "decimals", "'1'")),
    # Reductions: a float axis is a TypeError (JAX raises a NameError for a
    # string, taking it for a named axis; ours is a TypeError naming it).
    Probe("sum-float-axis", lambda L: L.sum(x(L), axis=1.5), ("jnp.sum", "axis", "1.5")),
    Probe("sum-str-axis", lambda L: L.sum(x(L), axis="a"), ("jnp.sum", "axis", "'a'")),
    Probe("sum-float-in-tuple", lambda L: L.sum(x(L), axis=(0, 1.5)), ("jnp.sum", "axis", "1.5")),
    Probe("prod-float-axis", lambda L: L.prod(x(L), axis=1.5), ("jnp.prod", "axis", "1.5")),
    Probe("max-float-axis", lambda L: L.max(x(L), axis=1.5), ("jnp.max", "axis", "1.5")),
    Probe("min-str-axis", lambda L: L.min(x(L), axis="a"), ("jnp.min", "axis", "'a'")),
    Probe("mean-str-axis", lambda L: L.mean(x(L), axis="a"), ("jnp.mean", "axis", "'a'")),
    Probe("all-float-axis", lambda L: L.all(x(L), axis=1.5), ("jnp.all", "axis", "1.5")),
    Probe("any-float-axis", lambda L: L.any(x(L), axis=1.5), ("jnp.any", "axis", "1.5")),
    Probe("argmax-float-axis", lambda L: L.argmax(x(L), axis=1.5), ("jnp.argmax", "axis", "1.5")),
    Probe("argmin-str-axis", lambda L: L.argmin(x(L), axis="a"), ("jnp.argmin", "axis", "'a'")),
    Probe("var-float-axis", lambda L: L.var(x(L), axis=1.5), ("jnp.var", "axis", "1.5")),
    Probe("std-str-axis", lambda L: L.std(x(L), axis="a"), ("jnp.std", "axis", "'a'")),
    Probe("median-float-axis", lambda L: L.median(x(L), axis=1.5), ("jnp.median", "axis", "1.5")),
    Probe("quantile-float-axis", lambda L: L.quantile(x(L), 0.5, axis=1.5), ("jnp.quantile", "axis", "1.5")),
    Probe("cumsum-float-axis", lambda L: L.cumsum(x(L), axis=1.5), ("jnp.cumsum", "axis", "1.5")),
    Probe("sort-str-axis", lambda L: L.sort(x(L), axis="a"), ("jnp.sort", "axis", "'a'")),
    # Arrays too large to materialise fail when they are created.
    Probe("zeros-huge", lambda L: L.zeros(HUGE), ("jnp.zeros", "(1000000, 1000000)", "4000000000000 bytes")),
    Probe("ones-huge", lambda L: L.ones(HUGE), ("jnp.ones", "(1000000, 1000000)", "4000000000000 bytes")),
    Probe("empty-huge", lambda L: L.empty(HUGE), ("jnp.empty", "(1000000, 1000000)", "4000000000000 bytes")),
    Probe("full-huge", lambda L: L.full(HUGE, 2.0), ("jnp.full", "(1000000, 1000000)", "4000000000000 bytes")),
    Probe("zeros_like-huge", lambda L: L.zeros_like(x(L), shape=HUGE), ("jnp.zeros_like", "4000000000000 bytes")),
    Probe("ones_like-huge", lambda L: L.ones_like(x(L), shape=HUGE), ("jnp.ones_like", "4000000000000 bytes")),
    Probe("full_like-huge", lambda L: L.full_like(x(L), 1.0, shape=HUGE), ("jnp.full", "4000000000000 bytes")),
    Probe("empty_like-huge", lambda L: L.empty_like(x(L), shape=HUGE), ("jnp.empty_like", "4000000000000 bytes")),
    Probe("broadcast_to-huge", lambda L: L.broadcast_to(1.0, HUGE), ("jnp.broadcast_to", "(1000000, 1000000)", "bytes")),
    Probe("eye-huge", lambda L: L.eye(10**6), ("jnp.eye", "(1000000, 1000000)", "bytes")),
    Probe("tri-huge", lambda L: L.tri(10**6), ("jnp.tri", "(1000000, 1000000)", "bytes")),
    Probe("tile-huge", lambda L: L.tile(L.ones(10**3), (10**6, 10**3)), ("jnp.tile", "(1000000, 1000000)", "bytes")),
    Probe("repeat-huge", lambda L: L.repeat(L.ones(10**3), 10**10), ("jnp.repeat", "40000000000000 bytes")),
    Probe("zeros-huge-int8", lambda L: L.zeros((10**7, 10**7), L.int8), ("jnp.zeros", "100000000000000 bytes", "int8")),
]  # fmt: skip

TABLE = CaseTable("bad_input", lambda: [Case(p.id, p.fn) for p in PROBES], eager=True)
BY_ID = {p.id: p for p in PROBES}


@pytest.mark.parametrize("group", TABLE.params())
def test_bad_input_raises_what_jax_raises(group: Group) -> None:
    TABLE.check(group)


@pytest.mark.parametrize("probe", PROBES, ids=[p.id for p in PROBES])
def test_message_names_function_and_argument(probe: Probe) -> None:
    with pytest.raises(Exception) as info:  # noqa: PT011 - the kind is compared with JAX's above
        probe.fn(jnp)
    if jt.DEBUG and isinstance(info.value, jt.errors.DebugTypeError):
        return  # beartype caught the ill-typed call first, with its own message
    assert isinstance(info.value, jt.errors.JaxtypedError), f"a raw {type(info.value).__name__}: {info.value}"
    message = str(info.value)
    missing = [word for word in probe.words if word not in message]
    assert not missing, f"{missing} not in: {message}"


def test_eye_float_diagonal_is_a_value_error_as_in_jax() -> None:
    # JAX raises ValueError for k=1.5; under the debug mode beartype's
    # DebugTypeError (k is annotated int) comes first.
    kinds: tuple[type[Exception], ...] = (ValueError, *debug_violations())
    with pytest.raises(kinds, match=r"k"):
        jnp.eye(2, k=1.5)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the misuse tested
    with pytest.raises(ValueError):
        jax.numpy.eye(2, k=1.5)


def test_huge_arrays_are_fine_abstractly() -> None:
    # Only materialising is refused: shapes alone, and traced values, are fine.
    out = jt.eval_shape(lambda: jnp.zeros(HUGE) + 1)
    assert out.shape == HUGE
    assert jt.make_jaxpr(lambda: jnp.ones(HUGE).sum())() is not None


def test_out_of_memory_error_is_a_runtime_and_memory_error() -> None:
    with pytest.raises(RuntimeError):
        jnp.zeros(HUGE)
    with pytest.raises(MemoryError):
        jnp.ones(HUGE)
    # JAX dispatches this one asynchronously and fails only when it is used.
    with pytest.raises(jt.errors.OutOfMemoryError, match=r"jnp.linspace: .*\(1000000000000,\).* bytes"):
        jnp.linspace(0.0, 1.0, 10**12)


def test_lists_that_fit_still_work() -> None:
    # JAX's promotion of the leaves (Python scalars weak), not NumPy's.
    lists: list[list[Any]] = [
        [np.int8(1), 2], [np.float16(1), 2.5], [np.int8(1), 2.5], [True, 2], [np.bool_(True), 2.0],
        [np.array([1], np.int16), [3]], [[1.0], [2**70]], [np.int64(3), 5], [], [[]], [1 + 2j, 1],
    ]  # fmt: skip
    for items in lists:
        ours, theirs = jnp.array(items), jax.numpy.array(items)
        assert (ours.dtype, ours.weak_type, ours.shape) == (theirs.dtype, theirs.weak_type, theirs.shape), items
        np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
    assert jnp.array([255, 0], dtype=jnp.uint8).tolist() == [255, 0]
    assert jnp.array([-(2**31), 2**31 - 1]).dtype == np.int32
    assert jnp.array([1.5, 2**40]).dtype == np.float32
