"""Several devices (issue 17, steps 1 and 2), compared with JAX on the same
device count: device queries, ``Mesh``/``PartitionSpec``/``NamedSharding``,
``device_put`` to a sharding, array layouts (``.sharding``,
``.addressable_shards``), ``jit`` over sharded arguments, ``in_shardings``/
``out_shardings`` and ``with_sharding_constraint``.

The suite runs with 8 CPU devices in both libraries (``tests/conftest.py``
sets ``jax_num_cpu_devices`` before either backend starts).
"""

# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false
# (the cases are lambdas over either library's arrays, untyped by design)

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from oracle import assert_same, jax, jax_numpy

import jaxtyped as jt
import jaxtyped.numpy as jnp
import jaxtyped.sharding as jts
from jaxtyped import errors

jsh: Any = pytest.importorskip("jax.sharding")

# Layout queries (``.sharding``, ``.addressable_shards``) live on concrete
# arrays, not on ``jt.Array``; the tests read them through untyped aliases.
jt_any: Any = jt
jnp_any: Any = jnp

N_DEVICES = 8  # tests/conftest.py's TEST_DEVICE_COUNT


def _meshes() -> tuple[jts.Mesh, Any]:
    """The same 2x2 mesh in both libraries (``make_mesh``: Explicit axes)."""
    return jt.make_mesh((2, 2), ("a", "b")), jax.make_mesh((2, 2), ("a", "b"))


def _auto_meshes() -> tuple[jts.Mesh, Any]:
    """A 2x2 mesh with Auto axes (the ``Mesh`` constructor's default)."""
    ours = jts.Mesh(np.array(jt.devices()[:4]).reshape(2, 2), ("a", "b"))
    theirs = jsh.Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("a", "b"))
    return ours, theirs


def _layout(x: Any) -> list[tuple[int, str, int, tuple[int, ...]]]:
    """Per shard: device id, index, replica id, data shape (either library)."""
    return sorted((s.device.id, str(s.index), s.replica_id, tuple(s.data.shape)) for s in x.addressable_shards)


# === devices ===


def test_device_queries_match_jax() -> None:
    assert jt.device_count() == jax.device_count() == N_DEVICES
    assert jt.local_device_count() == jax.local_device_count()
    assert [d.id for d in jt.devices()] == [d.id for d in jax.devices()]
    assert (jt.process_index(), jt.process_count()) == (jax.process_index(), jax.process_count()) == (0, 1)


def test_device_count_is_fixed_once_the_backend_started() -> None:
    jt.devices()
    with pytest.raises(RuntimeError, match="before backends are initialized"):
        jt.config.update("jax_num_cpu_devices", 2)
    assert jt.config.jax_num_cpu_devices == N_DEVICES


def test_device_count_rejects_non_integers() -> None:
    with pytest.raises(errors.JaxtypedValueError, match="positive int"):
        jt.config.update("jax_num_cpu_devices", 0)


def test_single_device_array_layout_matches_jax() -> None:
    ours, theirs = jnp_any.arange(8.0), jax_numpy.arange(8.0)
    assert repr(ours.sharding) == repr(theirs.sharding)
    assert ours.is_fully_replicated and theirs.is_fully_replicated
    assert _layout(ours) == _layout(theirs)


def test_device_put_to_another_device() -> None:
    x = jt_any.device_put(jnp_any.arange(3.0), jt.devices()[2])
    assert x.devices() == {jt.devices()[2]}
    assert repr(x.sharding) == repr(jax.device_put(jax_numpy.arange(3.0), jax.devices()[2]).sharding)
    np.testing.assert_array_equal(np.asarray(x), np.arange(3.0, dtype=np.float32))


