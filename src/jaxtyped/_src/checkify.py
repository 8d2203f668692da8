"""Functionalized runtime checks: JAX's ``jax.experimental.checkify`` (layer L5).

``check(pred, msg, ...)`` binds the ``check`` primitive. ``checkify(f)``
runs ``f`` under a :class:`CheckifyInterpreter`, which turns every check
(and, for the enabled automatic categories, every primitive that can
produce a NaN, divide by zero or index out of bounds) into an update of a
small error state, and returns that state as an :class:`Error` with the
function's output.

Note [checkify's error state]: the state is a pytree of arrays: per
*payload signature* (the error category and the types of its payload
values, JAX's ``ErrorEffect``) a failed flag (``bool[]``), the code of the
first failed check of that signature (``i32[]``) and its payload (the
values its message is formatted with). Messages stay static: a code
indexes a process-wide table of check sites, so a staged program carries
only the arrays. Codes are handed out in tracing order, user checks first
(JAX traces the function before checking it), and ``Error.get()`` reports
the failed check of lowest code, as JAX's does.

The interpreter owns no values: it hands each application to its parent
(so an outer ``jit``, ``vmap`` or ``grad`` transforms the checks along with
the program) and then folds the check into its state, computed under the
parent. A higher-order primitive (``jit``, ``cond``, ``while``, ``scan``)
(and ``checkpoint``) has its inner jaxprs re-traced under a nested checkify interpreter with the
error state threaded through as extra inputs and outputs (a loop carry, a
branch operand); a body that adds a new payload signature is traced again
with the widened state. A custom-derivative call whose function checks
something is inlined (its primal function is checked, as JAX's checkify
does, but its custom rule is lost); one that checks nothing is kept whole.

Outside ``checkify``, ``check`` raises :class:`JaxRuntimeError` eagerly when
its predicate is false; a staged ``check`` has no lowering and fails with
JAX's ``ValueError`` asking for ``checkify``.
"""

import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, ParamSpec, TypeAlias, TypeVar, final

import numpy as np
from typing_extensions import override

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.effects import Effect, Effects
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import Interpreter, bind, current_interpreter, interpreting
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import Primitive, Tangent
from jaxtyped._src.custom_derivatives_primitives import CustomCall
from jaxtyped._src.lax.control_flow.common import join_consts, trace_flat
from jaxtyped._src.lax.control_flow.cond import Cond
from jaxtyped._src.lax.control_flow.loops import While
from jaxtyped._src.lax.control_flow.scan import Scan
from jaxtyped._src.lax.gather import Gather, ScatterBase
from jaxtyped._src.lax.slicing import DynamicSlice
from jaxtyped._src.numpy.creation import asarray, zeros
from jaxtyped._src.numpy.index_functions import where
from jaxtyped._src.numpy.reductions import all as jnp_all
from jaxtyped._src.numpy.reductions import any as jnp_any
from jaxtyped._src.numpy.reductions import argmin
from jaxtyped._src.numpy.shape_ops import moveaxis, ravel, stack
from jaxtyped._src.numpy.ufuncs import isnan
from jaxtyped._src.pjit import JitCall, consts_as_invars, jit_call
from jaxtyped._src.remat import Checkpoint
from jaxtyped._src.tree_util import PyTreeDef, register_pytree_node, tree_flatten, tree_unflatten
from jaxtyped._src.util import describe_function

__all__ = [
    "JaxException",
    "JaxRuntimeError",
    "FailedCheckError",
    "NaNError",
    "OOBError",
    "DivisionByZeroError",
    "ErrorCategory",
    "Error",
    "init_error",
    "check",
    "debug_check",
    "check_error",
    "checkify",
    "user_checks",
    "nan_checks",
    "index_checks",
    "div_checks",
    "float_checks",
    "automatic_checks",
    "all_checks",
]

P = ParamSpec("P")
R = TypeVar("R")


# === error kinds ===


class JaxException(Exception):
    """Base of the error categories (JAX's ``JaxException``)."""


class FailedCheckError(JaxException):
    """A user ``check`` failed."""


