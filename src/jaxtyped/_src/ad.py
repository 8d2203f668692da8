"""Reverse mode: linearize, the transpose pass, vjp (layer L4).

``linearize`` runs the jvp interpreter on top of a partial evaluator (see
Note [partial evaluation as staging]): primal work runs now, tangent work
becomes a *linear jaxpr* whose constvars are the residuals.
:func:`backward_pass` transposes a linear jaxpr: it walks the equations in
reverse, calling each primitive's ``transpose`` rule under the current
interpreter (so a backward pass can be staged, batched or differentiated
again). ``vjp`` is linearize followed by the backward pass.

Note [symbolic zero cotangents]: cotangents are kept as :class:`Zero` until
something needs an array. An equation whose output cotangents are all zero
is skipped, so inputs that do not influence the output never get zeros
computed for them; only the user-facing functions materialise zeros, at the
very end, where an array must be returned.
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import final

from jaxtyped._src import dtypes
from jaxtyped._src.ad_accumulation import accumulate_in_place
from jaxtyped._src.config import config
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.avals import ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.check import maybe_check_jaxpr
from jaxtyped._src.core.interpreter import bind, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import Atom, ClosedJaxpr, Eqn, Jaxpr, Literal, Var, eval_jaxpr
from jaxtyped._src.core.primitive import LinearArg, Tangent
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.interpreters.jvp import JVPInterpreter
from jaxtyped._src.interpreters.partial_eval import PartialEvalInterpreter, dce_jaxpr
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lax.arithmetic import add_tangents
from jaxtyped._src.lowering import register_lowering_rewrite
from jaxtyped._src.tree_util import tree_flatten, tree_unflatten

__all__ = ["LinearFunction", "linearize_flat", "backward_pass", "cotangent_aval", "transpose_jaxpr"]

# Sparse cotangents (of slice reads) accumulate in place in every lowered
# program (Note [sparse cotangents accumulate in place], issue 16 item 3).
register_lowering_rewrite(accumulate_in_place)


@final
@dataclass(frozen=True, slots=True)
class LinearFunction:
    """The linear map ``linearize`` returns, as a jaxpr over residuals.

    ``jaxpr`` takes one tangent per primal input and returns the tangents
    of the outputs marked in ``out_nonzero`` (the others are symbolically
    zero); its consts are the residuals.
    """

    jaxpr: ClosedJaxpr[Array]
    in_avals: tuple[ShapedArray, ...]
    out_avals: tuple[ShapedArray, ...]
    out_nonzero: tuple[bool, ...]

    def jvp(self, tangents: Sequence[Array]) -> list[Tangent]:
        """Apply the linear map (forward)."""
        outs = iter(eval_jaxpr(self.jaxpr.jaxpr, self.jaxpr.consts, *tangents))
        return [next(outs) if nz else Zero(aval) for nz, aval in zip(self.out_nonzero, self.out_avals)]

    def transpose(self, cts: Sequence[Tangent]) -> list[Tangent]:
        """Apply the transposed map: output cotangents to input cotangents."""
        nonzero_cts = [ct for ct, nz in zip(cts, self.out_nonzero, strict=True) if nz]
        args: list[LinearArg] = [UndefinedPrimal(aval) for aval in self.in_avals]
        results = backward_pass(self.jaxpr.jaxpr, self.jaxpr.consts, args, nonzero_cts)
        return [Zero(aval) if ct is None else ct for ct, aval in zip(results, self.in_avals, strict=True)]


def linearize_flat(
    fun: Callable[[list[Array]], tuple[list[Array], object]],
    primals: Sequence[Array],
    fun_desc: str,
    transformation: str,
) -> tuple[list[Array], LinearFunction, object]:
    """Evaluate ``fun`` at ``primals`` and build its linear map there.

    ``fun`` returns its flat outputs and an auxiliary pytree, which comes
    back undifferentiated. Integer and boolean inputs get symbolically
    zero tangents (their tangent type is float0), so nothing is
    differentiated through them.
    """
    pe = PartialEvalInterpreter(current_interpreter(), fun_desc, transformation)
    tangent_avals = tuple(p.aval.to_tangent_aval() for p in primals)
    with transformation_scope(pe):
        tangents = [pe.new_arg(aval) for aval in tangent_avals]
        jvp_interp = JVPInterpreter(pe, fun_desc)
        with transformation_scope(jvp_interp):
            boxed = [
                jvp_interp.box(p, Zero(aval) if dtypes.is_float0(aval.dtype) else t)
                for p, t, aval in zip(primals, tangents, tangent_avals)
            ]
            outs, aux = fun(boxed)
            pairs = [jvp_interp.unbox(out) for out in outs]
            aux_leaves, aux_tree = tree_flatten(aux)
            aux = tree_unflatten(aux_tree, [jvp_interp.unbox(x)[0] if isinstance(x, Array) else x for x in aux_leaves])
        for primal, _ in pairs:
            if pe.is_unknown(primal):
                raise AssertionError(
                    f"{transformation} of {fun_desc}: a primal output was staged as unknown; "
                    "a higher-order primitive lacks a partial_eval_split rule"
                )
        out_nonzero = tuple(not isinstance(t, Zero) for _, t in pairs)
        linear = pe.build([t for _, t in pairs if not isinstance(t, Zero)])
    maybe_check_jaxpr(linear)
    out_avals = tuple(p.aval.to_tangent_aval() for p, _ in pairs)
    return [p for p, _ in pairs], LinearFunction(linear, tangent_avals, out_avals, out_nonzero), aux


# === the transpose pass ===


def backward_pass(
    jaxpr: Jaxpr, consts: Sequence[Array], args: Sequence[LinearArg], cts_out: Sequence[Tangent]
) -> tuple[Tangent | None, ...]:
    """Transpose ``jaxpr`` with respect to the inputs given as
    :class:`UndefinedPrimal`.

    Equations that do not depend on a linear input are evaluated forward
    first (a checkpointed jaxpr recomputes its residuals this way); the
    linear ones are transposed in reverse order. Returns one entry per
    input: its cotangent (possibly :class:`Zero`) for linear inputs, None
    for the others.
    """
    linear: set[Var] = {v for v, a in zip(jaxpr.invars, args, strict=True) if isinstance(a, UndefinedPrimal)}
    env: dict[Var, Array] = dict(zip(jaxpr.constvars, consts, strict=True))
    env.update((v, a) for v, a in zip(jaxpr.invars, args) if not isinstance(a, UndefinedPrimal))
    linear_eqns: list[Eqn] = []
    for eqn in jaxpr.eqns:
        if any(isinstance(a, Var) and a in linear for a in eqn.invars):
            linear_eqns.append(eqn)
            linear.update(eqn.outvars)
        else:
            env.update(zip(eqn.outvars, bind(eqn.primitive, *(_read(env, a) for a in eqn.invars)), strict=True))

    ct_env: dict[Var, Array] = {}
    for atom, ct in zip(jaxpr.outvars, cts_out, strict=True):
        _write_ct(ct_env, linear, atom, ct)
    for eqn in reversed(linear_eqns):
        cts = tuple(_pop_ct(ct_env, v) for v in eqn.outvars)
        if all(isinstance(ct, Zero) for ct in cts):
            continue
        eqn_args = tuple(
            UndefinedPrimal(a.aval) if isinstance(a, Var) and a in linear else _read(env, a) for a in eqn.invars
        )
        cts_in = eqn.primitive.transpose(cts, eqn_args)
        if config.jax_enable_checks:
            _check_cotangents(eqn, eqn_args, cts_in)
        for atom, ct_in in zip(eqn.invars, cts_in, strict=True):
            _write_ct(ct_env, linear, atom, ct_in)
    return tuple(
        _pop_ct(ct_env, v) if isinstance(a, UndefinedPrimal) else None
        for v, a in zip(jaxpr.invars, args)
    )


# _read and _write_ct are not closures of backward_pass: the debug mode's
# beartype import hook would decorate them anew on every transpose.
def _read(env: dict[Var, Array], atom: Atom) -> Array:
    return atom.array if isinstance(atom, Literal) else env[atom]


def _write_ct(ct_env: dict[Var, Array], linear: set[Var], atom: Atom, ct: Tangent | None) -> None:
    # Cotangents of non-linear values (literals, residuals) are dropped.
    if ct is None or isinstance(ct, Zero) or isinstance(atom, Literal) or atom not in linear:
        return
    previous = ct_env.get(atom)
    ct_env[atom] = ct if previous is None else _add(previous, ct)


def _add(a: Array, b: Array) -> Array:
    total = add_tangents(a, b)
    assert not isinstance(total, Zero)
    return total


def _pop_ct(ct_env: dict[Var, Array], var: Var) -> Tangent:
    ct = ct_env.pop(var, None)
    return Zero(var.aval.to_tangent_aval()) if ct is None else ct


def _check_cotangents(eqn: Eqn, args: tuple[LinearArg, ...], cts: tuple[Tangent | None, ...]) -> None:
    """Under ``jax_enable_checks``: a transpose rule returns one entry per
    operand, a cotangent of the operand's tangent type for linear ones."""
    name = eqn.primitive.name
    if len(cts) != len(args):
        raise JaxtypedTypeError(
            f"transpose rule of '{name}' returned {len(cts)} cotangents for {len(args)} operands"
        )
    for i, (arg, ct) in enumerate(zip(args, cts)):
        if not isinstance(arg, UndefinedPrimal) or ct is None:
            continue
        want = arg.aval.to_tangent_aval()
        if not want.same_type(ct.aval):
            raise JaxtypedTypeError(
                f"transpose rule of '{name}' returned a cotangent of type {ct.aval.str_short()} "
                f"for operand {i} of type {arg.aval.str_short()}"
            )


