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

from collections.abc import Callable, Sequence

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import to_array
from jaxtyped._src.core.interpreter import bind, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, Literal, RefConst, Var
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.state.primitives import AbstractRef, Freeze, NewRef, RefAccess, is_ref_aval

__all__ = ["run_discharged", "discharge_state"]


def run_discharged(jaxpr: Jaxpr, consts: Sequence[Array], args: Sequence[Array]) -> tuple[list[Array], list[Array]]:
    """Evaluate ``jaxpr`` under the current interpreter with each ref-typed
    const or input given by its value; returns the outputs and the final
    values of the ref-typed consts and inputs (in that order)."""
    inputs = jaxpr.constvars + jaxpr.invars
    values = [to_array(v, "discharge input") for v in (*consts, *args)]
    cells: list[Array] = []
    outs = _run(jaxpr, values, [None] * len(values), cells)
    return outs, cells[: sum(1 for v in inputs if is_ref_aval(v.aval))]


# A ref's *slot*: its index in the list of cells holding the current values
# of the refs in scope (two operands naming one ref share a slot).
Slots = Sequence[int | None]


def _run(jaxpr: Jaxpr, values: Sequence[Array | None], slots: Slots, cells: list[Array]) -> list[Array]:
    """Evaluate ``jaxpr`` on ``values`` (its constvars' then invars'); a
    ref-typed input with a slot holds ``cells[slot]`` (its value is not
    used), one without gets a new cell holding its value. ``cells`` ends
    holding the refs' final values."""
    env: dict[Var, Array] = {}
    slot_of: dict[Var, int] = {}

    def read(atom: Atom) -> Array:
        if isinstance(atom, Literal):
            return atom.array
        if atom in slot_of:
            raise JaxtypedTypeError(f"discharge: the ref {atom} is used where a value is expected")
        return env[atom]

    for var, value, slot in zip(jaxpr.constvars + jaxpr.invars, values, slots, strict=True):
        if is_ref_aval(var.aval):
            if slot is None:
                assert value is not None
                slot = len(cells)
                cells.append(value)
            slot_of[var] = slot
        else:
            assert value is not None
            env[var] = value
    for eqn in jaxpr.eqns:
        prim = eqn.primitive
        outs: Sequence[Array]
        if isinstance(prim, RefAccess):
            slot = slot_of[_var(eqn.invars[0])]
            cells[slot], outs = prim.discharge(cells[slot], tuple(read(a) for a in eqn.invars[1:]))
        elif isinstance(prim, NewRef):
            slot_of[eqn.outvars[0]] = len(cells)
            cells.append(read(eqn.invars[0]))
            continue
        elif isinstance(prim, Freeze):
            outs = (cells[slot_of[_var(eqn.invars[0])]],)
        elif any(isinstance(a, Var) and a in slot_of for a in eqn.invars):
            outer = [slot_of.get(a) if isinstance(a, Var) else None for a in eqn.invars]
            operands = [None if slot is not None else read(a) for a, slot in zip(eqn.invars, outer)]
            outs = _discharge_higher_order(prim, operands, outer, cells)
        else:
            outs = bind(prim, *(read(a) for a in eqn.invars))
        for var, value in zip(eqn.outvars, outs, strict=True):
            env[var] = value
    return [read(atom) for atom in jaxpr.outvars]


def _var(atom: Atom) -> Var:
    assert isinstance(atom, Var)
    return atom


