"""Sharding constraints and named-axis collectives (layer L4, issue 17).

``with_sharding_constraint`` is the identity on values; in a program over
several devices it lowers to a Shardy ``sdy.sharding_constraint`` (on one
device it lowers to nothing).

The collectives (``psum``, ``pmax``, ``pmin``, ``pmean``, ``all_gather``,
``psum_scatter``, ``ppermute``, ``all_to_all``, ``axis_index``,
``axis_size``) communicate over a named axis: here the axis of an enclosing
``vmap(..., axis_name=...)``. Their meaning is their batching rule: the
``vmap`` that binds the name turns each into array operations over its batch
dimension (``psum`` into a sum over it, ``axis_index`` into an iota), and
every other ``vmap`` carries its own batch dimension through. A name no
``vmap`` binds is an error when the collective is called.

Inside ``shard_map`` the names are mesh axes: lowered in its
manual-sharding region, each collective is the StableHLO collective over
the devices the mesh axes group (``manual_lowering``), and with
``check_vma`` the collectives follow JEP 17111's device-variance types
(``pvary``, ``psum_invariant``; see the section below).
"""

import math
from collections.abc import Callable, Generator, Hashable, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, cast, final

import numpy as np
from typing_extensions import override

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, place
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, UndefinedPrimal, Zero, order_axes
from jaxtyped._src.core.hlo import HloValue, LoweringContext, i64_array
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.core.primitive import HostValue, LinearArg, NDArray, Primitive, Tangent
from jaxtyped._src import dtypes
from jaxtyped._src.errors import (
    JaxtypedNotImplementedError,
    JaxtypedTypeError,
    JaxtypedValueError,
    ShardingAssertionError,
    UnboundAxisNameError,
)
from jaxtyped._src.interpreters.batching import NamedAxisPrimitive, bound_axis_names, find_axis
from jaxtyped._src.interpreters.staging import set_pvary_primitive
from jaxtyped._src.lax.arithmetic import div, mul
from jaxtyped._src.lax.comparison import eq
from jaxtyped._src.lax.elementwise_base import convert_element_type
from jaxtyped._src.lax.reductions import reduce_max, reduce_min, reduce_sum
from jaxtyped._src.lax.slicing import slice_in_dim
from jaxtyped._src.lax.structural import (
    bdim_to_front,
    concatenate,
    broadcast_in_dim,
    iota,
    moveaxis,
    reshape,
    select_n,
    squeeze,
    zeros,
)
from jaxtyped._src.lax.util import constant_like_scalar, as_operand
from jaxtyped._src.sharding import (
    AxisType,
    NamedSharding,
    PartitionSpec,
    Sharding,
    SingleDeviceSharding,
    get_abstract_mesh,
    named_on_current_mesh,
    spec_for_rank,
    spmd_lowering_mesh,
)
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten

__all__ = [
    "pshuffle",
    "pswapaxes",
    "ShardingConstraint",
    "with_sharding_constraint",
    "AxisName",
    "Psum",
    "Pmax",
    "Pmin",
    "AllGather",
    "PsumScatter",
    "Ppermute",
    "AllToAll",
    "AxisIndex",
    "psum",
    "pmax",
    "pmin",
    "pmean",
    "all_gather",
    "psum_scatter",
    "ppermute",
    "all_to_all",
    "axis_index",
    "axis_size",
    "Pbroadcast",
    "pbroadcast",
    "Pvary",
    "PsumInvariant",
    "pvary",
    "pcast",
    "checking_vma",
    "ManualMesh",
    "manual_lowering",
]

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
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        # Eagerly the value is laid out as asked, as JAX's is.
        return (place(args[0], self.sharding),)

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
        return named_on_current_mesh(sharding, where)
    if not isinstance(sharding, Sharding):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise JaxtypedTypeError(f"{where}: expected a Sharding or PartitionSpec, got {type(sharding).__name__}")
    return sharding


def _check_auto_axes(sharding: Sharding) -> None:
    """JAX's rule: a constraint may only split over Auto mesh axes (an
    Explicit axis is the array's type, changed with ``reshard``)."""
    if not isinstance(sharding, NamedSharding):
        return
    types = dict(zip(sharding.mesh.axis_names, sharding.mesh.axis_types, strict=True))
    if any(types[name] is not AxisType.Auto for name in sharding.spec.used_axes()):
        raise JaxtypedValueError(
            "The spec of NamedSharding passed to with_sharding_constraint can only refer to Auto axes of the mesh. "
            f"Got spec={sharding.spec!r} and mesh={sharding.mesh!r}. You probably meant to use `reshard` API?"
        )


def _layout_spec(x: object, ndim: int) -> PartitionSpec:
    """The spec concrete value ``x`` is laid out by, one entry per
    dimension: that of its NamedSharding, else none split (an array on one
    device, a NumPy array, a Python scalar)."""
    sharding = x.sharding if isinstance(x, ArrayImpl) else None
    spec = sharding.spec if isinstance(sharding, NamedSharding) else PartitionSpec()
    return spec_for_rank(spec, ndim)


def _assert_laid_out(leaves: list[object], sharding: NamedSharding) -> None:
    """JAX's rule under ``set_mesh`` of an all-Explicit mesh: the constraint
    is an assertion on the layout, which is the array's type there. Only a
    concrete value's layout is known here: jaxtyped's tracers carry no
    sharding types, so under ``jit`` the assertion is not checked (Note
    [sharding constraints on Explicit meshes])."""
    for leaf in leaves:
        shape = leaf.shape if isinstance(leaf, Array) else np.shape(cast(ArrayLike, leaf))
        sharding.check_shape(shape, "with_sharding_constraint")
        if isinstance(leaf, Array) and not isinstance(leaf, ArrayImpl):
            continue  # a tracer
        have, want = _layout_spec(leaf, len(shape)), spec_for_rank(sharding.spec, len(shape))
        if have != want:
            raise ShardingAssertionError(
                "`with_sharding_constraint` acts as an assert when all axes of mesh are of type `Explicit`. "
                f"The array sharding: {have!r} did not match the sharding provided: {want!r}. "
                "Please use `jax.sharding.reshard` to shard your input to the sharding you want."
            )


