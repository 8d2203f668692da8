"""The concrete array and conversion of user values to arrays (layer L1).

``ArrayImpl`` is the only ``Array`` subclass that is not a tracer, and the
only one with device methods such as :meth:`ArrayImpl.block_until_ready`.

Note [two homes of a value]: an array lives on the host (an immutable NumPy
buffer, what eager ``impl`` rules compute on), on the device (a PJRT buffer,
what compiled programs read and write), or both. Each side is made from the
other on first use and cached: a jitted function's output stays on the
device until something reads it on the host (``np.asarray`` is then a
zero-copy view on CPU), and an eager result is copied to the device once,
the first time a compiled program takes it. The runtime (layer L3) supplies
the transfers through :func:`register_device_backend`, because this layer
may not import jaxlib.

On CPU the two homes can be one memory: jaxlib aliases a host buffer that is
64-byte aligned instead of copying it. NumPy allocates with 16-byte
alignment, so the common elementwise primitives (``Elementwise.float_ufunc``)
write a large float result straight into aligned memory, which the device
buffer then aliases: no copy at all. Any other large host value is copied
into an aligned buffer on its first transfer, and both homes share that
copy: the array holds one copy, not two, for about the time jaxlib's own
copy would take.
"""

# pyright: reportPrivateUsage=false
# (module-level helpers here read ArrayImpl._value, the class defined here)
from collections.abc import Callable, Generator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Final, Protocol, final, runtime_checkable

import operator

import numpy as np
from typing_extensions import Self, TypeIs

from jaxtyped._src import dtypes
from jaxtyped._src.config import config
from jaxtyped._src.core.array import Array, Conversion
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.errors import JaxtypedIndexError, JaxtypedOverflowError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.sharding import Device, Sharding, SingleDeviceSharding

__all__ = [
    "ArrayImpl",
    "array_from_numpy",
    "numpy_aval",
    "array_from_scalar",
    "to_array",
    "is_python_scalar",
    "is_numpy_value",
    "host_buffer",
    "wrap_buffer",
    "shared_numpy_constants",
    "DeviceBuffer",
    "DeviceBackend",
    "register_device_backend",
    "device_backend",
    "device_buffer",
    "array_from_device",
    "array_from_sharded",
    "mark_donated",
    "Shard",
    "register_placer",
    "place",
]


@runtime_checkable
class DeviceBuffer(Protocol):
    """What this layer needs of a runtime's device buffer."""

    def block_until_ready(self) -> object:
        """Wait for the computation producing the buffer."""
        ...

    def is_deleted(self) -> bool:
        """Whether the buffer was freed or donated."""
        ...

    def delete(self) -> None:
        """Free the buffer now."""
        ...


@runtime_checkable
class DeviceBackend(Protocol):
    """Host/device transfers, supplied by the runtime."""

    def to_host(self, buffer: DeviceBuffer, aval: ShapedArray) -> np.ndarray[Any, np.dtype[Any]]:
        """A read-only host view (or copy) of ``buffer``; waits for it."""
        ...

    def to_device(
        self, value: np.ndarray[Any, np.dtype[Any]], aval: ShapedArray
    ) -> tuple[DeviceBuffer, np.ndarray[Any, np.dtype[Any]]]:
        """A device buffer holding ``value`` (read-only, library-owned), and
        the host buffer to keep: ``value``, or a copy of it that the device
        buffer aliases (see Note [two homes of a value])."""
        ...

    def describe_devices(self, buffer: DeviceBuffer) -> frozenset[Device]:
        """The devices ``buffer`` lives on."""
        ...

    def default_device(self) -> object:
        """Where arrays go unless placed elsewhere."""
        ...


_backend: list[DeviceBackend] = []


def register_device_backend(backend: DeviceBackend) -> None:
    """Install the runtime's transfers (called once, when it is imported)."""
    _backend[:] = [backend]


