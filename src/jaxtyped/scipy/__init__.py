"""SciPy-style functions (JAX's ``jax.scipy``): ``jt.scipy.special``,
``jt.scipy.stats`` (``jt.scipy.stats.norm``, ...) and ``jt.scipy.linalg``.

The submodules load on first attribute access (as JAX's do), so ``import
jaxtyped as jt`` then ``jt.scipy.stats.norm.logpdf(x)`` works without
paying their import time up front; ``import jaxtyped.scipy.special`` works
too."""

import importlib
from typing import TYPE_CHECKING

__all__ = ["linalg", "special", "stats"]

if TYPE_CHECKING:
    from jaxtyped.scipy import linalg, special, stats
else:

    def __getattr__(name: str) -> object:
        if name in __all__:
            return importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*globals(), *__all__})
