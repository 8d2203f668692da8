"""Lowering jaxprs to StableHLO modules (layer L2).

A jaxpr becomes one public ``@main`` function: each equation is handed to
its primitive's ``lower`` rule with the operands' SSA values. Closed-over
constants are parameters of ``main`` (they are passed at every call rather
than baked into the program, so a large captured array costs neither
compile time nor module size). Call primitives (a nested ``jit``) lower
their inner jaxpr inline; XLA would inline the call anyway. A
:class:`ClosedCall` (an unrolled loop's body) is a private function of the
module instead, emitted once however often it is called.

Note [host callbacks and tokens] (issue 16, JEP 10657): a primitive that
calls back into Python (``debug.print``, ``pure_callback``) lowers through
:func:`emit_host_callback`, which records the Python function in the module
being lowered (``LoweredModule.host_callbacks``; the custom call names it by
its index) and threads a compiler token through the callbacks of ordered
effects. A jaxpr with ordered effects lowers to a ``main`` that takes a
token first and returns one first: the runtime feeds it the previous
ordered program's token, so ordered effects keep program order across
calls. An equation whose ordered effects happen inside its regions (a
loop, a branch) continues the chain of the block around it (the region
captures that block's token), and that block's token afterwards waits for
the equation's results (jaxlib's no-op ``dce_sink`` target turns a
value into a token), so later ordered effects follow; an equation without
results is lowered inside a one-branch ``case`` whose result is waited for.
"""

import re
import threading
import warnings
from collections import OrderedDict, defaultdict, deque
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ClassVar, final

import numpy as np
from typing_extensions import override

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, host_buffer
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.effects import has_ordered_effects
from jaxtyped._src.core.hlo import HloValue, LoweringContext, tensor_type
from jaxtyped._src.core.interpreter import current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import Atom, Jaxpr, Literal, Var, eval_jaxpr
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.interpreters.partial_eval import dce_jaxpr
from jaxtyped._src.interpreters.staging import StagingInterpreter

__all__ = [
    "ClosedCall",
    "LoweredModule",
    "lower_jaxpr",
    "lower_jaxpr_inline",
    "module_name",
    "HostCallback",
    "HostFunction",
    "emit_host_callback",
    "register_lowering_rewrite",
]


@final
@dataclass(frozen=True, slots=True)
class LoweredModule:
    """A StableHLO module (generic MLIR syntax) and its signature."""

    text: str
    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]
    # The Python functions the program calls, by custom-call index, and
    # whether ``main`` takes and returns a token first (see Note [host
    # callbacks and tokens]).
    host_callbacks: tuple["HostCallback", ...] = ()
    ordered_effects: bool = False


def module_name(fun_name: str) -> str:
    """JAX's module name for a function: ``jit_f``; ``<lambda>`` gives
    ``jit__lambda``."""
    cleaned = re.sub(r"[^0-9A-Za-z_]", "_", fun_name).rstrip("_")
    return f"jit_{cleaned or 'fun'}"


# Jaxpr-to-jaxpr rewrites run on every jaxpr before it is lowered (issue 16
# item 3: jaxtyped._src.ad_accumulation); registered by the higher layer
# that knows the primitives they rewrite.
_lowering_rewrites: list[Callable[[Jaxpr], Jaxpr]] = []


def register_lowering_rewrite(rewrite: Callable[[Jaxpr], Jaxpr]) -> None:
    """Run ``rewrite`` on each jaxpr :func:`lower_jaxpr` lowers, before
    dead-code elimination; it must keep the jaxpr's signature and values."""
    _lowering_rewrites.append(rewrite)


