"""Sharding constraints and named-axis collectives (layer L4, issue 17).

``with_sharding_constraint`` is the identity on values; in a program over
several devices it lowers to a Shardy ``sdy.sharding_constraint`` (on one
device it lowers to nothing).
"""

from dataclasses import dataclass
from typing import TypeVar, cast, final

import numpy as np
from typing_extensions import override

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax.util import operand
from jaxtyped._src.sharding import (
    NamedSharding,
    PartitionSpec,
    Sharding,
    SingleDeviceSharding,
    current_mesh,
    spmd_lowering_mesh,
)
from jaxtyped._src.tree_util import tree_flatten, tree_unflatten

__all__ = ["ShardingConstraint", "with_sharding_constraint"]

T = TypeVar("T")


@final
@dataclass(frozen=True, slots=True)
class ShardingConstraint(Primitive):
    """The identity, asking the partitioner to lay its value out as
    ``sharding`` says (JAX's ``sharding_constraint``)."""

    name = "sharding_constraint"
    sharding: Sharding

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (aval,) = avals
        if isinstance(self.sharding, NamedSharding):
            self.sharding.check_shape(aval.shape, "with_sharding_constraint")
        return (aval,)

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        return args

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (tangent,) = tangents
        out = bind1(self, primals[0])
        return (out,), ((tangent if isinstance(tangent, Zero) else bind1(self, tangent)),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        if not isinstance(args[0], UndefinedPrimal):
            return (None,)
        return ((ct if isinstance(ct, Zero) else bind1(self, ct)),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,), (dim,) = args, dims
        sharding = self.sharding
        if isinstance(sharding, NamedSharding) and dim is not None:
            entries = [sharding.spec[d] if d < len(sharding.spec) else None for d in range(x.ndim - 1)]
            entries.insert(dim, None)
            sharding = sharding.with_spec(PartitionSpec(*entries))
        return (bind1(ShardingConstraint(sharding), x),), (dim,)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        mesh = spmd_lowering_mesh()
        if mesh is None or isinstance(self.sharding, SingleDeviceSharding):
            return args
        annotation = self.sharding.sdy_sharding(out_avals[0].ndim)
        return (ctx.op1("sdy.sharding_constraint", args, out_avals[0], {"sharding": annotation}),)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("sharding", self.sharding),)


def _resolve(sharding: Sharding | PartitionSpec, where: str) -> Sharding:
    if isinstance(sharding, PartitionSpec):
        mesh = current_mesh()
        if mesh is None:
            raise JaxtypedValueError(
                f"{where}: a bare PartitionSpec {sharding!r} needs a mesh: use NamedSharding(mesh, spec) "
                "or call inside `with mesh:`"
            )
        return NamedSharding(mesh, sharding)
    if not isinstance(sharding, Sharding):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise JaxtypedTypeError(f"{where}: expected a Sharding or PartitionSpec, got {type(sharding).__name__}")
    return sharding


def with_sharding_constraint(x: T, shardings: Sharding | PartitionSpec) -> T:
    """Ask the partitioner to lay out every array of pytree ``x`` as
    ``shardings`` says (JAX's ``lax.with_sharding_constraint``); the values
    are unchanged. A bare ``PartitionSpec`` refers to the mesh of the
    enclosing ``with mesh:`` block."""
    sharding = _resolve(shardings, "with_sharding_constraint")
    leaves, tree = tree_flatten(x)
    outs: list[Array] = []
    for leaf in leaves:
        array = operand(cast(ArrayLike, leaf), "lax.with_sharding_constraint x")
        outs.append(bind1(ShardingConstraint(sharding), array))
    return cast(T, tree_unflatten(tree, outs))


_ = np  # numpy is used by the collectives below
