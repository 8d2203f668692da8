"""``jaxtyped.extend.sharding`` (JEP 15856) against ``jax.extend.sharding``:
the serialised-proto conversions give the same bytes, a jaxtyped
sharding's XLA view equals JAX's for the same mesh and spec, and a
``GSPMDSharding`` built from an XLA sharding lays arrays out as JAX's does
(slices per device, shard shape, replication), under ``device_put`` and
``jit``."""

# pyright: reportUnknownArgumentType=false, reportUnknownMemberType=false, reportUnknownVariableType=false, reportUnknownLambdaType=false
# (layouts of concrete arrays, ``.sharding``/``.addressable_shards``, are read through untyped aliases)

import importlib
from typing import Any

import numpy as np
import pytest
from oracle import debug_violations, jax

import jaxtyped as jt
from jaxtyped import errors
from jaxtyped.extend import sharding as ext
from jaxtyped.sharding import NamedSharding, PartitionSpec as P, SingleDeviceSharding

XC = ext.xla_client
JAX_EXT: Any = importlib.import_module("jax.extend.sharding")

# (mesh shape, axis names, spec, array shape): tiled, replicated on an unused axis, two axes on one dim.
LAYOUTS = [
    ((4,), ("x",), P("x"), (8, 2)),
    ((2, 2), ("x", "y"), P("y"), (4, 6)),
    ((2, 2), ("x", "y"), P(None, ("x", "y")), (2, 8)),
    ((2, 2), ("x", "y"), P("y", "x"), (4, 2)),
    ((2, 2), ("x", "y"), P(), (3,)),
]
IDS = ["1d", "partial-replica", "two-axes-one-dim", "transposed", "replicated"]


def _ours(mesh_shape: tuple[int, ...], names: tuple[str, ...], spec: P) -> NamedSharding:
    n = int(np.prod(mesh_shape))
    return NamedSharding(jt.make_mesh(mesh_shape, names, devices=jt.devices()[:n]), spec)


def _theirs(mesh_shape: tuple[int, ...], names: tuple[str, ...], spec: P) -> Any:
    n = int(np.prod(mesh_shape))
    mesh = jax.sharding.Mesh(np.array(jax.devices()[:n]).reshape(mesh_shape), names)
    return jax.sharding.NamedSharding(mesh, jax.sharding.PartitionSpec(*spec))


def _indices(mapping: Any) -> list[tuple[tuple[int | None, int | None], ...]]:
    """Per device id, its slice as (start, stop) pairs (comparable across libraries)."""
    return [
        tuple((s.start, s.stop) for s in mapping[d])
        for d in sorted(mapping, key=lambda d: d.id)
    ]


def test_names_match_jax() -> None:
    theirs = {n for n in dir(JAX_EXT) if not n.startswith("_")}
    assert theirs <= set(ext.__all__), theirs - set(ext.__all__)


@pytest.mark.parametrize(("mesh_shape", "names", "spec", "shape"), LAYOUTS, ids=IDS)
def test_hlo_sharding_of_matches_jax(mesh_shape: tuple[int, ...], names: tuple[str, ...], spec: P, shape: tuple[int, ...]) -> None:
    ours = ext.hlo_sharding_of(_ours(mesh_shape, names, spec), len(shape))
    theirs = _theirs(mesh_shape, names, spec)._to_xla_hlo_sharding(len(shape))
    assert ours == XC.HloSharding.from_string(str(theirs)), (str(ours), str(theirs))
    # The serialised protos convert both ways.
    data = ext.get_serialized_proto_from_hlo_sharding(ours)
    assert ext.get_hlo_sharding_from_serialized_proto(data) == ours
    assert JAX_EXT.get_hlo_sharding_from_serialized_proto(data) == theirs
    # JAX serialises the iota form of the same tiling: equal once parsed, by either library.
    their_data = JAX_EXT.get_serialized_proto_from_hlo_sharding(theirs)
    assert ext.get_hlo_sharding_from_serialized_proto(their_data) == ours
    assert ext.get_op_sharding_from_serialized_proto(data).SerializeToString() == data


