"""Utilities for programs running as several processes (JAX's
``jax.experimental.multihost_utils``): broadcasting and gathering host
values, checking that every process holds the same values, a named barrier,
and converting between per-process ("host-local") arrays and arrays that span
the devices of every process ("global" arrays).

In one process (no :func:`jaxtyped.distributed.initialize`) every function
works and does what JAX's does in one process: :func:`broadcast_one_to_all`
and :func:`process_allgather` return NumPy copies, :func:`assert_equal` and
:func:`sync_global_devices` compare a value with itself, and the two
conversions lay the input out on the mesh (the local mesh is the mesh).

Across processes the host values travel through the distributed runtime's
key-value store (:func:`jaxtyped.distributed.process_allgather`), not through
a device collective as in JAX; the results are the same. Reading a global
array that is sharded over other processes' devices gathers it with a jitted
identity that replicates it (so every process briefly holds all of it).

Differences from JAX:

* :func:`reached_preemption_sync_point`: jaxtyped's distributed runtime runs
  no preemption service; after ``initialize`` the function raises
  ``RuntimeError``, as JAX does when ``jax_enable_preemption_service`` is
  off. Without ``initialize`` it returns ``False``, as JAX's does.
* :class:`ProcessFailureError` is defined for ``except`` clauses; nothing in
  jaxtyped raises it (JAX's ``live_devices`` is not implemented).
* PRNG key arrays: the conversions convert them (as JAX's), and the
  host-value functions refuse them with
  :class:`jaxtyped.errors.JaxtypedTypeError` (a ``TypeError``, as JAX's).
* A mesh whose process-local devices are not a contiguous subcube raises
  :class:`jaxtyped.errors.JaxtypedValueError` (JAX's own error comes from
  its ``Mesh.local_mesh``).
* Under ``jit`` the conversions return their (traced) input, as JAX's do in
  one process; with a mesh over several processes they raise
  :class:`jaxtyped.errors.JaxtypedValueError` (convert outside ``jit``).
"""

import math
import zlib
from collections.abc import Hashable, Sequence
from typing import Any, TypeVar, overload

import numpy as np

from jaxtyped import distributed
from jaxtyped._src import dtypes
from jaxtyped._src.api_device import Device, device_put, process_count, process_index
from jaxtyped._src.api_jit import jit
from jaxtyped._src.api_misc import make_array_from_callback
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.interpreter import Tracer
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, TracerArrayConversionError
from jaxtyped._src.random.keys import KeyArray
from jaxtyped._src.sharding import Index, Mesh, NamedSharding, PartitionSpec
from jaxtyped._src.tree_util import broadcast_prefix, tree_all, tree_flatten, tree_map, tree_unflatten

__all__ = [
    "ProcessFailureError",
    "assert_equal",
    "broadcast_one_to_all",
    "global_array_to_host_local_array",
    "host_local_array_to_global_array",
    "process_allgather",
    "reached_preemption_sync_point",
    "sync_global_devices",
]

HostArray = np.ndarray[Any, np.dtype[Any]]
_A = TypeVar("_A", bound=ArrayLike)
_K = TypeVar("_K", bound=Hashable)
# Containers of arrays, which the conversions return with the same type.
_ArraySequenceT = TypeVar("_ArraySequenceT", bound=Sequence[Array])
_ArrayDictT = TypeVar("_ArrayDictT", bound=dict[Any, Array])


class ProcessFailureError(Exception):
    """One or more processes failed (JAX raises it from ``live_devices``,
    which jaxtyped does not have; defined so that code catching it runs).

    Attributes:
        failed_devices: the devices of the failed processes.
    """

    def __init__(self, failed_devices: set[Device]) -> None:
        self.failed_devices = failed_devices
        super().__init__(f"Devices failed: {failed_devices}")


# --------------------------------------------------------------- helpers


def _is_key_array(x: object) -> bool:
    """Key arrays are leaves for the host-value functions (NumPy cannot
    hold them: they raise there, as in JAX), not pytrees over their data."""
    return isinstance(x, KeyArray)


def _reject_tracer(leaf: object, where: str, argument: str) -> None:
    if isinstance(leaf, Tracer):
        raise TracerArrayConversionError(
            f"{where}: {argument} holds a traced array ({leaf!r}); {where} reads host values, so it cannot run "
            "under jit or another transformation: call it outside the transformed function"
        )


