"""Abstract values: what every transformation knows about an array without
its data (layer L1)."""

from dataclasses import dataclass, field
from typing import Any, ClassVar, final

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.field_checks import checked_fields

__all__ = ["ShapedArray", "Zero", "UndefinedPrimal", "BatchAxis", "BatchDim", "register_axis_order", "order_axes"]


# sharding family (issue 17): the order in which the axes of a value's vma
# print (JAX prints them in mesh order). A mesh registers its axis names when
# a shard_map traces over it; names no mesh registered print sorted.
_AXIS_ORDER: dict[str, int] = {}


def register_axis_order(names: tuple[str, ...]) -> None:
    """Print mesh axes ``names`` in this order in vmas (the latest mesh wins)."""
    for rank, name in enumerate(names):
        _AXIS_ORDER[name] = rank


def order_axes(axes: "frozenset[str] | set[str]") -> tuple[str, ...]:
    """``axes`` in mesh order (see :func:`register_axis_order`)."""
    return tuple(sorted(axes, key=lambda a: (_AXIS_ORDER.get(a, len(_AXIS_ORDER)), a)))


@checked_fields
@final
@dataclass(frozen=True, slots=True)
class ShapedArray:
    """The set of all arrays of one shape and dtype.

    ``weak_type`` marks values that came from Python scalars: they adopt the
    dtype of the other operand in ``jaxtyped.numpy`` arithmetic, as in JAX.

    Example:
        >>> ShapedArray((3, 4), np.dtype("float32")).str_short()
        'f32[3,4]'
    """

    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    weak_type: bool = False
    # The manual mesh axes along which the value may differ between devices
    # (JEP 17111); empty outside shard_map.
    vma: frozenset[str] = frozenset()
    # Avals key every jit cache lookup: hash once, not per lookup.
    _hash: int = field(init=False, repr=False, compare=False)
    # Whether this is the type of a mutable array reference: the state
    # package's AbstractRef, the one subtype, says so for the layers below it.
    is_ref: ClassVar[bool] = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "_hash", hash((self.shape, self.dtype, self.weak_type, self.vma)))

    def __hash__(self) -> int:
        return self._hash

    def __reduce__(self) -> tuple[type["ShapedArray"], tuple[tuple[int, ...], np.dtype[Any], bool, frozenset[str]]]:
        # The cached hash is per process (str hashes are salted): rebuild it.
        return (ShapedArray, (self.shape, self.dtype, self.weak_type, self.vma))

    @property
    def ndim(self) -> int:
        """Number of dimensions."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """Number of elements."""
        size = 1
        for dim in self.shape:
            size *= dim
        return size

    def str_short(self) -> str:
        """JAX's short form, e.g. ``f32[3,4]`` or ``i32[]``."""
        dims = ",".join(str(dim) for dim in self.shape)
        text = f"{dtypes.short_dtype_name(self.dtype)}[{dims}]"
        if self.vma:
            names = order_axes(self.vma)
            text += f"{{V:{names[0]}}}" if len(names) == 1 else f"{{V:({','.join(names)})}}"
        return text

    def __str__(self) -> str:
        return self.str_short()

    def __repr__(self) -> str:
        # JAX's form: ShapedArray(float32[3]), ShapedArray(float32[], weak_type=True).
        dims = ",".join(str(dim) for dim in self.shape)
        short = ShapedArray.str_short(self)
        varying = short[short.index("]") + 1 :]  # the {V:...} suffix, if any
        return f"ShapedArray({self.dtype.name}[{dims}]{varying}{', weak_type=True' if self.weak_type else ''})"

    def update(
        self,
        *,
        shape: tuple[int, ...] | None = None,
        dtype: np.dtype[Any] | None = None,
        weak_type: bool | None = None,
        vma: frozenset[str] | None = None,
    ) -> "ShapedArray":
        """A copy with some fields replaced."""
        return ShapedArray(
            self.shape if shape is None else shape,
            self.dtype if dtype is None else dtype,
            self.weak_type if weak_type is None else weak_type,
            self.vma if vma is None else vma,
        )

    def strip_weak_type(self) -> "ShapedArray":
        """The same aval with ``weak_type=False``."""
        return self if not self.weak_type else ShapedArray(self.shape, self.dtype, False, self.vma)

    def to_tangent_aval(self) -> "ShapedArray":
        """The aval of tangents (and cotangents) of this aval: the same for
        inexact dtypes (weak type included, as in JAX), ``float0`` for integer
        and boolean ones."""
        if dtypes.is_inexact(self.dtype):
            return self
        return ShapedArray(self.shape, dtypes.float0, False, self.vma)

    def same_type(self, other: "ShapedArray") -> bool:
        """Equal shape and dtype, ignoring weak typing."""
        return self.shape == other.shape and self.dtype == other.dtype


@checked_fields
@final
@dataclass(frozen=True, slots=True)
class Zero:
    """A symbolic zero tangent or cotangent of the given aval.

    Transformations pass ``Zero`` instead of an array of zeros so that no
    work is done for values that do not depend on the inputs.
    """

    aval: ShapedArray


@checked_fields
@final
@dataclass(frozen=True, slots=True)
class UndefinedPrimal:
    """Stands for a linear input of a transpose rule: the value is unknown
    (it is what the transpose computes the cotangent of), only its type is.
    """

    aval: ShapedArray


@checked_fields
@final
@dataclass(frozen=True, slots=True)
class BatchAxis:
    """What a batching rule knows about the axis being vectorised: its size
    and, for collectives, its name."""

    size: int
    name: object = None


# A batched value's batch dimension, or None for a value that is not batched.
BatchDim = int | None
