"""``check_jaxpr``: the jaxpr type checker (layer L1)."""

from jaxtyped._src.config import config
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.effects import Effects, ref_effects
from jaxtyped._src.core.jaxpr import Atom, ClosedJaxpr, Eqn, Jaxpr, Literal, RefConst, Var, is_closed_jaxpr
from jaxtyped._src.errors import JaxprTypeError, JaxtypedError

__all__ = ["check_jaxpr", "check_closed_jaxpr", "maybe_check_jaxpr"]


def check_jaxpr(jaxpr: Jaxpr) -> None:
    """Verify that ``jaxpr`` is well typed.

    Checks that every variable is defined exactly once before it is used,
    that every equation's output types are what its primitive's
    ``abstract_eval`` gives for its input types, and that every equation's
    recorded effects are its primitive's effects for those types (ref
    effects naming an operand that exists). Nested jaxprs held by
    higher-order primitives are checked too.

    Raises:
        JaxprTypeError: naming the offending equation and the types.
    """
    defined: set[Var] = set()
    for var in jaxpr.constvars:
        _define(defined, var, "constvars")
    for var in jaxpr.invars:
        _define(defined, var, "invars")
    for index, eqn in enumerate(jaxpr.eqns):
        where = f"equation {index}: {_eqn_summary(eqn)}"
        for atom in eqn.invars:
            _use(defined, atom, where)
        _check_eqn_types(eqn, where)
        _check_eqn_effects(eqn, where)
        for var in eqn.outvars:
            _define(defined, var, where)
    for atom in jaxpr.outvars:
        _use(defined, atom, "outvars")


# Module-level rather than closures of check_jaxpr: the debug mode's beartype
# import hook decorates a nested function anew on every call of its parent.
def _define(defined: set[Var], var: Var, where: str) -> None:
    if var in defined:
        raise JaxprTypeError(f"check_jaxpr: variable {var} is defined twice ({where})")
    defined.add(var)


def _use(defined: set[Var], atom: Atom, where: str) -> None:
    if isinstance(atom, Var) and atom not in defined:
        raise JaxprTypeError(f"check_jaxpr: variable {atom} is used before it is defined ({where})")
    if isinstance(atom, Literal):
        _check_literal(atom, where)


def _check_eqn_types(eqn: Eqn, where: str) -> None:
    for _, value in eqn.primitive.params():
        if is_closed_jaxpr(value):
            check_closed_jaxpr(value)
        elif isinstance(value, Jaxpr):
            check_jaxpr(value)
    in_avals = tuple(atom.aval for atom in eqn.invars)
    try:
        expected = eqn.primitive.abstract_eval(in_avals)
    except JaxtypedError as err:
        raise JaxprTypeError(f"check_jaxpr: {where} is ill-typed: {err}") from err
    actual = tuple(var.aval for var in eqn.outvars)
    # Weak typing is a promotion hint, not part of the type (as in JAX).
    if len(expected) != len(actual) or not all(e.same_type(a) for e, a in zip(expected, actual)):
        shown_expected = ", ".join(a.str_short() for a in expected)
        shown_actual = ", ".join(a.str_short() for a in actual)
        raise JaxprTypeError(
            f"check_jaxpr: {where} has output types ({shown_actual}) but its "
            f"primitive gives ({shown_expected})"
        )
    # What bind returns: a list for several (or no) results.
    if not eqn.primitive.multiple_results and len(actual) != 1:
        raise JaxprTypeError(
            f"check_jaxpr: {where} has {len(actual)} outputs, but its primitive {eqn.primitive.name} "
            "returns one array (set several_results = True on its class)"
        )


def _check_eqn_effects(eqn: Eqn, where: str) -> None:
    expected = eqn.primitive.effects(tuple(atom.aval for atom in eqn.invars))
    if eqn.effects != expected:
        raise JaxprTypeError(
            f"check_jaxpr: {where} records effects {_effects_str(eqn.effects)} but its "
            f"primitive has effects {_effects_str(expected)}"
        )
    for effect in ref_effects(eqn.effects):
        if not 0 <= effect.input_index < len(eqn.invars):
            raise JaxprTypeError(
                f"check_jaxpr: {where} has effect {effect} on operand {effect.input_index}, "
                f"but it has {len(eqn.invars)} operands"
            )


def _effects_str(effects: Effects) -> str:
    return "{" + ", ".join(sorted(str(e) for e in effects)) + "}"


def _check_literal(literal: Literal, where: str) -> None:
    if literal.aval.shape != ():
        raise JaxprTypeError(f"check_jaxpr: literal {literal} is not a scalar ({where})")
    value_dtype = getattr(literal.val, "dtype", None)
    if value_dtype != literal.aval.dtype or not literal.aval.same_type(literal.array.aval):
        raise JaxprTypeError(
            f"check_jaxpr: literal value {literal.val!r} does not match its type "
            f"annotation {literal.aval.str_short()} ({where})"
        )


def _eqn_summary(eqn: Eqn) -> str:
    ins = ", ".join(atom.aval.str_short() for atom in eqn.invars)
    outs = ", ".join(var.aval.str_short() for var in eqn.outvars)
    return f"{eqn.primitive.name}({ins}) -> ({outs})"


def check_closed_jaxpr(closed: ClosedJaxpr[Array | RefConst]) -> None:
    """``check_jaxpr`` plus agreement of the consts with the constvars."""
    if len(closed.consts) != len(closed.jaxpr.constvars):
        raise JaxprTypeError(
            f"check_jaxpr: {len(closed.consts)} consts for "
            f"{len(closed.jaxpr.constvars)} constvars"
        )
    for var, const in zip(closed.jaxpr.constvars, closed.consts):
        if not isinstance(const, Array):
            # A closed-over ref: bound to a ref-typed constvar of the
            # referenced type.
            if not var.aval.is_ref or (var.aval.shape, var.aval.dtype) != (const.shape, const.dtype):
                raise JaxprTypeError(
                    f"check_jaxpr: a mutable array reference to {const.dtype.name}{list(const.shape)} bound to "
                    f"constvar of type {var.aval.str_short()}"
                )
            continue
        if not var.aval.same_type(const.aval):
            raise JaxprTypeError(
                f"check_jaxpr: const of type {const.aval.str_short()} bound to "
                f"constvar of type {var.aval.str_short()}"
            )
    check_jaxpr(closed.jaxpr)


def maybe_check_jaxpr(closed: ClosedJaxpr[Array | RefConst]) -> None:
    """Run :func:`check_closed_jaxpr` when ``jax_enable_checks`` is on."""
    if config.jax_enable_checks:
        check_closed_jaxpr(closed)
