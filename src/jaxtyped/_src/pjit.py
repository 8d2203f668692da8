"""``jit`` as a call primitive (layer L4).

``JitCall`` holds a traced jaxpr. Every interpreter handles it like any other
primitive, through its rules:

- evaluation compiles the jaxpr through XLA (cached) and runs it;
- staging records one ``jit[name=f jaxpr={...}]`` equation, so the inner
  function stays staged inside ``make_jaxpr`` and nested ``jit``;
- ``jvp`` of a call is a call of the jvp: the inner jaxpr is differentiated
  into a new jaxpr (primal and non-zero tangent inputs, primal and
  non-zero tangent outputs) and called again;
- ``vmap`` of a call is a call of the batched jaxpr;
- partial evaluation splits the jaxpr into a known call (run now) and an
  unknown call over residuals; the transpose of a call is a call of the
  transposed jaxpr (cotangents that are symbolically zero stay out);
- lowering emits the inner jaxpr inline.

Note [consts are operands]: the jaxpr of a ``JitCall`` has no constvars.
Values a traced function closes over (arrays, or tracers of an enclosing
transformation) are passed as leading operands of the call, so every
interpreter sees them as ordinary inputs and the primitive itself is a
plain, hashable value.
"""

import threading
import weakref
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, TypeVar, cast, final

from typing_extensions import override

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, DeviceBuffer, array_from_device, device_buffer, mark_donated
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import EVAL, bind, current_interpreter, interpreting, transformation_scope
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import LinearArg, PartialEvalSplit, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.interpreters.batching import BatchInterpreter
from jaxtyped._src.interpreters.jvp import JVPInterpreter
from jaxtyped._src.interpreters.partial_eval import dce_jaxpr, partial_eval_jaxpr
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.ad import transpose_jaxpr
from jaxtyped._src.lax.structural import bdim_to_front
from jaxtyped._src.lax.structural import instantiate as instantiate_zero
from jaxtyped._src.lowering import lower_jaxpr, lower_jaxpr_inline
from jaxtyped._src.monitoring import JAXPR_TO_MLIR_MODULE_EVENT, compiling, timed_event
from jaxtyped._src.runtime import xla
from jaxtyped._src.runtime import host_callbacks

__all__ = [
    "JitCall",
    "jit_call",
    "consts_as_invars",
    "executable_for",
    "clear_call_caches",
    "cached_transform",
    "check_operand_types",
    "evaluate_eagerly",
    "jvp_jaxpr",
    "batch_jaxpr",
    "call_jvp",
    "call_batch",
    "call_transpose",
    "hashable_or_id",
    "cached_value",
]


def consts_as_invars(jaxpr: Jaxpr) -> Jaxpr:
    """``jaxpr`` with its constvars turned into leading invars."""
    if not jaxpr.constvars:
        return jaxpr
    return Jaxpr((), jaxpr.constvars + jaxpr.invars, jaxpr.outvars, jaxpr.eqns)


@final
@dataclass(frozen=True, slots=True)
class JitCall(Primitive):
    """Call of a staged function (JAX's ``jit`` primitive).

    Attributes:
        jaxpr: the function, without constvars (see Note [consts are operands]).
        fun_name: the user function's name, shown as ``name=`` and used for
            the compiled module's name.
        donated_invars: per invar, whether its buffer may be reused for an
            output (``donate_argnums``).
    """

    name: ClassVar[str] = "jit"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False  # hashing a jaxpr costs O(size)
    jaxpr: Jaxpr
    fun_name: str
    donated_invars: tuple[bool, ...]

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_operand_types(f"jit of {self.fun_name}", avals, self.jaxpr.in_avals)
        return self.jaxpr.out_avals

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        executable = executable_for(self.jaxpr, self.fun_name, self.donated_invars)
        return run_executable(executable, args, self.donated_invars, out_avals, self.fun_name)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return call_jvp(self.jaxpr, primals, tangents, self._call)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        return call_batch(self.jaxpr, axis, args, dims, self._call)

    def _call(self, closed: ClosedJaxpr[Array], args: Sequence[Array]) -> tuple[Array, ...]:
        return jit_call(closed, self.fun_name, args)

    @override
    def partial_eval_split(self, unknowns: tuple[bool, ...]) -> PartialEvalSplit:
        split = cached_value(("partial_eval", self.jaxpr, unknowns), lambda: partial_eval_jaxpr(self.jaxpr, unknowns))
        no_donation = (False,) * len(split.known.invars)
        known = JitCall(split.known, self.fun_name, no_donation)
        unknown = JitCall(split.unknown, self.fun_name, (False,) * len(split.unknown.invars))
        return PartialEvalSplit(known, unknown, split.out_unknowns, split.num_res)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        return call_transpose(
            self.jaxpr, cts, args, lambda closed, operands: jit_call(closed, f"transpose({self.fun_name})", operands)
        )

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return lower_jaxpr_inline(ctx, self.jaxpr, (), args)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("name", self.fun_name), ("jaxpr", self.jaxpr))


