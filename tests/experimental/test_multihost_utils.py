"""``jaxtyped.experimental.multihost_utils`` in one process, against JAX's
``jax.experimental.multihost_utils`` run on the same inputs: results (types,
dtypes, values, shardings), error kinds and messages, and behaviour under
``jit``, ``grad`` and ``vmap``. The several-process behaviour is tested in
``tests/sharding/test_multihost_utils_processes.py``."""

import inspect
from typing import Any, cast

import numpy as np
import pytest
from oracle import jax

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors
from jaxtyped.experimental import multihost_utils as mhu
from jaxtyped.sharding import Mesh, NamedSharding, PartitionSpec as P

jmhu: Any = pytest.importorskip("jax.experimental.multihost_utils")
jsh: Any = pytest.importorskip("jax.sharding")

FUNCTIONS = (
    "broadcast_one_to_all",
    "sync_global_devices",
    "process_allgather",
    "assert_equal",
    "reached_preemption_sync_point",
    "host_local_array_to_global_array",
    "global_array_to_host_local_array",
)


def _meshes() -> tuple[Mesh, Any]:
    return (
        Mesh(np.array(jt.devices()[:8]).reshape(4, 2), ("x", "y")),
        jsh.Mesh(np.array(jax.devices()[:8]).reshape(4, 2), ("x", "y")),
    )


def _same_host(ours: object, theirs: Any) -> None:
    """Same pytree of NumPy arrays: structure, types, dtypes and values."""
    ours_leaves, ours_def = jt.tree.flatten(ours)
    theirs_flat: tuple[list[Any], Any] = jax.tree_util.tree_flatten(theirs)
    theirs_leaves, theirs_def = theirs_flat
    assert str(ours_def) == str(theirs_def)
    for leaf, b in zip(ours_leaves, theirs_leaves, strict=True):
        assert type(leaf) is type(b) is np.ndarray
        a = cast(np.ndarray[Any, np.dtype[Any]], leaf)
        assert a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(a, b)


def test_names_and_signatures_are_jaxs() -> None:
    assert set(mhu.__all__) == {*FUNCTIONS, "ProcessFailureError"}
    for name in FUNCTIONS:
        ours = inspect.signature(getattr(mhu, name)).parameters
        theirs = inspect.signature(getattr(jmhu, name)).parameters
        assert [(p.name, p.kind, p.default) for p in ours.values()] == [
            (p.name, p.kind, p.default) for p in theirs.values()
        ], name
    device = jt.devices()[0]
    error = mhu.ProcessFailureError({device})
    assert error.failed_devices == {device} and str(error) == str(jmhu.ProcessFailureError({jax.devices()[0]}))


def _trees(lib: Any, lnp: Any) -> list[Any]:
    x = np.arange(6.0).reshape(2, 3)  # float64: kept on the host paths, as JAX
    return [
        x,
        3,
        2.5,
        np.int8(7),
        {"a": x, "b": [1, (2.0, np.float32(1.5))], "c": None},
        lnp.arange(4, dtype=lnp.int32),
        (lnp.ones((2, 2), lnp.bfloat16), np.array([True, False])),
    ]


@pytest.mark.parametrize("case", range(7))
def test_broadcast_one_to_all(case: int) -> None:
    ours: object = _trees(jt, jnp)[case]
    theirs = _trees(jax, jax.numpy)[case]
    _same_host(mhu.broadcast_one_to_all(ours), jmhu.broadcast_one_to_all(theirs))
    _same_host(mhu.broadcast_one_to_all(ours, is_source=False), jmhu.broadcast_one_to_all(theirs, is_source=False))


@pytest.mark.parametrize("tiled", [False, True])
@pytest.mark.parametrize("case", range(7))
def test_process_allgather(case: int, tiled: bool) -> None:
    ours: object = _trees(jt, jnp)[case]
    theirs = _trees(jax, jax.numpy)[case]
    _same_host(mhu.process_allgather(ours, tiled), jmhu.process_allgather(theirs, tiled))


@pytest.mark.parametrize("case", range(7))
def test_assert_equal_passes(case: int) -> None:
    mhu.assert_equal(_trees(jt, jnp)[case], "never")
    jmhu.assert_equal(_trees(jax, jax.numpy)[case], "never")


