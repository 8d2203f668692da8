"""SciPy-style functions (JAX's ``jax.scipy``): ``jt.scipy.special``,
``jt.scipy.stats`` (``jt.scipy.stats.norm``, ...) and ``jt.scipy.linalg``.

The submodules load on first attribute access (as JAX's do), so ``import
jaxtyped as jt`` then ``jt.scipy.stats.norm.logpdf(x)`` works without
paying their import time up front; ``import jaxtyped.scipy.special`` works
too."""

import importlib
from typing import TYPE_CHECKING

# No __all__: the package only groups its submodules (each has its own page).
_SUBMODULES = frozenset({"linalg", "special", "stats"})

if TYPE_CHECKING:
    # The redundant aliases mark them re-exported (there is no __all__).
    from jaxtyped.scipy import linalg as linalg
    from jaxtyped.scipy import special as special
    from jaxtyped.scipy import stats as stats
else:

    def __getattr__(name: str) -> object:
        if name in _SUBMODULES:
            return importlib.import_module(f"{__name__}.{name}")
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

    def __dir__() -> list[str]:
        return sorted({*globals(), *_SUBMODULES})