# Placing an array on a device or over a sharding is device_put's, in a
# higher layer (api_device), which registers it here for the layers below:
# Array.to_device and an eager with_sharding_constraint.
_placer: "Callable[[ArrayImpl, Device | Sharding | None, bool], ArrayImpl] | None" = None


def register_placer(place_array: "Callable[[ArrayImpl, Device | Sharding | None, bool], ArrayImpl]") -> None:
    """Register how a concrete array is placed (api_device, at import)."""
    global _placer
    _placer = place_array


def place(array: "ArrayImpl", target: Device | Sharding | None, *, copy: bool = False) -> "ArrayImpl":
    """``array`` on device ``target``, or laid out over sharding ``target``
    (None: the default device, uncommitted); ``copy``: in a new buffer even
    where it is already so placed."""
    if _placer is None:
        raise AssertionError("internal error: jaxtyped's api_device registers the placer at import")
    return _placer(array, target, copy)


def copy_array(array: "ArrayImpl") -> "ArrayImpl":
    """A new array with ``array``'s value and placement and its own buffer
    (JAX's ``jnp.array(x)``, ``x.copy()``): donating the copy leaves
    ``array`` alive."""
    if array._buffer is None:
        return array.clone()  # host values are read-only: the clone shares this one
    return place(array, array._sharding, copy=True)


def device_backend() -> DeviceBackend:
    """The registered runtime backend."""
    if not _backend:
        raise RuntimeError("no device runtime is registered (import jaxtyped, not only jaxtyped._src)")
    return _backend[0]


