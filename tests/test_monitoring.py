"""``jaxtyped.monitoring`` against ``jax.monitoring``: the four listener
kinds (register, record, unregister, clear), JAX's compile events for a
jitted function (the same events, order and ``fun_name`` metadata as
JAX's), and the persistent compilation cache's events (a miss, then a
hit once the in-memory caches are cleared)."""

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import monitoring
from oracle import jax, jax_numpy

jax_monitoring: Any = pytest.importorskip("jax.monitoring")

Log = list[tuple[object, ...]]


def _listen(module: Any, log: Log) -> list[tuple[Callable[[Any], None], Any]]:
    """Register one listener of each kind on ``module``; returns the
    (unregister, listener) pairs."""

    def event(e: str, **k: str | int) -> None:
        log.append(("event", e, k))

    def duration(e: str, d: float, **k: str | int) -> None:
        log.append(("duration", e, k))

    def span(e: str, start: float, end: float, **k: str | int) -> None:
        assert end >= start
        log.append(("span", e, k))

    def scalar(e: str, v: float | int, **k: str | int) -> None:
        log.append(("scalar", e, k))

    module.register_event_listener(event)
    module.register_event_duration_secs_listener(duration)
    module.register_event_time_span_listener(span)
    module.register_scalar_listener(scalar)
    return [
        (module.unregister_event_listener, event),
        (module.unregister_event_duration_listener, duration),
        (module.unregister_event_time_span_listener, span),
        (module.unregister_scalar_listener, scalar),
    ]


@pytest.fixture
def logs() -> Iterator[tuple[Log, Log]]:
    """Listeners on both libraries for the test's duration."""
    ours: Log = []
    theirs: Log = []
    registered = _listen(monitoring, ours) + _listen(jax_monitoring, theirs)
    yield ours, theirs
    for unregister, listener in registered:
        unregister(listener)


def test_recording_calls_each_kind_of_listener_as_jax(logs: tuple[Log, Log]) -> None:
    for module in (monitoring, jax_monitoring):
        module.record_event("/app/started", step=1)
        module.record_event_duration_secs("/app/step", 0.5, step=2)
        module.record_event_time_span("/app/step", 1.0, 2.0, phase="train")
        module.record_scalar("/app/loss", 0.25)
    ours, theirs = logs
    assert ours == theirs == [
        ("event", "/app/started", {"step": 1}),
        ("duration", "/app/step", {"step": 2}),
        ("span", "/app/step", {"phase": "train"}),
        ("scalar", "/app/loss", {}),
    ]


def test_unregistered_and_cleared_listeners_are_not_called() -> None:
    seen: list[str] = []

    def listener(e: str, **k: str | int) -> None:
        seen.append(e)

    monitoring.register_event_listener(listener)
    monitoring.record_event("a")
    monitoring.unregister_event_listener(listener)
    monitoring.record_event("b")
    assert seen == ["a"]
    # JAX asserts here; jaxtyped says which listener is unknown.
    with pytest.raises(ValueError, match="is not a registered event listener"):
        monitoring.unregister_event_listener(listener)
    monitoring.register_event_listener(listener)
    monitoring.clear_event_listeners()
    monitoring.record_event("c")
    assert seen == ["a"]


def _compile_events(log: Log, names: tuple[str, ...]) -> Log:
    def named(metadata: object) -> bool:
        return isinstance(metadata, dict) and dict[str, object](metadata).get("fun_name") in names  # pyright: ignore[reportUnknownArgumentType]  # a metadata dict of the log

    return [entry for entry in log if str(entry[1]).startswith("/jax/core/compile/") and named(entry[2])]


def test_jit_records_jax_s_compile_events(logs: tuple[Log, Log]) -> None:
    def monitored_step(x: Any) -> Any:
        return jnp.sin(x) * 2 if isinstance(x, jt.Array) else jax_numpy.sin(x) * 2

    jt.jit(monitored_step)(jnp.ones(3)).block_until_ready()
    jax.jit(monitored_step)(jax_numpy.ones(3)).block_until_ready()
    ours, theirs = logs
    names = ("monitored_step", "jit(monitored_step)")
    expected = _compile_events(theirs, names)
    assert [entry[1] for entry in expected].count("/jax/core/compile/backend_compile_duration") == 3
    assert _compile_events(ours, names) == expected


def _affine(x: jt.Array) -> jt.Array:
    return x * 3.0 + 1.0


def test_persistent_cache_events(logs: tuple[Log, Log], tmp_path: Path) -> None:
    before = (jt.config.jax_compilation_cache_dir, jt.config.jax_persistent_cache_min_compile_time_secs)
    jt.config.update("jax_compilation_cache_dir", str(tmp_path))
    jt.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
    try:
        for _ in range(2):
            jt.clear_caches()
            jt.jit(_affine)(jnp.ones(5)).block_until_ready()
    finally:
        jt.config.update("jax_compilation_cache_dir", before[0])
        jt.config.update("jax_persistent_cache_min_compile_time_secs", before[1])
    ours, _ = logs
    cache = [entry[1] for entry in ours if entry[0] == "event"]
    assert cache[-4:] == [
        "/jax/compilation_cache/compile_requests_use_cache", "/jax/compilation_cache/cache_misses",
        "/jax/compilation_cache/compile_requests_use_cache", "/jax/compilation_cache/cache_hits",
    ]  # fmt: skip
