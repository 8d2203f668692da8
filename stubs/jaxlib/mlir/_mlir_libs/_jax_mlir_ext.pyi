from typing import Protocol, type_check_only

from jaxlib.mlir.ir import DialectRegistry

@type_check_only
class _RegisterDialects(Protocol):
    def __call__(self, arg: DialectRegistry, /) -> None: ...

register_dialects: _RegisterDialects  # a nanobind function
