"""``jaxtyped.profiler``: a trace written where TensorBoard and Perfetto
read it, holding the annotations' spans and XLA's work on the jitted
program; one trace at a time, as in JAX; ``annotate_function``; the
device memory profile (pprof, gzipped); the profiler server."""

import gzip
import re
import socket
from pathlib import Path
from typing import Any

import pytest

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import profiler
from jaxtyped.errors import JaxtypedNotImplementedError

jax: Any = pytest.importorskip("jax")


def _profiled_matmul(x: jt.Array) -> jt.Array:
    return jnp.sin(x) @ x.T


def _event_names(log_dir: Path) -> set[str]:
    (xplane,) = log_dir.glob("plugins/profile/*/*.xplane.pb")
    data = profiler.ProfileData.from_file(str(xplane))
    return {event.name for plane in data.planes for line in plane.lines for event in line.events}


def test_trace_records_annotations_and_the_jitted_program(tmp_path: Path) -> None:
    x = jnp.ones((32, 32))
    with profiler.trace(tmp_path, create_perfetto_trace=True):
        with profiler.TraceAnnotation("my_label", step=3):
            jt.jit(_profiled_matmul)(x).block_until_ready()
        with profiler.StepTraceAnnotation("train", step_num=1):
            pass
    names = _event_names(tmp_path)
    assert {"my_label", "train"} <= names
    # The compiled program's sine kernel ran on the timeline (compiled or
    # loaded from the cache). Its name is the name of the instruction that
    # computes the sine in the optimised program, which depends on XLA's
    # emitters: "wrapped_sine" with the default ones, "sine.1" with those
    # the test run uses (tests/conftest.py).
    optimised = jt.jit(_profiled_matmul).lower(x).compile().as_text()
    sine_kernels = set(re.findall(r"%(\S*sine\S*) = ", optimised))
    assert sine_kernels, optimised
    assert sine_kernels & names, (sine_kernels, sorted(names)[:80])
    (perfetto,) = tmp_path.glob("plugins/profile/*/perfetto_trace.json.gz")
    assert b'"traceEvents"' in gzip.decompress(perfetto.read_bytes())


def test_one_trace_at_a_time_as_in_jax(tmp_path: Path) -> None:
    with pytest.raises(RuntimeError, match="No profile started"):
        profiler.stop_trace()
    profiler.start_trace(tmp_path)
    try:
        with pytest.raises(RuntimeError, match="Only one profile may be run at a time"):
            profiler.start_trace(tmp_path)
    finally:
        profiler.stop_trace()
    with pytest.raises(JaxtypedNotImplementedError, match="create_perfetto_link"):
        profiler.start_trace(tmp_path, create_perfetto_link=True)


def test_profile_options_reach_the_session(tmp_path: Path) -> None:
    options = profiler.ProfileOptions()
    assert (options.host_tracer_level, options.python_tracer_level) == (
        jax.profiler.ProfileOptions().host_tracer_level, jax.profiler.ProfileOptions().python_tracer_level
    )  # JAX's defaults
    options.python_tracer_level = 0  # no Python calls on the timeline
    with profiler.trace(tmp_path, profiler_options=options):
        with profiler.TraceAnnotation("kept"):
            _profiled_matmul(jnp.eye(3))
    names = _event_names(tmp_path)
    assert "kept" in names and not any(name.startswith("$") for name in names)


def test_annotate_function_keeps_the_function(tmp_path: Path) -> None:
    annotated = profiler.annotate_function(_profiled_matmul, name="matmul_span")
    assert annotated.__name__ == "_profiled_matmul"
    with profiler.trace(tmp_path):
        out = annotated(jnp.eye(4))
    assert out.shape == (4, 4)
    assert "matmul_span" in _event_names(tmp_path)


def test_device_memory_profile_is_gzipped_pprof_as_jax_s(tmp_path: Path) -> None:
    keep = jnp.ones((256, 256))
    ours, theirs = profiler.device_memory_profile(), jax.profiler.device_memory_profile()
    assert ours[:2] == theirs[:2] == b"\x1f\x8b"  # gzip
    assert len(gzip.decompress(ours)) > 0
    target = tmp_path / "memory.prof"
    profiler.save_device_memory_profile(target)
    assert target.read_bytes()[:2] == b"\x1f\x8b"
    del keep


def test_profiler_server_starts_once_and_stops() -> None:
    with pytest.raises(ValueError, match="No active profiler server"):
        profiler.stop_server()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    profiler.start_server(port)
    try:
        with pytest.raises(ValueError, match="Only one profiler server"):
            profiler.start_server(port)
    finally:
        profiler.stop_server()
