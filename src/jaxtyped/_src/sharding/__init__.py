"""Meshes, partition specs and shardings (layer L0.2: plain data, no
runtime): how a global array is laid out over devices.

A :class:`Mesh` is an n-d array of devices with a name per axis. A
:class:`NamedSharding` says, per array dimension, which mesh axes split it
(``PartitionSpec``); mesh axes no dimension names hold replicas. From those
two the per-device slices follow (``devices_indices_map``) and so does the
Shardy annotation the lowering writes (``sdy_sharding``).

Note [mesh order is program order]: a program over a mesh is compiled on
the mesh's devices in row-major (flat) order, so the Shardy mesh in the
module needs no device ids and the position of a device in that order is its
partition id.
"""

import enum
import math
from collections.abc import Generator, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar, Token
from typing import Any, Protocol, cast, final, runtime_checkable

import numpy as np

from jaxtyped._src.config import set_trace_context
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError

__all__ = [
    "Device",
    "named_on_current_mesh",
    "AxisSpec",
    "PartitionSpec",
    "AxisType",
    "Mesh",
    "AbstractDevice",
    "AbstractMesh",
    "EMPTY_ABSTRACT_MESH",
    "make_single_device_sharding",
    "current_mesh",
    "get_abstract_mesh",
    "context_mesh",
    "ContextMeshState",
    "swap_context_mesh",
    "restore_context_mesh",
    "use_abstract_mesh",
    "Sharding",
    "NamedSharding",
    "SingleDeviceSharding",
    "Index",
    "sdy_mesh",
    "spec_for_rank",
    "spec_from_tiling",
    "spmd_lowering",
    "spmd_lowering_mesh",
]


@runtime_checkable
class Device(Protocol):
    """A device computations run on (a jaxlib device, ``CpuDevice(id=0)``)."""

    @property
    def id(self) -> int:
        """The device's number, unique in the process."""
        ...

    @property
    def platform(self) -> str:
        """``"cpu"``."""
        ...

    @property
    def device_kind(self) -> str:
        """The kind of device (``"cpu"``)."""
        ...

    @property
    def process_index(self) -> int:
        """The process the device belongs to (0: one process)."""
        ...


# One array dimension's entry of a PartitionSpec: not split (None), split
# over one mesh axis, or over several (major to minor).
AxisSpec = str | tuple[str, ...] | None

# A per-dimension slice of the global array held by one device.
Index = tuple[slice, ...]


def _normalise_entry(entry: object) -> AxisSpec:
    if entry is None or isinstance(entry, str):
        return entry
    if isinstance(entry, tuple) and all(isinstance(a, str) for a in cast(tuple[object, ...], entry)):
        names = cast(tuple[str, ...], entry)
        if len(names) == 1:
            return names[0]
        return names if names else None
    raise JaxtypedTypeError(
        f"PartitionSpec: each entry must be None, a mesh axis name or a tuple of names, got {entry!r}"
    )


@final
class PartitionSpec(tuple[AxisSpec, ...]):
    """Per array dimension, the mesh axes it is split over (JAX's
    ``PartitionSpec``, usually imported as ``P``): ``P('x', None)`` splits
    dimension 0 over mesh axis ``x`` and keeps dimension 1 whole. Trailing
    dimensions the spec leaves out are not split."""

    def __new__(cls, *partitions: AxisSpec) -> "PartitionSpec":
        return super().__new__(cls, tuple(_normalise_entry(p) for p in partitions))

    def __repr__(self) -> str:
        inner = ", ".join(repr(p) for p in self)
        return f"P({inner},)" if len(self) == 1 else f"P({inner})"

    def axes_of(self, dim: int) -> tuple[str, ...]:
        """The mesh axes splitting dimension ``dim`` (none past the spec's end)."""
        entry = self[dim] if dim < len(self) else None
        if entry is None:
            return ()
        return (entry,) if isinstance(entry, str) else entry

    def used_axes(self) -> tuple[str, ...]:
        """Every mesh axis the spec names, in order."""
        return tuple(a for d in range(len(self)) for a in self.axes_of(d))


def spec_for_rank(spec: PartitionSpec, ndim: int) -> PartitionSpec:
    """``spec`` naming every one of ``ndim`` dimensions (``P('x')`` of a
    matrix is ``P('x', None)``), as JAX spells an array's spec."""
    return PartitionSpec(*spec, *([None] * (ndim - len(spec))))


