"""Compare a function's parameters with its JAX counterpart's.

JAX code passes many arguments by keyword (``lax.reshape(operand=x, ...)``,
``jax.devices(backend="cpu")``) and some by position. A port changes only
its imports, so each such call must bind the same way with ours: every
parameter JAX takes by keyword ours takes by keyword, and the parameters
JAX takes by position come in JAX's order.
"""

import inspect
from collections.abc import Callable, Iterable

__all__ = ["missing_keywords", "misplaced_positionals"]

_KEYWORD_KINDS = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
_POSITIONAL_KINDS = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)


def missing_keywords(ours: Callable[..., object], theirs: Callable[..., object], out_of_scope: Iterable[str] = ()) -> list[str]:
    """JAX's keyword-capable parameters that ``ours`` cannot take by keyword
    (private ``_names`` and ``out_of_scope`` ones aside)."""
    ours_params = inspect.signature(ours).parameters.values()
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in ours_params):
        return []  # **kwargs takes any keyword
    have = {p.name for p in ours_params if p.kind in _KEYWORD_KINDS}
    want = {
        p.name
        for p in inspect.signature(theirs).parameters.values()
        if p.kind in _KEYWORD_KINDS and not p.name.startswith("_")
    }
    return sorted(want - have - set(out_of_scope))


def misplaced_positionals(ours: Callable[..., object], theirs: Callable[..., object], out_of_scope: Iterable[str] = ()) -> list[str]:
    """``"i: theirs/ours"`` for each position where JAX binds a named
    parameter (one a caller may pass by keyword) and ours binds another, or
    none (unless that parameter is private or ``out_of_scope``).
    Positional-only parameters match whatever their names."""
    skipped = set(out_of_scope)
    all_params = list(inspect.signature(ours).parameters.values())
    open_ended = any(p.kind is inspect.Parameter.VAR_POSITIONAL for p in all_params)  # *args takes any position
    ours_params = [p for p in all_params if p.kind in _POSITIONAL_KINDS]
    theirs_params = [p for p in inspect.signature(theirs).parameters.values() if p.kind in _POSITIONAL_KINDS]
    found: list[str] = []
    for i, theirs_param in enumerate(theirs_params):
        if i >= len(ours_params):
            if not open_ended and not theirs_param.name.startswith("_") and theirs_param.name not in skipped:
                found.append(f"{i}: {theirs_param.name}/-")
            continue
        ours_param = ours_params[i]
        either_positional_only = inspect.Parameter.POSITIONAL_ONLY in (ours_param.kind, theirs_param.kind)
        if ours_param.name != theirs_param.name and not either_positional_only:
            found.append(f"{i}: {theirs_param.name}/{ours_param.name}")
    return found
