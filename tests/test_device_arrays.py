"""Device arrays: ``jt.Array`` values backed by PJRT buffers (jitted
outputs, ``device_put``), their host views, printing and device API, and
``device_put`` / ``device_get`` / ``block_until_ready`` / ``devices``.

JAX is the oracle for printing; values are checked against NumPy.
"""

from collections.abc import Callable
from typing import Any, cast

import ml_dtypes
import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src.core.array_impl import ArrayImpl

jax: Any = pytest.importorskip("jax")
jax_numpy: Any = pytest.importorskip("jax.numpy")


def concrete(x: object) -> ArrayImpl:
    """``x`` as the concrete array type, which carries the device API
    (``jt.Array`` also covers tracers)."""
    assert type(x) is ArrayImpl, type(x)
    return x


def as_ndarray(x: object) -> np.ndarray[Any, Any]:
    assert isinstance(x, np.ndarray), type(x)
    return cast(np.ndarray[Any, Any], x)  # type: ignore[redundant-cast]  # pyright narrows to ndarray[Unknown, Unknown]


def poly(x: jt.Array) -> jt.Array:
    return x * x + x


def poly_any(x: Any) -> Any:
    return x * x + x


jit_poly = jt.jit(poly)


def device_only(value: np.ndarray[Any, Any]) -> ArrayImpl:
    """A jitted function's output that was never read on the host."""
    return concrete(jit_poly(jnp.asarray(value)))


# === printing, compared with JAX ===

REPR_CASES: list[np.ndarray[Any, Any]] = [
    np.array(1.5, np.float32),  # 0-d
    np.arange(4, dtype=np.float32).reshape(2, 2),
    np.arange(3, dtype=np.int32),
    np.array([1.5, 2.25, -3.0], dtype=ml_dtypes.bfloat16),
    np.array([0.5, 1.0], dtype=np.float16),
    np.zeros((0, 3), np.float32),  # empty: the shape is printed
    np.array([1 + 2j, -0.5j], np.complex64),
    np.arange(24, dtype=np.uint8).reshape(2, 3, 4),
]


@pytest.mark.parametrize("value", REPR_CASES, ids=lambda v: f"{v.dtype}{list(v.shape)}")
def test_jitted_output_repr_matches_jax(value: np.ndarray[Any, Any]) -> None:
    ours = jit_poly(jnp.asarray(value))
    theirs = jax.jit(poly_any)(jax_numpy.asarray(value))
    assert repr(ours) == repr(theirs)
    assert str(ours) == str(theirs)


@pytest.mark.parametrize("scalar", [2.0, 3], ids=["float", "int"])
def test_weakly_typed_output_repr_matches_jax(scalar: float) -> None:
    ours = jt.jit(poly_any)(scalar)
    theirs = jax.jit(poly_any)(scalar)
    assert repr(ours) == repr(theirs)


def identity(x: Any) -> Any:
    return x


@pytest.mark.parametrize("value", [True, np.array([True, False]), np.array([[False], [True]])], ids=["bool[]", "bool[2]", "bool[2,1]"])
def test_boolean_output_repr_matches_jax(value: object) -> None:
    ours = jt.jit(identity)(value)
    theirs = jax.jit(identity)(value)
    assert repr(ours) == repr(theirs)


@pytest.mark.parametrize("value", [1.0, 7, True, np.float32(2.5), np.arange(3.0), np.arange(6, dtype=np.int8).reshape(2, 3)])
def test_device_put_repr_matches_jax(value: object) -> None:
    assert repr(jt.device_put(value)) == repr(jax.device_put(value))


def test_format_of_a_device_only_scalar() -> None:
    x = device_only(np.array(1.5, np.float32))
    assert f"{x:.2f}" == "3.75"
    assert float(x) == 3.75


# === jt.Array backed by a device buffer; zero-copy host views ===


def test_jitted_output_is_a_device_backed_jt_array() -> None:
    x = device_only(np.arange(8, dtype=np.float32))
    assert isinstance(x, jt.Array)
    assert x.shape == (8,)
    assert x.dtype == np.float32
    assert isinstance(x.unsafe_buffer_pointer(), int)
    assert not x.is_deleted()
    x.block_until_ready()
    assert x.is_ready()