# Note [sharding constraints on Explicit meshes]: JAX 0.10 keeps a layout
# over Explicit mesh axes in each array's type, so under ``set_mesh`` of a
# mesh whose axes are all Explicit (``make_mesh``'s default) a constraint
# asserts that type and returns the arrays unchanged, and anywhere else it
# may split over Auto axes only. jaxtyped does the same, except that it
# checks the assertion on concrete arrays only: its tracers carry no
# sharding types, so inside ``jit`` the constraint is then a no-op.
def with_sharding_constraint(x: T, shardings: Sharding | PartitionSpec) -> T:
    """Ask the partitioner to lay out every array of pytree ``x`` as
    ``shardings`` says (JAX's ``lax.with_sharding_constraint``); the values
    are unchanged, and eagerly they are laid out so. A bare
    ``PartitionSpec`` refers to the mesh of the enclosing ``with mesh:``
    block. Only Auto mesh axes may split (``reshard`` changes Explicit
    ones), as in JAX; under ``set_mesh`` of a mesh whose axes are all
    Explicit, the constraint asserts the arrays' layout instead.

    Raises:
        JaxtypedValueError: the spec splits over a mesh axis that is not
            Auto, outside ``set_mesh`` of an all-Explicit mesh.
        ShardingAssertionError: under ``set_mesh`` of an all-Explicit mesh,
            an array is laid out otherwise than ``shardings`` says.
    """
    sharding = _resolve(shardings, "with_sharding_constraint")
    leaves, tree = tree_flatten(x)
    context = get_abstract_mesh()
    explicit = not context.empty and all(t is AxisType.Explicit for t in context.axis_types)
    if explicit and isinstance(sharding, NamedSharding):
        _assert_laid_out(leaves, sharding)
        return x
    _check_auto_axes(sharding)
    outs: list[Array] = []
    for leaf in leaves:
        array = as_operand(cast(ArrayLike, leaf), "lax.with_sharding_constraint x")
        outs.append(bind1(ShardingConstraint(sharding), array))
    return cast(T, tree_unflatten(tree, outs))



# === collectives over named axes ===

AxisName = Hashable
"""A name bound by ``vmap(..., axis_name=...)`` (usually a str)."""


def _names(axis_name: AxisName | Sequence[AxisName]) -> tuple[AxisName, ...]:
    if isinstance(axis_name, (tuple, list)):
        return tuple(cast(Sequence[AxisName], axis_name))
    return (axis_name,)


def _bound_size(name: AxisName, where: str) -> int:
    axis = find_axis(name)
    if axis is None:
        raise UnboundAxisNameError(
            f"{where}: unbound axis name: {name!r}; the axis names bound here are {bound_axis_names()} "
            "(bind one with vmap(..., axis_name=...))"
        )
    return axis.size


class _Collective(NamedAxisPrimitive):
    """Shared rules: a collective is only ever evaluated through the batching
    rule of the ``vmap`` binding its name; anywhere else its name is unbound."""

    __slots__ = ()

    @override
    def impl(self, args: tuple[NDArray, ...]) -> tuple[HostValue, ...]:
        raise UnboundAxisNameError(f"{self.name}: unbound axis names {self.axis_names()} (no enclosing vmap binds them)")

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return (self.lower_manual(ctx, args[0] if args else None, out_avals[0], _manual_mesh(self)),)

    def lower_manual(self, ctx: LoweringContext, x: HloValue | None, out: ShapedArray, mesh: "ManualMesh") -> HloValue:
        """The collective inside a manual-sharding region (shard_map's body
        lowered as ``sdy.manual_computation``): StableHLO's collective over
        the devices ``mesh`` groups by the named axes."""
        raise JaxtypedNotImplementedError(f"{self.name}: no lowering inside shard_map")


# === lowering inside shard_map (sdy.manual_computation) ===


@final
@dataclass(frozen=True, slots=True)
class ManualMesh:
    """The mesh axes of a manual-sharding region, major to minor: the
    region's partition ``p`` sits at the row-major coordinates of ``p``."""

    names: tuple[str, ...]
    sizes: tuple[int, ...]

    def coordinates(self, partition: int) -> dict[str, int]:
        """The mesh coordinates of ``partition``."""
        coords: dict[str, int] = {}
        for name, size in zip(reversed(self.names), reversed(self.sizes)):
            coords[name] = partition % size
            partition //= size
        return coords

    def partition(self, coords: dict[str, int]) -> int:
        """The partition at mesh coordinates ``coords``."""
        p = 0
        for name, size in zip(self.names, self.sizes):
            p = p * size + coords[name]
        return p

    def groups(self, axes: Sequence[AxisName]) -> list[list[int]]:
        """The partitions grouped by equal coordinates off ``axes``; each
        group in row-major order of ``axes`` (as given)."""
        size = dict(zip(self.names, self.sizes))
        by_rest: dict[tuple[int, ...], list[tuple[tuple[int, ...], int]]] = {}
        for p in range(math.prod(self.sizes)):
            c = self.coordinates(p)
            rest = tuple(c[n] for n in self.names if n not in axes)
            key = tuple(c[cast(str, a)] for a in axes)
            by_rest.setdefault(rest, []).append((key, p))
        del size
        return [[p for _, p in sorted(members)] for _, members in sorted(by_rest.items())]

    def stride(self, axis: str) -> int:
        """How far apart (in partitions) neighbours along ``axis`` are."""
        i = self.names.index(axis)
        return math.prod(self.sizes[i + 1 :])


_manual_lowering: ContextVar["ManualMesh | None"] = ContextVar("jaxtyped_manual_lowering", default=None)


@contextmanager
def manual_lowering(mesh: ManualMesh) -> Generator[None, None, None]:
    """Lower collectives as StableHLO collectives over ``mesh`` (inside a
    shard_map body lowered as a manual-sharding region)."""
    token = _manual_lowering.set(mesh)
    try:
        yield
    finally:
        _manual_lowering.reset(token)


