"""Result types of jaxtyped.dlpack, jaxtyped.monitoring and
jaxtyped.profiler: arrays exported to NumPy through DLPack, listeners
functions with any parameter names (unannotated lambdas are checked in
pyright's standard mode and mypy by hand: no error), and
the profiler's context managers and readers."""

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import dlpack, monitoring, profiler
from jaxtyped.typing import Array


def log_event(event: str, **metadata: str | int) -> None:
    print(event, metadata)


def log_duration(e: str, secs: float, **kw: str | int) -> None:
    print(e, secs, kw)


def step(x: Array) -> Array:
    return x * 2


def check(x: Array) -> None:
    assert_type(dlpack.from_dlpack(np.ones(3)), Array)
    assert_type(dlpack.is_supported_dtype(jnp.float32), bool)
    assert_type(x.__dlpack_device__(), tuple[int, int])
    np.from_dlpack(x)
    monitoring.register_event_listener(log_event)
    monitoring.register_event_duration_secs_listener(log_duration)
    assert_type(monitoring.record_event("/app/step", step=1), None)
    with profiler.trace("/tmp/profile"):
        with profiler.TraceAnnotation("span", step=1) as span:
            assert_type(span, profiler.TraceAnnotation)
    assert_type(profiler.annotate_function(step)(x), Array)
    assert_type(profiler.device_memory_profile(), bytes)
    data = profiler.ProfileData.from_file("/tmp/profile/x.xplane.pb")
    assert_type([e.name for p in data.planes for line in p.lines for e in line.events], list[str])
    assert_type(jt.profiler.ProfileOptions().python_tracer_level, int)