def lower_jaxpr(
    jaxpr: Jaxpr,
    *,
    name: str,
    donated: Sequence[bool] = (),
    consts: Sequence[object] | None = None,
    match_donated: bool = True,
) -> LoweredModule:
    """The module computing ``jaxpr``; its parameters are the jaxpr's
    constvars then invars, or only its invars when ``consts`` (the
    constvars' host values) are given: those are written into the module
    as constants (a self-contained module, as ``export`` serialises).
    ``donated[i]`` says parameter ``i`` is donated: with ``match_donated``
    it is given to a result as JAX does it (Note [donated parameters]),
    else every donated parameter is a buffer donor. Dead equations are
    left out (a gradient's unused primal value; effects are never dead),
    as JAX's lowering leaves them out: ``jit(f).lower(...).as_text()``
    shows the program that runs."""
    for rewrite in _lowering_rewrites:
        jaxpr = rewrite(jaxpr)
    jaxpr, _ = dce_jaxpr(jaxpr, (True,) * len(jaxpr.outvars), into_loops=True)  # keeps the constvars
    params = jaxpr.constvars + jaxpr.invars if consts is None else jaxpr.invars
    ctx = LoweringContext(_lower_fun)
    ordered = has_ordered_effects(jaxpr.effects)
    in_avals = [v.aval for v in params]
    if match_donated and any(donated):
        plan = plan_donation(in_avals, jaxpr.out_avals, donated)
    else:
        plan = DonationPlan([None] * len(params), [i < len(donated) and donated[i] for i in range(len(params))], [])
    args: list[HloValue] = []
    header: list[str] = [f"{_TOKEN_ARG}: {_TOKEN_TYPE}"] if ordered else []
    for i, var in enumerate(params):
        value = HloValue(f"%arg{i}", var.aval)
        args.append(value)
        alias = plan.aliases[i]
        if alias is not None:  # result indices count the token result first
            attr = f" {{tf.aliasing_output = {alias + ordered} : i32}}"
        else:
            attr = " {jax.buffer_donor = true}" if plan.donors[i] else ""
        header.append(f"{value.name}: {value.type}{attr}")
    state = _EffectLowering(ctx.lines, _TOKEN_ARG if ordered else None)
    marker = _effect_lowering.set(state)
    try:
        if consts is None:
            outs = lower_jaxpr_inline(ctx, jaxpr, args[: len(jaxpr.constvars)], args[len(jaxpr.constvars) :])
        else:
            values = [ctx.constant(c, v.aval) for c, v in zip(consts, jaxpr.constvars, strict=True)]
            outs = lower_jaxpr_inline(ctx, jaxpr, values, args)
    finally:
        _effect_lowering.reset(marker)
    names = [v.name for v in outs]
    types = [tensor_type(v.aval) for v in outs]
    if ordered:
        names.insert(0, state.block_token(ctx))
        types.insert(0, _TOKEN_TYPE)
    ctx.emit(f'"func.return"({", ".join(names)}) : ({", ".join(types)}) -> ()')
    lines = [
        f"module @{module_name(name)} attributes {{mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}} {{",
        f"  func.func public @main({', '.join(header)}) -> ({', '.join(types)}) {{",
        *ctx.lines,
        "  }",
        *ctx.functions,
        "}",
        "",
    ]
    text = "\n".join(lines)
    if plan.unusable:
        warn_unusable_donations(text, [in_avals[i] for i in plan.unusable])
    return LoweredModule(text, tuple(in_avals), jaxpr.out_avals, tuple(state.callbacks), ordered)


# Note [donated parameters]: JAX 0.10.2 (mlir._set_up_aliases) gives each
# result, in order, the first donated parameter of the same shape and dtype
# still free (``tf.aliasing_output``: the result is written into it); a
# donated parameter left over becomes a buffer donor (``jax.buffer_donor``)
# when a result not aliased has as many elements, XLA reusing it if the
# sizes in bytes agree; any other donated parameter is not usable: JAX warns
# once per lowering, and the runtime leaves that argument alive (the call
# deletes only the arguments whose buffers the program consumed, see
# pjit.consume_donated).


@final
@dataclass(frozen=True, slots=True)
class DonationPlan:
    """How a module's donated parameters are given to its results."""

    aliases: list[int | None]  # per parameter: the result written into it
    donors: list[bool]  # per parameter: a buffer donor XLA may reuse
    unusable: list[int]  # donated parameters no result can reuse


def plan_donation(
    in_avals: Sequence[ShapedArray], out_avals: Sequence[ShapedArray], donated: Sequence[bool]
) -> DonationPlan:
    """JAX's matching of donated parameters to results (Note [donated
    parameters])."""
    free: dict[tuple[tuple[int, ...], np.dtype[Any]], deque[int]] = defaultdict(deque)
    for i, aval in enumerate(in_avals):
        if i < len(donated) and donated[i]:
            free[(aval.shape, aval.dtype)].append(i)
    aliases: list[int | None] = [None] * len(in_avals)
    unmatched: dict[int, deque[int]] = defaultdict(deque)
    for k, aval in enumerate(out_avals):
        candidates = free.get((aval.shape, aval.dtype))
        if candidates:
            aliases[candidates.popleft()] = k
        else:
            unmatched[aval.size].append(k)
    donors = [False] * len(in_avals)
    unusable: list[int] = []
    for i, aval in enumerate(in_avals):
        if i < len(donated) and donated[i] and aliases[i] is None:
            same_size = unmatched.get(aval.size)
            if same_size:
                same_size.popleft()
                donors[i] = True
            else:
                unusable.append(i)
    return DonationPlan(aliases, donors, unusable)