@final
class ArrayImpl(Array):
    """A concrete array: an immutable NumPy buffer and its abstract value.

    Users get these from ``jaxtyped.numpy`` functions and from
    transformations; they never construct one directly.
    """

    __slots__ = ("_value", "_buffer", "_aval", "_sharding")

    _value: np.ndarray[Any, np.dtype[Any]] | None
    _buffer: DeviceBuffer | None
    _aval: ShapedArray
    # Set only for an array spanning several devices (issue 17); a
    # single-device array's sharding is made when asked for.
    _sharding: Sharding | None

    def __init__(self, value: np.ndarray[Any, np.dtype[Any]], aval: ShapedArray) -> None:
        # Trusted constructor: callers guarantee that ``value`` matches
        # ``aval`` and is not writable (see array_from_numpy for user data).
        self._value = value
        self._buffer = None
        self._aval = aval
        self._sharding = None

    @property
    def aval(self) -> ShapedArray:
        return self._aval

    # The metadata read straight from the slot (Array's read it through
    # ``aval``): eager code asks for them on every operation (issue 19).

    @property
    def shape(self) -> tuple[int, ...]:
        """The array's shape."""
        return self._aval.shape

    @property
    def dtype(self) -> np.dtype[Any]:
        """The array's dtype."""
        return self._aval.dtype

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self._aval.shape)

    @property
    def weak_type(self) -> bool:
        """Whether the value is weakly typed (came from a Python scalar)."""
        return self._aval.weak_type

    def _require_concrete(self, conversion: Conversion) -> np.ndarray[Any, np.dtype[Any]]:
        return host_buffer(self)

    def __array__(
        self, dtype: np.dtype[Any] | None = None, copy: bool | None = None
    ) -> np.ndarray[Any, np.dtype[Any]]:
        value = host_buffer(self)
        if dtype is not None and np.dtype(dtype) != value.dtype:
            if copy is False:
                raise ValueError("__array__: a dtype conversion requires a copy")
            return value.astype(dtype)
        return value.copy() if copy else value

    def block_until_ready(self) -> Self:
        """Wait until the computation producing this array has finished
        (dispatch is asynchronous); returns the array."""
        if self._value is None:
            _check_alive(self).block_until_ready()
        return self

    def is_ready(self) -> bool:
        """Whether the value has been computed (never blocks)."""
        if self._value is not None:
            return True
        buffer = _check_alive(self)
        is_ready: object = getattr(buffer, "is_ready", None)
        return bool(is_ready()) if callable(is_ready) else True

    def is_deleted(self) -> bool:
        """Whether the array was deleted or donated to a jitted function."""
        return self._value is None and (self._buffer is None or self._buffer.is_deleted())

    def delete(self) -> None:
        """Free the array's memory now; using it afterwards raises."""
        if self._buffer is not None:
            self._buffer.delete()
        self._value = None
        self._buffer = None

    def devices(self) -> set[Device]:
        """The devices holding this array (a new set each call, as JAX's)."""
        return set(device_backend().describe_devices(device_buffer(self)))

    @property
    def device(self) -> Device | Sharding:
        """The device holding this array, or its sharding when several
        devices hold it (the Array API's attribute, as JAX's)."""
        devices = device_backend().describe_devices(device_buffer(self))
        if len(devices) != 1:
            return self.sharding
        (only,) = devices
        return only

    # --- several devices (issue 17) ---

    @property
    def sharding(self) -> Sharding:
        """How the array is laid out over devices."""
        if self._sharding is not None:
            return self._sharding
        device = self.device
        assert isinstance(device, Device)
        return SingleDeviceSharding(device)

    @property
    def is_fully_replicated(self) -> bool:
        """Whether every device holding the array holds all of it."""
        return self._sharding is None or self._sharding.is_fully_replicated

    @property
    def addressable_shards(self) -> "list[Shard]":
        """Per device, its slice of the array (``data`` is a copy on the host)."""
        sharding = self.sharding
        value = host_buffer(self)
        indices = sharding.devices_indices_map(self._aval.shape)
        replicas = sharding.replica_ids(self._aval.shape)
        shards: list[Shard] = []
        for device, replica in zip(sharding.device_list, replicas, strict=True):
            piece = np.ascontiguousarray(value[indices[device]])
            piece.flags.writeable = False
            aval = ShapedArray(piece.shape, self._aval.dtype, self._aval.weak_type)
            shards.append(Shard(device, indices[device], replica, ArrayImpl(piece, aval)))
        return shards

    @property
    def is_fully_addressable(self) -> bool:
        """Whether this process holds every shard (always: jaxtyped's
        arrays hold only the shards of this process's devices)."""
        return True

    @property
    def global_shards(self) -> "list[Shard]":
        """Every shard of the array, on every device (here the addressable ones)."""
        return self.addressable_shards

    def addressable_data(self, index: int) -> Array:
        """The data of the ``index``-th addressable shard, as an array.

        Raises:
            JaxtypedIndexError: ``index`` is not a shard's.
        """
        shards = self.addressable_shards
        try:
            position = operator.index(index)
        except TypeError:
            raise JaxtypedTypeError(f"addressable_data: index must be an int, got {type(index).__name__}") from None
        if not -len(shards) <= position < len(shards):
            raise JaxtypedIndexError(f"addressable_data: index {position} out of range for {len(shards)} shard(s)")
        return shards[position].data

    # --- lax extras family: copies and device queries ---

    def clone(self) -> "ArrayImpl":
        """A new array object with the same value (JAX's ``Array.clone``;
        arrays are immutable, so the buffer is shared)."""
        return ArrayImpl(host_buffer(self), self._aval)

    def to_device(self, device: Device | Sharding, *, stream: None = None) -> "ArrayImpl":
        """The array on ``device``, or laid out over a sharding, as a new
        array object committed there (JAX's ``Array.to_device``)."""
        if not isinstance(device, (Device, Sharding)):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
            raise JaxtypedValueError(f"to_device: {device!r} is not a device or a sharding")
        placed = place(self, device)
        return placed if placed is not self else self.clone()

    def copy_to_host_async(self) -> None:
        """Start copying the value to the host (done at once here)."""
        host_buffer(self)

    def on_device_size_in_bytes(self) -> int:
        """The bytes the device buffer takes (size times itemsize)."""
        return self._aval.size * self._aval.dtype.itemsize

    def platform(self) -> str:
        """The platform of the array's device (``'cpu'``)."""
        return str(getattr(self.device, "platform", "cpu"))

    def unsafe_buffer_pointer(self) -> int:
        """The address of the device buffer (for tests of donation)."""
        pointer: object = getattr(device_buffer(self), "unsafe_buffer_pointer")()
        assert isinstance(pointer, int)
        return pointer

    def __repr__(self) -> str:
        value = host_buffer(self)
        body = np.array2string(value, separator=", ", prefix="Array(")
        weak = ", weak_type=True" if self._aval.weak_type else ""
        name = "float0" if dtypes.is_float0(value.dtype) else value.dtype.name
        shape = f", shape={value.shape}" if value.size == 0 else ""
        return f"Array({body}{shape}, dtype={name}{weak})"

    def __str__(self) -> str:
        return str(host_buffer(self))

    def __format__(self, format_spec: str) -> str:
        value = host_buffer(self)
        if value.ndim == 0:
            return format(value.item(), format_spec)
        if format_spec:
            raise JaxtypedTypeError(
                f"unsupported format string {format_spec!r} for an array of shape {value.shape}; "
                "only 0-d arrays take a format spec"
            )
        return str(self)

    def __reduce__(self) -> tuple[Any, ...]:
        return (_rebuild, (host_buffer(self), self._aval))

    def __copy__(self) -> Self:
        return self  # immutable

    def __deepcopy__(self, memo: dict[int, object]) -> Self:
        return self  # immutable


