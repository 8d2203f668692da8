"""Programs that call back into Python, and the runtime tokens of ordered
effects (layer L3; issue 16, JEP 10657).

A lowered module with host callbacks (``LoweredModule.host_callbacks``)
compiles through jaxlib's FFI callback target: each custom call names its
Python function by index, and jaxlib calls it with the operands' host
buffers while the program runs (on CPU, on the dispatching thread).

Note [runtime tokens]: a program with ordered effects takes a token first
and returns one first. The runtime keeps the last returned token (one
device: one token) and feeds it to the next ordered program, so ordered
effects happen in program order across calls, as the JEP describes. Every
program with callbacks is also run to completion before ``execute``
returns: an exception in a callback then reaches the caller of the jitted
function as a :class:`CallbackError` (never a crash, a hang or a silently
broken result buffer), and the output token of every effectful program is
already waited for, so :func:`effects_barrier` has nothing left to wait on
but is kept for programs that a future asynchronous runtime leaves running.
"""

import threading
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Final, final

import numpy as np

from jaxtyped._src.core.array_impl import DeviceBuffer
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.errors import CallbackError
from jaxtyped._src.lowering import HostCallback, LoweredModule
from jaxtyped._src.runtime import xla

from jaxlib._jax import ResultHandler  # noqa: E402  # after xla: it checks the jaxlib version first

__all__ = ["compile_lowered", "effects_barrier", "clear_callback_cache"]

_TOKEN_AVAL: Final = ShapedArray((0,), np.dtype(np.bool_))


@final
class _RuntimeTokens:
    """The ordered-effect token to feed the next ordered program, and the
    lock that keeps the read-execute-update of that token atomic across
    threads (reentrant: a callback may itself run an ordered program)."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self._ordered: DeviceBuffer | None = None

    def ordered(self) -> DeviceBuffer:
        """The token to pass (a ``bool[0]`` device array at first, as JAX's)."""
        if self._ordered is None:
            self._ordered = xla.put(np.zeros(0, np.bool_), _TOKEN_AVAL)
        return self._ordered

    def set_ordered(self, token: DeviceBuffer) -> None:
        self._ordered = token

    def wait(self) -> None:
        token = self._ordered
        if token is not None:
            token.block_until_ready()


_tokens = _RuntimeTokens()


def effects_barrier() -> None:
    """Wait until every effect of the programs dispatched so far happened."""
    with _tokens.lock:
        _tokens.wait()


@final
class _CallbackExecutable:
    """An executable whose program calls Python functions (see the module
    docstring); it satisfies :class:`xla.Executable`."""

    __slots__ = ("_loaded", "in_avals", "out_avals", "_handlers", "_ordered", "_callbacks", "_errors")

    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]

    def __init__(self, lowered: LoweredModule) -> None:
        self.in_avals = lowered.in_avals
        self.out_avals = lowered.out_avals
        self._ordered = lowered.ordered_effects
        self._callbacks = lowered.host_callbacks
        # The exceptions callbacks raised, per thread that ran the program.
        self._errors = threading.local()
        entries = [self._entry(callback) for callback in lowered.host_callbacks]
        self._loaded = xla.compile_with_host_callbacks(lowered.text, entries)
        handlers: list[ResultHandler] = [
            xla.result_handler(aval) for aval in lowered.out_avals
        ]
        if self._ordered:
            # An array handler, not a plain callable: jaxlib builds a callable's
            # per-device arrays through an import of jax (runtime/xla.py, Note
            # [reading shards without jax]); the token buffer is passed back as is.
            handlers.insert(0, xla.result_handler(_TOKEN_AVAL))
        self._handlers = handlers

    def _entry(self, callback: HostCallback) -> Callable[..., tuple[object, ...]]:
        """What jaxlib calls: host buffers (and ``None`` for a token) in, a
        tuple of results (the token first) out."""
        errors = self._errors

        def entry(*operands: object) -> tuple[object, ...]:
            values = operands[1:] if callback.uses_token else operands
            try:
                # Copies: jaxlib's buffers live only during this call, and the
                # callback may keep what it is given.
                outs = callback.fun(tuple(np.array(v) for v in values))
            except BaseException as err:
                errors.raised = (callback.name, err)
                raise
            return (None, *outs) if callback.uses_token else tuple(outs)

        return entry

    def execute(self, buffers: Sequence[DeviceBuffer]) -> Sequence[DeviceBuffer]:
        """Run on ``buffers`` to completion (see the module docstring)."""
        self._errors.raised = None
        with _tokens.lock:
            args = list(buffers)
            if self._ordered:
                args.insert(0, _tokens.ordered())
            try:
                results = self._loaded.execute_sharded(
                    args,  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # DeviceBuffer is the runtime-neutral protocol; these are jaxlib arrays
                    with_tokens=True,
                )
                outs: list[DeviceBuffer] = list(results.consume_with_handlers(self._handlers))
                results.consume_token().block_until_ready()
            except Exception as err:  # jaxlib's JaxRuntimeError
                error, cause = self._translate(err)
                raise error from cause
            if self._ordered:
                _tokens.set_ordered(outs.pop(0))
        return outs

    def _translate(self, err: Exception) -> tuple[Exception, BaseException]:
        """The error to raise for a failed run, and its cause: the
        exception the callback raised (through jaxlib's report of it)."""
        raised: tuple[str, BaseException] | None = getattr(self._errors, "raised", None)
        self._errors.raised = None
        if raised is None:
            return RuntimeError(f"a program with host callbacks failed: {err}"), err
        name, cause = raised
        if isinstance(cause, CallbackError):
            # Already explained (a wrong result, or the user's exception as its cause).
            return CallbackError(str(cause)), cause.__cause__ or cause
        return CallbackError(f"{name}: the callback raised {type(cause).__name__}: {cause}"), cause

    def hlo_text(self) -> str:
        """The optimized HLO XLA compiled (for inspection)."""
        return "\n".join(str(m.to_string()) for m in self._loaded.hlo_modules())

    def cost_analysis(self) -> dict[str, float]:
        """XLA's cost estimates (numeric entries only)."""
        return {str(k): float(v) for k, v in self._loaded.cost_analysis().items() if isinstance(v, (int, float))}


_CACHE_SIZE: Final = 256
_cache: "OrderedDict[tuple[str, tuple[HostCallback, ...]], xla.Executable]" = OrderedDict()
_cache_lock = threading.Lock()


def compile_lowered(lowered: LoweredModule) -> xla.Executable:
    """The executable of ``lowered``: through the plain compile cache when
    it calls no Python function, else with its host callbacks (cached by
    text and callbacks)."""
    if not lowered.host_callbacks:
        return xla.compile_module(lowered.text, lowered.in_avals, lowered.out_avals)
    key = (lowered.text, lowered.host_callbacks)
    with _cache_lock:
        hit = _cache.get(key)
        if hit is not None:
            _cache.move_to_end(key)
            return hit
    executable: xla.Executable = _CallbackExecutable(lowered)
    with _cache_lock:
        _cache[key] = executable
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return executable


def clear_callback_cache() -> None:
    """Drop every cached executable with host callbacks."""
    with _cache_lock:
        _cache.clear()


xla.on_mapping_pressure(clear_callback_cache)
