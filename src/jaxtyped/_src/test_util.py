"""Testing helpers (layer L5): ``check_grads``.

Skeleton: being implemented.
"""

from typing import Any

__all__ = ["check_grads"]


def check_grads(fun: Any, args: Any, order: int, modes: Any = ("fwd", "rev")) -> None:
    """Placeholder: not implemented yet."""
    raise NotImplementedError("check_grads is being implemented")
