"""``jit`` of functions that take or close over refs (issue 16; layer L5).

A jitted function called with ``Ref`` arguments, or found (by its first
trace) to touch refs it closes over (see Note [refs are threaded at trace
time] in :mod:`jaxtyped._src.state.types`), is run through a *pure*
companion jitted function: the refs' values go in as its first argument,
donated, and their final values come out after the function's own
outputs; then they are written back into the refs. The companion stages
the function with ref-typed inputs (``get``/``swap``/``addupdate``
equations, Note [staged refs] in :mod:`jaxtyped._src.state.primitives`)
and discharges that program into the one jit compiles. The
donation lets XLA write each result into its ref's input buffer, so at the
top level a ref is updated in place (its ``unsafe_buffer_pointer`` does not
change). The companion's cache is keyed on the refs' avals and on where
the refs sit among the arguments, not on their values.
"""

from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import Any, Protocol, cast, final, runtime_checkable

from jaxtyped._src.api_util import flatten_with_names
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.check import maybe_check_jaxpr
from jaxtyped._src.core.interpreter import current_interpreter, transformation_scope
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.state.discharge import run_discharged
from jaxtyped._src.state.primitives import AbstractRef, stage_refs_in
from jaxtyped._src.state.types import Ref, RefsTouched, bound_refs, is_ref, ref_type_str, staged_ref_here, staging_between
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_leaves, tree_unflatten
from jaxtyped._src.util import arg_names

__all__ = ["CompanionFactory", "RefJitState", "has_ref_leaf", "call_with_refs", "stage_with_refs"]


@runtime_checkable
class CompanionFactory(Protocol):
    """``jit`` of a pure companion (``pure(values, leaves, spec)``: spec
    static; the first argument donated when ``donate_first``)."""

    def __call__(self, pure: Callable[..., Any], *, donate_first: bool = True) -> Callable[..., Any]: ...


@final
@dataclass(frozen=True, slots=True)
class _Spec:
    """The static part of a call of the pure companion: where the refs sit."""

    tree: PyTreeDef
    ref_positions: tuple[int, ...]
    static: tuple[tuple[int | str, Hashable], ...]
    nargs: int
    num_closed: int


@final
@dataclass
class RefJitState:
    """Per jitted function: the refs it closes over (found while tracing)
    and its pure companion."""

    fun: Callable[..., Any]
    desc: str
    name: str
    static_argnums: frozenset[int]
    static_argnames: frozenset[str]
    closed: list[Ref[Array]] = field(default_factory=lambda: [])
    pure: Callable[..., Any] | None = None
    pure_in_place: Callable[..., Any] | None = None


def has_ref_leaf(args: tuple[Any, ...], kwargs: dict[str, Any]) -> bool:
    """Whether a ref is among the arguments' leaves."""
    return any(isinstance(leaf, Ref) for leaf in tree_leaves((args, kwargs)))


def _pure_companion(state: RefJitState, make_jit: CompanionFactory) -> Callable[..., Any]:
    def pure(ref_values: tuple[Array, ...], leaves: tuple[object, ...], spec: _Spec) -> tuple[object, tuple[Array, ...]]:
        if ref_values and isinstance(ref_values[0].aval, AbstractRef):
            return _pure_staged(state, ref_values, leaves, spec)
        # The function is staged with its refs as ref-typed inputs (Note
        # [staged refs]); the program is then discharged under jit's trace.
        interp = StagingInterpreter(current_interpreter(), state.desc, "jit")
        stage_refs_in(interp)
        with transformation_scope(interp):
            ref_args = [interp.new_arg(AbstractRef.of(v.aval), "ref") for v in ref_values]
            n_args = len(spec.ref_positions)
            boxes: list[Ref[Array]] = [Ref(r, interp, freezable=False) for r in ref_args[:n_args]]
            call_args, call_kwargs = _call_args(spec, leaves, boxes)
            closed = state.closed[: spec.num_closed]
            with bound_refs(closed, ref_args[n_args:]):
                out = state.fun(*call_args, **call_kwargs)
                _reject_returned_refs(state, out, boxes, call_args)
            out_leaves, out_tree = tree_flatten(out)
            staged = [i for i, leaf in enumerate(out_leaves) if isinstance(leaf, Array)]
            program = interp.build([out_leaves[i] for i in staged])
        maybe_check_jaxpr(program)
        outs, finals = run_discharged(program.jaxpr, program.consts, ref_values)
        for i, value in zip(staged, outs, strict=True):
            out_leaves[i] = value
        return tree_unflatten(out_tree, out_leaves), tuple(finals)

    pure.__name__ = state.name
    pure.__qualname__ = state.name
    return make_jit(pure)