def _manual_mesh(prim: "_Collective") -> ManualMesh:
    mesh = _manual_lowering.get()
    if mesh is None or not all(n in mesh.names for n in prim.axis_names()):
        raise JaxtypedNotImplementedError(
            f"{prim.name} over {prim.axis_names()}: a collective lowers only inside the shard_map binding its axes "
            "(under vmap(axis_name=...) it is evaluated by its batching rule)"
        )
    return mesh


def _groups_attr(groups: list[list[int]]) -> str:
    rows = ", ".join("[" + ", ".join(map(str, g)) + "]" for g in groups)
    return f"dense<[{rows}]> : tensor<{len(groups)}x{len(groups[0])}xi64>"


# JAX's attributes of a collective over partitions (with global device ids).
_CHANNEL = "#stablehlo.channel_handle<handle = 1, type = 1>"


def _combine_region(ctx: LoweringContext, kind: str, dtype: np.dtype[Any]) -> list[str]:
    scalar = ShapedArray((), dtype)
    op = {"sum": "stablehlo.add", "max": "stablehlo.maximum", "min": "stablehlo.minimum"}[kind]
    if dtype == np.dtype(bool):
        op = {"sum": "stablehlo.or", "max": "stablehlo.or", "min": "stablehlo.and"}[kind]
    with ctx.region([scalar, scalar]) as (params, body):
        ctx.ret([ctx.op1(op, params, scalar)])
    return body


def _all_reduce_hlo(ctx: LoweringContext, kind: str, x: HloValue, out: ShapedArray, groups: list[list[int]]) -> HloValue:
    attrs = {"channel_handle": _CHANNEL, "replica_groups": _groups_attr(groups), "use_global_device_ids": "unit"}
    return ctx.op1("stablehlo.all_reduce", (x,), out, attrs, _combine_region(ctx, kind, x.aval.dtype))


def _reduce_over_batch(kind: str, x: Array, dim: BatchDim, size: int) -> Array:
    if dim is None:
        return mul(x, constant_like_scalar(x, size)) if kind == "sum" else x
    reducer = {"sum": reduce_sum, "max": reduce_max, "min": reduce_min}[kind]
    return reducer(x, (dim,))


class _AllReduce(_Collective):
    """psum, pmax, pmin: the same value on every member of the axes."""

    __slots__ = ()
    kind: ClassVar[str]
    axes: tuple[AxisName, ...]

    @override
    def axis_names(self) -> tuple[AxisName, ...]:
        return self.axes

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        # The result is the same on every member: it no longer varies along the axes.
        (x,) = avals
        return (x.update(vma=x.vma - frozenset(str(a) for a in self.axes)),) if x.vma else avals

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,), (dim,) = args, dims
        if axis.name not in self.axes:
            return (bind1(self, x),), (dim,)
        out = _reduce_over_batch(self.kind, x, dim, axis.size)
        rest = tuple(n for n in self.axes if n != axis.name)
        if rest:
            out = bind1(_make_all_reduce(type(self), rest), out)
        return (out,), (None,)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("axes", self.axes), ("axis_index_groups", None))

    @override
    def lower_manual(self, ctx: LoweringContext, x: HloValue | None, out: ShapedArray, mesh: ManualMesh) -> HloValue:
        assert x is not None
        return _all_reduce_hlo(ctx, self.kind, x, out, mesh.groups(self.axes))


def _make_all_reduce(prim_type: type[_AllReduce], axes: tuple[AxisName, ...]) -> _AllReduce:
    # Each concrete all-reduce is a dataclass whose one field is ``axes``.
    return cast(Callable[[tuple[AxisName, ...]], _AllReduce], prim_type)(axes)


@final
@dataclass(frozen=True, slots=True)
class Psum(_AllReduce):
    """The sum over the members of named axes (JAX's ``psum``)."""

    name = "psum"
    kind = "sum"
    axes: tuple[AxisName, ...]

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        (t,) = tangents
        return (bind1(self, primals[0]),), ((t if isinstance(t, Zero) else bind1(self, t)),)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # Every member's cotangent reaches every member's input (as JAX's
        # transpose of psum outside shard_map).
        (ct,) = cts
        return ((ct if isinstance(ct, Zero) else bind1(self, ct)),)


def _not_differentiable(name: str) -> JaxtypedNotImplementedError:
    return JaxtypedNotImplementedError(f"Differentiation rule for '{name}' not implemented (as in JAX)")


@final
@dataclass(frozen=True, slots=True)
class Pmax(_AllReduce):
    """The maximum over the members of named axes (JAX's ``pmax``)."""

    name = "pmax"
    kind = "max"
    axes: tuple[AxisName, ...]

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        raise _not_differentiable(self.name)


@final
@dataclass(frozen=True, slots=True)
class Pmin(_AllReduce):
    """The minimum over the members of named axes (JAX's ``pmin``)."""

    name = "pmin"
    kind = "min"
    axes: tuple[AxisName, ...]

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        raise _not_differentiable(self.name)


def _linear_jvp(prim: Primitive, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
    (t,) = tangents
    out = bind1(prim, primals[0])
    return (out,), ((Zero(out.aval.to_tangent_aval()) if isinstance(t, Zero) else bind1(prim, t)),)


# === device-variance types (JEP 17111) ===
#
# Inside ``shard_map(..., check_vma=True)`` every value's aval records the
# manual mesh axes along which it may differ between devices (its vma). A
# sum over such axes of a varying value is ``psum_invariant`` (its result is
# invariant along them); ``pvary`` marks an invariant value as varying (the
# identity on the data). Each is the other's transpose, so the backward pass
# of a psum of an invariant cotangent is a ``pvary``: no communication.


@final
@dataclass(frozen=True, slots=True)
class Pvary(_Collective):
    """The identity on values, marking them varying along manual mesh axes
    (JAX's ``pvary``, ``lax.pcast(x, axes, to='varying')``)."""

    name = "pvary"
    axes: tuple[AxisName, ...]

    @override
    def axis_names(self) -> tuple[AxisName, ...]:
        return self.axes

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("axes", self.axes),)

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (x,) = avals
        return (x.update(vma=x.vma | frozenset(str(a) for a in self.axes)),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,), (dim,) = args, dims
        rest = tuple(n for n in self.axes if n != axis.name)
        # Along the axis being enumerated the value is already what each member holds.
        return ((bind1(Pvary(rest), x) if rest else x),), (dim,)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return _linear_jvp(self, primals, tangents)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # Every member's cotangent flows back to the one invariant input.
        (ct,) = cts
        if isinstance(ct, Zero):
            return (Zero(cast(UndefinedPrimal, args[0]).aval.to_tangent_aval()),)
        return (bind1(PsumInvariant(self.axes), ct),)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return args


