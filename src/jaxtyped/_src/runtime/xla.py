"""The bridge to XLA (layer L3): the only module that imports jaxlib.

It owns the PJRT CPU client, host/device transfers, compilation (with a
bounded cache keyed on the module text and the compile options) and
execution. Everything jaxlib would accept silently but get wrong (see
``shared/notes/jaxlib-0.10-facts.md``, section 11) is checked here or by the
callers before a buffer reaches jaxlib: avals always come from our own
types, 64-bit data is only put with x64 enabled, argument counts and types
are checked against the executable's signature.

Note [fast result path]: outputs are built with
``array_result_handler(..., _skip_checks=True)`` and
``execute_sharded(...).consume_with_handlers``; jaxlib 0.10's
``disassemble_into_single_device_arrays`` tries to import ``jax`` for every
output (about 50 us each).

Note [versions] (JEP 9419): jaxlib is a separate wheel with its own
version; the range this runtime is tested against is declared in
``pyproject.toml`` and checked when jaxtyped is imported, with a message
that names the installed version, the range and the fix.
"""

import functools
import gc
import math
import os
import platform
import re
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, Protocol, final, runtime_checkable

from typing_extensions import CapsuleType

import numpy as np

from jaxtyped._src import dtypes, monitoring
from jaxtyped._src.config import config
from jaxtyped._src.core.array_impl import DeviceBuffer, register_device_backend
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import tensor_type
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError, UnknownBackendError
from jaxtyped._src.runtime import compile_cache
from jaxtyped._src.sharding import Device, Sharding
from jaxtyped._src.tree_util import share_node_types

# jaxlib logs the device count at INFO level when a client is created;
# JAX users do not see that line, so neither do ours (user settings win).
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "1")

import jaxlib.version  # noqa: E402

__all__ = [
    "flatten_containers",
    "ContainerTree",
    "container_tree",
    "MIN_JAXLIB",
    "MAX_JAXLIB_EXCLUSIVE",
    "check_jaxlib_version",
    "jaxlib_version",
    "has_ffi_target",
    "compile_error",
    "Device",
    "DeviceOrSharding",
    "devices",
    "default_device",
    "put",
    "put_sharded",
    "block_until_ready",
    "process_index",
    "process_count",
    "local_devices",
    "initialize_distributed",
    "shutdown_distributed",
    "distributed_client",
    "is_multi_device",
    "compile_spmd_module",
    "HloTiling",
    "inspect_sharding_key",
    "SpmdExecutable",
    "Executable",
    "compile_module",
    "ExecuteResults",
    "Launcher",
    "launcher",
    "pretty_module",
    "compile_cache_info",
    "clear_compile_cache",
    "persistent_cache_info",
    "on_mapping_pressure",
    "mapping_count_and_cap",
    "compile_with_host_callbacks",
    "result_handler",
]

# Keep in sync with the ``jaxlib`` requirement in pyproject.toml (a test
# checks that they agree).
MIN_JAXLIB: Final = (0, 8, 3)
MAX_JAXLIB_EXCLUSIVE: Final = (0, 11, 0)


_VERSION_RE: Final = re.compile(r"^(\d+)\.(\d+)(?:\.(\d+))?(.*)$")


def _parse_version(text: str) -> tuple[int, int, int, int] | None:
    """``(major, minor, patch, final)`` for a PEP 440 version string, where
    ``final`` is 0 for a pre-release (``rc``, ``a``, ``b``, ``dev``) so it
    sorts before the release; None if ``text`` is not a version."""
    match = _VERSION_RE.match(text.strip())
    if match is None:
        return None
    major, minor, patch, rest = match.groups()
    rest = rest.lower()
    pre_release = bool(rest) and not rest.startswith((".post", "+", "-post", "post"))
    return int(major), int(minor), int(patch or 0), 0 if pre_release else 1


def _show(version: tuple[int, ...]) -> str:
    return ".".join(str(v) for v in version)


def check_jaxlib_version(installed: str) -> None:
    """Raise ``ImportError`` unless ``installed`` is in the supported range.

    The message names the installed version, the supported range and how
    to install a supported jaxlib (JEP 9419: jaxlib versions are checked
    when the Python package is imported). Pre-releases sort before their
    release, as in PEP 440.
    """
    version = _parse_version(installed)
    if version is not None and (*MIN_JAXLIB, 1) <= version < (*MAX_JAXLIB_EXCLUSIVE, 0):
        return
    supported = f">={_show(MIN_JAXLIB)},<{_show(MAX_JAXLIB_EXCLUSIVE[:2])}"
    raise ImportError(
        f"jaxtyped requires jaxlib {supported}, but jaxlib {installed} is installed. "
        f"Install a supported version with: pip install 'jaxlib{supported}'"
    )


def jaxlib_version() -> str:
    """The installed jaxlib's version string."""
    return str(jaxlib.version.__version__)


check_jaxlib_version(jaxlib_version())

import jaxlib.xla_client as xc  # noqa: E402
from jaxlib._jax import ResultHandler  # noqa: E402
import jaxlib._jax as _jax  # noqa: E402
from jaxlib.mlir import ir  # noqa: E402


# jaxlib's no-op FFI target that the lowering of ordered effects inside loops
# and conditionals uses (a token that waits for a value); jaxlib 0.8.3 and
# 0.9.2 do not register it (0.10.2 does): see compile_error.
_SINK_TARGET: Final = "dce_sink"


# jaxlib's C++ flattening of builtin containers and of the node types
# registered with jaxtyped.tree_util (Note [node types shared with jaxlib]),
# for jit's dispatch memo (issue 19): its treedefs hash and compare in C++.
# A private registry, so node types JAX registers in its own do not change
# what it sees.
_CONTAINER_TREES: Final = _jax.pytree.PyTreeRegistry()


def _share_node_type(
    nodetype: type[Any],
    flatten: Callable[[Any], tuple[Iterable[Any], Any]],
    unflatten: Callable[[Any, Any], Any],
    dataclass_fields: tuple[tuple[str, ...], tuple[str, ...]] | None,
) -> bool:
    try:
        if dataclass_fields is not None:
            # Walked in C++ with no Python callback: the same leaves (the data
            # fields in order) and ``nodetype(**fields)`` to rebuild, as
            # register_dataclass's own functions (issue 19: a dataclass
            # argument's flatten was a Python frame on every jit call).
            data, meta = dataclass_fields
            _CONTAINER_TREES.register_dataclass_node(nodetype, list(data), list(meta))
        else:
            _CONTAINER_TREES.register_node(nodetype, flatten, unflatten)
    except Exception:  # a type jaxlib's registry refuses stays out of the dispatch memo
        return False
    return True


share_node_types(_share_node_type)  # Note [node types shared with jaxlib]


# jaxlib's own method, not a wrapper: jit's dispatch calls it on every call
# with arguments in containers, where a Python frame shows (issue 19).
flatten_containers: Final[Callable[[object], tuple[list[object], Hashable]]] = _CONTAINER_TREES.flatten
"""The leaves of a tree through tuples, lists, dicts, namedtuples and None
(anything else is a leaf), and a hashable key of its structure.

Raises:
    ValueError: a dict's keys do not sort.
"""


@runtime_checkable
class ContainerTree(Protocol):
    """The structure :func:`container_tree` gives (jaxlib's treedef)."""

    def unflatten(self, leaves: Iterable[object], /) -> object:
        """The containers rebuilt around ``leaves``."""
        ...


