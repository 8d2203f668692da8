"""Staging to jaxprs as an interpreter (layer L2).

Every primitive application under a :class:`StagingInterpreter` becomes an
equation, including operations on constants (JAX's "omnistaging"). Values
the interpreter does not own become constants of the jaxpr: concrete 0-d
arrays are inlined as literals, other arrays and tracers of enclosing
transformations become constvars of the resulting closed jaxpr.
"""

from collections.abc import Callable, Sequence
from typing import final

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, Conversion
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.avals import ShapedArray, order_axes
from jaxtyped._src.core.interpreter import (
    ArrayTracer,
    Interpreter,
    Tracer,
    concretization_error,
    unexpected_tracer_error,
)
from jaxtyped._src.core.jaxpr import Atom, ClosedJaxpr, Eqn, Jaxpr, JaxprBuilder, Literal, Var
from jaxtyped._src.core.primitive import NDArray, Primitive
from jaxtyped._src.interpreters.batching import NamedAxisPrimitive

__all__ = ["StagingTracer", "StagingInterpreter", "set_pvary_primitive"]


# sharding family (issue 17, JEP 17111): values inside shard_map carry the
# mesh axes they vary along (``ShapedArray.vma``). An equation's outputs vary
# along every axis an operand varies along; an operand that varies along
# fewer axes than another is first marked varying by a ``pvary`` equation (as
# JAX inserts it). Collectives (NamedAxisPrimitive) compute their own vma.
# The pvary primitive lives in layer L4 (lax.parallel), which registers it.
_make_pvary: Callable[[tuple[str, ...]], Primitive] | None = None


def _holds_jaxpr(value: object) -> bool:
    if isinstance(value, tuple):
        items: tuple[object, ...] = value  # pyright: ignore[reportUnknownVariableType]  # a tuple of anything
        return any(isinstance(v, (Jaxpr, ClosedJaxpr)) for v in items)
    return isinstance(value, (Jaxpr, ClosedJaxpr))


def set_pvary_primitive(make: Callable[[tuple[str, ...]], Primitive]) -> None:
    """Register the constructor of ``pvary[axes=...]`` (called by lax.parallel)."""
    global _make_pvary
    _make_pvary = make


@final
class StagingTracer(ArrayTracer):
    """A value being staged: stands for variable ``jaxpr_var`` of the jaxpr
    (not ``var``: that is ``Array.var``, the variance)."""

    __slots__ = ("jaxpr_var",)

    jaxpr_var: Var

    def __init__(self, interpreter: "StagingInterpreter", var: Var) -> None:
        super().__init__(interpreter)
        self.jaxpr_var = var

    @property
    def aval(self) -> ShapedArray:
        return self.jaxpr_var.aval