def jit_call(closed: ClosedJaxpr[Array], fun_name: str, args: Sequence[Array], donated: Sequence[bool] = ()) -> tuple[Array, ...]:
    """Bind a ``JitCall`` of ``closed`` on ``args`` (its consts become
    leading operands)."""
    donated_invars = (False,) * len(closed.consts) + (tuple(donated) or (False,) * len(args))
    prim = JitCall(consts_as_invars(closed.jaxpr), fun_name, donated_invars)
    return bind(prim, *closed.consts, *args)


# === rules shared by higher-order primitives (jit, checkpoint, control flow) ===


def check_operand_types(
    where: str, avals: Sequence[ShapedArray], expected: Sequence[ShapedArray], takes: str = "traced for"
) -> None:
    """The ``abstract_eval`` check of a primitive holding jaxprs: the
    operands have the types its jaxprs take (weak types aside)."""
    if len(avals) != len(expected) or not all(a.same_type(e) for a, e in zip(avals, expected)):
        got = ", ".join(a.str_short() for a in avals)
        want = ", ".join(a.str_short() for a in expected)
        raise JaxtypedTypeError(f"{where}: called with ({got}) but {takes} ({want})")


def evaluate_eagerly(fun: Callable[[], Sequence[Array]]) -> tuple[ArrayImpl, ...]:
    """Run ``fun`` (which applies jaxprs) op by op on the evaluating
    interpreter, checking that it produced concrete arrays: the eager
    evaluation of a checkpoint or of a cond's chosen branch."""
    with interpreting(EVAL):
        outs = fun()
    results: list[ArrayImpl] = []
    for out in outs:
        if type(out) is not ArrayImpl:
            raise AssertionError(f"internal error: eager evaluation produced {type(out).__name__}")
        results.append(out)
    return tuple(results)


# Binds a call primitive of the caller's kind on a transformed jaxpr.
CallJaxpr = Callable[[ClosedJaxpr[Array], Sequence[Array]], tuple[Array, ...]]


def call_jvp(
    jaxpr: Jaxpr, primals: tuple[Array, ...], tangents: tuple[Tangent, ...], call: CallJaxpr
) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
    """The jvp rule of a call primitive: ``call`` of the jvp jaxpr, fed the
    primals and the non-zero tangents; zero output tangents stay symbolic."""
    nonzero = tuple(not isinstance(t, Zero) for t in tangents)
    closed, out_nonzero = cached_transform(("jvp", jaxpr, nonzero), lambda: jvp_jaxpr(jaxpr, nonzero))
    outs = call(closed, (*primals, *(t for t in tangents if not isinstance(t, Zero))))
    n_out = len(jaxpr.outvars)
    nonzero_tangents = iter(outs[n_out:])
    tangent_outs: list[Tangent] = [
        next(nonzero_tangents) if nz else Zero(aval.to_tangent_aval())
        for nz, aval in zip(out_nonzero, jaxpr.out_avals, strict=True)
    ]
    return outs[:n_out], tuple(tangent_outs)


def call_batch(
    jaxpr: Jaxpr, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...], call: CallJaxpr
) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
    """The batching rule of a call primitive: ``call`` of the batched jaxpr."""
    in_avals = tuple(a.aval for a in args)
    key = ("vmap", jaxpr, dims, in_avals, axis.size, hashable_or_id(axis.name))
    closed, out_dims = cached_transform(key, lambda: batch_jaxpr(jaxpr, axis, in_avals, dims))
    return call(closed, args), out_dims