def host_buffer(x: ArrayImpl) -> np.ndarray[Any, np.dtype[Any]]:
    """The read-only NumPy buffer of a concrete array (for impl rules);
    copies a device-only array to the host once (see Note [two homes of a
    value])."""
    value = x._value
    if value is None:
        buffer = _check_alive(x)
        value = x._value = device_backend().to_host(buffer, x._aval)
    return value


def device_buffer(x: ArrayImpl) -> DeviceBuffer:
    """The device buffer of a concrete array; a host-only array is
    transferred once and the buffer cached."""
    buffer = x._buffer
    if buffer is None:
        value = x._value
        if value is None:
            raise _deleted_error(x)
        buffer, x._value = device_backend().to_device(value, x._aval)
        x._buffer = buffer
    return buffer


def array_from_device(buffer: DeviceBuffer, aval: ShapedArray) -> ArrayImpl:
    """A concrete array for a device buffer whose type the caller knows
    (a compiled program's output)."""
    array = ArrayImpl.__new__(ArrayImpl)
    array._value = None
    array._buffer = buffer
    array._aval = aval
    array._sharding = None
    return array


def array_from_sharded(buffer: DeviceBuffer, aval: ShapedArray, sharding: Sharding) -> ArrayImpl:
    """A concrete array for a buffer spanning ``sharding``'s devices.

    The layout is kept when it spans several devices, or one device other
    than the default: such an array is committed there, and computations
    on it run there (as JAX's do), through the paths for laid-out arrays.
    """
    array = array_from_device(buffer, aval)
    if sharding.num_devices > 1 or sharding.device_list[0] != device_backend().default_device():
        array._sharding = sharding
    return array


def with_weak_type(x: ArrayImpl, weak_type: bool) -> ArrayImpl:
    """``x``'s value (the same buffer, not a copy) typed with the given weak
    type; for a caller that owns ``x`` (no one else holds it)."""
    if x._aval.weak_type == weak_type:
        return x
    array = ArrayImpl.__new__(ArrayImpl)
    array._value = x._value
    array._buffer = x._buffer
    array._aval = x._aval.update(weak_type=weak_type)
    array._sharding = x._sharding
    return array


@final
class Shard:
    """One device's part of an array (JAX's ``Shard``)."""

    __slots__ = ("device", "index", "replica_id", "data")

    device: Device
    index: tuple[slice, ...]
    replica_id: int
    data: Array  # a concrete array on the host

    def __init__(self, device: Device, index: tuple[slice, ...], replica_id: int, data: ArrayImpl) -> None:
        self.device = device
        self.index = index
        self.replica_id = replica_id
        self.data = data

    def __repr__(self) -> str:
        return f"Shard(device={self.device!r}, index={self.index}, replica_id={self.replica_id}, data={self.data})"