def _staged_companion(state: RefJitState, make_jit: CompanionFactory) -> Callable[..., Any]:
    """The companion for a call whose refs are all staged where it is made
    (a jit inside ``make_jaxpr`` or inside another jit's trace): nothing is
    donated or written back, so the ``jit`` equation takes its operands in
    JAX's order, the arguments' leaves (refs in place) and then the
    closed-over refs."""

    def pure(leaves: tuple[object, ...], closed: tuple[Array, ...], spec: _Spec) -> tuple[object, tuple[Array, ...]]:
        arg_refs = tuple(cast(Array, leaves[i]) for i in spec.ref_positions)
        positions = set(spec.ref_positions)
        others = tuple(leaf for i, leaf in enumerate(leaves) if i not in positions)
        return _pure_staged(state, arg_refs + closed, others, spec)

    pure.__name__ = state.name
    pure.__qualname__ = state.name
    return make_jit(pure, donate_first=False)


def _call_args(spec: _Spec, leaves: tuple[object, ...], boxes: list[Ref[Array]]) -> tuple[list[object], dict[str, object]]:
    """The function's arguments: ``leaves`` with the boxes at the refs'
    positions, and the static arguments."""
    merged: list[object] = list(leaves)
    for position, box in zip(spec.ref_positions, boxes):
        merged.insert(position, box)
    dyn_args, dyn_kwargs = tree_unflatten(spec.tree, merged)
    static = dict(spec.static)
    dyn_iter = iter(dyn_args)
    call_args: list[object] = [static[i] if i in static else next(dyn_iter) for i in range(spec.nargs)]
    call_kwargs: dict[str, object] = dict(dyn_kwargs)
    call_kwargs.update({k: v for k, v in spec.static if isinstance(k, str)})
    return call_args, call_kwargs


def _pure_staged(state: RefJitState, refs: tuple[Array, ...], leaves: tuple[object, ...], spec: _Spec) -> tuple[object, tuple[Array, ...]]:
    """The companion called with staged refs (a jit inside ``make_jaxpr`` or
    another jit's trace): the refs stay ref operands of the ``jit``
    equation, as in JAX, and its body accesses them; the enclosing
    program's discharge inlines it."""
    level = current_interpreter()
    n_args = len(spec.ref_positions)
    boxes: list[Ref[Array]] = [Ref(r, level, freezable=False) for r in refs[:n_args]]
    call_args, call_kwargs = _call_args(spec, leaves, boxes)
    with bound_refs(state.closed[: spec.num_closed], refs[n_args:]):
        out = state.fun(*call_args, **call_kwargs)
        _reject_returned_refs(state, out, boxes, call_args)
    return out, ()


def _reject_returned_refs(state: RefJitState, out: object, boxes: list[Ref[Array]], call_args: list[object]) -> None:
    leaves, names = flatten_with_names(out, "result")
    for leaf, name in zip(leaves, names):
        if is_ref(leaf):
            origin = ""
            for arg_leaf, arg_name in _named_args(state, call_args):
                if arg_leaf is leaf:
                    origin = f"\n\nThe returned mutable array was passed in as the argument {arg_name}."
            raise JaxtypedTypeError(
                f"function {state.desc} traced for jit returned a mutable array reference of type "
                f"{ref_type_str(leaf)} at output tree path {name}, but mutable array references cannot "
                f"be returned.{origin}"
            )


def _named_args(state: RefJitState, args: list[object]) -> list[tuple[object, str]]:
    names = arg_names(state.fun, len(args))
    out: list[tuple[object, str]] = []
    for arg, name in zip(args, names):
        leaves, leaf_names = flatten_with_names(arg, name)
        out += list(zip(leaves, leaf_names))
    return out


