"""JAX's top-level configuration states (layer L5): ``jaxtyped.enable_x64``,
``jaxtyped.debug_nans``, ``jaxtyped.default_matmul_precision``, ...

Each state reads its option (``state.value``) and, called with a new value,
is a context manager that sets the option for the duration of a ``with``
block (``with jt.enable_x64(True): ...``), as JAX's ``State`` objects.

Note [config states are scoped]: as JAX's, a state's ``with`` block sets
its value for the current thread/context only (a ContextVar; see Note
[scoped options] in ``jaxtyped._src.config``); other threads keep the
global value.

Which states act: ``enable_x64``, ``enable_checks``,
``threefry_partitionable``, ``softmax_custom_jvp`` change tracing as their
``config`` options do;
``debug_nans``/``debug_infs`` make jitted functions check their outputs.
The others are recorded and readable but jaxtyped does not act on them;
each one's docstring says so.
"""

import os
from collections.abc import Callable, Generator, Sequence
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar
from typing import Final, Generic, Literal, TypeVar, final

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.config import OptionName, config
from jaxtyped._src.core.array import Array
from jaxtyped._src.errors import JaxtypedValueError
from jaxtyped._src.runtime import xla

__all__ = [
    "BoolState",
    "ValueState",
    "enable_x64",
    "enable_checks",
    "threefry_partitionable",
    "softmax_custom_jvp",
    "debug_nans",
    "debug_infs",
    "log_compiles",
    "explain_cache_misses",
    "check_tracer_leaks",
    "checking_leaks",
    "default_matmul_precision",
    "numpy_rank_promotion",
    "numpy_dtype_promotion",
    "default_device",
    "default_prng_impl",
    "transfer_guard",
    "transfer_guard_host_to_device",
    "transfer_guard_device_to_device",
    "transfer_guard_device_to_host",
    "check_nonfinite",
]

V = TypeVar("V")


@final
class BoolState:
    """A boolean option of ``jaxtyped.config`` as a JAX ``State``: ``.value``
    reads it, ``state(True)`` is a context manager setting it."""

    def __init__(self, name: OptionName, doc: str) -> None:
        self.name: Final = name
        self.__doc__ = doc

    @property
    def value(self) -> bool:
        """The option's current value."""
        return config.values()[self.name]

    @contextmanager
    def __call__(self, new_val: bool = True) -> Generator[None, None, None]:
        """Set the option to ``new_val`` inside a ``with`` block."""
        if not isinstance(new_val, bool):  # pyright: ignore[reportUnnecessaryIsInstance]  # checked at run time too
            raise JaxtypedValueError(f"{self.name}: value must be a bool, got {type(new_val).__name__} {new_val!r}")
        with config.scoped(self.name, new_val):
            yield

    def __repr__(self) -> str:
        return f"State({self.name}={self.value})"


@final
class ValueState(Generic[V]):
    """A non-boolean JAX option that jaxtyped records but does not act on:
    ``.value`` reads it, ``state(v)`` is a context manager setting it."""

    def __init__(self, name: str, default: V, check: Callable[[object], bool], doc: str) -> None:
        self.name: Final = name
        self._default = default
        # The current context's value as a 1-tuple (None: the default), so
        # that a scoped None differs from no scope.
        self._scoped: ContextVar[tuple[V] | None] = ContextVar(name, default=None)
        self._check = check
        self.__doc__ = doc

    @property
    def value(self) -> V:
        """The option's current value (in this thread/context)."""
        scoped = self._scoped.get()
        return self._default if scoped is None else scoped[0]

    @contextmanager
    def __call__(self, new_val: V) -> Generator[None, None, None]:
        """Set the option to ``new_val`` inside a ``with`` block, in the
        current thread/context only."""
        if not self._check(new_val):
            raise JaxtypedValueError(f"{self.name}: invalid value {new_val!r}")
        token = self._scoped.set((new_val,))
        try:
            yield
        finally:
            self._scoped.reset(token)

    def __repr__(self) -> str:
        return f"State({self.name}={self.value!r})"


enable_x64: Final = BoolState("jax_enable_x64", "Enable 64-bit types (float64, int64, complex128) in a block.")
enable_checks: Final = BoolState("jax_enable_checks", "Type-check every jaxpr a transformation produces, in a block.")
threefry_partitionable: Final = BoolState(
    "jax_threefry_partitionable", "Hash each random element's own index (JAX 0.10's default counter layout)."
)
softmax_custom_jvp: Final = BoolState(
    "jax_softmax_custom_jvp", "Differentiate nn.softmax by its own rule, not as its composition (JAX's default), in a block."
)
debug_nans: Final = BoolState(
    "jax_debug_nans",
    "Raise FloatingPointError when a jitted function returns a NaN (jaxtyped checks the outputs "
    "of each jitted call; JAX also re-runs the function op by op to name the operation).",
)
debug_infs: Final = BoolState(
    "jax_debug_infs", "Raise FloatingPointError when a jitted function returns an inf (outputs only, as debug_nans)."
)
log_compiles: Final = BoolState("jax_log_compiles", "Accepted for JAX compatibility; jaxtyped does not log compilations.")
explain_cache_misses: Final = BoolState(
    "jax_explain_cache_misses", "Accepted for JAX compatibility; jaxtyped does not explain jit cache misses."
)
check_tracer_leaks: Final = BoolState(
    "jax_check_tracer_leaks", "Accepted for JAX compatibility; jaxtyped does not check for leaked tracers."
)