@final
class AxisType(enum.Enum):
    """How the partitioner treats a mesh axis (JAX's
    ``jax.sharding.AxisType``): ``Auto`` axes are the compiler's to use,
    ``Explicit`` axes are part of each array's type (changed with
    ``reshard``), ``Manual`` axes are those a ``shard_map`` body sees per
    device. ``make_mesh`` makes Explicit axes, ``Mesh`` Auto ones.

    Example:
        >>> import jaxtyped as jt
        >>> jt.make_mesh((1,), ("x",), axis_types=(jt.sharding.AxisType.Auto,)).axis_types
        (Auto,)
    """

    Auto = "Auto"
    Explicit = "Explicit"
    Manual = "Manual"

    def __repr__(self) -> str:
        return self.name

# Note [three mesh contexts]: JAX 0.10.2 keeps three, and so do we.
# - ``_CURRENT_MESH``: the mesh bare ``PartitionSpec``\ s of ``jit``'s
#   shardings, ``with_sharding_constraint`` and ``shard_map`` resolve
#   against. Set by ``with mesh:`` (JAX's deprecated resource env) and by
#   ``set_mesh``.
# - ``_CONCRETE_MESH``: the mesh ``set_mesh`` set (JAX's ``get_mesh``);
#   ``reshard`` resolves bare specs against it only, as JAX does.
# - ``_ABSTRACT_MESH``: what ``get_abstract_mesh()`` returns; set by
#   ``set_mesh`` and ``use_abstract_mesh``, *not* by ``with mesh:`` (JAX
#   0.10.2 returns the empty AbstractMesh inside ``with mesh:``).
_CURRENT_MESH: ContextVar["Mesh | None"] = ContextVar("jaxtyped_current_mesh", default=None)
_CONCRETE_MESH: ContextVar["Mesh | None"] = ContextVar("jaxtyped_concrete_mesh", default=None)
_ABSTRACT_MESH: ContextVar["AbstractMesh | None"] = ContextVar("jaxtyped_abstract_mesh", default=None)


def _sync_trace_context() -> None:
    """Tell the trace caches which meshes the context holds (they change
    what tracing produces: bare specs, ``get_abstract_mesh()``), so a jitted
    function is traced again under another mesh, as in JAX."""
    meshes = (_CURRENT_MESH.get(), _CONCRETE_MESH.get(), _ABSTRACT_MESH.get())
    set_trace_context(None if meshes == (None, None, None) else ("mesh", *meshes))


def _axis_types_text(types: tuple[AxisType, ...]) -> str:
    """A tuple of axis types as JAX prints it: ``(Explicit, Explicit)``,
    ``(Auto,)``, ``()``."""
    return "(" + ", ".join(t.name for t in types) + ("," if len(types) == 1 else "") + ")"


def normalize_axis_types(
    names: tuple[str, ...], axis_types: "AxisType | Sequence[AxisType] | None", where: str, default: AxisType
) -> tuple[AxisType, ...]:
    """One ``AxisType`` per axis name: ``default`` for each when
    ``axis_types`` is None, the one given for each when it is a single
    type. Anything but ``AxisType`` members is JAX's TypeError (JAX 0.10
    takes no strings)."""
    if axis_types is None:
        return (default,) * len(names)
    # Callers may pass anything: strings above all, which JAX 0.10 refuses.
    given = (axis_types,) if isinstance(axis_types, AxisType) else tuple(cast(Sequence[object], axis_types))
    if not all(isinstance(t, AxisType) for t in given):
        raise JaxtypedTypeError(
            f"{where}: axis_types must be of type `jax.sharding.AxisType` (jt.sharding.AxisType.Auto, "
            f".Explicit or .Manual). Got {given!r} of type {tuple(type(t) for t in given)!r}"
        )
    types = cast(tuple[AxisType, ...], given)
    if len(types) != len(names):
        raise JaxtypedValueError(
            f"{where}: the number of axis names should match the number of axis_types; got "
            f"axis_names={names} and axis_types={tuple(types)}"
        )
    return tuple(types)


@final
class AbstractDevice:
    """What an abstract mesh knows of its devices (JAX's ``AbstractDevice``):
    their kind, core count and platform."""

    __slots__ = ("_device_kind", "_num_cores", "_platform")

    def __init__(self, device_kind: str, num_cores: int | None, platform: str) -> None:
        self._device_kind = device_kind
        self._num_cores = num_cores
        self._platform = platform

    @property
    def device_kind(self) -> str:
        """The devices' kind (``"cpu"``)."""
        return self._device_kind

    @property
    def num_cores(self) -> int | None:
        """Cores per device (None on CPU, as JAX)."""
        return self._num_cores

    @property
    def platform(self) -> str:
        """The platform (``"cpu"``)."""
        return self._platform

    def _fields(self) -> tuple[str, int | None, str]:
        return (self._device_kind, self._num_cores, self._platform)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbstractDevice) and self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def _text(self) -> str:
        return f"device_kind={self._device_kind}, num_cores={self._num_cores}, platform={self._platform}"

    def __repr__(self) -> str:
        return f"AbstractDevice({self._text()})"