class NaNError(JaxException):
    """A primitive produced a NaN."""


class OOBError(JaxException):
    """An index was out of bounds."""


class DivisionByZeroError(JaxException):
    """A division by zero."""


class JaxRuntimeError(ValueError):
    """Raised by :meth:`Error.throw` and by a failed eager ``check``."""


ErrorCategory: TypeAlias = type[JaxException]

user_checks: Final[frozenset[ErrorCategory]] = frozenset({FailedCheckError})
nan_checks: Final[frozenset[ErrorCategory]] = frozenset({NaNError})
index_checks: Final[frozenset[ErrorCategory]] = frozenset({OOBError})
div_checks: Final[frozenset[ErrorCategory]] = frozenset({DivisionByZeroError})
float_checks: Final[frozenset[ErrorCategory]] = nan_checks | div_checks
automatic_checks: Final[frozenset[ErrorCategory]] = float_checks | index_checks
all_checks: Final[frozenset[ErrorCategory]] = automatic_checks | user_checks


# === check sites: the static half of an error ===

HostPayload: TypeAlias = tuple[np.ndarray[tuple[int, ...], np.dtype[np.generic]] | np.generic, ...]
# A payload signature: category and the (shape, dtype name) of each value.
PayloadKey: TypeAlias = tuple[ErrorCategory, tuple[tuple[tuple[int, ...], str], ...]]


@final
@dataclass(frozen=True, slots=True)
class _Site:
    """One check: its category and how its message is made from a payload."""

    category: ErrorCategory
    message: Callable[[HostPayload], str]
    key: PayloadKey


# Codes are handed out in tracing order, as JAX's: a user check's when
# ``check`` is called, an automatic check's (offset, so that user checks come
# first, as in JAX, which traces the function before checking it) when the
# checkify interpreter meets the primitive. The lowest failed code wins.
_AUTOMATIC: Final = 1 << 30
_sites: dict[int, _Site] = {}
_sites_lock: Final = threading.Lock()
_counter: list[int] = [0]


def _next_code() -> int:
    with _sites_lock:
        _counter[0] += 1
        return _counter[0]


def _register(code: int, site: _Site) -> int:
    with _sites_lock:
        _sites.setdefault(code, site)
    return code


def _payload_key(category: ErrorCategory, avals: Sequence[ShapedArray]) -> PayloadKey:
    return (category, tuple((aval.shape, aval.dtype.name) for aval in avals))


def _user_message(msg: str, tree: PyTreeDef, payload: HostPayload) -> str:
    args, kwargs = tree_unflatten(tree, list(payload))
    return str(msg.format(*args, **kwargs)) + " (`check` failed)"


def _user_site(prim: "Check", avals: tuple[ShapedArray, ...]) -> _Site:
    msg, tree = prim.msg, prim.tree
    return _Site(FailedCheckError, lambda payload: _user_message(msg, tree, payload), _payload_key(FailedCheckError, avals))


def _nan_site(prim_name: str) -> int:
    site = _Site(NaNError, lambda _: f"nan generated by primitive: {prim_name}.", (NaNError, ()))
    return _register(_AUTOMATIC + _next_code(), site)


def _div_site() -> int:
    site = _Site(DivisionByZeroError, lambda _: "division by zero", (DivisionByZeroError, ()))
    return _register(_AUTOMATIC + _next_code(), site)


_OOB_AVALS: Final = (ShapedArray((3,), np.dtype(np.int32)),)


def _oob_site(shape: tuple[int, ...]) -> int:
    def message(payload: HostPayload) -> str:
        index, axis, size = (int(v) for v in np.asarray(payload[0]).tolist())
        return (
            f"out-of-bounds indexing for array of shape {shape}: index {index} is out of bounds "
            f"for axis {axis} with size {size}. "
        )

    return _register(_AUTOMATIC + _next_code(), _Site(OOBError, message, _payload_key(OOBError, _OOB_AVALS)))


# === the error value ===


def _host(x: Array) -> np.ndarray[tuple[int, ...], np.dtype[np.generic]]:
    return np.asarray(x)