def test_np_asarray_of_a_jitted_output_is_zero_copy_and_read_only() -> None:
    x = device_only(np.arange(16, dtype=np.float32))
    pointer = x.unsafe_buffer_pointer()
    view = np.asarray(x)
    assert view.ctypes.data == pointer  # the device buffer itself, no copy
    assert np.asarray(x).ctypes.data == pointer  # and again
    assert not view.flags.writeable
    with pytest.raises(ValueError, match="read-only"):
        view[0] = 1.0
    np.testing.assert_array_equal(view, np.arange(16.0) ** 2 + np.arange(16.0))


def test_np_array_copy_is_writable_and_independent() -> None:
    x = device_only(np.arange(4, dtype=np.float32))
    copy = np.array(x)
    assert copy.flags.writeable
    copy[0] = 100.0
    assert float(x[0]) == 0.0


def test_bfloat16_output_reads_back_as_bfloat16_values() -> None:
    value = np.array([1.5, -2.0, 0.25], dtype=ml_dtypes.bfloat16)
    host = np.asarray(jit_poly(jnp.asarray(value)))
    assert host.dtype == ml_dtypes.bfloat16  # not an object array
    expected = value.astype(np.float64) ** 2 + value.astype(np.float64)
    np.testing.assert_allclose(host.astype(np.float64), expected)


def test_device_array_pickles_by_value() -> None:
    import pickle

    x = device_only(np.arange(3, dtype=np.float32))
    y = pickle.loads(pickle.dumps(x))
    assert isinstance(y, jt.Array)
    assert repr(y) == repr(x)


# === devices ===


def test_devices_and_local_devices() -> None:
    devices = jt.devices()
    assert len(devices) >= 1
    assert jt.local_devices() == devices
    assert all(getattr(d, "platform") == "cpu" for d in devices)
    assert [d.id for d in devices] == [d.id for d in jax.devices()]


def test_array_devices_and_device() -> None:
    x = device_only(np.arange(3, dtype=np.float32))
    assert x.devices() == {jt.devices()[0]}
    assert x.device == jt.devices()[0]
    assert x.device in x.devices()
    host_born = concrete(jnp.asarray(np.arange(3, dtype=np.float32)))
    assert host_born.device == jt.devices()[0]
    assert type(x.devices()) is type(jax.numpy.ones(2).devices()) is set  # a new set each call, as JAX's


def test_device_of_a_sharded_array_is_its_sharding_as_in_jax() -> None:
    mesh = jt.sharding.Mesh(np.array(jt.devices()[:2]), ("a",))
    sharding = jt.sharding.NamedSharding(mesh, jt.sharding.PartitionSpec("a"))
    x = jt.device_put(jnp.arange(4.0), sharding)
    jmesh = jax.sharding.Mesh(np.array(jax.devices()[:2]), ("a",))
    theirs = jax.device_put(jax.numpy.arange(4.0), jax.sharding.NamedSharding(jmesh, jax.sharding.PartitionSpec("a")))
    ours_device = x.device
    assert ours_device == sharding and isinstance(ours_device, jt.sharding.NamedSharding)
    assert isinstance(theirs.device, jax.sharding.NamedSharding)
    assert ours_device.mesh.axis_names == theirs.device.mesh.axis_names
    assert tuple(ours_device.spec) == tuple(theirs.device.spec)
    assert "axis_types=(Auto,)" in repr(mesh)  # one axis prints as a one-tuple, as JAX 0.10.2's
    assert {d.id for d in x.devices()} == {d.id for d in theirs.devices()} == {0, 1}


def test_is_ready_and_block_until_ready_method() -> None:
    x = device_only(np.arange(1000, dtype=np.float32))
    assert x.block_until_ready() is x
    assert x.is_ready()
    host_born = concrete(jnp.asarray(np.arange(3, dtype=np.float32)))
    assert host_born.is_ready()
    assert host_born.block_until_ready() is host_born


# === device_put ===


def test_device_put_copies_numpy_input() -> None:
    source = np.arange(6, dtype=np.float32)
    x = concrete(jt.device_put(source))
    assert isinstance(x, jt.Array)
    source[0] = 99.0  # a later write to the source
    source[:] = -1.0
    np.testing.assert_array_equal(np.asarray(x), np.arange(6, dtype=np.float32))
    assert x.devices() == {jt.devices()[0]}


def test_device_put_on_a_64_byte_aligned_source_is_still_a_copy() -> None:
    # jaxlib aliases 64-byte-aligned host memory (ZERO_COPY); device_put
    # must not hand the user's buffer to the device.
    raw = np.zeros(64 + 1024, np.uint8)
    offset = (-raw.ctypes.data) % 64
    source = raw[offset : offset + 1024].view(np.float32)
    assert source.ctypes.data % 64 == 0
    source[:] = np.arange(256, dtype=np.float32)
    x = concrete(jt.device_put(source))
    source[:] = 0.0
    np.testing.assert_array_equal(np.asarray(x), np.arange(256, dtype=np.float32))
    assert x.unsafe_buffer_pointer() != source.ctypes.data