def _spans_other_processes(leaf: object) -> bool:
    """Whether ``leaf`` is a concrete array with shards on another process's devices."""
    if not isinstance(leaf, ArrayImpl):
        return False
    me = process_index()
    return any(d.process_index != me for d in leaf.sharding.device_list)


def _identity(x: Array) -> Array:
    return x


def _replicated_value(leaf: ArrayImpl) -> HostArray:
    """The whole value of an array sharded over several processes (a jitted
    identity that replicates it, then a read)."""
    sharding = leaf.sharding
    if not isinstance(sharding, NamedSharding):
        raise JaxtypedTypeError(f"reading a global array needs a NamedSharding, got {type(sharding).__name__}")
    replicated = NamedSharding(sharding.mesh, PartitionSpec())
    return np.asarray(jit(_identity, out_shardings=replicated)(leaf))


def _canonical(leaf: object) -> HostArray:
    """``leaf`` as a NumPy array of the dtype it has on a device (float64
    becomes float32 without x64), as JAX's cross-process paths give."""
    value = np.asarray(leaf)
    return value.astype(dtypes.canonicalize_dtype(value.dtype), copy=False)


def _gather_leaf(leaf: object, tiled: bool) -> HostArray:
    _reject_tracer(leaf, "process_allgather", "in_tree")
    if _spans_other_processes(leaf):
        assert isinstance(leaf, ArrayImpl)
        if not tiled:
            raise JaxtypedValueError(
                "process_allgather: gathering global arrays that span several processes only supports tiled=True"
            )
        return _replicated_value(leaf)
    if process_count() == 1:
        value = np.asarray(leaf)
        return value if tiled else np.expand_dims(value, 0)
    value = _canonical(leaf)
    # A scalar is stacked even when tiled (it has no axis to concatenate).
    return distributed.process_allgather(value, tiled=tiled and value.ndim > 0)


# ------------------------------------------------- gathering host values


@overload
def process_allgather(in_tree: ArrayLike, tiled: bool = False) -> HostArray: ...
@overload
def process_allgather(in_tree: list[_A], tiled: bool = False) -> list[HostArray]: ...
@overload
def process_allgather(in_tree: tuple[ArrayLike, ...], tiled: bool = False) -> tuple[HostArray, ...]: ...
@overload
def process_allgather(in_tree: dict[_K, _A], tiled: bool = False) -> dict[_K, HostArray]: ...
@overload
def process_allgather(in_tree: object, tiled: bool = False) -> object: ...
def process_allgather(in_tree: object, tiled: bool = False) -> object:
    """Every process's value of each leaf of ``in_tree``, on every process.

    Args:
        in_tree: a pytree of arrays (NumPy, Python scalars or ``Array``\\ s);
            each leaf must have the same shape on every process.
        tiled: concatenate the processes' values along axis 0 instead of
            stacking them along a new leading axis.

    Returns:
        The pytree of NumPy arrays: for a leaf held by this process, the
        processes' values stacked (or, with ``tiled``, concatenated; a scalar
        is always stacked when there are several processes); for a global
        array spanning several processes (``tiled=True`` only), its value.

    Raises:
        TracerArrayConversionError: a leaf is traced (under ``jit``).
        JaxtypedValueError: a global array with ``tiled=False``.
    """
    return tree_map(lambda leaf: _gather_leaf(leaf, tiled), in_tree, is_leaf=_is_key_array)


def _broadcast_leaf(leaf: object, is_source: bool) -> HostArray:
    _reject_tracer(leaf, "broadcast_one_to_all", "in_tree")
    value = _canonical(leaf)
    contribution = value if is_source else np.zeros_like(value)
    # The sources' values summed (the other processes contribute zeros).
    stacked = distributed.process_allgather(contribution)
    return np.asarray(np.sum(stacked, axis=0, dtype=value.dtype))


