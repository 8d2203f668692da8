"""Identity functions that give lambdas ``Any``-typed parameters.

Under pyright strict a lambda passed where nothing types its parameters
has unknown parameters (``reportUnknownLambdaType``). Tests that write
their programs as lambdas wrap them: ``fn1(lambda x: x * 2)`` has
parameters of type ``Any`` and returns the lambda unchanged.
"""

from collections.abc import Callable
from typing import Any

__all__ = ["F0", "F1", "F2", "F3", "fn0", "fn1", "fn2", "fn3"]

F0 = Callable[[], Any]
F1 = Callable[[Any], Any]
F2 = Callable[[Any, Any], Any]
F3 = Callable[[Any, Any, Any], Any]


def fn0(f: F0) -> F0:
    """``f``, typed as a function of no arguments."""
    return f


def fn1(f: F1) -> F1:
    """``f``, its parameter typed ``Any``."""
    return f


def fn2(f: F2) -> F2:
    """``f``, its two parameters typed ``Any``."""
    return f


def fn3(f: F3) -> F3:
    """``f``, its three parameters typed ``Any``."""
    return f
