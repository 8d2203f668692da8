"""Threading closed-over refs through staged functions (layer L4).

See Note [refs are threaded at trace time] in
:mod:`jaxtyped._src.state.types`. A staging API runs its usual code
through :func:`run_threading_refs`; when the staged function touches a ref
of an outer level, the attempt stops (:class:`RefsTouched`, before any box
changes) and the API runs again with that ref's value as an extra carry
(loops), operand (branches) or argument (jit), and its final value as an
extra output that is written back into the box. No ref touched: one
attempt, as before (the cost is a ``try``).

``make_jaxpr`` needs no value: a ref it closes over becomes a constvar of
its result, bound to the ``Ref`` itself (:func:`refs_as_consts`), as JAX
shows it; evaluating such a closed jaxpr reads and writes the ref
(:func:`eval_with_refs`).
"""

from collections.abc import Callable, Sequence
from functools import partial, wraps
from typing import Any, TypeVar

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import to_array
from jaxtyped._src.core.interpreter import current_interpreter
from jaxtyped._src.core.jaxpr import Atom, ClosedJaxpr, Jaxpr, RefConst, Var, set_ref_evaluator
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.state.discharge import run_discharged
from jaxtyped._src.state.primitives import is_ref_aval
from jaxtyped._src.state.types import Ref, RefsTouched, bound_refs, current_values, is_ref, ref_type_str, staging_between
from jaxtyped._src.tree_util import tree_leaves

__all__ = [
    "run_threading_refs",
    "thread_scan",
    "thread_while",
    "thread_branches",
    "reject_ref_outputs",
    "named_like",
    "refs_as_consts",
    "eval_with_refs",
]

R = TypeVar("R")

