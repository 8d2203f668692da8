"""Event listeners (JAX's ``jax.monitoring``; layer L0.1).

Code records named events, durations, time spans and scalars; every
registered listener of that kind is called with the event's name, its
value and its keyword metadata. jaxtyped records JAX's compile events:
``/jax/core/compile/jaxpr_trace_duration`` when ``jit`` traces a function,
``jaxpr_to_mlir_module_duration`` when it lowers one and
``backend_compile_duration`` when XLA compiles it (each as a scalar start
time, a duration and a time span, with ``fun_name``), and the persistent
compilation cache's ``/jax/compilation_cache/...`` events.
"""

import threading
import time
from collections.abc import Callable, Generator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Final

__all__ = [
    "Listener",
    "record_event",
    "record_event_duration_secs",
    "record_event_time_span",
    "record_scalar",
    "register_event_listener",
    "register_event_duration_secs_listener",
    "register_event_time_span_listener",
    "register_scalar_listener",
    "unregister_event_listener",
    "unregister_event_duration_listener",
    "unregister_event_time_span_listener",
    "unregister_scalar_listener",
    "clear_event_listeners",
    "timed_event",
    "compiling",
    "backend_compile_event",
    "JAXPR_TRACE_EVENT",
    "JAXPR_TO_MLIR_MODULE_EVENT",
    "BACKEND_COMPILE_EVENT",
]

JAXPR_TRACE_EVENT: Final = "/jax/core/compile/jaxpr_trace_duration"
JAXPR_TO_MLIR_MODULE_EVENT: Final = "/jax/core/compile/jaxpr_to_mlir_module_duration"
BACKEND_COMPILE_EVENT: Final = "/jax/core/compile/backend_compile_duration"


# A listener is called as ``listener(event, [value(s),] **metadata)``; its
# parameters may have any names (JAX's protocols name them, which a
# type checker holds against a listener written ``def log(e, **kw)``).
Listener = Callable[..., None]


_lock = threading.Lock()
# Replaced, never mutated, so recording iterates a snapshot without the lock.
_event_listeners: tuple[Listener, ...] = ()
_duration_listeners: tuple[Listener, ...] = ()
_time_span_listeners: tuple[Listener, ...] = ()
_scalar_listeners: tuple[Listener, ...] = ()


def record_event(event: str, **kwargs: str | int) -> None:
    """Call every event listener with ``event`` and ``kwargs``."""
    for listener in _event_listeners:
        listener(event, **kwargs)


def record_event_duration_secs(event: str, duration: float, **kwargs: str | int) -> None:
    """Call every duration listener with ``event``, ``duration`` (seconds) and ``kwargs``."""
    for listener in _duration_listeners:
        listener(event, duration, **kwargs)


def record_event_time_span(event: str, start_time: float, end_time: float, **kwargs: str | int) -> None:
    """Call every time-span listener with ``event``, the span's ends and ``kwargs``."""
    for listener in _time_span_listeners:
        listener(event, start_time, end_time, **kwargs)


def record_scalar(event: str, value: float | int, **kwargs: str | int) -> None:
    """Call every scalar listener with ``event``, ``value`` and ``kwargs``."""
    for listener in _scalar_listeners:
        listener(event, value, **kwargs)


def register_event_listener(callback: Listener) -> None:
    """Call ``callback(event, **kwargs)`` for every recorded event."""
    global _event_listeners
    with _lock:
        _event_listeners = (*_event_listeners, callback)


def register_event_duration_secs_listener(callback: Listener) -> None:
    """Call ``callback(event, duration_secs, **kwargs)`` for every recorded duration."""
    global _duration_listeners
    with _lock:
        _duration_listeners = (*_duration_listeners, callback)


def register_event_time_span_listener(callback: Listener) -> None:
    """Call ``callback(event, start_time, end_time, **kwargs)`` for every recorded time span."""
    global _time_span_listeners
    with _lock:
        _time_span_listeners = (*_time_span_listeners, callback)