def cotangent_aval(aval: ShapedArray, weak_type: bool) -> ShapedArray:
    """The type of a cotangent of ``aval`` whose own weak type is
    ``weak_type`` (a cotangent's weak type can differ from its primal's;
    a ``float0`` one has none)."""
    tangent = aval.to_tangent_aval()
    return tangent.update(weak_type=weak_type) if dtypes.is_inexact(tangent.dtype) else tangent


def transpose_jaxpr(
    jaxpr: Jaxpr,
    linear: tuple[bool, ...],
    ct_nonzero: tuple[bool, ...],
    ct_weak_types: tuple[bool, ...] | None = None,
) -> tuple[ClosedJaxpr[Array], tuple[bool, ...]]:
    """The transpose of a constvar-free jaxpr linear in the inputs marked
    ``linear``, as a jaxpr of (non-linear inputs, non-zero output
    cotangents) -> non-zero input cotangents; also says which linear inputs
    get a non-zero cotangent. ``ct_weak_types``: the cotangents' own weak
    types (one per output), where they may differ from the outputs'."""
    staging = StagingInterpreter(current_interpreter(), "transpose of a call", "grad")
    ct_avals = (
        [aval.to_tangent_aval() for aval in jaxpr.out_avals]
        if ct_weak_types is None
        else [cotangent_aval(aval, weak) for aval, weak in zip(jaxpr.out_avals, ct_weak_types, strict=True)]
    )
    with transformation_scope(staging):
        args: list[LinearArg] = [
            UndefinedPrimal(aval) if lin else staging.new_arg(aval) for aval, lin in zip(jaxpr.in_avals, linear)
        ]
        cts: list[Tangent] = [
            staging.new_arg(aval) if nz else Zero(aval) for aval, nz in zip(ct_avals, ct_nonzero, strict=True)
        ]
        results = backward_pass(jaxpr, (), args, cts)
        linear_cts = [ct for ct, lin in zip(results, linear) if lin]
        nonzero = tuple(ct is not None and not isinstance(ct, Zero) for ct in linear_cts)
        closed = staging.build([ct for ct in linear_cts if isinstance(ct, Array)])
    # The backward pass evaluates every non-linear equation forward (a
    # checkpoint's recomputation); keep only what the cotangents need.
    jaxpr_out, _ = dce_jaxpr(closed.jaxpr, (True,) * len(closed.jaxpr.outvars))
    return ClosedJaxpr(jaxpr_out, closed.consts), nonzero