@final
class AbstractMesh:
    """A mesh's shape, axis names and axis types without its devices (JAX's
    ``AbstractMesh``): what ``get_abstract_mesh()`` returns and
    ``Mesh.abstract_mesh`` is. Equal when sizes, names, types and abstract
    device are; the empty one (``AbstractMesh((), ())``, size 0) stands for
    "no mesh".

    Example:
        >>> from jaxtyped.sharding import AbstractMesh
        >>> mesh = AbstractMesh((2, 4), ("a", "b"))
        >>> mesh
        AbstractMesh('a': 2, 'b': 4, axis_types=(Auto, Auto))
        >>> mesh.size, mesh.empty, AbstractMesh((), ()).empty
        (8, False, True)
    """

    __slots__ = ("_axis_sizes", "_axis_names", "_axis_types", "_abstract_device")

    def __init__(
        self,
        axis_sizes: Sequence[int],
        axis_names: Sequence[str],
        axis_types: "AxisType | Sequence[AxisType] | None" = None,
        *,
        abstract_device: AbstractDevice | None = None,
    ) -> None:
        sizes = tuple(int(s) for s in axis_sizes)
        names = (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)
        if len(sizes) != len(names):
            raise JaxtypedValueError(
                f"AbstractMesh: {len(sizes)} axis sizes {sizes} for {len(names)} axis names {names}"
            )
        self._axis_sizes = sizes
        self._axis_names = names
        self._axis_types = normalize_axis_types(names, axis_types, "AbstractMesh", AxisType.Auto)
        self._abstract_device = abstract_device

    @property
    def axis_sizes(self) -> tuple[int, ...]:
        """The size of each axis."""
        return self._axis_sizes

    @property
    def axis_names(self) -> tuple[str, ...]:
        """One name per axis."""
        return self._axis_names

    @property
    def axis_types(self) -> tuple[AxisType, ...]:
        """Per axis, ``AxisType.Auto``, ``.Explicit`` or ``.Manual``."""
        return self._axis_types

    @property
    def abstract_device(self) -> AbstractDevice | None:
        """The kind of device, when known (a ``Mesh``'s abstract mesh knows it)."""
        return self._abstract_device

    @property
    def shape(self) -> Mapping[str, int]:
        """Axis name -> size, in axis order."""
        return dict(zip(self._axis_names, self._axis_sizes))

    @property
    def shape_tuple(self) -> tuple[tuple[str, int], ...]:
        """``(name, size)`` per axis."""
        return tuple(zip(self._axis_names, self._axis_sizes))

    @property
    def size(self) -> int:
        """The number of devices (0 for the empty mesh)."""
        return math.prod(self._axis_sizes) if self._axis_sizes else 0

    @property
    def empty(self) -> bool:
        """Whether this is the empty mesh (no axes)."""
        return self.size == 0

    @property
    def abstract_mesh(self) -> "AbstractMesh":
        """Itself (as JAX's)."""
        return self

    @property
    def auto_axes(self) -> tuple[str, ...]:
        """The names of the Auto axes."""
        return tuple(n for n, t in zip(self._axis_names, self._axis_types) if t is AxisType.Auto)

    @property
    def explicit_axes(self) -> tuple[str, ...]:
        """The names of the Explicit axes."""
        return tuple(n for n, t in zip(self._axis_names, self._axis_types) if t is AxisType.Explicit)

    @property
    def manual_axes(self) -> tuple[str, ...]:
        """The names of the Manual axes."""
        return tuple(n for n, t in zip(self._axis_names, self._axis_types) if t is AxisType.Manual)

    @property
    def devices(self) -> "np.ndarray[Any, np.dtype[Any]]":
        """Not available: an abstract mesh has no devices (raises, as JAX's)."""
        raise JaxtypedValueError("AbstractMesh does not implement devices")

    def update(
        self,
        axis_sizes: Sequence[int] | None = None,
        axis_names: Sequence[str] | None = None,
        axis_types: "AxisType | Sequence[AxisType] | None" = None,
    ) -> "AbstractMesh":
        """A copy with the given fields replaced (the abstract device kept)."""
        return AbstractMesh(
            self._axis_sizes if axis_sizes is None else axis_sizes,
            self._axis_names if axis_names is None else axis_names,
            self._axis_types if axis_types is None else axis_types,
            abstract_device=self._abstract_device,
        )

    def _key(self) -> tuple[object, ...]:
        return (self._axis_sizes, self._axis_names, self._axis_types, self._abstract_device)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AbstractMesh) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        axes = ", ".join(f"'{n}': {s}" for n, s in self.shape_tuple) if self._axis_names else "()"
        device = "" if self._abstract_device is None else f", {self._abstract_device._text()}"  # pyright: ignore[reportPrivateUsage]  # same module
        return f"AbstractMesh({axes}, axis_types={_axis_types_text(self._axis_types)}{device})"


