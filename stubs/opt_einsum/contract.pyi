from typing import Any

# The part of opt_einsum jaxtyped.numpy.einsum calls (opt_einsum 3.4 has
# annotations but no py.typed marker). ``einsum_call=True`` (a keyword
# opt_einsum reads from ``**kwargs``) makes the result (operands,
# contraction list) instead of (path, PathInfo), so the result is typed
# loosely here and narrowed by the caller.
def contract_path(
    subscripts: Any,
    *operands: Any,
    use_blas: bool = True,
    optimize: Any = True,
    memory_limit: int | str | None = None,
    shapes: bool = False,
    **kwargs: Any,
) -> tuple[Any, Any]: ...
