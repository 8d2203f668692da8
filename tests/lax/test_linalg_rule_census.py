"""Every linear-algebra and FFT primitive has every rule (issue 14).

The primitives of ``jaxtyped._src.lax.linalg`` and ``jaxtyped._src.lax.fft``
are found by walking ``Primitive``'s subclasses, so a primitive added
without a rule fails here: abstract evaluation, eager evaluation (a NumPy
``impl`` or the compiled kernel), lowering, batching and a jvp rule (which
may be a deliberate error where JAX defines none, as for ``schur``).
Whether each rule is *right* is for the family's own tests.
"""

import inspect

import pytest

import jaxtyped as jt
from jaxtyped._src.core.primitive import Primitive

RULES = ("abstract_eval", "lower", "batch", "jvp")
MODULES = ("jaxtyped._src.lax.linalg.", "jaxtyped._src.lax.fft")


def _linalg_primitives() -> dict[str, type[Primitive]]:
    assert jt.lax.linalg is not None  # importing jaxtyped imports every primitive module
    found: dict[str, type[Primitive]] = {}
    pending: list[type[Primitive]] = list(Primitive.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__.startswith(MODULES) and not inspect.isabstract(cls) and "name" in vars(cls):
            found[cls.name] = cls
    return found


def test_the_census_sees_the_families() -> None:
    assert {"cholesky", "triangular_solve", "lu", "qr", "eigh", "svd", "eig", "fft"} <= set(_linalg_primitives())


@pytest.mark.parametrize("name", sorted(_linalg_primitives()))
def test_every_rule_is_defined(name: str) -> None:
    cls = _linalg_primitives()[name]
    missing = [rule for rule in RULES if getattr(cls, rule) is getattr(Primitive, rule)]
    if cls.evaluate is Primitive.evaluate and cls.impl is Primitive.impl:
        missing.append("impl (or evaluate)")
    assert not missing, f"primitive {name} lacks rules: {missing}"