def test_astype_to_another_device_matches_jax() -> None:
    # JAX's astype(device=...) places the result; it used to be ignored here.
    ours = [jnp.astype(jnp.arange(3), jnp.float16, device=jt.devices()[1]), jnp.arange(3).astype(jnp.float16, device=jt.devices()[2])]
    theirs = [jax_numpy.astype(jax_numpy.arange(3), jax_numpy.float16, device=jax.devices()[1]),
              jax_numpy.arange(3).astype(jax_numpy.float16, device=jax.devices()[2])]  # fmt: skip
    for x, y, device in zip(ours, theirs, jt.devices()[1:3], strict=True):
        assert x.devices() == {device} and x.dtype == y.dtype
        assert repr(x.sharding) == repr(y.sharding)
    on_first = jnp.arange(2).astype(jnp.float32, copy=True)
    assert on_first.devices() == {jt.devices()[0]} and on_first.dtype == jnp.float32


CREATION_ON_A_DEVICE: dict[str, Callable[[Any, Any, Any], Any]] = {
    "array": lambda L, x, d: L.array([1.0, 2.0], device=d),
    "asarray": lambda L, x, d: L.asarray(x, device=d),
    "zeros": lambda L, x, d: L.zeros(3, device=d),
    "ones": lambda L, x, d: L.ones((2, 2), L.int32, device=d),
    "empty": lambda L, x, d: L.empty(2, device=d),
    # (placed, full and the *_like functions drop a weak type, as JAX's do)
    "full": lambda L, x, d: L.full(3, 7.0, device=d),
    "zeros_like": lambda L, x, d: L.zeros_like(L.asarray(1.0), device=d),
    "ones_like": lambda L, x, d: L.ones_like(L.asarray(1.0), device=d),
    "full_like": lambda L, x, d: L.full_like(x, 2, device=d),
    "empty_like": lambda L, x, d: L.empty_like(L.asarray(1.0), device=d),
    "arange": lambda L, x, d: L.arange(4, device=d),
    "linspace": lambda L, x, d: L.linspace(0.0, 1.0, 5, device=d),
    "eye": lambda L, x, d: L.eye(3, device=d),
}


@pytest.mark.parametrize("name", sorted(CREATION_ON_A_DEVICE))
def test_creation_on_a_device_matches_jax(name: str) -> None:
    make = CREATION_ON_A_DEVICE[name]
    ours = make(jnp, jnp.arange(3.0), jt.devices()[1])
    theirs = make(jax_numpy, jax_numpy.arange(3.0), jax.devices()[1])
    assert ours.devices() == {jt.devices()[1]} and repr(ours.sharding) == repr(theirs.sharding)
    assert_same(ours, theirs)
    unplaced = make(jnp, jnp.arange(3.0), None)
    assert unplaced.devices() == {jt.devices()[0]}
    assert_same(unplaced, make(jax_numpy, jax_numpy.arange(3.0), None))


# === meshes, specs, shardings ===


def test_mesh_and_spec_reprs_match_jax() -> None:
    ours, theirs = _meshes()
    assert repr(ours) == repr(theirs)
    assert dict(ours.shape) == dict(theirs.shape)
    assert ours.size == theirs.size and ours.axis_names == theirs.axis_names
    for spec in [(), ("a",), ("a", None), (None, "b"), (("a", "b"),), ("a", ("b",))]:
        assert repr(jts.P(*spec)) == repr(jsh.PartitionSpec(*spec))
    sharding = jts.NamedSharding(ours, jts.P("a"))
    assert repr(sharding) == repr(jsh.NamedSharding(theirs, jsh.PartitionSpec("a")))


def test_mesh_context_manager_gives_bare_specs_a_mesh() -> None:
    mesh, _ = _auto_meshes()
    with pytest.raises(errors.JaxtypedValueError, match="needs a mesh"):
        jt_any.lax.with_sharding_constraint(jnp_any.ones(4), jts.P("a"))
    with mesh:
        out = jt_any.jit(lambda x: jt_any.lax.with_sharding_constraint(x * 2, jts.P("a")))(jnp_any.arange(4.0))
    assert isinstance(out.sharding, jts.NamedSharding) and out.sharding.spec == jts.P("a")
    np.testing.assert_array_equal(np.asarray(out), np.arange(4.0, dtype=np.float32) * 2)


