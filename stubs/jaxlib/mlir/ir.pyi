from collections.abc import Sequence
from types import TracebackType
from typing import ClassVar, Protocol, type_check_only

from typing_extensions import Never, disjoint_base

from jaxlib._jax import NanobindType

@disjoint_base
class DialectRegistry(metaclass=NanobindType):
    def __init__(self) -> None: ...

# Opaque: jaxtyped never passes one.
@type_check_only
class _ThreadPool: ...

# jaxlib.mlir.ir.Context is a Python subclass of the nanobind class, whose
# __init__ passes *args and **kwargs on to a constructor that takes none.
class Context(metaclass=NanobindType):
    def __init__(
        self,
        load_on_create_dialects: Sequence[str] | None = None,
        thread_pool: _ThreadPool | None = None,
        *args: Never,
        **kwargs: Never,
    ) -> None: ...
    def append_dialect_registry(self, registry: DialectRegistry) -> None: ...
    def load_all_available_dialects(self) -> None: ...
    def __enter__(self) -> Context: ...
    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None) -> None: ...

@type_check_only
class _Parse(Protocol):
    def __call__(self, asm: str | bytes, context: Context | None = None) -> Module: ...

@disjoint_base
class Module(metaclass=NanobindType):
    def __init__(self, *args: Never, **kwargs: Never) -> None: ...  # no constructor (TypeError at run time)
    parse: ClassVar[_Parse]  # a nanobind static function