class StagingInterpreter(Interpreter):
    """Records primitive applications into a jaxpr."""

    def __init__(self, parent: Interpreter, fun_desc: str, transformation: str = "make_jaxpr") -> None:
        super().__init__(parent, transformation, fun_desc)
        self.builder = JaxprBuilder()
        self._invars: list[Var] = []
        self._arg_names: dict[Var, str] = {}
        self._constvars: list[Var] = []
        self._consts: list[Array] = []
        self._const_index: dict[int, Var] = {}
        # Vars whose defining equations build() drops when nothing uses them.
        self._droppable: set[Var] = set()

    def new_arg(self, aval: ShapedArray, name: str = "") -> StagingTracer:
        """A fresh input of the jaxpr; ``name`` (a key path such as
        ``x['w']``) is used in error messages."""
        var = self.builder.new_var(aval)
        self._invars.append(var)
        if name:
            self._arg_names[var] = name
        return StagingTracer(self, var)

    def to_atom(self, x: Array) -> Atom:
        """The jaxpr atom standing for ``x``."""
        if type(x) is StagingTracer and x.interpreter is self:
            return x.jaxpr_var
        # float0 scalars hold an unhashable np.void: they stay consts.
        if type(x) is ArrayImpl and not x.aval.shape and not dtypes.is_float0(x.aval.dtype):
            return Literal.from_array(x)
        if isinstance(x, Tracer):
            owner = x.interpreter
            if not owner.active or not owner.is_ancestor_of(self):
                raise unexpected_tracer_error(x)
        return self._constvar(x)

    def _constvar(self, x: Array) -> Var:
        var = self._const_index.get(id(x))
        if var is None:
            var = self.builder.new_var(x.aval)
            self._const_index[id(x)] = var
            self._constvars.append(var)
            self._consts.append(x)  # keeps x alive, so its id stays unique
        return var

    def process(self, prim: Primitive, args: tuple[Array, ...]) -> tuple[Array, ...]:
        atoms = tuple(self.to_atom(arg) for arg in args)
        in_avals = tuple([atom.aval for atom in atoms])
        for aval in in_avals:
            if aval.vma:  # inside shard_map with check_vma (rare: a loop, not a generator)
                if not isinstance(prim, NamedAxisPrimitive):
                    return self._process_varying(prim, atoms, in_avals)
                break
        out_avals = prim.abstract_eval(in_avals)
        outvars = self.builder.add_eqn(prim, atoms, out_avals)
        return tuple(StagingTracer(self, var) for var in outvars)

    def _process_varying(self, prim: Primitive, atoms: tuple[Atom, ...], in_avals: tuple[ShapedArray, ...]) -> tuple[Array, ...]:
        """An equation over operands of which some vary along manual mesh
        axes: operands varying along fewer axes get a ``pvary`` first, and
        the outputs vary along all of them (JAX's standard vma rule)."""
        vma = frozenset[str]().union(*(aval.vma for aval in in_avals))
        if any(_holds_jaxpr(value) for _, value in prim.params()):
            # A higher-order primitive's types come from its inner jaxprs,
            # traced with the operands' own vma (JAX inserts no pvary there).
            out_avals = prim.abstract_eval(in_avals)
            return tuple(StagingTracer(self, var) for var in self.builder.add_eqn(prim, atoms, out_avals))
        if len(atoms) > 1 and _make_pvary is not None:
            joined: list[Atom] = []
            for atom in atoms:
                missing = vma - atom.aval.vma
                if missing:
                    pvary = _make_pvary(order_axes(missing))
                    (atom,) = self.builder.add_eqn(pvary, (atom,), pvary.abstract_eval((atom.aval,)))
                joined.append(atom)
            atoms = tuple(joined)
            in_avals = tuple(atom.aval for atom in atoms)
        out_avals = tuple(aval.update(vma=vma) for aval in prim.abstract_eval(in_avals))
        outvars = self.builder.add_eqn(prim, atoms, out_avals)
        return tuple(StagingTracer(self, var) for var in outvars)

    def drop_if_unused(self, *variables: Var) -> None:
        """Let :meth:`build` remove the equations defining ``variables`` if
        nothing uses their results by then: equations that a later one made
        redundant (see Note [ref += is an accumulation] in
        :mod:`jaxtyped._src.state.types`). Such an equation must define
        only droppable vars and be free of effects that matter."""
        self._droppable.update(variables)

    def build(self, outs: Sequence[Array]) -> ClosedJaxpr[Array]:
        """The closed jaxpr computing ``outs`` from the inputs made by
        :meth:`new_arg`."""
        outvars = [self.to_atom(out) for out in outs]
        if self._droppable:
            self._drop_unused(outvars)
        jaxpr = self.builder.build(self._constvars, self._invars, outvars)
        return ClosedJaxpr(jaxpr, tuple(self._consts))

    def _drop_unused(self, outvars: Sequence[Atom]) -> None:
        # One backward pass: an equation is used if a kept later one (or the
        # output) reads one of its vars; inner jaxprs take outer values as
        # operands, so operands are the only uses.
        used = {atom for atom in outvars if isinstance(atom, Var)}
        kept: list[Eqn] = []
        for eqn in reversed(self.builder.eqns):
            if eqn.outvars and all(v in self._droppable and v not in used for v in eqn.outvars):
                continue
            used.update(atom for atom in eqn.invars if isinstance(atom, Var))
            kept.append(eqn)
        self.builder.eqns[:] = reversed(kept)
        self._droppable.clear()

    def concretize(self, tracer: ArrayTracer, conversion: Conversion) -> NDArray:
        assert isinstance(tracer, StagingTracer)
        raise concretization_error(tracer, conversion, self._dependency_detail(tracer.jaxpr_var))

    def _dependency_detail(self, var: Var) -> str:
        """Which named inputs ``var`` depends on, for error messages."""
        needed = {var}
        for eqn in reversed(self.builder.eqns):
            if any(out in needed for out in eqn.outvars):
                needed.update(atom for atom in eqn.invars if isinstance(atom, Var))
        names = [name for v, name in self._arg_names.items() if v in needed]
        if names:
            return (
                "This concrete value was not available in Python because it "
                f"depends on the value of the argument {', '.join(names)}."
            )
        return (
            "The value does not depend on the function's arguments, but every "
            "operation inside a staged function is staged, constants included."
        )
