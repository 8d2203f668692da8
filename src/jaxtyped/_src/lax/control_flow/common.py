"""Shared machinery of the control-flow primitives (layer L4).

Note [control flow is higher-order primitives]: ``cond``, ``while`` and
``scan`` are primitives whose static parameters are const-free jaxprs
(closed-over values are passed as leading operands, as for ``jit``; see
Note [consts are operands] in :mod:`jaxtyped._src.pjit`). Their rules
transform those jaxprs (jvp, batching, partial evaluation, transpose) and
bind a new application of the same primitive, so every transformation of a
loop is again a loop. The user-facing functions trace the Python callables
once per call into jaxprs, check their types, and bind.

This module holds what the three share: tracing user functions over pytrees
with named leaves, type comparison, small pure edits of jaxprs (reordering
and inserting inputs, joining branches' consts), and eager evaluation of
loops (compiled, or op by op under ``disable_jit``).
"""

from collections.abc import Callable, Sequence
from typing import cast
import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.config import config
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, array_from_numpy, shared_numpy_constants
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.check import maybe_check_jaxpr
from jaxtyped._src.core.interpreter import current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Eqn, Jaxpr, Var, eval_jaxpr
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.interpreters.partial_eval import next_var_count
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.util import leaf_as_array, named_leaves
from jaxtyped._src.pjit import consts_as_invars, executable_for, run_executable
from jaxtyped._src.tree_util import PyTreeDef

__all__ = [
    "TracedFun",
    "trace_user_fun",
    "trace_flat",
    "type_difference",
    "reorder_jaxpr",
    "segment_order",
    "insert_invars",
    "join_consts",
    "drop_invars",
    "evaluate_compiled",
    "same_up_to_weak_type",
    "promoted_carry",
    "use_python_loops",
    "i32_scalar",
    "with_leading_axis",
    "eval_closed",
]


class TracedFun:
    """A user function traced to a closed jaxpr, with its output structure
    and the names of its output leaves (``output[0]``)."""

    __slots__ = ("closed", "out_tree", "out_names")

    def __init__(self, closed: ClosedJaxpr[Array], out_tree: PyTreeDef, out_names: tuple[str, ...]) -> None:
        self.closed = closed
        self.out_tree = out_tree
        self.out_names = out_names

    @property
    def out_avals(self) -> tuple[ShapedArray, ...]:
        """The output leaves' types."""
        return self.closed.jaxpr.out_avals


def trace_user_fun(
    fun: Callable[..., object],
    args_tree: PyTreeDef,
    in_avals: Sequence[ShapedArray],
    in_names: Sequence[str],
    *,
    desc: str,
    transformation: str,
    out_root: str = "output",
    out_avals: Sequence[ShapedArray] | None = None,
) -> TracedFun:
    """Trace ``fun(*args)`` where ``args_tree`` is the structure of the
    tuple of positional arguments and ``in_avals`` its leaves' types.

    With ``out_avals`` (types of the first outputs), outputs that differ
    from them only by weak type are converted to them (how branches and
    loop bodies agree on one type, as in JAX).
    """
    interp = StagingInterpreter(current_interpreter(), desc, transformation)
    with transformation_scope(interp), shared_numpy_constants():
        tracers = [interp.new_arg(aval, name) for aval, name in zip(in_avals, in_names, strict=True)]
        args = cast(tuple[object, ...], args_tree.unflatten(tracers))  # args_tree is a tuple's structure
        out = fun(*args)
        leaves, names, out_tree = named_leaves(out, out_root)
        outs = [leaf_as_array(leaf, f"{transformation} {desc}: {name}") for leaf, name in zip(leaves, names)]
        if out_avals is not None:
            outs = [_to_joined(o, want) for o, want in zip(outs, out_avals)] + outs[len(out_avals) :]
        closed = interp.build(outs)
    maybe_check_jaxpr(closed)
    return TracedFun(closed, out_tree, tuple(names))


def _to_joined(x: Array, want: ShapedArray) -> Array:
    if x.aval.shape == want.shape and x.aval.dtype == want.dtype and x.aval.weak_type != want.weak_type:
        return convert_to(x, want.dtype, weak_type=want.weak_type)
    return x


def same_up_to_weak_type(a: ShapedArray, b: ShapedArray) -> bool:
    """Whether two avals differ at most by weak type."""
    return a.shape == b.shape and a.dtype == b.dtype


def promoted_carry(init: ShapedArray, out: ShapedArray) -> ShapedArray | None:
    """The type a weakly typed initial carry is promoted to so that it
    matches the loop body's output (JAX's rule: ``while_loop(lambda c: c <
    3, lambda c: c + 1.0, 0)`` carries a strongly typed float); None when no
    promotion applies. Types that differ only by weak type need none (the
    loop's result then has the body's weak type, as in JAX)."""
    if not init.weak_type or init.shape != out.shape or init.dtype == out.dtype:
        return None
    dtype, _ = dtypes.result_dtype((init.dtype, True), (out.dtype, out.weak_type))
    if dtype != out.dtype:
        return None
    return ShapedArray(init.shape, dtype, False)