def call_with_refs(
    state: RefJitState, make_jit: CompanionFactory, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> object:
    """Call the jitted function of ``state`` on arguments that may hold
    refs, threading its refs through the pure companion."""
    refs, outcome = _through_companion(state, make_jit, args, kwargs, lambda pure: pure)
    out, new_values = outcome
    for ref, value in zip(refs, new_values, strict=True):
        ref.write(value)
    return out


def stage_with_refs(
    state: RefJitState, make_jit: CompanionFactory, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    """``trace`` of the jitted function of ``state`` on arguments that may
    hold refs: the companion's stage, whose program takes the refs' values
    first and returns their final values after the outputs."""
    _, traced = _through_companion(state, make_jit, args, kwargs, lambda pure: getattr(pure, "trace"))
    return traced


def _through_companion(
    state: RefJitState,
    make_jit: CompanionFactory,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    entry: Callable[[Callable[..., Any]], Callable[..., Any]],
) -> tuple[list[Ref[Array]], Any]:
    """``entry(companion)(values, others, spec)`` for these arguments, retried
    while the function touches closed-over refs not yet threaded; returns
    the threaded refs (arguments' then closed-over) and the result."""
    if state.pure is None:
        state.pure = _pure_companion(state, make_jit)
    nargs = len(args)
    static_pos = {i + nargs if i < 0 else i for i in state.static_argnums}
    static: list[tuple[int | str, Hashable]] = [(i, a) for i, a in enumerate(args) if i in static_pos]
    dyn_args = tuple(a for i, a in enumerate(args) if i not in static_pos)
    static += [(k, kwargs[k]) for k in sorted(kwargs) if k in state.static_argnames]
    dyn_kwargs = {k: kwargs[k] for k in sorted(kwargs) if k not in state.static_argnames}
    leaves, tree = tree_flatten((dyn_args, dyn_kwargs))
    ref_positions = tuple(i for i, leaf in enumerate(leaves) if isinstance(leaf, Ref))
    arg_refs: list[Ref[Array]] = [leaves[i] for i in ref_positions]

    def names() -> list[str]:
        # The leaves' names, for error messages only (inspecting the
        # signature costs more than a dispatch).
        param_names = arg_names(state.fun, nargs)
        found: list[str] = []
        for i, a in enumerate(args):
            if i not in static_pos:
                found += flatten_with_names(a, param_names[i])[1]
        for k, v in dyn_kwargs.items():
            found += flatten_with_names(v, k)[1]
        return found

    if len({id(r) for r in arg_refs}) != len(arg_refs):
        _check_distinct(state, arg_refs, [names()[i] for i in ref_positions])
    position_set = set(ref_positions)
    others = tuple(leaf for i, leaf in enumerate(leaves) if i not in position_set)
    start = current_interpreter()
    while True:
        closed = list(state.closed)
        for ref in closed:
            for arg_ref, position in zip(arg_refs, ref_positions):
                if ref is arg_ref:
                    raise _closed_and_passed(state, ref, names()[position])
        # Refs staged where the call is made go in as ref operands (nothing
        # to write back); otherwise their values go in and come back.
        staged = [staged_ref_here(r, start) for r in arg_refs + closed]
        spec = _Spec(tree, ref_positions, tuple(static), nargs, len(closed))
        try:
            if staged and all(v is not None for v in staged):
                if state.pure_in_place is None:
                    state.pure_in_place = _staged_companion(state, make_jit)
                in_place = list(leaves)
                for position, value in zip(ref_positions, staged):
                    in_place[position] = value
                closed_values = tuple(v for v in staged[len(arg_refs) :] if v is not None)
                return [], entry(state.pure_in_place)(tuple(in_place), closed_values, spec)
            values = tuple(r.read() for r in arg_refs + closed)
            return arg_refs + closed, entry(state.pure)(values, others, spec)
        except RefsTouched as err:
            for arg_ref, position in zip(arg_refs, ref_positions):
                if err.ref is arg_ref:
                    raise _closed_and_passed(state, arg_ref, names()[position]) from None
            mine = err.staging is not start and start.is_ancestor_of(err.staging)
            if not mine or any(err.ref is r for r in closed) or staging_between(err.ref, start) is not None:
                raise
            state.closed.append(err.ref)


def _check_distinct(state: RefJitState, refs: list[Ref[Array]], names: list[str]) -> None:
    for i, ref in enumerate(refs):
        for j in range(i):
            if refs[j] is ref:
                raise JaxtypedValueError(
                    "only one reference to a mutable array may be passed as an argument to a function, "
                    f"but when tracing {state.desc} for jit the mutable array reference of type "
                    f"{ref_type_str(ref)} appeared at both {names[j]} and {names[i]}."
                )


def _closed_and_passed(state: RefJitState, ref: Ref[Array], name: str) -> JaxtypedValueError:
    return JaxtypedValueError(
        f"when tracing {state.desc} for jit, a mutable array reference of type {ref_type_str(ref)} "
        f"was both closed over and passed as the argument {name}"
    )
