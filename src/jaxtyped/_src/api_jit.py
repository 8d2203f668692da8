"""``jit``: compile a function through XLA (layer L5).

``jit(f)`` returns a :class:`Jitted` object with ``f``'s static signature.
Calling it:

1. splits the arguments into static ones (hashed into the cache key) and
   dynamic pytrees, whose leaves become the compiled program's inputs;
2. looks the signature up in a bounded per-function cache; a miss traces
   ``f`` to a jaxpr (a *retrace*) and the first eager call compiles it;
3. at the top level, runs the executable directly (the dispatch fast
   path); under a transformation, binds the ``jit`` call primitive so the
   enclosing interpreter handles it (see :mod:`jaxtyped._src.pjit`).

The cache key is the tree structure of the dynamic arguments, their avals
(shape, dtype, weak type), the static arguments, and the config options
that change tracing (``jax_enable_x64``). :meth:`Jitted.cache_info` exposes
hits, misses and the size, so tests can prove when retracing happens.
"""

import functools
import math
import threading
import types
import weakref
from collections import OrderedDict
from collections.abc import Callable, Generator, Hashable, Iterable, Mapping, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any, Final, Generic, NamedTuple, TypeVar, cast, final, overload

import numpy as np
import typing_extensions
from typing_extensions import Concatenate, ParamSpec, Self

from jaxtyped._src.api_jit_refs import RefJitState, call_with_refs, has_ref_leaf, stage_with_refs
from jaxtyped._src.state.types import RefsTouched
from jaxtyped._src.api_util import (
    ShapeDtypeStruct,
    SpecTree,
    arg_names,
    check_callable,
    flatten_with_names,
    input_aval,
    leaf_to_array,
)
from jaxtyped._src.config import TraceState, config
from jaxtyped._src.monitoring import JAXPR_TO_MLIR_MODULE_EVENT, JAXPR_TRACE_EVENT, compiling, timed_event
from jaxtyped._src.api_config import check_nonfinite
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import (
    ArrayImpl,
    DeviceBuffer,
    array_from_device,
    array_from_numpy,
    array_from_scalar,
    device_buffer,
    is_python_scalar,
    numpy_aval,
    shared_numpy_constants,
)
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.check import maybe_check_jaxpr
from jaxtyped._src.core.interpreter import CURRENT_INTERPRETER, EVAL, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr
from jaxtyped._src.core.shape_annotations import SignatureChecker, checker_for
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.interpreters.partial_eval import dce_jaxpr
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lowering import LoweredModule, lower_jaxpr
from jaxtyped._src.remat import clear_checkpoint_caches
from jaxtyped._src.pjit import (
    clear_call_caches, consts_as_invars, consume_donated, donation_buffers, executable_for, jit_call, run_executable,
)  # fmt: skip
from jaxtyped._src.runtime import xla
from jaxtyped._src.api_sharding import (
    ShardingsArg, SpmdPlan, SpmdProgram, SpmdRequest, clear_program_cache, execute_spmd, plan_spmd, spmd_request,
)
from jaxtyped._src.runtime import host_callbacks
from jaxtyped._src.tree_util import PyTreeDef, builtin_containers_only, tree_flatten, tree_unflatten
from jaxtyped._src.util import check_argnames, describe_function, match_static, normalize_argnames

__all__ = ["jit", "Jitted", "Traced", "Lowered", "Compiled", "CacheInfo", "OutInfo", "disable_jit", "clear_caches"]

P = ParamSpec("P")
P2 = ParamSpec("P2")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)
R2 = TypeVar("R2")
S = TypeVar("S")


@final
class _FactoryForm:
    """What mypy takes ``jit``'s result type to be when ``fun`` is omitted
    (see Note [jit's decorator-factory form]); never instantiated."""


# jit's result type: _FactoryForm where no function gives it.
R_fun = typing_extensions.TypeVar("R_fun", default=_FactoryForm)

# A Jitted's shape checker before its first trace looks for one.
_UNKNOWN: Final = object()

# Per-function bound on cached signatures (JAX uses the same order of
# magnitude); the least recently used entry is evicted first.
DEFAULT_CACHE_SIZE: Final = 4096
# Per-function bound on the dispatch memo's keys (Note [the dispatch memo]).
_DISPATCH_MEMO_SIZE: Final = 64


class CacheInfo(NamedTuple):
    """Statistics of one jitted function's trace cache.

    ``misses`` counts traces (each miss retraces the Python function).
    """

    hits: int
    misses: int
    size: int
    maxsize: int


@contextmanager
def disable_jit(disable: bool = True) -> Generator[None, None, None]:
    """Run jitted functions as plain Python inside the block (for
    debugging with prints and breakpoints), as JAX's ``disable_jit``; in
    the current thread only (see Note [scoped options] in ``config``)."""
    with config.scoped("jax_disable_jit", disable):
        yield


_live_jitted: "weakref.WeakSet[Jitted[Any, Any]]" = weakref.WeakSet()


class _SharedTraces:
    """The traced signatures of one function under one set of jit options,
    least recently used first (see Note [traces shared by function])."""

    __slots__ = ("entries", "lock", "size")

    def __init__(self, size: int) -> None:
        self.entries: OrderedDict[Hashable, _Entry] = OrderedDict()
        self.lock = threading.Lock()
        self.size = size

    def get(self, key: Hashable) -> "_Entry | None":
        """The entry traced for ``key`` by any jit of the function, or None."""
        with self.lock:
            entry = self.entries.get(key)
            if entry is not None:
                self.entries.move_to_end(key)
            return entry

    def put(self, key: Hashable, entry: "_Entry") -> None:
        """Keep ``entry`` for the other jits of the function."""
        with self.lock:
            self.entries[key] = entry
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)

    def clear(self) -> None:
        """Forget every entry."""
        with self.lock:
            self.entries.clear()


# Note [traces shared by function]: JAX keys its trace and compile caches on
# the function (weakly), so ``jax.jit(f)(x)`` written inline, a new jitted
# object each call, traces and compiles ``f`` once. Each Jitted here keeps
# its own cache and dispatch memos (its cache_info counts the signatures it
# has not seen as misses), but before tracing it looks in the traces that
# every Jitted of the same plain Python function with equal options shares
# (before, the inline form retraced and relowered on every call: 1.06 ms
# against JAX's 0.15 ms). clear_cache() clears the shared traces too. Only
# plain functions are shared: they compare by identity, where a callable
# object's __eq__ could make two different functions one key; a function
# that is collected takes its traces with it, as in JAX.
_shared_traces: "weakref.WeakKeyDictionary[Callable[..., Any], dict[Hashable, _SharedTraces]]" = weakref.WeakKeyDictionary()
_shared_traces_lock = threading.Lock()


def _traces_for(fun: Callable[..., Any], options: Hashable, size: int) -> _SharedTraces | None:
    """The shared traces of ``fun`` under ``options`` (Note [traces shared
    by function]); None unless ``fun`` is a plain function and the options
    hash."""
    if type(fun) is not types.FunctionType:
        return None
    try:
        hash(options)
    except TypeError:  # shardings given as lists or dicts
        return None
    with _shared_traces_lock:
        per_options = _shared_traces.get(fun)
        if per_options is None:
            per_options = _shared_traces[fun] = {}
        shared = per_options.get(options)
        if shared is None:
            shared = per_options[options] = _SharedTraces(size)
        return shared


def clear_caches() -> None:
    """Drop every trace and compilation cache (JAX's ``jax.clear_caches``):
    each jitted function retraces and recompiles on its next call."""
    for jitted in list(_live_jitted):
        jitted.clear_cache()
    with _shared_traces_lock:
        for per_options in list(_shared_traces.values()):
            for shared in per_options.values():
                shared.clear()
        _shared_traces.clear()
    _SCALAR_ARRAYS.clear()
    clear_checkpoint_caches()
    clear_call_caches()
    clear_program_cache()
    xla.clear_compile_cache()
    host_callbacks.clear_callback_cache()


xla.on_mapping_pressure(clear_caches)


@final
class _Entry:
    """One traced signature: the jaxpr and everything needed to run it.

    ``executable`` is compiled on the first eager call; ``cacheable`` is
    False when the jaxpr closes over tracers of an enclosing trace.
    """

    __slots__ = (
        "closed", "out_tree", "donated", "cacheable", "executable", "single_output", "any_donated",
        "out_avals", "spmd", "kept", "run_donated", "last_use", "run", "const_buffers", "bare",
        "launcher", "out_containers",
    )  # fmt: skip

    def __init__(
        self,
        closed: ClosedJaxpr[Array],
        out_tree: PyTreeDef,
        donated: tuple[bool, ...],
        cacheable: bool,
        kept: tuple[int, ...] | None = None,
    ) -> None:
        self.closed = closed
        self.out_tree = out_tree
        self.donated = donated  # per dynamic leaf
        self.cacheable = cacheable
        # The dynamic leaves the compiled program takes (None: all); see
        # Note [keep_unused].
        self.kept = kept
        self.run_donated = _kept_items(donated, kept)
        self.executable: xla.Executable | None = None
        # A bare array result needs no unflattening (the dispatch fast path).
        self.single_output = out_tree.num_leaves == 1 and out_tree.num_nodes == 1
        self.any_donated = any(self.run_donated)
        self.out_avals = closed.jaxpr.out_avals
        # Set when the call runs over a mesh (issue 17, see api_sharding).
        self.spmd: SpmdRequest | None = None
        # The owner's clock at the last call (the cache evicts the least recently used).
        self.last_use = 0
        # Set once compiled, for the dispatch memo (see Note [the dispatch memo]).
        self.run: Callable[[Sequence[DeviceBuffer]], Sequence[DeviceBuffer]] | None = None
        self.const_buffers: list[DeviceBuffer] = []
        # jaxlib's entry point, for an entry of one result, no constants and
        # every leaf passed: the dispatch memo's shortest path (set with ``run``).
        self.bare: xla.Launcher | None = None
        # jaxlib's entry point of the compiled program, for any entry (set with ``run``).
        self.launcher: xla.Launcher | None = None
        # The result's structure in jaxlib's C++ form, when it is made of
        # builtin containers only: memo hits rebuild it there (set with ``run``).
        self.out_containers: xla.ContainerTree | None = None