@pytest.mark.parametrize("value", [np.nan, np.array([1.0, np.nan]), {"a": np.float32(np.nan)}])
def test_assert_equal_fails_on_nan_as_jax(value: Any) -> None:
    with pytest.raises(AssertionError) as theirs:
        jmhu.assert_equal(value, "mismatch")
    with pytest.raises(AssertionError) as ours:
        mhu.assert_equal(value, "mismatch")
    assert str(ours.value) == str(theirs.value)
    assert str(ours.value).startswith("mismatch. Expected: ")


def test_sync_and_preemption_point_in_one_process() -> None:
    mhu.sync_global_devices("step")
    jmhu.sync_global_devices("step")
    assert mhu.reached_preemption_sync_point(3) is False
    assert jmhu.reached_preemption_sync_point(3) is False


SPECS = [P("x"), P(), P("x", "y"), P(("x", "y")), P(None, "y")]


@pytest.mark.parametrize("spec", range(len(SPECS)))
def test_host_local_to_global_and_back(spec: int) -> None:
    mesh, jmesh = _meshes()
    ours_spec, theirs_spec = SPECS[spec], jsh.PartitionSpec(*SPECS[spec])
    local = np.arange(32.0).reshape(8, 4)  # float64 becomes float32, as JAX
    ours = mhu.host_local_array_to_global_array(local, mesh, ours_spec)
    theirs = jmhu.host_local_array_to_global_array(local, jmesh, theirs_spec)
    assert isinstance(ours, jt.Array)
    assert ours.shape == theirs.shape and ours.dtype == theirs.dtype
    np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
    assert ours.sharding == NamedSharding(mesh, ours_spec)
    assert [s.index for s in ours.addressable_shards] == [s.index for s in theirs.addressable_shards]
    # Back: an array held by this process is returned as it is (as JAX).
    assert mhu.global_array_to_host_local_array(ours, mesh, ours_spec) is ours
    assert jmhu.global_array_to_host_local_array(theirs, jmesh, theirs_spec) is theirs
    # A NumPy value is laid out over the (local) mesh.
    ours_np = mhu.global_array_to_host_local_array(local, mesh, ours_spec)
    theirs_np = jmhu.global_array_to_host_local_array(local, jmesh, theirs_spec)
    assert ours_np.dtype == theirs_np.dtype and ours_np.sharding == NamedSharding(mesh, ours_spec)
    np.testing.assert_array_equal(np.asarray(ours_np), np.asarray(theirs_np))


def test_conversions_of_pytrees() -> None:
    mesh, jmesh = _meshes()
    tree = {"w": np.ones((4, 2), np.float32), "b": (np.arange(8), np.zeros(2, np.int16))}
    specs = {"w": P("x"), "b": P()}
    jspecs = {"w": jsh.PartitionSpec("x"), "b": jsh.PartitionSpec()}
    ours: Any = mhu.host_local_array_to_global_array(tree, mesh, specs)  # a dict of mixed leaves: typed object
    theirs = jmhu.host_local_array_to_global_array(tree, jmesh, jspecs)
    theirs_leaves: list[Any] = jax.tree_util.tree_leaves(theirs)
    ours_leaves = jt.tree.leaves(cast(object, ours))
    for a, b in zip(ours_leaves, theirs_leaves, strict=True):
        assert isinstance(a, jt.Array) and a.dtype == b.dtype and a.shape == b.shape
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
    assert ours["b"][0].sharding == NamedSharding(mesh, P())
    # One spec for a tuple of inputs applies to each; a tuple of specs pairs them.
    pair = (np.arange(8.0), np.arange(4.0))
    both: Any = mhu.host_local_array_to_global_array(pair, mesh, P("x"))
    assert [a.sharding.spec for a in both] == [P("x"), P("x")]
    mixed: Any = mhu.global_array_to_host_local_array(pair, mesh, (P("x"), P()))
    assert [a.sharding.spec for a in mixed] == [P("x"), P()]


def _both_raise(ours: Any, theirs: Any, kind: type[BaseException], match: str) -> None:
    with pytest.raises(kind):
        theirs()
    with pytest.raises(kind, match=match):
        ours()


