"""XLA's sharding protos for extensions (JAX's ``jax.extend.sharding``).

XLA describes a layout as an ``OpSharding`` proto (serialised bytes, as
custom calls and compiled programs exchange it) or as the C++
``HloSharding`` view of it. This module converts between those forms and
jaxtyped's shardings: ``GSPMDSharding`` is a jaxtyped ``Sharding`` built
from devices and an XLA sharding, usable with ``device_put`` and ``jit``;
``hlo_sharding_of`` gives any jaxtyped sharding's XLA view.
"""

from collections.abc import Sequence
from typing import Any, Protocol, final, runtime_checkable

import numpy as np
from jaxlib import xla_client as xla_client

from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.sharding import Device, Index, Mesh, NamedSharding, PartitionSpec, Sharding

__all__ = [
    "GSPMDSharding",
    "HloShardingView",
    "OpShardingProto",
    "get_hlo_sharding_from_serialized_proto",
    "get_op_sharding_from_serialized_proto",
    "get_serialized_proto_from_hlo_sharding",
    "hlo_sharding_of",
    "xla_client",
]

HloSharding = xla_client.HloSharding
# Through xla_client, not jaxlib._hlo: that module is new in jaxlib 0.10 (0.8.3 and 0.9.2 keep
# OpSharding in jaxlib._jax), and xla_client re-exports it in every supported version.
OpSharding = xla_client.OpSharding


@runtime_checkable  # the debug mode checks arguments against it
class OpShardingProto(Protocol):
    """XLA's ``OpSharding`` proto (jaxlib's ``xla_client.OpSharding``), as
    jaxtyped types it: jaxlib is not typed for users, so the public
    signatures name these protocols rather than jaxlib's classes."""

    def ParseFromString(self, arg: bytes, /) -> None:
        """Read the serialised proto ``arg`` into this one."""
        ...

    def SerializeToString(self) -> bytes:
        """The serialised proto."""
        ...


@runtime_checkable
class HloShardingView(Protocol):
    """XLA's ``HloSharding`` (jaxlib's ``xla_client.HloSharding``): the
    members jaxtyped types."""

    def tile_assignment_dimensions(self) -> Sequence[int]:
        """The tile grid's dimensions (a trailing one for replicas)."""
        ...

    def tile_assignment_devices(self) -> Sequence[int]:
        """Device positions in tile order."""
        ...

    def replicate_on_last_tile_dim(self) -> bool:
        """Whether the last tile dimension counts replicas."""
        ...

    def is_replicated(self) -> bool:
        """Whether every device holds the whole value."""
        ...

    def is_tiled(self) -> bool:
        """Whether the value is split into tiles."""
        ...

    def is_manual(self) -> bool:
        """Whether the value is partitioned by hand."""
        ...

    def is_maximal(self) -> bool:
        """Whether one device holds the whole value."""
        ...

    def num_devices(self) -> int:
        """How many devices the sharding spans."""
        ...

    def to_proto(self) -> OpShardingProto:
        """The ``OpSharding`` proto."""
        ...


def get_op_sharding_from_serialized_proto(sharding: bytes) -> OpShardingProto:
    """The ``OpSharding`` proto serialised in ``sharding``."""
    proto = OpSharding()
    proto.ParseFromString(sharding)
    return proto


def get_hlo_sharding_from_serialized_proto(sharding: bytes) -> HloShardingView:
    """The ``HloSharding`` of the ``OpSharding`` proto serialised in ``sharding``."""
    proto = OpSharding()
    proto.ParseFromString(sharding)
    return HloSharding.from_proto(proto)


def get_serialized_proto_from_hlo_sharding(sharding: HloShardingView) -> bytes:
    """``sharding`` as a serialised ``OpSharding`` proto."""
    return sharding.to_proto().SerializeToString()


def hlo_sharding_of(sharding: Sharding, ndim: int) -> HloShardingView:
    """XLA's view of ``sharding`` for a value of rank ``ndim`` (device
    numbers are positions in ``sharding.device_list``; JAX keeps this
    private as ``Sharding._to_xla_hlo_sharding``)."""
    if not isinstance(sharding, Sharding):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise JaxtypedTypeError(f"hlo_sharding_of: expected a Sharding, got {type(sharding).__name__}")
    if isinstance(sharding, GSPMDSharding):
        sharding.check_rank(ndim, "hlo_sharding_of")
        return sharding.hlo
    return HloSharding.from_string(sharding.hlo_sharding(ndim))


def _grid(devices: Sequence[Device], order: Sequence[int], dims: Sequence[int]) -> "np.ndarray[Any, np.dtype[Any]]":
    grid = np.empty(len(order), dtype=object)
    for i, position in enumerate(order):
        grid[i] = devices[position]
    return grid.reshape(tuple(dims))


