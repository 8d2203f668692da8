"""The XLA profiler (JAX's ``jax.profiler``): ``with trace(log_dir):``
(or ``start_trace``/``stop_trace``) records the process and writes a
TensorBoard/Perfetto profile; ``TraceAnnotation``, ``StepTraceAnnotation``
and ``annotate_function`` name spans on its timeline; ``start_server``
serves profiles to TensorBoard; ``device_memory_profile`` snapshots
device memory as pprof."""

from jaxtyped._src.profiler import (
    ProfileData,
    ProfileEvent,
    ProfileLine,
    ProfileOptions,
    ProfilePlane,
    StepTraceAnnotation,
    TraceAnnotation,
    annotate_function,
    device_memory_profile,
    register_subprocess,
    save_device_memory_profile,
    start_server,
    start_trace,
    stop_server,
    stop_trace,
    trace,
)

__all__ = [
    "ProfileData",
    "ProfileEvent",
    "ProfileLine",
    "ProfileOptions",
    "ProfilePlane",
    "StepTraceAnnotation",
    "TraceAnnotation",
    "annotate_function",
    "device_memory_profile",
    "register_subprocess",
    "save_device_memory_profile",
    "start_server",
    "start_trace",
    "stop_server",
    "stop_trace",
    "trace",
]