@overload
def broadcast_one_to_all(in_tree: ArrayLike, is_source: bool | None = None) -> HostArray: ...
@overload
def broadcast_one_to_all(in_tree: list[_A], is_source: bool | None = None) -> list[HostArray]: ...
@overload
def broadcast_one_to_all(in_tree: tuple[ArrayLike, ...], is_source: bool | None = None) -> tuple[HostArray, ...]: ...
@overload
def broadcast_one_to_all(in_tree: dict[_K, _A], is_source: bool | None = None) -> dict[_K, HostArray]: ...
@overload
def broadcast_one_to_all(in_tree: object, is_source: bool | None = None) -> object: ...
def broadcast_one_to_all(in_tree: object, is_source: bool | None = None) -> object:
    """The source process's value of each leaf of ``in_tree``, on every process.

    Args:
        in_tree: a pytree of arrays; each leaf must have the same shape on
            every process.
        is_source: whether this process is the source; ``None``: process 0
            is. (Several sources give the sum of their values, none gives
            zeros, as in JAX.)

    Returns:
        The pytree of NumPy arrays holding the source's values (in one
        process, NumPy copies of the leaves).

    Raises:
        TracerArrayConversionError: a leaf is traced (under ``jit``).
    """
    if process_count() == 1:

        def copy(leaf: object) -> HostArray:
            _reject_tracer(leaf, "broadcast_one_to_all", "in_tree")
            return np.asarray(leaf)

        return tree_map(copy, in_tree, is_leaf=_is_key_array)
    source = process_index() == 0 if is_source is None else bool(is_source)
    return tree_map(lambda leaf: _broadcast_leaf(leaf, source), in_tree, is_leaf=_is_key_array)


def assert_equal(in_tree: object, fail_message: str = "") -> None:
    """Check that every process holds the same values in ``in_tree``.

    Args:
        in_tree: a pytree of arrays with the same structure and shapes on
            every process.
        fail_message: put first in the error's message.

    Raises:
        AssertionError: a leaf differs between processes (NaNs never compare
            equal, as in JAX): ``"{fail_message}. Expected: ...; got: ..."``.
        TracerArrayConversionError: a leaf is traced (under ``jit``).
    """
    for leaf in tree_flatten(in_tree, _is_key_array)[0]:
        _reject_tracer(leaf, "assert_equal", "in_tree")
    gathered = process_allgather(in_tree, tiled=True)
    count = process_count()

    def expected(leaf: object) -> HostArray:
        if _spans_other_processes(leaf):
            assert isinstance(leaf, ArrayImpl)
            # As JAX: the first shard this process holds, against the whole value.
            me = process_index()
            first = next(d for d in leaf.sharding.device_list if d.process_index == me)
            return _replicated_value(leaf)[leaf.sharding.devices_indices_map(leaf.shape)[first]]
        value = np.asarray(leaf)
        if value.ndim == 0:
            value = np.expand_dims(value, 0)
        return np.concatenate([value] * count)

    wanted = tree_map(expected, in_tree, is_leaf=_is_key_array)
    same = tree_map(lambda want, got: bool(np.all(np.equal(want, got))), wanted, gathered)
    if not tree_all(same):
        raise AssertionError(f"{fail_message}. Expected: {gathered}; got: {in_tree}.")


def sync_global_devices(name: str) -> None:
    """Wait until every process has called ``sync_global_devices`` with
    this ``name`` (a barrier); in one process it returns at once.

    Raises:
        AssertionError: the processes passed different names.
    """
    digest = np.uint32(zlib.crc32(name.encode()))
    assert_equal(digest, f"sync_global_devices name mismatch ('{name}')")


def reached_preemption_sync_point(step_id: int) -> bool:
    """Whether every process has reached the step at which to save a
    checkpoint after a preemption notice.

    Without :func:`jaxtyped.distributed.initialize` there is no preemption
    to wait for: returns ``False`` (as JAX).

    Raises:
        RuntimeError: after ``initialize``: jaxtyped's distributed runtime
            runs no preemption sync manager (JAX raises the same when its
            ``jax_enable_preemption_service`` is off).
    """
    del step_id
    if not distributed.is_initialized():
        return False
    raise RuntimeError(
        "reached_preemption_sync_point: the preemption sync manager has not been initialized: "
        "jaxtyped.distributed runs no preemption service"
    )


# -------------------------------------- host-local <-> global conversions


def _local_mesh(mesh: Mesh, where: str) -> Mesh:
    """The sub-mesh of this process's devices, which must form a subcube of ``mesh``."""
    me = process_index()
    devices = mesh.devices
    mine = np.array([d.process_index == me for d in mesh.device_list], dtype=np.bool_).reshape(devices.shape)
    positions = np.nonzero(mine)
    if len(positions[0]) == 0:
        raise JaxtypedValueError(f"{where}: global_mesh has none of this process's devices")
    cube = tuple(slice(int(p.min()), int(p.max()) + 1) for p in positions)
    if not mine[cube].all():
        raise JaxtypedValueError(
            f"{where}: the devices of each process must form a contiguous subcube of global_mesh"
        )
    if mine.all():
        return mesh
    return Mesh(devices[cube], mesh.axis_names, mesh.axis_types)