# Per payload signature: whether a check of it failed, the code of the
# first that did, and its payload.
Entry: TypeAlias = tuple[Array, Array, tuple[Array, ...]]


class Error:
    """The error state ``checkify`` returns: a pytree of arrays (see
    Note [checkify's error state]); batched under ``vmap``."""

    __slots__ = ("_entries",)

    _entries: dict[PayloadKey, Entry]

    def __init__(self, entries: dict[PayloadKey, Entry]) -> None:
        self._entries = entries

    def _failures(self) -> tuple[tuple[int, ...], list[tuple[tuple[int, ...], _Site, str]]]:
        """The batch shape and, per index where a check failed, the site
        of the lowest failed code and its message."""
        host = {key: (_host(p), _host(c), tuple(_host(v) for v in vals)) for key, (p, c, vals) in self._entries.items()}
        shape: tuple[int, ...] = np.broadcast_shapes(*(p.shape for p, _, _ in host.values())) if host else ()
        found: list[tuple[tuple[int, ...], _Site, str]] = []
        for index in np.ndindex(shape):
            best: tuple[int, PayloadKey] | None = None
            for key, (pred, code, _) in host.items():
                if bool(np.broadcast_to(pred, shape)[index]):
                    c = int(np.broadcast_to(code, shape)[index])
                    if best is None or c < best[0]:
                        best = (c, key)
            if best is None:
                continue
            site = _sites[best[0]]
            key = best[1]
            values = tuple(
                v[index] if v.ndim > len(spec[0]) else v for v, spec in zip(host[key][2], key[1])
            )
            found.append((tuple(int(i) for i in index), site, site.message(values)))
        return shape, found

    def get(self) -> str | None:
        """The message of the failed check of lowest code (per mapped index
        when batched), or ``None`` when every check passed."""
        shape, found = self._failures()
        if not found:
            return None
        if not shape:
            return found[0][2]
        return "\n".join(f"at mapped index {', '.join(map(str, index))}: {message}" for index, _, message in found)

    def get_exception(self) -> JaxException | None:
        """The failure as an instance of its category, or ``None``."""
        _, found = self._failures()
        message = self.get()
        if not found or message is None:
            return None
        return found[0][1].category(message)

    def throw(self) -> None:
        """Raise :class:`JaxRuntimeError` if a check failed."""
        message = self.get()
        if message is not None:
            raise JaxRuntimeError(message)

    def __str__(self) -> str:
        return f"Error({self.get()})"

    __repr__ = __str__


def _flatten_error(err: Error) -> tuple[list[Array], tuple[PayloadKey, ...]]:
    leaves: list[Array] = []
    for pred, code, vals in err._entries.values():  # pyright: ignore[reportPrivateUsage]
        leaves += [pred, code, *vals]
    return leaves, tuple(err._entries)  # pyright: ignore[reportPrivateUsage]


def _unflatten_error(keys: tuple[PayloadKey, ...], leaves: Sequence[Array]) -> Error:
    entries: dict[PayloadKey, Entry] = {}
    at = 0
    for key in keys:
        count = len(key[1])
        entries[key] = (leaves[at], leaves[at + 1], tuple(leaves[at + 2 : at + 2 + count]))
        at += 2 + count
    return Error(entries)


register_pytree_node(Error, _flatten_error, _unflatten_error)

init_error: Final = Error({})


# === the check primitive ===


@final
@dataclass(frozen=True, slots=True)
class CheckEffect(Effect):
    """The effect of a ``check`` (keeps it from dead-code elimination)."""

    def __str__(self) -> str:
        return "Check"


_CHECK_EFFECTS: Final[Effects] = frozenset({CheckEffect()})

_NOT_FUNCTIONALIZED: Final = (
    "Cannot abstractly evaluate a checkify.check which was not functionalized. This probably means you "
    "tried to stage (jit/scan/pmap/...) a `check` without functionalizing it through `checkify.checkify`."
)