def container_tree(tree: object) -> tuple[list[object], ContainerTree]:
    """:func:`flatten_containers`, with the structure as a
    :class:`ContainerTree` that rebuilds the containers in C++."""
    leaves, structure = _CONTAINER_TREES.flatten(tree)
    return leaves, structure


def has_ffi_target(name: str) -> bool:
    """Whether the installed jaxlib registers the CPU FFI/custom-call target ``name``."""
    return name in _jax.custom_call_targets("cpu")


def compile_error(err: Exception, text: str) -> RuntimeError:
    """The error for a module XLA rejected: a JaxtypedNotImplementedError (a
    RuntimeError) naming the jaxlib version when the module needs an FFI
    target this jaxlib lacks, else a RuntimeError (a bug in a lowering rule)."""
    if f"No FFI handler registered for {_SINK_TARGET}" in str(err):
        return JaxtypedNotImplementedError(
            f"ordered effects inside loops and conditionals (debug.print(..., ordered=True), ordered callbacks) "
            f"need jaxlib's {_SINK_TARGET!r} target, which jaxlib {jaxlib_version()} does not provide; upgrade "
            f"jaxlib (0.10.2 has it), or make the effect unordered. XLA said: {err}"
        )
    return RuntimeError(f"XLA could not compile the lowered module: {err}\n\nModule:\n{text}")


_HAS_BUFFER_PROTOCOL: Final = (_parse_version(jaxlib_version()) or (0, 0, 0, 0)) >= (0, 10, 0, 0)
_BFLOAT16: Final = np.dtype(dtypes.bfloat16)
_BOOL: Final = np.dtype(np.bool_)


# === client and devices ===

# The types jaxlib's objects have in jaxtyped's signatures: jaxlib ships no
# types for its extension module, so naming its classes there would leave
# users' checkers with unknown types (our stubs/ are for development only).


# Device: the protocol lives with the shardings (layer L0.2), which name devices too.
# Where a result is placed (device_put, and the device= keywords of jnp).
DeviceOrSharding = Device | Sharding


@final
@dataclass(frozen=True, slots=True)
class _Backend:
    client: xc.Client
    devices: tuple[xc.Device, ...]
    shardings: tuple[xc.GSPMDSharding, ...]  # one replicated single-device sharding per device


_backend_lock = threading.Lock()
_backend_cell: list[_Backend] = []


def _get_backend() -> _Backend:
    if _backend_cell:
        return _backend_cell[0]
    with _backend_lock:
        if not _backend_cell:
            requested = config.jax_num_cpu_devices
            config.freeze_num_cpu_devices()
            client = _make_client(None if requested < 1 else requested)
            devs = tuple(client.local_devices())
            shardings = tuple(
                xc.GSPMDSharding(xc.DeviceList((d,)), xc.HloSharding.replicate()) for d in devs
            )
            _backend_cell.append(_Backend(client, devs, shardings))
    return _backend_cell[0]


# === several processes (issue 17): jaxlib's distributed runtime ===


@final
@dataclass(frozen=True, slots=True)
class _Distributed:
    service: "_jax.DistributedRuntimeService | None"
    client: "_jax.DistributedRuntimeClient"
    process_id: int
    num_processes: int
    host: str


_distributed_cell: list[_Distributed] = []


def initialize_distributed(
    coordinator_address: str,
    num_processes: int,
    process_id: int,
    *,
    init_timeout_s: int,
    heartbeat_timeout_s: int,
    shutdown_timeout_s: int,
) -> None:
    """Join a computation of ``num_processes`` processes: process 0 also
    runs the coordinator service at ``coordinator_address`` (``host:port``);
    every process connects a client to it. Must come before the backend
    starts (the CPU client is made with the client and CPU collectives
    over TCP, gloo)."""
    with _backend_lock:
        if _backend_cell:
            raise RuntimeError(
                "jaxtyped.distributed.initialize must be called before any jaxtyped computation "
                "(the backend has already started)"
            )
        if _distributed_cell:
            raise RuntimeError("jaxtyped.distributed.initialize was already called in this process")
        service = None
        if process_id == 0:
            service = _jax.get_distributed_runtime_service(
                coordinator_address,
                num_processes,
                heartbeat_timeout=heartbeat_timeout_s,
                cluster_register_timeout=init_timeout_s,
                shutdown_timeout=shutdown_timeout_s,
            )
        client = _jax.get_distributed_runtime_client(
            coordinator_address,
            process_id,
            init_timeout=init_timeout_s,
            heartbeat_timeout=heartbeat_timeout_s,
            rpc_timeout=init_timeout_s,
            shutdown_timeout=shutdown_timeout_s,
        )
        client.connect()
        host = coordinator_address.rsplit(":", 1)[0]
        _distributed_cell.append(_Distributed(service, client, process_id, num_processes, host))


def shutdown_distributed() -> None:
    """Leave the computation (a barrier with the other processes), and stop
    the coordinator service in process 0."""
    with _backend_lock:
        if not _distributed_cell:
            return
        state = _distributed_cell.pop()
        state.client.shutdown()
        if state.service is not None:
            state.service.shutdown()


def distributed_client() -> "_jax.DistributedRuntimeClient | None":
    """The distributed runtime client, once initialised."""
    return _distributed_cell[0].client if _distributed_cell else None


def _make_client(num_devices: int | None) -> xc.Client:
    if not _distributed_cell:
        return xc.make_cpu_client() if num_devices is None else xc.make_cpu_client(num_devices=num_devices)
    state = _distributed_cell[0]
    # Loopback and named hosts: gloo binds the coordinator's host name.
    collectives = _jax.make_gloo_tcp_collectives(state.client, hostname=state.host)
    return xc.make_cpu_client(
        distributed_client=state.client,
        node_id=state.process_id,
        num_nodes=state.num_processes,
        collectives=collectives,
        num_devices=num_devices,
    )


def ensure_backend() -> None:
    """Start the CPU client now if it is not running (the profiler's
    tracers must exist before a profiling session starts)."""
    _get_backend()


def heap_profile() -> bytes:
    """The client's pprof snapshot of device memory (arrays and programs)."""
    profile: bytes = _get_backend().client.heap_profile()
    return profile


def local_devices() -> list[Device]:
    """The devices this process drives."""
    return list(_get_backend().devices)


def devices() -> list[Device]:
    """The CPU devices of the PJRT client (created on first use); with
    several processes, every process's devices."""
    return list(_get_backend().client.devices())


def process_index() -> int:
    """This process's index among the processes of the computation."""
    return _get_backend().devices[0].process_index


def process_count() -> int:
    """How many processes take part (1 without ``jaxtyped.distributed``)."""
    return len({d.process_index for d in _get_backend().client.devices()})


@runtime_checkable
class Client(Protocol):
    """A PJRT client (jaxlib's ``Client``, the ``client`` of a device)."""

    @property
    def platform(self) -> str:
        """``"cpu"``."""
        ...

    @property
    def platform_version(self) -> str:
        """The plugin's version string."""
        ...

    def local_devices(self) -> list[Device]:
        """The devices this process drives through the client."""
        ...


Backend = str | Client
"""JAX's ``backend=`` argument of the device queries: a platform name or a
PJRT client."""

_PLATFORM = "cpu"  # the one platform jaxtyped drives