@final
@dataclass(frozen=True, slots=True)
class PsumInvariant(_AllReduce):
    """The sum over manual mesh axes of a value varying along them, invariant
    along them (JAX's ``psum_invariant``, what ``psum`` binds inside
    ``shard_map`` with ``check_vma``)."""

    name = "psum_invariant"
    kind = "sum"
    axes: tuple[AxisName, ...]

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("axes", self.axes),)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return _linear_jvp(self, primals, tangents)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # The cotangent is invariant: each member's input gets it as is (JEP 17111).
        (ct,) = cts
        if isinstance(ct, Zero):
            return (Zero(cast(UndefinedPrimal, args[0]).aval.to_tangent_aval()),)
        return (bind1(Pvary(self.axes), ct),)


# The manual mesh axes of the enclosing shard_map bodies traced with
# check_vma: collectives over them follow the vma rules (set by shard_map).
_vma_axes: ContextVar[frozenset[str]] = ContextVar("jaxtyped_vma_axes", default=frozenset())


@contextmanager
def checking_vma(axes: frozenset[str]) -> Generator[None, None, None]:
    """Trace a shard_map body whose manual ``axes`` follow the vma rules."""
    token = _vma_axes.set(_vma_axes.get() | axes)
    try:
        yield
    finally:
        _vma_axes.reset(token)


def _manual(names: tuple[AxisName, ...]) -> bool:
    """Whether all ``names`` are manual axes of a shard_map with check_vma."""
    axes = _vma_axes.get()
    return bool(names) and all(isinstance(n, str) and n in axes for n in names)


def _varying(x: Array, names: tuple[AxisName, ...]) -> Array:
    """``x`` marked varying along those of the manual axes ``names`` it is
    invariant along (what JAX inserts before a collective)."""
    if not _manual(names):
        return x
    missing = frozenset(cast(tuple[str, ...], names)) - x.aval.vma
    if not missing:
        return x
    return bind1(Pvary(order_axes(missing)), x)


def pvary(x: T, axis_name: AxisName | Sequence[AxisName]) -> T:
    """Mark every array of pytree ``x`` as varying along the named manual
    mesh axes (JEP 17111; JAX 0.10's ``lax.pcast(x, axes, to='varying')``).
    The values are unchanged; outside ``shard_map`` with ``check_vma`` it
    is the identity."""
    names = _names(axis_name)
    leaves, tree = _leaves(x, "pvary x")
    return cast(T, tree_unflatten(cast(PyTreeDef, tree), [_varying(leaf, names) for leaf in leaves]))


def pcast(x: T, axis_name: AxisName | Sequence[AxisName], *, to: str) -> T:
    """Change the device-variance type of pytree ``x`` along manual mesh
    axes (JAX's ``lax.pcast``); ``to='varying'`` is :func:`pvary`, the one
    cast implemented ('reduced' and 'unreduced', for explicit sharding,
    are not)."""
    if to in ("reduced", "unreduced"):
        raise JaxtypedNotImplementedError(f"pcast: to={to!r} (explicit-sharding reductions) is not implemented")
    if to != "varying":
        raise JaxtypedValueError(
            "Got unexpected `to` value. Allowed `to` values are: {'reduced', 'unreduced', 'varying'}"
        )
    return pvary(x, axis_name)


@final
@dataclass(frozen=True, slots=True)
class AllGather(_Collective):
    """Every member's value, stacked (or concatenated, ``tiled``) along
    ``axis`` (JAX's ``all_gather``)."""

    name = "all_gather"
    axis_name: AxisName
    axis: int
    tiled: bool
    axis_size: int

    @override
    def axis_names(self) -> tuple[AxisName, ...]:
        return (self.axis_name,)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        # JAX's names: the axis is ``all_gather_dimension``, names a tuple.
        return (
            ("all_gather_dimension", self.axis),
            ("axis_index_groups", None),
            ("axis_name", (self.axis_name,)),
            ("axis_size", self.axis_size),
            ("tiled", self.tiled),
        )

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (x,) = avals
        shape = list(x.shape)
        if self.tiled:
            shape[self.axis] *= self.axis_size
        else:
            shape.insert(self.axis, self.axis_size)
        return (ShapedArray(tuple(shape), x.dtype, x.weak_type, x.vma),)

    @override
    def lower_manual(self, ctx: LoweringContext, x: HloValue | None, out: ShapedArray, mesh: ManualMesh) -> HloValue:
        assert x is not None
        if not self.tiled:
            # Each member's value becomes a block of size 1 along the new axis.
            shape = list(x.aval.shape)
            shape.insert(self.axis, 1)
            x = ctx.op1("stablehlo.reshape", (x,), ShapedArray(tuple(shape), x.aval.dtype))
        attrs = {
            "all_gather_dim": f"{self.axis} : i64",
            "channel_handle": _CHANNEL,
            "replica_groups": _groups_attr(mesh.groups((self.axis_name,))),
            "use_global_device_ids": "unit",
        }
        return ctx.op1("stablehlo.all_gather", (x,), out, attrs)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        x = bdim_to_front(args[0], dims[0], axis.size)
        if axis.name != self.axis_name:
            return (bind1(AllGather(self.axis_name, self.axis + 1, self.tiled, self.axis_size), x),), (0,)
        out = moveaxis(x, 0, self.axis)
        if self.tiled:
            shape = list(x.shape[1:])
            shape[self.axis] *= axis.size
            out = reshape(out, shape)
        return (out,), (None,)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return _linear_jvp(self, primals, tangents)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        if isinstance(ct, Zero):
            return (Zero(cast(UndefinedPrimal, args[0]).aval.to_tangent_aval()),)
        return (bind1(PsumScatter(self.axis_name, self.axis, self.tiled, self.axis_size), ct),)


