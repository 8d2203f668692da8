import enum
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Protocol, final, type_check_only

from typing_extensions import Never, disjoint_base

import numpy as np
from jaxlib._hlo import HloModule
from jaxlib._jax import ExecutableBuildOptions, ExecuteResults, NanobindType, ResultHandler
from jaxlib.mlir.ir import Module

_version: int

# Nanobind classes without a constructor declare `__init__(*args: Never,
# **kwargs: Never)`: calling one raises TypeError at run time. Nanobind
# functions are not Python functions, so module-level ones are declared as
# values of a callable protocol type (what they are at run time).

@type_check_only
class _Aval(Protocol):
    @property
    def shape(self) -> tuple[int, ...]: ...
    @property
    def dtype(self) -> np.dtype[Any]: ...
    @property
    def weak_type(self) -> bool: ...

# Opaque objects of the parts of the client API jaxtyped does not use.
@type_check_only
class _DistributedRuntimeClient: ...

@type_check_only
class _CpuCollectives: ...

@type_check_only
class _TransferServerFactory: ...

@disjoint_base
class Device(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...
    @property
    def id(self) -> int: ...
    @property
    def platform(self) -> str: ...
    @property
    def device_kind(self) -> str: ...
    @property
    def process_index(self) -> int: ...
    @property
    def local_hardware_id(self) -> int | None: ...

@disjoint_base
class DeviceList(metaclass=NanobindType):
    def __init__(self, arg: tuple[Device, ...], /) -> None: ...
    def __iter__(self) -> Iterator[Device]: ...
    def __len__(self) -> int: ...

@type_check_only
class _Replicate(Protocol):
    def __call__(self) -> HloSharding: ...

@disjoint_base
class HloSharding(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...
    replicate: _Replicate  # a nanobind static function

@disjoint_base
class GSPMDSharding(metaclass=NanobindType):
    def __init__(self, devices: DeviceList, op_sharding: HloSharding) -> None: ...
    @property
    def _internal_device_list(self) -> DeviceList: ...

class HostBufferSemantics(enum.Enum):
    IMMUTABLE_ONLY_DURING_CALL = ...
    IMMUTABLE_UNTIL_TRANSFER_COMPLETES = ...
    ZERO_COPY = ...

@final
class ArrayImpl:
    aval: Any
    @property
    def _sharding(self) -> GSPMDSharding: ...
    def block_until_ready(self) -> ArrayImpl: ...
    def is_ready(self) -> bool: ...
    def is_deleted(self) -> bool: ...
    def delete(self) -> None: ...
    def unsafe_buffer_pointer(self) -> int: ...
    def _single_device_array_to_np_array_did_copy(self) -> tuple[np.ndarray[Any, np.dtype[Any]], bool]: ...

@disjoint_base
class LoadedExecutable(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...
    def execute_sharded(
        self, arguments: Sequence[ArrayImpl], with_tokens: bool = False, launch_id: int | None = None
    ) -> ExecuteResults: ...
    def hlo_modules(self) -> list[HloModule]: ...
    def cost_analysis(self) -> dict[str, str | bool | int | list[int] | float]: ...

@disjoint_base
class CompileOptions(metaclass=NanobindType):
    def __init__(self) -> None: ...
    num_replicas: int
    num_partitions: int
    @property
    def executable_build_options(self) -> ExecutableBuildOptions: ...
    def SerializeAsString(self) -> bytes: ...

@disjoint_base
class Client(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...
    @property
    def platform(self) -> str: ...
    @property
    def platform_version(self) -> str: ...
    def local_devices(self) -> list[Device]: ...
    def devices(self) -> list[Device]: ...
    def compile_and_load(
        self,
        computation: bytes | str | Module,
        executable_devices: DeviceList | Sequence[Device],
        compile_options: CompileOptions = ...,
        host_callbacks: Sequence[Callable[..., Any]] = ...,
    ) -> LoadedExecutable: ...

def register_custom_call_target(
    name: str, fn: Any, platform: str = "cpu", api_version: int = 0, traits: Any = ...
) -> None: ...

def make_cpu_client(
    asynchronous: bool = True,
    distributed_client: _DistributedRuntimeClient | None = None,
    node_id: int = 0,
    num_nodes: int = 1,
    collectives: _CpuCollectives | None = None,
    num_devices: int | None = None,
    get_local_topology_timeout_minutes: int | None = None,
    get_global_topology_timeout_minutes: int | None = None,
    transfer_server_factory: _TransferServerFactory | None = None,
) -> Client: ...

@type_check_only
class _BatchedDevicePut(Protocol):
    def __call__(
        self,
        aval: _Aval,
        sharding: GSPMDSharding,
        xs: Sequence[object],
        devices: Sequence[Device],
        committed: bool = True,
        force_copy: bool = False,
        host_buffer_semantics: HostBufferSemantics = ...,
        enable_x64: bool | None = None,
    ) -> ArrayImpl: ...

@type_check_only
class _ArrayResultHandler(Protocol):
    def __call__(self, aval: _Aval, sharding: GSPMDSharding, committed: bool, _skip_checks: bool = False) -> ResultHandler: ...

batched_device_put: _BatchedDevicePut
array_result_handler: _ArrayResultHandler