@final
@dataclass(frozen=True, slots=True)
class Check(Primitive):
    """``check(pred, *payload)``: fail with ``msg`` formatted with the
    payload (arranged as ``tree``) when ``pred`` is false; ``code`` orders
    it among other checks; ``debug`` checks do nothing outside ``checkify``."""

    name: ClassVar[str] = "check"
    several_results = True
    code: int
    msg: str
    tree: PyTreeDef
    debug: bool

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        return ()

    @override
    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        return _CHECK_EFFECTS

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        if not self.debug and not bool(np.all(_host(args[0]))):
            raise JaxRuntimeError(_user_message(self.msg, self.tree, tuple(_host(a) for a in args[1:])))
        return ()

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        if self.debug:
            return ()
        raise ValueError(_NOT_FUNCTIONALIZED)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        bind(self, *primals)
        return (), ()

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        # One check for the whole batch: it fails if any instance fails,
        # with the payload of the last failing instance (as JAX's rule).
        size = next(a.shape[d] for a, d in zip(args, dims) if d is not None)
        pred = args[0] if dims[0] is None else moveaxis(args[0], dims[0], 0)
        if dims[0] is None:
            holds = jnp_all(pred)
            last = asarray(np.int32(size - 1))
        else:
            per_instance = jnp_all(pred.reshape((size, -1)), axis=1)
            holds = jnp_all(per_instance)
            last = asarray(np.int32(size - 1)) - argmin(per_instance[::-1]).astype(np.int32)
        payload = [a if d is None else moveaxis(a, d, 0)[last] for a, d in zip(args[1:], dims[1:])]
        bind(self, holds, *payload)
        return (), ()


def check(pred: ArrayLike, msg: str, *fmt_args: object, debug: bool = False, **fmt_kwargs: object) -> None:
    """Check that ``pred`` holds; otherwise fail with ``msg`` formatted with
    the arrays ``fmt_args`` / ``fmt_kwargs`` (``str.format``).

    Under :func:`checkify` the failure is recorded in the returned
    :class:`Error`; eagerly it raises :class:`JaxRuntimeError`; staged
    without ``checkify`` it cannot be compiled (``ValueError``).
    """
    leaves, tree = tree_flatten((fmt_args, fmt_kwargs))
    arrays: list[Array] = []
    for leaf in leaves:
        leaf_object: object = leaf
        if isinstance(leaf_object, Array):
            arrays.append(asarray(leaf_object, dtype=leaf_object.dtype))
            continue
        if not isinstance(leaf_object, (np.ndarray, np.generic)):
            raise TypeError(
                "Formatting arguments to checkify.check need to be PyTrees of arrays, but got "
                f"{leaf_object!r} of type {type(leaf_object)}."
            )
        arrays.append(asarray(np.asarray(leaf_object)))  # pyright: ignore[reportUnknownArgumentType]  # any NumPy value
    pred_array = asarray(pred)
    if pred_array.dtype != np.dtype(np.bool_) or pred_array.shape:
        raise TypeError(f"check takes a scalar pred as argument, got {pred_array}")
    bind(Check(_next_code(), msg, tree, debug), pred_array, *arrays)


def debug_check(pred: ArrayLike, msg: str, *fmt_args: object, **fmt_kwargs: object) -> None:
    """A :func:`check` that does nothing outside :func:`checkify`."""
    check(pred, msg, *fmt_args, debug=True, **fmt_kwargs)


def check_error(error: Error) -> None:
    """Raise if ``error`` failed (eagerly), or fold it into the enclosing
    :func:`checkify`'s error (when called directly under it)."""
    interp = current_interpreter()
    if isinstance(interp, CheckifyInterpreter):
        with interpreting(interp.require_parent()):
            interp.state = _merge(interp.state, error)
        return
    leaves, _ = tree_flatten(error)
    if all(isinstance(leaf, ArrayImpl) for leaf in leaves):
        error.throw()
        return
    raise ValueError(_NOT_FUNCTIONALIZED)


# === the interpreter ===