@final
@dataclass(frozen=True, slots=True)
class PsumScatter(_Collective):
    """The sum over the members, of which member ``i`` keeps block ``i`` along
    ``scatter_dimension`` (JAX's ``psum_scatter``, a reduce-scatter)."""

    name = "reduce_scatter"
    axis_name: AxisName
    scatter_dimension: int
    tiled: bool
    axis_size: int

    @override
    def axis_names(self) -> tuple[AxisName, ...]:
        return (self.axis_name,)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (
            ("axis_index_groups", None),
            ("axis_name", (self.axis_name,)),
            ("axis_size", self.axis_size),
            ("scatter_dimension", self.scatter_dimension),
            ("tiled", self.tiled),
        )

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (x,) = avals
        d, n = self.scatter_dimension, self.axis_size
        if not 0 <= d < x.ndim:
            raise JaxtypedValueError(f"psum_scatter: scatter_dimension {d} is out of range for {x.str_short()}")
        shape = list(x.shape)
        if self.tiled:
            if shape[d] % n:
                raise JaxtypedValueError(
                    f"psum_scatter: dimension {d} of {x.str_short()} must be divisible by the axis size {n}"
                )
            shape[d] //= n
        else:
            if shape[d] != n:
                raise JaxtypedValueError(
                    f"psum_scatter: dimension {d} of {x.str_short()} must equal the axis size {n} (or pass tiled=True)"
                )
            del shape[d]
        return (ShapedArray(tuple(shape), x.dtype, x.weak_type, x.vma),)

    @override
    def lower_manual(self, ctx: LoweringContext, x: HloValue | None, out: ShapedArray, mesh: ManualMesh) -> HloValue:
        assert x is not None
        d = self.scatter_dimension
        shape = list(x.aval.shape)
        shape[d] //= self.axis_size
        attrs = {
            "channel_handle": _CHANNEL,
            "replica_groups": _groups_attr(mesh.groups((self.axis_name,))),
            "scatter_dimension": f"{d} : i64",
            "use_global_device_ids": "unit",
        }
        block = ShapedArray(tuple(shape), x.aval.dtype)
        y = ctx.op1("stablehlo.reduce_scatter", (x,), block, attrs, _combine_region(ctx, "sum", x.aval.dtype))
        # Untiled, the member's block (of size 1) loses its axis.
        return y if self.tiled else ctx.op1("stablehlo.reshape", (y,), out)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        x = bdim_to_front(args[0], dims[0], axis.size)
        d = self.scatter_dimension
        if axis.name != self.axis_name:
            return (bind1(PsumScatter(self.axis_name, d + 1, self.tiled, self.axis_size), x),), (0,)
        total = reduce_sum(x, (0,))
        if not self.tiled:
            return (total,), (d,)
        shape = list(total.shape)
        shape[d : d + 1] = [axis.size, shape[d] // axis.size]
        return (reshape(total, shape),), (d,)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return _linear_jvp(self, primals, tangents)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        if isinstance(ct, Zero):
            return (Zero(cast(UndefinedPrimal, args[0]).aval.to_tangent_aval()),)
        return (bind1(AllGather(self.axis_name, self.scatter_dimension, self.tiled, self.axis_size), ct),)


@final
@dataclass(frozen=True, slots=True)
class Ppermute(_Collective):
    """Member ``src`` sends its value to member ``dst`` for each pair of
    ``perm``; members no pair targets get zeros (JAX's ``ppermute``)."""

    name = "ppermute"
    axis_name: AxisName
    perm: tuple[tuple[int, int], ...]

    @override
    def axis_names(self) -> tuple[AxisName, ...]:
        return (self.axis_name,)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("axis_name", (self.axis_name,)), ("perm", self.perm))

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        return avals

    @override
    def lower_manual(self, ctx: LoweringContext, x: HloValue | None, out: ShapedArray, mesh: ManualMesh) -> HloValue:
        assert x is not None
        pairs = [(g[src], g[dst]) for g in mesh.groups((self.axis_name,)) for src, dst in self.perm]
        if not pairs:
            return ctx.full_like(0, x)
        text = ", ".join(f"[{a}, {b}]" for a, b in pairs)
        attrs = {
            "channel_handle": _CHANNEL,
            "source_target_pairs": f"dense<[{text}]> : tensor<{len(pairs)}x2xi64>",
        }
        return ctx.op1("stablehlo.collective_permute", (x,), out, attrs)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        x = bdim_to_front(args[0], dims[0], axis.size)
        if axis.name != self.axis_name:
            return (bind1(self, x),), (0,)
        source = {dst: src for src, dst in self.perm}
        rows: list[Array] = []
        for member in range(axis.size):
            src = source.get(member)
            if src is None:
                rows.append(zeros(ShapedArray((1, *x.shape[1:]), x.dtype, x.weak_type)))
            else:
                rows.append(slice_in_dim(x, src, src + 1, axis=0))
        return (concatenate(rows, 0),), (0,)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return _linear_jvp(self, primals, tangents)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        if isinstance(ct, Zero):
            return (ct,)
        return (bind1(Ppermute(self.axis_name, tuple((dst, src) for src, dst in self.perm)), ct),)


