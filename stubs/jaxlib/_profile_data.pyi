# jaxlib's reader of recorded profiles (XSpace protobufs): planes, lines,
# events. Written against jaxlib 0.10.2.

from collections.abc import Iterator
from typing import ClassVar, Protocol, type_check_only

from typing_extensions import Never, disjoint_base

from jaxlib._jax import NanobindType

@disjoint_base
class ProfileEvent(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def start_ns(self) -> float: ...
    @property
    def duration_ns(self) -> float: ...
    @property
    def end_ns(self) -> float: ...

@disjoint_base
class ProfileLine(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def events(self) -> Iterator[ProfileEvent]: ...

@disjoint_base
class ProfilePlane(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...
    @property
    def name(self) -> str: ...
    @property
    def lines(self) -> Iterator[ProfileLine]: ...

@type_check_only
class _FromFile(Protocol):
    def __call__(self, proto_file_path: str) -> ProfileData: ...

@type_check_only
class _FromSerializedXSpace(Protocol):
    def __call__(self, serialized_xspace: bytes) -> ProfileData: ...

@disjoint_base
class ProfileData(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...
    from_file: ClassVar[_FromFile]  # a nanobind static function
    from_serialized_xspace: ClassVar[_FromSerializedXSpace]  # a nanobind static function
    @property
    def planes(self) -> Iterator[ProfilePlane]: ...
    def find_plane_with_name(self, name: str) -> ProfilePlane | None: ...