def _assert(state: Error, fails: Array, code: Array | int, key: PayloadKey, payload: Sequence[Array]) -> Error:
    """``state`` after a check ``code`` that ``fails`` (per signature, the
    first failure is kept)."""
    entries = dict(state._entries)  # pyright: ignore[reportPrivateUsage]
    code_array = asarray(np.int32(code)) if isinstance(code, int) else code
    old = entries.get(key)
    if old is None:
        entries[key] = (fails, code_array, tuple(payload))
    else:
        failed, old_code, old_payload = old
        entries[key] = (
            failed | fails,
            where(failed, old_code, code_array),
            tuple(where(failed, o, v) for o, v in zip(old_payload, payload)),
        )
    return Error(entries)


def _merge(state: Error, other: Error) -> Error:
    """``state`` with ``other``'s failures added."""
    for key, (pred, code, payload) in other._entries.items():  # pyright: ignore[reportPrivateUsage]
        state = _assert(state, pred, code, key, payload)
    return state


# Primitives that can produce a NaN (JAX's list, by name).
_NAN_PRIMITIVES: Final = frozenset(
    "acos acosh add asin asinh atan2 atan atanh bessel_i0e bessel_i1e cbrt conv_general_dilated cos cosh "
    "cumlogsumexp cummax cummin cumprod cumsum digamma dot_general erf_inv erf erfc exp expm1 fft "
    "igamma_grad_a igamma igammac integer_pow lgamma linear_solve log1p log logistic mul pad pow psum "
    "reduce reduce_prod reduce_sum reduce_window reduce_window_sum regularized_incomplete_beta rem "
    "rng_uniform rsqrt sin sinh sqrt sub tan tanh div".split()
)


def _state_leaves(state: Error, keys: Sequence[PayloadKey]) -> list[Array]:
    """The state's arrays laid out for ``keys`` (a signature with no check
    yet: not failed, code -1, zero payload)."""
    leaves: list[Array] = []
    for key in keys:
        entry = state._entries.get(key)  # pyright: ignore[reportPrivateUsage]
        if entry is None:
            entry = (asarray(False), asarray(np.int32(-1)), tuple(zeros(shape, np.dtype(dtype)) for shape, dtype in key[1]))
        pred, code, vals = entry
        leaves += [pred, code, *vals]
    return leaves


def _state_from(leaves: Sequence[Array], keys: Sequence[PayloadKey]) -> Error:
    return _unflatten_error(tuple(keys), leaves)


def _state_avals(keys: Sequence[PayloadKey]) -> list[ShapedArray]:
    avals: list[ShapedArray] = []
    for _, shapes in keys:
        avals += [ShapedArray((), np.dtype(np.bool_)), ShapedArray((), np.dtype(np.int32))]
        avals += [ShapedArray(shape, np.dtype(dtype)) for shape, dtype in shapes]
    return avals


def _widen(keys: list[PayloadKey], more: Sequence[PayloadKey]) -> bool:
    """Add the keys of ``more`` missing from ``keys``; whether any were."""
    added = [k for k in more if k not in keys]
    keys += added
    return bool(added)


