"""The IR: immutable jaxprs, their builder, evaluation and printing (layer L1).

Note [var identity]: a ``Var`` is identified by its ``count`` within the
jaxpr that defines it; counts come from the jaxpr's builder, starting at 0.
Two identical programs traced separately therefore give equal (and equally
hashed) jaxprs. Passes that combine jaxprs never mix vars of two builders in
one jaxpr: they rebuild through a new builder (evaluating the old jaxpr under
the staging interpreter does exactly that). ``check_jaxpr`` rejects a var
defined twice, which is how a violation would show up.
"""

import functools
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, final, runtime_checkable

from typing_extensions import TypeIs, TypeVar

import numpy as np

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, host_buffer, to_array
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.effects import Effect, Effects, no_effects, reindex_ref_effects
from jaxtyped._src.core.field_checks import checked_fields
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import Primitive

__all__ = [
    "Var",
    "Literal",
    "Atom",
    "Eqn",
    "Jaxpr",
    "ClosedJaxpr",
    "RefConst",
    "is_closed_jaxpr",
    "JaxprBuilder",
    "eval_jaxpr",
    "jaxpr_as_fun",
    "pp_jaxpr",
]


@checked_fields
@final
@dataclass(frozen=True, slots=True)
class Var:
    """A variable of a jaxpr: a count unique within its jaxpr, and a type."""

    count: int
    aval: ShapedArray

    def __repr__(self) -> str:
        return f"Var({self.count}:{self.aval.str_short()})"


@checked_fields
@final
@dataclass(frozen=True, slots=True)
class Literal:
    """A scalar constant written inline in a jaxpr (``2.0:f32[]``).

    ``val`` is a NumPy scalar of the aval's dtype (it prints in that dtype's
    shortest round-tripping form); ``array`` is the same value as an Array,
    for evaluation.
    """

    val: np.generic
    aval: ShapedArray
    array: ArrayImpl = field(compare=False, hash=False, repr=False)

    @staticmethod
    def from_array(x: ArrayImpl) -> "Literal":
        """The literal for a concrete 0-d array."""
        value: np.generic = host_buffer(x).flat[0]
        return Literal(value, x.aval, x)

    def __str__(self) -> str:
        # str(), not format(): format() widens np.float32(0.1) to 0.10000000149011612.
        return f"{str(self.val)}:{self.aval.str_short()}"


# An argument of an equation: a variable or an inline literal.
Atom = Var | Literal


