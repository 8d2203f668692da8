"""Devices and transfers (layer L5): ``devices``, ``device_put``,
``device_get``, ``block_until_ready`` (JAX's names and semantics)."""

import functools
import warnings
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any, TypeVar, overload

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import (
    ArrayImpl,
    DeviceBuffer,
    array_from_device,
    array_from_sharded,
    device_buffer,
    host_buffer,
    register_placer,
)
from jaxtyped._src.core.interpreter import Tracer
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.api_util import leaf_to_array
from jaxtyped._src.runtime import xla
from jaxtyped._src.sharding import NamedSharding, Sharding, SingleDeviceSharding
from jaxtyped._src.tree_util import tree_leaves, tree_map
from jaxtyped._src.util import AnyOnly

__all__ = [
    "Device",
    "devices",
    "local_devices",
    "device_count",
    "local_device_count",
    "process_index",
    "process_count",
    "device_put",
    "device_get",
    "block_until_ready",
]

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)

# Containers of arrays, which device_put returns with the same type. (Not
# a bound on a recursive pytree alias: pyright 1.1.414 does not enforce one.)
ArraySequenceT = TypeVar("ArraySequenceT", bound=Sequence[Array])
ArrayMappingT = TypeVar("ArrayMappingT", bound=Mapping[Any, Array])
HostArray = np.ndarray[Any, np.dtype[Any]]

Device = xla.Device
"""A device computations run on (JAX's ``jax.Device``; ``CpuDevice(id=0)``)."""


Backend = xla.Backend


def devices(backend: Backend | None = None) -> list[xla.Device]:
    """The devices computations can run on (the CPU devices of the PJRT
    client; ``jt.config.update("jax_num_cpu_devices", N)`` before the first
    use gives N of them). ``backend`` may name the platform, ``"cpu"``, as
    JAX code does; another name raises ``UnknownBackendError``."""
    xla.check_backend(backend, "devices")
    return xla.devices()


def local_devices(
    process_index: int | None = None, backend: Backend | None = None, host_id: int | None = None
) -> list[xla.Device]:
    """The devices attached to process ``process_index`` (default: this
    one; all of them in a single-process program). ``host_id`` is JAX's
    deprecated name for ``process_index`` (warns)."""
    xla.check_backend(backend, "local_devices")
    if host_id is not None:
        warnings.warn(
            "The argument to local_devices has been renamed from `host_id` to `process_index`; please update your code.",
            UserWarning,  # JAX's category
            stacklevel=2,
        )
        process_index = host_id
    if process_index is None:
        return xla.local_devices()
    if isinstance(process_index, bool) or not isinstance(process_index, int):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise JaxtypedTypeError(f"local_devices: process_index must be an int, got {type(process_index).__name__}")
    if not 0 <= process_index < xla.process_count():
        raise JaxtypedValueError(
            f"local_devices: unknown process_index {process_index} (there are {xla.process_count()} processes)"
        )
    return [d for d in xla.devices() if d.process_index == process_index]


def device_count(backend: Backend | None = None) -> int:
    """How many devices there are."""
    xla.check_backend(backend, "device_count")
    return len(xla.devices())


def local_device_count(backend: Backend | None = None) -> int:
    """How many devices this process drives."""
    xla.check_backend(backend, "local_device_count")
    return len(xla.local_devices())


def process_index(backend: Backend | None = None) -> int:
    """This process's index (0 in a single-process program)."""
    xla.check_backend(backend, "process_index")
    return xla.process_index()


def process_count(backend: Backend | None = None) -> int:
    """How many processes take part (1 without ``jaxtyped.distributed``)."""
    xla.check_backend(backend, "process_count")
    return xla.process_count()


DeviceOrSharding = xla.DeviceOrSharding


