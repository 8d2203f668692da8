"""User-defined derivative rules: ``custom_jvp`` and ``custom_vjp`` (layer L4).

Skeleton: being implemented.
"""

from typing import Any

__all__ = ["custom_jvp", "custom_vjp"]


class custom_jvp:  # noqa: N801  # JAX's name
    """Placeholder: not implemented yet."""

    def __init__(self, fun: Any, nondiff_argnums: tuple[int, ...] = ()) -> None:
        raise NotImplementedError("custom_jvp is being implemented")


class custom_vjp:  # noqa: N801  # JAX's name
    """Placeholder: not implemented yet."""

    def __init__(self, fun: Any, nondiff_argnums: tuple[int, ...] = ()) -> None:
        raise NotImplementedError("custom_vjp is being implemented")