def _jax_aval_str(aval: ShapedArray) -> str:
    """JAX's ``str`` of an aval: ``float32[2,3]``, ``~float32[]`` when weak."""
    dims = ",".join(str(d) for d in aval.shape)
    return f"{'~' if aval.weak_type else ''}{aval.dtype.name}[{dims}]"


_WARNED_PROGRAMS: int = 1024
_warned_programs: "OrderedDict[int, None]" = OrderedDict()
_warned_lock = threading.Lock()


def warn_unusable_donations(program_text: str, avals: Sequence[ShapedArray]) -> None:
    """JAX's warning about donated parameters no result can reuse, once per
    program text: JAX warns when it lowers and caches the lowering, so a
    call and a later ``.lower()`` warn once."""
    key = hash(program_text)
    with _warned_lock:
        if key in _warned_programs:
            _warned_programs.move_to_end(key)
            return
        _warned_programs[key] = None
        while len(_warned_programs) > _WARNED_PROGRAMS:
            _warned_programs.popitem(last=False)
    warn_unusable_donation(avals)


def warn_unusable_donation(avals: Sequence[ShapedArray]) -> None:
    """Warn, as JAX does, that the donated buffers of ``avals`` were not
    usable (the caller sees to warning once per program)."""
    warnings.warn(
        f"Some donated buffers were not usable: {', '.join(_jax_aval_str(a) for a in avals)}.\n"
        "See an explanation at https://docs.jax.dev/en/latest/faq.html#buffer-donation.",
        UserWarning,
        stacklevel=3,
    )


def lower_jaxpr_inline(
    ctx: LoweringContext, jaxpr: Jaxpr, consts: Sequence[HloValue], args: Sequence[HloValue]
) -> tuple[HloValue, ...]:
    """Emit ``jaxpr``'s equations into ``ctx`` on the given values and
    return its outputs' values."""
    env: dict[Var, HloValue] = {}
    for var, value in zip(jaxpr.constvars, consts, strict=True):
        env[var] = value
    for var, value in zip(jaxpr.invars, args, strict=True):
        env[var] = value
    state = _effect_lowering.get()
    for eqn in jaxpr.eqns:
        in_values = tuple(_read(ctx, env, atom) for atom in eqn.invars)
        out_avals = tuple(v.aval for v in eqn.outvars)
        # An equation whose ordered effects happen inside it (in a loop's
        # or a branch's region) is sequenced on the block's token: see
        # Note [host callbacks and tokens].
        if (
            state is not None
            and has_ordered_effects(eqn.effects)
            and not getattr(eqn.primitive, "threads_token", False)
        ):
            outs = state.sequenced(ctx, lambda: eqn.primitive.lower(ctx, in_values, out_avals), bool(out_avals))
        else:
            outs = eqn.primitive.lower(ctx, in_values, out_avals)
        if tuple(o.aval.shape for o in outs) != tuple(a.shape for a in out_avals) or tuple(
            o.aval.dtype for o in outs
        ) != tuple(a.dtype for a in out_avals):
            got = ", ".join(o.aval.str_short() for o in outs)
            want = ", ".join(a.str_short() for a in out_avals)
            raise AssertionError(f"internal error: lower rule of '{eqn.primitive.name}' produced ({got}), expected ({want})")
        for var, value in zip(eqn.outvars, outs, strict=True):
            env[var] = value
    return tuple(_read(ctx, env, atom) for atom in jaxpr.outvars)


# Not a closure of lower_jaxpr_inline: the debug mode's beartype import hook
# would decorate it anew for every jaxpr lowered.
def _read(ctx: LoweringContext, env: dict[Var, HloValue], atom: Atom) -> HloValue:
    if isinstance(atom, Literal):
        return ctx.constant(atom.val, atom.aval)
    return env[atom]