@overload
def device_put(  # Note [Any in, Any out] in api_tree
    x: AnyOnly,
    device: DeviceOrSharding | None = None,
    *,
    src: DeviceOrSharding | None = None,
    donate: bool = False,
    may_alias: bool | None = None,
) -> AnyOnly: ...
@overload
def device_put(
    x: ArrayLike,
    device: DeviceOrSharding | None = None,
    *,
    src: DeviceOrSharding | None = None,
    donate: bool = False,
    may_alias: bool | None = None,
) -> Array: ...
@overload
def device_put(
    x: ArraySequenceT,
    device: DeviceOrSharding | None = None,
    *,
    src: DeviceOrSharding | None = None,
    donate: bool = False,
    may_alias: bool | None = None,
) -> ArraySequenceT: ...
@overload
def device_put(
    x: ArrayMappingT,
    device: DeviceOrSharding | None = None,
    *,
    src: DeviceOrSharding | None = None,
    donate: bool = False,
    may_alias: bool | None = None,
) -> ArrayMappingT: ...
@overload
def device_put(
    x: object,
    device: DeviceOrSharding | None = None,
    *,
    src: DeviceOrSharding | None = None,
    donate: bool = False,
    may_alias: bool | None = None,
) -> object: ...
def device_put(
    x: object,
    device: DeviceOrSharding | None = None,
    *,
    src: DeviceOrSharding | None = None,
    donate: bool = False,
    may_alias: bool | None = None,
) -> object:
    """Transfer every leaf of pytree ``x`` to ``device`` (default: the
    first device), or lay it out as a ``Sharding`` says, returning arrays
    backed by device buffers.

    NumPy inputs are copied (later writes to them do not show); arrays
    already laid out as asked are returned as they are, unless
    ``may_alias=False`` asks for a copy. ``donate=True`` deletes each input
    array that was copied (its memory is freed; using it again raises).
    ``src`` says where ``x`` lives, as in JAX; a concrete array knows, so
    it is only checked. Types: an array-like gives an ``Array``; a tuple,
    list or dict of arrays keeps its type; any other pytree gives
    ``object`` (NumPy or scalar leaves change type).
    """
    for option, value in (("donate", donate), ("may_alias", may_alias)):
        if value is not None and not isinstance(value, bool):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
            raise JaxtypedTypeError(
                f"device_put: {option} must be a bool (per-leaf tree prefixes are not supported), got {value!r}"
            )
    if src is not None and not isinstance(src, (xla.Device, Sharding)):  # pyright: ignore[reportUnnecessaryIsInstance]
        raise JaxtypedTypeError(f"device_put: src must be a device or a sharding, got {type(src).__name__}")

    def put(leaf: object) -> Array:
        array = leaf_to_array(leaf, "x", "device_put")
        if isinstance(array, Tracer):
            return array  # under a transformation the value is abstract: nothing to move
        if not isinstance(array, ArrayImpl):
            raise JaxtypedTypeError(f"device_put: expected an array, got {type(array).__name__}")
        if device is None and array.is_deleted():
            raise RuntimeError("device_put: the array has been deleted (donated)")
        placed = place(array)
        if donate and leaf is array and placed is not array:  # the caller's array (a converted one may be shared)
            array.delete()
        return placed

    def place(array: ArrayImpl) -> ArrayImpl:
        if isinstance(device, Sharding) and not isinstance(device, SingleDeviceSharding):
            return _put_sharded(array, device, may_alias is not False)
        target = device.device if isinstance(device, SingleDeviceSharding) else device
        on_device = _single_device_buffer(array)
        if on_device is not None and target is not None:
            buffer = xla.copy_to_device(on_device, target)  # device to device, as JAX does
        else:
            buffer = xla.put(host_buffer(array), array.aval, target)
        if target is None:
            return array_from_device(buffer, array.aval)
        # Placed on a device by name: committed there (array_from_sharded
        # marks it when that is not the default device).
        return array_from_sharded(buffer, array.aval, SingleDeviceSharding(target))

    return tree_map(put, x)


def _put_sharded(array: ArrayImpl, sharding: Sharding, may_alias: bool) -> ArrayImpl:
    if isinstance(sharding, NamedSharding):
        sharding.check_shape(array.aval.shape, "device_put")
    if may_alias and array._sharding == sharding:  # pyright: ignore[reportPrivateUsage]  # already laid out so
        return array
    on_device = _single_device_buffer(array)
    if on_device is not None:
        # Already on a device: each device's piece is sliced there and copied
        # device to device (as JAX does), not assembled from a host copy.
        pieces = _device_pieces(array, sharding)
        buffer = xla.put_sharded_pieces(pieces, array.aval, sharding)
    else:
        buffer = xla.put_sharded(host_buffer(array), array.aval, sharding)
    return array_from_sharded(buffer, array.aval, sharding)


def _single_device_buffer(array: ArrayImpl) -> DeviceBuffer | None:
    """``array``'s device buffer when it lives on one device only (not
    when its value is only on the host, is a float0, or spans devices)."""
    buffer = array._buffer  # pyright: ignore[reportPrivateUsage]  # this layer's transfer path
    if buffer is None or array._sharding is not None or dtypes.is_float0(array.dtype):  # pyright: ignore[reportPrivateUsage]
        return None
    return buffer


