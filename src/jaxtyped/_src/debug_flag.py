"""Whether debug mode is on (layer L0): ``JAXTYPED_DEBUG``, read once.

The package reads the variable before importing any submodule (the beartype
import hook only affects modules imported after it), so setting it later in
the process has no effect.
"""

import os
from collections.abc import Mapping

__all__ = ["DEBUG", "read_debug_flag"]

_TRUE = frozenset({"1", "true"})
_FALSE = frozenset({"", "0", "false"})


def read_debug_flag(environ: Mapping[str, str]) -> bool:
    """The value of ``JAXTYPED_DEBUG`` in ``environ`` (unset means off).

    Raises:
        ValueError: the value is not one of 0, 1, false, true (any case).
    """
    value = environ.get("JAXTYPED_DEBUG", "0").strip().lower()
    if value not in _TRUE | _FALSE:
        raise ValueError(f"JAXTYPED_DEBUG must be 0, 1, false or true; got {value!r}")
    return value in _TRUE


DEBUG: bool = read_debug_flag(os.environ)