def _discharge_higher_order(prim: Primitive, operands: list[Array | None], outer: Slots, cells: list[Array]) -> list[Array]:
    """Apply a loop or branch primitive whose operands include refs (each
    with its slot in ``outer``): the refs' values become extra carries or
    operands and outputs, through the user-level API (so every rule of the
    primitive applies to the result)."""
    # Deferred: the control-flow modules import the state package.
    from jaxtyped._src.lax.control_flow.cond import Cond, switch
    from jaxtyped._src.lax.control_flow.loops import While, while_loop
    from jaxtyped._src.lax.control_flow.scan import Scan, scan
    from jaxtyped._src.pjit import JitCall

    if isinstance(prim, JitCall):
        # Inlined: its ref inputs are the caller's refs (their cells).
        return _run(prim.jaxpr, operands, outer, cells)

    used = sorted({slot for slot in outer if slot is not None})
    local = {slot: k for k, slot in enumerate(used)}
    inner: list[int | None] = [None if slot is None else local[slot] for slot in outer]
    init = [cells[slot] for slot in used]

    def call(jaxpr: Jaxpr, refs: Sequence[Array], values: Sequence[Array | None], slots: Slots) -> tuple[list[Array], list[Array]]:
        scope = list(refs)
        outs = _run(jaxpr, values, slots, scope)
        return outs, scope[: len(refs)]

    results: list[Array]
    new_refs: list[Array]
    if isinstance(prim, Scan):
        nc, ncar = prim.num_consts, prim.num_carry
        consts, carry0, xs = operands[:nc], operands[nc : nc + ncar], operands[nc + ncar :]
        slots = inner

        def body(carry: tuple[list[Array], list[Array]], x: list[Array] | None) -> tuple[tuple[list[Array], list[Array]], list[Array]]:
            refs, c = carry
            outs, new = call(prim.jaxpr, refs, [*consts, *c, *(x or [])], slots)
            return (new, outs[:ncar]), outs[ncar:]

        xs_arrays = [_present(x) for x in xs]
        (new_refs, carry), ys = scan(
            body, (init, [_present(c) for c in carry0]), xs_arrays or None, length=prim.length, reverse=prim.reverse, unroll=prim.unroll
        )
        results = [*carry, *ys]
    elif isinstance(prim, While):
        ncc, nbc = prim.cond_nconsts, prim.body_nconsts
        cond_consts, body_consts, carry0 = operands[:ncc], operands[ncc : ncc + nbc], operands[ncc + nbc :]
        cond_slots = [*inner[:ncc], *([None] * len(carry0))]
        body_slots = [*inner[ncc : ncc + nbc], *([None] * len(carry0))]

        def cond_fun(carry: tuple[list[Array], list[Array]]) -> Array:
            refs, c = carry
            outs, _ = call(prim.cond_jaxpr, refs, [*cond_consts, *c], cond_slots)
            return outs[0]

        def body_fun(carry: tuple[list[Array], list[Array]]) -> tuple[list[Array], list[Array]]:
            refs, c = carry
            outs, new = call(prim.body_jaxpr, refs, [*body_consts, *c], body_slots)
            return new, outs

        new_refs, results = while_loop(cond_fun, body_fun, (init, [_present(c) for c in carry0]))
    elif isinstance(prim, Cond):
        index, ops, slots = _present(operands[0]), operands[1:], inner[1:]

        def branch(jaxpr: Jaxpr) -> Callable[[list[Array], list[Array | None]], tuple[list[Array], list[Array]]]:
            def run_branch(refs: list[Array], values: list[Array | None]) -> tuple[list[Array], list[Array]]:
                return call(jaxpr, refs, values, slots)

            return run_branch

        results, new_refs = switch(index, [branch(j) for j in prim.branches], init, ops)
    else:
        raise JaxtypedTypeError(
            f"discharge: primitive '{prim.name}' takes a ref operand; only get, swap, addupdate, "
            "freeze, scan, while, cond and jit may (read the value with ref[...] first)"
        )
    for slot, value in zip(used, new_refs, strict=True):
        cells[slot] = value
    return list(results)


def _present(value: Array | None) -> Array:
    assert value is not None
    return value


def discharge_state(closed: ClosedJaxpr[Array | RefConst]) -> ClosedJaxpr:
    """The pure jaxpr of ``closed``: each ref-typed input becomes an input
    of the referenced type, and the final values of the ref-typed consts
    and inputs are outputs after the original ones (JAX's
    ``discharge_state``). A closed-over ref (a ``Ref`` const of
    ``make_jaxpr``'s result) is an error: pass it as an argument."""
    consts = [c for c in closed.consts if isinstance(c, Array)]
    if len(consts) != len(closed.consts):
        raise JaxtypedTypeError(
            "discharge_state: the jaxpr closes over a mutable array reference (a Ref const); "
            "pass the ref as an argument of the function instead"
        )
    interp = StagingInterpreter(current_interpreter(), "discharge_state", "discharge_state")
    with transformation_scope(interp):
        args = [
            interp.new_arg(v.aval.inner if isinstance(v.aval, AbstractRef) else v.aval) for v in closed.jaxpr.invars
        ]
        outs, finals = run_discharged(closed.jaxpr, consts, args)
        return interp.build([*outs, *finals])
