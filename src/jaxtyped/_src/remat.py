"""``checkpoint`` (``remat``) with rematerialization policies (layer L4).

Note [checkpoint as a call primitive]: ``checkpoint(f)(*args)`` traces
``f`` to a jaxpr and binds one :class:`Checkpoint` equation holding it (its
closed-over values are leading operands, as for jit; see Note [consts are
operands] in ``pjit.py``). Each rule keeps the function grouped:

- evaluation runs the jaxpr equation by equation (nothing is compiled);
- ``jvp`` and ``vmap`` are checkpoints of the jvp and batched jaxprs;
- partial evaluation (``linearize``, ``grad``) splits the jaxpr with
  :func:`partial_eval_jaxpr`, asking the *policy* which known values to
  save. The known side (a checkpoint of the known jaxpr) runs now and
  returns the saved residuals; the unknown side is a checkpoint marked
  ``differentiated`` that recomputes, from the residuals, every known value
  it needs and the policy did not save — values that depend on no input at
  all (constants) included, so a large constant is rebuilt rather than kept
  alive. The policy also decides inside nested jit calls and checkpoints
  (Note [the outermost policy decides]);
- the unknown side is linear in its tangent operands; its transpose is a
  checkpoint of the transposed jaxpr, which runs the recomputation forward
  and then the backward pass, still as one group;
- lowering inlines the jaxpr. A differentiated checkpoint with
  ``prevent_cse`` first passes its operands through
  ``stablehlo.optimization_barrier``, so XLA cannot merge the recomputation
  with the forward pass (which would undo the memory saving).
"""

import functools
import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, TypeVar, cast, final

import numpy as np
from typing_extensions import override

from jaxtyped._src.ad import linearize_flat
from jaxtyped._src.config import config
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, shared_numpy_constants, to_array
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.check import maybe_check_jaxpr
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import Atom, ClosedJaxpr, Eqn, Jaxpr, JaxprBuilder, Literal, Var, eval_jaxpr
from jaxtyped._src.core.primitive import LinearArg, PartialEvalSplit, Primitive, Tangent
from jaxtyped._src.errors import (
    ConcretizationTypeError,
    JaxtypedTypeError,
    JaxtypedValueError,
    TracerIntegerConversionError,
)
from jaxtyped._src.interpreters.partial_eval import SaveablePolicy, partial_eval_jaxpr
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lowering import lower_jaxpr_inline
from jaxtyped._src.pjit import (
    JitCall,
    cached_value,
    check_operand_types,
    evaluate_eagerly,
    call_batch,
    call_jvp,
    call_transpose,
    consts_as_invars,
    hashable_or_id,
)
from jaxtyped._src.remat_policies import Name, Policy, checkpoint_name
from jaxtyped._src.tree_util import PyTreeDef, keystr, tree_flatten, tree_flatten_with_path, tree_unflatten
from jaxtyped._src.util import arg_names, check_argnames, describe_function, match_static, normalize_argnames

__all__ = [
    "Checkpoint",
    "checkpoint",
    "remat",
    "clear_checkpoint_caches",
    "checkpoint_name",
    "eqn_policy",
    "saved_residuals",
    "print_saved_residuals",
]

# checkpoint returns its argument's type, as vmap does (see there).
F = TypeVar("F", bound=Callable[..., object])


# === the checkpoint primitive ===


def _save_nothing(eqn: Eqn) -> bool:
    return False


def eqn_policy(policy: Policy | None) -> SaveablePolicy:
    """``policy`` as the equation predicate :func:`partial_eval_jaxpr`
    asks (``None``, a checkpoint's default, saves nothing)."""
    if policy is None:
        return _save_nothing

    def saveable(eqn: Eqn) -> bool:
        result = policy(eqn.primitive, *(atom.aval for atom in eqn.invars), **eqn.params)
        if not isinstance(result, (bool, np.bool_)):  # pyright: ignore[reportUnnecessaryIsInstance]  # user policies may return anything
            raise JaxtypedTypeError(
                f"checkpoint policy {_policy_text(policy)} returned {type(result).__name__} {result!r} "
                f"for primitive '{eqn.primitive.name}'; a policy must return a bool"
            )
        return bool(result)

    return saveable


def _policy_text(policy: object) -> str:
    """How a policy is printed: functions by name (without the varying
    address JAX shows), other policies by their repr (as JAX prints the
    built-in dataclass policies)."""
    name = getattr(policy, "__qualname__", None)  # functions have one; instances do not
    if isinstance(name, str):
        return f"<function {name}>"
    return repr(policy)