def _misaligned(values: np.ndarray[Any, Any]) -> np.ndarray[Any, Any]:
    """A read-only copy of ``values`` whose data pointer is not 64-byte aligned."""
    raw = np.zeros(values.nbytes + 64 + 4, np.uint8)
    offset = (-raw.ctypes.data) % 64 + 4
    out: np.ndarray[Any, Any] = raw[offset : offset + values.nbytes].view(values.dtype).reshape(values.shape)
    out[...] = values
    out.flags.writeable = False
    assert out.ctypes.data % 64 != 0
    return out


@pytest.mark.parametrize("kind", ["misaligned", "broadcast"])
def test_a_large_host_value_and_its_device_buffer_share_one_copy(kind: str) -> None:
    # Note [two homes of a value]: jaxlib would copy such a host value on
    # transfer; it is copied once into aligned memory that both homes share.
    n = 1 << 16
    if kind == "misaligned":
        x = ArrayImpl(_misaligned(np.arange(n, dtype=np.float32) % 7), jt.ShapeDtypeStruct((n,), np.float32).aval)
        expected = np.arange(n, dtype=np.float32) % 7
    else:
        x = concrete(jnp.full((n,), 3.0, jnp.float32))  # a stride-0 broadcast on the host
        expected = np.full(n, 3.0, np.float32)
    out = jit_poly(x)
    host = np.asarray(x)
    assert host.ctypes.data == x.unsafe_buffer_pointer()
    assert host.flags.c_contiguous and not host.flags.writeable
    np.testing.assert_array_equal(host, expected)
    np.testing.assert_array_equal(np.asarray(out), expected * expected + expected)


_LARGE_EAGER_RESULTS: dict[str, Callable[[Any, Any], Any]] = {
    "x * 2.0": lambda L, x: x * 2.0,
    "2.0 * x": lambda L, x: 2.0 * x,
    "x + x": lambda L, x: x + x,
    "x / 3.0": lambda L, x: x / 3.0,
    "-x": lambda L, x: -x,
    "sin": lambda L, x: L.sin(x),
    "exp": lambda L, x: L.exp(x / 1e5),
    "sqrt": lambda L, x: L.sqrt(x),
    "tanh": lambda L, x: L.tanh(x),
}


@pytest.mark.parametrize("name", sorted(_LARGE_EAGER_RESULTS))
def test_a_large_eager_result_is_computed_where_its_device_buffer_aliases_it(name: str) -> None:
    # An eager elementwise result of 64 KiB or more is written by NumPy
    # straight into aligned memory: passing it to jit transfers it without
    # a copy, its one host home shared with the device buffer.
    compute = _LARGE_EAGER_RESULTS[name]
    y = concrete(compute(jnp, jnp.arange(1 << 15, dtype=jnp.float32)))
    host = np.asarray(y)
    assert host.ctypes.data % 64 == 0
    jit_poly(y)
    assert np.asarray(y).ctypes.data == host.ctypes.data == y.unsafe_buffer_pointer()
    expected = compute(jax_numpy, jax_numpy.arange(1 << 15, dtype=jax_numpy.float32))
    np.testing.assert_allclose(host, np.asarray(expected), rtol=2e-6)


def test_a_small_host_value_keeps_its_own_buffer() -> None:
    # Below the threshold jaxlib's copy is cheap: the host value is kept as it is.
    value = _misaligned(np.arange(8, dtype=np.float32))
    x = ArrayImpl(value, jt.ShapeDtypeStruct((8,), np.float32).aval)
    jit_poly(x)
    assert np.asarray(x) is value


def test_device_put_pytree_and_explicit_device() -> None:
    tree = {"a": np.ones(2, np.float32), "b": [1.0, (np.int32(3), None)]}
    out = jt.device_put(tree, jt.devices()[0])
    assert jt.tree_util.tree_structure(out) == jt.tree_util.tree_structure(tree)
    leaves = jt.tree_util.tree_leaves(out)
    assert all(isinstance(leaf, jt.Array) for leaf in leaves)
    theirs = jax.device_put(tree)
    for ours_leaf, their_leaf in zip(leaves, jax.tree_util.tree_leaves(theirs), strict=True):
        assert repr(ours_leaf) == repr(their_leaf)