def _device_pieces(array: ArrayImpl, sharding: Sharding) -> list[DeviceBuffer]:
    """Per device of ``sharding`` (in its order), the piece it holds, sliced
    on ``array``'s device by one compiled program."""
    indices = sharding.devices_indices_map(array.shape)
    order = [indices[d] for d in sharding.device_list]
    distinct = list(dict.fromkeys(_index_key(i) for i in order))
    pieces = _slicer(tuple(distinct))(array)
    by_key: dict[tuple[tuple[int | None, int | None], ...], DeviceBuffer] = {}
    for key, piece in zip(distinct, pieces, strict=True):
        assert isinstance(piece, ArrayImpl)  # a jitted function's concrete result
        by_key[key] = device_buffer(piece)
    return [by_key[_index_key(i)] for i in order]


def _index_key(index: tuple[slice, ...]) -> tuple[tuple[int | None, int | None], ...]:
    return tuple((s.start, s.stop) for s in index)


@functools.lru_cache(maxsize=64)
def _slicer(keys: tuple[tuple[tuple[int | None, int | None], ...], ...]) -> Callable[[Array], tuple[Array, ...]]:
    """A jitted function returning the slices ``keys`` of its argument."""

    from jaxtyped._src.api_jit import jit  # noqa: PLC0415  # jit's module imports this layer's siblings

    def slices(x: Array) -> tuple[Array, ...]:
        return tuple(x[tuple(slice(a, b) for a, b in key)] for key in keys)

    return jit(slices)


@overload
def device_get(x: AnyOnly) -> AnyOnly: ...  # Note [Any in, Any out] in api_tree
@overload
def device_get(x: Array) -> HostArray: ...
@overload
def device_get(x: list[Array]) -> list[HostArray]: ...
@overload
def device_get(x: tuple[Array, ...]) -> tuple[HostArray, ...]: ...
@overload
def device_get(x: dict[K, Array]) -> dict[K, HostArray]: ...
@overload
def device_get(x: object) -> object: ...
def device_get(x: object) -> object:
    """Every array leaf of pytree ``x`` as a NumPy array on the host
    (other leaves unchanged). Types: an ``Array``, or a list, tuple or dict
    of them, gives the same with NumPy arrays; other pytrees ``object``."""

    def get(leaf: object) -> object:
        if isinstance(leaf, ArrayImpl):
            return np.asarray(host_buffer(leaf))
        return leaf

    return tree_map(get, x)


def _array_leaves(x: object) -> list[ArrayImpl]:
    """The concrete arrays among the leaves of ``x``: flattened by jaxlib's
    C++ walk of the builtin containers when every leaf it finds is one (the
    common case: a result of jit), else by :func:`tree_leaves`."""
    try:
        leaves, _ = xla.flatten_containers(x)
    except ValueError:  # dict keys that do not sort: tree_leaves explains
        return _array_leaves_of_any_tree(x)
    arrays: list[ArrayImpl] = []
    for leaf in leaves:
        if type(leaf) is not ArrayImpl:  # a registered node, a scalar, another kind of array
            return _array_leaves_of_any_tree(x)
        arrays.append(leaf)
    return arrays


def _array_leaves_of_any_tree(x: object) -> list[ArrayImpl]:
    return [leaf for leaf in tree_leaves(x) if isinstance(leaf, ArrayImpl)]


def block_until_ready(x: T) -> T:
    """Wait until every array in pytree ``x`` is computed; returns ``x``
    (dispatch is asynchronous: results are futures until then)."""

    if isinstance(x, ArrayImpl):  # one array: its own wait
        x.block_until_ready()
        return x
    # One wait in jaxlib for all the pending buffers (issue 19: a wait per
    # leaf cost 0.45 us each); a deleted array is left to its own wait,
    # which raises the error that names it.
    arrays = _array_leaves(x)
    pending: list[DeviceBuffer] = []
    for array in arrays:
        if array._value is None:  # pyright: ignore[reportPrivateUsage]  # a device-only array: its computation may be running
            buffer = array._buffer  # pyright: ignore[reportPrivateUsage]
            if buffer is None:
                array.block_until_ready()  # raises: deleted
            else:
                pending.append(buffer)
    try:
        xla.block_until_ready(pending)
    except Exception:
        for array in arrays:
            array.block_until_ready()  # the error of the first failing array, in our words
        raise
    return x


def _place(array: ArrayImpl, target: xla.Device | Sharding | None, copy: bool) -> ArrayImpl:
    placed = device_put(array, target, may_alias=False if copy else None)
    assert isinstance(placed, ArrayImpl)  # a concrete array placed
    return placed


register_placer(_place)  # Array.to_device and eager sharding constraints place with device_put