def test_bad_specs_are_rejected() -> None:
    mesh, _ = _meshes()
    with pytest.raises(errors.JaxtypedValueError, match="not in"):
        jts.NamedSharding(mesh, jts.P("c"))
    with pytest.raises(errors.JaxtypedValueError, match="twice"):
        jts.NamedSharding(mesh, jts.P("a", "a"))
    with pytest.raises(errors.JaxtypedValueError, match="needs 16 devices"):
        jt.make_mesh((4, 4), ("a", "b"))


@pytest.mark.parametrize(
    "spec, shape",
    [(("a",), (4, 2)), (("a", "b"), (4, 2)), ((None, "b"), (4, 2)), ((("a", "b"),), (8,)), ((), (4, 2)), (("b",), (2, 3))],
)
def test_device_put_sharded_layout_matches_jax(spec: tuple[Any, ...], shape: tuple[int, ...]) -> None:
    mesh, jmesh = _meshes()
    value = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    ours = jt_any.device_put(jnp_any.asarray(value), jts.NamedSharding(mesh, jts.P(*spec)))
    theirs = jax.device_put(jax_numpy.asarray(value), jsh.NamedSharding(jmesh, jsh.PartitionSpec(*spec)))
    assert repr(ours.sharding) == repr(theirs.sharding)
    assert ours.is_fully_replicated == theirs.is_fully_replicated
    assert _layout(ours) == _layout(theirs)
    assert ours.sharding.shard_shape(shape) == theirs.sharding.shard_shape(shape)
    assert {d.id for d in ours.devices()} == {d.id for d in theirs.devices()}
    assert_same(ours, theirs)
    for shard, their_shard in zip(
        sorted(ours.addressable_shards, key=lambda s: s.device.id),
        sorted(theirs.addressable_shards, key=lambda s: s.device.id),
    ):
        np.testing.assert_array_equal(np.asarray(shard.data), np.asarray(their_shard.data))


def test_device_put_uneven_split_is_the_same_error() -> None:
    mesh, jmesh = _meshes()
    with pytest.raises(ValueError, match="evenly divide") as theirs:
        jax.device_put(jax_numpy.arange(3.0), jsh.NamedSharding(jmesh, jsh.PartitionSpec("a")))
    with pytest.raises(errors.JaxtypedValueError, match="evenly divide") as ours:
        jt_any.device_put(jnp_any.arange(3.0), jts.NamedSharding(mesh, jts.P("a")))
    assert theirs.type is ValueError
    assert str(ours.value) == str(theirs.value)


UNEVEN: list[tuple[tuple[int, ...], tuple[Any, ...]]] = [
    ((10, 3), ("a",)),
    ((8, 3), ("a", "b")),
    ((6, 4), (("a", "b"),)),
    ((4, 6), (None, ("b", "a"))),
]


@pytest.mark.parametrize("shape, spec", UNEVEN, ids=[f"{s}-{p}" for s, p in UNEVEN])
def test_uneven_split_on_auto_axes_is_jaxs_error(shape: tuple[int, ...], spec: tuple[Any, ...]) -> None:
    """JAX 0.10.2 does not pad an uneven split: device_put and jit's
    in_shardings raise its IndivisibleError (a ValueError), same text."""
    mesh = jts.Mesh(np.array(jt.devices()).reshape(4, 2), ("a", "b"))
    jmesh = jsh.Mesh(np.array(jax.devices()).reshape(4, 2), ("a", "b"))
    x = np.zeros(shape, np.float32)
    with pytest.raises(ValueError) as theirs:
        jax.device_put(x, jsh.NamedSharding(jmesh, jsh.PartitionSpec(*spec)))
    with pytest.raises(errors.JaxtypedValueError) as ours:
        jt_any.device_put(x, jts.NamedSharding(mesh, jts.P(*spec)))
    assert str(ours.value) == str(theirs.value)
    with pytest.raises(errors.JaxtypedValueError) as ours_jit:
        jt_any.jit(lambda v: v, in_shardings=jts.NamedSharding(mesh, jts.P(*spec)))(x)
    assert str(theirs.value) in str(ours_jit.value)