def call_transpose(
    jaxpr: Jaxpr, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...], call: CallJaxpr
) -> tuple[Tangent | None, ...]:
    """The transpose rule of a call primitive: ``call`` of the transposed
    jaxpr, fed the non-linear operands and the non-zero cotangents."""
    linear = tuple(isinstance(a, UndefinedPrimal) for a in args)
    ct_nonzero = tuple(not isinstance(ct, Zero) for ct in cts)
    # Traced at the cotangents' own weak types (as JAX's jit transpose is), so
    # a call's transpose types its results as its body's transpose would.
    ct_weak_types = tuple(ct.aval.weak_type for ct in cts)
    key = ("transpose", jaxpr, linear, ct_nonzero, ct_weak_types)
    closed, nonzero = cached_transform(key, lambda: transpose_jaxpr(jaxpr, linear, ct_nonzero, ct_weak_types))
    return run_transposed(lambda operands: call(closed, operands), cts, args, nonzero)


def run_transposed(
    run: Callable[[Sequence[Array]], Sequence[Array]],
    cts: tuple[Tangent, ...],
    args: tuple[LinearArg, ...],
    nonzero: Sequence[bool],
) -> tuple[Tangent | None, ...]:
    """Run a transposed call on the non-linear operands and the non-zero
    cotangents, and give each linear operand its cotangent (a ``Zero``
    where ``nonzero`` says the transposed jaxpr computes none)."""
    operands = [a for a in args if not isinstance(a, UndefinedPrimal)]
    operands += [ct for ct in cts if not isinstance(ct, Zero)]
    outs = iter(run(operands))
    nonzero_iter = iter(nonzero)
    results: list[Tangent | None] = []
    for a in args:
        if not isinstance(a, UndefinedPrimal):
            results.append(None)
        else:
            results.append(next(outs) if next(nonzero_iter) else Zero(a.aval.to_tangent_aval()))
    return tuple(results)


# === executables ===

# Note [programs live as long as their jaxpr]: compiled programs are keyed
# weakly on the jaxpr they run (as JAX keys its caches weakly on functions):
# a jitted function's entries hold their jaxprs, so when the function is
# garbage-collected its programs are released (issue 19: 2000 fresh jitted
# functions kept ~200 MB of programs alive in a 512-entry strong cache). The
# text-keyed cache in runtime/xla.py dedupes equal programs and keeps a few
# recent ones for callers that hold nothing.
_executables: "weakref.WeakKeyDictionary[Jaxpr, dict[tuple[str, tuple[bool, ...]], xla.Executable]]" = (
    weakref.WeakKeyDictionary()
)
_executables_lock = threading.Lock()


def executable_for(jaxpr: Jaxpr, fun_name: str, donated: tuple[bool, ...]) -> xla.Executable:
    """The compiled program for a const-free jaxpr (cached by value while an
    equal jaxpr is alive; see Note [programs live as long as their jaxpr])."""
    key = (fun_name, donated)
    with _executables_lock:
        per_jaxpr = _executables.get(jaxpr)
        hit = per_jaxpr.get(key) if per_jaxpr is not None else None
        if hit is not None:
            return hit
    # Dead equations are dropped before lowering, where JAX drops them (a
    # gradient's unused primal output, issue 19): the traced jaxpr keeps
    # them, as JAX's make_jaxpr does; effects are never dead; the
    # program's parameters stay as they are.
    with timed_event(JAXPR_TO_MLIR_MODULE_EVENT, f"jit({fun_name})"):
        live, _ = dce_jaxpr(jaxpr, (True,) * len(jaxpr.outvars))
        lowered = lower_jaxpr(live, name=fun_name, donated=donated)
    with compiling(f"jit({fun_name})"):
        executable = host_callbacks.compile_lowered(lowered)
    with _executables_lock:
        _executables.setdefault(jaxpr, {})[key] = executable
    return executable


