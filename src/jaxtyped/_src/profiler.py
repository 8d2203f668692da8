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
from collections.abc import Callable, Generator, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import TracebackType
from typing import TypeVar, cast, final

from jaxlib import _profile_data, _profiler
from typing_extensions import ParamSpec, Self

from jaxtyped._src.errors import JaxtypedNotImplementedError
from jaxtyped._src.runtime import xla

__all__ = [
    "ProfileData", "ProfileEvent", "ProfileLine", "ProfileOptions", "ProfilePlane", "StepTraceAnnotation", "TraceAnnotation",
    "annotate_function", "device_memory_profile", "register_subprocess", "save_device_memory_profile", "start_server", "stop_server",
    "start_trace", "stop_trace", "trace",
]  # fmt: skip

P = ParamSpec("P")
R = TypeVar("R")

@final
class ProfileOptions:
    """Options of a profiling session (JAX's ``jax.profiler.ProfileOptions``):
    set the attributes, then pass it to :func:`start_trace`."""

    def __init__(self) -> None:
        defaults = _profiler.ProfileOptions()
        self.host_tracer_level: int = defaults.host_tracer_level
        """How much of the host to record (0 none, 1 user spans, 2 and 3 more)."""
        self.python_tracer_level: int = defaults.python_tracer_level
        """1 records every Python call, 0 none."""


def _jaxlib_options(options: ProfileOptions) -> _profiler.ProfileOptions:
    """jaxlib's options object with the values of ``options``."""
    result = _profiler.ProfileOptions()
    result.host_tracer_level = options.host_tracer_level
    result.python_tracer_level = options.python_tracer_level
    return result


@final
class ProfileEvent:
    """One span of a recorded profile: ``name``, ``start_ns``, ``end_ns``, ``duration_ns``."""

    __slots__ = ("_event",)

    def __init__(self, event: object) -> None:
        # jaxlib's object (made by the profile reader, not by users).
        self._event = cast(_profile_data.ProfileEvent, event)

    @property
    def name(self) -> str:
        """The span's name (a ``TraceAnnotation``'s, a kernel's, a compiler pass's)."""
        return self._event.name

    @property
    def start_ns(self) -> float:
        """When it started, in nanoseconds."""
        return self._event.start_ns

    @property
    def end_ns(self) -> float:
        """When it ended, in nanoseconds."""
        return self._event.end_ns

    @property
    def duration_ns(self) -> float:
        """How long it took, in nanoseconds."""
        return self._event.duration_ns


@final
class ProfileLine:
    """A timeline of a plane (a thread, a device stream): its ``events``."""

    __slots__ = ("_line",)

    def __init__(self, line: object) -> None:
        # jaxlib's object (made by the profile reader, not by users).
        self._line = cast(_profile_data.ProfileLine, line)

    @property
    def name(self) -> str:
        """The line's name."""
        return self._line.name

    @property
    def events(self) -> Iterator[ProfileEvent]:
        """The line's spans, in order."""
        return (ProfileEvent(e) for e in self._line.events)


@final
class ProfilePlane:
    """A plane of a recorded profile (the host, a device): its ``lines``."""

    __slots__ = ("_plane",)

    def __init__(self, plane: object) -> None:
        # jaxlib's object (made by the profile reader, not by users).
        self._plane = cast(_profile_data.ProfilePlane, plane)

    @property
    def name(self) -> str:
        """The plane's name (``/host:CPU``, ...)."""
        return self._plane.name

    @property
    def lines(self) -> Iterator[ProfileLine]:
        """The plane's timelines."""
        return (ProfileLine(line) for line in self._plane.lines)


@final
class ProfileData:
    """A recorded profile (an XSpace) read back: ``ProfileData.from_file(path)``
    of a ``.xplane.pb`` that :func:`stop_trace` wrote, then its ``planes``."""

    __slots__ = ("_data",)

    def __init__(self, data: object) -> None:
        # jaxlib's object (made by the profile reader, not by users).
        self._data = cast(_profile_data.ProfileData, data)

    @staticmethod
    def from_file(proto_file_path: str) -> "ProfileData":
        """The profile in the ``.xplane.pb`` file ``proto_file_path``."""
        return ProfileData(_profile_data.ProfileData.from_file(proto_file_path))

    @staticmethod
    def from_serialized_xspace(serialized_xspace: bytes) -> "ProfileData":
        """The profile in a serialized XSpace protobuf."""
        return ProfileData(_profile_data.ProfileData.from_serialized_xspace(serialized_xspace))

    @property
    def planes(self) -> Iterator[ProfilePlane]:
        """The profile's planes."""
        return (ProfilePlane(plane) for plane in self._data.planes)

    def find_plane_with_name(self, name: str) -> ProfilePlane | None:
        """The plane named ``name``, or None."""
        plane = self._data.find_plane_with_name(name)
        return None if plane is None else ProfilePlane(plane)


class TraceAnnotation:
    """A span named ``name`` on the profile's timeline, around the code of
    a ``with`` block (recorded only while a trace runs); keyword arguments
    become the span's metadata."""

    def __init__(self, name: str, **kwargs: object) -> None:
        self._trace_me = _profiler.TraceMe(name, **kwargs)

    def __enter__(self) -> Self:
        self._trace_me.__enter__()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc_value: BaseException | None, traceback: TracebackType | None
    ) -> None:
        self._trace_me.__exit__(exc_type, exc_value, traceback)


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
    profiler_options: ProfileOptions | None = None,
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
        options = _jaxlib_options(profiler_options if profiler_options is not None else ProfileOptions())
        _state.session = _profiler.ProfilerSession(options)
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
    profiler_options: ProfileOptions | None = None,
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


def start_server(port: int) -> object:
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