@final
@dataclass(frozen=True, slots=True)
class Checkpoint(Primitive):
    """A rematerialized function (JAX's ``checkpoint`` primitive); see
    Note [checkpoint as a call primitive].

    Attributes:
        jaxpr: the function, without constvars.
        prevent_cse: whether a differentiated checkpoint is shielded from
            XLA's common-subexpression elimination when lowered.
        differentiated: True for the recomputing (unknown) side made by
            partial evaluation, and for its transposes.
        policy: which values may be saved rather than recomputed
            (``None``: none); see :mod:`jaxtyped.checkpoint_policies`.
    """

    name: ClassVar[str] = "checkpoint"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False  # hashing a jaxpr costs O(size)
    jaxpr: Jaxpr
    prevent_cse: bool
    differentiated: bool
    policy: Policy | None

    def _call(self, closed: ClosedJaxpr[Array], args: Sequence[Array]) -> tuple[Array, ...]:
        """Bind a checkpoint of ``closed`` (consts as leading operands)
        with this one's options."""
        if not closed.jaxpr.eqns:
            # Nothing to recompute or group (it only forwards values).
            return eval_jaxpr(closed.jaxpr, closed.consts, *args)
        prim = Checkpoint(consts_as_invars(closed.jaxpr), self.prevent_cse, self.differentiated, self.policy)
        return bind(prim, *closed.consts, *args)

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_operand_types("checkpoint", avals, self.jaxpr.in_avals)
        return self.jaxpr.out_avals

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        # Op by op, as JAX does: an eager checkpoint compiles nothing.
        return evaluate_eagerly(lambda: eval_jaxpr(self.jaxpr, (), *args))

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return call_jvp(self.jaxpr, primals, tangents, self._call)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        return call_batch(self.jaxpr, axis, args, dims, self._call)

    @override
    def partial_eval_split(self, unknowns: tuple[bool, ...]) -> PartialEvalSplit | None:
        if all(unknowns):
            return None  # nothing runs now: stage the checkpoint as it is
        key = ("checkpoint_partial_eval", self.jaxpr, unknowns, self.policy)
        split = cached_value(key, lambda: partial_eval_jaxpr(inline_calls(self.jaxpr), unknowns, eqn_policy(self.policy)))
        known = Checkpoint(split.known, self.prevent_cse, self.differentiated, self.policy)
        unknown = Checkpoint(split.unknown, self.prevent_cse, True, self.policy)
        return PartialEvalSplit(known, unknown, split.out_unknowns, split.num_res)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # The transposed jaxpr starts by recomputing the residuals it needs:
        # keep it a (differentiated) checkpoint so that stays grouped.
        return call_transpose(self.jaxpr, cts, args, self._call)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        if self.prevent_cse and self.differentiated and args:
            args = ctx.op("stablehlo.optimization_barrier", args, tuple(a.aval for a in args))
        return lower_jaxpr_inline(ctx, self.jaxpr, (), args)

    @override
    def format_param(self, name: str, value: object) -> str:
        if name == "policy":
            return _policy_text(value)
        return Primitive.format_param(self, name, value)