def register_scalar_listener(callback: Listener) -> None:
    """Call ``callback(event, value, **kwargs)`` for every recorded scalar."""
    global _scalar_listeners
    with _lock:
        _scalar_listeners = (*_scalar_listeners, callback)


def _index_of(listeners: tuple[object, ...], callback: object, kind: str) -> int:
    """The index of ``callback`` among ``listeners``; a ValueError naming
    ``kind`` if it was never registered."""
    for i, listener in enumerate(listeners):
        if listener is callback or listener == callback:
            return i
    # JAX asserts here; a ValueError says what went wrong.
    raise ValueError(f"unregister_{kind}_listener: {callback!r} is not a registered {kind} listener")


def unregister_event_listener(callback: Listener) -> None:
    """Stop calling ``callback`` for events.

    Raises:
        ValueError: ``callback`` is not registered.
    """
    global _event_listeners
    with _lock:
        i = _index_of(_event_listeners, callback, "event")
        _event_listeners = _event_listeners[:i] + _event_listeners[i + 1 :]


def unregister_event_duration_listener(callback: Listener) -> None:
    """Stop calling ``callback`` for durations.

    Raises:
        ValueError: ``callback`` is not registered.
    """
    global _duration_listeners
    with _lock:
        i = _index_of(_duration_listeners, callback, "event_duration")
        _duration_listeners = _duration_listeners[:i] + _duration_listeners[i + 1 :]


def unregister_event_time_span_listener(callback: Listener) -> None:
    """Stop calling ``callback`` for time spans.

    Raises:
        ValueError: ``callback`` is not registered.
    """
    global _time_span_listeners
    with _lock:
        i = _index_of(_time_span_listeners, callback, "event_time_span")
        _time_span_listeners = _time_span_listeners[:i] + _time_span_listeners[i + 1 :]


def unregister_scalar_listener(callback: Listener) -> None:
    """Stop calling ``callback`` for scalars.

    Raises:
        ValueError: ``callback`` is not registered.
    """
    global _scalar_listeners
    with _lock:
        i = _index_of(_scalar_listeners, callback, "scalar")
        _scalar_listeners = _scalar_listeners[:i] + _scalar_listeners[i + 1 :]


def clear_event_listeners() -> None:
    """Unregister every listener of every kind."""
    global _event_listeners, _duration_listeners, _time_span_listeners, _scalar_listeners
    with _lock:
        _event_listeners, _duration_listeners, _time_span_listeners, _scalar_listeners = (), (), (), ()


@contextmanager
def timed_event(event: str, fun_name: str) -> Generator[None, None, None]:
    """Record ``event`` around the block as JAX records its compile steps:
    the start time as a scalar, then the duration and the time span (when
    the block raises, nothing more is recorded)."""
    if not (_scalar_listeners or _duration_listeners or _time_span_listeners):
        yield  # the common case: nobody listens, nothing to time
        return
    start = time.time()
    record_scalar(event, start, fun_name=fun_name)
    yield
    end = time.time()
    record_event_duration_secs(event, end - start, fun_name=fun_name)
    record_event_time_span(event, start, end, fun_name=fun_name)


# The program being compiled, as JAX names it in its compile events
# (``jit(f)``): set by the caller that lowers, read where XLA compiles.
_compile_name: ContextVar[str] = ContextVar("jaxtyped_compile_name", default="jit(fun)")


@contextmanager
def compiling(fun_name: str) -> Generator[None, None, None]:
    """Name the programs compiled in the block (``jit(f)``) in their
    ``backend_compile_duration`` events."""
    token = _compile_name.set(fun_name)
    try:
        yield
    finally:
        _compile_name.reset(token)


@contextmanager
def backend_compile_event() -> Generator[None, None, None]:
    """Record ``backend_compile_duration`` around an XLA compilation (or a
    persistent-cache load) of the program named by :func:`compiling`."""
    with timed_event(BACKEND_COMPILE_EVENT, _compile_name.get()):
        yield