@final
class GSPMDSharding(Sharding):
    """A layout given by devices and an XLA sharding (JAX's
    ``jax.extend.sharding.GSPMDSharding``): tile ``i`` of XLA's tile
    assignment goes to ``devices[i]``. Replicated and tiled shardings
    (with or without a replicated last tile dimension) are supported;
    maximal and manual ones raise."""

    __slots__ = ("_devices", "_hlo", "_named", "_rank")

    def __init__(
        self,
        devices: Sequence[Device],
        op_sharding: OpShardingProto | HloShardingView,
        *,
        memory_kind: str | None = None,
    ) -> None:
        if memory_kind not in (None, "device"):
            raise JaxtypedValueError(f"GSPMDSharding: memory_kind must be 'device', got {memory_kind!r}")
        if isinstance(op_sharding, OpSharding):
            hlo = HloSharding.from_proto(op_sharding)
        elif isinstance(op_sharding, HloSharding):
            hlo = op_sharding
        else:
            raise JaxtypedTypeError(
                f"GSPMDSharding: op_sharding must be an OpSharding or HloSharding, got {type(op_sharding).__name__}"
            )
        devs = tuple(devices)
        if not devs:
            raise JaxtypedValueError("GSPMDSharding: needs at least one device")
        self._devices = devs
        self._hlo = hlo
        if hlo.is_replicated():
            self._rank: int | None = None
            self._named = NamedSharding(Mesh(_grid(devs, range(len(devs)), (len(devs),)), ("gspmd0",)), PartitionSpec())
            return
        if hlo.is_manual() or hlo.is_maximal() or not hlo.is_tiled():
            raise JaxtypedValueError(f"GSPMDSharding: only replicated and tiled shardings are supported, got {hlo}")
        dims = list(hlo.tile_assignment_dimensions())
        order = list(hlo.tile_assignment_devices())
        if len(order) != len(devs) or sorted(order) != list(range(len(devs))):
            raise JaxtypedValueError(f"GSPMDSharding: {hlo} assigns tiles to {len(order)} devices, got {len(devs)} devices")
        rank = len(dims) - (1 if hlo.replicate_on_last_tile_dim() else 0)
        names = tuple(f"gspmd{i}" for i in range(len(dims)))
        # One mesh axis per tile dimension: the named view computes the slices and the Shardy form.
        spec = PartitionSpec(*(names[d] if dims[d] > 1 else None for d in range(rank)))
        self._rank = rank
        self._named = NamedSharding(Mesh(_grid(devs, order, dims), names), spec)

    @classmethod
    def get_replicated(cls, devices: Sequence[Device], *, memory_kind: str | None = None) -> "GSPMDSharding":
        """Every device holding the whole array."""
        return cls(devices, HloSharding.replicate(), memory_kind=memory_kind)

    @property
    def hlo(self) -> HloShardingView:
        """The XLA sharding this layout was built from."""
        return self._hlo

    def check_rank(self, ndim: int, where: str) -> None:
        """Raise unless a tiled sharding's rank is ``ndim``."""
        if self._rank is not None and ndim != self._rank:
            raise JaxtypedValueError(f"{where}: {self._hlo} tiles rank-{self._rank} arrays, got rank {ndim}")

    @property
    def device_list(self) -> tuple[Device, ...]:
        return self._named.device_list

    @property
    def is_fully_replicated(self) -> bool:
        return self._named.is_fully_replicated

    @property
    def mesh_of(self) -> Mesh:
        return self._named.mesh_of

    def devices_indices_map(self, global_shape: tuple[int, ...]) -> dict[Device, Index]:
        self.check_rank(len(global_shape), "GSPMDSharding")
        self._named.check_shape(global_shape, "GSPMDSharding")
        return self._named.devices_indices_map(global_shape)

    def replica_ids(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        return self._named.replica_ids(global_shape)

    def shard_shape(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        self.check_rank(len(global_shape), "GSPMDSharding")
        self._named.check_shape(global_shape, "GSPMDSharding")
        return self._named.shard_shape(global_shape)

    def sdy_sharding(self, ndim: int) -> str:
        self.check_rank(ndim, "GSPMDSharding")
        return self._named.sdy_sharding(ndim)

    def hlo_sharding(self, ndim: int) -> str:
        self.check_rank(ndim, "GSPMDSharding")
        return self._named.hlo_sharding(ndim)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GSPMDSharding) and self._named == other._named

    def __hash__(self) -> int:
        return hash(("gspmd", self._named))

    def __repr__(self) -> str:
        return f"GSPMDSharding({self._hlo}, devices={[d.id for d in self._devices]})"
