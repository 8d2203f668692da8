# The types of jaxlib's nanobind extension module that jaxtyped meets
# without importing them by name (results of the calls in xla_client.pyi).
# `NanobindType` is the metaclass of every nanobind class (nanobind.nb_type_0 at
# run time, which is not importable); the other stubs import it from here.
import enum
from collections.abc import Callable, Iterable, Sequence
from typing import Any, Protocol, type_check_only

import numpy as np
from typing_extensions import CapsuleType, Never, disjoint_base

from jaxlib.xla_client import ArrayImpl, DeviceList

@type_check_only
class NanobindType(type): ...

@disjoint_base
class ExecutableBuildOptions(metaclass=NanobindType):
    def __init__(self) -> None: ...
    use_spmd_partitioning: bool
    use_shardy_partitioner: bool

@disjoint_base
class ResultHandler(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)

@disjoint_base
class ExecuteResults(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)
    # Handlers made by array_result_handler (the only ones jaxtyped passes)
    # give arrays; jaxlib also accepts other handler objects.
    # A plain callable handler (host callbacks' token outputs) receives the
    # output's per-device arrays and its result is returned as is.
    def consume_with_handlers(
        self, out_handlers: Sequence[ResultHandler | Callable[[list[ArrayImpl]], ArrayImpl]], strict: bool = True
    ) -> list[ArrayImpl]: ...
    def consume_token(self) -> ShardedToken: ...

@disjoint_base
class ShardedToken(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)
    def block_until_ready(self) -> None: ...

# --- several processes (issue 17): the distributed runtime and CPU collectives ---

@disjoint_base
class DistributedRuntimeService(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)
    def shutdown(self) -> None: ...

@disjoint_base
class DistributedRuntimeClient(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)
    def connect(self) -> None: ...
    def shutdown(self) -> None: ...
    def wait_at_barrier(self, barrier_id: str, timeout_in_ms: int, process_ids: Sequence[int] | None = None) -> None: ...
    def key_value_set_bytes(self, key: str, value: bytes, allow_overwrite: bool = False) -> None: ...
    def blocking_key_value_get_bytes(self, key: str, timeout_in_ms: int) -> bytes: ...

@disjoint_base
class CpuCollectives(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)

@type_check_only
class _GetService(Protocol):
    def __call__(
        self,
        address: str,
        num_nodes: int,
        heartbeat_timeout: int | None = None,
        cluster_register_timeout: int | None = None,
        shutdown_timeout: int | None = None,
        recoverable: bool | None = None,
    ) -> DistributedRuntimeService: ...

@type_check_only
class _GetClient(Protocol):
    def __call__(
        self,
        address: str,
        node_id: int,
        rpc_timeout: int | None = None,
        init_timeout: int | None = None,
        shutdown_timeout: int | None = None,
        heartbeat_timeout: int | None = None,
        missed_heartbeat_callback: Callable[..., object] | None = None,
        shutdown_on_destruction: bool | None = None,
        use_compression: bool | None = None,
    ) -> DistributedRuntimeClient: ...

@type_check_only
class _MakeGloo(Protocol):
    def __call__(
        self, distributed_client: DistributedRuntimeClient, hostname: str | None = None, interface: str | None = None
    ) -> CpuCollectives: ...

get_distributed_runtime_service: _GetService
get_distributed_runtime_client: _GetClient
make_gloo_tcp_collectives: _MakeGloo

@disjoint_base
class DeviceAssignment(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)
    create: _CreateAssignment  # a nanobind static function

@type_check_only
class _CreateAssignment(Protocol):
    def __call__(self, arg: np.ndarray[Any, np.dtype[np.int32]], /) -> DeviceAssignment: ...

# The FFI and custom-call targets registered for a platform ("cpu"), by name
# (jaxtyped asks whether "dce_sink" exists: jaxlib 0.10 has it, 0.8.3 and 0.9.2 do not).
@type_check_only
class _CustomCallTargets(Protocol):
    def __call__(self, platform: str) -> dict[str, object]: ...

custom_call_targets: _CustomCallTargets  # a nanobind function

# --- reading the shards of a multi-device array without jax (issue 17) ---
# ArrayImpl._arrays imports jax; reorder_shards + DLPack export do not.

class ArrayCopySemantics(enum.IntEnum):
    ALWAYS_COPY = ...
    REUSE_INPUT = ...
    DONATE_INPUT = ...

@type_check_only
class _ReorderShards(Protocol):
    def __call__(self, x: ArrayImpl, dst_sharding: object, array_copy_semantics: ArrayCopySemantics) -> ArrayImpl: ...

@type_check_only
class _BufferToDLPack(Protocol):
    def __call__(self, buffer: object, stream: int | None = None) -> CapsuleType: ...

reorder_shards: _ReorderShards

@type_check_only
class _BatchedCopy(Protocol):
    def __call__(
        self,
        arrays: Sequence[ArrayImpl],
        devices: Sequence[DeviceList],
        shardings: Sequence[object],
        semantics: Sequence[ArrayCopySemantics],
        /,
    ) -> list[ArrayImpl]: ...

batched_copy_array_to_devices_with_sharding: _BatchedCopy  # a nanobind function: device-to-device copies
buffer_to_dlpack_managed_tensor: _BufferToDLPack

# --- jit's dispatch memo (issue 19): jaxlib's C++ flattening of builtin containers and registered node types ---

@type_check_only
class _CppTreeDef(Protocol):
    def __hash__(self) -> int: ...
    def __eq__(self, other: object, /) -> bool: ...
    def unflatten(self, leaves: Iterable[object], /) -> object: ...

@type_check_only
class _CppTreeRegistry(Protocol):
    def flatten(
        self, tree: object | None, leaf_predicate: Callable[[Any], bool] | None = None
    ) -> tuple[list[Any], _CppTreeDef]: ...
    def register_node(
        self,
        type: type[Any],
        to_iterable: Callable[[Any], tuple[Iterable[Any], Any]],
        from_iterable: Callable[[Any, Any], Any],
        to_iterable_with_keys: Callable[[Any], tuple[Iterable[tuple[Any, Any]], Any]] | None = None,
    ) -> object: ...
    def register_dataclass_node(self, type: type[Any], data_fields: list[str], meta_fields: list[str], /) -> object: ...

@type_check_only
class _NewCppTreeRegistry(Protocol):
    def __call__(
        self,
        enable_none: bool = True,
        enable_tuple: bool = True,
        enable_namedtuple: bool = True,
        enable_list: bool = True,
        enable_dict: bool = True,
    ) -> _CppTreeRegistry: ...

@type_check_only
class _CppTreeModule(Protocol):
    PyTreeRegistry: _NewCppTreeRegistry

pytree: _CppTreeModule  # a nanobind submodule