EMPTY_ABSTRACT_MESH: "AbstractMesh" = AbstractMesh((), ())
"""The empty abstract mesh: no mesh set."""


@final
class Mesh:
    """An n-d array of devices with a name per axis (JAX's ``Mesh``); also a
    context manager that makes it the mesh bare ``PartitionSpec``\\ s refer to.

    Example: ``Mesh(np.array(jt.devices()).reshape(2, 2), ("x", "y"))``.
    """

    __slots__ = ("_devices", "_axis_names", "_axis_types", "_tokens", "_device_list", "_hash")

    def __init__(
        self,
        devices: "np.ndarray[Any, np.dtype[Any]] | Sequence[Device]",
        axis_names: str | Sequence[str],
        axis_types: Sequence[AxisType] | None = None,
    ) -> None:
        names = (axis_names,) if isinstance(axis_names, str) else tuple(axis_names)
        grid = np.empty(len(devices), dtype=object) if not isinstance(devices, np.ndarray) else None
        if grid is not None:
            for i, device in enumerate(devices):
                grid[i] = device
            array = grid
        else:
            array = np.asarray(devices, dtype=object)
        if array.ndim != len(names):
            raise JaxtypedValueError(
                f"Mesh: {len(names)} axis names {names} for a device array of shape {array.shape}"
            )
        if len(set(names)) != len(names) or not all(isinstance(n, str) for n in names):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
            raise JaxtypedValueError(f"Mesh: axis names must be distinct strings, got {names}")
        if len({id(d) for d in array.flat}) != array.size:
            raise JaxtypedValueError("Mesh: a device appears more than once")
        for device in array.flat:
            if not isinstance(device, Device):
                raise JaxtypedTypeError(f"Mesh: expected devices, got {type(device).__name__}")
        array.flags.writeable = False
        types = normalize_axis_types(names, axis_types, "Mesh", AxisType.Auto)
        self._devices = array
        self._axis_names = names
        self._axis_types = types
        self._tokens: list[Token[Mesh | None]] = []
        # Every sharded call hashes and compares its mesh: computed once.
        self._device_list: tuple[Device, ...] = tuple(array.flat)
        self._hash = hash((names, types, array.shape, tuple(d.id for d in self._device_list)))

    @property
    def devices(self) -> "np.ndarray[Any, np.dtype[Any]]":
        """The device array (read-only, dtype object)."""
        return self._devices

    @property
    def axis_names(self) -> tuple[str, ...]:
        """One name per mesh axis."""
        return self._axis_names

    @property
    def axis_types(self) -> tuple[AxisType, ...]:
        """Per axis, ``AxisType.Auto``, ``.Explicit`` or ``.Manual``."""
        return self._axis_types

    @property
    def axis_sizes(self) -> tuple[int, ...]:
        """The device array's shape."""
        return tuple(int(s) for s in self._devices.shape)

    @property
    def shape(self) -> Mapping[str, int]:
        """Axis name -> size, in axis order."""
        return dict(zip(self._axis_names, self.axis_sizes))

    @property
    def size(self) -> int:
        """The number of devices."""
        return int(self._devices.size)

    @property
    def device_list(self) -> "tuple[Device, ...]":
        """The devices in row-major order (the program's device order)."""
        return self._device_list

    @property
    def device_ids(self) -> "np.ndarray[Any, np.dtype[Any]]":
        """The devices' ids, in the mesh's shape."""
        return np.array([d.id for d in self._devices.flat], dtype=np.int64).reshape(self._devices.shape)

    def axis_size(self, name: str) -> int:
        """The size of mesh axis ``name``."""
        return self.shape[name]

    @property
    def abstract_mesh(self) -> AbstractMesh:
        """The mesh without its devices (JAX's ``Mesh.abstract_mesh``): its
        sizes, names, axis types and the kind of its devices."""
        first = self._device_list[0]
        num_cores: int | None = None
        if first.platform == "tpu":
            num_cores = cast(int | None, getattr(first, "num_cores", None))
        elif first.platform == "gpu":
            num_cores = cast(int | None, getattr(first, "core_count", None))
        device = AbstractDevice(first.device_kind, num_cores, first.platform)
        return AbstractMesh(self.axis_sizes, self._axis_names, self._axis_types, abstract_device=device)

    def __enter__(self) -> "Mesh":
        self._tokens.append(_CURRENT_MESH.set(self))
        _sync_trace_context()
        return self

    def __exit__(self, *exc: object) -> None:
        _CURRENT_MESH.reset(self._tokens.pop())
        _sync_trace_context()

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        return (
            isinstance(other, Mesh)
            and self._hash == other._hash
            and self._axis_names == other._axis_names
            and self._axis_types == other._axis_types
            and self._devices.shape == other._devices.shape
            and all(a is b or a == b for a, b in zip(self._device_list, other._device_list))
        )

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        axes = ", ".join(f"'{n}': {s}" for n, s in zip(self._axis_names, self.axis_sizes))
        return f"Mesh({axes}, axis_types={_axis_types_text(self._axis_types)})"

    def __repr__(self) -> str:
        return (
            f"Mesh(axis_sizes={self.axis_sizes}, axis_names={self._axis_names}, "
            f"axis_types={_axis_types_text(self._axis_types)})"
        )