# === jit over several devices ===

SHARDED_PROGRAMS: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("scale", lambda L, x: x * 2 + 1),
    ("sum-0", lambda L, x: L.sum(x, axis=0)),
    ("sum-1", lambda L, x: L.sum(x, axis=1)),
    ("sum-all", lambda L, x: L.sum(x)),
    ("gram", lambda L, x: x @ x.T),
    ("sin-transpose", lambda L, x: L.sin(x).T),
]


@pytest.mark.parametrize("name, program", SHARDED_PROGRAMS, ids=[n for n, _ in SHARDED_PROGRAMS])
@pytest.mark.parametrize("auto", [False, True], ids=["explicit-axes", "auto-axes"])
def test_jit_of_sharded_argument_matches_jax(name: str, program: Callable[[Any, Any], Any], auto: bool) -> None:
    if name == "gram" and not auto:
        pytest.skip("JAX rejects this product on Explicit axes (sharding in types); jaxtyped treats axis types as labels")
    mesh, jmesh = _auto_meshes() if auto else _meshes()
    value = np.arange(8.0, dtype=np.float32).reshape(4, 2)
    x = jt_any.device_put(jnp_any.asarray(value), jts.NamedSharding(mesh, jts.P("a")))
    jx = jax.device_put(jax_numpy.asarray(value), jsh.NamedSharding(jmesh, jsh.PartitionSpec("a")))
    ours = jt_any.jit(lambda v: program(jnp, v))(x)
    theirs = jax.jit(lambda v: program(jax_numpy, v))(jx)
    assert_same(ours, theirs)
    assert repr(ours.sharding) == repr(theirs.sharding), name
    # ... and the same values as on one device.
    assert_same(jt_any.jit(lambda v: program(jnp, v))(jnp_any.asarray(value)), theirs)


def test_jit_in_and_out_shardings_match_jax() -> None:
    mesh, jmesh = _meshes()
    value = np.arange(8.0, dtype=np.float32).reshape(4, 2)
    ours_fn = jt_any.jit(
        lambda a: a @ a.T,
        in_shardings=jts.NamedSharding(mesh, jts.P("a")),
        out_shardings=jts.NamedSharding(mesh, jts.P(None, "b")),
    )
    theirs_fn = jax.jit(
        lambda a: a @ a.T,
        in_shardings=jsh.NamedSharding(jmesh, jsh.PartitionSpec("a")),
        out_shardings=jsh.NamedSharding(jmesh, jsh.PartitionSpec(None, "b")),
    )
    ours, theirs = ours_fn(jnp_any.asarray(value)), theirs_fn(jax_numpy.asarray(value))
    assert_same(ours, theirs)
    assert repr(ours.sharding) == repr(theirs.sharding)
    assert _layout(ours) == _layout(theirs)
    # A second call hits the caches and gives the same layout.
    assert repr(ours_fn(jnp_any.asarray(value)).sharding) == repr(theirs.sharding)


def test_jit_per_argument_and_per_output_shardings() -> None:
    mesh, jmesh = _meshes()
    a, b = np.arange(8.0, dtype=np.float32).reshape(4, 2), np.ones((4, 2), np.float32)

    def run(api: Any, L: Any, sh: Any, m: Any) -> Any:
        fn = api.jit(
            lambda x, y: (x + y, (x * y).sum(axis=1)),
            in_shardings=(sh.NamedSharding(m, sh.PartitionSpec("a")), None),
            out_shardings=(sh.NamedSharding(m, sh.PartitionSpec("b")), None),
        )
        return fn(L.asarray(a), L.asarray(b))

    ours, theirs = run(jt, jnp, jts, mesh), run(jax, jax_numpy, jsh, jmesh)
    assert_same(ours, theirs)
    assert repr(ours[0].sharding) == repr(theirs[0].sharding)
    assert repr(ours[1].sharding) == repr(theirs[1].sharding)