@checked_fields
@final
@dataclass(frozen=True, slots=True)
class Eqn:
    """One equation ``outvars = primitive[params] invars``.

    ``effects`` is computed from the primitive and the operand types when
    the equation is built; ref effects are indexed by operand.
    """

    primitive: Primitive
    invars: tuple[Atom, ...]
    outvars: tuple[Var, ...]
    # Derived from the fields above, so not part of equality.
    effects: Effects = field(init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        effects = self.primitive.effects(tuple(atom.aval for atom in self.invars))
        object.__setattr__(self, "effects", effects)

    @property
    def params(self) -> dict[str, object]:
        """The primitive's static parameters, by name (as in JAX)."""
        return dict(self.primitive.params())

    def __str__(self) -> str:
        return _Printer().eqn(self, 0)


@checked_fields
@final
@dataclass(frozen=True, slots=True, weakref_slot=True)  # weakref: compiled-program caches key on it (pjit)
class Jaxpr:
    """A function in A-normal form: constants, inputs, equations, outputs.

    ``effects`` is the union of the equations' effects, with ref effects
    indexed into ``constvars + invars`` (effects on refs the jaxpr creates
    itself stay inside); it is part of the jaxpr's type.
    """

    constvars: tuple[Var, ...]
    invars: tuple[Var, ...]
    outvars: tuple[Atom, ...]
    eqns: tuple[Eqn, ...]
    # Derived from the equations, so not part of equality.
    effects: Effects = field(init=False, compare=False, hash=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "effects", _jaxpr_effects(self.constvars + self.invars, self.eqns))

    @property
    def in_avals(self) -> tuple[ShapedArray, ...]:
        """The input types."""
        return tuple(v.aval for v in self.invars)

    @property
    def out_avals(self) -> tuple[ShapedArray, ...]:
        """The output types."""
        return tuple(v.aval for v in self.outvars)

    def __str__(self) -> str:
        return pp_jaxpr(self)

    def pretty_print(self, *, width: int = 80) -> str:
        """The jaxpr in JAX's syntax, wrapped at ``width`` columns."""
        return pp_jaxpr(self, width=width)


def _jaxpr_effects(inputs: tuple[Var, ...], eqns: tuple[Eqn, ...]) -> Effects:
    if not any(eqn.effects for eqn in eqns):
        return no_effects
    position = {var: index for index, var in enumerate(inputs)}
    out: set[Effect] = set()
    for eqn in eqns:
        if eqn.effects:
            out |= reindex_ref_effects(eqn.effects, functools.partial(_input_position, position, eqn.invars))
    return frozenset(out)


# Not a closure of _jaxpr_effects: the debug mode's beartype import hook
# would decorate it anew for every effectful equation.
def _input_position(position: dict[Var, int], operands: tuple[Atom, ...], k: int) -> int | None:
    """The jaxpr input that operand ``k`` is, if it is one."""
    atom = operands[k]
    return position.get(atom) if isinstance(atom, Var) else None


@runtime_checkable
class RefConst(Protocol):
    """A mutable array reference as a const of a closed jaxpr (what
    ``make_jaxpr`` shows for a closed-over ``jaxtyped.Ref``; that class is
    of a higher layer, so the IR knows it by what it reads of it)."""

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the referenced array."""
        ...

    @property
    def dtype(self) -> np.dtype[Any]:
        """The dtype of the referenced array."""
        ...

    def read(self) -> Array:
        """The current value."""
        ...

    def write(self, value: Array) -> None:
        """Replace the value."""
        ...


# The type of a closed jaxpr's consts: arrays, or also refs in make_jaxpr's
# result (a plain ``ClosedJaxpr`` annotation accepts either). The closed
# jaxprs the transformations build and run are ClosedJaxpr[Array].
C = TypeVar("C", bound=Array | RefConst, default=Array | RefConst, covariant=True)


@checked_fields
@final
@dataclass(frozen=True, slots=True, eq=False)
class ClosedJaxpr(Generic[C]):
    """A jaxpr together with the values of its constvars.

    Consts are arrays (concrete, or tracers of an enclosing transformation)
    or, in ``make_jaxpr``'s result, the refs the function closes over (the
    ref itself, bound to a ``Ref{...}``-typed constvar, as in JAX); compared
    by identity: arrays compare elementwise, and a closed jaxpr keeps its
    consts alive, so identity is stable.
    """

    jaxpr: Jaxpr
    consts: tuple[C, ...]

    @property
    def in_avals(self) -> tuple[ShapedArray, ...]:
        """The input types."""
        return self.jaxpr.in_avals

    @property
    def out_avals(self) -> tuple[ShapedArray, ...]:
        """The output types."""
        return self.jaxpr.out_avals

    @property
    def eqns(self) -> tuple[Eqn, ...]:
        """The jaxpr's equations."""
        return self.jaxpr.eqns

    @property
    def effects(self) -> Effects:
        """The jaxpr's effects (ref effects indexed into constvars + invars)."""
        return self.jaxpr.effects

    @property
    def literals(self) -> tuple[C, ...]:
        """JAX's name for ``consts``."""
        return self.consts

    def __eq__(self, other: object) -> bool:
        if not is_closed_jaxpr(other):
            return NotImplemented
        return self.jaxpr == other.jaxpr and len(self.consts) == len(other.consts) and all(
            a is b for a, b in zip(self.consts, other.consts)
        )

    def __hash__(self) -> int:
        return hash((self.jaxpr, tuple(id(c) for c in self.consts)))

    def __str__(self) -> str:
        return pp_jaxpr(self.jaxpr)

    def pretty_print(self, *, width: int = 80) -> str:
        """The jaxpr in JAX's syntax, wrapped at ``width`` columns."""
        return pp_jaxpr(self.jaxpr, width=width)