@final
class _Signature:
    """A call's arguments split into static values and dynamic leaves."""

    __slots__ = ("key", "leaves", "avals", "tree", "names", "static_args", "donated")

    def __init__(
        self,
        key: Hashable,
        leaves: list[object],
        avals: tuple[ShapedArray, ...],
        tree: PyTreeDef,
        names: list[str],
        static_args: dict[int | str, object],
        donated: tuple[bool, ...],
    ) -> None:
        self.key = key
        self.leaves = leaves
        self.avals = avals
        self.tree = tree
        self.names = names
        self.static_args = static_args
        self.donated = donated


class Jitted(Generic[P, R_co]):
    """A function compiled through XLA on first call per signature.

    It has the wrapped function's parameters and return type for type
    checkers, and its ``__name__``, ``__qualname__``, ``__doc__`` and
    ``__wrapped__`` (the function itself). Extra methods: :meth:`trace`,
    :meth:`lower`, :meth:`cache_info`, :meth:`clear_cache`.
    """

    # Copied from fun by functools.update_wrapper in __init__ (JAX's jitted
    # functions have them too: logs and profilers read __name__).
    __name__: str
    __qualname__: str
    __wrapped__: Callable[..., object]

    def __init__(
        self,
        fun: Callable[P, R_co],
        static_argnums: tuple[int, ...],
        static_argnames: tuple[str, ...],
        donate_argnums: tuple[int, ...],
        cache_size: int = DEFAULT_CACHE_SIZE,
        shardings: tuple[ShardingsArg, ShardingsArg] = (None, None),
        donate_argnames: tuple[str, ...] = (),
        keep_unused: bool = False,
        inline: bool = False,
    ) -> None:
        self._fun: Callable[..., Any] = fun
        self._keep_unused = keep_unused  # Note [keep_unused]
        self._inline = inline  # traced into the enclosing trace, no jit equation
        self._shardings = shardings  # (in_shardings, out_shardings) as the user gave them
        self._static_argnums = static_argnums
        self._static_argnames = frozenset(static_argnames)
        self._donate_argnums = frozenset(donate_argnums)
        self._donate_argnames = frozenset(donate_argnames)  # donated when passed by keyword
        self._desc = describe_function(fun)
        self._name: str = getattr(fun, "__name__", "fun")
        options = (
            static_argnums, self._static_argnames, self._donate_argnums, self._donate_argnames,
            keep_unused, inline, cache_size, shardings,
        )  # fmt: skip
        self._shared = _traces_for(fun, options, cache_size)
        self._cache: OrderedDict[Hashable, _Entry] = OrderedDict()
        self._cache_size = cache_size
        self._misses = 0
        # Counts calls that found a trace (hits) or made one (misses): it
        # orders the entries for least-recently-used eviction, and the hits
        # are its count less the misses (one counter on the dispatch path).
        self._clock = 0
        self._lock = threading.Lock()
        # Note [the dispatch memo]: a call whose leaves are all single-device
        # concrete arrays is looked up by (structure, ids of the leaves'
        # avals, trace state); ids are compared as ints, so a hit costs no
        # Python-level aval hashing or equality. The memo keeps the avals it
        # was keyed on alive, so their ids cannot be reused while an entry
        # refers to them; a call with other (equal) aval objects, such as a
        # batch put on the device afresh, misses there and is looked up
        # again by the avals' values (_call_memo_by_value) before the full
        # path; only the full path adds keys. Leaves that are Python
        # scalars or NumPy values are keyed by value only, converted as the
        # full path converts them (_memo_array). Only compiled, cacheable
        # entries without a mesh are memoised, and entries with donation
        # only by the general memo below. The structure is the number of
        # arguments when all are positional arrays (keyed in __call__
        # itself), else jaxlib's treedef of (args, kwargs). A hit runs the
        # program through jaxlib's own entry point (xla.Launcher) and builds
        # the result arrays inline: at 4-5 us a call, each Python frame
        # saved shows (issue 19).
        self._dispatch: dict[Hashable, tuple[_Entry, tuple[ShapedArray, ...]]] = {}
        # The same memo keyed by the avals' values (hashed once per aval,
        # compared field by field): it serves calls whose arrays are new
        # objects of a known signature, where an id misses (issue 19: a
        # fresh batch each step took the full path, 3.4x JAX's dispatch).
        self._dispatch_by_value: dict[Hashable, _Entry] = {}
        # The memo of a function with static or donated arguments, which
        # the paths above do not serve: keyed by _general_memo_key, looked
        # up in _call before the full path (issue 19: a static argument
        # took 35 us a call, a donated one 49, JAX's 4).
        self._general_dispatch: dict[Hashable, _Entry] = {}
        self._static_positions_by_count: dict[int, frozenset[int]] = {}
        # The memo's last one-argument hit: (the argument's aval, the trace
        # state, the entry), compared before any key is built: the aval by
        # identity, then by value; the trace state by identity. Holding them
        # keeps them alive. Cleared with the memo (_forget_dispatch).
        self._last_hit: tuple[ShapedArray, TraceState, _Entry] | None = None
        # The memo's last hit with arguments in containers or by keyword:
        # (the structure, the leaves' avals, the trace state, the entry),
        # checked first by __call__, before a key is built. Cleared with
        # the memo.
        self._last_tree_hit: tuple[Hashable, tuple[ShapedArray, ...], TraceState, _Entry] | None = None
        # The general memo's last positional hit (static or donated
        # arguments): (the trace state, per argument its aval or, for a
        # static one, its (type, value), the entry). Cleared with the memo.
        self._last_general_hit: tuple[TraceState, tuple[ShapedArray | tuple[type[object], object], ...], _Entry] | None = None
        # The memo's last hit of a call with one NumPy argument: (its dtype,
        # its shape, the trace state, the entry, the aval it converts to).
        # Cleared with the memo.
        self._last_numpy_hit: tuple[np.dtype[Any], tuple[int, ...], TraceState, _Entry, ShapedArray] | None = None
        # The dispatch fast path applies when no argument is static or donated.
        self._simple = not static_argnums and not static_argnames and not donate_argnums and not donate_argnames
        # Found on the first trace (reading annotations costs ~50 us).
        self._shape_checker: SignatureChecker | None | object = _UNKNOWN
        # Set once the function is called with refs or touches closed-over ones (issue 16).
        self._ref_state: RefJitState | None = None
        self._threads_refs = True  # False for the pure companion of a jitted function with refs
        self._companion_entries: dict[Hashable, _Entry] = {}  # the companion's dispatch cache
        functools.update_wrapper(self, fun, assigned=("__module__", "__name__", "__qualname__", "__doc__"), updated=())
        _live_jitted.add(self)

    # --- the typed entry points ---

    @overload
    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co: ...  # type: ignore[overload-overlap]  # the second's self type is only mypy's view of jit(**options) (Note [jit's decorator-factory form])
    @overload
    def __call__(self: "Jitted[..., _FactoryForm]", fun: Callable[P2, R2], /) -> "Jitted[P2, R2]": ...
    def __call__(self, *args: object, **kwargs: object) -> object:
        disabled, check_outputs, trace_state = config.dispatch_state()
        if disabled:
            return self._fun(*args, **kwargs)
        buffers: list[DeviceBuffer]
        # The last hit with arguments in containers or by keyword (a training
        # step's parameters and batch), checked first and inline: one
        # flatten, then each leaf's aval compared (by identity, then by value
        # for a new aval object such as a fresh batch's) while its buffer is
        # gathered. No key is built or hashed, and no helper's frame runs:
        # before the launch, each costs the call (issue 19: 3 us of 138).
        flattened: tuple[list[object], Hashable] | None = None
        last_tree = self._last_tree_hit
        if last_tree is not None and last_tree[2] is trace_state and CURRENT_INTERPRETER.get() is EVAL:
            try:
                flattened = xla.flatten_containers((args, kwargs))
            except Exception:  # dict keys that do not sort, a node's flatten failing: the full path explains
                return self._call(args, kwargs)
            leaves = flattened[0]
            if flattened[1] == last_tree[0]:
                entry = last_tree[3]
                gather = entry.kept is None  # else only the leaves the program takes, after the check
                found: list[DeviceBuffer | None] = []
                complete = gather  # every leaf has its device buffer (else _kept_buffers transfers it)
                for leaf, aval in zip(leaves, last_tree[1]):
                    if type(leaf) is not ArrayImpl or leaf._sharding is not None:  # pyright: ignore[reportPrivateUsage]  # this layer's fast path
                        break
                    leaf_aval = leaf._aval  # pyright: ignore[reportPrivateUsage]
                    if leaf_aval is not aval and leaf_aval != aval:
                        break
                    if gather:
                        buffer = leaf._buffer  # pyright: ignore[reportPrivateUsage]
                        complete = complete and buffer is not None
                        found.append(buffer)
                else:
                    entry.last_use = self._clock = self._clock + 1
                    if complete:
                        buffers = cast("list[DeviceBuffer]", found)  # complete: no None among them
                    else:
                        buffers = _kept_buffers(cast("list[ArrayImpl]", leaves), entry.kept)
                    return self._run_memo_hit(entry, buffers, check_outputs)
        memo = self._dispatch
        if not self._dispatch_by_value or CURRENT_INTERPRETER.get() is not EVAL:  # nothing memoised (every key has a value key)
            if self._general_dispatch and CURRENT_INTERPRETER.get() is EVAL:
                return self._call_general(args, kwargs, check_outputs, trace_state)
            return self._call(args, kwargs)
        # The dispatch memo (Note [the dispatch memo]). Positional arrays, the
        # common case, are keyed here in one pass without a helper's frame:
        # at a few microseconds a call, each frame shows (issue 19).
        if kwargs:
            return self._call_memo_containers(args, kwargs, check_outputs, trace_state, flattened)
        if len(args) == 1:
            leaf = args[0]
            if type(leaf) is not ArrayImpl or leaf._sharding is not None:  # pyright: ignore[reportPrivateUsage]  # this layer's fast path
                numpy_hit = self._last_numpy_hit
                if (
                    numpy_hit is not None and type(leaf) is np.ndarray and numpy_hit[2] is trace_state
                    and leaf.shape == numpy_hit[1] and leaf.dtype == numpy_hit[0]
                ):  # fmt: skip
                    # The last call's NumPy argument type again: no flatten,
                    # no aval, no key (issue 19: the NumPy row).
                    entry = numpy_hit[3]
                    entry.last_use = self._clock = self._clock + 1
                    return self._run_memo_hit(entry, _kept_source_buffers((leaf,), (numpy_hit[4],), entry.kept), check_outputs)
                return self._call_memo_containers(args, kwargs, check_outputs, trace_state, flattened)
            buffer = leaf._buffer  # pyright: ignore[reportPrivateUsage]
            buffers = [buffer if buffer is not None else device_buffer(leaf)]
            aval = leaf._aval  # pyright: ignore[reportPrivateUsage]
            last = self._last_hit
            if last is not None and last[1] is trace_state and (last[0] is aval or last[0] == aval):
                # The previous one-argument hit again (the same aval object,
                # or an equal one: a fresh array): no key to build or hash.
                entry = last[2]
            else:
                hit = memo.get((1, (id(aval),), trace_state))  # the loop's key below, without the loop
                if hit is None:
                    return self._call_memo_by_value(args, kwargs, 1, args, check_outputs, trace_state)
                entry = hit[0]
                self._last_hit = (aval, trace_state, entry)
        else:
            # _memo_key_ids's loop, with the buffers, inline: the
            # 10-argument case is on the dispatch benchmark, and a frame shows there.
            ids: list[int] = []
            buffers = []
            for leaf in args:
                if type(leaf) is not ArrayImpl or leaf._sharding is not None:  # pyright: ignore[reportPrivateUsage]  # this layer's fast path
                    return self._call_memo_containers(args, kwargs, check_outputs, trace_state, flattened)
                ids.append(id(leaf._aval))  # pyright: ignore[reportPrivateUsage]
                buffer = leaf._buffer  # pyright: ignore[reportPrivateUsage]
                buffers.append(buffer if buffer is not None else device_buffer(leaf))
            hit = memo.get((len(args), tuple(ids), trace_state))
            if hit is None:
                return self._call_memo_by_value(args, kwargs, len(args), args, check_outputs, trace_state)
            entry = hit[0]
        entry.last_use = self._clock = self._clock + 1
        bare = entry.bare
        if bare is not None and not check_outputs:
            # One result, no constants, every leaf used: jaxlib runs it
            # directly and the result array is built here (Executable.execute's
            # and array_from_device's bodies, without their frames).
            out = ArrayImpl.__new__(ArrayImpl)
            out._value = None  # pyright: ignore[reportPrivateUsage]
            out._buffer = bare.launch(buffers).consume_with_handlers(bare.handlers)[0]  # pyright: ignore[reportPrivateUsage]
            out._aval = entry.out_avals[0]  # pyright: ignore[reportPrivateUsage]
            out._sharding = None  # pyright: ignore[reportPrivateUsage]
            return out
        kept = entry.kept
        if kept is not None:  # Note [keep_unused]: the program takes these leaves
            buffers = [buffers[i] for i in kept]
        return self._run_memo_hit(entry, buffers, check_outputs)

    def _forget_dispatch(self) -> None:
        """Empty the dispatch memo and its last hit."""
        self._dispatch.clear()
        self._dispatch_by_value.clear()
        self._general_dispatch.clear()
        self._last_hit = None
        self._last_tree_hit = None
        self._last_general_hit = None
        self._last_numpy_hit = None

    def _call_memo_containers(
        self,
        args: tuple[object, ...],
        kwargs: dict[str, object],
        check_outputs: bool,
        trace_state: TraceState,
        flattened: tuple[list[object], Hashable] | None,
    ) -> object:
        """The dispatch memo for arguments in containers or by keyword: one
        flatten by jaxlib's registry of the builtin containers and the
        registered node types (Note [node types shared with jaxlib]), unless
        __call__ has ``flattened`` them already. A hit becomes the last hit,
        which __call__ checks first."""
        if flattened is None:
            try:
                flattened = xla.flatten_containers((args, kwargs))
            except Exception:  # dict keys that do not sort, a node's flatten failing: the full path explains
                return self._call(args, kwargs)
        leaves, structure = flattened
        ids = _memo_key_ids(leaves)
        if ids is None:  # some leaf is not a single-device array
            return self._call_memo_by_value(args, kwargs, structure, leaves, check_outputs, trace_state)
        hit = self._dispatch.get((structure, tuple(ids), trace_state))
        if hit is None:
            return self._call_memo_by_value(args, kwargs, structure, leaves, check_outputs, trace_state)
        entry, avals = hit
        self._last_tree_hit = (structure, avals, trace_state, entry)
        entry.last_use = self._clock = self._clock + 1
        arrays = cast("list[ArrayImpl]", leaves)  # every leaf checked by _memo_key_ids
        return self._run_memo_hit(entry, _kept_buffers(arrays, entry.kept), check_outputs)

    def _call_memo_by_value(
        self,
        args: tuple[object, ...],
        kwargs: dict[str, object],
        structure: Hashable,
        leaves: Sequence[object],
        check_outputs: bool,
        trace_state: TraceState,
    ) -> object:
        """A memo miss by aval identity, looked up again by the avals' values
        (Note [the dispatch memo]): the same signature in other aval objects,
        e.g. a batch put on the device afresh at every step. ``leaves``,
        keyed under ``structure``, may also be Python scalars and NumPy
        values (a learning rate, a NumPy batch), converted as the full path
        converts them and transferred with the call."""
        # A NumPy array stays as it is until the entry is found, then jaxlib
        # copies it to the device (xla.put_copy): no private host copy, no
        # array object (issue 19: the NumPy row).
        sources: list[ArrayImpl | np.ndarray[Any, np.dtype[Any]]] = []
        avals_list: list[ShapedArray] = []
        own = True  # every leaf is a device array of the caller's
        for leaf in leaves:
            if type(leaf) is np.ndarray:
                try:
                    aval = numpy_aval(leaf, where="jit")
                except JaxtypedTypeError:
                    return self._call(args, kwargs)  # which explains the dtype
                own = False
                sources.append(leaf)
                avals_list.append(aval)
                continue
            array = _memo_array(leaf)
            if array is None:
                return self._call(args, kwargs)
            own = own and array is leaf
            sources.append(array)
            avals_list.append(array._aval)  # pyright: ignore[reportPrivateUsage]  # this layer's fast path
        avals = tuple(avals_list)
        entry = self._dispatch_by_value.get((structure, avals, trace_state))
        if entry is None:
            return self._call(args, kwargs)
        if len(args) == 1 and not kwargs and type(args[0]) is np.ndarray and leaves[0] is args[0]:
            numpy_leaf = cast("np.ndarray[Any, np.dtype[Any]]", args[0])
            self._last_numpy_hit = (numpy_leaf.dtype, numpy_leaf.shape, trace_state, entry, avals[0])
        if own:  # the next call with these arrays (or equal avals) finds the last hit
            if structure == 1:
                self._last_hit = (avals[0], trace_state, entry)
            elif not isinstance(structure, int):  # a treedef: arguments in containers or by keyword
                self._last_tree_hit = (structure, avals, trace_state, entry)
        entry.last_use = self._clock = self._clock + 1
        if own:
            return self._run_memo_hit(entry, _kept_buffers(cast("list[ArrayImpl]", sources), entry.kept), check_outputs)
        return self._run_memo_hit(entry, _kept_source_buffers(sources, avals, entry.kept), check_outputs)

    def _run_memo_hit(self, entry: _Entry, buffers: list[DeviceBuffer], check_outputs: bool) -> object:
        """Run a memoised entry on the buffers of the leaves its program
        takes (``entry.kept`` already applied) and build the result."""
        if entry.const_buffers:
            buffers = entry.const_buffers + buffers
        launcher = entry.launcher
        if launcher is not None:  # Executable.execute's body, without its frame
            results = launcher.launch(buffers).consume_with_handlers(launcher.handlers)
        else:
            run = entry.run
            assert run is not None
            results = list(run(buffers))
        return self._memo_outputs(entry, results, check_outputs)

    def _run_donating_hit(self, entry: _Entry, arrays: list[ArrayImpl], check_outputs: bool) -> object:
        """Run a memoised entry whose program donates some of the arrays it
        takes (``entry.kept`` already applied): run_executable's checks and
        deletions around jaxlib's launch, without its conversions (issue 19:
        a training loop feeding back donated state paid 20 us of them)."""
        donated = entry.run_donated
        buffers = entry.const_buffers + donation_buffers(arrays, donated, self._name)
        launcher = entry.launcher
        if launcher is not None:
            results = launcher.launch(buffers).consume_with_handlers(launcher.handlers)
        else:  # a program jaxlib does not launch directly (host callbacks)
            executable = entry.executable
            assert executable is not None  # compiled on the call that memoised it
            results = list(executable.execute(buffers))
        consume_donated(arrays, donated, buffers, len(entry.const_buffers))
        return self._memo_outputs(entry, results, check_outputs)

    def _memo_outputs(self, entry: _Entry, results: Sequence[DeviceBuffer], check_outputs: bool) -> object:
        """The result of a memo hit: arrays of ``results`` in the output tree."""
        if entry.single_output and not check_outputs:
            return array_from_device(results[0], entry.out_avals[0])
        outs: list[ArrayImpl] = []
        for buffer, aval in zip(results, entry.out_avals):  # array_from_device's body, without its frames
            out = ArrayImpl.__new__(ArrayImpl)
            out._value = None  # pyright: ignore[reportPrivateUsage]
            out._buffer = buffer  # pyright: ignore[reportPrivateUsage]
            out._aval = aval  # pyright: ignore[reportPrivateUsage]
            out._sharding = None  # pyright: ignore[reportPrivateUsage]
            outs.append(out)
        if check_outputs:
            check_nonfinite(self._name, outs)
        if entry.single_output:
            return outs[0]
        containers = entry.out_containers
        return containers.unflatten(outs) if containers is not None else tree_unflatten(entry.out_tree, outs)

    # Note [abstract arguments]: trace and lower take fun's arguments, or
    # abstract stand-ins for them (ShapeDtypeStructs, or trees of them, where
    # fun takes arrays: ahead-of-time lowering, as in JAX). A parameter
    # specification cannot be rewritten to say "Array or ShapeDtypeStruct",
    # so the overloads after the first accept a call with a tree of
    # ShapeDtypeStructs as one of its first three positional arguments and
    # leave the others unchecked (run time checks them: their number, the
    # static ones, the leaves' kinds, with clear errors). A call with no
    # such argument is checked against fun's parameters, as before.
    @overload
    def trace(self, *args: P.args, **kwargs: P.kwargs) -> "Traced[P, R_co]": ...
    @overload
    def trace(self, a0: "SpecTree", /, *args: object, **kwargs: object) -> "Traced[P, R_co]": ...
    @overload
    def trace(self, a0: object, a1: "SpecTree", /, *args: object, **kwargs: object) -> "Traced[P, R_co]": ...
    @overload
    def trace(self, a0: object, a1: object, a2: "SpecTree", /, *args: object, **kwargs: object) -> "Traced[P, R_co]": ...
    def trace(self, *args: object, **kwargs: object) -> "Traced[P, R_co]":  # type: ignore[misc]  # mypy: a keyword "self" in the abstract overloads' **kwargs would clash; none is passed
        """Trace for these arguments (arrays, scalars or
        ``ShapeDtypeStruct``\\ s) without compiling."""
        return self._trace_any(args, kwargs)

    @overload
    def lower(self, *args: P.args, **kwargs: P.kwargs) -> "Lowered[P, R_co]": ...
    @overload
    def lower(self, a0: "SpecTree", /, *args: object, **kwargs: object) -> "Lowered[P, R_co]": ...
    @overload
    def lower(self, a0: object, a1: "SpecTree", /, *args: object, **kwargs: object) -> "Lowered[P, R_co]": ...
    @overload
    def lower(self, a0: object, a1: object, a2: "SpecTree", /, *args: object, **kwargs: object) -> "Lowered[P, R_co]": ...
    def lower(self, *args: object, **kwargs: object) -> "Lowered[P, R_co]":  # type: ignore[misc]  # mypy: a keyword "self" in the abstract overloads' **kwargs would clash; none is passed
        """Trace and lower to StableHLO for these arguments (arrays, scalars
        or ``ShapeDtypeStruct``\\ s: Note [abstract arguments])."""
        return self._trace_any(args, kwargs).lower()

    def _trace_any(self, args: tuple[object, ...], kwargs: dict[str, object]) -> "Traced[P, R_co]":
        """trace's body, which a bound method overrides (its instance first)."""
        return self._staged(args, kwargs, ())

    def _staged(self, args: tuple[object, ...], kwargs: dict[str, object], bound: tuple[object, ...]) -> "Traced[P, R_co]":
        # bound: what a bound method prepended to args; its Compiled
        # prepends them to each call too.
        if self._threads_refs and not bound and (self._ref_state is not None or has_ref_leaf(args, kwargs)):
            # Refs (issue 16): the pure companion's stage.
            return stage_with_refs(self._ensure_ref_state(), _pure_companion_jit, args, kwargs)  # type: ignore[no-any-return]  # the companion's Traced
        sig = self._signature(args, kwargs)
        entry = self._entry(sig)
        spec = _CallSpec(len(args), sig.static_args, sig.tree, bound)
        spmd = plan_spmd(self._name, entry.closed, sig.leaves, entry.spmd, entry.donated)  # over a mesh (issue 17)
        return Traced(entry.closed, entry.out_tree, self._name, entry.donated, spec, spmd, entry.kept if spmd is None else None)

    @overload
    def __get__(self, instance: None, owner: type[object] | None = None) -> Self: ...
    @overload
    def __get__(self: "Jitted[Concatenate[S, P2], R]", instance: S, owner: type[object] | None = None) -> "Jitted[P2, R]": ...
    def __get__(self, instance: object, owner: type[object] | None = None) -> object:
        if instance is None:
            return self
        return _BoundJitted(self, instance)

    # --- cache statistics ---

    def cache_info(self) -> CacheInfo:
        """Hits, misses (= traces), current size and bound of the cache."""
        info = CacheInfo(self._clock - self._misses, self._misses, len(self._cache), self._cache_size)
        companion = self._ref_state.pure if self._ref_state is not None else None
        if isinstance(companion, Jitted):
            # Calls with refs are traced and cached by the pure companion (issue 16).
            refs = companion.cache_info()
            return CacheInfo(info.hits + refs.hits, info.misses + refs.misses, info.size + refs.size, info.maxsize)
        return info

    def clear_cache(self) -> None:
        """Forget every traced signature (the next call retraces), also
        those other jits of the same function share."""
        if self._shared is not None:
            self._shared.clear()
        with self._lock:
            self._cache.clear()
            self._forget_dispatch()
            self._companion_entries.clear()
        if self._ref_state is not None:
            self._ref_state.pure = None  # a new companion: its cache starts empty

    def __repr__(self) -> str:
        return f"<jitted {self._desc}>"

    # --- implementation ---

    def _call(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        eager = current_interpreter() is EVAL
        if self._simple:
            # Dispatch fast path: no static or donated arguments, so the key
            # is the tree structure and the leaves' avals; names and checks
            # are only needed when tracing (a miss takes the full path).
            if not kwargs and _all_concrete(args):
                key: Hashable = (_positional_tree(len(args)), tuple([a.aval for a in args]), config.trace_state())
                leaves: Sequence[Any] = args
            else:
                flat, tree = tree_flatten((args, kwargs))
                avals = _fast_avals(flat)
                key = (tree, avals, config.trace_state()) if avals is not None else None
                leaves = flat
            entry = self._cache.get(key) if key is not None else None
            if entry is not None and eager:
                entry.last_use = self._clock = self._clock + 1
                outs = _execute(self._name, entry, leaves)
                self._memoise_dispatch(args, kwargs, leaves, entry)
                return _unflatten_outputs(entry, outs)
        if self._threads_refs and (self._ref_state is not None or has_ref_leaf(args, kwargs)):
            return self._call_with_refs(args, kwargs)
        if not self._threads_refs and eager:
            return self._call_companion(args)
        if self._inline and not eager:
            # inline=True: inside a trace the function is traced in place,
            # its equations in the enclosing jaxpr (no jit equation), as JAX's.
            return self._call_traced(list(args), dict(kwargs))
        sig = self._signature(args, kwargs)
        try:
            entry = self._entry(sig)
        except RefsTouched:
            if not self._threads_refs:
                raise
            # The function closes over refs: thread them (issue 16).
            return self._call_with_refs(args, kwargs)
        arrays = [_as_array(leaf) for leaf in sig.leaves]
        if eager and entry.cacheable:
            outs = _execute(self._name, entry, arrays)
            if self._simple:
                self._memoise_dispatch(args, kwargs, sig.leaves, entry)
            else:
                self._memoise_general(args, kwargs, sig.leaves, entry)
            return _unflatten_outputs(entry, outs)
        return tree_unflatten(entry.out_tree, list(jit_call(entry.closed, self._name, arrays, entry.donated)))

    def _memoise_dispatch(self, args: tuple[Any, ...], kwargs: dict[str, Any], leaves: Sequence[object], entry: _Entry) -> None:
        """Add this call's key to the dispatch memo (Note [the dispatch
        memo]) when the entry qualifies and the memo's flattening of the
        arguments gives exactly ``leaves``, the full path's."""
        if entry.run is None or entry.spmd is not None or entry.any_donated or not entry.cacheable:
            return
        memo_leaves: Sequence[object]
        structure: Hashable
        if kwargs or not _all_concrete(args):
            try:
                memo_leaves, structure = xla.flatten_containers((args, kwargs))
            except Exception:  # as in _call_memo_containers
                return
            if not builtin_containers_only(tree_flatten((args, kwargs))[1]):
                return  # a node type jaxlib's registry did not take: only the full path knows it
        else:
            memo_leaves, structure = args, len(args)
        if len(memo_leaves) != len(leaves) or any(a is not b for a, b in zip(memo_leaves, leaves)):
            return
        avals: list[ShapedArray] = []
        all_arrays = True  # else Python scalars or NumPy values: keyed by value only
        for leaf in memo_leaves:
            array = _memo_array(leaf)
            if array is None:
                return
            all_arrays = all_arrays and array is leaf
            avals.append(array.aval)
        with self._lock:
            if len(self._dispatch) >= _DISPATCH_MEMO_SIZE or len(self._dispatch_by_value) >= _DISPATCH_MEMO_SIZE:
                self._forget_dispatch()
            trace_state = config.trace_state()
            if all_arrays:
                self._dispatch[(structure, tuple([id(a) for a in avals]), trace_state)] = (entry, tuple(avals))
            self._dispatch_by_value[(structure, tuple(avals), trace_state)] = entry

    def _call_general(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], check_outputs: bool, trace_state: TraceState
    ) -> object:
        """A call of a function with static or donated arguments, through
        the general dispatch memo (or the full path on a miss)."""
        last = self._last_general_hit
        if last is not None and not kwargs and last[0] is trace_state and len(args) == len(last[1]):
            # The last positional hit again, checked argument by argument: no
            # split, flatten or key (issue 19: a static argument cost 7 us).
            hit_arrays: list[ArrayImpl] = []
            for arg, spec in zip(args, last[1]):
                if isinstance(spec, ShapedArray):  # a dynamic argument: an array of this aval
                    if type(arg) is not ArrayImpl or arg._sharding is not None:  # pyright: ignore[reportPrivateUsage]  # this layer's fast path
                        break
                    aval = arg._aval  # pyright: ignore[reportPrivateUsage]
                    if aval is not spec and aval != spec:
                        break
                    hit_arrays.append(arg)
                elif type(arg) is not spec[0] or not (arg is spec[1] or arg == spec[1]):  # a static one: type and value
                    break
            else:
                return self._run_general_hit(last[2], hit_arrays, check_outputs)
        found = self._general_memo_key(args, kwargs, trace_state)
        entry = self._general_dispatch.get(found[0]) if found is not None else None
        if entry is None:
            return self._call(args, kwargs)
        assert found is not None
        if not kwargs:
            self._remember_general_hit(args, found[1], entry, trace_state)
        return self._run_general_hit(entry, found[2], check_outputs)

    def _remember_general_hit(
        self, args: tuple[object, ...], leaves: list[object], entry: _Entry, trace_state: TraceState
    ) -> None:
        """Make a positional general-memo hit the last one, which
        _call_general checks first, when each dynamic argument is an array
        (its own leaf): the check is then per argument."""
        static_positions = self._static_positions(len(args))
        if len(leaves) != len(args) - len(static_positions):
            return
        specs: list[ShapedArray | tuple[type[object], object]] = []
        dynamic = iter(leaves)
        for i, arg in enumerate(args):
            if i in static_positions:
                specs.append((type(arg), arg))
                continue
            if next(dynamic) is not arg or type(arg) is not ArrayImpl or arg._sharding is not None:  # pyright: ignore[reportPrivateUsage]  # this layer's fast path
                return
            specs.append(arg._aval)  # pyright: ignore[reportPrivateUsage]
        self._last_general_hit = (trace_state, tuple(specs), entry)

    def _run_general_hit(self, entry: _Entry, arrays: list[ArrayImpl], check_outputs: bool) -> object:
        """Run a general-memo hit on its dynamic arrays."""
        entry.last_use = self._clock = self._clock + 1
        kept = entry.kept
        if kept is not None:  # Note [keep_unused]
            arrays = [arrays[i] for i in kept]
        if entry.any_donated:
            return self._run_donating_hit(entry, arrays, check_outputs)
        return self._run_memo_hit(entry, _kept_buffers(arrays, None), check_outputs)

    def _general_memo_key(
        self, args: tuple[Any, ...], kwargs: dict[str, Any], trace_state: TraceState
    ) -> tuple[Hashable, list[object], list[ArrayImpl]] | None:
        """The general dispatch memo's key of a call of a function with
        static or donated arguments (Note [the dispatch memo]): the
        structure of the dynamic arguments, the static values (with their
        types, as the full path keys them), the leaves' avals by value and
        the trace state; with the dynamic leaves and the arrays a hit runs
        on. None when the memo cannot key the call (a leaf it does not
        convert, an unhashable static value, unsortable dict keys)."""
        static: list[tuple[int | str, type[object], object]] = []
        dynamic: tuple[object, ...] = args
        static_positions = self._static_positions(len(args))
        if static_positions:
            kept_args: list[object] = []
            for i, arg in enumerate(dynamic):
                if i in static_positions:
                    static.append((i, type(arg), arg))
                else:
                    kept_args.append(arg)
            dynamic = tuple(kept_args)
        given: dict[str, object] = kwargs
        dynamic_kwargs = given
        if given and self._static_argnames:
            dynamic_kwargs = {}
            for name, value in given.items():
                if name in self._static_argnames:
                    static.append((name, type(value), value))
                else:
                    dynamic_kwargs[name] = value
        try:
            leaves, structure = xla.flatten_containers((dynamic, dynamic_kwargs))
            static_key = tuple(static)
            hash(static_key)
        except Exception:  # unsortable dict keys, a node's flatten failing, an unhashable static value
            return None
        # A donated Python scalar's array is consumed: not the shared one.
        reuse_scalars = not self._donate_argnums and not self._donate_argnames
        arrays: list[ArrayImpl] = []
        for leaf in leaves:
            array = _memo_array(leaf, reuse_scalars=reuse_scalars)
            if array is None:
                return None
            arrays.append(array)
        avals = tuple([array._aval for array in arrays])  # pyright: ignore[reportPrivateUsage]  # this layer's fast path
        return (structure, static_key, avals, trace_state), leaves, arrays

    def _static_positions(self, nargs: int) -> frozenset[int]:
        """The positions of ``nargs`` positional arguments that are static."""
        positions = self._static_positions_by_count.get(nargs)
        if positions is None:
            positions = frozenset(i + nargs if i < 0 else i for i in self._static_argnums) & frozenset(range(nargs))
            self._static_positions_by_count[nargs] = positions
        return positions

    def _memoise_general(self, args: tuple[Any, ...], kwargs: dict[str, Any], leaves: Sequence[object], entry: _Entry) -> None:
        """Add this call's key to the general dispatch memo when the entry
        qualifies and the memo's split and flattening of the arguments
        give exactly ``leaves``, the full path's dynamic leaves."""
        if entry.spmd is not None or not entry.cacheable or entry.executable is None:
            return
        if entry.run is None and not entry.any_donated:  # a hit runs it as _run_memo_hit does
            return
        if self._ref_state is not None or not self._threads_refs:
            return
        found = self._general_memo_key(args, kwargs, config.trace_state())
        if found is None:
            return
        key, memo_leaves, _ = found
        if len(memo_leaves) != len(leaves) or any(a is not b for a, b in zip(memo_leaves, leaves)):
            return
        with self._lock:
            if len(self._general_dispatch) >= _DISPATCH_MEMO_SIZE:
                self._forget_dispatch()
            self._general_dispatch[key] = entry

    def _call_companion(self, args: tuple[Any, ...]) -> Any:
        """Dispatch of a pure companion (issue 16): its arguments are always
        ``(ref values, other leaves, static spec)``, so the key is the spec
        and the leaves' avals (the companion donates, which keeps it off
        the fast path above)."""
        values, others, spec = args
        leaves = [*values, *others]
        avals = _fast_avals(leaves)
        key: Hashable = (spec, len(values), avals, config.trace_state())
        entry = self._companion_entries.get(key) if avals is not None else None
        if entry is None:
            entry = self._entry(self._signature(args, {}))
            if avals is not None and entry.cacheable:
                if len(self._companion_entries) >= self._cache_size:
                    self._companion_entries.clear()
                self._companion_entries[key] = entry
        else:
            self._clock += 1  # a hit
        return _unflatten_outputs(entry, _execute(self._name, entry, leaves))

    def _ensure_ref_state(self) -> RefJitState:
        if self._ref_state is None:
            self._ref_state = RefJitState(
                self._fun, self._desc, self._name, frozenset(self._static_argnums), self._static_argnames
            )
        return self._ref_state

    def _call_with_refs(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        return call_with_refs(self._ensure_ref_state(), _pure_companion_jit, args, kwargs)

    def _signature(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> _Signature:

        nargs = len(args)
        static_pos = self._static_positions(nargs)
        static: dict[int | str, object] = {}
        dyn_args: list[object] = []
        names = arg_names(self._fun, nargs)
        dyn_names: list[str] = []
        for i, a in enumerate(args):
            if i in static_pos:
                static[i] = a
            else:
                dyn_args.append(a)
                dyn_names.append(names[i])
        dyn_kwargs: dict[str, object] = {}
        for k in sorted(kwargs):
            if k in self._static_argnames:
                static[k] = kwargs[k]
            else:
                dyn_kwargs[k] = kwargs[k]
        for where, value in static.items():
            try:
                hash(value)
            except TypeError:
                raise JaxtypedValueError(
                    f"jit of {self._desc}: non-hashable static argument {where!r} of type "
                    f"{type(value).__name__}; static arguments must be hashable (use a tuple, "
                    "not a list), or pass the value as a dynamic argument"
                ) from None
        leaves, tree = tree_flatten((tuple(dyn_args), dyn_kwargs))
        leaf_names = [n for a, name in zip(dyn_args, dyn_names) for n in flatten_with_names(a, name)[1]]
        leaf_names += [n for k, v in dyn_kwargs.items() for n in flatten_with_names(v, k)[1]]
        avals = tuple(input_aval(leaf, name, "jit") for leaf, name in zip(leaves, leaf_names))
        donated = self._donated_leaves(args, dyn_kwargs, static_pos, len(leaves))
        static_key = tuple(sorted(((str(k), type(v), v) for k, v in static.items()), key=lambda t: t[0]))
        key = (tree, avals, config.trace_state()) if self._simple else (tree, avals, static_key, config.trace_state())
        return _Signature(key, leaves, avals, tree, leaf_names, static, donated)

    def _donated_leaves(
        self, args: tuple[Any, ...], dyn_kwargs: Mapping[str, Any], static_pos: frozenset[int], nleaves: int
    ) -> tuple[bool, ...]:
        if not self._donate_argnums and not self._donate_argnames:
            return (False,) * nleaves
        flags: list[bool] = []
        nargs = len(args)
        donate = {i + nargs if i < 0 else i for i in self._donate_argnums}
        for i, a in enumerate(args):
            if i in static_pos:
                continue
            count = len(tree_flatten(a)[0])
            flags += [i in donate] * count
        for name in sorted(dyn_kwargs):  # the order a dict's leaves flatten in
            flags += [name in self._donate_argnames] * len(tree_flatten(dyn_kwargs[name])[0])
        flags += [False] * (nleaves - len(flags))
        return tuple(flags)

    def _entry(self, sig: _Signature) -> _Entry:
        entry = self._cache.get(sig.key)
        if entry is not None:
            with self._lock:
                entry.last_use = self._clock = self._clock + 1
            return entry
        shared = self._shared
        entry = shared.get(sig.key) if shared is not None else None
        if entry is None:
            entry = self._trace(sig)
            if shared is not None and entry.cacheable:
                shared.put(sig.key, entry)
        with self._lock:
            self._misses += 1
            entry.last_use = self._clock = self._clock + 1
            if entry.cacheable:
                cache = self._cache
                cache[sig.key] = entry
                while len(cache) > self._cache_size:
                    # Eviction is rare (a trace precedes it): a scan for the
                    # least recently used entry costs less than keeping an
                    # order on every call.
                    del cache[min(cache, key=lambda k: cache[k].last_use)]
                    self._forget_dispatch()
        return entry

    def _call_traced(self, args: list[object], kwargs: dict[str, object]) -> object:
        # Shape annotations (Float[Array, "n"]) are checked here, once per
        # trace, on the abstract arguments: compiled calls pay nothing.
        if self._shape_checker is _UNKNOWN:
            self._shape_checker = checker_for(self._fun)
        if isinstance(self._shape_checker, SignatureChecker):
            return self._shape_checker.call(self._fun, args, kwargs)
        return self._fun(*args, **kwargs)

    def _trace(self, sig: _Signature) -> _Entry:
        interp = StagingInterpreter(current_interpreter(), self._desc, "jit")
        with timed_event(JAXPR_TRACE_EVENT, self._name), transformation_scope(interp), shared_numpy_constants():
            tracers = [interp.new_arg(aval, name) for aval, name in zip(sig.avals, sig.names)]
            dyn_args, dyn_kwargs = tree_unflatten(sig.tree, tracers)
            dyn_iter = iter(dyn_args)
            nargs = len(dyn_args) + sum(1 for k in sig.static_args if isinstance(k, int))
            call_args = [sig.static_args[i] if i in sig.static_args else next(dyn_iter) for i in range(nargs)]
            call_kwargs: dict[str, object] = dict(dyn_kwargs)
            call_kwargs.update({k: v for k, v in sig.static_args.items() if isinstance(k, str)})
            out = self._call_traced(call_args, call_kwargs)
            out_leaves, out_tree = tree_flatten(out)
            out_names = flatten_with_names(out, "output")[1]
            outs = [leaf_to_array(x, n, "jit") for x, n in zip(out_leaves, out_names)]
            closed = interp.build(outs)
        maybe_check_jaxpr(closed)
        cacheable = all(type(c) is ArrayImpl for c in closed.consts)
        entry = _Entry(closed, out_tree, sig.donated, cacheable, None if self._keep_unused else _used_leaves(closed))
        entry.spmd = spmd_request(self._desc, self._shardings, closed, sig.tree, sig.leaves, out_leaves, out)
        return entry


@final
class _BoundJitted(Jitted[P, R_co]):
    # A jitted method bound to its instance (the instance is passed as the
    # first positional argument). Its __doc__ is the method's (below).

    def __init__(self, parent: Jitted[Any, R_co], instance: object) -> None:  # noqa: D107
        self._parent = parent
        self._instance = instance

    if not TYPE_CHECKING:
        # The method's names, as a bound method of a plain function has them,
        # read from the jitted function when asked rather than copied here:
        # __get__ makes a bound method on every access of a jitted method.
        def __getattr__(self, name):
            if name in ("__name__", "__qualname__", "__wrapped__"):
                return getattr(self._parent, name)
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

        @property
        def __doc__(self):
            return self._parent.__doc__

    @overload
    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co: ...  # type: ignore[overload-overlap]  # as Jitted.__call__
    @overload
    def __call__(self: "Jitted[..., _FactoryForm]", fun: Callable[P2, R2], /) -> "Jitted[P2, R2]": ...
    def __call__(self, *args: object, **kwargs: object) -> object:
        return self._parent(self._instance, *args, **kwargs)

    def _trace_any(self, args: tuple[object, ...], kwargs: dict[str, object]) -> "Traced[P, R_co]":
        return self._parent._staged((self._instance, *args), kwargs, (self._instance,))

    def cache_info(self) -> CacheInfo:
        return self._parent.cache_info()

    def clear_cache(self) -> None:
        self._parent.clear_cache()

    def __repr__(self) -> str:
        return f"<bound jitted method of {self._instance!r}>"


def _pure_companion_jit(pure: Callable[..., Any], *, donate_first: bool = True) -> "Jitted[..., Any]":
    """jit of the pure companion of a function with refs: the refs' values
    (argument 0) are donated (unless the call is staged: nothing to update
    in place), the refs' positions (argument 2) static."""
    companion: Jitted[..., Any] = Jitted(pure, (2,), (), (0,) if donate_first else ())
    companion._threads_refs = False  # pyright: ignore[reportPrivateUsage]  # Jitted's own module
    return companion


@functools.cache
def _positional_tree(nargs: int) -> PyTreeDef:
    """The tree structure of ``nargs`` positional leaves and no keywords
    (what the dispatch fast path assumes without flattening)."""
    return tree_flatten((tuple(range(nargs)), {}))[1]


def _kept_buffers(arrays: Sequence[ArrayImpl], kept: tuple[int, ...] | None) -> list[DeviceBuffer]:
    """The device buffers of the arrays a memo hit's program takes: all of
    them, or those at ``kept`` (Note [keep_unused]: a dict of 20 arrays of
    which 2 are used gathers 2); a host-only array is transferred now."""
    buffers: list[DeviceBuffer] = []
    for leaf in arrays if kept is None else map(arrays.__getitem__, kept):
        buffer = leaf._buffer  # pyright: ignore[reportPrivateUsage]  # this layer's fast path
        buffers.append(buffer if buffer is not None else device_buffer(leaf))
    return buffers


def _kept_source_buffers(
    sources: Sequence["ArrayImpl | np.ndarray[Any, np.dtype[Any]]"],
    avals: Sequence[ShapedArray],
    kept: tuple[int, ...] | None,
) -> list[DeviceBuffer]:
    """_kept_buffers for leaves of which some are a caller's NumPy arrays,
    each copied to the device now."""
    buffers: list[DeviceBuffer] = []
    for i in range(len(sources)) if kept is None else kept:
        source = sources[i]
        if isinstance(source, np.ndarray):
            buffers.append(xla.put_copy(source, avals[i]))
        else:
            buffer = source._buffer  # pyright: ignore[reportPrivateUsage]  # this layer's fast path
            buffers.append(buffer if buffer is not None else device_buffer(source))
    return buffers


def _memo_key_ids(leaves: Sequence[object]) -> list[int] | None:
    """The ids of the leaves' avals, if every leaf is a single-device
    concrete array (Note [the dispatch memo])."""
    ids: list[int] = []
    for leaf in leaves:
        if type(leaf) is not ArrayImpl or leaf._sharding is not None:  # pyright: ignore[reportPrivateUsage]  # this layer's fast path
            return None
        ids.append(id(leaf._aval))  # pyright: ignore[reportPrivateUsage]
    return ids


def _memo_array(leaf: object, *, reuse_scalars: bool = True) -> ArrayImpl | None:
    """``leaf`` as the concrete array a dispatch-memo hit runs on: a
    single-device array itself; a Python scalar or a NumPy value converted
    as the full path converts it (a new host array, transferred with the
    call). None for any other leaf, and for an int out of range or an
    unsupported dtype: the full path handles those, or explains them."""
    kind = type(leaf)
    if kind is ArrayImpl:
        array = cast(ArrayImpl, leaf)
        return array if array._sharding is None else None  # pyright: ignore[reportPrivateUsage]  # this layer's fast path
    try:
        if is_python_scalar(leaf):
            return _scalar_array(leaf) if reuse_scalars else array_from_scalar(leaf, where="jit")
        if kind is np.ndarray or isinstance(leaf, np.generic):
            return array_from_numpy(cast("np.ndarray[Any, np.dtype[Any]] | np.generic", leaf), where="jit")
    except (JaxtypedTypeError, OverflowError):
        return None
    return None


# Python scalars passed to jitted functions, as arrays whose device buffer
# is made on the first call and reused: a constant such as a learning rate
# or a scale factor is transferred once, not on every call (a transfer
# costs about 2.5 us, a memo hit's whole dispatch about 5). Keyed by type,
# value and sign (0.0 and -0.0 are equal but differ), and the x64 setting,
# which decides the dtype; bounded, since a loop counter is new every call.
_SCALAR_ARRAYS: Final[dict[tuple[type[object], bool | int | float, float, bool], ArrayImpl]] = {}
_SCALAR_ARRAYS_SIZE: Final = 64


def _scalar_array(x: bool | int | float | complex) -> ArrayImpl:
    """The concrete array the memo runs on for a Python scalar argument.

    Raises:
        OverflowError: an ``int`` does not fit the default integer dtype.
    """
    if isinstance(x, complex):  # complex(0, -0.0) == 0j: not worth a sign key
        return array_from_scalar(x, where="jit")
    key = (type(x), x, math.copysign(1.0, x), config.jax_enable_x64)
    array = _SCALAR_ARRAYS.get(key)
    if array is None:
        array = array_from_scalar(x, where="jit")
        if len(_SCALAR_ARRAYS) >= _SCALAR_ARRAYS_SIZE:
            _SCALAR_ARRAYS.clear()
        _SCALAR_ARRAYS[key] = array
    return array


def _all_concrete(args: tuple[Any, ...]) -> bool:
    for a in args:
        if type(a) is not ArrayImpl:
            return False
    return True


def _fast_avals(leaves: list[object]) -> tuple[ShapedArray, ...] | None:
    """The leaves' avals if every leaf is a concrete array or a Python
    scalar (the common case of a cache hit), else None."""
    avals: list[ShapedArray] = []
    for leaf in leaves:
        if type(leaf) is ArrayImpl:
            avals.append(leaf.aval)
        elif is_python_scalar(leaf):
            try:
                avals.append(array_from_scalar(leaf).aval)
            except OverflowError:
                return None
        else:
            return None
    return tuple(avals)


def _container_tree(tree: PyTreeDef) -> xla.ContainerTree | None:
    """``tree`` as jaxlib's C++ treedef, when it has builtin containers only
    and jaxlib flattens it into the same leaf order (else None)."""
    if tree.num_nodes == 1 or not builtin_containers_only(tree):
        return None
    order = list(range(tree.num_leaves))
    try:
        probe = tree_unflatten(tree, order)
    except Exception:
        # A namedtuple whose constructor checks its fields (the debug mode
        # checks a result type's annotations), or a registered node whose
        # unflatten reads its children (a dataclass checking shapes),
        # refuses the int probes: such results keep the Python rebuild.
        return None
    leaves, containers = xla.container_tree(probe)
    return containers if leaves == order else None


def _unflatten_outputs(entry: "_Entry", outs: tuple[ArrayImpl, ...]) -> Any:
    if entry.single_output:
        return outs[0]
    return tree_unflatten(entry.out_tree, outs)


def _as_array(leaf: object) -> Array:
    return leaf_to_array(leaf, "argument", "jit")


def _execute(name: str, entry: _Entry, args: Sequence[Any]) -> tuple[ArrayImpl, ...]:
    """Run an entry's executable (compiled on first use) on concrete args;
    with ``jax_debug_nans``/``jax_debug_infs`` on, check the outputs."""
    outs = _execute_unchecked(name, entry, args)
    if config.jax_debug_nans or config.jax_debug_infs:
        check_nonfinite(name, outs)  # breadth: jaxtyped.debug_nans
    return outs


def _execute_unchecked(name: str, entry: _Entry, args: Sequence[Any]) -> tuple[ArrayImpl, ...]:
    if entry.spmd is not None or _any_sharded(args):
        return execute_spmd(name, entry.closed, [_concrete(a, name) for a in args], entry.spmd, entry.donated)
    executable = entry.executable
    consts = entry.closed.consts
    if executable is None:
        jaxpr = consts_as_invars(_prune_unused(entry.closed.jaxpr, entry.kept))
        executable = entry.executable = executable_for(jaxpr, name, (False,) * len(consts) + entry.run_donated)
        if entry.cacheable:
            entry.const_buffers = [device_buffer(c) for c in consts]  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # cacheable entries have concrete consts
            entry.launcher = xla.launcher(executable)
            entry.out_containers = _container_tree(entry.out_tree)
            if not entry.any_donated:  # a donating program runs through Jitted._run_donating_hit
                entry.run = executable.execute
                if entry.single_output and entry.kept is None and not consts:
                    entry.bare = entry.launcher
    if entry.kept is not None:  # Note [keep_unused]
        args = [args[i] for i in entry.kept]
    if not entry.any_donated:
        buffers = [device_buffer(c) for c in consts]  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # cacheable entries have concrete consts
        for a in args:
            buffers.append(device_buffer(a if type(a) is ArrayImpl else _concrete(a, name)))
        return tuple(map(array_from_device, executable.execute(buffers), entry.out_avals))
    concrete = [_concrete(a, name) for a in (*consts, *args)]
    donated = (False,) * len(consts) + entry.run_donated
    return run_executable(executable, concrete, donated, entry.out_avals, name)


def _any_sharded(args: Sequence[Any]) -> bool:
    for a in args:
        if type(a) is ArrayImpl and a._sharding is not None:  # pyright: ignore[reportPrivateUsage]  # set only for multi-device arrays
            return True
    return False


def _concrete(a: object, name: str) -> ArrayImpl:
    array = a if isinstance(a, Array) else _as_array(a)
    if type(array) is not ArrayImpl:
        raise JaxtypedTypeError(f"jit of {name}: expected a concrete array, got {type(array).__name__}")
    assert isinstance(array, ArrayImpl)
    return array


# Note [keep_unused]: with jit's keep_unused=False (the default, as in
# JAX) the compiled program takes only the dynamic leaves it reads: an entry
# records their positions (``kept``; None when it reads them all), the
# program is lowered from the jaxpr without the others (dead equations
# dropped first, as they would be before lowering anyway), and calls pass
# only those leaves, so an unused argument is never transferred (nor
# donated). The jaxpr keeps every argument, as JAX's make_jaxpr does; a
# program over a mesh keeps them all.


def _used_leaves(closed: ClosedJaxpr) -> tuple[int, ...] | None:
    """The positions of the invars ``closed`` reads, or None if it reads all."""
    _, used = dce_jaxpr(closed.jaxpr, (True,) * len(closed.jaxpr.outvars))
    return None if all(used) else tuple(i for i, u in enumerate(used) if u)


def _prune_unused(jaxpr: Jaxpr, kept: tuple[int, ...] | None) -> Jaxpr:
    """``jaxpr`` taking only the invars at ``kept`` (all when None)."""
    if kept is None:
        return jaxpr
    live, _ = dce_jaxpr(jaxpr, (True,) * len(jaxpr.outvars), prune_invars=True)
    return live


_T = TypeVar("_T")


def _kept_items(items: Sequence[_T], kept: tuple[int, ...] | None) -> tuple[_T, ...]:
    return tuple(items) if kept is None else tuple(items[i] for i in kept)


# === stages: Traced -> Lowered -> Compiled ===

# What ``Traced.out_info`` returns: the output pytree with a
# ShapeDtypeStruct for each array; a bare ShapeDtypeStruct for a function
# returning one array. Containers hold ``object``: a recursive alias would
# be exact for tuples, lists and dicts, but pyright 1.1.414 resolves a
# recursive ``TypeAliasType`` to Unknown in other modules and beartype
# cannot check an old-style recursive alias.
OutInfo = ShapeDtypeStruct | None | tuple[object, ...] | list[object] | dict[Hashable, object]


@final
class _CallSpec:
    """How a traced call was made, for :class:`Compiled` to check later calls
    against: the number of positional arguments, the static arguments (by
    position or name), the dynamic arguments' tree structure, and the
    arguments a bound method prepends."""

    __slots__ = ("nargs", "static_args", "in_tree", "bound")

    nargs: int
    static_args: dict[int | str, object]
    in_tree: PyTreeDef
    bound: tuple[object, ...]

    def __init__(
        self, nargs: int, static_args: dict[int | str, object], in_tree: PyTreeDef, bound: tuple[object, ...]
    ) -> None:
        self.nargs = nargs
        self.static_args = static_args
        self.in_tree = in_tree
        self.bound = bound

    def dynamic_leaves(self, args: tuple[object, ...], kwargs: dict[str, object]) -> list[object]:
        """The dynamic leaves of a call. Static arguments may be passed as
        when tracing (they must then equal the traced values) or left out,
        as JAX's ``Compiled`` expects."""
        args = (*self.bound, *args)
        full = len(args) == self.nargs
        dyn_args: list[object] = []
        for i, a in enumerate(args):
            if full and i in self.static_args:
                _check_static(i, self.static_args[i], a)
            else:
                dyn_args.append(a)
        dyn_kwargs: dict[str, object] = {}
        for k, v in kwargs.items():
            if k in self.static_args:
                _check_static(k, self.static_args[k], v)
            else:
                dyn_kwargs[k] = v
        leaves, tree = tree_flatten((tuple(dyn_args), dyn_kwargs))
        if tree != self.in_tree:
            raise JaxtypedTypeError(
                f"Compiled: called with arguments of structure {tree} but compiled for {self.in_tree}"
            )
        return leaves


def _check_static(where: int | str, traced: object, given: object) -> None:
    if type(given) is not type(traced) or not bool(given == traced):
        raise JaxtypedTypeError(
            f"Compiled: static argument {where!r} is {given!r} but the function was compiled for {traced!r}"
        )


@final
class Traced(Generic[P, R_co]):
    """A traced jitted function: its jaxpr and output structure. It keeps
    the jitted function's signature, through :meth:`lower` and
    :meth:`Lowered.compile` to the :class:`Compiled` call."""

    def __init__(
        self,
        jaxpr: ClosedJaxpr,
        out_tree: PyTreeDef,
        name: str,
        donated: tuple[bool, ...],
        spec: _CallSpec,
        spmd: SpmdPlan | None = None,
        kept: tuple[int, ...] | None = None,
    ) -> None:
        self.jaxpr = jaxpr
        self.out_tree = out_tree
        self.fun_name = name
        self._donated = donated
        self._spec = spec
        self._spmd = spmd
        self._kept = kept  # Note [keep_unused]

    @property
    def in_tree(self) -> PyTreeDef:
        """The structure of the dynamic arguments ``(args, kwargs)``."""
        return self._spec.in_tree

    @property
    def over_mesh(self) -> bool:
        """Whether the function runs over several devices (sharded
        arguments, or shardings asked for)."""
        return self._spmd is not None

    @property
    def out_info(self) -> OutInfo:
        """The outputs' ``ShapeDtypeStruct`` pytree."""
        shapes = [ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in self.jaxpr.out_avals]
        info: OutInfo = tree_unflatten(self.out_tree, shapes)
        return info

    def lower(self) -> "Lowered[P, R_co]":
        """Lower the jaxpr to a StableHLO module."""
        jaxpr = consts_as_invars(_prune_unused(self.jaxpr.jaxpr, self._kept))
        donated = (False,) * len(self.jaxpr.consts) + _kept_items(self._donated, self._kept)
        if self._spmd is not None:
            # The SPMD module over the mesh, with its sharding annotations.
            module = LoweredModule(self._spmd.text(), jaxpr.in_avals, jaxpr.out_avals)
        else:
            with timed_event(JAXPR_TO_MLIR_MODULE_EVENT, f"jit({self.fun_name})"):
                module = lower_jaxpr(jaxpr, name=self.fun_name, donated=donated)
        return Lowered(module, self.jaxpr, self.out_tree, donated, self._spec, self._spmd, self._kept, self.fun_name)


@final
class Lowered(Generic[P, R_co]):
    """A lowered jitted function: a StableHLO module ready to compile."""

    def __init__(
        self,
        module: LoweredModule,
        jaxpr: ClosedJaxpr,
        out_tree: PyTreeDef,
        donated: tuple[bool, ...],
        spec: _CallSpec,
        spmd: SpmdPlan | None = None,
        kept: tuple[int, ...] | None = None,
        fun_name: str = "fun",
    ) -> None:
        self._module = module
        self._fun_name = fun_name
        self._jaxpr = jaxpr
        self._out_tree = out_tree
        self._donated = donated  # per program parameter (consts first)
        self._spec = spec
        self._spmd = spmd
        self._kept = kept

    def as_text(self, dialect: str = "stablehlo") -> str:
        """The module in MLIR's readable syntax (JAX's ``Lowered.as_text``)."""
        if dialect != "stablehlo":
            raise JaxtypedValueError(f"Lowered.as_text: unsupported dialect {dialect!r} (only 'stablehlo')")
        return xla.pretty_module(self._module.text)

    def compile(self) -> "Compiled[P, R_co]":
        """Compile the module with XLA."""
        if self._spmd is not None:
            program = self._spmd.compile()
            return Compiled(program.executable, self._jaxpr, self._out_tree, self._donated, self._spec, (self._spmd, program))
        with compiling(f"jit({self._fun_name})"):
            executable = host_callbacks.compile_lowered(self._module)
        return Compiled(executable, self._jaxpr, self._out_tree, self._donated, self._spec, kept=self._kept)


@final
class Compiled(Generic[P, R_co]):
    """A compiled jitted function; call it as the jitted function, with
    arguments of the lowered types (static arguments may be left out)."""

    def __init__(
        self,
        executable: xla.Executable,
        jaxpr: ClosedJaxpr,
        out_tree: PyTreeDef,
        donated: tuple[bool, ...],
        spec: _CallSpec,
        spmd: "tuple[SpmdPlan, SpmdProgram] | None" = None,
        kept: tuple[int, ...] | None = None,
    ) -> None:
        self._executable = executable
        self._jaxpr = jaxpr
        self._out_tree = out_tree
        self._donated = donated
        self._spec = spec
        self._spmd = spmd
        self._kept = kept

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R_co:
        leaves = self._spec.dynamic_leaves(args, kwargs)
        arrays = [_as_array(leaf) for leaf in leaves]
        expected = self._jaxpr.jaxpr.in_avals
        got = tuple(a.aval for a in arrays)
        if len(got) != len(expected) or not all(g.same_type(e) for g, e in zip(got, expected)):
            raise JaxtypedTypeError(
                "Compiled: called with ("
                + ", ".join(a.str_short() for a in got)
                + ") but compiled for ("
                + ", ".join(a.str_short() for a in expected)
                + ")"
            )
        concrete = [*self._jaxpr.consts, *_kept_items(arrays, self._kept)]
        for a in concrete:
            if type(a) is not ArrayImpl:
                raise JaxtypedTypeError("Compiled: a compiled function is called with concrete arrays only")
        if self._spmd is not None:
            plan, program = self._spmd
            outs = plan.run(program, concrete)  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # all ArrayImpl, checked above
        else:
            outs = run_executable(
                self._executable, concrete, self._donated, self._jaxpr.jaxpr.out_avals, "compiled function"  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # all ArrayImpl, checked above
            )
        return tree_unflatten(self._out_tree, list(outs))  # type: ignore[no-any-return]  # R_co is what the jitted function returns

    def as_text(self) -> str:
        """The optimized HLO XLA produced."""
        return self._executable.hlo_text()

    def cost_analysis(self) -> dict[str, float]:
        """XLA's cost estimates for the program."""
        return self._executable.cost_analysis()


# === jit ===


def _normalize_argnums(value: int | Sequence[int] | None, what: str) -> tuple[int, ...]:
    if value is None:
        return ()
    items = (value,) if isinstance(value, int) else tuple(value)
    for i in items:
        if isinstance(i, bool) or not isinstance(i, (int, np.integer)):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
            raise JaxtypedTypeError(f"jit: {what} must be an int or a sequence of ints, got {value!r}")
    return tuple(int(i) for i in items)


if TYPE_CHECKING:
    _DecoratorBase = object
else:
    # At run time a Jitted (never initialised as one), so that the debug
    # mode's check of jit's declared result accepts the factory form's.
    _DecoratorBase = Jitted


@final
class _JitDecorator(_DecoratorBase):
    """What ``jit(**options)`` returns without a function (JAX's
    decorator-factory form): applied to a function, it jits it with those
    options, keeping the function's signature. It is also ``jit``'s default
    ``fun``: see Note [jit's decorator-factory form]."""

    __slots__ = ("_options",)

    def __init__(self, options: "Mapping[str, Any]") -> None:
        self._options = dict(options)

    def __call__(self, fun: Callable[P2, R2], /) -> "Jitted[P2, R2]":
        return _jit(fun, **self._options)

    def __repr__(self) -> str:
        return f"jit({', '.join(f'{k}={v!r}' for k, v in self._options.items())})"


CompilerOption = str | bool | int | float
"""A value of an XLA compile option (``jit``'s ``compiler_options``)."""

_NO_FUN: Final = _JitDecorator({})


# Note [jit's decorator-factory form]: ``jit`` is one non-overloaded
# function, so that ``functools.partial(jit, ...)`` keeps the wrapped
# signature in mypy (its partial support gives up on overloaded callees,
# python/mypy functools plugin, and then even rejects jitted methods).
# Without ``fun``, the default -- a _JitDecorator, itself a
# ``Callable[[Callable[P2, R2]], Jitted[P2, R2]]`` -- stands for ``fun``:
# pyright solves P and R from it, so ``@jit(static_argnames="n")`` keeps the
# signature there. mypy does not solve type variables from defaults: it
# gives an unsolved ParamSpec Never and an unsolved TypeVar its default, so
# the factory call is ``Jitted[Never, _FactoryForm]`` there, and Jitted's
# second ``__call__`` overload (whose self type only that matches) takes the
# function and keeps its signature. A Jitted whose result is Any matches it
# too, so mypy reports a bad call of a jitted function returning Any as
# ``call-overload`` (not ``arg-type``); a default for P would avoid that but
# breaks ``functools.partial(jit, ...)`` (mypy's partial applies it).
def jit(
    fun: Callable[P, R_fun] = _NO_FUN,  # type: ignore[assignment]  # see Note [jit's decorator-factory form]
    /,
    *,
    static_argnums: int | Sequence[int] | None = None,
    static_argnames: str | Iterable[str] | None = None,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Iterable[str] | None = None,
    keep_unused: bool = False,
    inline: bool = False,
    in_shardings: ShardingsArg = None,
    out_shardings: ShardingsArg = None,
    compiler_options: Mapping[str, CompilerOption] | None = None,
) -> Jitted[P, R_fun]:
    """Compile ``fun`` with XLA (JAX's ``jax.jit``).

    Args:
        fun: the function to compile; its arguments are pytrees of arrays
            and scalars (or static values, see below).
        static_argnums: positions of arguments passed to ``fun`` as Python
            values; each distinct (hashable) value triggers a retrace.
        static_argnames: the same by keyword name. Positions and names are
            matched through ``fun``'s signature, as in JAX.
        donate_argnums: positions of arguments whose buffers the program may
            reuse for outputs; a donated array is deleted by the call.
        donate_argnames: the same by keyword name (matched with positions
            through ``fun``'s signature, as for static arguments).
        keep_unused: when False (the default), the compiled program takes
            only the arguments the function reads: the others are neither
            transferred nor donated (``lower(...).as_text()`` shows the
            parameters left). True keeps every argument as a parameter.
        inline: when True, a call inside another trace (an enclosing jit,
            ``make_jaxpr``, a transformation) traces the function in place:
            its equations join the enclosing jaxpr instead of one ``jit``
            equation.
        compiler_options: XLA compile options; only an empty mapping is
            supported (others raise ``NotImplementedError`` at once rather
            than being silently ignored).
        in_shardings: a ``Sharding`` (or ``PartitionSpec`` inside ``with
            mesh:``) for every argument, or a sequence with one (or None)
            per positional argument: the call runs over the mesh's devices.
        out_shardings: the same for the outputs (one per element of a
            tuple output); unspecified outputs keep the partitioner's layout.

    Without ``fun``, ``jit(**options)`` returns a decorator that applies
    them (``@jit(static_argnames="n")``), as in JAX.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> f = jt.jit(lambda x: jnp.sin(x) * 2.0)
        >>> f(jnp.float32(0.5))
        Array(0.9588511, dtype=float32)
    """
    options: dict[str, Any] = {
        "in_shardings": in_shardings, "out_shardings": out_shardings, "static_argnums": static_argnums,
        "static_argnames": static_argnames, "donate_argnums": donate_argnums, "donate_argnames": donate_argnames,
        "keep_unused": keep_unused, "inline": inline, "compiler_options": compiler_options,
    }
    if fun is _NO_FUN:
        return _JitDecorator(options)  # type: ignore[return-value]  # pyright: ignore[reportReturnType]  # the factory form: P and R stand for the decorator (Note above)
    return _jit(fun, **options)


def _jit(
    fun: Callable[P, R],
    /,
    *,
    static_argnums: int | Sequence[int] | None = None,
    static_argnames: str | Iterable[str] | None = None,
    donate_argnums: int | Sequence[int] | None = None,
    donate_argnames: str | Iterable[str] | None = None,
    keep_unused: bool = False,
    inline: bool = False,
    in_shardings: ShardingsArg = None,
    out_shardings: ShardingsArg = None,
    compiler_options: Mapping[str, CompilerOption] | None = None,
) -> Jitted[P, R]:
    check_callable(fun, "jit")
    if compiler_options:
        raise JaxtypedNotImplementedError(
            f"jit: compiler_options are not supported (got {sorted(compiler_options)}); XLA compiles with "
            "its default options"
        )
    nums = _normalize_argnums(static_argnums, "static_argnums")
    names = normalize_argnames(static_argnames, "jit", "static_argnames")
    donate = _normalize_argnums(donate_argnums, "donate_argnums")
    donate_names = normalize_argnames(donate_argnames, "jit", "donate_argnames")
    check_argnames(fun, donate_names, "jit", "donate_argnames")
    nums, names = match_static(fun, nums, names)
    if not (donate and donate_names):  # both given: each is used as it is (JAX's rule)
        donate, donate_names = match_static(fun, donate, donate_names)
    overlap = set(nums) & set(donate)
    if overlap:
        raise JaxtypedValueError(f"jit: arguments {sorted(overlap)} cannot be both static and donated")
    both_names = set(names) & set(donate_names)
    if both_names:
        raise JaxtypedValueError(
            f"jit: static_argnames and donate_argnames cannot intersect; {sorted(both_names)} appear in both"
        )
    return Jitted(
        fun, nums, names, donate, shardings=(in_shardings, out_shardings), donate_argnames=donate_names,
        keep_unused=keep_unused, inline=inline,
    )  # fmt: skip