# Note [checkify as an interpreter]: the checkify interpreter boxes nothing.
# Every application goes to the parent interpreter unchanged, so under an
# outer jit the program is staged, under an outer vmap batched, under an outer
# grad differentiated, with the check computations (computed under the
# parent too) joining it; the error state is thus made of the parent's
# values. Inner transformations see checkify as their parent: a vmap inside
# reduces a batched check to one (Check.batch), a grad inside runs its checks
# on primals (Check.jvp). A staged inner jaxpr (jit, cond branches, loop
# bodies) is evaluated again under a nested checkify interpreter in a fresh
# trace whose inputs and outputs carry the state; a body that adds a new
# payload signature is traced again with the widened state (twice at most
# per new signature).
@final
class CheckifyInterpreter(Interpreter):
    """Folds checks into an error state; everything else goes to the parent."""

    def __init__(self, parent: Interpreter, errors: frozenset[ErrorCategory], state: Error, fun_desc: str) -> None:
        super().__init__(parent, "checkify", fun_desc)
        self.errors = errors
        self.state = state

    def process(self, prim: Primitive, args: tuple[Array, ...]) -> tuple[Array, ...]:
        parent = self.require_parent()
        with interpreting(parent):
            if isinstance(prim, Check):
                if FailedCheckError in self.errors:
                    site = _register(prim.code, _user_site(prim, tuple(a.aval for a in args[1:])))
                    self.state = _assert(self.state, ~jnp_all(args[0]), site, _sites[site].key, args[1:])
                return ()
            if isinstance(prim, (JitCall, Checkpoint)):
                return self._call(prim, args)
            if isinstance(prim, Cond):
                return self._cond(prim, args)
            if isinstance(prim, While):
                return self._while(prim, args)
            if isinstance(prim, Scan):
                return self._scan(prim, args)
            if isinstance(prim, CustomCall) and self._checks_in(prim.call_jaxpr):
                # Inlined: its checks are checked (the custom rule is lost).
                with interpreting(self):
                    return eval_jaxpr(prim.call_jaxpr, (), *args)
            if DivisionByZeroError in self.errors and prim.name == "div":
                self._fold(jnp_any(args[1] == 0), _div_site(), ())
            if OOBError in self.errors and isinstance(prim, (DynamicSlice, Gather, ScatterBase)):
                self._check_bounds(prim, args)
            outs = parent.process(prim, args)
            if NaNError in self.errors and (prim.name in _NAN_PRIMITIVES or isinstance(prim, ScatterBase)):
                flags = [jnp_any(isnan(out)) for out in outs if np.issubdtype(out.dtype, np.inexact)]
                if flags:
                    any_nan = flags[0]
                    for flag in flags[1:]:
                        any_nan = any_nan | flag
                    self._fold(any_nan, _nan_site(prim.name), ())
            return outs

    def _checks_in(self, jaxpr: Jaxpr) -> bool:
        """Whether checking ``jaxpr`` (traced aside) checks anything."""
        seen: list[int] = []

        def run(*xs: Array) -> list[Array]:
            inner = CheckifyInterpreter(current_interpreter(), self.errors, init_error, self.fun_desc)
            with interpreting(inner):
                outs = list(eval_jaxpr(jaxpr, (), *xs))
            seen.append(len(inner.state._entries))  # pyright: ignore[reportPrivateUsage]
            return outs

        trace_flat(run, jaxpr.in_avals, f"checkify of {self.fun_desc}")
        return seen[0] > 0

    def _fold(self, fails: Array, code: int, payload: Sequence[Array]) -> None:
        self.state = _assert(self.state, fails, code, _sites[code].key, payload)

    def _check_bounds(self, prim: DynamicSlice | Gather | ScatterBase, args: tuple[Array, ...]) -> None:
        operand = args[0]
        shape = operand.shape
        if isinstance(prim, DynamicSlice):
            starts = stack([i.astype(np.int32) for i in args[1:]]) if args[1:] else zeros((0,), np.int32)
            upper = np.array([d - s for d, s in zip(shape, prim.slice_sizes)], np.int32)
            dims = tuple(range(len(shape)))
            indices = starts.reshape((1, -1))
        elif isinstance(prim, Gather):
            dims = prim.dimension_numbers.start_index_map
            upper = np.array([shape[d] - prim.slice_sizes[d] for d in dims], np.int32)
            indices = args[1].astype(np.int32).reshape((-1, len(dims)))
        else:
            dnums = prim.dimension_numbers
            window = iter(dnums.update_window_dims)
            sizes = [
                1 if d in dnums.inserted_window_dims or d in dnums.operand_batching_dims else args[2].shape[next(window)]
                for d in range(len(shape))
            ]
            dims = dnums.scatter_dims_to_operand_dims
            upper = np.array([shape[d] - sizes[d] for d in dims], np.int32)
            indices = args[1].astype(np.int32).reshape((-1, len(dims)))
        if indices.size == 0:
            return
        mask = (indices < 0) | (indices > asarray(upper))
        flat = argmin(~ravel(mask))
        axis = asarray(np.array(dims, np.int32))[flat % len(dims)]
        size = asarray(np.array(shape, np.int32))[axis]
        payload = stack([ravel(indices)[flat], axis, size]).astype(np.int32)
        self._fold(jnp_any(mask), _oob_site(shape), (payload,))

    # --- higher-order primitives: inner jaxprs with the state threaded ---

    def _traced(
        self, run: Callable[["CheckifyInterpreter", list[Array]], list[Array]], in_avals: Sequence[ShapedArray], keys: list[PayloadKey]
    ) -> tuple[ClosedJaxpr[Array], list[PayloadKey]]:
        """Trace ``(state leaves, *args) -> (state leaves, *outs)`` where the
        state is laid out by ``keys``; the keys the body adds are returned."""
        added: list[PayloadKey] = []
        n_state = len(_state_avals(keys))

        def body(*leaves: Array) -> list[Array]:
            inner = CheckifyInterpreter(current_interpreter(), self.errors, _state_from(leaves[:n_state], keys), self.fun_desc)
            with interpreting(inner):
                outs = run(inner, list(leaves[n_state:]))
            with interpreting(inner.require_parent()):
                _widen(added, [k for k in inner.state._entries if k not in keys])  # pyright: ignore[reportPrivateUsage]
                return _state_leaves(inner.state, keys) + outs

        closed = trace_flat(body, [*_state_avals(keys), *in_avals], f"checkify of {self.fun_desc}")
        return closed, added

    def _traced_fixed(
        self, runs: Sequence[Callable[["CheckifyInterpreter", list[Array]], list[Array]]], in_avals: Sequence[ShapedArray]
    ) -> tuple[list[ClosedJaxpr[Array]], list[PayloadKey]]:
        """Trace each of ``runs`` with a state wide enough for all of them."""
        keys = list(self.state._entries)  # pyright: ignore[reportPrivateUsage]
        while True:
            traced = [self._traced(run, in_avals, keys) for run in runs]
            if not _widen(keys, [k for _, added in traced for k in added]):
                return [closed for closed, _ in traced], keys

    def _call(self, prim: JitCall | Checkpoint, args: tuple[Array, ...]) -> tuple[Array, ...]:
        def run(_: CheckifyInterpreter, xs: list[Array]) -> list[Array]:
            return list(eval_jaxpr(prim.jaxpr, (), *xs))

        (closed,), keys = self._traced_fixed([run], prim.jaxpr.in_avals)
        operands = [*_state_leaves(self.state, keys), *args]
        if isinstance(prim, JitCall):
            outs = jit_call(closed, prim.fun_name, operands)
        else:
            call = Checkpoint(consts_as_invars(closed.jaxpr), prim.prevent_cse, prim.differentiated, prim.policy)
            outs = bind(call, *closed.consts, *operands)
        return self._split(outs, keys)

    def _split(self, outs: Sequence[Array], keys: list[PayloadKey]) -> tuple[Array, ...]:
        n = len(_state_avals(keys))
        self.state = _state_from(outs[:n], keys)
        return tuple(outs[n:])

    def _cond(self, prim: Cond, args: tuple[Array, ...]) -> tuple[Array, ...]:
        def runner(branch: Jaxpr) -> Callable[[CheckifyInterpreter, list[Array]], list[Array]]:
            return lambda _, xs: list(eval_jaxpr(branch, (), *xs))

        closed, keys = self._traced_fixed([runner(b) for b in prim.branches], prim.branches[0].in_avals)
        jaxprs, consts = join_consts(closed)
        outs = bind(Cond(tuple(jaxprs)), args[0], *consts, *_state_leaves(self.state, keys), *args[1:])
        return self._split(outs, keys)

    def _while(self, prim: While, args: tuple[Array, ...]) -> tuple[Array, ...]:
        cond_consts, body_consts, carry = prim.split_operands(args)
        nc = len(cond_consts)
        # The cond runs once on the initial carry (its checks count too) ...
        with interpreting(self):
            eval_jaxpr(prim.cond_jaxpr, (), *cond_consts, *carry)

        # ... and after every step of the body.
        def run_body(inner: CheckifyInterpreter, xs: list[Array]) -> list[Array]:
            cc, bc, c = xs[:nc], xs[nc : nc + len(body_consts)], xs[nc + len(body_consts) :]
            new = list(eval_jaxpr(prim.body_jaxpr, (), *bc, *c))
            eval_jaxpr(prim.cond_jaxpr, (), *cc, *new)
            return new

        carry_avals = list(prim.body_jaxpr.out_avals)
        (body,), keys = self._traced_fixed([run_body], [a.aval for a in cond_consts + body_consts] + carry_avals)
        n_state = len(_state_avals(keys))
        # The body's jaxpr takes (state, cond consts, body consts, carry): move the state after the consts.
        body_jaxpr = _move_state(consts_as_invars(body.jaxpr), len(body.consts), n_state, nc + len(body_consts))

        def run_cond(*xs: Array) -> list[Array]:
            # The cond's checks were counted above; here they are dropped.
            with interpreting(CheckifyInterpreter(current_interpreter(), self.errors, init_error, self.fun_desc)):
                return list(eval_jaxpr(prim.cond_jaxpr, (), *xs[:nc], *xs[nc + n_state :]))

        cond = trace_flat(run_cond, [*(a.aval for a in cond_consts), *_state_avals(keys), *carry_avals], "checkify cond")
        new_prim = While(
            consts_as_invars(cond.jaxpr),
            body_jaxpr,
            len(cond.consts) + nc,
            len(body.consts) + nc + len(body_consts),
        )
        outs = bind(
            new_prim, *cond.consts, *cond_consts, *body.consts, *cond_consts, *body_consts,
            *_state_leaves(self.state, keys), *carry,
        )
        return self._split(outs, keys)

    def _scan(self, prim: Scan, args: tuple[Array, ...]) -> tuple[Array, ...]:
        consts, carry, xs = prim.split_operands(args)

        def run(_: CheckifyInterpreter, vals: list[Array]) -> list[Array]:
            return list(eval_jaxpr(prim.jaxpr, (), *vals))

        (body,), keys = self._traced_fixed([run], prim.jaxpr.in_avals)
        n_state = len(_state_avals(keys))
        jaxpr = _move_state(consts_as_invars(body.jaxpr), len(body.consts), n_state, prim.num_consts)
        new_prim = Scan(jaxpr, prim.length, prim.num_carry + n_state, len(body.consts) + prim.num_consts, prim.reverse, prim.unroll)
        outs = bind(new_prim, *body.consts, *consts, *_state_leaves(self.state, keys), *carry, *xs)
        return self._split(outs, keys)


