from typing import Protocol, type_check_only

from jaxlib.mlir.ir import Context

@type_check_only
class _RegisterDialect(Protocol):
    def __call__(self, context: Context, load: bool = True) -> None: ...

register_dialect: _RegisterDialect  # a nanobind function
