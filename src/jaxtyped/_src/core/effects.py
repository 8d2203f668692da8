"""Effects: what an equation does besides computing its outputs (layer L1).

An effect is an immutable, hashable value. Every equation carries the set
of effects of its primitive (``Eqn.effects``), and every jaxpr the union of
its equations' effects (``Jaxpr.effects``), so transformations can see at
a glance whether a program may be reordered, duplicated or dropped:

- :class:`IOEffect` -- the program talks to the host (``debug.print``,
  callbacks). ``ordered`` IO effects must happen in program order, across
  calls too (JEP 10657); unordered ones only must happen.
- :class:`RefEffect` -- the program reads (:class:`ReadEffect`), writes
  (:class:`WriteEffect`) or accumulates into (:class:`AccumEffect`) a
  mutable array reference. ``input_index`` says which ref: in an equation's
  effects the index of the operand, in a jaxpr's effects the index in the
  jaxpr's ``constvars + invars`` (effects on refs the jaxpr creates itself
  are local and do not appear in its type).
"""

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Protocol, final, runtime_checkable

__all__ = [
    "Effect",
    "IOEffect",
    "RefEffect",
    "ReadEffect",
    "WriteEffect",
    "AccumEffect",
    "Effects",
    "no_effects",
    "ORDERED_IO",
    "UNORDERED_IO",
    "ref_effects",
    "io_effects",
    "has_ordered_effects",
    "reindex_ref_effects",
    "inner_effects",
]


@dataclass(frozen=True, slots=True)
class Effect:
    """Base class of effects: immutable, hashable, compared by value."""


@final
@dataclass(frozen=True, slots=True)
class IOEffect(Effect):
    """Communication with the host; ``ordered`` ones keep program order."""

    ordered: bool

    def __str__(self) -> str:
        # JAX prints its IO effects by name: OrderedIO / IO.
        return "OrderedIO" if self.ordered else "IO"


@dataclass(frozen=True, slots=True)
class RefEffect(Effect):
    """An access to the mutable array reference at ``input_index``."""

    input_index: int

    # The name JAX prints before the index (``Read<0>``).
    _kind: ClassVar[str] = "Ref"

    def __str__(self) -> str:
        return f"{self._kind}<{self.input_index}>"

    def with_index(self, index: int) -> "RefEffect":
        """The same kind of access to the ref at ``index``."""
        return type(self)(index)


@final
@dataclass(frozen=True, slots=True)
class ReadEffect(RefEffect):
    """The ref is read."""

    _kind: ClassVar[str] = "Read"


@final
@dataclass(frozen=True, slots=True)
class WriteEffect(RefEffect):
    """The ref is written (overwritten at some indices)."""

    _kind: ClassVar[str] = "Write"


@final
@dataclass(frozen=True, slots=True)
class AccumEffect(RefEffect):
    """Values are added into the ref (``ref[idx] += v``)."""

    _kind: ClassVar[str] = "Accum"


# A set of effects (immutable).
Effects = frozenset[Effect]
no_effects: Effects = frozenset()
ORDERED_IO = IOEffect(ordered=True)
UNORDERED_IO = IOEffect(ordered=False)


def ref_effects(effects: Effects) -> frozenset[RefEffect]:
    """The ref effects among ``effects``."""
    return frozenset(e for e in effects if isinstance(e, RefEffect))


def io_effects(effects: Effects) -> frozenset[IOEffect]:
    """The IO effects among ``effects``."""
    return frozenset(e for e in effects if isinstance(e, IOEffect))


def has_ordered_effects(effects: Effects) -> bool:
    """Whether any effect must keep program order."""
    return any(isinstance(e, IOEffect) and e.ordered for e in effects)


def reindex_ref_effects(effects: Effects, index_map: Callable[[int], int | None]) -> Effects:
    """``effects`` with every ref effect's index mapped through
    ``index_map``; a ref effect mapped to ``None`` is dropped (a ref the
    caller does not see, such as one created inside)."""
    if not effects:
        return effects
    out: set[Effect] = set()
    for effect in effects:
        if isinstance(effect, RefEffect):
            index = index_map(effect.input_index)
            if index is not None:
                out.add(effect.with_index(index))
        else:
            out.add(effect)
    return frozenset(out)


@runtime_checkable
class _EffectfulJaxpr(Protocol):
    """What :func:`inner_effects` needs of a jaxpr (this layer cannot
    import ``Jaxpr``: the jaxpr module imports this one)."""

    @property
    def effects(self) -> Effects: ...

    @property
    def constvars(self) -> Sequence[object]: ...

    @property
    def invars(self) -> Sequence[object]: ...


def inner_effects(jaxprs: Sequence[object], num_operands: int) -> Effects:
    """The effects of a primitive holding ``jaxprs`` (jaxprs, tuples of
    jaxprs, or other values, which are skipped), whose inputs are the last
    of its ``num_operands`` operands: a ref effect at input ``k`` of an
    inner jaxpr is one at operand ``num_operands - len(inputs) + k``."""
    out: set[Effect] = set()
    for item in jaxprs:
        items: tuple[object, ...] = item if isinstance(item, tuple) else (item,)  # pyright: ignore[reportUnknownVariableType]  # a tuple of anything
        for inner in items:
            if not isinstance(inner, _EffectfulJaxpr):
                continue
            jaxpr = inner
            offset = num_operands - len(jaxpr.constvars) - len(jaxpr.invars)
            out |= reindex_ref_effects(jaxpr.effects, lambda k: k + offset if offset >= 0 else None)
    return frozenset(out) if out else no_effects
