"""Forward-mode differentiation as an interpreter (layer L2).

A :class:`JVPTracer` carries a primal and a tangent. Values this interpreter
does not own are constants: their tangent is a symbolic :class:`Zero`. When
every tangent of an application is zero the primitive is simply handed to
the parent interpreter and the result stays unboxed, so constants cost
nothing to differentiate.
"""

from typing import final

from jaxtyped._src.config import config
from jaxtyped._src.core.array import Array, Conversion, require_concrete
from jaxtyped._src.core.avals import ShapedArray, Zero
from jaxtyped._src.core.interpreter import ArrayTracer, Interpreter, bind, interpreting
from jaxtyped._src.core.primitive import NDArray, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError

__all__ = ["JVPTracer", "JVPInterpreter"]


@final
class JVPTracer(ArrayTracer):
    """A primal value paired with a (non-zero) tangent."""

    __slots__ = ("primal", "tangent")

    primal: Array
    tangent: Array

    def __init__(self, interpreter: "JVPInterpreter", primal: Array, tangent: Array) -> None:
        super().__init__(interpreter)
        self.primal = primal
        self.tangent = tangent

    @property
    def aval(self) -> ShapedArray:
        return self.primal.aval


@final
class JVPInterpreter(Interpreter):
    """Propagates primal-tangent pairs through primitives' ``jvp`` rules."""

    def __init__(self, parent: Interpreter, fun_desc: str) -> None:
        super().__init__(parent, "jvp", fun_desc)

    def box(self, primal: Array, tangent: Tangent) -> Array:
        """The value for a primal-tangent pair (unboxed when the tangent is zero)."""
        if isinstance(tangent, Zero):
            return primal
        return JVPTracer(self, primal, tangent)

    def unbox(self, x: Array) -> tuple[Array, Tangent]:
        """Primal and tangent of ``x``; a zero tangent for values we do not own."""
        if type(x) is JVPTracer and x.interpreter is self:
            return x.primal, x.tangent
        return x, Zero(x.aval.to_tangent_aval())

    def process(self, prim: Primitive, args: tuple[Array, ...]) -> tuple[Array, ...]:
        primals: list[Array] = []
        tangents: list[Tangent] = []
        for arg in args:
            primal, tangent = self.unbox(arg)
            primals.append(primal)
            tangents.append(tangent)
        with interpreting(self.require_parent()):
            if all(isinstance(t, Zero) for t in tangents):
                return bind(prim, *primals)
            primal_outs, tangent_outs = prim.jvp(tuple(primals), tuple(tangents))
        if config.jax_enable_checks:
            _check_tangents(prim, primal_outs, tangent_outs)
        return tuple(self.box(p, t) for p, t in zip(primal_outs, tangent_outs, strict=True))

    def concretize(self, tracer: ArrayTracer, conversion: Conversion) -> NDArray:
        # Differentiation does not make values abstract: Python control flow
        # on the primal works under jvp, as in JAX.
        assert isinstance(tracer, JVPTracer)
        return require_concrete(tracer.primal, conversion)


def _check_tangents(
    prim: Primitive, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]
) -> None:
    """Under ``jax_enable_checks``: a jvp rule's tangents must have the
    tangent types of its primal outputs."""
    for primal, tangent in zip(primals, tangents, strict=True):
        expected = primal.aval.to_tangent_aval()
        if not expected.same_type(tangent.aval):
            raise JaxtypedTypeError(
                f"jvp rule of '{prim.name}' returned a tangent of type "
                f"{tangent.aval.str_short()} for a primal of type {primal.aval.str_short()}"
            )