def check_backend(backend: Backend | None, where: str) -> None:
    """Accept ``backend`` if it names the platform devices come from (JAX's
    names are case-sensitive), else raise JAX's error for it."""
    if backend is None or backend == _PLATFORM:
        return
    own_client: object = _get_backend().client
    if backend is own_client:
        return
    if isinstance(backend, str):
        raise UnknownBackendError(f"{where}: unknown backend {backend!r}; available backends are [{_PLATFORM!r}]")
    if isinstance(backend, Client):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise UnknownBackendError(f"{where}: backend is a client this process did not create; pass {_PLATFORM!r} or None")
    raise JaxtypedTypeError(f"{where}: backend must be a platform name or a client, got {type(backend).__name__}")


def default_device() -> Device:
    """Where arrays and computations go unless told otherwise."""
    return _get_backend().devices[0]


def _device_index(device: Device | None) -> int:
    if device is None:
        return 0
    backend = _get_backend()
    for i, d in enumerate(backend.devices):
        if d is device or d == device:
            return i
    raise JaxtypedValueError(f"device_put: {device!r} is not one of jaxtyped's devices {list(backend.devices)}")


# === transfers ===


def _xla_aval(aval: ShapedArray) -> ShapedArray:
    # float0 has no XLA type: its (meaningless) data travel as booleans.
    return ShapedArray(aval.shape, _BOOL, aval.weak_type) if dtypes.is_float0(aval.dtype) else aval


def put(value: np.ndarray[Any, np.dtype[Any]], aval: ShapedArray, device: Device | None = None) -> DeviceBuffer:
    """A device buffer holding ``value``, whose shape and dtype must be
    exactly ``aval``'s (checked: jaxlib would accept anything).

    The host memory is aliased when jaxlib can (64-byte aligned): callers
    pass only immutable, library-owned buffers.
    """
    host_dtype = _BOOL if dtypes.is_float0(aval.dtype) else aval.dtype
    if value.shape != aval.shape or value.dtype != host_dtype:
        if dtypes.is_float0(aval.dtype) and value.shape == aval.shape:
            value = np.zeros(aval.shape, _BOOL)
        else:
            raise AssertionError(
                f"internal error: device transfer of a {value.dtype}{list(value.shape)} buffer "
                f"as {aval.str_short()}"
            )
    backend = _get_backend()
    index = _device_index(device)
    buffer: DeviceBuffer = xc.batched_device_put(
        _xla_aval(aval),
        backend.shardings[index],
        [value],
        [backend.devices[index]],
        enable_x64=True,  # data are already canonical: never narrow silently
    )
    return buffer


def put_copy(value: np.ndarray[Any, np.dtype[Any]], aval: ShapedArray) -> DeviceBuffer:
    """A buffer on the default device holding a copy of a caller's NumPy
    value (a jitted function's NumPy argument): jaxlib copies it during
    the call, so the caller may write to ``value`` afterwards. ``aval`` is
    ``value``'s shape with its dtype canonicalised (converted here).

    One copy, made by jaxlib: the dispatch memo's NumPy path (issue 19)
    otherwise copied the value into a private host array and then
    transferred that.
    """
    if value.dtype != aval.dtype:
        value = value.astype(aval.dtype)
    if value.shape != aval.shape or dtypes.is_float0(aval.dtype):
        raise AssertionError(f"internal error: device transfer of a {value.dtype}{list(value.shape)} value as {aval.str_short()}")
    backend = _get_backend()
    buffer: DeviceBuffer = xc.batched_device_put(
        aval,
        backend.shardings[0],
        [value],
        [backend.devices[0]],
        host_buffer_semantics=_COPY_DURING_CALL,
        enable_x64=True,  # data are already canonical: never narrow silently
    )
    return buffer


_COPY_DURING_CALL: Final = xc.HostBufferSemantics.IMMUTABLE_ONLY_DURING_CALL

# jaxlib aliases host memory (no copy) only at this alignment (see the
# jaxlib facts note). Host values at least ALIASABLE_MIN_BYTES large are
# worth placing where a device buffer can alias them; below it, jaxlib's
# copy on transfer is cheap.
_ALIAS_ALIGNMENT: Final = 64
ALIASABLE_MIN_BYTES: Final = 1 << 16


def aliasable_host_buffer(value: np.ndarray[Any, np.dtype[Any]], aval: ShapedArray) -> np.ndarray[Any, np.dtype[Any]]:
    """``value``, or, when it is large and jaxlib would copy it on transfer
    (unaligned or not contiguous, e.g. a broadcast), a read-only copy in
    aligned memory that a device buffer can alias: the copy jaxlib would
    have made is made here instead, and replaces ``value`` as the host home."""
    if value.nbytes < ALIASABLE_MIN_BYTES or value.dtype != aval.dtype:
        return value  # small, or a dtype put() converts (float0)
    if value.flags.c_contiguous and value.ctypes.data % _ALIAS_ALIGNMENT == 0:
        return value
    aligned = aligned_empty(value.shape, value.dtype)
    np.copyto(aligned, value)
    aligned.flags.writeable = False
    return aligned


def aligned_empty(shape: tuple[int, ...], dtype: np.dtype[Any]) -> np.ndarray[Any, np.dtype[Any]]:
    """An uninitialised C-contiguous array in memory a device buffer can
    alias (jaxlib's alignment): a host value written there is transferred
    without a copy."""
    nbytes = math.prod(shape) * dtype.itemsize
    raw = np.empty(nbytes + _ALIAS_ALIGNMENT, np.uint8)
    offset = -raw.ctypes.data % _ALIAS_ALIGNMENT
    return raw[offset : offset + nbytes].view(dtype).reshape(shape)


# === several devices (issue 17) ===

_gspmd_cache: dict[tuple[tuple[int, ...], str], xc.GSPMDSharding] = {}


def _gspmd(devices: Sequence[Device], hlo_text: str) -> xc.GSPMDSharding:
    key = (tuple(d.id for d in devices), hlo_text)
    hit = _gspmd_cache.get(key)
    if hit is None:
        backend = _get_backend()
        by_id = {d.id: d for d in backend.client.devices()}
        device_list = xc.DeviceList(tuple(by_id[d.id] for d in devices))
        hit = _gspmd_cache[key] = xc.GSPMDSharding(device_list, xc.HloSharding.from_string(hlo_text))
    return hit


def put_sharded(value: np.ndarray[Any, np.dtype[Any]], aval: ShapedArray, sharding: Sharding) -> DeviceBuffer:
    """One buffer spanning ``sharding``'s devices, each holding its slice of
    ``value`` (whose type the caller checked against ``aval``)."""
    if dtypes.is_float0(aval.dtype):
        value = np.zeros(aval.shape, _BOOL)
    devices = sharding.device_list
    indices = sharding.devices_indices_map(aval.shape)
    backend = _get_backend()
    local = {d.id: d for d in backend.devices}
    # Each process puts the pieces of its own devices (all of them, in one process).
    mine = [d for d in devices if d.id in local]
    pieces = [np.ascontiguousarray(value[indices[d]]) for d in mine]
    gspmd = _gspmd(devices, sharding.hlo_sharding(aval.ndim))
    buffer: DeviceBuffer = xc.batched_device_put(
        _xla_aval(aval), gspmd, pieces, [local[d.id] for d in mine], enable_x64=True
    )
    return buffer


def copy_to_device(buffer: DeviceBuffer, device: Device) -> DeviceBuffer:
    """A copy of single-device ``buffer`` on ``device``, device to device
    (no host round trip)."""
    assert isinstance(buffer, xc.ArrayImpl)
    index = _device_index(device)
    backend = _get_backend()
    (copied,) = _jax.batched_copy_array_to_devices_with_sharding(
        [buffer], [xc.DeviceList((backend.devices[index],))], [backend.shardings[index]], [_jax.ArrayCopySemantics.ALWAYS_COPY]
    )
    result: DeviceBuffer = copied
    return result