def inline_calls(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` with its nested jit calls and checkpoints inlined,
    recursively (see Note [the outermost policy decides]).

    Note [the outermost policy decides]: when a checkpoint is split, its
    policy is asked about every first-order equation it contains, also
    those inside nested ``jit`` calls and checkpoints (as JAX does: its
    nested rules are handed the outer policy). Splitting a nested call on
    its own would save everything a jit saves, or what an inner policy
    saves, as forced residuals, and a checkpoint around a jitted function
    would then save all its intermediates.
    """
    if not any(isinstance(e.primitive, (JitCall, Checkpoint)) for e in jaxpr.eqns):
        return jaxpr
    builder = JaxprBuilder()
    invars = [builder.new_var(v.aval) for v in jaxpr.invars]
    outs = _emit_inlined(builder, jaxpr, invars)
    return builder.build((), invars, outs)


def _emit_inlined(builder: JaxprBuilder, jaxpr: Jaxpr, args: Sequence[Atom]) -> list[Atom]:
    env: dict[Var, Atom] = dict(zip(jaxpr.invars, args, strict=True))

    def read(atom: Atom) -> Atom:
        return atom if isinstance(atom, Literal) else env[atom]

    for eqn in jaxpr.eqns:
        ins = [read(a) for a in eqn.invars]
        prim = eqn.primitive
        if isinstance(prim, (JitCall, Checkpoint)):
            outs: Sequence[Atom] = _emit_inlined(builder, prim.jaxpr, ins)
        else:
            outs = builder.add_eqn(prim, tuple(ins), tuple(v.aval for v in eqn.outvars))
        env.update(zip(eqn.outvars, outs, strict=True))
    return [read(a) for a in jaxpr.outvars]


# === checkpoint ===

# Per checkpointed function, the traced signatures kept (oldest evicted).
_TRACE_CACHE_MAX: Final = 256
# Every live checkpointed function, so that clear_caches reaches their traces.
_live_checkpointed: "weakref.WeakSet[_Checkpointed]" = weakref.WeakSet()
_STATIC_HINT: Final = (
    "For Python control flow on an argument of a checkpointed function, mark the "
    "argument static with checkpoint(..., static_argnums=...)."
)


@final
@dataclass(frozen=True, slots=True)
class _Traced:
    """One traced signature: the primitive to bind, its leading consts and
    the output structure."""

    prim: Checkpoint
    consts: tuple[Array, ...]
    out_tree: PyTreeDef


@final
class _IdentityPolicy:
    """An unhashable user policy, hashed and compared by identity (so that
    it can be a field of the hashable :class:`Checkpoint`)."""

    __slots__ = ("policy",)

    def __init__(self, policy: Policy) -> None:
        self.policy = policy

    def __call__(self, prim: Primitive, *avals: ShapedArray, **params: object) -> bool:
        return self.policy(prim, *avals, **params)

    def __repr__(self) -> str:
        return _policy_text(self.policy)


def _static_argnums(value: object) -> tuple[int, ...]:
    items = (value,) if isinstance(value, int) else value
    if not isinstance(items, tuple) or any(isinstance(i, bool) or not isinstance(i, int) for i in items):  # pyright: ignore[reportUnknownVariableType]  # validated here
        raise JaxtypedTypeError(f"checkpoint: static_argnums must be an int or a tuple of ints, got {value!r}")
    return tuple(int(i) for i in items)  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]  # ints, checked above


def checkpoint(
    fun: F,
    *,
    prevent_cse: bool = True,
    policy: Policy | None = None,
    static_argnums: int | tuple[int, ...] = (),
    static_argnames: str | Iterable[str] = (),
) -> F:
    """Make ``fun`` recompute its intermediate values when differentiated
    instead of saving them (JAX's ``jax.checkpoint``, alias ``remat``).

    Values are unchanged; under ``grad``/``vjp``/``linearize`` only the
    inputs (and what ``policy`` allows) are kept from the forward pass, and
    the backward pass recomputes the rest.

    Args:
        fun: the function; its arguments and results are pytrees of arrays.
        prevent_cse: keep XLA from merging the recomputation with the
            forward pass under ``jit`` (an ``optimization_barrier``).
        policy: which intermediate values may be saved, e.g.
            ``jaxtyped.checkpoint_policies.dots_saveable``; ``None`` saves
            none. Called as ``policy(prim, *in_avals, **params) -> bool``.
        static_argnums: positions of arguments passed as Python values (for
            Python control flow on them); each value retraces ``fun``.
        static_argnames: the same, for arguments given by name (a name
            also marks its position, and a position its name, as for
            ``jit``).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> g = jt.checkpoint(lambda x: jnp.sin(jnp.sin(x)))
        >>> jt.value_and_grad(g)(2.0)
        (Array(0.78907233, dtype=float32, weak_type=True), Array(-0.2556391, dtype=float32, weak_type=True))
    """
    if not callable(fun):
        raise JaxtypedTypeError(f"checkpoint: expected a callable as its first argument, got {type(fun).__name__} {fun!r}")
    if not isinstance(prevent_cse, bool):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise JaxtypedTypeError(f"checkpoint: prevent_cse must be a bool, got {prevent_cse!r}")
    if policy is not None and not callable(policy):
        raise JaxtypedTypeError(f"checkpoint: policy must be callable or None, got {type(policy).__name__} {policy!r}")
    if policy is not None and hashable_or_id(policy) is not policy:
        policy = _IdentityPolicy(policy)
    names = normalize_argnames(static_argnames, "checkpoint", "static_argnames")
    check_argnames(fun, names, "checkpoint", "static_argnames")
    nums = _static_argnums(static_argnums)
    # A name also marks its parameter's position (when passed positionally);
    # only the positions given as numbers must fit every call.
    named_positions, names = match_static(fun, (), names)
    _, names = match_static(fun, nums, names)
    checkpointed = _Checkpointed(fun, prevent_cse, policy, nums, frozenset(named_positions), frozenset(names))
    return cast(F, checkpointed.wrapper())


remat = checkpoint


def clear_checkpoint_caches() -> None:
    """Forget every checkpointed function's traces (``jt.clear_caches``)."""
    for checkpointed in list(_live_checkpointed):
        with checkpointed.lock:
            checkpointed.cache.clear()


class _Checkpointed:
    """The state behind one ``checkpoint(fun)``: options and trace cache."""

    def __init__(
        self,
        fun: Callable[..., Any],
        prevent_cse: bool,
        policy: Policy | None,
        static_argnums: tuple[int, ...],
        named_positions: frozenset[int],
        static_argnames: frozenset[str],
    ) -> None:
        self.fun = fun
        self.prevent_cse = prevent_cse
        self.policy = policy
        self.static_argnums = static_argnums
        self.named_positions = named_positions
        self.static_argnames = static_argnames
        self.desc = describe_function(fun)
        self.cache: OrderedDict[Hashable, _Traced] = OrderedDict()
        self.lock = threading.Lock()
        _live_checkpointed.add(self)

    def wrapper(self) -> Callable[..., Any]:
        """The user-facing function (a plain function, so that it binds
        as a method when it decorates one)."""

        def fun_remat(*args: Any, **kwargs: Any) -> Any:
            return self.call(args, kwargs)

        functools.update_wrapper(fun_remat, self.fun, assigned=("__module__", "__name__", "__qualname__", "__doc__"), updated=())
        return fun_remat

    def call(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        static = self._static_positions(len(args))
        dyn = tuple(a for i, a in enumerate(args) if i not in static)
        static_kwargs: dict[str, Any] = {}
        if self.static_argnames and kwargs:  # most checkpointed calls have none: no copies of kwargs then
            static_kwargs = {k: v for k, v in kwargs.items() if k in self.static_argnames}
            kwargs = {k: v for k, v in kwargs.items() if k not in self.static_argnames}
        leaves, in_tree = tree_flatten((dyn, kwargs))
        arrays = [self._to_array(leaf, i, args, kwargs) for i, leaf in enumerate(leaves)]
        statics: list[tuple[int | str, object]] = [(i, args[i]) for i in sorted(static)]
        statics += sorted(static_kwargs.items())
        key = self._key(in_tree, arrays, statics)
        traced = self._lookup(key) if key is not None else None
        if traced is None:
            traced = self._trace(args, kwargs, static_kwargs, static, in_tree, arrays)
            if key is not None and all(type(c) is ArrayImpl for c in traced.consts):
                self._store(key, traced)
        outs = bind(traced.prim, *traced.consts, *arrays)
        return tree_unflatten(traced.out_tree, list(outs))

    @staticmethod
    def _key(in_tree: PyTreeDef, arrays: list[Array], static_values: list[tuple[int | str, object]]) -> Hashable | None:
        """The trace-cache key of a call, or None when a static argument
        is unhashable (such calls are traced every time)."""
        statics: tuple[tuple[int | str, type[object], object], ...] = tuple((i, type(v), v) for i, v in static_values)
        key = (in_tree, tuple(a.aval for a in arrays), config.trace_state(), statics)
        try:
            hash(key)
        except TypeError:
            return None
        return key

    def _static_positions(self, nargs: int) -> frozenset[int]:
        for i in self.static_argnums:
            if not -nargs <= i < nargs:
                raise JaxtypedValueError(
                    f"checkpoint of {self.desc}: static_argnums={self.static_argnums} is out of range "
                    f"for a call with {nargs} positional argument(s)"
                )
        return frozenset(i % nargs for i in self.static_argnums) | {i for i in self.named_positions if i < nargs}

    def _to_array(self, leaf: object, index: int, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Array:
        if isinstance(leaf, Array):
            return leaf
        try:
            return to_array(leaf, f"checkpoint of {self.desc}: argument")
        except JaxtypedTypeError:
            name = self._dyn_names(args, kwargs)[index]
            raise JaxtypedTypeError(
                f"checkpoint of {self.desc}: argument {name} has type {type(leaf).__name__}, which is not "
                "an array or a scalar (mark it with static_argnums to pass it as a Python value)"
            ) from None

    def _dyn_names(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> list[str]:
        static = self._static_positions(len(args))
        names = arg_names(self.fun, len(args))
        dyn = [(a, names[i]) for i, a in enumerate(args) if i not in static]
        return leaf_names(dyn, kwargs)

    def _lookup(self, key: Hashable) -> _Traced | None:
        with self.lock:
            hit = self.cache.get(key)
            if hit is not None:
                self.cache.move_to_end(key)
            return hit

    def _store(self, key: Hashable, traced: _Traced) -> None:
        with self.lock:
            self.cache[key] = traced
            while len(self.cache) > _TRACE_CACHE_MAX:
                self.cache.popitem(last=False)

    def _trace(
        self,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        static_kwargs: dict[str, Any],
        static: frozenset[int],
        in_tree: PyTreeDef,
        arrays: list[Array],
    ) -> _Traced:
        names = self._dyn_names(args, kwargs)
        interp = StagingInterpreter(current_interpreter(), self.desc, "checkpoint")
        with transformation_scope(interp), shared_numpy_constants():
            tracers = [interp.new_arg(a.aval, n) for a, n in zip(arrays, names, strict=True)]
            dyn_args, dyn_kwargs = tree_unflatten(in_tree, tracers)
            dyn_iter = iter(dyn_args)
            call_args = [args[i] if i in static else next(dyn_iter) for i in range(len(args))]
            out = self._run(call_args, {**dyn_kwargs, **static_kwargs})
            out_pairs, out_tree = tree_flatten_with_path(out)
            outs = [to_array(leaf, f"checkpoint of {self.desc}: output{keystr(path)}") for path, leaf in out_pairs]
            closed = interp.build(outs)
        maybe_check_jaxpr(closed)
        prim = Checkpoint(consts_as_invars(closed.jaxpr), self.prevent_cse, False, self.policy)
        return _Traced(prim, closed.consts, out_tree)

    def _run(self, args: list[Any], kwargs: dict[str, Any]) -> Any:
        try:
            return self.fun(*args, **kwargs)
        except (ConcretizationTypeError, TracerIntegerConversionError) as err:
            message = str(err)
            if "for checkpoint" not in message or _STATIC_HINT in message:
                raise
            raise type(err)(f"{message} {_STATIC_HINT}") from err


def leaf_names(named_args: Sequence[tuple[object, str]], kwargs: dict[str, Any]) -> list[str]:
    """The names of the leaves of ``(args, kwargs)`` in flattening order:
    each argument's name plus the leaf's key path (``params['w'][0]``)."""
    names = [name + keystr(path) for arg, name in named_args for path, _ in tree_flatten_with_path(arg)[0]]
    for key in sorted(kwargs):
        names += [key + keystr(path) for path, _ in tree_flatten_with_path(kwargs[key])[0]]
    return names


# === saved residuals ===


def saved_residuals(f: Callable[..., object], *args: object, **kwargs: object) -> list[tuple[ShapedArray, str]]:
    """What reverse-mode differentiation of ``f`` at ``args`` keeps from
    the forward pass for the backward pass: one ``(type, provenance)`` pair
    per saved array (JAX's ``jax.ad_checkpoint.saved_residuals``).

    Provenance is ``"from the argument x"``, ``"from a constant"``,
    ``"named 'a'"`` (a :func:`checkpoint_name` value) or ``"output of sin"``
    (the primitive that computed it, looking inside checkpoints).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.ad_checkpoint.saved_residuals(lambda x: jnp.sin(jnp.sin(x)), 1.0)
        [(ShapedArray(float32[], weak_type=True), 'output of cos'), (ShapedArray(float32[], weak_type=True), 'output of cos')]
    """
    if not callable(f):
        raise JaxtypedTypeError(f"saved_residuals: expected a callable, got {type(f).__name__} {f!r}")
    desc = describe_function(f)
    leaves, in_tree = tree_flatten((args, kwargs))
    names = leaf_names(list(zip(args, arg_names(f, len(args)))), dict(kwargs))
    avals = [_leaf_aval(leaf, f"saved_residuals of {desc}: argument {name}") for leaf, name in zip(leaves, names)]
    staging = StagingInterpreter(current_interpreter(), desc, "saved_residuals")
    with transformation_scope(staging), shared_numpy_constants():
        tracers: list[Array] = [staging.new_arg(aval, n) for aval, n in zip(avals, names)]

        def flat_fun(primals: list[Array]) -> tuple[list[Array], object]:
            call_args, call_kwargs = tree_unflatten(in_tree, primals)
            out_leaves, _ = tree_flatten(f(*call_args, **call_kwargs))
            return [to_array(leaf, f"saved_residuals of {desc}: output") for leaf in out_leaves], None

        _, linear, _ = linearize_flat(flat_fun, tracers, desc, "saved_residuals")
        closed = staging.build(list(linear.jaxpr.consts))
    return _Provenance(closed.jaxpr, names).describe()


def _leaf_aval(leaf: object, where: str) -> ShapedArray:
    """The type of an argument leaf: nothing is computed, so a type
    stand-in (``jaxtyped.ShapeDtypeStruct``, anything with a ShapedArray
    ``aval``) works as well as an array."""
    aval = getattr(leaf, "aval", None)
    if isinstance(aval, ShapedArray):
        return aval
    return to_array(leaf, where).aval


def print_saved_residuals(f: Callable[..., object], *args: object, **kwargs: object) -> None:
    """Print :func:`saved_residuals`, one ``type provenance`` line each.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.ad_checkpoint.print_saved_residuals(jt.checkpoint(lambda x: jnp.sin(jnp.sin(x))), 1.0)
        f32[] from the argument x
    """
    for aval, source in saved_residuals(f, *args, **kwargs):
        print(f"{aval.str_short()} {source}")


# Where a residual comes from: (category rank, position, provenance text);
# sorting by it lists literals, constants, arguments, then intermediates in
# program order, as JAX does.
_Source = tuple[int, tuple[int, ...], str]


@final
@dataclass(frozen=True, slots=True)
class _Frame:
    """A jaxpr being searched: the top-level one, or the jaxpr of the
    checkpoint or jit equation ``eqn`` (at ``index`` in the enclosing
    jaxpr)."""

    jaxpr: Jaxpr
    eqn: Eqn | None
    index: int


def _outermost_jit(frames: tuple[_Frame, ...]) -> JitCall | None:
    for frame in frames:
        if frame.eqn is not None and isinstance(frame.eqn.primitive, JitCall):
            return frame.eqn.primitive
    return None


class _Provenance:
    """Describes the outputs of a staged forward pass (the residuals),
    looking inside checkpoints (whose known side JAX would have inlined) and
    through values a call only forwards."""

    def __init__(self, jaxpr: Jaxpr, arg_names: list[str]) -> None:
        self.jaxpr = jaxpr
        self.arg_names = arg_names

    def describe(self) -> list[tuple[ShapedArray, str]]:
        top = (_Frame(self.jaxpr, None, 0),)
        sources = [(self.source(top, atom), atom.aval) for atom in self.jaxpr.outvars]
        return [(aval, text) for (_, _, text), aval in sorted(sources, key=lambda pair: pair[0][:2])]

    def source(self, frames: tuple[_Frame, ...], atom: Atom) -> _Source:
        """The source of ``atom`` of the innermost frame's jaxpr."""
        frame = frames[-1]
        jaxpr = frame.jaxpr
        if isinstance(atom, Literal):
            return (0, (), "from a literal")
        if atom in jaxpr.invars:
            index = jaxpr.invars.index(atom)
            if frame.eqn is None:
                return (2, (index,), f"from the argument {self.arg_names[index]}")
            # An operand forwarded through a checkpoint: describe the operand.
            return self.source(frames[:-1], frame.eqn.invars[index])
        if atom in jaxpr.constvars:
            return (1, (jaxpr.constvars.index(atom),), "from a constant")
        for index, eqn in enumerate(jaxpr.eqns):
            if atom in eqn.outvars:
                return self._eqn_source(frames, index, eqn, atom)
        raise AssertionError(f"internal error: residual {atom} has no definition")

    def _eqn_source(self, frames: tuple[_Frame, ...], index: int, eqn: Eqn, var: Var) -> _Source:
        prim = eqn.primitive
        if isinstance(prim, (Checkpoint, JitCall)):
            inner = prim.jaxpr.outvars[eqn.outvars.index(var)]
            return self.source((*frames, _Frame(prim.jaxpr, eqn, index)), inner)
        path = tuple(f.index for f in frames[1:]) + (index,)
        call = _outermost_jit(frames)
        if call is not None:
            # As JAX words it: it does not look into a jit call either.
            return (3, path, f"output of jitted function '{call.fun_name}'")
        if isinstance(prim, Name):
            return (3, path, f"named '{prim.label}'")
        return (3, path, f"output of {prim.name}")
