"""Discharging refs: a jaxpr with ref inputs and ``get``/``swap``/
``addupdate``/``new_ref``/``freeze`` equations as a pure function of the
refs' values (issue 16; layer L4).

See Note [staged refs] in :mod:`jaxtyped._src.state.primitives`. A ref
becomes the value it holds: each access is applied to the current value
(``get``: indexing; ``swap``: ``.at[idx].set``; ``addupdate``:
``.at[idx].add``), which then stands for the ref until the next write;
the refs' final values are extra results. Every other equation is bound
again under the current interpreter, so discharging under a staging
interpreter gives the pure jaxpr, and under ``jit``'s trace the program
that is compiled (with each ref argument's buffer donated to its final
value: an in-place update).
"""

from collections.abc import Sequence

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import to_array
from jaxtyped._src.core.interpreter import bind, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, Literal, Var
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.state.primitives import AbstractRef, Freeze, NewRef, RefAccess, is_ref_aval

__all__ = ["run_discharged", "discharge_state"]


def run_discharged(jaxpr: Jaxpr, consts: Sequence[Array], args: Sequence[Array]) -> tuple[list[Array], list[Array]]:
    """Evaluate ``jaxpr`` under the current interpreter with each ref-typed
    const or input given by its value; returns the outputs and the final
    values of the ref-typed consts and inputs (in that order)."""
    env: dict[Var, Array] = {}
    refs: dict[Var, Array] = {}  # a ref var -> the value it holds now

    def read(atom: Atom) -> Array:
        if isinstance(atom, Literal):
            return atom.array
        if atom in refs:
            raise JaxtypedTypeError(f"discharge: the ref {atom} is used where a value is expected")
        return env[atom]

    inputs = jaxpr.constvars + jaxpr.invars
    for var, value in zip(inputs, (*consts, *args), strict=True):
        array = to_array(value, "discharge input")
        if is_ref_aval(var.aval):
            refs[var] = array
        else:
            env[var] = array
    for eqn in jaxpr.eqns:
        prim = eqn.primitive
        outs: tuple[Array, ...]
        if isinstance(prim, RefAccess):
            ref_var = eqn.invars[0]
            assert isinstance(ref_var, Var)
            refs[ref_var], outs = prim.discharge(refs[ref_var], tuple(read(a) for a in eqn.invars[1:]))
        elif isinstance(prim, NewRef):
            refs[eqn.outvars[0]] = read(eqn.invars[0])
            continue
        elif isinstance(prim, Freeze):
            ref_var = eqn.invars[0]
            assert isinstance(ref_var, Var)
            outs = (refs[ref_var],)
        else:
            if any(isinstance(a, Var) and a in refs for a in eqn.invars):
                raise JaxtypedTypeError(
                    f"discharge: primitive '{prim.name}' takes a ref operand; only get, swap, addupdate "
                    "and freeze may (read the value with ref[...] first)"
                )
            outs = bind(prim, *(read(a) for a in eqn.invars))
        for var, value in zip(eqn.outvars, outs, strict=True):
            env[var] = value
    finals = [refs[var] for var in inputs if is_ref_aval(var.aval)]
    return [read(atom) for atom in jaxpr.outvars], finals


def discharge_state(closed: ClosedJaxpr) -> ClosedJaxpr:
    """The pure jaxpr of ``closed``: each ref-typed input becomes an input
    of the referenced type, and the final values of the ref-typed consts
    and inputs are outputs after the original ones (JAX's
    ``discharge_state``)."""
    interp = StagingInterpreter(current_interpreter(), "discharge_state", "discharge_state")
    with transformation_scope(interp):
        args = [
            interp.new_arg(v.aval.inner if isinstance(v.aval, AbstractRef) else v.aval) for v in closed.jaxpr.invars
        ]
        outs, finals = run_discharged(closed.jaxpr, closed.consts, args)
        return interp.build([*outs, *finals])