def put_sharded_pieces(pieces: Sequence[DeviceBuffer], aval: ShapedArray, sharding: Sharding) -> DeviceBuffer:
    """One buffer spanning ``sharding``'s devices from per-device pieces
    that are already device buffers (one per device, in the sharding's
    device order), copied device to device."""
    backend = _get_backend()
    local = {d.id: d for d in backend.devices}
    gspmd = _gspmd(sharding.device_list, sharding.hlo_sharding(aval.ndim))
    buffer: DeviceBuffer = xc.batched_device_put(
        _xla_aval(aval), gspmd, list(pieces), [local[d.id] for d in sharding.device_list], enable_x64=True
    )
    return buffer


def is_multi_device(buffer: DeviceBuffer) -> bool:
    """Whether ``buffer`` spans several devices."""
    assert isinstance(buffer, xc.ArrayImpl)
    return len(buffer._sharding._internal_device_list) > 1


def _tile_indices(hlo: xc.HloSharding, shape: tuple[int, ...], count: int) -> list[tuple[slice, ...]]:
    """Per device position, the slice it holds under XLA sharding ``hlo``."""
    if hlo.is_replicated():
        return [tuple(slice(None) for _ in shape)] * count
    dims = list(hlo.tile_assignment_dimensions())
    order = list(hlo.tile_assignment_devices())
    data_dims = dims[: len(shape)]
    result: list[tuple[slice, ...]] = [tuple(slice(None) for _ in shape)] * count
    for flat, position in enumerate(order):
        coords = np.unravel_index(flat, dims)
        index: list[slice] = []
        for d, size in enumerate(shape):
            parts = data_dims[d]
            step = -(-size // parts)
            index.append(slice(int(coords[d]) * step, min(size, (int(coords[d]) + 1) * step)))
        result[position] = tuple(index)
    return result


# Note [reading shards without jax]: jaxlib 0.10 builds the single-device
# arrays of ``ArrayImpl._arrays`` (and of plain-callable result handlers)
# through a helper that imports ``jax._src.sharding_impls``: where jax is
# installed that imports all of it, against this project's rule; where it
# is not, each shard pays a failed import. DLPack export and
# ``reorder_shards`` do not import anything: DLPack exports an array's
# first shard, and ``reorder_shards`` (with REUSE_INPUT: no copy) relabels
# the same per-device buffers under a device list that starts with the
# device whose shard is wanted. Dtypes numpy cannot take through DLPack
# (bfloat16, float8, sub-byte) are first converted on the devices, keeping
# the sharding, as ``_narrow_to_host`` does for one device.


@final
class _DLPackCapsule:
    """The object ``np.from_dlpack`` asks for, around an exported capsule."""

    __slots__ = ("_capsule",)

    def __init__(self, capsule: CapsuleType) -> None:
        self._capsule = capsule

    def __dlpack__(self, *, stream: None = None, **_: object) -> CapsuleType:
        return self._capsule  # numpy also passes max_version/copy: a legacy capsule is accepted

    def __dlpack_device__(self) -> tuple[int, int]:
        return (1, 0)  # kDLCPU: the only platform this runtime drives


def _shard_on_host(buffer: xc.ArrayImpl, position: int) -> np.ndarray[Any, np.dtype[Any]]:
    """The buffer that device ``position`` of ``buffer``'s sharding holds,
    as a host view (see Note [reading shards without jax])."""
    sharding = buffer._sharding
    order = list(sharding._internal_device_list)
    if position:
        order = order[position:] + order[:position]
        relabelled = xc.GSPMDSharding(xc.DeviceList(tuple(order)), sharding._hlo_sharding)
        buffer = _jax.reorder_shards(buffer, relabelled, _jax.ArrayCopySemantics.REUSE_INPUT)
    host: np.ndarray[Any, np.dtype[Any]] = np.from_dlpack(_DLPackCapsule(_jax.buffer_to_dlpack_managed_tensor(buffer)))
    return host


def _readable_carrier(aval: ShapedArray) -> tuple[np.dtype[Any], str] | None:
    """For a dtype numpy cannot read through DLPack, the dtype it is read
    as and the op that converts it exactly (as ``_narrow_to_host``)."""
    if aval.dtype == _BFLOAT16:
        return np.dtype(np.uint16), "stablehlo.bitcast_convert"
    if aval.dtype.type not in dtypes.narrow_types():
        return None
    if aval.dtype.itemsize == 1 and aval.dtype.type not in dtypes.sub_byte_types():
        return np.dtype(np.uint8), "stablehlo.bitcast_convert"
    if dtypes.is_floating(aval.dtype):
        return np.dtype(np.float32), "stablehlo.convert"
    return np.dtype(np.int8 if dtypes.is_signed_integer(aval.dtype) else np.uint8), "stablehlo.convert"


def _convert_sharded(buffer: xc.ArrayImpl, aval: ShapedArray, carrier: np.dtype[Any], op: str) -> xc.ArrayImpl:
    """``buffer`` converted elementwise to ``carrier`` on its own devices,
    with its sharding (one compiled program per type and layout, cached)."""
    sharding = buffer._sharding
    layout = str(sharding._hlo_sharding)
    out = ShapedArray(aval.shape, carrier)
    text = (
        "module @read_sharded {\n"
        f'  func.func public @main(%arg0: {tensor_type(aval)} {{mhlo.sharding = "{layout}"}}) '
        f'-> ({tensor_type(out)} {{mhlo.sharding = "{layout}"}}) {{\n'
        f'    %0 = "{op}"(%arg0) : ({tensor_type(aval)}) -> {tensor_type(out)}\n'
        f'    "func.return"(%0) : ({tensor_type(out)}) -> ()\n'
        "  }\n}\n"
    )
    devices = tuple(sharding._internal_device_list)
    (result,) = compile_spmd_module(text, (aval,), (out,), devices).execute((buffer,))
    assert isinstance(result, xc.ArrayImpl)
    return result


def _assemble_on_host(buffer: xc.ArrayImpl, aval: ShapedArray) -> np.ndarray[Any, np.dtype[Any]]:
    """The global value of a multi-device buffer, from the shards of this
    process's devices (a copy; see Note [reading shards without jax])."""
    if dtypes.is_float0(aval.dtype):
        return np.zeros(aval.shape, dtypes.float0)
    carrier = _readable_carrier(aval)
    if carrier is not None:
        buffer = _convert_sharded(buffer, aval, *carrier)
    sharding = buffer._sharding
    device_list = list(sharding._internal_device_list)
    indices = _tile_indices(sharding._hlo_sharding, aval.shape, len(device_list))
    local = {d.id for d in _get_backend().devices}
    covered = np.zeros(aval.shape, np.bool_)
    out = np.empty(aval.shape, aval.dtype if carrier is None else carrier[0])
    for position, device in enumerate(device_list):
        index = indices[position]
        if device.id not in local or covered[index].all():
            continue  # another process's device, or a replica of a part already read
        covered[index] = True
        # (a 0-d array's shard arrives through DLPack as shape (1,))
        out[index] = _shard_on_host(buffer, position).reshape(out[index].shape)
    if not covered.all():
        raise JaxtypedValueError(
            f"reading a {aval.str_short()} array that spans devices of other processes is not possible "
            "(only its fully replicated or addressable parts are here): gather it first "
            "(jaxtyped.distributed.process_allgather, or an out_sharding that replicates it)"
        )
    if carrier is not None:
        out = out.view(aval.dtype) if carrier[1] == "stablehlo.bitcast_convert" else out.astype(aval.dtype)
    out.flags.writeable = False
    return out


def to_host(buffer: DeviceBuffer, aval: ShapedArray) -> np.ndarray[Any, np.dtype[Any]]:
    """A read-only host view of a single-device buffer (waits for it); a
    multi-device buffer is assembled from its shards (a copy)."""
    assert isinstance(buffer, xc.ArrayImpl)
    if len(buffer._sharding._internal_device_list) > 1:
        return _assemble_on_host(buffer, aval)
    if dtypes.is_float0(aval.dtype):
        return np.zeros(aval.shape, dtypes.float0)
    if aval.dtype == _BFLOAT16:
        # No PEP 3118 format for bfloat16: read the bits as uint16.
        bits = np.asarray(_bitcast_to_uint16(buffer, aval))
        value = bits.view(_BFLOAT16)
    elif aval.dtype.type in dtypes.narrow_types():
        value = _narrow_to_host(buffer, aval)
    elif _HAS_BUFFER_PROTOCOL:
        value = np.asarray(buffer)  # zero-copy on CPU
    else:
        value, _ = buffer._single_device_array_to_np_array_did_copy()  # jaxlib < 0.10 has no buffer protocol
    if value.dtype != aval.dtype or value.shape != aval.shape:
        raise AssertionError(
            f"internal error: device buffer read back as {value.dtype}{list(value.shape)}, "
            f"expected {aval.str_short()}"
        )
    if value.flags.writeable:
        value.flags.writeable = False
    return value


def _bitcast_to_uint16(buffer: DeviceBuffer, aval: ShapedArray) -> DeviceBuffer:
    out = ShapedArray(aval.shape, np.dtype(np.uint16))
    text = (
        "module @bitcast {\n"
        f"  func.func public @main(%arg0: {tensor_type(aval)}) -> {tensor_type(out)} {{\n"
        f'    %0 = "stablehlo.bitcast_convert"(%arg0) : ({tensor_type(aval)}) -> {tensor_type(out)}\n'
        f'    "func.return"(%0) : ({tensor_type(out)}) -> ()\n'
        "  }\n}\n"
    )
    (result,) = compile_module(text, (aval,), (out,)).execute((buffer,))
    return result


def _narrow_to_host(buffer: DeviceBuffer, aval: ShapedArray) -> np.ndarray[Any, np.dtype[Any]]:
    """ml_dtypes' narrow types have no PEP 3118 format either: 8-bit
    floats are read as their bits (uint8), narrower types through a
    conversion to a byte-sized type (exact: every value fits)."""
    carrier: np.dtype[Any]
    if aval.dtype.itemsize == 1 and aval.dtype.type not in dtypes.sub_byte_types():
        carrier, op = np.dtype(np.uint8), "stablehlo.bitcast_convert"
    elif dtypes.is_floating(aval.dtype):
        carrier, op = np.dtype(np.float32), "stablehlo.convert"
    else:
        carrier, op = np.dtype(np.int8 if dtypes.is_signed_integer(aval.dtype) else np.uint8), "stablehlo.convert"
    out = ShapedArray(aval.shape, carrier)
    text = (
        "module @narrow_to_host {\n"
        f"  func.func public @main(%arg0: {tensor_type(aval)}) -> {tensor_type(out)} {{\n"
        f'    %0 = "{op}"(%arg0) : ({tensor_type(aval)}) -> {tensor_type(out)}\n'
        f'    "func.return"(%0) : ({tensor_type(out)}) -> ()\n'
        "  }\n}\n"
    )
    (result,) = compile_module(text, (aval,), (out,)).execute((buffer,))
    host = np.asarray(result)
    return host.view(aval.dtype) if op == "stablehlo.bitcast_convert" else host.astype(aval.dtype)


def block_until_ready(buffers: Sequence[DeviceBuffer]) -> None:
    """Wait for every buffer in one call into jaxlib (about a sixth of the
    cost of waiting for each, issue 19)."""
    xc.batched_block_until_ready(buffers)


def _devices_of(buffer: DeviceBuffer) -> frozenset[Device]:
    assert isinstance(buffer, xc.ArrayImpl)
    devices: frozenset[Device] = frozenset(buffer._sharding._internal_device_list)  # jaxlib's only device accessor
    return devices


@final
class _Transfers:
    """The host/device transfers the concrete array type calls."""

    def to_host(self, buffer: DeviceBuffer, aval: ShapedArray) -> np.ndarray[Any, np.dtype[Any]]:
        return to_host(buffer, aval)

    def to_device(
        self, value: np.ndarray[Any, np.dtype[Any]], aval: ShapedArray
    ) -> tuple[DeviceBuffer, np.ndarray[Any, np.dtype[Any]]]:
        host = aliasable_host_buffer(value, aval)
        return put(host, aval), host

    def describe_devices(self, buffer: DeviceBuffer) -> frozenset[Device]:
        return _devices_of(buffer)

    def default_device(self) -> object:
        return default_device()


register_device_backend(_Transfers())


# === compilation and execution ===


@runtime_checkable
class Executable(Protocol):
    """A compiled program with its signature.

    ``execute`` takes one device buffer per parameter, in order, and returns
    one per result; dispatch is asynchronous (the outputs are futures that
    block when read).
    """

    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]

    def execute(self, buffers: Sequence[DeviceBuffer]) -> Sequence[DeviceBuffer]:
        """Run on ``buffers`` (whose types the caller has checked)."""
        ...

    def hlo_text(self) -> str:
        """The optimized HLO XLA compiled (for inspection)."""
        ...

    def cost_analysis(self) -> dict[str, float]:
        """XLA's cost estimates (``flops``, ``bytes accessed``, ...)."""
        ...