@final
@dataclass(frozen=True, slots=True)
class AllToAll(_Collective):
    """Member ``i`` gets block ``i`` (along ``split_axis``) of every member's
    value, placed along ``concat_axis`` in member order (JAX's ``all_to_all``)."""

    name = "all_to_all"
    axis_name: AxisName
    split_axis: int
    concat_axis: int
    tiled: bool
    axis_size: int

    @override
    def axis_names(self) -> tuple[AxisName, ...]:
        return (self.axis_name,)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        # JAX shows no axis size here, and the name bare.
        return (
            ("axis_index_groups", None),
            ("axis_name", self.axis_name),
            ("concat_axis", self.concat_axis),
            ("split_axis", self.split_axis),
            ("tiled", self.tiled),
        )

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (x,) = avals
        n, s, c = self.axis_size, self.split_axis, self.concat_axis
        if not (0 <= s < x.ndim and 0 <= c < x.ndim):
            raise JaxtypedValueError(f"all_to_all: split_axis {s} or concat_axis {c} is out of range for {x.str_short()}")
        if x.shape[s] % n or (not self.tiled and x.shape[s] != n):
            raise JaxtypedValueError(
                f"all_to_all: dimension {s} of {x.str_short()} must "
                f"{'be divisible by' if self.tiled else 'equal'} the axis size {n}"
            )
        shape = list(x.shape)
        if self.tiled:
            shape[s] //= n
            shape[c] *= n
        else:
            # The split axis goes; the members' axis comes in at concat_axis.
            del shape[s]
            shape.insert(c, n)
        return (ShapedArray(tuple(shape), x.dtype, x.weak_type, x.vma),)

    @override
    def lower_manual(self, ctx: LoweringContext, x: HloValue | None, out: ShapedArray, mesh: ManualMesh) -> HloValue:
        assert x is not None
        n, s, c = self.axis_size, self.split_axis, self.concat_axis
        if not self.tiled:
            # A unit axis placed so that, once the split axis (now of size 1)
            # is dropped, the gathered members sit at concat_axis.
            where = c if c <= s else c + 1
            shape = list(x.aval.shape)
            shape.insert(where, 1)
            x = ctx.op1("stablehlo.reshape", (x,), ShapedArray(tuple(shape), x.aval.dtype))
            s, c = (s + 1 if where <= s else s), where
        shape = list(x.aval.shape)
        shape[s] //= n
        shape[c] *= n
        attrs = {
            "channel_handle": _CHANNEL,
            "concat_dimension": f"{c} : i64",
            "replica_groups": _groups_attr(mesh.groups((self.axis_name,))),
            "split_count": f"{n} : i64",
            "split_dimension": f"{s} : i64",
        }
        y = ctx.op1("stablehlo.all_to_all", (x,), ShapedArray(tuple(shape), x.aval.dtype), attrs)
        return y if self.tiled else ctx.op1("stablehlo.reshape", (y,), out)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        x = bdim_to_front(args[0], dims[0], axis.size)
        n, s, c = axis.size, self.split_axis, self.concat_axis
        if axis.name != self.axis_name:
            return (bind1(AllToAll(self.axis_name, s + 1, c + 1, self.tiled, self.axis_size), x),), (0,)
        if not self.tiled:
            # x[j, ..., i (at s+1), ...] -> out[i, ..., j (at c+1), ...]
            z = moveaxis(x, s + 1, 0)  # (i, j, rest)
            return (moveaxis(z, 1, c + 1),), (0,)
        shape = list(x.shape)
        shape[s + 1 : s + 2] = [n, shape[s + 1] // n]
        blocks = moveaxis(reshape(x, shape), s + 1, 0)  # (i, j, per-example dims with block size at s)
        placed = moveaxis(blocks, 1, c + 1)  # j just before dim c
        out_shape = list(placed.shape)
        out_shape[c + 1 : c + 3] = [out_shape[c + 1] * out_shape[c + 2]]
        return (reshape(placed, out_shape),), (0,)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return _linear_jvp(self, primals, tangents)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        (ct,) = cts
        if isinstance(ct, Zero):
            return (Zero(cast(UndefinedPrimal, args[0]).aval.to_tangent_aval()),)
        back = AllToAll(self.axis_name, self.concat_axis, self.split_axis, self.tiled, self.axis_size)
        return (bind1(back, ct),)


@final
@dataclass(frozen=True, slots=True)
class AxisIndex(_Collective):
    """The member's index along a named axis (JAX's ``axis_index``)."""

    name = "axis_index"
    axis_name: AxisName
    # Inside shard_map with check_vma, the index varies along its mesh axis.
    manual: bool = False

    @override
    def axis_names(self) -> tuple[AxisName, ...]:
        return (self.axis_name,)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("axis_name", self.axis_name),)

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        vma = frozenset((str(self.axis_name),)) if self.manual else frozenset[str]()
        return (ShapedArray((), np.dtype(np.int32), False, vma),)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        return (iota(np.int32, axis.size),), (0,)

    @override
    def lower_manual(self, ctx: LoweringContext, x: HloValue | None, out: ShapedArray, mesh: ManualMesh) -> HloValue:
        # The coordinate along the axis, from the partition's number.
        u32 = np.dtype(np.uint32)
        name = cast(str, self.axis_name)
        pid = ctx.op1("stablehlo.partition_id", (), ShapedArray((), u32))
        major = ctx.op1("stablehlo.divide", (pid, ctx.scalar(mesh.stride(name), u32)), pid.aval)
        size = mesh.sizes[mesh.names.index(name)]
        index = ctx.op1("stablehlo.remainder", (major, ctx.scalar(size, u32)), pid.aval)
        return ctx.convert(index, np.dtype(np.int32))


# --- pbroadcast (issue 17 item 4, H17b) ---