def is_closed_jaxpr(x: object) -> "TypeIs[ClosedJaxpr[Array | RefConst]]":
    """Whether ``x`` is a :class:`ClosedJaxpr` (of any consts)."""
    return isinstance(x, ClosedJaxpr)


class JaxprBuilder:
    """Mutable accumulator of equations; :meth:`build` freezes it into a
    :class:`Jaxpr`. Vars are numbered from 0 (see Note [var identity])."""

    def __init__(self) -> None:
        self._count = 0
        self.eqns: list[Eqn] = []

    def new_var(self, aval: ShapedArray) -> Var:
        """A fresh variable of type ``aval``."""
        var = Var(self._count, aval)
        self._count += 1
        return var

    def add_eqn(
        self, prim: Primitive, invars: tuple[Atom, ...], out_avals: tuple[ShapedArray, ...]
    ) -> tuple[Var, ...]:
        """Append ``prim(invars)`` and return its fresh output vars."""
        outvars = tuple(self.new_var(aval) for aval in out_avals)
        self.eqns.append(Eqn(prim, invars, outvars))
        return outvars

    def build(
        self, constvars: Sequence[Var], invars: Sequence[Var], outvars: Sequence[Atom]
    ) -> Jaxpr:
        """The finished, immutable jaxpr."""
        return Jaxpr(tuple(constvars), tuple(invars), tuple(outvars), tuple(self.eqns))


# === evaluation ===


# Evaluates a jaxpr some of whose consts or arguments are refs (registered
# by the state package, a higher layer: see set_ref_evaluator).
_RefEvaluator = Callable[[Jaxpr, Sequence["ArrayLike | RefConst"], Sequence["ArrayLike | RefConst"]], tuple[Array, ...]]
_ref_evaluator: _RefEvaluator | None = None


# What an ArrayLike is at run time: never a ref (checked first, as the
# protocol check is slow).
_NOT_REFS = (Array, np.ndarray, np.generic, bool, int, float, complex)


def _is_ref_const(x: object) -> bool:
    return not isinstance(x, _NOT_REFS) and isinstance(x, RefConst)


def set_ref_evaluator(evaluate: _RefEvaluator) -> None:
    """Register how :func:`eval_jaxpr` runs a jaxpr given refs (the state
    package: reads the refs, runs the ref equations on their values and
    writes the final values back)."""
    global _ref_evaluator
    _ref_evaluator = evaluate


def eval_jaxpr(jaxpr: Jaxpr, consts: Sequence[ArrayLike | RefConst], *args: ArrayLike | RefConst) -> tuple[Array, ...]:
    """Run ``jaxpr`` by binding each equation under the *current* interpreter.

    So evaluating a jaxpr inside a transformation transforms it (the
    Autodidax2 round trip: Python -> jaxpr -> interpretable Python).
    Arguments may be arrays or scalars, as in JAX; a ref-typed const or
    argument (a closed-over ``Ref`` of ``make_jaxpr``'s result) is a
    ``Ref``, read and updated as the function would.
    """
    if any(_is_ref_const(x) for x in consts) or any(_is_ref_const(x) for x in args):
        assert _ref_evaluator is not None, "the state package registers the ref evaluator"
        return _ref_evaluator(jaxpr, consts, args)
    env: dict[Var, Array] = {}
    for var, value in zip(jaxpr.constvars, consts, strict=True):
        env[var] = to_array(value, "eval_jaxpr consts")
    for var, value in zip(jaxpr.invars, args, strict=True):
        env[var] = to_array(value, "eval_jaxpr argument")
    for eqn in jaxpr.eqns:
        outs = bind(eqn.primitive, *(_read(env, atom) for atom in eqn.invars))
        for var, value in zip(eqn.outvars, outs, strict=True):
            env[var] = value
    return tuple(_read(env, atom) for atom in jaxpr.outvars)


# Not a closure of eval_jaxpr: the debug mode's beartype import hook would
# decorate it anew on every evaluation.
def _read(env: dict[Var, Array], atom: Atom) -> Array:
    return atom.array if isinstance(atom, Literal) else env[atom]


