"""Every primitive has a lowering rule: either its own ``lower`` method or,
for elementwise primitives, an ``hlo_op`` the shared rule emits."""

import inspect

import jaxtyped
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.lax.elementwise_base import Elementwise


def _concrete_primitives() -> list[type[Primitive]]:
    found: list[type[Primitive]] = []
    assert jaxtyped.lax is not None  # importing jaxtyped imports every primitive module
    pending: list[type[Primitive]] = list(Primitive.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if not inspect.isabstract(cls) and "name" in vars(cls):
            found.append(cls)
    return found


def _has_lowering(cls: type[Primitive]) -> bool:
    for klass in cls.__mro__:
        if klass is Primitive:
            return False
        if klass is Elementwise:
            return issubclass(cls, Elementwise) and cls.hlo_op is not None
        if "lower" in vars(klass):
            return True
    return False


def test_the_primitive_census_is_complete() -> None:
    names = {cls.name for cls in _concrete_primitives()}
    # A sample from every family, so a broken census cannot pass vacuously.
    assert {"sin", "add", "dot_general", "gather", "scatter-add", "reduce_sum", "argmax", "jit", "iota"} <= names
    assert len(names) >= 80


# Refs family (issue 16): primitives that only exist in staged programs,
# which jit discharges (jaxtyped._src.state.discharge) before lowering.
DISCHARGED_BEFORE_LOWERING = {
    "get": "a ref read becomes indexing of the ref's value",
    "swap": "a ref write becomes .at[idx].set of the ref's value",
    "addupdate": "a ref accumulation becomes .at[idx].add of the ref's value",
    "new_ref": "a new ref's value is its initial value",
    "freeze": "a frozen ref's value is its last value",
}


def test_every_primitive_has_a_lowering_rule() -> None:
    missing = sorted(
        cls.name for cls in _concrete_primitives() if not _has_lowering(cls) and cls.name not in DISCHARGED_BEFORE_LOWERING
    )
    assert missing == []
