"""Lowering jaxprs to StableHLO modules (layer L2).

A jaxpr becomes one public ``@main`` function: each equation is handed to
its primitive's ``lower`` rule with the operands' SSA values. Closed-over
constants are parameters of ``main`` (they are passed at every call rather
than baked into the program, so a large captured array costs neither
compile time nor module size). Call primitives (a nested ``jit``) lower
their inner jaxpr inline; XLA would inline the call anyway.
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import final

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, host_buffer
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext, tensor_type
from jaxtyped._src.core.interpreter import current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import Atom, Jaxpr, Literal, Var
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.interpreters.staging import StagingInterpreter

__all__ = ["LoweredModule", "lower_jaxpr", "lower_jaxpr_inline", "module_name"]


@final
@dataclass(frozen=True, slots=True)
class LoweredModule:
    """A StableHLO module (generic MLIR syntax) and its signature."""

    text: str
    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]


def module_name(fun_name: str) -> str:
    """JAX's module name for a function: ``jit_f``; ``<lambda>`` gives
    ``jit__lambda``."""
    cleaned = re.sub(r"[^0-9A-Za-z_]", "_", fun_name).rstrip("_")
    return f"jit_{cleaned or 'fun'}"


def lower_jaxpr(jaxpr: Jaxpr, *, name: str, donated: Sequence[bool] = ()) -> LoweredModule:
    """The module computing ``jaxpr``; its parameters are the jaxpr's
    constvars then invars. ``donated[i]`` marks parameter ``i`` as a buffer
    donor (XLA may write an output into it)."""
    params = jaxpr.constvars + jaxpr.invars
    ctx = LoweringContext(_lower_fun)
    args: list[HloValue] = []
    header: list[str] = []
    for i, var in enumerate(params):
        value = HloValue(f"%arg{i}", var.aval)
        args.append(value)
        attr = " {jax.buffer_donor = true}" if i < len(donated) and donated[i] else ""
        header.append(f"{value.name}: {value.type}{attr}")
    outs = lower_jaxpr_inline(ctx, jaxpr, args[: len(jaxpr.constvars)], args[len(jaxpr.constvars) :])
    ctx.ret(outs, "func.return")
    out_types = ", ".join(tensor_type(v.aval) for v in outs)
    lines = [
        f"module @{module_name(name)} attributes {{mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32}} {{",
        f"  func.func public @main({', '.join(header)}) -> ({out_types}) {{",
        *ctx.lines,
        "  }",
        "}",
        "",
    ]
    return LoweredModule("\n".join(lines), tuple(v.aval for v in params), jaxpr.out_avals)


def lower_jaxpr_inline(
    ctx: LoweringContext, jaxpr: Jaxpr, consts: Sequence[HloValue], args: Sequence[HloValue]
) -> tuple[HloValue, ...]:
    """Emit ``jaxpr``'s equations into ``ctx`` on the given values and
    return its outputs' values."""
    env: dict[Var, HloValue] = {}

    def read(atom: Atom) -> HloValue:
        if isinstance(atom, Literal):
            return ctx.constant(atom.val, atom.aval)
        return env[atom]

    for var, value in zip(jaxpr.constvars, consts, strict=True):
        env[var] = value
    for var, value in zip(jaxpr.invars, args, strict=True):
        env[var] = value
    for eqn in jaxpr.eqns:
        in_values = tuple(read(atom) for atom in eqn.invars)
        out_avals = tuple(v.aval for v in eqn.outvars)
        outs = eqn.primitive.lower(ctx, in_values, out_avals)
        if tuple(o.aval.shape for o in outs) != tuple(a.shape for a in out_avals) or tuple(
            o.aval.dtype for o in outs
        ) != tuple(a.dtype for a in out_avals):
            got = ", ".join(o.aval.str_short() for o in outs)
            want = ", ".join(a.str_short() for a in out_avals)
            raise AssertionError(f"internal error: lower rule of '{eqn.primitive.name}' produced ({got}), expected ({want})")
        for var, value in zip(eqn.outvars, outs, strict=True):
            env[var] = value
    return tuple(read(atom) for atom in jaxpr.outvars)


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