def checking_leaks() -> AbstractContextManager[None]:
    """``check_tracer_leaks(True)`` (JAX's ``jax.checking_leaks``); not acted on."""
    return check_tracer_leaks(True)


def _one_of(*allowed: object) -> Callable[[object], bool]:
    return lambda v: v in allowed


_PRECISIONS: Final = ("bfloat16", "tensorfloat32", "float32", "highest", "high", "default", "fastest", "ANY_F8_ANY_F8_F32")
_GUARD_LEVELS: Final = ("allow", "log", "disallow", "log_explicit", "disallow_explicit")

default_matmul_precision: Final[ValueState[str | None]] = ValueState(
    "jax_default_matmul_precision",
    None,
    lambda v: v is None or v in _PRECISIONS,
    "The default precision of matmuls and convolutions. Recorded only: jaxtyped's CPU "
    "computations always run at full precision.",
)
numpy_rank_promotion: Final[ValueState[Literal["allow", "warn", "raise"]]] = ValueState(
    "jax_numpy_rank_promotion",
    "allow",
    _one_of("allow", "warn", "raise"),
    "Whether implicit rank promotion in jaxtyped.numpy is allowed. Recorded only: jaxtyped always allows it.",
)
numpy_dtype_promotion: Final[ValueState[Literal["standard", "strict"]]] = ValueState(
    "jax_numpy_dtype_promotion",
    "standard",
    _one_of("standard", "strict"),
    "The dtype promotion mode. Recorded only: jaxtyped always promotes by JAX's standard lattice.",
)
default_device: Final[ValueState[object]] = ValueState(
    "jax_default_device",
    None,
    lambda v: True,
    "The device arrays are placed on by default. Recorded only: jaxtyped places them on the first device.",
)
default_prng_impl: Final[ValueState[str]] = ValueState(
    "jax_default_prng_impl",
    "threefry2x32",
    _one_of("threefry2x32"),
    "The default PRNG implementation: only threefry2x32 exists in jaxtyped.",
)
transfer_guard_host_to_device: Final[ValueState[str | None]] = ValueState(
    "jax_transfer_guard_host_to_device",
    None,
    lambda v: v is None or v in _GUARD_LEVELS,
    "Guard level for host-to-device transfers. Recorded only: jaxtyped does not guard transfers.",
)
transfer_guard_device_to_device: Final[ValueState[str | None]] = ValueState(
    "jax_transfer_guard_device_to_device",
    None,
    lambda v: v is None or v in _GUARD_LEVELS,
    "Guard level for device-to-device transfers. Recorded only: jaxtyped does not guard transfers.",
)
transfer_guard_device_to_host: Final[ValueState[str | None]] = ValueState(
    "jax_transfer_guard_device_to_host",
    None,
    lambda v: v is None or v in _GUARD_LEVELS,
    "Guard level for device-to-host transfers. Recorded only: jaxtyped does not guard transfers.",
)


@contextmanager
def transfer_guard(new_val: str) -> Generator[None, None, None]:
    """Set the guard level of every kind of transfer in a block (JAX's
    ``jax.transfer_guard``). Recorded only: jaxtyped does not guard transfers."""
    with transfer_guard_host_to_device(new_val), transfer_guard_device_to_device(new_val), transfer_guard_device_to_host(new_val):
        yield


def check_nonfinite(name: str, outs: Sequence[Array]) -> None:
    """Raise ``FloatingPointError`` naming jitted function ``name`` if an
    inexact output has a NaN (``debug_nans`` on) or an inf (``debug_infs``
    on). Only outputs are checked; JAX also re-runs the function op by op to
    name the operation that produced the value."""
    for i, out in enumerate(outs):
        if not dtypes.issubdtype(out.dtype, np.inexact):
            continue
        value = np.asarray(out)
        if config.jax_debug_nans and np.isnan(value).any():
            raise FloatingPointError(f"invalid value (nan) encountered in output {i} of jitted function {name}")
        if config.jax_debug_infs and np.isinf(value).any():
            raise FloatingPointError(f"divide by zero (inf) encountered in output {i} of jitted function {name}")


def set_cache_dir(path: str | os.PathLike[str] | None) -> None:
    """Save compiled programs under ``path`` and look for them there before
    compiling (JAX's ``jax.experimental.compilation_cache.compilation_cache.set_cache_dir``):
    ``config.update("jax_compilation_cache_dir", path)``; None turns the
    cache off. A ``pathlib.Path`` is taken too (JAX takes only a str).
    Loading a saved program runs code from it: use a directory only this
    user can write.

    Raises:
        JaxtypedValueError: ``path`` is not a str, a path or None (JAX's
            config raises ValueError).
    """
    if path is None or isinstance(path, str):
        directory = path
    else:
        try:
            directory = os.fspath(path)
        except TypeError:  # not a path: the annotation is not enforced outside the debug mode
            raise JaxtypedValueError(
                f"set_cache_dir: path must be a str, an os.PathLike of str or None; got {type(path).__name__}"
            ) from None
    config.update("jax_compilation_cache_dir", directory)


def reset_cache() -> None:
    """Return the persistent compilation cache to its state at start-up
    (JAX's ``reset_cache``): the next compile that uses it counts this
    process as a task using the cache again. The directory setting and
    the saved programs are kept."""
    xla.reset_persistent_cache_use()