_SPMD_LOWERING: ContextVar["Mesh | None"] = ContextVar("jaxtyped_spmd_lowering", default=None)


@contextmanager
def spmd_lowering(mesh: "Mesh") -> Generator[None, None, None]:
    """Mark a lowering as one of a program over ``mesh``'s devices: sharding
    constraints emit Shardy ops only there."""
    token = _SPMD_LOWERING.set(mesh)
    try:
        yield
    finally:
        _SPMD_LOWERING.reset(token)


def spmd_lowering_mesh() -> "Mesh | None":
    """The mesh of the program being lowered, or None for one device."""
    return _SPMD_LOWERING.get()


def current_mesh() -> Mesh | None:
    """The mesh bare ``PartitionSpec``\\ s refer to: that of the innermost
    ``with mesh:`` block or ``set_mesh``, if any (Note [three mesh contexts])."""
    return _CURRENT_MESH.get()


def context_mesh() -> Mesh | None:
    """The mesh ``set_mesh`` set, if any (JAX's ``get_mesh``; not the mesh
    of ``with mesh:``)."""
    return _CONCRETE_MESH.get()


def get_abstract_mesh() -> AbstractMesh:
    """The abstract mesh of the context (JAX's
    ``jax.sharding.get_abstract_mesh``): the one ``set_mesh`` or
    ``use_abstract_mesh`` set, else the empty ``AbstractMesh`` (also inside
    ``with mesh:``, as in JAX 0.10.2). Works inside ``jit`` too.

    Example:
        >>> import jaxtyped as jt
        >>> jt.sharding.get_abstract_mesh()
        AbstractMesh((), axis_types=())
    """
    mesh = _ABSTRACT_MESH.get()
    return EMPTY_ABSTRACT_MESH if mesh is None else mesh


ContextMeshState = tuple["Mesh | None", "Mesh | None", "AbstractMesh | None"]
"""The three mesh contexts' values (Note [three mesh contexts])."""


def swap_context_mesh(mesh: Mesh | None) -> ContextMeshState:
    """Make ``mesh`` the context's mesh in all three senses (what
    ``set_mesh`` does; None clears them) and return the previous values
    for :func:`restore_context_mesh`."""
    previous = (_CURRENT_MESH.get(), _CONCRETE_MESH.get(), _ABSTRACT_MESH.get())
    _CURRENT_MESH.set(mesh)
    _CONCRETE_MESH.set(mesh)
    _ABSTRACT_MESH.set(None if mesh is None else mesh.abstract_mesh)
    _sync_trace_context()
    return previous


def restore_context_mesh(state: ContextMeshState) -> None:
    """Put back what :func:`swap_context_mesh` returned."""
    current, concrete, abstract = state
    _CURRENT_MESH.set(current)
    _CONCRETE_MESH.set(concrete)
    _ABSTRACT_MESH.set(abstract)
    _sync_trace_context()