@final
class _XlaExecutable:
    """An :class:`Executable` made by jaxlib (``compile_module`` builds them)."""

    __slots__ = ("_loaded", "in_avals", "out_avals", "_handlers", "launcher", "__weakref__")

    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]

    def __init__(self, loaded: xc.LoadedExecutable, in_avals: tuple[ShapedArray, ...], out_avals: tuple[ShapedArray, ...]) -> None:
        self._loaded = loaded
        self.in_avals = in_avals
        self.out_avals = out_avals
        sharding = _get_backend().shardings[0]
        self._handlers = [
            xc.array_result_handler(_xla_aval(aval), sharding, True, _skip_checks=True) for aval in out_avals
        ]
        self.launcher = Launcher(
            loaded.execute_sharded,  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # jaxlib arrays behind the runtime-neutral protocol
            list(self._handlers),
        )

    def execute(self, buffers: Sequence[DeviceBuffer]) -> Sequence[DeviceBuffer]:
        """Run on ``buffers`` (whose types the caller has checked)."""
        results: Sequence[DeviceBuffer] = self._loaded.execute_sharded(
            buffers  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # DeviceBuffer is the runtime-neutral protocol; these are jaxlib arrays
        ).consume_with_handlers(self._handlers)
        return results

    def hlo_text(self) -> str:
        """The optimized HLO XLA compiled (for inspection)."""
        modules = self._loaded.hlo_modules()
        return "\n".join(str(m.to_string()) for m in modules)

    def cost_analysis(self) -> dict[str, float]:
        """XLA's cost estimates (``flops``, ``bytes accessed``, ...); jaxlib
        may also report non-numeric entries, which are left out."""
        return {str(k): float(v) for k, v in self._loaded.cost_analysis().items() if isinstance(v, (int, float))}


