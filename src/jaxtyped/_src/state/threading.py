"""Threading closed-over refs through staged functions (layer L4).

See Note [refs are threaded at trace time] in
:mod:`jaxtyped._src.state.types`. A staging API runs its usual code
through :func:`run_threading_refs`; when the staged function touches a ref
of an outer level, the attempt stops (:class:`RefsTouched`, before any box
changes) and the API runs again with that ref's value as an extra carry
(loops), operand (branches) or argument (jit), and its final value as an
extra output that is written back into the box. No ref touched: one
attempt, as before (the cost is a ``try``).
"""

from collections.abc import Callable, Sequence
from functools import wraps
from typing import Any, TypeVar

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.interpreter import current_interpreter
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.state.types import Ref, RefsTouched, bound_refs, current_values, is_ref, ref_type_str, staging_between
from jaxtyped._src.tree_util import tree_leaves

__all__ = [
    "run_threading_refs",
    "thread_scan",
    "thread_while",
    "thread_branches",
    "reject_ref_outputs",
    "named_like",
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


def thread_scan(scan_impl: Callable[..., Any], f: Callable[..., Any], init: object, *rest: Any) -> Any:
    """``scan_impl(f, init, *rest)`` with closed-over refs as extra carry."""

    def run(refs: list[Ref[Array]]) -> Any:
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

    return run_threading_refs(run)


def thread_while(
    while_impl: Callable[..., Any], cond_fun: Callable[..., Any], body_fun: Callable[..., Any], init: object
) -> Any:
    """``while_impl(cond_fun, body_fun, init)`` with closed-over refs as extra carry."""

    def run(refs: list[Ref[Array]]) -> Any:
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

    return run_threading_refs(run)


def thread_branches(
    apply_impl: Callable[..., Any], index: Array, branches: Sequence[Callable[..., Any]], names: list[str],
    operands: tuple[object, ...], api: str,
) -> Any:
    """``apply_impl(index, branches, names, operands, api)`` (cond and
    switch) with closed-over refs as extra operands and outputs."""

    def run(refs: list[Ref[Array]]) -> Any:
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

    return run_threading_refs(run)

