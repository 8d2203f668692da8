"""The ``jax.Array`` attributes of the lax extras family against JAX's
arrays: ``view`` (widths, bool, complex, errors), ``byteswap``,
``tobytes``, ``flat``, ``clone``, ``to_device``, ``copy_to_host_async``,
``on_device_size_in_bytes`` and ``platform``; under jit and vmap where JAX
allows them."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors
from jaxtyped._src.core.array_impl import ArrayImpl
from oracle import assert_same, debug_violations, expect_same_error, jax, jax_numpy

F32 = np.arange(4, dtype=np.float32) - 1.5
U8 = np.arange(8, dtype=np.uint8).reshape(2, 4) * 37
C64 = np.array([1 + 2j, -3.5 + 0.25j], np.complex64)

CASES: dict[str, Callable[[Any], Any]] = {
    "view-none": lambda L: L.asarray(F32).view(),
    "view-same": lambda L: L.asarray(F32).view(np.float32),
    "view-int32": lambda L: L.asarray(F32).view(np.int32),
    "view-uint8": lambda L: L.asarray(F32).view(np.uint8),
    "view-float16": lambda L: L.asarray(F32).view(np.float16),
    "view-wider": lambda L: L.asarray(U8).view(np.int16),
    "view-much-wider": lambda L: L.asarray(U8).view(np.float32),
    "view-bool-to-uint8": lambda L: L.asarray(np.array([True, False, True])).view(np.uint8),
    "view-uint8-to-bool": lambda L: L.asarray(U8).view(np.bool_),
    "view-int8-to-bool": lambda L: L.asarray(np.array([0, 1, -3], np.int8)).view(bool),
    "view-complex-to-float": lambda L: L.asarray(C64).view(np.float32),
    "view-float-to-complex": lambda L: L.asarray(F32).view(np.complex64),
    "view-complex-to-uint8": lambda L: L.asarray(C64).view(np.uint8),
    "view-scalar": lambda L: L.asarray(np.float32(1)).view(np.int32),
    "view-scalar-width": lambda L: L.asarray(np.float32(1)).view(np.int16),
    "view-not-divisor": lambda L: L.asarray(np.arange(3, dtype=np.uint8)).view(np.int16),
    "view-type": lambda L: L.asarray(F32).view(type=np.ndarray),
    "view-transposed": lambda L: L.asarray(U8.reshape(4, 2)).T.view(np.int16),
    "byteswap-float": lambda L: L.asarray(F32).byteswap(),
    "byteswap-int": lambda L: L.asarray(np.array([1, 256, -2], np.int32)).byteswap(),
    "byteswap-int16": lambda L: L.asarray(np.array([1, 256, -2], np.int16)).byteswap(),
    "byteswap-bool": lambda L: L.asarray(np.array([True, False])).byteswap(),
    "byteswap-uint8": lambda L: L.asarray(U8).byteswap(),
    "byteswap-complex": lambda L: L.asarray(C64).byteswap(),
    "byteswap-2d": lambda L: L.asarray(U8).view(np.int16).byteswap(),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_against_jax(name: str) -> None:
    fn = CASES[name]
    try:
        theirs = fn(jax_numpy)
    except Exception as error:  # noqa: BLE001 - JAX's error is what we compare with
        expect_same_error(error, lambda: fn(jnp))
        return
    assert_same(fn(jnp), theirs)


def test_view_and_byteswap_under_jit_and_vmap() -> None:
    def program(L: Any, api: Any) -> Any:
        def f(x: Any) -> Any:
            return (x.view(np.int32), x.view(np.uint8), x.byteswap(), x.view(np.complex64))

        def g(x: Any) -> Any:
            return x.view(np.uint8)

        return api.jit(f)(L.asarray(F32)), api.vmap(g)(L.asarray(F32.reshape(2, 2)))

    assert_same(program(jnp, jt), program(jax_numpy, jax))


def test_view_has_no_derivative() -> None:
    x = jnp.asarray(F32)
    _, tangent = jt.jvp(lambda v: v.view(np.int32), (x,), (jnp.ones_like(x),))
    assert tangent.dtype == jnp.float0
    def as_float(v: Any) -> Any:
        return v.view(np.float32)

    theirs = jax.jvp(as_float, (jax_numpy.asarray(F32),), (jax_numpy.ones(4),))[1]
    ours = jt.jvp(lambda v: v.view(np.float32), (x,), (jnp.ones(4),))[1]
    assert_same(ours, theirs)


def test_tobytes_matches_jax_and_numpy() -> None:
    for value in (F32, U8, C64, np.array([True, False])):
        for order in ("C", "F"):
            assert jnp.asarray(value).tobytes(order) == jax_numpy.asarray(value).tobytes(order) == value.tobytes(order)


def test_tobytes_of_a_tracer_is_a_concretization_error() -> None:
    with pytest.raises(errors.ConcretizationTypeError, match="tobytes"):

        def to_bytes(x: jt.Array) -> bytes:
            return x.tobytes()

        jt.jit(to_bytes)(jnp.asarray(F32))


def test_flat_raises_as_jax() -> None:
    with pytest.raises(NotImplementedError, match="flatten"):
        _ = jnp.asarray(F32).flat
    with pytest.raises(NotImplementedError, match="flatten"):
        _ = jax_numpy.asarray(F32).flat


def concrete(x: object) -> ArrayImpl:
    assert isinstance(x, ArrayImpl), type(x)
    return x


def test_clone_is_a_new_equal_array() -> None:
    x = concrete(jnp.asarray(F32))
    y = x.clone()
    assert y is not x
    assert_same(y, jax_numpy.asarray(F32))


def test_device_queries() -> None:
    x = concrete(jnp.asarray(F32))
    theirs = jax_numpy.asarray(F32)
    assert x.platform() == theirs.platform() == "cpu"
    x.copy_to_host_async()
    assert x.on_device_size_in_bytes() == theirs.on_device_size_in_bytes() == 16
    moved = x.to_device(x.device)
    assert moved is not x
    assert_same(moved, theirs.to_device(theirs.device))
    # JAX's ValueError; the debug mode's type check reports the ill-typed call first.
    with pytest.raises((ValueError, *debug_violations()), match="to_device"):
        x.to_device("not a device")  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # the error under test


@pytest.mark.parametrize("sharded", [False, True], ids=["one-device", "two-devices"])
def test_shard_accessors_as_jax(sharded: bool) -> None:
    # is_fully_addressable, addressable_data and global_shards (a single
    # process holds every shard: the global shards are the addressable ones).
    from oracle import mesh_sharding

    value = np.arange(8, dtype=np.float32).reshape(4, 2)
    ours = jt.device_put(value, mesh_sharding(True, "a")) if sharded else jnp.asarray(value)
    theirs = jax.device_put(value, mesh_sharding(False, "a")) if sharded else jax_numpy.asarray(value)
    assert ours.is_fully_addressable is theirs.is_fully_addressable is True
    assert len(ours.global_shards) == len(theirs.global_shards) == (2 if sharded else 1)
    for i, (mine, jaxs) in enumerate(zip(ours.global_shards, theirs.global_shards, strict=True)):
        assert (mine.index, mine.replica_id, mine.device.id) == (jaxs.index, jaxs.replica_id, jaxs.device.id)
        assert_same(ours.addressable_data(i), theirs.addressable_data(i))
    assert_same(ours.addressable_data(-1), theirs.addressable_data(-1))
    past = len(ours.global_shards)
    if sharded:
        with pytest.raises(IndexError):
            theirs.addressable_data(past)
    else:
        # JAX returns the data for any index of a fully replicated array; an
        # index past the shards raises here (the compatibility page).
        assert_same(ours.addressable_data(0), theirs.addressable_data(past))
    with pytest.raises(errors.JaxtypedIndexError, match=r"addressable_data: index 1 out of range for 1 shard"):
        jnp.asarray(value).addressable_data(1)
    with pytest.raises(errors.JaxtypedIndexError, match=rf"index {past} out of range"):
        ours.addressable_data(past)