def clear_call_caches() -> None:
    """Forget compiled call executables and transformed call jaxprs."""
    with _executables_lock:
        _executables.clear()
    with _transform_lock:
        _transform_cache.clear()
        _value_cache.clear()


def run_executable(
    executable: xla.Executable,
    args: Sequence[ArrayImpl],
    donated: Sequence[bool],
    out_avals: tuple[ShapedArray, ...],
    fun_name: str,
) -> tuple[ArrayImpl, ...]:
    """Run ``executable`` on concrete arrays (types already checked);
    donated arguments are deleted afterwards."""
    if not any(donated):
        outs = executable.execute([device_buffer(a) for a in args])
        return tuple(array_from_device(b, aval) for b, aval in zip(outs, out_avals, strict=True))
    buffers = donation_buffers(args, donated, fun_name)
    outs = executable.execute(buffers)
    consume_donated(args, donated, buffers)
    return tuple(array_from_device(b, aval) for b, aval in zip(outs, out_avals, strict=True))


def donation_buffers(args: Sequence[ArrayImpl], donated: Sequence[bool], fun_name: str) -> list[DeviceBuffer]:
    """The device buffers of a call's arguments, those flagged in
    ``donated`` given to the program: an array passed twice with a donated
    use is refused, and a donated array's cached host view is dropped."""
    if len(args) > 1 and len({id(a) for a in args}) != len(args):
        check_donated_once(args, donated, fun_name)
    buffers: list[DeviceBuffer] = []
    for arg, d in zip(args, donated):
        if d and arg._buffer is not None:  # pyright: ignore[reportPrivateUsage]  # this layer's array
            # A cached host view of the buffer (an eager read made it,
            # zero-copy on CPU) is an external reference: jaxlib would
            # copy the buffer instead of reusing it in place.
            arg._value = None  # pyright: ignore[reportPrivateUsage]
        buffers.append(device_buffer(arg))
    return buffers


def consume_donated(
    args: Sequence[ArrayImpl], donated: Sequence[bool], buffers: Sequence[DeviceBuffer], first: int = 0
) -> list[int] | None:
    """Delete the donated arguments of a call that has run whose buffers
    (``buffers[first + i]`` for ``args[i]``) the program consumed; one no
    result could reuse stays alive, as in JAX (Note [donated parameters]
    in ``lowering``). Returns the indices of those kept, None if none."""
    kept: list[int] | None = None
    for i, d in enumerate(donated):
        if d:
            if buffers[first + i].is_deleted():
                mark_donated(args[i])
            elif kept is None:
                kept = [i]
            else:
                kept.append(i)
    return kept


def check_donated_once(args: Sequence[ArrayImpl], donated: Sequence[bool], fun_name: str) -> None:
    """Refuse a donated array that is also passed as another argument (the
    program would read a buffer it consumes)."""
    donated_ids = {id(a): i for i, (a, d) in enumerate(zip(args, donated)) if d}
    for i, arg in enumerate(args):
        j = donated_ids.get(id(arg))
        if j is not None and j != i:
            raise JaxtypedValueError(
                f"jit of {fun_name}: the same array {arg.aval.str_short()} is passed as donated argument "
                f"{j} and again as argument {i}; a donated buffer is consumed by the call, so pass a copy"
            )


# === transformed jaxprs (cached) ===

_TRANSFORM_CACHE_MAX: Final = 1024
_transform_cache: "OrderedDict[Hashable, tuple[ClosedJaxpr[Array], object]]" = OrderedDict()
_transform_lock = threading.Lock()
T = TypeVar("T")


def cached_transform(key: Hashable, make: Callable[[], tuple[ClosedJaxpr[Array], T]]) -> tuple[ClosedJaxpr[Array], T]:
    """``make()``, cached under ``key`` unless the jaxpr closes over
    tracers (those belong to one trace and must not be reused)."""
    with _transform_lock:
        hit = _transform_cache.get(key)
        if hit is not None:
            _transform_cache.move_to_end(key)
            return cast(tuple[ClosedJaxpr[Array], T], hit)
    result = make()
    if all(isinstance(c, ArrayImpl) for c in result[0].consts):
        with _transform_lock:
            _transform_cache[key] = result
            while len(_transform_cache) > _TRANSFORM_CACHE_MAX:
                _transform_cache.popitem(last=False)
    return result