@final
class use_abstract_mesh:  # noqa: N801 - JAX's name
    """Within the block, ``get_abstract_mesh()`` returns ``mesh`` (JAX's
    ``jax.sharding.use_abstract_mesh``); it cannot change the size of a
    non-empty abstract mesh already set."""

    __slots__ = ("_mesh", "_previous")

    def __init__(self, mesh: AbstractMesh) -> None:
        if not isinstance(mesh, AbstractMesh):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
            raise JaxtypedValueError(
                f"use_abstract_mesh: expected mesh of type `jaxtyped.sharding.AbstractMesh`. Got type: {type(mesh)}"
            )
        self._mesh = mesh
        self._previous: list[AbstractMesh | None] = []

    def __enter__(self) -> None:
        previous = _ABSTRACT_MESH.get()
        if previous is not None and not previous.empty and not self._mesh.empty and previous.size != self._mesh.size:
            raise JaxtypedValueError(
                f"use_abstract_mesh cannot change the size of the mesh. Got new mesh: {self._mesh} with "
                f"size={self._mesh.size} and prev mesh: {previous} with size={previous.size}"
            )
        self._previous.append(previous)
        _ABSTRACT_MESH.set(self._mesh)
        _sync_trace_context()

    def __exit__(self, *exc: object) -> None:
        _ABSTRACT_MESH.set(self._previous.pop())
        _sync_trace_context()


