"""The XLA profiler (JAX's ``jax.profiler``; layer L5, over jaxlib's
``_profiler``).

``start_trace(log_dir)``/``stop_trace()`` (or ``with trace(log_dir):``)
record a profile of the process (Python, the host and XLA's programs) and
write it under ``log_dir/plugins/profile/<run>/`` as TensorBoard's
profile plugin and Perfetto read it; ``TraceAnnotation``,
``StepTraceAnnotation`` and ``annotate_function`` mark spans on that
timeline; ``start_server(port)`` lets TensorBoard sample the running
process; ``device_memory_profile()`` is a pprof snapshot of the arrays
and programs in device memory.
"""

import functools
import gzip
import json
import os
import threading
from collections.abc import Callable, Generator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

from jaxlib import _profile_data, _profiler
from typing_extensions import ParamSpec

from jaxtyped._src.errors import JaxtypedNotImplementedError
from jaxtyped._src.runtime import xla

__all__ = [
    "ProfileData", "ProfileEvent", "ProfileOptions", "ProfilePlane", "StepTraceAnnotation", "TraceAnnotation",
    "annotate_function", "device_memory_profile", "register_subprocess", "save_device_memory_profile", "start_server", "stop_server",
    "start_trace", "stop_trace", "trace",
]  # fmt: skip

P = ParamSpec("P")
R = TypeVar("R")

# jaxlib's classes, as JAX exports them.
ProfileData = _profile_data.ProfileData
ProfileEvent = _profile_data.ProfileEvent
ProfilePlane = _profile_data.ProfilePlane
ProfileOptions = _profiler.ProfileOptions


class TraceAnnotation(_profiler.TraceMe):
    """A span named ``name`` on the profile's timeline, around the code of
    a ``with`` block (recorded only while a trace runs); keyword arguments
    become the span's metadata."""

    def __init__(self, name: str, **kwargs: object) -> None:
        super().__init__(name, **kwargs)


class StepTraceAnnotation(TraceAnnotation):
    """A training step's span (``name`` and ``step_num=``), which the
    profiler's step analysis groups by."""

    def __init__(self, name: str, **kwargs: object) -> None:
        super().__init__(name, _r=1, **kwargs)


def annotate_function(func: Callable[P, R], name: str | None = None, **decorator_kwargs: object) -> Callable[P, R]:
    """``func`` with each call in a :class:`TraceAnnotation` named ``name``
    (by default its qualified name)."""
    default = getattr(func, "__qualname__", None) or getattr(func, "__name__", None)
    label = name or (default if isinstance(default, str) else "function")

    @functools.wraps(func)
    def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        with TraceAnnotation(label, **decorator_kwargs):
            return func(*args, **kwargs)

    return wrapper