def test_device_put_of_an_array_keeps_its_value() -> None:
    x = device_only(np.arange(3, dtype=np.float32))
    y = jt.device_put(x)
    np.testing.assert_array_equal(np.asarray(y), np.asarray(x))
    assert y.dtype == x.dtype


def test_device_put_result_feeds_a_jitted_function() -> None:
    x = jt.device_put(np.arange(4, dtype=np.float32))
    np.testing.assert_allclose(np.asarray(jit_poly(x)), np.arange(4.0) ** 2 + np.arange(4.0))


# === device_get ===


def test_device_get_pytree() -> None:
    x = device_only(np.arange(3, dtype=np.float32))
    tree = {"x": x, "rest": [jnp.asarray(np.int32(7)), 1.5, None, "label"]}
    out: Any = jt.device_get(tree)  # typed object: the leaves of a mixed pytree change type
    assert jt.tree_util.tree_structure(out) == jt.tree_util.tree_structure(tree)
    assert isinstance(out["x"], np.ndarray)
    np.testing.assert_array_equal(out["x"], np.array([0.0, 2.0, 6.0], np.float32))
    assert out["x"].dtype == np.float32
    rest = out["rest"]
    assert isinstance(rest[0], np.ndarray) and rest[0].dtype == np.int32 and rest[0] == 7
    assert rest[1:] == [1.5, None, "label"]  # non-array leaves unchanged


def test_device_get_agrees_with_jax() -> None:
    value = np.arange(6, dtype=np.float32).reshape(2, 3)
    ours = jt.device_get((jit_poly(jnp.asarray(value)),))
    theirs = jax.device_get((jax.jit(poly_any)(value),))
    whole: object = ours
    assert type(whole) is tuple
    first = as_ndarray(ours[0])
    np.testing.assert_array_equal(first, theirs[0])
    assert first.dtype == theirs[0].dtype


# === block_until_ready ===


def test_block_until_ready_returns_its_argument() -> None:
    x = device_only(np.arange(100, dtype=np.float32))
    assert jt.block_until_ready(x) is x
    tree = {"a": [x, device_only(np.ones(3, np.float32))], "b": (None, 1.0)}
    assert jt.block_until_ready(tree) is tree
    assert all(concrete(leaf).is_ready() for leaf in tree["a"])


# === deletion ===


def test_delete() -> None:
    x = device_only(np.arange(3, dtype=np.float32))
    x.delete()
    assert x.is_deleted()
    with pytest.raises(RuntimeError, match="deleted"):
        np.asarray(x)
    with pytest.raises(RuntimeError, match="deleted"):
        jit_poly(x)
    with pytest.raises(RuntimeError, match="deleted"):
        jt.device_get(x)
    with pytest.raises(RuntimeError, match="deleted"):
        jt.device_put(x)


def test_delete_host_born_array() -> None:
    x = concrete(jnp.asarray(np.arange(3, dtype=np.float32)))
    x.delete()
    assert x.is_deleted()
    with pytest.raises(RuntimeError, match="deleted"):
        _ = x + 1.0


def test_host_view_taken_before_delete_stays_valid() -> None:
    x = device_only(np.arange(4, dtype=np.float32))
    view = np.asarray(x)
    x.delete()
    np.testing.assert_array_equal(view, np.array([0.0, 2.0, 6.0, 12.0], np.float32))


def test_block_until_ready_on_a_deleted_array_raises() -> None:
    x = device_only(np.arange(3, dtype=np.float32))
    x.delete()
    with pytest.raises(RuntimeError, match="deleted"):
        x.block_until_ready()


def test_tree_block_until_ready_on_a_deleted_array_raises() -> None:
    x = device_only(np.arange(3, dtype=np.float32))
    x.delete()
    with pytest.raises(RuntimeError, match="deleted"):
        jt.block_until_ready({"x": x})


def test_to_device_moves_as_jax() -> None:
    x = jnp.arange(3.0)
    moved = x.to_device(jt.devices()[1])
    theirs = jax.numpy.arange(3.0).to_device(jax.devices()[1])
    assert [d.id for d in moved.devices()] == [d.id for d in theirs.devices()] == [1]
    np.testing.assert_array_equal(np.asarray(moved), np.asarray(theirs))
    mesh = jt.sharding.Mesh(np.array(jt.devices()[:2]), ("a",))
    laid_out = jnp.arange(4.0).to_device(jt.sharding.NamedSharding(mesh, jt.sharding.PartitionSpec("a")))
    assert {d.id for d in laid_out.devices()} == {0, 1}