def named_like(fun: Callable[..., Any]) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Give a wrapper ``fun``'s name, for error messages; not its
    annotations (the debug mode would check them against the wrapper's
    results), nor a name that is not an identifier (a lambda's: the debug
    mode compiles wrappers under their names)."""
    name = getattr(fun, "__name__", "")
    if not (isinstance(name, str) and name.isidentifier()):
        return lambda wrapper: wrapper
    return wraps(fun, assigned=("__module__", "__name__", "__qualname__", "__doc__"))


def run_threading_refs(run: Callable[[list[Ref[Array]]], R]) -> R:
    """``run(refs)``, retried with each outer ref the staged function
    touches added to ``refs`` (in first-touch order)."""
    start = current_interpreter()
    refs: list[Ref[Array]] = []
    while True:
        try:
            return run(refs)
        except RefsTouched as err:
            # Ours to thread: staged by this call (under start), and usable
            # at start without crossing another staging interpreter.
            mine = err.staging is not start and start.is_ancestor_of(err.staging)
            if not mine or any(err.ref is r for r in refs) or staging_between(err.ref, start) is not None:
                raise
            refs.append(err.ref)


def reject_ref_outputs(out: object, api: str, desc: str) -> None:
    """The error for a staged function that returns a ref."""
    for leaf in tree_leaves(out):
        if is_ref(leaf):
            raise JaxtypedTypeError(
                f"{desc} traced for {api} returned a mutable array reference of type "
                f"{ref_type_str(leaf)}, but mutable array references cannot be returned."
            )


def _write_back(refs: Sequence[Ref[Array]], values: Sequence[Array]) -> None:
    for ref, value in zip(refs, values, strict=True):
        ref.write(value)


# The three entry points bind module-level runners with partial
# rather than define closures: debug mode's import hook decorates a nested
# function anew on every call of its parent, and every scan, while_loop and
# cond a user calls comes through here (most with no refs to thread).


def thread_scan(scan_impl: Callable[..., Any], f: Callable[..., Any], init: object, *rest: Any) -> Any:
    """``scan_impl(f, init, *rest)`` with closed-over refs as extra carry."""
    return run_threading_refs(partial(_scan_threading, scan_impl, f, init, rest))


def _scan_threading(
    scan_impl: Callable[..., Any], f: Callable[..., Any], init: object, rest: tuple[Any, ...], refs: list[Ref[Array]]
) -> Any:
    if not refs:
        return scan_impl(f, init, *rest)
    values = [r.read() for r in refs]

    @named_like(f)
    def body(carry: tuple[object, list[Array]], x: object) -> tuple[tuple[object, list[Array]], object]:
        c, vals = carry
        with bound_refs(refs, vals):
            out = f(c, x)
            reject_ref_outputs(out, "scan", "the body of scan")
            new_values = current_values(refs)
        if not (isinstance(out, tuple) and len(out) == 2):  # pyright: ignore[reportUnknownArgumentType]  # user output
            raise JaxtypedTypeError(f"scan: the body must return a pair (carry, y), got {type(out).__name__}")  # pyright: ignore[reportUnknownArgumentType]
        pair: tuple[object, object] = out  # pyright: ignore[reportUnknownVariableType]  # checked above: a pair
        return (pair[0], new_values), pair[1]

    (final, new_values), ys = scan_impl(body, (init, values), *rest)
    _write_back(refs, new_values)
    return final, ys


def thread_while(
    while_impl: Callable[..., Any], cond_fun: Callable[..., Any], body_fun: Callable[..., Any], init: object
) -> Any:
    """``while_impl(cond_fun, body_fun, init)`` with closed-over refs as extra carry."""
    return run_threading_refs(partial(_while_threading, while_impl, cond_fun, body_fun, init))


def _while_threading(
    while_impl: Callable[..., Any], cond_fun: Callable[..., Any], body_fun: Callable[..., Any], init: object,
    refs: list[Ref[Array]],
) -> Any:
    if not refs:
        return while_impl(cond_fun, body_fun, init)
    values = [r.read() for r in refs]

    @named_like(cond_fun)
    def cond(carry: tuple[object, list[Array]]) -> object:
        c, vals = carry
        with bound_refs(refs, vals):
            return cond_fun(c)

    @named_like(body_fun)
    def body(carry: tuple[object, list[Array]]) -> tuple[object, list[Array]]:
        c, vals = carry
        with bound_refs(refs, vals):
            out = body_fun(c)
            reject_ref_outputs(out, "while_loop", "the body of while_loop")
            return out, current_values(refs)

    final, new_values = while_impl(cond, body, (init, values))
    _write_back(refs, new_values)
    return final


def thread_branches(
    apply_impl: Callable[..., Any], index: Array, branches: Sequence[Callable[..., Any]], names: list[str],
    operands: tuple[object, ...], api: str,
) -> Any:
    """``apply_impl(index, branches, names, operands, api)`` (cond and
    switch) with closed-over refs as extra operands and outputs."""
    return run_threading_refs(partial(_branches_threading, apply_impl, index, branches, names, operands, api))


def _branches_threading(
    apply_impl: Callable[..., Any], index: Array, branches: Sequence[Callable[..., Any]], names: list[str],
    operands: tuple[object, ...], api: str, refs: list[Ref[Array]],
) -> Any:
    if not refs:
        return apply_impl(index, list(branches), names, operands, api)
    values = [r.read() for r in refs]

    def threaded(branch: Callable[..., Any]) -> Callable[..., Any]:
        @named_like(branch)
        def call(vals: list[Array], *ops: object) -> tuple[object, list[Array]]:
            with bound_refs(refs, vals):
                out = branch(*ops)
                reject_ref_outputs(out, api, f"a branch of {api}")
                return out, current_values(refs)

        return call

    out, new_values = apply_impl(index, [threaded(b) for b in branches], names, (values, *operands), api)
    _write_back(refs, new_values)
    return out



# === make_jaxpr's closed-over refs ===


def refs_as_consts(closed: ClosedJaxpr[Array], refs: Sequence[Ref[Array]]) -> ClosedJaxpr[Array | Ref[Array]]:
    """``closed``, whose last ``len(refs)`` inputs stand for the closed-over
    ``refs``, with those inputs turned into constvars bound to the refs
    themselves. JAX lifts a constant into a constvar when the trace first
    meets it, so constvars are ordered by first use (the arrays' own order
    is kept: the staging interpreter made them in that order)."""
    if not refs:
        return closed
    jaxpr = closed.jaxpr
    n_args = len(jaxpr.invars) - len(refs)
    first_use = _first_uses(jaxpr)
    unused = (len(jaxpr.eqns) + 1, 0)

    def key(var: Var) -> tuple[int, int]:
        return first_use.get(var, unused)

    pending: list[tuple[Var, Array | Ref[Array]]] = sorted(zip(jaxpr.invars[n_args:], refs), key=lambda pair: key(pair[0]))
    ordered: list[tuple[Var, Array | Ref[Array]]] = []
    for var, const in zip(jaxpr.constvars, closed.consts, strict=True):
        while pending and key(pending[0][0]) < key(var):
            ordered.append(pending.pop(0))
        ordered.append((var, const))
    ordered += pending
    moved = Jaxpr(tuple(v for v, _ in ordered), jaxpr.invars[:n_args], jaxpr.outvars, jaxpr.eqns)
    return ClosedJaxpr(moved, tuple(c for _, c in ordered))


def _first_uses(jaxpr: Jaxpr) -> dict[Atom, tuple[int, int]]:
    """Where each var is first read: (equation, operand); the outputs
    count as an equation after the last."""
    uses: dict[Atom, tuple[int, int]] = {}
    for i, eqn in enumerate(jaxpr.eqns):
        for j, atom in enumerate(eqn.invars):
            uses.setdefault(atom, (i, j))
    for j, atom in enumerate(jaxpr.outvars):
        uses.setdefault(atom, (len(jaxpr.eqns), j))
    return uses


def eval_with_refs(jaxpr: Jaxpr, consts: Sequence[ArrayLike | RefConst], args: Sequence[ArrayLike | RefConst]) -> tuple[Array, ...]:
    """``eval_jaxpr`` of a jaxpr given refs for its ref-typed consts or
    inputs: the refs' values go through the jaxpr's reads and writes
    (discharged, under the current interpreter), then the final values are
    written back into the refs, all of them only once everything ran.

    Raises:
        JaxtypedTypeError: a ref-typed input given a value, or a ref given
            for an array-typed one.
        JaxtypedValueError: one ref given twice.
    """
    inputs = [*consts, *args]
    variables = jaxpr.constvars + jaxpr.invars
    if len(inputs) != len(variables):
        raise JaxtypedTypeError(
            f"eval_jaxpr: {len(consts)} consts and {len(args)} arguments for a jaxpr with "
            f"{len(jaxpr.constvars)} constvars and {len(jaxpr.invars)} inputs"
        )
    values: list[Array] = []
    refs: list[RefConst] = []
    read: list[Array] = []
    for k, (var, value) in enumerate(zip(variables, inputs)):
        where = f"const {k}" if k < len(consts) else f"argument {k - len(consts)}"
        is_ref_input = not isinstance(value, Array) and isinstance(value, RefConst)
        if is_ref_aval(var.aval) != is_ref_input:
            given = type(value).__name__
            raise JaxtypedTypeError(f"eval_jaxpr: the {where} has type {var.aval.str_short()}, but a {given} was given for it")
        if isinstance(value, RefConst) and not isinstance(value, Array):
            if any(value is r for r in refs):
                raise JaxtypedValueError(f"eval_jaxpr: the {where} is a mutable array reference already given for another input")
            refs.append(value)
            # A Ref's [...] is a copy: an output that is the value read must
            # not share the ref's buffer (jit donates it to in-place updates).
            read.append(value[...] if is_ref(value) else value.read())
            values.append(read[-1])
        else:
            values.append(to_array(value, f"eval_jaxpr {where}"))
    outs, finals = run_discharged(jaxpr, values[: len(consts)], values[len(consts) :])
    for ref, start, final in zip(refs, read, finals, strict=True):
        if final is start:
            continue  # not written: the ref keeps its own buffer
        if is_ref(ref) and any(final is out for out in outs):
            ref[...] = final  # a copy: the output must not be the ref's buffer
        else:
            ref.write(final)
    return tuple(outs)


set_ref_evaluator(eval_with_refs)