@pytest.mark.parametrize(("mesh_shape", "names", "spec", "shape"), LAYOUTS, ids=IDS)
def test_gspmd_sharding_lays_out_like_jax(mesh_shape: tuple[int, ...], names: tuple[str, ...], spec: P, shape: tuple[int, ...]) -> None:
    text = str(_theirs(mesh_shape, names, spec)._to_xla_hlo_sharding(len(shape)))
    n = int(np.prod(mesh_shape))
    theirs = JAX_EXT.GSPMDSharding(jax.devices()[:n], JAX_EXT.xla_client.HloSharding.from_string(text))
    # Built from the proto form, as a custom call would hand it over.
    proto = ext.get_op_sharding_from_serialized_proto(
        ext.get_serialized_proto_from_hlo_sharding(XC.HloSharding.from_string(text))
    )
    ours = ext.GSPMDSharding(jt.devices()[:n], proto)
    assert ours.is_fully_replicated == theirs.is_fully_replicated
    assert ours.shard_shape(shape) == theirs.shard_shape(shape)
    assert _indices(ours.devices_indices_map(shape)) == _indices(theirs.devices_indices_map(shape))
    assert ext.hlo_sharding_of(ours, len(shape)) == XC.HloSharding.from_string(text)
    value = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    x: Any = jt.device_put(value, ours)
    y = jax.device_put(value, theirs)
    assert x.sharding == ours
    got = {s.device.id: np.asarray(s.data) for s in x.addressable_shards}
    want = {s.device.id: np.asarray(s.data) for s in y.addressable_shards}
    assert got.keys() == want.keys()
    for k in want:
        np.testing.assert_array_equal(got[k], want[k])
    out: Any = jt.jit(lambda a: a * 2.0, out_shardings=ours)(x)
    np.testing.assert_array_equal(np.asarray(out), value * 2.0)
    assert _indices(out.sharding.devices_indices_map(shape)) == _indices(theirs.devices_indices_map(shape))


def test_gspmd_sharding_equality_and_replicated() -> None:
    devices = jt.devices()[:4]
    tiled = XC.HloSharding.from_string("{devices=[2,2]0,1,2,3}")
    assert ext.GSPMDSharding(devices, tiled) == ext.GSPMDSharding(devices, tiled.to_proto())
    assert ext.GSPMDSharding(devices, tiled) != ext.GSPMDSharding(devices, XC.HloSharding.from_string("{devices=[2,2]0,2,1,3}"))
    replicated = ext.GSPMDSharding.get_replicated(devices)
    theirs = JAX_EXT.GSPMDSharding.get_replicated(jax.devices()[:4])
    assert replicated.is_fully_replicated and theirs.is_fully_replicated
    assert _indices(replicated.devices_indices_map((3, 5))) == _indices(theirs.devices_indices_map((3, 5)))
    assert ext.hlo_sharding_of(replicated, 2).is_replicated()
    # Any jaxtyped sharding has an XLA view.
    assert ext.hlo_sharding_of(SingleDeviceSharding(jt.devices()[0]), 1).is_replicated()


def test_gspmd_sharding_errors() -> None:
    devices = jt.devices()[:4]
    tiled = XC.HloSharding.from_string("{devices=[2,2]0,1,2,3}")
    with pytest.raises(errors.JaxtypedValueError, match="rank-2 arrays, got rank 1"):
        ext.GSPMDSharding(devices, tiled).shard_shape((4,))
    with pytest.raises(errors.JaxtypedValueError, match="4 devices, got 2 devices"):
        ext.GSPMDSharding(devices[:2], tiled)
    with pytest.raises(errors.JaxtypedValueError, match="only replicated and tiled"):
        ext.GSPMDSharding(devices[:1], XC.HloSharding.from_string("{maximal device=0}"))
    with pytest.raises(errors.JaxtypedValueError, match=r"partitioned 2 times, but the dimension size is 3 .*should evenly divide the shape"):
        ext.GSPMDSharding(devices, tiled).devices_indices_map((3, 4))
    with pytest.raises((errors.JaxtypedTypeError, *debug_violations()), match="Sharding"):
        ext.hlo_sharding_of("x", 1)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # a misuse, checked at run time