class Sharding:
    """How a global array is laid out over devices (JAX's ``Sharding``)."""

    __slots__ = ()

    @property
    def device_set(self) -> "set[Device]":
        """The devices holding a part of the array."""
        return set(self.device_list)

    @property
    def device_list(self) -> "tuple[Device, ...]":
        """The devices in program order (see Note [mesh order is program order])."""
        raise NotImplementedError

    @property
    def num_devices(self) -> int:
        """How many devices hold a part of the array."""
        return len(self.device_list)

    @property
    def memory_kind(self) -> str:
        """``"device"`` (the only memory kind)."""
        return "device"

    @property
    def is_fully_replicated(self) -> bool:
        """Whether every device holds the whole array."""
        raise NotImplementedError

    def devices_indices_map(self, global_shape: tuple[int, ...]) -> "dict[Device, Index]":
        """Per device, the slice of the global array it holds."""
        raise NotImplementedError

    def replica_ids(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        """Per device (program order), which copy of its slice it holds."""
        raise NotImplementedError

    def shard_shape(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        """The shape of each device's slice."""
        raise NotImplementedError

    def sdy_sharding(self, ndim: int) -> str:
        """The Shardy annotation of a value of rank ``ndim``."""
        raise NotImplementedError

    def hlo_sharding(self, ndim: int) -> str:
        """XLA's text form of the layout of a value of rank ``ndim``
        (device numbers are positions in ``device_list``)."""
        raise NotImplementedError

    @property
    def mesh_of(self) -> Mesh:
        """The mesh a program using this sharding runs over."""
        raise NotImplementedError


@final
class NamedSharding(Sharding):
    """A layout named by a mesh and a ``PartitionSpec`` (JAX's
    ``NamedSharding``)."""

    __slots__ = ("_mesh", "_spec")

    def __init__(self, mesh: Mesh, spec: PartitionSpec) -> None:
        if not isinstance(mesh, Mesh):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
            raise JaxtypedTypeError(f"NamedSharding: mesh must be a Mesh, got {type(mesh).__name__}")
        if not isinstance(spec, PartitionSpec):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
            raise JaxtypedTypeError(f"NamedSharding: spec must be a PartitionSpec, got {type(spec).__name__}")
        used = spec.used_axes()
        for name in used:
            if name not in mesh.shape:
                raise JaxtypedValueError(
                    f"NamedSharding: {spec!r} names axis {name!r}, which is not in {mesh}"
                )
        if len(set(used)) != len(used):
            raise JaxtypedValueError(f"NamedSharding: {spec!r} uses a mesh axis twice")
        self._mesh = mesh
        self._spec = spec

    @property
    def mesh(self) -> Mesh:
        """The mesh."""
        return self._mesh

    @property
    def spec(self) -> PartitionSpec:
        """The partition spec."""
        return self._spec

    @property
    def mesh_of(self) -> Mesh:
        return self._mesh

    @property
    def device_list(self) -> "tuple[Device, ...]":
        return self._mesh.device_list

    @property
    def is_fully_replicated(self) -> bool:
        return all(self._mesh.shape[a] == 1 for a in self._spec.used_axes())

    def check_shape(self, global_shape: tuple[int, ...], where: str) -> None:
        """Raise unless ``global_shape`` has the rank the spec needs and each
        split dimension divides evenly."""
        if len(self._spec) > len(global_shape):
            raise JaxtypedValueError(
                f"{where}: {self._spec!r} has {len(self._spec)} entries, but the array has "
                f"rank {len(global_shape)} (shape {global_shape})"
            )
        tiling = [math.prod(self._mesh.shape[a] for a in self._spec.axes_of(d)) for d in range(len(global_shape))]
        for d, (size, parts) in enumerate(zip(global_shape, tiling)):
            if not size % parts:
                continue
            # JAX 0.10.2 pads nothing: an uneven split is an error, whose text
            # depends on whether the axes are Explicit (sharding in types).
            if any(self._mesh.axis_types[self._mesh.axis_names.index(a)] is AxisType.Explicit for a in self._spec.axes_of(d)):
                platform = self._mesh.device_list[0].platform
                abstract = str(self._mesh)[len("Mesh(") : -1]
                raise JaxtypedValueError(
                    f"Sharding spec {self._spec.axes_of(d)!r} implies that array axis {d} is partitioned {parts} "
                    f"times, but does not evenly divide the dimension size {size}. Got shape: {global_shape} and "
                    f"sharding NamedSharding(mesh=AbstractMesh({abstract}, device_kind={platform}, num_cores=None, "
                    f"platform={platform}), spec={self._spec!r})"
                )
            raise JaxtypedValueError(
                    f"Sharding {self!r} implies that array axis {d} is partitioned {parts} times, but the "
                    f"dimension size is {size} (full shape: {global_shape}, per-dimension tiling factors: "
                    f"{tiling} should evenly divide the shape)"
                )

    def shard_shape(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(
            size // math.prod(self._mesh.shape[a] for a in self._spec.axes_of(d))
            for d, size in enumerate(global_shape)
        )

    def _coordinates(self) -> Iterator[dict[str, int]]:
        sizes = self._mesh.axis_sizes
        for flat in range(self._mesh.size):
            coords = np.unravel_index(flat, sizes)
            yield {n: int(c) for n, c in zip(self._mesh.axis_names, coords)}

    def _mixed_radix(self, coords: Mapping[str, int], axes: Sequence[str]) -> int:
        index = 0
        for a in axes:
            index = index * self._mesh.shape[a] + coords[a]
        return index

    def devices_indices_map(self, global_shape: tuple[int, ...]) -> "dict[Device, Index]":
        shard = self.shard_shape(global_shape)
        result: dict[Device, Index] = {}
        for device, coords in zip(self._mesh.device_list, self._coordinates()):
            index: list[slice] = []
            for d in range(len(global_shape)):
                axes = self._spec.axes_of(d)
                if not axes:
                    index.append(slice(None))
                else:
                    k = self._mixed_radix(coords, axes)
                    index.append(slice(k * shard[d], (k + 1) * shard[d]))
            result[device] = tuple(index)
        return result

    def replica_ids(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        unused = [a for a in self._mesh.axis_names if a not in self._spec.used_axes()]
        return tuple(self._mixed_radix(coords, unused) for coords in self._coordinates())

    def sdy_sharding(self, ndim: int) -> str:
        dims = ", ".join(
            "{" + ", ".join(f'"{a}"' for a in self._spec.axes_of(d)) + "}" for d in range(ndim)
        )
        return f"#sdy.sharding<@mesh, [{dims}]>"

    def hlo_sharding(self, ndim: int) -> str:
        if self.is_fully_replicated:
            return "{replicated}"
        dims, devices = _tiling_of(self._mesh, self._spec, ndim)
        replicas = len(dims) > ndim
        text = "{devices=[" + ",".join(map(str, dims)) + "]" + ",".join(map(str, devices))
        return text + (" last_tile_dim_replicate}" if replicas else "}")

    def with_spec(self, spec: PartitionSpec) -> "NamedSharding":
        """The same mesh with another spec."""
        return NamedSharding(self._mesh, spec)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NamedSharding) or other._mesh != self._mesh:
            return False
        n = max(len(self._spec), len(other._spec))
        return all(self._spec.axes_of(d) == other._spec.axes_of(d) for d in range(n))

    def __hash__(self) -> int:
        spec = tuple(self._spec.axes_of(d) for d in range(len(self._spec)))
        while spec and not spec[-1]:
            spec = spec[:-1]
        return hash((self._mesh, spec))

    def __repr__(self) -> str:
        return f"NamedSharding(mesh={self._mesh}, spec={self._spec!r}, memory_kind=device)"


def named_on_current_mesh(spec: PartitionSpec, where: str) -> NamedSharding:
    """What a bare ``spec`` means: a ``NamedSharding`` over the mesh of the
    enclosing ``with mesh:`` or ``set_mesh``; without one, the error names
    ``where``."""
    mesh = current_mesh()
    if mesh is None:
        raise JaxtypedValueError(
            f"{where}: a bare PartitionSpec {spec!r} needs a mesh: use NamedSharding(mesh, spec) "
            "or call inside `with mesh:`"
        )
    return NamedSharding(mesh, spec)


@final
class SingleDeviceSharding(Sharding):
    """The whole array on one device (JAX's ``SingleDeviceSharding``)."""

    __slots__ = ("_device",)

    def __init__(self, device: Device) -> None:
        if not isinstance(device, Device):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
            raise JaxtypedTypeError(f"SingleDeviceSharding: expected a device, got {type(device).__name__}")
        self._device = device

    @property
    def device(self) -> Device:
        """The device."""
        return self._device

    @property
    def device_list(self) -> "tuple[Device, ...]":
        return (self._device,)

    @property
    def is_fully_replicated(self) -> bool:
        return True

    @property
    def mesh_of(self) -> Mesh:
        return Mesh([self._device], ("_single",))

    def devices_indices_map(self, global_shape: tuple[int, ...]) -> "dict[Device, Index]":
        return {self._device: tuple(slice(None) for _ in global_shape)}

    def replica_ids(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        return (0,)

    def shard_shape(self, global_shape: tuple[int, ...]) -> tuple[int, ...]:
        return global_shape

    def sdy_sharding(self, ndim: int) -> str:
        return "#sdy.sharding<@mesh, [" + ", ".join(["{}"] * ndim) + "]>"

    def hlo_sharding(self, ndim: int) -> str:
        return "{replicated}"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SingleDeviceSharding) and (
            other._device is self._device or other._device == self._device
        )

    def __hash__(self) -> int:
        return hash(("single", self._device.id))

    def __repr__(self) -> str:
        return f"SingleDeviceSharding(device={self._device!r}, memory_kind=device)"


def make_single_device_sharding(device: Device, *, memory_kind: str | None = None) -> SingleDeviceSharding:
    """``SingleDeviceSharding(device)`` (JAX's
    ``jax.sharding.make_single_device_sharding``). Arrays live in device
    memory: ``memory_kind`` may be None or ``"device"`` only."""
    if memory_kind not in (None, "device"):
        raise JaxtypedValueError(
            f"make_single_device_sharding: memory_kind {memory_kind!r} is not supported (arrays live in device memory)"
        )
    return SingleDeviceSharding(device)


def sdy_mesh(mesh: Mesh) -> str:
    """The module-level Shardy mesh declaration (``sdy.mesh @mesh = ...``)."""
    axes = ", ".join(f'"{n}"={s}' for n, s in zip(mesh.axis_names, mesh.axis_sizes))
    return f"sdy.mesh @mesh = <[{axes}]>"


def _tiling_of(mesh: Mesh, spec: PartitionSpec, ndim: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """XLA's tile-assignment dimensions and device order of ``spec`` on
    ``mesh`` (positions in mesh order), with a trailing replica dimension
    when some mesh axis is unused."""
    names = mesh.axis_names
    order = [names.index(a) for d in range(ndim) for a in spec.axes_of(d)]
    unused = [i for i in range(len(names)) if i not in order]
    ids = np.arange(mesh.size).reshape(mesh.axis_sizes).transpose(order + unused).reshape(-1)
    dims = [math.prod(mesh.axis_sizes[names.index(a)] for a in spec.axes_of(d)) for d in range(ndim)]
    replicas = math.prod(mesh.axis_sizes[i] for i in unused)
    if replicas > 1:
        dims.append(replicas)
    return tuple(dims), tuple(int(i) for i in ids)


def spec_from_tiling(
    mesh: Mesh, ndim: int, tile_dims: Sequence[int], tile_devices: Sequence[int], replicated: bool
) -> PartitionSpec | None:
    """The ``PartitionSpec`` on ``mesh`` whose XLA tiling is the given one
    (what a compiled program chose for an output), or None if none is."""
    if replicated or math.prod(tile_dims) <= 1:
        return PartitionSpec(*([None] * ndim))
    target = (tuple(tile_dims), tuple(tile_devices))
    names = mesh.axis_names

    def candidates(d: int, free: tuple[str, ...]) -> Iterator[list[AxisSpec]]:
        if d == ndim:
            yield []
            return
        options: list[tuple[str, ...]] = [()]
        options += [(a,) for a in free]
        options += [(a, b) for a in free for b in free if a != b]
        for option in options:
            rest = tuple(a for a in free if a not in option)
            for tail in candidates(d + 1, rest):
                entry: AxisSpec = None if not option else (option[0] if len(option) == 1 else option)
                yield [entry, *tail]

    for entries in candidates(0, names):
        spec = PartitionSpec(*entries)
        dims, devices = _tiling_of(mesh, spec, ndim)
        # XLA drops a trailing replica dimension of size 1 and keeps it otherwise.
        if (dims, devices) == target or (dims + (1,), devices) == target:
            return spec
    return None
