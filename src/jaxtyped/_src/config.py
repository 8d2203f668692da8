"""Global configuration flags (layer L0), JAX-compatible.

``jaxtyped.config.update("jax_enable_x64", True)`` switches on 64-bit types,
exactly as in JAX. ``config.update`` is global (every thread sees it), as in
JAX; each option may also be set from its environment variable at import.

Note [config is global state]: this is one of the few module-level mutable
objects in the package. ``config.update`` writes the global values
deliberately: JAX's update affects every thread, and a ContextVar value set
in the main thread is invisible to threads started later.

Note [scoped options]: the context managers (``disable_jit``,
``enable_x64(True)``, ``enable_checks(True)``, ...) go through
:meth:`Config.scoped`, which overrides an option for the current context
only (a ContextVar; each thread starts with none), as JAX's thread-local
config states do: ``with disable_jit():`` in one thread leaves another
thread's jitted functions compiled. Readers check the override first; with
no ``with`` block active that costs one ``ContextVar.get`` returning None.
"""

import os
from collections.abc import Generator, Hashable
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Final, Literal, final, get_args, overload

from jaxtyped._src.errors import JaxtypedValueError

__all__ = ["Config", "OptionName", "TraceState", "config", "set_trace_context"]


@final
@dataclass(frozen=True, slots=True)
class _BoolOption:
    name: str
    default: bool
    env_var: str
    help: str
    affects_tracing: bool


_TRUE_STRINGS: Final = frozenset({"1", "true", "yes", "on"})
_FALSE_STRINGS: Final = frozenset({"", "0", "false", "no", "off"})

TraceState = tuple[Hashable, ...]
"""The options' values that change what tracing produces, then any other
context tracing reads (:func:`set_trace_context`): part of every trace
cache's key."""

_OPTIONS: Final[tuple[_BoolOption, ...]] = (
    _BoolOption(
        "jax_enable_x64",
        False,
        "JAX_ENABLE_X64",
        "Enable 64-bit types (float64, int64, complex128); 32-bit otherwise.",
        affects_tracing=True,
    ),
    _BoolOption(
        "jax_enable_checks",
        False,
        "JAX_ENABLE_CHECKS",
        "Type-check every jaxpr a transformation produces (slower).",
        affects_tracing=False,
    ),
    _BoolOption(
        "jax_disable_jit",
        False,
        "JAX_DISABLE_JIT",
        "Run jitted functions as plain Python (for debugging); see jaxtyped.disable_jit.",
        affects_tracing=False,
    ),
    # random family (issue 15): JAX 0.10's default scheme of PRNG counters.
    _BoolOption(
        "jax_threefry_partitionable",
        True,
        "JAX_THREEFRY_PARTITIONABLE",
        "Hash each random element's own index (shard-local); False: JAX's older counter layout.",
        affects_tracing=True,
    ),
    # JAX 0.10's default: softmax is differentiated as the composition it is.
    _BoolOption(
        "jax_softmax_custom_jvp",
        False,
        "JAX_SOFTMAX_CUSTOM_JVP",
        "Differentiate nn.softmax by its own rule y * (dx - sum(y * dx)); False: as its composition (JAX's default).",
        affects_tracing=True,
    ),
    # breadth (top-level config states): debugging switches, see jaxtyped._src.api_config
    _BoolOption("jax_debug_nans", False, "JAX_DEBUG_NANS", "Raise FloatingPointError when a jitted function's output has a NaN.", affects_tracing=False),
    _BoolOption("jax_debug_infs", False, "JAX_DEBUG_INFS", "Raise FloatingPointError when a jitted function's output has an inf.", affects_tracing=False),
    _BoolOption("jax_log_compiles", False, "JAX_LOG_COMPILES", "Accepted for JAX compatibility; jaxtyped does not log compilations.", affects_tracing=False),
    _BoolOption("jax_explain_cache_misses", False, "JAX_EXPLAIN_CACHE_MISSES", "Accepted for JAX compatibility; jaxtyped does not explain cache misses.", affects_tracing=False),
    _BoolOption("jax_check_tracer_leaks", False, "JAX_CHECK_TRACER_LEAKS", "Accepted for JAX compatibility; jaxtyped does not check for leaked tracers.", affects_tracing=False),
)