@final
@dataclass(frozen=True, slots=True)
class ClosedCall(Primitive):
    """A call of a const-free jaxpr that lowers to a ``func.call`` of one
    private function of the module (JAX's ``closed_call``): a loop body
    unrolled ``k`` times is emitted once and called ``k`` times, so the
    module grows with the body, not with ``k``. Only lowering rules make
    it (``scan``'s unrolled loop); it never appears in a user's jaxpr.
    """

    name: ClassVar[str] = "closed_call"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False  # hashing a jaxpr costs O(size)
    jaxpr: Jaxpr

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        return self.jaxpr.out_avals

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        outs = eval_jaxpr(self.jaxpr, (), *args)
        return tuple(out for out in outs if isinstance(out, ArrayImpl))

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        if has_ordered_effects(self.jaxpr.effects):
            # Ordered effects thread the enclosing block's token: inline.
            return lower_jaxpr_inline(ctx, self.jaxpr, (), args)
        jaxpr = self.jaxpr
        symbol = ctx.function(
            ("closed_call", id(jaxpr)), "closed_call", [a.aval for a in args], lambda block: lower_jaxpr_inline(ctx, jaxpr, (), block)
        )
        return ctx.call(symbol, args, out_avals)


def _lower_fun(
    ctx: LoweringContext, fun: Callable[..., Sequence[object]], args: Sequence[HloValue]
) -> tuple[HloValue, ...]:
    """Trace ``fun`` on abstract arguments of ``args``' types and lower the
    result inline (how a rule expresses itself through other primitives)."""
    interp = StagingInterpreter(current_interpreter(), getattr(fun, "__name__", "lowering rule"), "jit lowering")
    with transformation_scope(interp):
        tracers = [interp.new_arg(a.aval) for a in args]
        outs = fun(*tracers)
        arrays: list[Array] = []
        for out in outs:
            if not isinstance(out, Array):
                raise JaxtypedTypeError(f"lowering rule function returned {type(out).__name__}, not an Array")
            arrays.append(out)
        closed = interp.build(arrays)
    consts: list[HloValue] = []
    for const in closed.consts:
        if not isinstance(const, ArrayImpl):
            raise AssertionError("internal error: a lowering rule closed over a traced value")
        consts.append(ctx.constant(host_buffer(const), const.aval.strip_weak_type()))
    return lower_jaxpr_inline(ctx, closed.jaxpr, consts, args)


# === host callbacks and ordered effects (issue 16) ===

NDArray = np.ndarray[Any, np.dtype[Any]]
# What a compiled program's callback computes: the operands' host buffers
# in, the results' host buffers (of the declared types) out.
HostFunction = Callable[[tuple[NDArray, ...]], tuple[NDArray, ...]]

_TOKEN_TYPE = "!stablehlo.token"
_TOKEN_ARG = "%token"
_CALLBACK_TARGET = "xla_ffi_python_cpu_callback"
# jaxlib's no-op FFI target: a token that waits for a value (one operand).
_SINK_TARGET = "dce_sink"
_I32 = ShapedArray((), np.dtype(np.int32))


@final
@dataclass(frozen=True, slots=True)
class HostCallback:
    """A Python function a compiled program calls.

    Attributes:
        name: the calling primitive's name (for error messages).
        fun: the function, on host buffers.
        uses_token: the custom call takes and returns a token first (an
            ordered effect); the runtime passes and drops it around ``fun``.
    """

    name: str
    fun: HostFunction
    uses_token: bool