def test_with_sharding_constraint_matches_jax() -> None:
    mesh, jmesh = _auto_meshes()
    value = np.arange(8.0, dtype=np.float32)
    ours = jt_any.jit(lambda x: jt_any.lax.with_sharding_constraint(x * 2, jts.NamedSharding(mesh, jts.P("b"))))(jnp_any.asarray(value))
    theirs = jax.jit(
        lambda x: jax.lax.with_sharding_constraint(x * 2, jsh.NamedSharding(jmesh, jsh.PartitionSpec("b")))
    )(jax_numpy.asarray(value))
    assert_same(ours, theirs)
    assert _layout(ours) == _layout(theirs)
    # Eagerly the value is laid out as asked, as JAX's is; its value is unchanged.
    eager = jt_any.lax.with_sharding_constraint(jnp_any.asarray(value), jts.NamedSharding(mesh, jts.P("b")))
    theirs_eager = jax.lax.with_sharding_constraint(jax_numpy.asarray(value), jsh.NamedSharding(jmesh, jsh.PartitionSpec("b")))
    np.testing.assert_array_equal(np.asarray(eager), value)
    assert _layout(eager) == _layout(theirs_eager)
    grad = jt_any.grad(lambda x: jnp.sum(jt_any.lax.with_sharding_constraint(x, jts.NamedSharding(mesh, jts.P("a"))) ** 2))
    np.testing.assert_allclose(np.asarray(grad(jnp_any.asarray(value))), 2 * value)
    batched = jt_any.vmap(lambda x: jt_any.lax.with_sharding_constraint(x, jts.NamedSharding(mesh, jts.P("a"))))(
        jnp_any.ones((3, 4))
    )
    assert batched.shape == (3, 4)


def test_sharding_constraint_prints_in_jaxprs() -> None:
    mesh, _ = _auto_meshes()
    sharding = jts.NamedSharding(mesh, jts.P("a"))
    text = str(jt_any.make_jaxpr(lambda x: jt_any.lax.with_sharding_constraint(x, sharding))(jnp_any.ones((4, 2))))
    assert "sharding_constraint[" in text and "spec=P('a',)" in text


def test_sharded_arguments_across_different_meshes_are_rejected() -> None:
    mesh, _ = _meshes()
    small = jts.Mesh(np.array(jt.devices()[:2]), ("a",))
    x = jt_any.device_put(jnp_any.ones((4,)), jts.NamedSharding(mesh, jts.P("a")))
    y = jt_any.device_put(jnp_any.ones((4,)), jts.NamedSharding(small, jts.P("a")))
    with pytest.raises(errors.JaxtypedValueError, match="incompatible devices"):
        jt_any.jit(lambda u, v: u + v)(x, y)


# === device_put of arrays already on a device stays on the devices ===