def jaxpr_as_fun(closed: "ClosedJaxpr[Array | RefConst]") -> Callable[..., tuple[Array, ...]]:
    """A Python function that evaluates ``closed`` on its arguments."""

    def fun(*args: ArrayLike | RefConst) -> tuple[Array, ...]:
        return eval_jaxpr(closed.jaxpr, closed.consts, *args)

    return fun


# === printing (JAX's jaxpr syntax) ===


def _alphabetic_name(n: int) -> str:
    # 0 -> a, 25 -> z, 26 -> ba, 27 -> bb, ... as JAX names variables.
    name = ""
    while not name or n:
        n, digit = divmod(n, 26)
        name = chr(ord("a") + digit) + name
    return name


class _Printer:
    """Names variables in order of appearance and lays out jaxprs.

    Like JAX's pretty printer, a jaxpr that fits in ``width`` columns is
    printed on one line; otherwise one equation per line, and an equation
    whose parameters do not fit puts each parameter on its own line. Names
    come from one counter, but each nested jaxpr is a scope of its own
    (jaxprs are closed, and an inner var may equal an outer one by value);
    a jit's jaxpr starts with its inputs and outputs named after the
    equation's operands and results, as JAX's.
    """

    def __init__(self, width: int = 80, shared: "dict[Jaxpr, str] | None" = None) -> None:
        self.width = width
        self._names: dict[Var, str] = {}
        self._next = 0
        # Inner jaxprs printed once before the jaxpr, referred to by name.
        self._shared: dict[Jaxpr, str] = shared or {}
        self._shared_names = frozenset(self._shared.values())

    def name(self, var: Var) -> str:
        existing = self._names.get(var)
        if existing is None:
            existing = _alphabetic_name(self._next)
            self._next += 1
            while existing in self._shared_names:  # as JAX: no var takes a shared jaxpr's name
                existing = _alphabetic_name(self._next)
                self._next += 1
            self._names[var] = existing
        return existing

    def _shared_name(self, jaxpr: Jaxpr) -> str | None:
        # Not hashed when nothing is shared (a jaxpr may be unhashable).
        return self._shared.get(jaxpr) if self._shared else None

    def atom(self, atom: Atom) -> str:
        return str(atom) if isinstance(atom, Literal) else self.name(atom)

    def binder(self, var: Var) -> str:
        return f"{self.name(var)}:{var.aval.str_short()}"

    def params(self, prim: Primitive, indent: int, call: Eqn | None = None) -> list[str]:
        out: list[str] = []
        for name, value in prim.printed_params():
            # A jaxpr parameter is laid out for its own line (where it goes
            # when the equation does not fit on one): on that line if it fits.
            if isinstance(value, ClosedJaxpr):
                value = value.jaxpr
            if isinstance(value, Jaxpr) and (shared_name := self._shared_name(value)):
                text = shared_name
            elif isinstance(value, Jaxpr):
                seed = self._names_like_call(value, call) if call is not None else None
                text = self.jaxpr(value, indent + 2, reserve=len(name) + 1, seed=seed)
            elif _is_jaxpr_tuple(value):
                # A tuple of jaxprs (cond's branches): on one line if it
                # fits, else one per line, each laid out on its own (or its
                # shared name).
                items = [self._shared_name(j) or self.jaxpr(j, indent + 4) for j in value]
                text = "(" + " ".join(items) + ")"
                if "\n" in text or indent + 2 + len(name) + 1 + len(text) > self.width:
                    inner = " " * (indent + 4)
                    text = "(\n" + "\n".join(inner + item for item in items) + "\n" + " " * (indent + 2) + ")"
            else:
                text = prim.format_param(name, value)
            out.append(f"{name}={text}")
        return out

    def eqn(self, eqn: Eqn, indent: int) -> str:
        binders = tuple(self.binder(v) for v in eqn.outvars)
        atoms = tuple(self.atom(a) for a in eqn.invars)
        custom = eqn.primitive.format_eqn(binders, atoms)
        if custom is not None:
            return custom
        # As JAX's: a jit's jaxpr names its inputs and outputs after the
        # equation's operands and results.
        params = self.params(eqn.primitive, indent, eqn if eqn.primitive.name == "jit" else None)
        # Laid out as JAX's: binders and operands fill lines (continued 2
        # columns in); the parameters stay on the line if they fit there,
        # else go one per line. An equation without outputs (an effect)
        # prints without "=".
        text = _fill(" " * indent, binders, self.width, indent + 2)
        text += f" = {eqn.primitive.name}" if binders else eqn.primitive.name
        flat_params = f"[{' '.join(params)}]"
        if params and ("\n" in flat_params or _column(text) + len(flat_params) > self.width):
            pad = "\n" + " " * (indent + 2)
            text += "[" + "".join(pad + p for p in params) + "\n" + " " * indent + "]"
        elif params:
            text += flat_params
        if atoms:
            text = _fill(text + " ", atoms, self.width, indent + 2)
        return text[indent:]

    def _names_like_call(self, inner: Jaxpr, call: Eqn) -> dict[Var, str]:
        """Names for ``inner``'s inputs and outputs: those of the calling
        equation's operands and results (each outer var lends its name
        once; literals lend none; the first name a var gets stays)."""
        seed: dict[Var, str] = {}
        for fors, likes in ((inner.invars, call.invars), (inner.outvars, call.outvars)):
            if len(fors) != len(likes):
                continue
            lent: set[Var] = set()
            for for_var, like in zip(fors, likes):
                if isinstance(like, Var) and like not in lent and isinstance(for_var, Var) and for_var not in seed:
                    lent.add(like)
                    seed[for_var] = self.name(like)
        return seed

    def jaxpr(self, jaxpr: Jaxpr, indent: int, *, reserve: int = 0, top: bool = False, seed: dict[Var, str] | None = None) -> str:
        """``jaxpr`` on one line if it fits in the width with ``reserve``
        more columns on its line, else one equation per line indented from
        ``indent``."""
        outer = self._names
        # As JAX's: in the jaxpr printed (not in its inner jaxprs) an
        # equation's result that nothing reads is written "_" and takes no
        # name from the counter.
        self._names = dict.fromkeys(_unused_results(jaxpr), "_") if top else dict(seed or {})
        try:
            return self._jaxpr_in_scope(jaxpr, indent, reserve)
        finally:
            self._names = outer

    def _jaxpr_in_scope(self, jaxpr: Jaxpr, indent: int, reserve: int) -> str:
        consts = [self.binder(v) for v in jaxpr.constvars]
        invars = [self.binder(v) for v in jaxpr.invars]
        head = f"{{ lambda {' '.join(consts)}; {' '.join(invars)}. let"
        eqns = [self.eqn(e, indent + 4) for e in jaxpr.eqns]
        outs = ", ".join(self.atom(a) for a in jaxpr.outvars)
        tail = f"in ({outs}{',' if len(jaxpr.outvars) == 1 else ''}) }}"
        if all("\n" not in e for e in eqns):
            body = "; ".join(eqns)
            flat = f"{head} {body} {tail}" if eqns else f"{head}  {tail}"
            if indent + reserve + len(flat) <= self.width:
                return flat
        if indent + len(head) > self.width:
            # The binders fill lines, continued 4 columns in, as JAX's.
            head = _fill(" " * indent + "{ lambda ", consts, self.width, indent + 4) + "; "
            head = (_fill(head, invars, self.width, indent + 4) + ". let")[indent:]
        if indent + 2 + len(tail) > self.width:
            # The outputs fill lines too (continued 4 columns in).
            outvars = [self.atom(a) + ("," if i + 1 < len(jaxpr.outvars) else "") for i, a in enumerate(jaxpr.outvars)]
            start = " " * (indent + 2) + "in ("
            tail = (_fill(start, outvars, self.width, indent + 4) + (",) }" if len(outvars) == 1 else ") }"))[indent + 2 :]
        lines = [head] + [f"{' ' * (indent + 4)}{e}" for e in eqns]
        lines.append(f"{' ' * (indent + 2)}{tail}")
        return "\n".join(lines)


