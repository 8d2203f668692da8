"""Event listeners (JAX's ``jax.monitoring``): register callbacks for
named events, durations, time spans and scalars. ``jit`` records JAX's
compile events (``/jax/core/compile/jaxpr_trace_duration``,
``jaxpr_to_mlir_module_duration``, ``backend_compile_duration``, with
``fun_name``) and the persistent compilation cache's
(``/jax/compilation_cache/cache_hits``, ``cache_misses``, ...)."""

from jaxtyped._src.monitoring import (
    clear_event_listeners,
    record_event,
    record_event_duration_secs,
    record_event_time_span,
    record_scalar,
    register_event_duration_secs_listener,
    register_event_listener,
    register_event_time_span_listener,
    register_scalar_listener,
    unregister_event_duration_listener,
    unregister_event_listener,
    unregister_event_time_span_listener,
    unregister_scalar_listener,
)

__all__ = [
    "clear_event_listeners",
    "record_event",
    "record_event_duration_secs",
    "record_event_time_span",
    "record_scalar",
    "register_event_duration_secs_listener",
    "register_event_listener",
    "register_event_time_span_listener",
    "register_scalar_listener",
    "unregister_event_duration_listener",
    "unregister_event_listener",
    "unregister_event_time_span_listener",
    "unregister_scalar_listener",
]