def _move_state(jaxpr: Jaxpr, n_lead: int, n_state: int, n_consts: int) -> Jaxpr:
    """``jaxpr`` taking ``(lead, state, consts, rest)`` reordered to take
    ``(lead, consts, state, rest)``."""
    v = jaxpr.invars
    lead, state, consts, rest = v[:n_lead], v[n_lead : n_lead + n_state], v[n_lead + n_state : n_lead + n_state + n_consts], v[n_lead + n_state + n_consts :]
    return Jaxpr(jaxpr.constvars, lead + consts + state + rest, jaxpr.outvars, jaxpr.eqns)


def checkify(f: Callable[P, R], errors: frozenset[ErrorCategory] = user_checks) -> Callable[P, tuple[Error, R]]:
    """``f`` returning ``(error, out)``: the checks of ``errors`` that ran
    while computing ``out`` are recorded in ``error`` instead of raising."""

    def checked(*args: P.args, **kwargs: P.kwargs) -> tuple[Error, R]:
        interp = CheckifyInterpreter(current_interpreter(), frozenset(errors), init_error, describe_function(f))
        with interpreting(interp):
            out = f(*args, **kwargs)
        interp.active = False
        return interp.state, out

    checked.__name__ = getattr(f, "__name__", "checked")
    checked.__doc__ = getattr(f, "__doc__", None)
    return checked