def _env_bool(option: _BoolOption) -> bool:
    raw = os.environ.get(option.env_var)
    if raw is None:
        return option.default
    text = raw.strip().lower()
    if text in _TRUE_STRINGS:
        return True
    if text in _FALSE_STRINGS:
        return False
    raise JaxtypedValueError(
        f"environment variable {option.env_var}={raw!r} is not a boolean; "
        "use 0/1/true/false"
    )


# The names config.update accepts (checked statically and at run time).
OptionName = Literal[
    "jax_enable_x64", "jax_enable_checks", "jax_disable_jit", "jax_threefry_partitionable", "jax_softmax_custom_jvp",
    "jax_debug_nans", "jax_debug_infs", "jax_log_compiles", "jax_explain_cache_misses", "jax_check_tracer_leaks",
]  # fmt: skip


# The options that are not booleans.
_OtherOption = Literal[
    "jax_num_cpu_devices", "jax_compilation_cache_dir",
    "jax_persistent_cache_min_compile_time_secs", "jax_persistent_cache_min_entry_size_bytes",
    "jax_compilation_cache_max_size",
]  # fmt: skip


@final
class Config:
    """The set of global options; read them as attributes, set them with
    :meth:`update`.

    Example:
        >>> import jaxtyped as jt
        >>> jt.config.update("jax_enable_x64", False)
        >>> jt.config.jax_enable_x64
        False
    """

    __slots__ = ("_values", "_trace_state", "_dispatch_state", "_num_cpu_devices", "_backend_started", "_cache_dir", "_cache_min_secs", "_cache_min_bytes", "_cache_max_size")

    def __init__(self) -> None:
        self._values: dict[str, bool] = {option.name: _env_bool(option) for option in _OPTIONS}
        self._trace_state = self._compute_trace_state()
        self._dispatch_state = self._compute_dispatch_state()
        self._num_cpu_devices = _env_num_cpu_devices()
        self._backend_started = False
        # The persistent compilation cache (issue 19): runtime/compile_cache.py.
        self._cache_dir: str | None = os.environ.get("JAX_COMPILATION_CACHE_DIR") or None
        self._cache_min_secs = 1.0  # JAX's default: only programs that took a second to compile
        self._cache_min_bytes = 0
        self._cache_max_size = -1  # bytes; -1: no bound, 0: no cache (JAX's meaning)

    # --- the persistent compilation cache (issue 19) ---

    @property
    def jax_compilation_cache_dir(self) -> str | None:
        """Where compiled programs are saved and loaded across processes
        (None: no persistent cache; env ``JAX_COMPILATION_CACHE_DIR``)."""
        return self._cache_dir

    @property
    def jax_persistent_cache_min_compile_time_secs(self) -> float:
        """Only programs that took at least this long to compile are saved (default 1.0)."""
        return self._cache_min_secs

    @property
    def jax_persistent_cache_min_entry_size_bytes(self) -> int:
        """Only serialized programs at least this large are saved (default 0)."""
        return self._cache_min_bytes

    @property
    def jax_compilation_cache_max_size(self) -> int:
        """The persistent cache's size bound in bytes: least recently used
        entries are deleted past it (-1, the default: no bound; 0: off)."""
        return self._cache_max_size

    @property
    def jax_enable_x64(self) -> bool:
        """Whether 64-bit types are enabled (default: False)."""
        scoped = _SCOPED.get()
        if scoped is None:
            return self._values["jax_enable_x64"]
        return scoped.get("jax_enable_x64", self._values["jax_enable_x64"])

    @property
    def jax_enable_checks(self) -> bool:
        """Whether every jaxpr a transformation produces is type-checked."""
        scoped = _SCOPED.get()
        if scoped is None:
            return self._values["jax_enable_checks"]
        return scoped.get("jax_enable_checks", self._values["jax_enable_checks"])

    @property
    def jax_disable_jit(self) -> bool:
        """Whether ``jit`` runs functions as plain Python instead of compiling."""
        scoped = _SCOPED.get()
        if scoped is None:
            return self._values["jax_disable_jit"]
        return scoped.get("jax_disable_jit", self._values["jax_disable_jit"])

    @property
    def jax_threefry_partitionable(self) -> bool:
        """Whether random bits hash each element's own index (default: True, as JAX 0.10)."""
        scoped = _SCOPED.get()
        if scoped is None:
            return self._values["jax_threefry_partitionable"]
        return scoped.get("jax_threefry_partitionable", self._values["jax_threefry_partitionable"])

    @property
    def jax_softmax_custom_jvp(self) -> bool:
        """Whether ``nn.softmax`` has its own derivative rule (default: False, as JAX 0.10)."""
        scoped = _SCOPED.get()
        if scoped is None:
            return self._values["jax_softmax_custom_jvp"]
        return scoped.get("jax_softmax_custom_jvp", self._values["jax_softmax_custom_jvp"])

    @property
    def jax_debug_nans(self) -> bool:
        """Whether a jitted function's NaN output raises FloatingPointError."""
        scoped = _SCOPED.get()
        if scoped is None:
            return self._values["jax_debug_nans"]
        return scoped.get("jax_debug_nans", self._values["jax_debug_nans"])

    @property
    def jax_debug_infs(self) -> bool:
        """Whether a jitted function's inf output raises FloatingPointError."""
        scoped = _SCOPED.get()
        if scoped is None:
            return self._values["jax_debug_infs"]
        return scoped.get("jax_debug_infs", self._values["jax_debug_infs"])

    # --- several devices (issue 17): the one integer option ---

    @property
    def jax_num_cpu_devices(self) -> int:
        """How many CPU devices the backend creates (-1: jaxlib's default, one
        unless ``XLA_FLAGS`` says otherwise); set it before the first use."""
        return self._num_cpu_devices

    def freeze_num_cpu_devices(self) -> None:
        """Called by the runtime when it creates its client: later updates of
        ``jax_num_cpu_devices`` raise, as in JAX."""
        self._backend_started = True

    @overload
    def update(self, name: OptionName, value: bool) -> None: ...
    @overload
    def update(
        self,
        name: Literal["jax_num_cpu_devices", "jax_persistent_cache_min_entry_size_bytes", "jax_compilation_cache_max_size"],
        value: int,
    ) -> None: ...
    @overload
    def update(self, name: Literal["jax_compilation_cache_dir"], value: str | None) -> None: ...
    @overload
    def update(self, name: Literal["jax_persistent_cache_min_compile_time_secs"], value: float) -> None: ...
    def update(self, name: OptionName | _OtherOption, value: bool | int | float | str | None) -> None:
        """Set option ``name`` to ``value`` for the whole process.

        Raises:
            JaxtypedValueError: ``name`` is not an option, or ``value`` is
                not a bool (an int for ``jax_num_cpu_devices``, ...).
            RuntimeError: ``jax_num_cpu_devices`` after the backend started.
        """
        if name == "jax_num_cpu_devices":
            self._update_num_cpu_devices(value)
            return
        if name == "jax_compilation_cache_dir":
            if value is not None and not isinstance(value, str):
                raise JaxtypedValueError(f"config.update({name!r}, ...): value must be a str or None, got {value!r}")
            self._cache_dir = value or None
            return
        if name == "jax_persistent_cache_min_compile_time_secs":
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise JaxtypedValueError(f"config.update({name!r}, ...): value must be a number >= 0, got {value!r}")
            self._cache_min_secs = float(value)
            return
        if name == "jax_persistent_cache_min_entry_size_bytes":
            if isinstance(value, bool) or not isinstance(value, int):
                raise JaxtypedValueError(f"config.update({name!r}, ...): value must be an int, got {value!r}")
            self._cache_min_bytes = value
            return
        if name == "jax_compilation_cache_max_size":
            if isinstance(value, bool) or not isinstance(value, int) or value < -1:
                raise JaxtypedValueError(f"config.update({name!r}, ...): value must be an int >= -1, got {value!r}")
            self._cache_max_size = value
            return
        option = _find_option(name)
        _check_bool(name, value)
        self._values[option.name] = bool(value)
        self._trace_state = self._compute_trace_state()
        self._dispatch_state = self._compute_dispatch_state()

    def _update_num_cpu_devices(self, value: object) -> None:
        if isinstance(value, bool) or not isinstance(value, int) or (value < 1 and value != -1):
            raise JaxtypedValueError(
                f"config.update('jax_num_cpu_devices', ...): value must be a positive int (or -1), got {value!r}"
            )
        if self._backend_started:
            raise RuntimeError(
                "jax_num_cpu_devices config should be updated before backends are initialized i.e. before "
                "any jaxtyped operation is executed. Set it immediately after `import jaxtyped`."
            )
        self._num_cpu_devices = value

    def values(self) -> dict[str, bool]:
        """Every option's current value in this context, by name."""
        scoped = _SCOPED.get()
        if scoped is None:
            return dict(self._values)
        return {**self._values, **scoped}

    def scoped(self, name: OptionName, value: bool) -> AbstractContextManager[None]:
        """A context manager setting option ``name`` to ``value`` in the
        current thread/context only (see Note [scoped options]); other
        threads keep the global value.

        Raises:
            JaxtypedValueError: ``name`` is not a boolean option, or
                ``value`` is not a bool.
        """
        option = _find_option(name)
        _check_bool(name, value)
        return _scope(option.name, value)

    def trace_state(self) -> TraceState:
        """The values of the options that change what tracing produces
        (in this context), and the other context tracing reads (the mesh
        context: :func:`set_trace_context`).

        Caches of traced programs include this tuple in their keys.
        """
        scoped = _SCOPED.get()
        extra = _TRACE_CONTEXT.get()
        if scoped is None:
            state = self._trace_state
        else:
            state = tuple(scoped.get(option.name, self._values[option.name]) for option in _OPTIONS if option.affects_tracing)
        return state if extra is None else (*state, extra)

    def _compute_trace_state(self) -> TraceState:
        return tuple(self._values[option.name] for option in _OPTIONS if option.affects_tracing)

    def dispatch_state(self) -> tuple[bool, bool, TraceState]:
        """What a jitted call reads on every dispatch, in one read (issue
        19): whether jit is disabled, whether outputs are checked for
        NaN/inf (``jax_debug_nans`` or ``jax_debug_infs``), and
        :meth:`trace_state`; in this context."""
        if _SCOPED.get() is None and _TRACE_CONTEXT.get() is None:
            return self._dispatch_state
        return (self.jax_disable_jit, self.jax_debug_nans or self.jax_debug_infs, self.trace_state())

    def _compute_dispatch_state(self) -> tuple[bool, bool, TraceState]:
        values = self._values
        return (values["jax_disable_jit"], values["jax_debug_nans"] or values["jax_debug_infs"], self._trace_state)