def test_conversion_errors_are_jaxs_kinds() -> None:
    mesh, jmesh = _meshes()
    x = np.arange(8.0)
    for function in ["host_local_array_to_global_array", "global_array_to_host_local_array"]:
        ours_f: Any = getattr(mhu, function)
        theirs_f: Any = getattr(jmhu, function)
        name = function[:15]
        _both_raise(lambda: ours_f(x, mesh, None), lambda: theirs_f(x, jmesh, None), ValueError, f"{name[:10]}.*None")
        # JAX's global_array_to_host_local_array fails an internal assert here; ours is a ValueError.
        with pytest.raises(ValueError if name.startswith("host_local") else AssertionError):
            theirs_f(np.arange(7.0), jmesh, jsh.PartitionSpec("x"))
        with pytest.raises(errors.JaxtypedValueError, match="evenly divide"):
            ours_f(np.arange(7.0), mesh, P("x"))
        _both_raise(
            lambda: ours_f((x, x), mesh, (P(),)),
            lambda: theirs_f((x, x), jmesh, (jsh.PartitionSpec(),)),
            ValueError,
            f"{name[:10]}.*pspecs",
        )
    with pytest.raises(errors.JaxtypedValueError):
        mhu.host_local_array_to_global_array(x, mesh, (P(),))  # a tuple of specs for one array is not a prefix


def test_key_arrays_convert_as_jaxs() -> None:
    mesh, jmesh = _meshes()
    ours = mhu.host_local_array_to_global_array(jt.random.split(jt.random.key(0), 8), mesh, P("x"))
    jkeys = jax.random.split(jax.random.key(0), 8)
    theirs = jmhu.host_local_array_to_global_array(jkeys, jmesh, jsh.PartitionSpec("x"))
    assert str(ours.dtype) == str(theirs.dtype) and ours.shape == theirs.shape
    np.testing.assert_array_equal(np.asarray(jt.random.key_data(ours)), np.asarray(jax.random.key_data(theirs)))
    back = mhu.global_array_to_host_local_array(ours, mesh, P("x"))
    np.testing.assert_array_equal(np.asarray(jt.random.key_data(back)), np.asarray(jax.random.key_data(theirs)))


@pytest.mark.parametrize("name", ["broadcast_one_to_all", "process_allgather", "assert_equal"])
def test_host_reading_functions_reject_key_arrays(name: str) -> None:
    with pytest.raises(TypeError, match="PRNGKey dtype cannot be converted to a NumPy array"):
        getattr(jmhu, name)(jax.random.key(0))
    with pytest.raises(errors.JaxtypedTypeError, match="PRNGKey dtype cannot be converted to a NumPy array"):
        getattr(mhu, name)({"k": jt.random.key(0)})


def test_host_reading_functions_reject_traced_inputs() -> None:
    def broadcast(x: jt.Array) -> object:
        return mhu.broadcast_one_to_all(x)

    def gather(x: jt.Array) -> object:
        return mhu.process_allgather(x)

    def check(x: jt.Array) -> object:
        mhu.assert_equal(x)
        return x

    for name, ours in [("broadcast_one_to_all", broadcast), ("process_allgather", gather), ("assert_equal", check)]:
        with pytest.raises(jax.errors.TracerArrayConversionError):
            jax.jit(getattr(jmhu, name))(jax.numpy.arange(4.0))
        with pytest.raises(errors.TracerArrayConversionError, match=f"{name}: in_tree holds a traced array"):
            jt.jit(ours)(jnp.arange(4.0))


def test_conversions_under_transformations_are_the_identity() -> None:
    mesh, jmesh = _meshes()
    x, jx = jnp.arange(16.0).reshape(2, 8), jax.numpy.arange(16.0).reshape(2, 8)

    def ltg(a: jt.Array) -> jt.Array:
        return mhu.host_local_array_to_global_array(a, mesh, P("x"))

    def jltg(a: Any) -> Any:
        return jmhu.host_local_array_to_global_array(a, jmesh, jsh.PartitionSpec("x"))

    def gtl(a: jt.Array) -> jt.Array:
        return mhu.global_array_to_host_local_array(a, mesh, P("x"))

    def jgtl(a: Any) -> Any:
        return jmhu.global_array_to_host_local_array(a, jmesh, jsh.PartitionSpec("x"))

    np.testing.assert_array_equal(jt.jit(ltg)(x[0]), jax.jit(jltg)(jx[0]))
    np.testing.assert_array_equal(jt.jit(gtl)(x[0]), jax.jit(jgtl)(jx[0]))
    np.testing.assert_array_equal(jt.vmap(ltg)(x), jax.vmap(jltg)(jx))
    def loss(a: jt.Array) -> jt.Array:
        return (ltg(a) ** 2).sum()

    def jloss(a: Any) -> Any:
        return (jltg(a) ** 2).sum()

    np.testing.assert_array_equal(jt.grad(loss)(x[0]), jax.grad(jloss)(jx[0]))