@pytest.mark.parametrize("spec", [(), ("a",), ("a", "b"), (None, "b")], ids=["replicated", "a", "a-b", "none-b"])
def test_device_put_of_device_arrays_never_goes_through_the_host(spec: tuple[Any, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    import jaxtyped._src.api_device as api_device

    mesh = jts.Mesh(np.array(jt.devices()[:4]).reshape(2, 2), ("a", "b"))
    x = jt_any.jit(lambda: jnp_any.arange(24.0).reshape(4, 6))()  # a device buffer, no host copy
    host_reads: list[object] = []
    monkeypatch.setattr(api_device, "host_buffer", lambda a: host_reads.append(a))
    on_three = jt_any.device_put(x, jt.devices()[3])
    sharded = jt_any.device_put(x, jts.NamedSharding(mesh, jts.P(*spec)))
    monkeypatch.undo()
    assert host_reads == []
    assert on_three.devices() == {jt.devices()[3]}
    theirs = jax.device_put(jax_numpy.arange(24.0).reshape(4, 6), jax.sharding.NamedSharding(
        jax.sharding.Mesh(np.array(jax.devices()[:4]).reshape(2, 2), ("a", "b")), jax.sharding.PartitionSpec(*spec)))
    assert _layout(sharded) == _layout(theirs)
    assert_same(sharded, theirs)
    assert_same(on_three, jax_numpy.arange(24.0).reshape(4, 6))


# === computations follow an array committed to one device ===

COMMITTED: list[tuple[str, Callable[[Any, Any, Any, Any], Any]]] = [
    # (L: the library, x: on the default device, y: put on device 2)
    ("jit", lambda L, N, x, y: L.jit(lambda a: a * 2)(y)),
    ("jit-twice", lambda L, N, x, y: L.jit(lambda a: a * 2)(L.jit(lambda a: a + 1)(y))),
    ("jit-mixed", lambda L, N, x, y: L.jit(lambda a, b: a + b)(x, y)),
    ("eager-sin", lambda L, N, x, y: N.sin(y)),
    ("eager-mixed", lambda L, N, x, y: x + y),
    ("index", lambda L, N, x, y: y[1:]),
    ("grad", lambda L, N, x, y: L.grad(lambda a: N.sum(a * a))(y)),
    ("vmap", lambda L, N, x, y: L.vmap(lambda a: a * 3)(y)),
    ("back-to-default", lambda L, N, x, y: L.device_put(y, L.devices()[0])),
]


@pytest.mark.parametrize("name, program", COMMITTED, ids=[n for n, _ in COMMITTED])
def test_computations_follow_a_committed_device_as_jax(name: str, program: Callable[[Any, Any, Any, Any], Any]) -> None:
    def run(L: Any, N: Any) -> Any:
        x = N.arange(3.0)
        return program(L, N, x, L.device_put(x, L.devices()[2]))

    ours, theirs = run(jt, jnp_any), run(jax, jax_numpy)
    assert {d.id for d in ours.devices()} == {d.id for d in theirs.devices()}
    assert_same(ours, theirs)


def test_arrays_committed_to_different_devices_are_refused_as_jax() -> None:
    libraries: list[tuple[Any, Any]] = [(jt, jnp_any), (jax, jax_numpy)]
    for L, N in libraries:
        y, z = L.device_put(N.arange(3.0), L.devices()[2]), L.device_put(N.arange(3.0), L.devices()[1])
        with pytest.raises(ValueError, match="incompatible devices"):
            L.jit(lambda a, b: a + b)(y, z)
        with pytest.raises(ValueError, match="incompatible devices"):
            _ = y + z


# === eager operations on sharded arrays (H17 item 3) ===

EAGER_OPS: list[tuple[str, Callable[[Any, Any], Any]]] = [
    ("add-scalar", lambda L, x: x + 1),
    ("sin", lambda L, x: L.sin(x)),
    ("mul", lambda L, x: x * x),
    ("sum", lambda L, x: L.sum(x)),
    ("sum-0", lambda L, x: L.sum(x, axis=0)),
    ("transpose", lambda L, x: x.T),
    ("matmul", lambda L, x: x @ x.T),
    ("where", lambda L, x: L.where(x > 3, x, 0.0)),
]


@pytest.mark.parametrize("name, op", EAGER_OPS, ids=[n for n, _ in EAGER_OPS])
def test_eager_ops_on_sharded_arrays_run_on_the_devices_with_jaxs_shardings(
    name: str, op: Callable[[Any, Any], Any]
) -> None:
    """An eager operation with an operand spanning several devices runs as
    a program over them (not on the host) and its result keeps the layout
    the partitioner gives, as in JAX."""
    value = np.arange(32.0, dtype=np.float32).reshape(8, 4)
    mesh = jts.Mesh(np.array(jt.devices()).reshape(4, 2), ("a", "b"))
    jmesh = jsh.Mesh(np.array(jax.devices()).reshape(4, 2), ("a", "b"))
    x = jt_any.device_put(value, jts.NamedSharding(mesh, jts.P("a", "b")))
    jx = jax.device_put(value, jsh.NamedSharding(jmesh, jsh.PartitionSpec("a", "b")))
    ours = op(jnp_any, x).block_until_ready()
    theirs = op(jax_numpy, jx)
    assert_same(ours, theirs)
    assert len(ours.sharding.device_set) == 8
    assert tuple(ours.sharding.spec) == tuple(theirs.sharding.spec), name