def _factors(mesh: Mesh, local: Mesh, pspec: PartitionSpec, ndim: int, where: str) -> list[int]:
    """Per array dimension, how many processes' parts it is split into."""
    if len(pspec) > ndim:
        raise JaxtypedValueError(f"{where}: pspec {pspec} has more entries than the array has dimensions ({ndim})")
    factors = [1] * ndim
    for i, entry in enumerate(pspec):
        axes = () if entry is None else (entry,) if isinstance(entry, str) else tuple(entry)
        factors[i] = math.prod(mesh.shape[a] // local.shape[a] for a in axes)
    return factors


def _key(index: Index) -> tuple[tuple[int | None, int | None], ...]:
    return tuple((s.start, s.stop) for s in index)


def _check_pspec(pspec: object, where: str) -> PartitionSpec:
    if pspec is None:
        raise JaxtypedValueError(
            f"{where}: `None` is not a valid input to the pspecs argument. Please use "
            "jaxtyped.sharding.PartitionSpec() if you wanted to replicate your input."
        )
    if not isinstance(pspec, PartitionSpec):
        raise JaxtypedTypeError(f"{where}: pspecs leaves must be PartitionSpecs, got {type(pspec).__name__}")
    return pspec


def _flat_pspecs(pspecs: object, flat_len: int, tree: object, where: str, argument: str) -> list[Any]:
    leaves = broadcast_prefix(
        pspecs,
        tree,
        lambda x: isinstance(x, PartitionSpec),
        what=where,
        prefix_name="pspecs",
        full_name=argument,
    )
    assert len(leaves) == flat_len
    return leaves


def _to_global(leaf: object, mesh: Mesh, pspec_leaf: object) -> object:
    where = "host_local_array_to_global_array"
    pspec = _check_pspec(pspec_leaf, where)
    if _spans_other_processes(leaf):
        return leaf  # already global
    local = _local_mesh(mesh, where)
    if isinstance(leaf, Tracer):
        if local is not mesh:
            raise JaxtypedValueError(
                f"{where}: local_inputs holds a traced array and global_mesh spans several processes; "
                "convert outside jit"
            )
        return leaf  # as JAX's lowering: the identity
    value = np.asarray(leaf)
    if dtypes.is_float0(value.dtype):
        value = np.zeros(value.shape, np.bool_)
    value = _canonical(value)
    global_sharding = NamedSharding(mesh, pspec)
    if local is mesh:
        placed: Array = device_put(value, global_sharding)
        return placed
    local_sharding = NamedSharding(local, pspec)
    local_indices = local_sharding.devices_indices_map(value.shape)
    factors = _factors(mesh, local, pspec, value.ndim, where)
    global_shape = tuple(n * f for n, f in zip(value.shape, factors))
    global_indices = global_sharding.devices_indices_map(global_shape)
    pieces = {_key(global_indices[d]): value[index] for d, index in local_indices.items()}
    piece_shape = next(iter(pieces.values())).shape

    def piece(index: Index) -> HostArray:
        # Other processes' pieces are theirs to place: zeros stand in for them here.
        return pieces.get(_key(index), np.zeros(piece_shape, value.dtype))

    return make_array_from_callback(global_shape, global_sharding, piece)


def _to_local(leaf: object, mesh: Mesh, pspec_leaf: object) -> object:
    where = "global_array_to_host_local_array"
    pspec = _check_pspec(pspec_leaf, where)
    local = _local_mesh(mesh, where)
    if isinstance(leaf, Tracer):
        if local is not mesh:
            raise JaxtypedValueError(
                f"{where}: global_inputs holds a traced array and global_mesh spans several processes; "
                "convert outside jit"
            )
        return leaf  # as JAX's lowering: the identity
    if isinstance(leaf, ArrayImpl) and not _spans_other_processes(leaf):
        return leaf  # already host-local
    if isinstance(leaf, ArrayImpl):
        value = _replicated_value(leaf)
    else:
        value = np.asarray(leaf)
        if dtypes.is_float0(value.dtype):
            value = np.zeros(value.shape, np.bool_)
        value = _canonical(value)
    if local is mesh:
        placed: Array = device_put(value, NamedSharding(mesh, pspec))
        return placed
    global_indices = NamedSharding(mesh, pspec).devices_indices_map(value.shape)
    factors = _factors(mesh, local, pspec, value.ndim, where)
    for n, f in zip(value.shape, factors):
        if n % f:
            raise JaxtypedValueError(f"{where}: a dimension of size {n} does not split into {f} processes' parts")
    local_shape = tuple(n // f for n, f in zip(value.shape, factors))
    local_sharding = NamedSharding(local, pspec)
    local_indices = local_sharding.devices_indices_map(local_shape)
    pieces = {_key(local_indices[d]): value[global_indices[d]] for d in local_indices}
    return make_array_from_callback(local_shape, local_sharding, lambda index: pieces[_key(index)])


@overload
def host_local_array_to_global_array(local_inputs: ArrayLike, global_mesh: Mesh, pspecs: object) -> Array: ...
@overload
def host_local_array_to_global_array(
    local_inputs: _ArraySequenceT, global_mesh: Mesh, pspecs: object
) -> _ArraySequenceT: ...
@overload
def host_local_array_to_global_array(local_inputs: _ArrayDictT, global_mesh: Mesh, pspecs: object) -> _ArrayDictT: ...
@overload
def host_local_array_to_global_array(local_inputs: object, global_mesh: Mesh, pspecs: object) -> object: ...
def host_local_array_to_global_array(local_inputs: object, global_mesh: Mesh, pspecs: object) -> object:
    """Global arrays over ``global_mesh`` from each process's part of them.

    Each leaf of ``local_inputs`` is this process's part: it is laid out
    over this process's devices as its ``PartitionSpec`` says, and the
    array dimensions split over mesh axes that span processes grow by the
    number of processes along them (``P("x")`` over a mesh whose ``"x"``
    axis spans 2 processes turns each process's ``(4,)`` into one ``(8,)``,
    process 0's values first). A global array spanning several processes
    is returned as it is.

    Args:
        local_inputs: a pytree of host-local arrays.
        global_mesh: the mesh over every process's devices; each process's
            devices must form a contiguous subcube of it.
        pspecs: a ``PartitionSpec`` per leaf, or a tree prefix of
            ``local_inputs`` (a tuple of them for a tuple of inputs).

    Returns:
        The pytree of global ``Array``\\ s (``NamedSharding(global_mesh, pspec)``).

    Raises:
        JaxtypedValueError: a ``None`` pspec, pspecs that are not a tree
            prefix of ``local_inputs``, a mesh whose processes' devices are
            not subcubes, a shape the mesh does not divide, or a traced
            input with a mesh over several processes.
    """
    leaves, treedef = tree_flatten(local_inputs)
    specs = _flat_pspecs(pspecs, len(leaves), local_inputs, "host_local_array_to_global_array", "local_inputs")
    return tree_unflatten(treedef, [_to_global(x, global_mesh, s) for x, s in zip(leaves, specs, strict=True)])


@overload
def global_array_to_host_local_array(global_inputs: ArrayLike, global_mesh: Mesh, pspecs: object) -> Array: ...
@overload
def global_array_to_host_local_array(
    global_inputs: _ArraySequenceT, global_mesh: Mesh, pspecs: object
) -> _ArraySequenceT: ...
@overload
def global_array_to_host_local_array(global_inputs: _ArrayDictT, global_mesh: Mesh, pspecs: object) -> _ArrayDictT: ...
@overload
def global_array_to_host_local_array(global_inputs: object, global_mesh: Mesh, pspecs: object) -> object: ...
def global_array_to_host_local_array(global_inputs: object, global_mesh: Mesh, pspecs: object) -> object:
    """This process's parts of global arrays over ``global_mesh`` (the
    inverse of :func:`host_local_array_to_global_array`).

    An array held only by this process's devices is returned as it is; a
    NumPy leaf is taken as the global value.

    Args:
        global_inputs: a pytree of global arrays.
        global_mesh: the mesh over every process's devices; each process's
            devices must form a contiguous subcube of it.
        pspecs: a ``PartitionSpec`` per leaf, or a tree prefix of
            ``global_inputs``.

    Returns:
        The pytree of host-local ``Array``\\ s, laid out over this process's
        devices (``NamedSharding(local_mesh, pspec)``).

    Raises:
        JaxtypedValueError: as :func:`host_local_array_to_global_array`.
    """
    leaves, treedef = tree_flatten(global_inputs)
    specs = _flat_pspecs(pspecs, len(leaves), global_inputs, "global_array_to_host_local_array", "global_inputs")
    return tree_unflatten(treedef, [_to_local(x, global_mesh, s) for x, s in zip(leaves, specs, strict=True)])