@final
@dataclass(frozen=True, slots=True)
class Pbroadcast(_Collective):
    """Every member of a named axis gets member ``source``'s value (JAX's
    ``pbroadcast``, StableHLO's ``collective_broadcast``)."""

    name = "pbroadcast"
    axis_name: AxisName
    source: int

    @override
    def axis_names(self) -> tuple[AxisName, ...]:
        return (self.axis_name,)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("axis_name", self.axis_name), ("source", self.source))

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        # As in JAX the type is unchanged, vma included: a varying input
        # stays varying (the values are equal, the type does not say so).
        return avals

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        (x,), (dim,) = args, dims
        if axis.name != self.axis_name:
            return (bind1(self, x),), (dim,)
        if dim is None:
            return (x,), (None,)
        # The source member's value, the same for every member: unbatched.
        picked = squeeze(slice_in_dim(x, self.source, self.source + 1, axis=dim), (dim,))
        return (picked,), (None,)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        return _linear_jvp(self, primals, tangents)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        # Every member's output came from the source's input: the source
        # gets the sum of all cotangents, every other member zero.
        (ct,) = cts
        primal = cast(UndefinedPrimal, args[0])
        if isinstance(ct, Zero):
            return (Zero(primal.aval.to_tangent_aval()),)
        name = self.axis_name
        varying = str(name) in ct.aval.vma
        total = bind1(PsumInvariant((name,)) if varying else Psum((name,)), ct)
        is_source = eq(bind1(AxisIndex(name, varying)), np.int32(self.source))
        which = broadcast_in_dim(is_source, ct.shape, ())
        return (select_n(which, zeros(total.aval), total),)

    @override
    def lower_manual(self, ctx: LoweringContext, x: HloValue | None, out: ShapedArray, mesh: ManualMesh) -> HloValue:
        assert x is not None
        # XLA:CPU does not implement stablehlo.collective_broadcast ("HLO
        # opcode `collective-broadcast` is not supported by XLA:CPU"): every
        # member gathers all blocks and keeps the source's. Exact (a masked
        # psum would turn the source's -0.0 into 0.0), one collective.
        n = mesh.sizes[mesh.names.index(cast(str, self.axis_name))]
        dtype = x.aval.dtype
        block = ShapedArray((1, *out.shape), dtype)
        attrs = {
            "all_gather_dim": "0 : i64",
            "channel_handle": _CHANNEL,
            "replica_groups": _groups_attr(mesh.groups((self.axis_name,))),
            "use_global_device_ids": "unit",
        }
        one = ctx.op1("stablehlo.reshape", (x,), block)
        every = ctx.op1("stablehlo.all_gather", (one,), ShapedArray((n, *out.shape), dtype), attrs)
        source = ctx.op1(
            "stablehlo.slice",
            (every,),
            block,
            {
                "start_indices": i64_array((self.source, *[0] * len(out.shape))),
                "limit_indices": i64_array((self.source + 1, *out.shape)),
                "strides": i64_array((1,) * (1 + len(out.shape))),
            },
        )
        return ctx.op1("stablehlo.reshape", (source,), out)


def _leaves(x: object, where: str) -> tuple[list[Array], object]:
    leaves, tree = tree_flatten(x)
    return [as_operand(cast(ArrayLike, leaf), where) for leaf in leaves], tree


def _all_reduce(prim_type: type[_AllReduce], x: T, axis_name: AxisName | Sequence[AxisName], where: str) -> T:
    names = _names(axis_name)
    size = 1
    for n in names:
        size *= _bound_size(n, where)
    raw, tree = tree_flatten(x)
    outs: list[object] = []
    for leaf in raw:
        if type(leaf) in (int, float, complex):
            # A Python number is the same on every member: the result is a
            # Python number too, as in JAX (``axis_size = psum(1, 'i')``).
            number = cast(int | float | complex, leaf)
            outs.append(number * size if prim_type is Psum else number)
        else:
            array = as_operand(cast(ArrayLike, leaf), f"{where} x")
            outs.append(_bind_all_reduce(prim_type, array, names, where))
    return cast(T, tree_unflatten(tree, outs))


def _bind_all_reduce(prim_type: type[_AllReduce], x: Array, names: tuple[AxisName, ...], where: str) -> Array:
    if prim_type is not Psum or not _manual(names):
        return bind1(_make_all_reduce(prim_type, names), x)
    # Inside shard_map with check_vma a sum is over axes the value varies
    # along (an invariant value is first marked varying, as in JAX).
    varying = [n for n in names if n in x.aval.vma]
    if varying and len(varying) != len(names):
        raise JaxtypedValueError(
            f"{where}: axis_name {names} mixes axes the input varies along ({tuple(varying)}) with axes it is "
            f"invariant along; got input type {x.aval.str_short()} (as JAX, which accepts only one kind)"
        )
    return bind1(PsumInvariant(names), _varying(x, names))


def psum(x: T, axis_name: AxisName | Sequence[AxisName]) -> T:
    """The sum of pytree ``x`` over the members of the named axes (JAX's
    ``lax.psum``); every member gets the same result."""
    return _all_reduce(Psum, x, axis_name, "psum")


def pmax(x: T, axis_name: AxisName | Sequence[AxisName]) -> T:
    """The elementwise maximum over the members of the named axes."""
    return _all_reduce(Pmax, x, axis_name, "pmax")


def pmin(x: T, axis_name: AxisName | Sequence[AxisName]) -> T:
    """The elementwise minimum over the members of the named axes."""
    return _all_reduce(Pmin, x, axis_name, "pmin")


def pmean(x: T, axis_name: AxisName | Sequence[AxisName]) -> T:
    """The mean over the members of the named axes (``psum`` divided by
    the number of members; integers give floats, as in JAX)."""
    names = _names(axis_name)
    count = 1
    for n in names:
        count *= _bound_size(n, "pmean")
    leaves, tree = _leaves(x, "pmean x")
    outs: list[Array] = []
    for leaf in leaves:
        if not dtypes.is_inexact(leaf.dtype):
            leaf = convert_element_type(leaf, dtypes.default_float_dtype())
        total = _bind_all_reduce(Psum, leaf, names, "pmean")
        outs.append(div(total, constant_like_scalar(total, count)))
    return cast(T, tree_unflatten(cast(PyTreeDef, tree), outs))


def all_gather(x: T, axis_name: AxisName, *, axis: int = 0, tiled: bool = False) -> T:
    """Every member's ``x`` stacked along a new ``axis`` (concatenated along
    ``axis`` with ``tiled=True``), on every member (JAX's ``lax.all_gather``)."""
    size = _bound_size(axis_name, "all_gather")
    leaves, tree = _leaves(x, "all_gather x")
    outs: list[Array] = []
    for leaf in leaves:
        ndim = leaf.ndim if tiled else leaf.ndim + 1
        where = axis + ndim if axis < 0 else axis
        if not 0 <= where < ndim:
            raise JaxtypedValueError(f"all_gather: axis {axis} is out of range for {leaf.aval.str_short()}")
        outs.append(bind1(AllGather(axis_name, where, tiled, size), _varying(leaf, (axis_name,))))
    return cast(T, tree_unflatten(cast(PyTreeDef, tree), outs))


