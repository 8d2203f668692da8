"""Handles on the built-in primitives in JAX's form (``add_p``, ...).

A built-in primitive is a class of ours whose instances carry the
parameters; the handle stands for the class, as JAX's ``add_p`` stands for
every application of ``add``: ``eqn.primitive == add_p`` holds for every
equation applying ``add``, and ``reduce_sum_p.bind(x, axes=(0,))`` applies
``ReduceSum(axes=(0,))``.
"""

from typing import final

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.errors import JaxtypedTypeError

__all__ = ["BuiltinPrimitive"]


@final
class BuiltinPrimitive:
    """A built-in primitive seen in JAX's form.

    Attributes:
        name: the primitive's name (as printed in jaxprs).
        primitive_class: our class of the primitive.
        multiple_results: whether ``bind`` returns a list.
    """

    __slots__ = ("name", "primitive_class", "multiple_results")

    name: str
    primitive_class: type[Primitive]
    multiple_results: bool

    def __init__(self, primitive_class: type[Primitive]) -> None:
        self.primitive_class = primitive_class
        self.name = str(primitive_class.name)
        self.multiple_results = primitive_class.several_results

    def application(self, **params: object) -> Primitive:
        """Our primitive with these parameters."""
        try:
            return self.primitive_class(**params)
        except TypeError as err:
            raise JaxtypedTypeError(f"{self.name}: invalid parameters {sorted(params)}: {err}") from None

    def bind(self, *args: ArrayLike, **params: object) -> Array | list[Array]:
        """Apply the primitive with ``params`` under the current
        transformation (a list of arrays if ``multiple_results``): the
        application's own ``bind``."""
        return self.application(**params).bind(*args)

    def matches(self, primitive: Primitive) -> bool:
        """Whether ``primitive`` (an equation's) is an application of this
        one; ``==`` says the same, but strict checkers reject comparing
        unrelated static types."""
        return isinstance(primitive, self.primitive_class)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, BuiltinPrimitive):
            return other.primitive_class is self.primitive_class
        return isinstance(other, self.primitive_class)

    def __hash__(self) -> int:
        return hash(self.primitive_class)

    def __repr__(self) -> str:
        return self.name

    def __str__(self) -> str:
        return self.name



