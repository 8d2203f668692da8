"""The stages of a jitted function (JAX's ``jax.stages``): ``jit(f)`` is a
:class:`Wrapped`; ``.trace(...)`` gives a :class:`Traced`, ``.lower()`` a
:class:`Lowered`, ``.compile()`` a :class:`Compiled`. Import these names to
annotate your own code."""

from typing_extensions import ParamSpec, TypeAlias, TypeVar

from jaxtyped._src.api_jit import CacheInfo, Compiled, Jitted, Lowered, Traced

_P = ParamSpec("_P")
_R = TypeVar("_R")

Wrapped: TypeAlias = Jitted[_P, _R]
"""JAX's name for what ``jit`` returns."""

__all__ = ["CacheInfo", "Compiled", "Jitted", "Lowered", "Traced", "Wrapped"]
