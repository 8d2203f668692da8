"""Working with jaxprs in JAX's form: ``new_jaxpr_eqn``, ``eval_jaxpr``
and ``jaxpr_as_fun`` returning lists (JAX's convention)."""

from collections.abc import Callable, Mapping, Sequence

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.jaxpr import Atom, ClosedJaxpr, Eqn, Jaxpr, RefConst, Var
from jaxtyped._src.core.jaxpr import eval_jaxpr as _eval_jaxpr
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.errors import JaxtypedTypeError
from jaxtyped._src.extend.builtins import BuiltinPrimitive
from jaxtyped._src.extend.primitive import JaxPrimitive

__all__ = ["new_jaxpr_eqn", "eval_jaxpr", "jaxpr_as_fun", "PrimitiveLike"]

# What names a primitive when building an equation.
PrimitiveLike = JaxPrimitive | BuiltinPrimitive | Primitive


def _application(primitive: PrimitiveLike, params: Mapping[str, object]) -> Primitive:
    if isinstance(primitive, Primitive):
        if params and dict(params) != dict(primitive.params()):
            raise JaxtypedTypeError(
                f"new_jaxpr_eqn: primitive '{primitive.name}' already holds its parameters; pass params={{}}"
            )
        return primitive
    return primitive.application(**params)


def new_jaxpr_eqn(
    invars: Sequence[Atom],
    outvars: Sequence[Var],
    primitive: PrimitiveLike,
    params: Mapping[str, object],
    effects: object = None,
    source_info: object = None,
) -> Eqn:
    """An equation ``outvars = primitive[params] invars``. ``effects`` and
    ``source_info`` are accepted for JAX's signature and ignored: effects
    follow from the primitive and the operand types."""
    del effects, source_info
    return Eqn(_application(primitive, params), tuple(invars), tuple(outvars))


def eval_jaxpr(jaxpr: Jaxpr, consts: Sequence[ArrayLike | RefConst], *args: ArrayLike | RefConst) -> list[Array]:
    """Evaluate ``jaxpr`` under the current transformation (so it can be
    jitted, differentiated, batched); the outputs as a list."""
    return list(_eval_jaxpr(jaxpr, consts, *args))


def jaxpr_as_fun(closed_jaxpr: ClosedJaxpr) -> Callable[..., list[Array]]:
    """A function evaluating ``closed_jaxpr`` on its arguments."""

    def fun(*args: ArrayLike | RefConst) -> list[Array]:
        return eval_jaxpr(closed_jaxpr.jaxpr, closed_jaxpr.consts, *args)

    return fun