def mark_donated(x: ArrayImpl) -> None:
    """Forget both homes of an array whose buffer a program consumed."""
    x._value = None
    x._buffer = None
    x._sharding = None


def _check_alive(x: ArrayImpl) -> DeviceBuffer:
    buffer = x._buffer
    if buffer is None or buffer.is_deleted():
        raise _deleted_error(x)
    return buffer


def _deleted_error(x: ArrayImpl) -> RuntimeError:
    return RuntimeError(
        f"Array has been deleted with shape={x._aval.str_short()}: it was donated to a jitted "
        "function (donate_argnums) or deleted with .delete(); use the function's result instead"
    )


def wrap_buffer(value: object, aval: ShapedArray, producer: str) -> ArrayImpl:
    """Wrap an impl rule's result, coercing it to the dtype ``aval`` says.

    NumPy sometimes returns another dtype than the rule's ``abstract_eval``
    (``np.sum`` of ``int32`` gives ``int64``); the aval is the source of
    truth. A shape disagreement is a bug in the rule and is reported.
    """
    array = np.asarray(value)
    if array.dtype != aval.dtype:
        # Rounding a float32 result to float16 may overflow to inf: that is
        # the answer (XLA gives the same), not a warning.
        with np.errstate(over="ignore", invalid="ignore"):
            array = array.astype(aval.dtype)
    if array.shape != aval.shape:
        raise AssertionError(
            f"internal error: impl of '{producer}' returned shape {array.shape}, "
            f"but its abstract_eval says {aval.str_short()}"
        )
    array.flags.writeable = False
    return ArrayImpl(array, aval)


def _rebuild(value: np.ndarray[Any, np.dtype[Any]], aval: ShapedArray) -> ArrayImpl:
    value.flags.writeable = False
    return ArrayImpl(value, aval)


_PYTHON_SCALARS: Final = (bool, int, float, complex)


def is_python_scalar(x: object) -> TypeIs[bool | int | float | complex]:
    """Whether ``x`` is a Python ``bool``, ``int``, ``float`` or ``complex``."""
    return type(x) in _PYTHON_SCALARS


def is_numpy_value(x: object) -> TypeIs[np.ndarray[Any, np.dtype[Any]] | np.generic]:
    """Whether ``x`` is a NumPy array or NumPy scalar."""
    return isinstance(x, (np.ndarray, np.generic))


def array_from_numpy(
    value: np.ndarray[Any, np.dtype[Any]] | np.generic, *, weak_type: bool = False, where: str = "asarray"
) -> ArrayImpl:
    """An array holding a private, read-only copy of ``value`` with its
    dtype canonicalised (64-bit types become 32-bit unless x64 is enabled).

    Raises:
        JaxtypedTypeError: the dtype is not supported (object, string, ...).
    """
    source = np.asarray(value)
    aval = numpy_aval(source, weak_type=weak_type, where=where)
    result = source.astype(aval.dtype) if aval.dtype != source.dtype else source.copy()
    result.flags.writeable = False
    return ArrayImpl(result, aval)


def numpy_aval(value: np.ndarray[Any, np.dtype[Any]], *, weak_type: bool = False, where: str = "asarray") -> ShapedArray:
    """The type of the array ``array_from_numpy`` makes of ``value``: its
    shape, its dtype canonicalised, ``weak_type``. Cached: a NumPy batch of
    the same shape every step finds the same aval object.

    Raises:
        JaxtypedTypeError: the dtype is not supported (object, string, ...).
    """
    key = (value.shape, value.dtype, weak_type, config.jax_enable_x64)
    aval = _HOST_AVALS.get(key)
    if aval is None:
        dtypes.check_supported(value.dtype, where)
        aval = _remember_host_aval(key, ShapedArray(value.shape, dtypes.canonicalize_dtype(value.dtype), weak_type))
    return aval


