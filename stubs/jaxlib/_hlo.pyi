# The part of jaxlib's HLO extension module jaxtyped meets: the modules a
# LoadedExecutable reports (jaxlib.xla_client.LoadedExecutable.hlo_modules).
from typing_extensions import Never, disjoint_base

from jaxlib._jax import NanobindType

@disjoint_base
class HloModule(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)
    def to_string(self) -> str: ...

# Sharding of a compiled program's output (LoadedExecutable.get_output_shardings).
@disjoint_base
class OpSharding(metaclass=NanobindType):
    def __init__(self) -> None: ...
    def ParseFromString(self, arg: bytes, /) -> None: ...
    def SerializeToString(self) -> bytes: ...