class _TraceState:
    """The one profiling session a process may run."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.session: _profiler.ProfilerSession | None = None
        self.log_dir = ""
        self.perfetto = False


_state = _TraceState()
_server: list[_profiler.ProfilerServer] = []


def start_trace(
    log_dir: "os.PathLike[str] | str",
    create_perfetto_link: bool = False,
    create_perfetto_trace: bool = False,
    profiler_options: _profiler.ProfileOptions | None = None,
) -> None:
    """Start recording a profile, written to ``log_dir`` by :func:`stop_trace`.

    ``create_perfetto_trace`` also writes ``perfetto_trace.json.gz`` for
    https://ui.perfetto.dev. ``profiler_options`` is a :class:`ProfileOptions`.

    Raises:
        RuntimeError: a trace is already running (one at a time, as in JAX).
        JaxtypedNotImplementedError: ``create_perfetto_link``: serving the
            trace to a browser is not supported; open the file instead.
    """
    if create_perfetto_link:
        raise JaxtypedNotImplementedError(
            "start_trace: create_perfetto_link (serving the trace to a browser and waiting for it) is not "
            "supported; pass create_perfetto_trace=True and open perfetto_trace.json.gz at ui.perfetto.dev"
        )
    with _state.lock:
        if _state.session is not None:
            raise RuntimeError("Profile has already been started. Only one profile may be run at a time.")
        xla.ensure_backend()  # its tracers must exist before the session starts
        _profiler.clear_metadata()
        _profiler.set_metadata("jaxlib_version", xla.jaxlib_version())
        _state.session = _profiler.ProfilerSession(profiler_options if profiler_options is not None else ProfileOptions())
        _state.log_dir = str(log_dir)
        _state.perfetto = create_perfetto_trace


def stop_trace() -> None:
    """Stop the running trace and write it under the ``log_dir`` of
    :func:`start_trace` (``plugins/profile/<run>/*.xplane.pb``).

    Raises:
        RuntimeError: no trace is running.
    """
    with _state.lock:
        session = _state.session
        if session is None:
            raise RuntimeError("No profile started")
        session.stop_and_export(_state.log_dir)
        if _state.perfetto:
            _write_perfetto_trace(_state.log_dir)
        _state.session, _state.log_dir, _state.perfetto = None, "", False
        _profiler.clear_metadata()


@contextmanager
def trace(
    log_dir: "os.PathLike[str] | str",
    create_perfetto_link: bool = False,
    create_perfetto_trace: bool = False,
    profiler_options: _profiler.ProfileOptions | None = None,
) -> Generator[None, None, None]:
    """:func:`start_trace` on entry and :func:`stop_trace` on exit."""
    start_trace(log_dir, create_perfetto_link, create_perfetto_trace, profiler_options)
    try:
        yield
    finally:
        stop_trace()


def _write_perfetto_trace(log_dir: str) -> Path:
    """``perfetto_trace.json.gz`` beside the newest run's trace: its
    ``trace.json.gz`` without the ``metadata`` field Perfetto rejects."""
    runs = (Path(log_dir).absolute() / "plugins" / "profile").iterdir()
    latest = max(runs, key=os.path.getmtime)
    found = list(latest.glob("*.trace.json.gz"))
    if len(found) != 1:
        raise ValueError(f"stop_trace: expected one trace.json.gz in {latest}, found {len(found)}")
    with gzip.open(found[0], "rb") as f:
        events = json.load(f)
    events.pop("metadata", None)
    target = latest / "perfetto_trace.json.gz"
    with gzip.open(target, "w") as f:
        f.write(json.dumps(events).encode("utf-8"))
    return target


def start_server(port: int) -> _profiler.ProfilerServer:
    """Serve profiles of this process on ``port`` (TensorBoard's "capture
    profile"); returns jaxlib's server.

    Raises:
        ValueError: a server is already running.
    """
    if _server:
        raise ValueError("Only one profiler server can be active at a time.")
    xla.ensure_backend()
    server = _profiler.start_server(port)
    _server.append(server)
    return server


def stop_server() -> None:
    """Stop the server of :func:`start_server`.

    Raises:
        ValueError: none is running.
    """
    if not _server:
        raise ValueError("No active profiler server.")
    _server.clear()  # dropping jaxlib's server object stops it


def register_subprocess(pid: int, port: int) -> Callable[[], None]:
    """Profile the process ``pid`` (which runs :func:`start_server` on
    ``port``) with this one: its CPU activity joins this process's traces.
    Returns the function that unregisters it.

    Raises:
        RuntimeError: the subprocess cannot be registered (already
            registered, or unreachable).
    """
    return _profiler.register_subprocess(pid, port)


def device_memory_profile(backend: str | None = None) -> bytes:
    """A pprof profile (gzipped protobuf) of what device memory holds now:
    arrays and compiled programs, by allocation site (``pprof`` reads it)."""
    if backend not in (None, "cpu"):
        raise JaxtypedNotImplementedError(f"device_memory_profile: backend {backend!r}; only 'cpu' is available")
    return gzip.compress(xla.heap_profile())  # pprof reads gzipped protobufs, as JAX gives them


def save_device_memory_profile(filename: "os.PathLike[str] | str", backend: str | None = None) -> None:
    """Write :func:`device_memory_profile` to ``filename``."""
    profile = device_memory_profile(backend)
    with open(filename, "wb") as f:
        f.write(profile)