def psum_scatter(x: T, axis_name: AxisName, *, scatter_dimension: int = 0, tiled: bool = False) -> T:
    """The sum over the members, of which member ``i`` keeps the ``i``-th
    block along ``scatter_dimension`` (JAX's ``lax.psum_scatter``)."""
    size = _bound_size(axis_name, "psum_scatter")
    leaves, tree = _leaves(x, "psum_scatter x")
    outs = [bind1(PsumScatter(axis_name, scatter_dimension, tiled, size), _varying(leaf, (axis_name,))) for leaf in leaves]
    return cast(T, tree_unflatten(cast(PyTreeDef, tree), outs))


def ppermute(x: T, axis_name: AxisName, perm: Sequence[tuple[int, int]]) -> T:
    """Send each member ``src``'s ``x`` to member ``dst`` for ``(src, dst)``
    in ``perm``; members no pair targets get zeros (JAX's ``lax.ppermute``)."""
    size = _bound_size(axis_name, "ppermute")
    pairs = tuple((int(a), int(b)) for a, b in perm)
    sources, targets = [a for a, _ in pairs], [b for _, b in pairs]
    if len(set(sources)) != len(sources) or len(set(targets)) != len(targets):
        raise JaxtypedValueError(f"ppermute: perm {list(pairs)} sends from or to a member twice")
    if not all(0 <= i < size for i in (*sources, *targets)):
        raise JaxtypedValueError(f"ppermute: perm {list(pairs)} names members outside 0..{size - 1}")
    leaves, tree = _leaves(x, "ppermute x")
    outs = [bind1(Ppermute(axis_name, pairs), _varying(leaf, (axis_name,))) for leaf in leaves]
    return cast(T, tree_unflatten(cast(PyTreeDef, tree), outs))


def pshuffle(x: T, axis_name: AxisName, perm: Sequence[int]) -> T:
    """Member ``i`` gets member ``perm[i]``'s ``x`` (JAX's ``lax.pshuffle``:
    a :func:`ppermute` by a permutation of the whole axis).

    Raises:
        JaxtypedValueError: ``perm`` is not a permutation of ``range(len(perm))``.
    """
    sources = [int(p) for p in perm]
    if sorted(sources) != list(range(len(sources))):
        raise JaxtypedValueError(f"lax.pshuffle: `perm` does not represent a permutation: {list(perm)}")
    return ppermute(x, axis_name, [(src, dst) for dst, src in enumerate(sources)])


def pswapaxes(x: T, axis_name: AxisName, axis: int, *, axis_index_groups: Sequence[Sequence[int]] | None = None) -> T:
    """Swap the named axis with positional ``axis`` of ``x`` (JAX's
    ``lax.pswapaxes``: an :func:`all_to_all` splitting and concatenating
    along ``axis``). ``axis_index_groups`` must be None.

    Raises:
        JaxtypedNotImplementedError: ``axis_index_groups`` is given.
    """
    if axis_index_groups is not None:
        raise JaxtypedNotImplementedError("lax.pswapaxes: axis_index_groups is not supported")
    return all_to_all(x, axis_name, axis, axis)


def all_to_all(x: T, axis_name: AxisName, split_axis: int, concat_axis: int, *, tiled: bool = False) -> T:
    """Member ``i`` gets block ``i`` (along ``split_axis``) of every member's
    ``x``, in member order along ``concat_axis`` (JAX's ``lax.all_to_all``)."""
    size = _bound_size(axis_name, "all_to_all")
    leaves, tree = _leaves(x, "all_to_all x")
    outs = [bind1(AllToAll(axis_name, split_axis, concat_axis, tiled, size), _varying(leaf, (axis_name,))) for leaf in leaves]
    return cast(T, tree_unflatten(cast(PyTreeDef, tree), outs))


def axis_index(axis_name: AxisName) -> Array:
    """This member's index along the named axis (JAX's ``lax.axis_index``)."""
    _bound_size(axis_name, "axis_index")
    return bind1(AxisIndex(axis_name, _manual((axis_name,))))


def axis_size(axis_name: AxisName | Sequence[AxisName]) -> int:
    """The number of members of the named axes (JAX's ``lax.axis_size``)."""
    size = 1
    for n in _names(axis_name):
        size *= _bound_size(n, "axis_size")
    return size


def pbroadcast(x: T, axis_name: AxisName | Sequence[AxisName], source: int) -> T:
    """Every member of the named axis gets member ``source``'s value of
    every array of pytree ``x`` (JAX's ``lax.pbroadcast``). With several
    names ``source`` counts the members in row-major order of the names as
    given (JAX raises NotImplementedError there under vmap)."""
    names = _names(axis_name)
    sizes = [_bound_size(n, "pbroadcast") for n in names]
    if isinstance(source, bool) or not isinstance(source, (int, np.integer)):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise JaxtypedTypeError(f"pbroadcast: source must be a static int, got {source!r}")
    total = math.prod(sizes)
    if not 0 <= int(source) < total:
        raise JaxtypedValueError(
            f"pbroadcast: source {int(source)} is out of range for axis {axis_name!r} of size {total} "
            "(collective broadcast doesn't fit in the axis size)"
        )
    # The source's coordinate along each name (row-major, the last fastest).
    coords: list[int] = []
    rest = int(source)
    for size in reversed(sizes):
        rest, c = divmod(rest, size)
        coords.append(c)
    coords.reverse()
    leaves, tree = _leaves(x, "pbroadcast x")
    outs: list[Array] = []
    for leaf in leaves:
        for name, c in zip(names, coords):
            # An invariant value is already the same on every member (as
            # the identity, its transpose is the identity too).
            if not (_manual((name,)) and str(name) not in leaf.aval.vma):
                leaf = bind1(Pbroadcast(name, c), leaf)
        outs.append(leaf)
    return cast(T, tree_unflatten(cast(PyTreeDef, tree), outs))


set_pvary_primitive(Pvary)