@runtime_checkable
class ExecuteResults(Protocol):
    """What jaxlib's launch of a program returns: consumed once, through
    one result handler per output."""

    def consume_with_handlers(self, handlers: list[object], /) -> list[DeviceBuffer]:
        """The outputs, each built by its handler."""
        ...


class Launcher(NamedTuple):
    """jaxlib's own entry point of a single-device program and its result
    handlers: ``launch(buffers).consume_with_handlers(handlers)`` is what
    :meth:`Executable.execute` does, for a caller that saves that frame on
    every call (the jit dispatch memo, issue 19)."""

    launch: Callable[[Sequence[DeviceBuffer]], ExecuteResults]
    handlers: list[object]


def launcher(executable: Executable) -> Launcher | None:
    """The :class:`Launcher` of a program compiled by :func:`compile_module`
    (None for other executables, e.g. those with host callbacks)."""
    if type(executable) is not _XlaExecutable:
        return None
    assert isinstance(executable, _XlaExecutable)
    return executable.launcher


@final
@dataclass(slots=True)
class _CacheStats:
    hits: int = 0
    misses: int = 0


_COMPILE_CACHE_SIZE: Final = 1024
# Note [compiled programs live while used]: the text-keyed cache holds its
# programs weakly (whoever runs one, a jitted function's entry, holds it),
# plus the _RECENT_PROGRAMS most recently used strongly, for callers that
# keep nothing (one-op helper programs, a function re-jitted in a loop).
# Programs of functions that no longer exist are released (issue 19).
_RECENT_PROGRAMS: Final = 16
_CompileKey = tuple[str, tuple[ShapedArray, ...], tuple[ShapedArray, ...]]
_compile_cache: "dict[_CompileKey, weakref.ref[_XlaExecutable]]" = {}
_recent_programs: "OrderedDict[_CompileKey, _XlaExecutable]" = OrderedDict()
_compile_sweep_at = [64]  # sweep dead weak entries when the cache reaches this size
_compile_stats = _CacheStats()
_compile_lock = threading.Lock()


def _cached_program(key: _CompileKey) -> "_XlaExecutable | None":
    """A live cached program for ``key`` (call with the lock held)."""
    ref = _compile_cache.get(key)
    program = ref() if ref is not None else None
    if program is not None:
        _recent_programs[key] = program
        _recent_programs.move_to_end(key)
        while len(_recent_programs) > _RECENT_PROGRAMS:
            _recent_programs.popitem(last=False)
    return program


def _cache_program(key: _CompileKey, program: "_XlaExecutable") -> None:
    """Remember ``program`` (call with the lock held); dead entries are
    swept when the table doubles, so a lookup stays O(1) amortized."""
    _compile_cache[key] = weakref.ref(program)
    _recent_programs[key] = program
    while len(_recent_programs) > _RECENT_PROGRAMS:
        _recent_programs.popitem(last=False)
    if len(_compile_cache) >= _compile_sweep_at[0]:
        for dead in [k for k, r in _compile_cache.items() if r() is None]:
            del _compile_cache[dead]
        _compile_sweep_at[0] = max(64, 2 * len(_compile_cache))


def compile_module(
    text: str, in_avals: tuple[ShapedArray, ...], out_avals: tuple[ShapedArray, ...]
) -> Executable:
    """Compile StableHLO ``text`` (cached: the same text compiles once).

    Raises:
        RuntimeError: XLA rejected the module (a bug in a lowering rule);
            the message includes the module text.
    """
    if _HOST_CALLBACK_MARK in text:
        # Compiled without its Python functions, the program would crash the
        # process when it runs (notes, section 4.1): refuse it here.
        raise AssertionError(
            "internal error: a module with host callbacks must compile through host_callbacks.compile_lowered"
        )
    key = (text, in_avals, out_avals)
    if _CPU_KERNEL_MARK in text:
        _register_cpu_kernels()
    with _compile_lock:
        hit = _cached_program(key)
        if hit is not None:
            _compile_stats.hits += 1
            return hit
        _compile_stats.misses += 1
        check_mappings = _compile_stats.misses % MAPPING_CHECK_EVERY == 0
    if check_mappings:
        _relieve_mapping_pressure()
    backend = _get_backend()
    with monitoring.backend_compile_event():
        loaded = _load_or_compile(backend.client, text, xc.DeviceList(backend.devices[:1]), xc.CompileOptions())
    executable = _XlaExecutable(loaded, in_avals, out_avals)
    with _compile_lock:
        _cache_program(key, executable)
    return executable


@final
@dataclass(slots=True)
class _PersistentStats:
    compiles: int = 0  # programs XLA compiled that the persistent cache could hold (it had none)
    loads: int = 0  # programs loaded from the persistent cache
    stores: int = 0  # programs saved to it


_persistent_stats = _PersistentStats()


def persistent_cache_info() -> tuple[int, int, int]:
    """``(compiles, loads, stores)`` of this process: XLA compilations of
    the programs the persistent cache could hold (every program except those
    with host callbacks or sharding inspections, or spanning other
    processes' devices), and persistent-cache loads and saves."""
    return _persistent_stats.compiles, _persistent_stats.loads, _persistent_stats.stores


@functools.cache
def _host_environment() -> str:
    """What a serialized executable depends on besides its module and
    options (Note [persistent cache keys and entries])."""
    cpu = platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            cpu += next((line for line in f if line.startswith("flags")), "")
    except OSError:
        cpu += platform.processor()
    return cpu


_cache_used_once = threading.Event()


def _record_cache_use() -> None:
    """JAX's persistent-cache events for one compile request: the first in
    the process also counts this process as a task using the cache."""
    if not _cache_used_once.is_set():
        _cache_used_once.set()
        monitoring.record_event("/jax/compilation_cache/tasks_using_cache")
    monitoring.record_event("/jax/compilation_cache/compile_requests_use_cache")


def reset_persistent_cache_use() -> None:
    """Forget that this process used the persistent cache: the next compile
    request that uses it records ``tasks_using_cache`` again (JAX's
    ``reset_cache``)."""
    _cache_used_once.clear()


def _load_or_compile(client: xc.Client, text: str, devices: xc.DeviceList, options: xc.CompileOptions) -> xc.LoadedExecutable:
    """Load the program from the persistent cache when it is on and has it,
    else compile it (and save it there if it is worth it)."""
    directory = config.jax_compilation_cache_dir
    max_size = config.jax_compilation_cache_max_size
    key = None
    if directory is not None and max_size != 0:
        _record_cache_use()
        environment = "|".join(
            (jaxlib_version(), client.platform, client.platform_version, repr([d.id for d in devices]),
             os.environ.get("XLA_FLAGS", ""), _host_environment())
        )  # fmt: skip
        key = compile_cache.cache_key(text.encode(), options.SerializeAsString(), environment)
        blob = compile_cache.load(directory, key)
        if blob is not None:
            try:
                loaded = client.deserialize_executable(blob, devices, options)
            except Exception:  # a stale entry (another XLA build): compile it again
                pass
            else:
                _persistent_stats.loads += 1
                monitoring.record_event("/jax/compilation_cache/cache_hits")
                return loaded
        monitoring.record_event("/jax/compilation_cache/cache_misses")
    start = time.perf_counter()
    try:
        loaded = client.compile_and_load(text.encode(), devices, options)
    except Exception as err:  # jaxlib raises its own JaxRuntimeError
        raise compile_error(err, text) from err
    elapsed = time.perf_counter() - start
    _persistent_stats.compiles += 1
    if directory is not None and key is not None and elapsed >= config.jax_persistent_cache_min_compile_time_secs:
        blob = client.serialize_executable(loaded)
        if len(blob) >= config.jax_persistent_cache_min_entry_size_bytes and compile_cache.store(directory, key, blob, max_size):
            _persistent_stats.stores += 1
    return loaded


