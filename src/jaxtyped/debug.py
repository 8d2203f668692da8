"""Printing and callbacks from traced code (JAX's ``jax.debug``).

``jaxtyped.debug.print(fmt, *args, ordered=False, **kwargs)`` prints with
``str.format`` when the values exist (eagerly, or while a compiled program
runs), and ``jaxtyped.debug.log`` logs the same text through Python's
``logging``; ``jaxtyped.debug.callback(f, *args, ordered=False)`` calls ``f`` for
its side effect; ``jaxtyped.debug.breakpoint()`` stops in an interactive
debugger (the ``jdb`` prompt) with the values of the traced locals. Call
``jaxtyped.effects_barrier()`` to wait until every effect of the
computations dispatched so far has happened.

``jaxtyped.debug.visualize_array_sharding(x)`` prints which devices hold
which block of ``x`` (``visualize_sharding(shape, sharding)`` for any
sharding; ``inspect_array_sharding(x, callback=f)`` passes the sharding to
``f``), also under ``jit``, where the layout is the partitioner's.
"""

from jaxtyped._src.debugger import breakpoint  # noqa: A004 - JAX's name
from jaxtyped._src.debugging import DebugPrinter
from jaxtyped._src.debugging import debug_callback as callback
from jaxtyped._src.debugging import debug_log as log
from jaxtyped._src.debugging import debug_print as print  # noqa: A004 - JAX's name
from jaxtyped._src.sharding_visualization import (
    inspect_array_sharding,
    visualize_array_sharding,
    visualize_sharding,
)

__all__ = [
    "DebugPrinter",
    "breakpoint",
    "callback",
    "log",
    "print",
    "inspect_array_sharding",
    "visualize_array_sharding",
    "visualize_sharding",
]