def _column(text: str) -> int:
    """The column after ``text`` (the length of its last line)."""
    return len(text) - text.rfind("\n") - 1


def _fill(text: str, items: Sequence[str], width: int, indent: int) -> str:
    """``text`` followed by ``items``, space-separated; as JAX's printer
    fills a list, an item goes on a new line (at ``indent``) only when the
    line has no room left even for the separator."""
    for i, item in enumerate(items):
        if i == 0:
            text += item
        elif _column(text) >= width:
            text += "\n" + " " * indent + item
        else:
            text += " " + item
    return text


def _is_jaxpr_tuple(value: object) -> TypeIs[tuple[Jaxpr, ...]]:
    if not isinstance(value, tuple):
        return False
    items: tuple[object, ...] = value  # pyright: ignore[reportUnknownVariableType]  # a tuple of anything
    return bool(items) and all(isinstance(v, Jaxpr) for v in items)


def pp_jaxpr(jaxpr: Jaxpr, *, width: int = 80) -> str:
    """Print ``jaxpr`` in JAX's syntax (``{ lambda ; a:f32[3]. let ... in (b,) }``).

    As JAX's printer, an inner jaxpr used more than once, or of more than
    10 equations, is printed first, once, as ``let name = { ... } in``, and
    referred to by its name (its primitive's ``name`` parameter, else
    ``jaxpr``; numbered when taken).
    """
    shared = _shared_jaxprs(jaxpr)
    printer = _Printer(width, shared)
    lines: list[str] = []
    for inner, name in shared.items():
        head = f"let {name} = "
        lines.append(f"{head}{printer.jaxpr(inner, 0, reserve=len(head) + len(' in'))} in")
    lines.append(printer.jaxpr(jaxpr, 0, top=True))
    return "\n".join(lines)