@final
class SpmdExecutable:
    """A program compiled for several devices (partitioned by Shardy): its
    inputs and outputs are buffers spanning ``devices``."""

    __slots__ = ("_loaded", "in_avals", "out_avals", "devices", "out_tilings", "_handlers")

    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]
    devices: tuple[Device, ...]

    def __init__(
        self,
        loaded: object,
        in_avals: tuple[ShapedArray, ...],
        out_avals: tuple[ShapedArray, ...],
        devices: tuple[Device, ...],
    ) -> None:
        # ``loaded`` is jaxlib's LoadedExecutable; typed ``object`` here so
        # that the public API names no jaxlib type (jaxlib is untyped for
        # users, see Note [versions]).
        assert isinstance(loaded, xc.LoadedExecutable)
        self._loaded = loaded
        self.in_avals = in_avals
        self.out_avals = out_avals
        self.devices = devices
        device_list = xc.DeviceList(tuple(_backend_device(d) for d in devices))
        shardings = loaded.get_output_shardings() or []
        hlos = [xc.HloSharding.from_proto(s) for s in shardings]
        if len(hlos) != len(out_avals):
            hlos = [xc.HloSharding.replicate() for _ in out_avals]
        # Per output: (tile dimensions, device positions, replicated) as XLA chose them.
        self.out_tilings: tuple[tuple[tuple[int, ...], tuple[int, ...], bool], ...] = tuple(
            (tuple(h.tile_assignment_dimensions()), tuple(h.tile_assignment_devices()), h.is_replicated())
            for h in hlos
        )
        self._handlers = [
            xc.array_result_handler(_xla_aval(aval), xc.GSPMDSharding(device_list, h), True, _skip_checks=True)
            for aval, h in zip(out_avals, hlos)
        ]

    def execute(self, buffers: Sequence[DeviceBuffer]) -> Sequence[DeviceBuffer]:
        """Run on buffers laid out as the program's parameters expect."""
        results: Sequence[DeviceBuffer] = self._loaded.execute_sharded(
            buffers  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # jaxlib arrays behind the runtime-neutral protocol
        ).consume_with_handlers(self._handlers)
        return results

    def hlo_text(self) -> str:
        """The partitioned HLO XLA compiled (for inspection)."""
        return "\n".join(str(m.to_string()) for m in self._loaded.hlo_modules())

    def cost_analysis(self) -> dict[str, float]:
        """XLA's cost estimates for one partition's program."""
        return {str(k): float(v) for k, v in self._loaded.cost_analysis().items() if isinstance(v, (int, float))}


def _backend_device(device: Device) -> xc.Device:
    for d in _get_backend().client.devices():
        if d.id == device.id:
            return d
    raise JaxtypedValueError(f"{device!r} is not one of jaxtyped's devices")


_spmd_cache: "OrderedDict[tuple[str, tuple[int, ...]], SpmdExecutable]" = OrderedDict()


def compile_spmd_module(
    text: str, in_avals: tuple[ShapedArray, ...], out_avals: tuple[ShapedArray, ...], devices: tuple[Device, ...]
) -> SpmdExecutable:
    """Compile a module with Shardy annotations for ``devices`` (one
    partition each, in this order: see Note [mesh order is program order])."""
    if _HOST_CALLBACK_MARK in text:
        # Compiled without its Python functions it would crash when run.
        raise JaxtypedNotImplementedError(
            "jit over several devices: debug.print and callbacks are not supported in a sharded program "
            "(call them outside it, or on one device)"
        )
    key = (text, tuple(d.id for d in devices))
    with _compile_lock:
        hit = _spmd_cache.get(key)
        if hit is not None:
            _spmd_cache.move_to_end(key)
            return hit
    backend = _get_backend()
    options = xc.CompileOptions()
    options.num_partitions = len(devices)
    options.num_replicas = 1
    build = options.executable_build_options
    build.use_spmd_partitioning = True
    build.use_shardy_partitioner = True
    # Global device ids (several processes number theirs 0.., 2048.., ...).
    options.device_assignment = _jax.DeviceAssignment.create(np.array([[d.id for d in devices]], np.int32))
    device_list = xc.DeviceList(tuple(_backend_device(d) for d in devices))
    # A program that inspects shardings must compile (its callbacks run
    # then, Note [inspecting shardings at compile time]); one spanning other
    # processes' devices is compiled by each of them, as JAX does.
    persistent = _INSPECT_SHARDING_MARK not in text and all(d.process_index == process_index() for d in devices)
    try:
        with monitoring.backend_compile_event():
            if persistent:
                loaded = _load_or_compile(backend.client, text, device_list, options)
            else:
                loaded = backend.client.compile_and_load(text.encode(), device_list, options)
    except Exception as err:  # jaxlib raises its own JaxRuntimeError; _load_or_compile already explains it
        _raise_inspect_errors()
        if persistent:
            raise
        raise compile_error(err, text) from err
    _raise_inspect_errors()
    executable = SpmdExecutable(loaded, in_avals, out_avals, devices)
    with _compile_lock:
        _spmd_cache[key] = executable
        while len(_spmd_cache) > _COMPILE_CACHE_SIZE:
            _spmd_cache.popitem(last=False)
    return executable


class HloTiling(NamedTuple):
    """A layout the SPMD partitioner chose, as plain data: XLA's tile
    dimensions and device positions, whether it is fully replicated, and
    whether it is manual (inside ``shard_map``)."""

    dims: tuple[int, ...]
    devices: tuple[int, ...]
    replicated: bool
    manual: bool


# Note [inspecting shardings at compile time]: jaxlib's SPMD partitioner
# calls back, while a module is compiled, for each "InspectSharding" custom
# call with the layout it chose for the operand; the custom call's
# backend_config is the key ``encode_inspect_sharding_callback`` makes of a
# Python function (its address: the function must outlive every compilation
# of a module naming it, so the functions are kept for the process's life).
# An exception in the function would become a compile error holding only
# its text: it is kept instead and raised after the compilation.
_INSPECT_SHARDING_MARK = "InspectSharding"  # the custom call's target, however the text prints it
_inspect_lock = threading.Lock()
_inspect_keepalive: list[Callable[[xc.HloSharding], None]] = []
_inspect_errors: list[BaseException] = []


def inspect_sharding_key(on_tiling: Callable[[HloTiling], None]) -> bytes:
    """The backend_config of an ``InspectSharding`` custom call that calls
    ``on_tiling`` with the operand's layout while the module is compiled
    for several devices (Note [inspecting shardings at compile time])."""

    def call(hlo: xc.HloSharding) -> None:
        try:
            on_tiling(
                HloTiling(
                    tuple(int(d) for d in hlo.tile_assignment_dimensions()),
                    tuple(int(d) for d in hlo.tile_assignment_devices()),
                    hlo.is_replicated(),
                    hlo.is_manual(),
                )
            )
        except BaseException as err:  # raised after the compilation, as it is
            with _inspect_lock:
                _inspect_errors.append(err)

    with _inspect_lock:
        _inspect_keepalive.append(call)
    return xc.encode_inspect_sharding_callback(call)