_value_cache: "OrderedDict[Hashable, object]" = OrderedDict()


def cached_value(key: Hashable, make: Callable[[], T]) -> T:
    """``make()`` cached under ``key``; for what higher-order primitives
    derive from their jaxprs (splits, transformed loops) when the result
    holds no traced values."""
    with _transform_lock:
        if key in _value_cache:
            _value_cache.move_to_end(key)
            return cast(T, _value_cache[key])
    result = make()
    with _transform_lock:
        _value_cache[key] = result
        while len(_value_cache) > _TRANSFORM_CACHE_MAX:
            _value_cache.popitem(last=False)
    return result


def hashable_or_id(x: object) -> object:
    """``x`` if it hashes, else its id (for cache keys of arbitrary params)."""
    try:
        hash(x)
    except TypeError:
        return id(x)
    return x


def jvp_jaxpr(
    jaxpr: Jaxpr, nonzero: tuple[bool, ...], instantiate: tuple[bool, ...] | bool = False
) -> tuple[ClosedJaxpr[Array], tuple[bool, ...]]:
    """The jaxpr of (primals, non-zero tangents) -> (primal outputs,
    non-zero tangent outputs), and which output tangents are non-zero.
    Output tangents marked in ``instantiate`` are always returned (zeros
    made real), as loop carries and branch outputs need."""
    if isinstance(instantiate, bool):
        instantiate = (instantiate,) * len(jaxpr.outvars)
    staging = StagingInterpreter(current_interpreter(), "jvp of a jit call", "jit")
    with transformation_scope(staging):
        primals = [staging.new_arg(aval) for aval in jaxpr.in_avals]
        tangents = [staging.new_arg(aval.to_tangent_aval()) for aval, nz in zip(jaxpr.in_avals, nonzero) if nz]
        jvp_interp = JVPInterpreter(staging, "a jit call")
        with transformation_scope(jvp_interp):
            tangent_iter = iter(tangents)
            boxed = [jvp_interp.box(p, next(tangent_iter)) if nz else p for p, nz in zip(primals, nonzero)]
            outs = eval_jaxpr(jaxpr, (), *boxed)
            pairs = [jvp_interp.unbox(o) for o in outs]
        pairs = [(p, instantiate_zero(t) if inst else t) for (p, t), inst in zip(pairs, instantiate, strict=True)]
        out_nonzero = tuple(not isinstance(t, Zero) for _, t in pairs)
        results: list[Array] = [p for p, _ in pairs]
        results += [t for _, t in pairs if not isinstance(t, Zero)]
        closed = staging.build(results)
    return closed, out_nonzero


def batch_jaxpr(
    jaxpr: Jaxpr,
    axis: BatchAxis,
    in_avals: tuple[ShapedArray, ...],
    dims: tuple[BatchDim, ...],
    force_out: tuple[bool, ...] | None = None,
) -> tuple[ClosedJaxpr[Array], tuple[BatchDim, ...]]:
    """The jaxpr of the batched values -> batched outputs, and the
    outputs' batch dimensions. Outputs marked in ``force_out`` come out
    batched at dimension 0 (unbatched ones broadcast), as loop carries and
    branch outputs need."""
    staging = StagingInterpreter(current_interpreter(), "vmap of a jit call", "jit")
    with transformation_scope(staging):
        vals = [staging.new_arg(aval) for aval in in_avals]
        batch_interp = BatchInterpreter(staging, axis, "a jit call")
        with transformation_scope(batch_interp):
            boxed = [batch_interp.box(v, d) for v, d in zip(vals, dims)]
            outs = eval_jaxpr(jaxpr, (), *boxed)
            pairs = [batch_interp.unbox(o) for o in outs]
        if force_out is not None:
            pairs = [
                (bdim_to_front(v, d, axis.size), 0) if force else (v, d)
                for (v, d), force in zip(pairs, force_out, strict=True)
            ]
        closed = staging.build([v for v, _ in pairs])
    return closed, tuple(d for _, d in pairs)