def array_from_scalar(x: bool | int | float | complex, *, where: str = "asarray") -> ArrayImpl:
    """A weakly typed 0-d array for a Python scalar (``bool`` is not weak).

    Raises:
        OverflowError: an ``int`` does not fit the default integer dtype.
    """
    kind = type(x)
    key = (kind, config.jax_enable_x64)
    aval = _HOST_AVALS.get(key)
    if aval is None:
        aval = ShapedArray((), dtypes.python_scalar_dtype(x), kind is not bool)
        if kind in _PYTHON_SCALARS:  # not a subclass: its dtype may differ
            _remember_host_aval(key, aval)
    if type(x) is int:
        lowest, highest = _INT_BOUNDS[aval.dtype]
        if not lowest <= x <= highest:
            raise JaxtypedOverflowError(
                f"{where}: Python int {x} is too large to convert to {aval.dtype.name}"
            )
    value = np.array(x, dtype=aval.dtype)
    value.flags.writeable = False
    return ArrayImpl(value, aval)


# The avals of arrays made from host values, by what determines them (the
# host value's shape, dtype and the x64 setting; a Python scalar's type):
# made once, since a ShapedArray costs more to build than to look up, and
# shared, so that jit's dispatch memo finds a new array's aval by identity.
# Bounded: a program that sees ever new shapes keeps only the latest.
_HOST_AVALS: Final[dict[object, ShapedArray]] = {}
_HOST_AVALS_SIZE: Final = 512
_INT_BOUNDS: Final = {np.dtype(t): (int(np.iinfo(t).min), int(np.iinfo(t).max)) for t in ("int32", "int64")}


def _remember_host_aval(key: object, aval: ShapedArray) -> ShapedArray:
    if len(_HOST_AVALS) >= _HOST_AVALS_SIZE:
        _HOST_AVALS.clear()
    _HOST_AVALS[key] = aval
    return aval


def to_array(x: object, where: str) -> Array:
    """Convert an ``ArrayLike`` to an ``Array`` (arrays are returned as is).

    Args:
        x: an Array, a NumPy array or scalar, or a Python scalar.
        where: the function and argument, for the error message
            (for example ``"lax.sin argument x"``).

    Raises:
        JaxtypedTypeError: ``x`` is not array-like (lists are rejected, as in
            ``jax.lax``; ``jaxtyped.numpy.asarray`` accepts them).
    """
    if type(x) is ArrayImpl or isinstance(x, Array):  # the first test skips the ABC check
        return x
    if is_python_scalar(x):
        return array_from_scalar(x, where=where)
    if is_numpy_value(x):
        return _numpy_constant(x, where)
    raise JaxtypedTypeError(
        f"{where}: expected an array or a scalar, got {type(x).__name__} {_short_repr(x)}"
    )


# While a function is traced, conversions of one NumPy array are shared, so
# that an array used twice becomes one constant of the jaxpr (as in JAX).
# Entries keep the NumPy array alive, so its id stays unique.
_NUMPY_CONSTANTS: ContextVar[dict[int, tuple[object, ArrayImpl]] | None] = ContextVar(
    "jaxtyped_numpy_constants", default=None
)


@contextmanager
def shared_numpy_constants() -> Generator[None, None, None]:
    """Share conversions of NumPy arrays (by identity) for the block."""
    token = _NUMPY_CONSTANTS.set({})
    try:
        yield
    finally:
        _NUMPY_CONSTANTS.reset(token)


def _numpy_constant(x: np.ndarray[Any, np.dtype[Any]] | np.generic, where: str) -> ArrayImpl:
    memo = _NUMPY_CONSTANTS.get()
    if memo is None or not isinstance(x, np.ndarray):
        return array_from_numpy(x, where=where)
    hit = memo.get(id(x))
    if hit is None:
        hit = memo[id(x)] = (x, array_from_numpy(x, where=where))
    return hit[1]


def _short_repr(x: object) -> str:
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."