def trace_flat(fun: Callable[..., Sequence[Array]], in_avals: Sequence[ShapedArray], desc: str) -> ClosedJaxpr[Array]:
    """Trace a function of flat arrays (a rule's helper, not user code)."""
    interp = StagingInterpreter(current_interpreter(), desc, "control flow rule")
    with transformation_scope(interp):
        tracers = [interp.new_arg(aval) for aval in in_avals]
        outs = fun(*tracers)
        closed = interp.build(list(outs))
    return closed


def type_difference(a: ShapedArray, b: ShapedArray) -> str | None:
    """Why two types differ, in words (``the shapes do not match``), or
    None when they are the same type."""
    if a.shape != b.shape:
        return "the shapes do not match"
    if a.dtype != b.dtype:
        return "the dtypes do not match"
    if a.weak_type != b.weak_type:
        return "the weak types do not match"
    return None


# === pure edits of jaxprs ===


def segment_order(sizes: Sequence[int], order: Sequence[int]) -> list[int]:
    """The permutation that lists the segments of a sequence (of lengths
    ``sizes``) in the order ``order``: for :func:`reorder_jaxpr` and
    ``unknown_order``."""
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    return [starts[seg] + k for seg in order for k in range(sizes[seg])]


def reorder_jaxpr(jaxpr: Jaxpr, in_order: Sequence[int], out_order: Sequence[int] | None = None) -> Jaxpr:
    """``jaxpr`` whose input ``i`` is the old input ``in_order[i]`` (and
    output ``j`` the old output ``out_order[j]``)."""
    invars = tuple(jaxpr.invars[i] for i in in_order)
    assert sorted(in_order) == list(range(len(jaxpr.invars))), "reorder_jaxpr needs a permutation"
    outvars = jaxpr.outvars if out_order is None else tuple(jaxpr.outvars[j] for j in out_order)
    return Jaxpr(jaxpr.constvars, invars, outvars, jaxpr.eqns)


def insert_invars(jaxpr: Jaxpr, at: int, avals: Sequence[ShapedArray]) -> Jaxpr:
    """``jaxpr`` with unused inputs of types ``avals`` inserted before its
    input ``at``."""
    if not avals:
        return jaxpr
    count = next_var_count(jaxpr)
    new = tuple(Var(count + i, aval) for i, aval in enumerate(avals))
    invars = jaxpr.invars[:at] + new + jaxpr.invars[at:]
    return Jaxpr(jaxpr.constvars, invars, jaxpr.outvars, jaxpr.eqns)


def join_consts(closed: Sequence[ClosedJaxpr[Array]]) -> tuple[list[Jaxpr], tuple[Array, ...]]:
    """Several closed jaxprs with the same inputs as const-free jaxprs that
    all take every one's consts first (each ignores the others'), and the
    concatenated consts (how branches share one operand list)."""
    all_consts = tuple(c for cj in closed for c in cj.consts)
    jaxprs: list[Jaxpr] = []
    before: list[ShapedArray] = []
    for i, cj in enumerate(closed):
        after = [c.aval for later in closed[i + 1 :] for c in later.consts]
        jaxpr = insert_invars(consts_as_invars(cj.jaxpr), len(cj.consts), after)
        jaxprs.append(insert_invars(jaxpr, 0, before))
        before += [c.aval for c in cj.consts]
    return jaxprs, all_consts


def drop_invars(jaxpr: Jaxpr, keep: Sequence[bool]) -> Jaxpr:
    """``jaxpr`` without the inputs not marked in ``keep`` (they must be
    unused)."""
    used = {a for e in jaxpr.eqns for a in e.invars if isinstance(a, Var)} | {
        a for a in jaxpr.outvars if isinstance(a, Var)
    }
    dropped = [v for v, k in zip(jaxpr.invars, keep, strict=True) if not k]
    assert not any(v in used for v in dropped), "drop_invars: a dropped input is used"
    invars = tuple(v for v, k in zip(jaxpr.invars, keep) if k)
    return Jaxpr(jaxpr.constvars, invars, jaxpr.outvars, jaxpr.eqns)


# === eager evaluation ===


def evaluate_compiled(prim: Primitive, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
    """Eager evaluation of a loop: the one-equation program compiled
    through XLA (cached by value) and run, as JAX does; under
    ``disable_jit`` the loop runs in Python instead."""
    invars = tuple(Var(i, a.aval) for i, a in enumerate(args))
    outvars = tuple(Var(len(args) + i, aval) for i, aval in enumerate(out_avals))
    jaxpr = Jaxpr((), invars, outvars, (Eqn(prim, invars, outvars),))
    executable = executable_for(jaxpr, prim.name, (False,) * len(args))
    return run_executable(executable, args, (False,) * len(args), out_avals, prim.name)


def i32_scalar(value: int) -> ArrayImpl:
    """A strongly typed ``int32`` scalar (loop counters, branch indices)."""
    return array_from_numpy(np.array(value, np.int32))


def with_leading_axis(aval: ShapedArray, size: int) -> ShapedArray:
    """``aval`` with a new leading axis of ``size``."""
    return aval.update(shape=(size, *aval.shape))  # keeps the vma (shard_map, JEP 17111)


def use_python_loops() -> bool:
    """Whether loops run op by op in Python (under ``disable_jit``)."""
    return config.jax_disable_jit


def eval_closed(closed: ClosedJaxpr[Array], *args: Array) -> tuple[Array, ...]:
    """Apply a closed jaxpr under the current interpreter."""
    return eval_jaxpr(closed.jaxpr, closed.consts, *args)