# The current context's overrides (None: no ``with`` block active).
_SCOPED: Final[ContextVar[dict[str, bool] | None]] = ContextVar("jaxtyped_scoped_config", default=None)

# Context outside the options that tracing reads (the mesh bare
# PartitionSpecs and get_abstract_mesh() refer to): None when there is none,
# so the common case keeps the cached state tuples.
_TRACE_CONTEXT: Final[ContextVar[Hashable | None]] = ContextVar("jaxtyped_trace_context", default=None)


def set_trace_context(key: Hashable | None) -> None:
    """Record, in this context, a hashable description of context that
    tracing reads besides the options (its owner calls this whenever that
    context changes; None when it is empty): :meth:`Config.trace_state`,
    and so every trace cache's key, includes it, so a function traced under
    one mesh is traced again under another, as in JAX."""
    _TRACE_CONTEXT.set(key)


@contextmanager
def _scope(name: str, value: bool) -> Generator[None, None, None]:
    token = _SCOPED.set({**(_SCOPED.get() or {}), name: value})
    try:
        yield
    finally:
        _SCOPED.reset(token)


def _check_bool(name: str, value: object) -> None:
    if not isinstance(value, bool):
        raise JaxtypedValueError(
            f"config.update({name!r}, ...): value must be a bool, got {type(value).__name__} {value!r}"
        )


def _env_num_cpu_devices() -> int:
    raw = os.environ.get("JAX_NUM_CPU_DEVICES", "").strip()
    if not raw:
        return -1
    try:
        value = int(raw)
    except ValueError:
        raise JaxtypedValueError(f"environment variable JAX_NUM_CPU_DEVICES={raw!r} is not an integer") from None
    return value if value >= 1 else -1


def _find_option(name: object) -> _BoolOption:
    for option in _OPTIONS:
        if option.name == name:
            return option
    known = ", ".join([*(option.name for option in _OPTIONS), *get_args(_OtherOption)])
    raise JaxtypedValueError(f"config.update: unknown option {name!r}; known options: {known}")


config: Final = Config()
