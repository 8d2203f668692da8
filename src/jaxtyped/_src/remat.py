"""``checkpoint`` (``remat``) with rematerialization policies (layer L4).

Skeleton: being implemented.
"""

from typing import Any

__all__ = ["checkpoint", "remat", "checkpoint_name"]


def checkpoint(fun: Any, *, prevent_cse: bool = True, policy: Any = None, static_argnums: Any = ()) -> Any:
    """Placeholder: not implemented yet."""
    raise NotImplementedError("checkpoint is being implemented")


remat = checkpoint


def checkpoint_name(x: Any, name: str) -> Any:
    """Placeholder: not implemented yet."""
    raise NotImplementedError("checkpoint_name is being implemented")