@final
class _EffectLowering:
    """The host callbacks of the module being lowered and the ordered-effect
    token of each block (``main``'s body, or a control-flow region)."""

    __slots__ = ("callbacks", "_tokens", "_enclosing")

    def __init__(self, main_lines: list[str], main_token: str | None) -> None:
        self.callbacks: list[HostCallback] = []
        # Keyed by the id of a block's line list (``LoweringContext`` swaps
        # the list when it enters a region); the list is kept so that its id
        # is not reused while lowering.
        self._tokens: dict[int, tuple[list[str], str]] = {}
        if main_token is not None:
            self._tokens[id(main_lines)] = (main_lines, main_token)
        # The tokens of the blocks enclosing the region being lowered.
        self._enclosing: list[str] = []

    def block_token(self, ctx: LoweringContext) -> str:
        """The current token of the block being emitted (a fresh one in a
        block that has none yet)."""
        entry = self._tokens.get(id(ctx.lines))
        if entry is not None and entry[0] is ctx.lines:
            return entry[1]
        if self._enclosing:
            # A region's chain continues the enclosing block's (an implicit capture).
            name = self._enclosing[-1]
        else:
            name = ctx.fresh()
            ctx.emit(f'{name} = "stablehlo.after_all"() : () -> {_TOKEN_TYPE}')
        self._tokens[id(ctx.lines)] = (ctx.lines, name)
        return name

    def set_block_token(self, ctx: LoweringContext, name: str) -> None:
        self._tokens[id(ctx.lines)] = (ctx.lines, name)

    def sequenced(
        self, ctx: LoweringContext, lower: Callable[[], tuple[HloValue, ...]], has_results: bool
    ) -> tuple[HloValue, ...]:
        """Lower an equation whose ordered effects happen in its regions:
        their chains start from this block's token (captured), and this
        block's token then waits for the equation's results. An equation
        without results is lowered inside a one-branch ``case`` whose
        result stands for its completion (the branch index goes through an
        optimization barrier, so XLA cannot inline the ``case``)."""
        before = self.block_token(ctx)
        self._enclosing.append(before)
        try:
            if has_results:
                outs = waited = lower()
            else:
                index = ctx.op1("stablehlo.optimization_barrier", (ctx.scalar(0, np.dtype(np.int32)),), _I32)
                with ctx.region(()) as (_, branch):
                    outs = lower()
                    ctx.ret([index])
                waited = ctx.op("stablehlo.case", (index,), (_I32,), regions=branch)
        finally:
            self._enclosing.pop()
        if waited and self.block_token(ctx) == before:
            # Every result: XLA may fold some (a loop's counter) to constants.
            tokens = [before]
            for out in waited:
                tokens.append(ctx.fresh())
                ctx.emit(
                    f'{tokens[-1]} = "stablehlo.custom_call"({out.name}) {{call_target_name = "{_SINK_TARGET}", '
                    f"has_side_effect = true, api_version = 4 : i32}} : ({out.type}) -> {_TOKEN_TYPE}"
                )
            joined = ctx.fresh()
            types = ", ".join([_TOKEN_TYPE] * len(tokens))
            ctx.emit(f'{joined} = "stablehlo.after_all"({", ".join(tokens)}) : ({types}) -> {_TOKEN_TYPE}')
            self.set_block_token(ctx, joined)
        return outs


_effect_lowering: ContextVar[_EffectLowering | None] = ContextVar("jaxtyped_effect_lowering", default=None)


def emit_host_callback(
    ctx: LoweringContext,
    callback: HostCallback,
    args: Sequence[HloValue],
    out_avals: Sequence[ShapedArray],
    *,
    has_side_effect: bool = True,
) -> tuple[HloValue, ...]:
    """Emit a call of ``callback`` on ``args`` returning values of
    ``out_avals``; an ordered callback (``uses_token``) is chained on the
    block's token. Only inside :func:`lower_jaxpr` (which collects the
    module's callbacks)."""
    state = _effect_lowering.get()
    if state is None:
        raise AssertionError(f"internal error: '{callback.name}' lowered outside lower_jaxpr")
    index = len(state.callbacks)
    state.callbacks.append(callback)
    operand_names = [a.name for a in args]
    operand_types = [a.type for a in args]
    results = [HloValue(ctx.fresh(), aval) for aval in out_avals]
    result_names = [r.name for r in results]
    result_types = [r.type for r in results]
    if callback.uses_token:
        token_in = state.block_token(ctx)
        token_out = ctx.fresh()
        operand_names.insert(0, token_in)
        operand_types.insert(0, _TOKEN_TYPE)
        result_names.insert(0, token_out)
        result_types.insert(0, _TOKEN_TYPE)
        state.set_block_token(ctx, token_out)
    lhs = f"{', '.join(result_names)} = " if result_names else ""
    out_text = result_types[0] if len(result_types) == 1 else f"({', '.join(result_types)})"
    attrs = (
        f'call_target_name = "{_CALLBACK_TARGET}", has_side_effect = {str(has_side_effect).lower()}, '
        f"mhlo.backend_config = {{index = {index} : ui64}}"
    )
    ctx.emit(
        f'{lhs}"stablehlo.custom_call"({", ".join(operand_names)}) {{{attrs}}} : '
        f"({', '.join(operand_types)}) -> {out_text}"
    )
    return tuple(results)