def _shared_jaxprs(top: Jaxpr) -> dict[Jaxpr, str]:
    """The inner jaxprs JAX's printer hoists, in the order a breadth-first
    walk meets them, with their names. Jaxprs are told apart by value here
    (JAX's by identity: its trace caches give one jaxpr object per function
    and signature, as equal traces here give equal jaxprs)."""
    try:
        hash(top)  # covers the inner jaxprs, which are parameters
    except TypeError:  # a primitive with an unhashable parameter: nothing is shared
        return {}
    counts: dict[Jaxpr, int] = {}
    names: dict[Jaxpr, str] = {}
    queue = deque([top])
    while queue:
        jaxpr = queue.popleft()
        counts[jaxpr] = counts.get(jaxpr, 0) + (2 if jaxpr is not top and len(jaxpr.eqns) > 10 else 1)
        for eqn in jaxpr.eqns:
            params = dict(eqn.primitive.printed_params())
            label = params.get("name")
            for inner in _jaxprs_in(params.values()):
                queue.append(inner)
                if isinstance(label, str):
                    names.setdefault(inner, label.strip("<>"))
    taken: dict[str, int] = {}
    shared: dict[Jaxpr, str] = {}
    for jaxpr, count in counts.items():
        if count == 1:
            continue
        name = names.get(jaxpr, "jaxpr")
        seen = taken.get(name, 0)
        taken[name] = seen + 1
        if seen:
            name += str(seen)
            taken[name] = taken.get(name, 0) + 1
        shared[jaxpr] = name
    return shared


def _jaxprs_in(values: Iterable[object]) -> Iterator[Jaxpr]:
    for value in values:
        items: tuple[object, ...] = value if isinstance(value, tuple) else (value,)  # pyright: ignore[reportUnknownVariableType]  # a tuple of anything
        for item in items:
            if isinstance(item, Jaxpr):
                yield item
            elif isinstance(item, ClosedJaxpr):
                yield item.jaxpr


def _unused_results(jaxpr: Jaxpr) -> list[Var]:
    """The equations' results that no later equation and no output reads
    (inner jaxprs are closed: they read only their own variables)."""
    used = {atom for atom in jaxpr.outvars if isinstance(atom, Var)}
    unused: list[Var] = []
    for eqn in reversed(jaxpr.eqns):
        unused += [v for v in eqn.outvars if v not in used]
        used.update(atom for atom in eqn.invars if isinstance(atom, Var))
    return unused