def _raise_inspect_errors() -> None:
    with _inspect_lock:
        errors = list(_inspect_errors)
        _inspect_errors.clear()
    if errors:
        raise errors[0]


# The custom-call target of host callbacks (issue 16): only
# compile_with_host_callbacks may compile a module that names it.
_HOST_CALLBACK_MARK: Final = '"xla_ffi_python_cpu_callback"'

# Custom-call targets of jaxlib's CPU kernels (LAPACK, ``lapack_sgetrf_ffi``)
# all end this way in a module's text; other modules skip the registration.
_CPU_KERNEL_MARK: Final = '_ffi"'
_kernels_lock = threading.Lock()
_kernels_registered: list[bool] = []


def _register_cpu_kernels() -> None:
    """Register jaxlib's LAPACK kernels as XLA FFI targets, once per process.

    Deferred to the first module that calls one: loading the kernels imports
    SciPy (whose LAPACK they run), about 0.2 s. A registered kernel without
    ``initialize()`` would crash the process at execution (notes, section 12).
    """
    if _kernels_registered:
        return
    with _kernels_lock:
        if _kernels_registered:
            return
        from jaxlib.cpu import _lapack

        _lapack.initialize()
        for name, capsule in _lapack.registrations().items():
            xc.register_custom_call_target(name, capsule, platform="cpu", api_version=1)
        _kernels_registered.append(True)


# Note [mapping pressure]: XLA's CPU backend keeps each compiled program's
# machine code in memory mappings of its own (about 160 for a gamma sampler,
# 3 for a small elementwise program), and Linux caps the mappings of a
# process (``vm.max_map_count``, 65530 by default). A process that keeps
# some hundreds of large programs alive in caches (eager random samplers at
# many shapes; a test suite) reaches the cap, and LLVM's next allocation then
# aborts the process inside ``compile_and_load``. So every few compiles the
# count is read, and past a fraction of the cap the caches registered with
# ``on_mapping_pressure`` drop their programs: later calls recompile instead
# of the process crashing. The fraction leaves room for other libraries in
# the process (JAX's own caches, when both are loaded).
MAPPING_CHECK_EVERY: Final = 8
_MAPPING_PRESSURE_FRACTION: Final = 0.5
_pressure_callbacks: list[Callable[[], None]] = []


def on_mapping_pressure(drop_cached_programs: Callable[[], None]) -> None:
    """Register ``drop_cached_programs``, called when the process's memory
    mappings near the kernel's cap (see Note [mapping pressure])."""
    _pressure_callbacks.append(drop_cached_programs)


def mapping_count_and_cap() -> tuple[int, int] | None:
    """The process's memory mappings and the kernel's cap, where the
    system reports them (Linux), else None."""
    try:
        with open("/proc/sys/vm/max_map_count", "rb") as cap_file:
            cap = int(cap_file.read())
        with open("/proc/self/maps", "rb") as maps_file:
            count = maps_file.read().count(b"\n")
    except (OSError, ValueError):
        return None
    return count, cap


def _relieve_mapping_pressure() -> None:
    measured = mapping_count_and_cap()
    if measured is None:
        return
    count, cap = measured
    if count < _MAPPING_PRESSURE_FRACTION * cap:
        return
    clear_compile_cache()
    for drop_cached_programs in list(_pressure_callbacks):
        drop_cached_programs()
    # Executables caught in reference cycles (a jitted closure that refers
    # to itself) would otherwise keep their mappings until the next
    # collection.
    gc.collect()


# === for the host-callback runtime (runtime/host_callbacks.py, issue 16) ===


def compile_with_host_callbacks(text: str, host_callbacks: Sequence[Callable[..., object]]) -> xc.LoadedExecutable:
    """Compile StableHLO ``text`` whose custom calls name ``host_callbacks``
    by index (not cached here). jaxlib takes callbacks only with a parsed
    ``ir.Module``, and one index without a callback would crash the process
    at execution, so the caller passes exactly one per index.

    Raises:
        RuntimeError: XLA rejected the module (a bug in a lowering rule).
    """
    backend = _get_backend()
    try:
        with _mlir_context():
            module = ir.Module.parse(text)
        with monitoring.backend_compile_event():
            return backend.client.compile_and_load(
                module, xc.DeviceList(backend.devices[:1]), xc.CompileOptions(), host_callbacks=list(host_callbacks)
            )
    except Exception as err:  # jaxlib raises its own JaxRuntimeError, MLIR a ValueError
        raise compile_error(err, text) from err


def result_handler(aval: ShapedArray) -> ResultHandler:
    """The handler that turns a program's output into a device buffer of
    type ``aval`` on the default device (see Note [fast result path])."""
    return xc.array_result_handler(_xla_aval(aval), _get_backend().shardings[0], True, _skip_checks=True)


def compile_cache_info() -> tuple[int, int, int]:
    """``(hits, misses, size)`` of the process-wide compile cache."""
    with _compile_lock:
        live = sum(1 for r in _compile_cache.values() if r() is not None)
    return _compile_stats.hits, _compile_stats.misses, live


def clear_compile_cache() -> None:
    """Drop every cached executable (tests, memory pressure)."""
    with _compile_lock:
        _compile_cache.clear()
        _recent_programs.clear()
        _spmd_cache.clear()


@functools.cache
def narrows_float64_to_float16_twice() -> bool:
    """Whether XLA on this machine converts float64 to float16 through
    float32, rounding twice (it does on some CPUs and not on others), so
    that eager conversions can round as compiled code does. Asked once, by
    converting a value whose two roundings differ (1 + 2**-11 + 2**-40)."""
    f64, f16 = ShapedArray((), np.dtype(np.float64)), ShapedArray((), np.dtype(np.float16))
    text = (
        "module @probe_f64_to_f16 {\n"
        f"  func.func public @main(%arg0: {tensor_type(f64)}) -> {tensor_type(f16)} {{\n"
        f'    %0 = "stablehlo.convert"(%arg0) : ({tensor_type(f64)}) -> {tensor_type(f16)}\n'
        f'    "func.return"(%0) : ({tensor_type(f16)}) -> ()\n'
        "  }\n}\n"
    )
    probe = np.array(1.0 + 2.0**-11 + 2.0**-40, np.float64)
    (result,) = compile_module(text, (f64,), (f16,)).execute((put(probe, f64),))
    return bool(to_host(result, f16) == 1.0)


@functools.cache
def _mlir_context() -> "ir.Context":
    from jaxlib.mlir._mlir_libs import _jax_mlir_ext
    from jaxlib.mlir.dialects import chlo, sdy, stablehlo

    registry = ir.DialectRegistry()
    _jax_mlir_ext.register_dialects(registry)
    context = ir.Context()
    context.append_dialect_registry(registry)
    context.load_all_available_dialects()
    stablehlo.register_dialect(context)
    chlo.register_dialect(context)
    sdy.register_dialect(context)  # Shardy meshes and shardings of SPMD programs (issue 17)
    return context


def pretty_module(text: str) -> str:
    """``text`` re-printed by MLIR in the readable (custom) op syntax."""
    context = _mlir_context()
    with context:
        module = ir.Module.parse(text)
        return str(module)
