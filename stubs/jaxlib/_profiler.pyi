# jaxlib's profiler (used by src/jaxtyped/_src/runtime/profiler.py):
# sessions that record an XSpace, TraceMe spans, the profile server and the
# session metadata. Written against jaxlib 0.10.2.

from collections.abc import Callable
from types import TracebackType
from typing import Protocol, type_check_only

from typing_extensions import Never, Self, disjoint_base

from jaxlib._jax import NanobindType

@disjoint_base
class ProfileOptions(metaclass=NanobindType):
    def __init__(self) -> None: ...
    @property
    def host_tracer_level(self) -> int: ...
    @host_tracer_level.setter
    def host_tracer_level(self, value: int, /) -> None: ...
    @property
    def python_tracer_level(self) -> int: ...
    @python_tracer_level.setter
    def python_tracer_level(self, value: int, /) -> None: ...

@disjoint_base
class ProfilerSession(metaclass=NanobindType):
    def __init__(self, arg: ProfileOptions = ..., /) -> None: ...
    def stop(self) -> bytes: ...
    def stop_and_export(self, arg: str, /) -> None: ...

@disjoint_base
class ProfilerServer(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...

@disjoint_base
class TraceMe(metaclass=NanobindType):
    def __init__(self, arg0: str, /, **kwargs: object) -> None: ...
    def __enter__(self) -> Self: ...
    def __exit__(
        self, exc_type: type[BaseException] | None, exc_value: BaseException | None, traceback: TracebackType | None, /
    ) -> None: ...

@type_check_only
class _StartServer(Protocol):
    def __call__(self, port: int) -> ProfilerServer: ...

@type_check_only
class _SetMetadata(Protocol):
    def __call__(self, key: str, value: str) -> None: ...

@type_check_only
class _ClearMetadata(Protocol):
    def __call__(self) -> None: ...

@type_check_only
class _RegisterSubprocess(Protocol):
    def __call__(self, pid: int, port: int) -> Callable[[], None]: ...

start_server: _StartServer
register_subprocess: _RegisterSubprocess
set_metadata: _SetMetadata
clear_metadata: _ClearMetadata
