"""``shard_map``: per-device code over a mesh (layer L4, JEP 14273).

``shard_map(f, mesh=m, in_specs=..., out_specs=...)`` splits each input into
blocks along the mesh axes its ``PartitionSpec`` names (an input is
replicated along the axes it does not name), applies ``f`` to every block
(one application per mesh position), and concatenates the results along the
axes each output spec names. Inside ``f`` the mesh axis names are bound, so
collectives (``psum``, ``all_gather``, ``ppermute``, ...) communicate over
them.

Note [shard_map as nested vmaps]: ``f`` is traced once into a jaxpr over
blocks, with the mesh axis names bound so that its collectives are recorded
as equations; a call binds one ``shard_map`` equation holding it (what
``make_jaxpr`` prints, as JAX does). Over several devices the equation is
lowered as a Shardy manual-sharding region (``sdy.manual_computation``)
whose collectives are StableHLO collectives, and an eager call compiles and
runs that program (see Note [shard_map's own rules] for the other rules).
The equation's *emulation* gives the same meaning with array operations
only: it enumerates the mesh positions by one ``vmap`` per mesh axis
(outermost: the mesh's first axis), each binding its axis name, over the
blocked inputs, so the collectives take their meaning from their batching
rules; inputs and outputs carry sharding constraints of their specs. It is
used on one-device meshes only.

Note [device-variance types] (JEP 17111): with ``check_vma`` (the
default) the body is traced with each block's aval carrying the mesh axes
its spec splits it over (``ShapedArray.vma``); operations join them (the
staging interpreter inserts ``pvary`` where operands differ), ``psum``
binds ``psum_invariant``, which removes the axes it sums over, and outputs
are marked varying along the axes their spec splits them over. An output
spec that leaves out a mesh axis claims that the value is the same on every
device along it: an output whose vma includes such an axis is rejected when
``shard_map`` is called, statically, with JAX's message naming the output
and the axes. Without the check, the block of the first device along the
axis is returned.
"""

import contextlib
import functools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, cast, final

from typing_extensions import ParamSpec, override

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, host_buffer, to_array
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, Zero, order_axes, register_axis_order
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind, current_interpreter, transformation_scope
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import Primitive, Tangent
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lowering import lower_jaxpr_inline
from jaxtyped._src.ad import transpose_jaxpr
from jaxtyped._src.core.avals import UndefinedPrimal
from jaxtyped._src.core.primitive import LinearArg, PartialEvalSplit
from jaxtyped._src.interpreters.partial_eval import partial_eval_jaxpr
from jaxtyped._src.pjit import (
    batch_jaxpr,
    cached_transform,
    cached_value,
    check_operand_types,
    consts_as_invars,
    evaluate_eagerly,
    hashable_or_id,
    jvp_jaxpr,
    run_transposed,
)
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.interpreters.batching import BatchInterpreter
from jaxtyped._src.lax.convenience import index_in_dim
from jaxtyped._src.lax.structural import bdim_to_front, reshape, transpose
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src import dtypes
from jaxtyped._src.lax.arithmetic import div
from jaxtyped._src.lax.parallel import ManualMesh, Psum, ShardingConstraint, checking_vma, manual_lowering, pvary
from jaxtyped._src.lax.util import constant_like_scalar
from jaxtyped._src.sharding import AxisSpec, Mesh, NamedSharding, PartitionSpec, current_mesh, spmd_lowering_mesh
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten
from jaxtyped._src.util import describe_function

__all__ = ["shard_map", "Specs", "ShardMap"]

P = ParamSpec("P")
R = TypeVar("R")

Specs = PartitionSpec | Sequence[object] | None
"""A ``PartitionSpec``, or a tuple/list of specs matching the arguments'
(outputs') structure as a tree prefix (``None`` is ``P()``)."""


def _broadcast_specs(specs: object, tree_value: object, where: str) -> list[PartitionSpec]:
    """One spec per leaf of ``tree_value``: ``specs`` is a tree prefix of it."""
    if specs is None:
        return [PartitionSpec()] * len(tree_flatten(tree_value)[0])
    if isinstance(specs, PartitionSpec):
        return [specs] * len(tree_flatten(tree_value)[0])
    if isinstance(specs, (tuple, list)) and isinstance(tree_value, (tuple, list)):
        spec_items = list(cast(Sequence[object], specs))
        value_items = list(cast(Sequence[object], tree_value))
        if len(spec_items) != len(value_items):
            raise JaxtypedValueError(
                f"shard_map: {where} has {len(spec_items)} entries for {len(value_items)} values"
            )
        out: list[PartitionSpec] = []
        for spec, value in zip(spec_items, value_items):
            out += _broadcast_specs(spec, value, where)
        return out
    raise JaxtypedTypeError(
        f"shard_map: {where} must be a PartitionSpec or a tuple of them matching the values, got {specs!r}"
    )


def _check_spec(spec: PartitionSpec, mesh: Mesh, shape: tuple[int, ...], where: str) -> None:
    if len(spec) > len(shape):
        raise JaxtypedValueError(f"shard_map: {where} {spec!r} has more entries than the rank of shape {shape}")
    used = spec.used_axes()
    for name in used:
        if name not in mesh.shape:
            raise JaxtypedValueError(f"shard_map: {where} {spec!r} names axis {name!r}, which is not in {mesh}")
    if len(set(used)) != len(used):
        raise JaxtypedValueError(f"shard_map: {where} {spec!r} names a mesh axis twice")


def _check_blocks(shape: tuple[int, ...], spec: PartitionSpec, mesh: Mesh, where: str) -> None:
    _check_spec(spec, mesh, shape, where)
    for d, size in enumerate(shape):
        parts = math.prod(mesh.shape[a] for a in spec.axes_of(d))
        if size % parts:
            raise JaxtypedValueError(
                f"shard_map: {where} {spec!r} splits axis {d} of size {size} into {parts} blocks, "
                "which does not divide it evenly"
            )


def _block(x: Array, spec: PartitionSpec, mesh: Mesh, where: str) -> Array:
    """``x`` with one leading axis per mesh axis ``spec`` names (in mesh
    order) followed by the block's axes."""
    _check_blocks(x.shape, spec, mesh, where)
    shape: list[int] = []
    lead: dict[str, int] = {}  # mesh axis -> its axis in the reshaped value
    for d, size in enumerate(x.shape):
        axes = spec.axes_of(d)
        parts = math.prod(mesh.shape[a] for a in axes)
        for a in axes:
            lead[a] = len(shape)
            shape.append(mesh.shape[a])
        shape.append(size // parts)
    if not lead:
        return x
    split = reshape(x, shape)
    leading = [lead[a] for a in mesh.axis_names if a in lead]
    rest = [i for i in range(len(shape)) if i not in leading]
    return transpose(split, leading + rest)


def _unblock(y: Array, spec: PartitionSpec, mesh: Mesh) -> Array:
    """The inverse of :func:`_block`: leading mesh axes (mesh order) are
    merged into the block axes ``spec`` names, major to minor."""
    named = [a for a in mesh.axis_names if a in spec.used_axes()]
    if not named:
        return y
    m = len(named)
    rank = y.ndim - m
    perm: list[int] = []
    shape: list[int] = []
    for d in range(rank):
        axes = spec.axes_of(d)
        perm += [named.index(a) for a in axes]
        perm.append(m + d)
        shape.append(y.shape[m + d] * math.prod(mesh.shape[a] for a in axes))
    return reshape(transpose(y, perm), shape)


def shard_map(
    f: Callable[P, R],
    /,
    *,
    mesh: Mesh | None = None,
    in_specs: Specs,
    out_specs: Specs,
    check_vma: bool = True,
) -> Callable[P, R]:
    """Map ``f`` over the blocks of its inputs, one application per device
    of ``mesh`` (JAX's ``jax.shard_map``, JEP 14273).

    Args:
        f: the per-device function; inside it the mesh axis names are bound
            for collectives (``lax.psum(x, 'i')``).
        mesh: the devices and axis names (default: the ``with mesh:`` one).
        in_specs: per argument (a tree prefix of the arguments), the mesh
            axes each array axis is split over.
        out_specs: per output, the mesh axes each array axis is
            concatenated over; a mesh axis left out must hold equal blocks.
        check_vma: reject outputs that vary along a mesh axis their spec
            leaves out (else the first device's block is returned).
    """
    desc = describe_function(f)

    @functools.wraps(f)
    def mapped(*args: P.args, **kwargs: P.kwargs) -> R:
        if kwargs:
            raise JaxtypedTypeError(f"shard_map of {desc}: pass the arguments positionally (got {sorted(kwargs)})")
        the_mesh = mesh if mesh is not None else current_mesh()
        if the_mesh is None:
            raise JaxtypedValueError(f"shard_map of {desc}: no mesh: pass mesh=... or call inside `with mesh:`")
        leaves, tree = tree_flatten(tuple(args))
        arrays = [to_array(leaf, f"shard_map of {desc} argument") for leaf in leaves]
        arg_specs = _broadcast_specs(in_specs, tuple(args), "in_specs")
        for i, (x, s) in enumerate(zip(arrays, arg_specs)):
            _check_blocks(x.shape, s, the_mesh, f"in_specs entry {i}")
        block_avals = [
            ShapedArray(_block_shape(x.shape, s, the_mesh), x.dtype, x.weak_type, _spec_vma(s) if check_vma else frozenset())
            for x, s in zip(arrays, arg_specs)
        ]
        body, out_tree, out_spec_list = _trace_body(f, desc, the_mesh, tree, block_avals, out_specs, check_vma)
        if check_vma:
            _check_out_vma(f, the_mesh, out_specs, body.jaxpr.out_avals, out_spec_list)
        operands = [*(to_array(c, f"shard_map of {desc} constant") for c in body.consts), *arrays]
        specs = (PartitionSpec(),) * len(body.consts) + tuple(arg_specs)
        body_jaxpr = consts_as_invars(body.jaxpr)
        prim = ShardMap(body_jaxpr, the_mesh, specs, tuple(out_spec_list), check_vma, desc)
        outs = bind(prim, *operands)
        return cast(R, tree_unflatten(out_tree, list(outs)))

    return mapped


def _block_shape(shape: tuple[int, ...], spec: PartitionSpec, mesh: Mesh) -> tuple[int, ...]:
    return tuple(size // math.prod(mesh.shape[a] for a in spec.axes_of(d)) for d, size in enumerate(shape))


def _global_shape(shape: tuple[int, ...], spec: PartitionSpec, mesh: Mesh) -> tuple[int, ...]:
    return tuple(size * math.prod(mesh.shape[a] for a in spec.axes_of(d)) for d, size in enumerate(shape))


def _spec_vma(spec: PartitionSpec) -> frozenset[str]:
    """The mesh axes a block of this spec varies along (those it splits over)."""
    return frozenset(spec.used_axes())


def _check_out_vma(
    f: Callable[..., Any], mesh: Mesh, out_specs: Specs, avals: tuple[ShapedArray, ...], specs: list[PartitionSpec]
) -> None:
    """JEP 17111's static check: an output spec that leaves out a mesh axis
    claims the output is invariant along it, which its vma must show (JAX's
    message, naming each output and the axes)."""
    single = isinstance(out_specs, PartitionSpec) or not isinstance(out_specs, (tuple, list))
    messages: list[str] = []
    for k, (aval, spec) in enumerate(zip(avals, specs, strict=True)):
        unmentioned = [a for a in mesh.axis_names if a not in spec.used_axes()]
        if not any(a in aval.vma for a in unmentioned):
            continue
        # JAX names the entry by its key path in out_specs; a spec without
        # axes (P()) has none, and a spec shared by outputs is one entry.
        where = "out_specs" if single or not spec.used_axes() else f"out_specs[{k}]"
        if len(unmentioned) > 1:
            need = ",".join(order_axes(_spec_vma(spec)))
            diff = ",".join(a for a in unmentioned if a in aval.vma)
            got = ",".join(order_axes(aval.vma))
            messages.append(
                f"* {where} is {spec!r} which implies that the corresponding output value is only varying across "
                f"mesh axes {{{need}}} and not {{{diff}}}, but it was inferred to be possibly varying over {{{got}}}"
            )
        else:
            messages.append(
                f"* {where} is {spec!r} which implies that the corresponding output value is replicated across "
                f"mesh axis '{unmentioned[0]}', but could not infer replication over any axes"
            )
    messages = list(dict.fromkeys(messages))
    if not messages:
        return
    if len(messages) == 1:
        messages = [messages[0][2:]]
    fun_name = getattr(f, "__name__", str(f))
    raise JaxtypedValueError(
        f"shard_map applied to the function '{fun_name}' was given out_specs which require replication which "
        "can't be statically inferred given the mesh:\n\n"
        f"The mesh given has shape {tuple(mesh.shape[a] for a in mesh.axis_names)} with corresponding axis names "
        f"{mesh.axis_names}.\n\n" + "\n\n".join(messages) + "\n\n"
        "Check if these output values are meant to be replicated over those mesh axes. If not, consider revising "
        "the corresponding out_specs entries. If so, consider disabling the check by passing the check_vma=False "
        "argument to `jax.shard_map`."
    )


def _trace_body(
    f: Callable[..., Any],
    desc: str,
    mesh: Mesh,
    tree: PyTreeDef,
    block_avals: list[ShapedArray],
    out_specs: Specs,
    check_vma: bool,
) -> tuple[ClosedJaxpr[Array], PyTreeDef, list[PartitionSpec]]:
    """The per-device function as a jaxpr over blocks (what ``shard_map``'s
    equation prints): traced with the mesh axis names bound (so that
    collectives are recorded as equations, with their axis sizes known) and,
    with ``check_vma``, the vma rules on for them (JEP 17111)."""
    register_axis_order(mesh.axis_names)
    with contextlib.ExitStack() as scopes:
        if check_vma:
            scopes.enter_context(checking_vma(frozenset(mesh.axis_names)))
        for name in mesh.axis_names:
            scopes.enter_context(transformation_scope(BatchInterpreter(current_interpreter(), BatchAxis(mesh.shape[name], name), desc)))
        staging = StagingInterpreter(current_interpreter(), f"shard_map of {desc}", "shard_map")
        scopes.enter_context(transformation_scope(staging))
        args = [staging.new_arg(aval) for aval in block_avals]
        out = f(*tree_unflatten(tree, args))
        out_leaves, out_tree = tree_flatten(out)
        specs = _broadcast_specs(out_specs, out, "out_specs")
        outs = [to_array(o, f"shard_map of {desc} output") for o in out_leaves]
        if check_vma:
            # An output a spec splits along axes it is invariant along is
            # marked varying there (as JAX does), so that its vma is its spec's.
            outs = [
                o if o.aval.vma >= _spec_vma(spec) else pvary(o, order_axes(_spec_vma(spec) - o.aval.vma))
                for o, spec in zip(outs, specs, strict=True)
            ]
        closed = staging.build(outs)
    for k, (aval, spec) in enumerate(zip(closed.jaxpr.out_avals, specs, strict=True)):
        _check_spec(spec, mesh, aval.shape, f"out_specs entry {k}")
    return closed, out_tree, specs


def _emulate(
    body: Jaxpr,
    desc: str,
    mesh: Mesh,
    operands: Sequence[Array],
    in_specs: tuple[PartitionSpec, ...],
    out_specs: tuple[PartitionSpec, ...],
    check_vma: bool,
) -> list[Array]:
    """``body`` applied to every block, as nested named vmaps over the
    blocked operands (see Note [shard_map as nested vmaps])."""
    values = list(operands)
    if mesh.size > 1:
        # Under jit, the partitioner lays the inputs out as the specs say.
        values = [_constrain(x, mesh, s) for x, s in zip(values, in_specs)]
    blocked = [_block(x, s, mesh, f"in_specs entry {i}") for i, (x, s) in enumerate(zip(values, in_specs))]
    names = mesh.axis_names

    def level(i: int, values: list[Array]) -> list[Array]:
        if i == len(names):
            return list(eval_jaxpr(body, (), *values))
        name = names[i]
        size = mesh.shape[name]
        interp = BatchInterpreter(current_interpreter(), BatchAxis(size, name), desc)
        with transformation_scope(interp):
            boxed = [interp.box(v, 0 if name in s.used_axes() else None) for v, s in zip(values, in_specs)]
            outs = level(i + 1, boxed)
            pairs = [interp.unbox(o) for o in outs]
        results: list[Array] = []
        for (v, d), spec in zip(pairs, out_specs, strict=True):
            if name in spec.used_axes():
                results.append(bdim_to_front(v, d, size))
            elif d is None:
                results.append(v)
            else:
                # Invariance was checked statically (check_vma) or is the
                # caller's claim: the first member's block stands for all.
                results.append(index_in_dim(v, 0, d, keepdims=False))
        return results

    outs = level(0, blocked)
    results = [_unblock(o, s, mesh) for o, s in zip(outs, out_specs)]
    if mesh.size > 1:
        # The outputs are laid out as out_specs say (replicated where they name no axis).
        results = [_constrain(r, mesh, s) for r, s in zip(results, out_specs)]
    return results


def _trace_emulation(
    body: Jaxpr,
    desc: str,
    mesh: Mesh,
    in_specs: tuple[PartitionSpec, ...],
    out_specs: tuple[PartitionSpec, ...],
    check_vma: bool,
    in_avals: Sequence[ShapedArray],
) -> ClosedJaxpr[Array]:
    staging = StagingInterpreter(current_interpreter(), f"shard_map of {desc}", "shard_map")
    with transformation_scope(staging):
        args = [staging.new_arg(aval) for aval in in_avals]
        outs = _emulate(body, desc, mesh, args, in_specs, out_specs, check_vma)
        return staging.build(outs)


def _inline(closed: ClosedJaxpr[Array], args: Sequence[Array]) -> tuple[Array, ...]:
    return eval_jaxpr(closed.jaxpr, closed.consts, *args)


def _padded(spec: PartitionSpec, ndim: int) -> list[AxisSpec]:
    return [spec[d] if d < len(spec) else None for d in range(ndim)]


@final
@dataclass(frozen=True, slots=True)
class ShardMap(Primitive):
    """``shard_map`` as one equation (JAX's ``shard_map`` primitive).

    Note [shard_map's own rules]: every rule works on the body: ``jvp`` is
    a shard_map of the body's jvp (tangents split as their primals),
    partial evaluation splits the body into a known and an unknown
    shard_map passing residuals as blocks (each residual gets a leading
    axis split over the mesh axes it varies along), ``transpose`` is a shard_map of the
    body's transpose, and ``vmap`` is a shard_map of the batched body (the
    batch axis unsplit, first). With ``check_vma`` the transpose needs
    nothing more: ``psum_invariant`` and ``pvary`` are each other's
    transpose (JEP 17111), so an invariant cotangent is not summed. Without
    it invariance is unknown: cotangents of replicated outputs are divided
    by their number of copies and those of replicated inputs summed (the
    JEP's "current" transpose). Evaluation compiles the equation for the
    mesh's devices; lowering emits a manual-sharding region (one-device
    meshes use the emulation, Note [shard_map as nested vmaps]).

    Attributes:
        jaxpr: the per-device function over blocks, constants first (what
            the equation prints; its collectives are equations too).
        mesh, in_specs, out_specs, check_vma: as given to ``shard_map``
            (constants have ``P()``).
        fun_name: the per-device function's name, for messages.
    """

    name: ClassVar[str] = "shard_map"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False  # hashing a jaxpr costs O(size)
    jaxpr: Jaxpr
    mesh: Mesh
    in_specs: tuple[PartitionSpec, ...]
    out_specs: tuple[PartitionSpec, ...]
    check_vma: bool
    fun_name: str

    def global_in_avals(self) -> tuple[ShapedArray, ...]:
        """The operands' types: the blocks' types concatenated over the specs' axes."""
        return tuple(
            ShapedArray(_global_shape(a.shape, s, self.mesh), a.dtype, a.weak_type)
            for a, s in zip(self.jaxpr.in_avals, self.in_specs, strict=True)
        )

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_operand_types(f"shard_map of {self.fun_name}", avals, self.global_in_avals())
        return tuple(
            ShapedArray(_global_shape(a.shape, s, self.mesh), a.dtype, a.weak_type)
            for a, s in zip(self.jaxpr.out_avals, self.out_specs, strict=True)
        )

    def emulation(self) -> ClosedJaxpr[Array]:
        """The program over global values, as nested named vmaps (cached)."""
        key = ("shard_map emulation", self.jaxpr, self.mesh, self.in_specs, self.out_specs, self.check_vma)
        return cached_value(
            key,
            lambda: _trace_emulation(
                self.jaxpr, self.fun_name, self.mesh, self.in_specs, self.out_specs, self.check_vma, self.global_in_avals()
            ),
        )

    def _with(self, jaxpr: Jaxpr, in_specs: Sequence[PartitionSpec], out_specs: Sequence[PartitionSpec]) -> "ShardMap":
        return ShardMap(jaxpr, self.mesh, tuple(in_specs), tuple(out_specs), self.check_vma, self.fun_name)

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        if _eager_runner is not None and self.mesh.size > 1:
            return _eager_runner(self, args)
        return evaluate_eagerly(lambda: _inline(self.emulation(), args))

    def _bind_closed(
        self, closed: ClosedJaxpr[Array], in_specs: Sequence[PartitionSpec], out_specs: Sequence[PartitionSpec], args: Sequence[Array]
    ) -> tuple[Array, ...]:
        """A shard_map of a derived body (its constants passed replicated)."""
        consts = [to_array(c, "shard_map constant") for c in closed.consts]
        prim = self._with(consts_as_invars(closed.jaxpr), [PartitionSpec()] * len(consts) + list(in_specs), out_specs)
        return bind(prim, *consts, *args)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        nonzero = tuple(not isinstance(t, Zero) for t in tangents)
        closed, out_nonzero = cached_transform(("shard_map jvp", self.jaxpr, nonzero), lambda: jvp_jaxpr(self.jaxpr, nonzero))
        in_specs = [*self.in_specs, *(s for s, nz in zip(self.in_specs, nonzero) if nz)]
        out_specs = [*self.out_specs, *(s for s, nz in zip(self.out_specs, out_nonzero) if nz)]
        operands = [*primals, *(t for t in tangents if not isinstance(t, Zero))]
        outs = self._bind_closed(closed, in_specs, out_specs, operands)
        n = len(self.out_specs)
        tangent_iter = iter(outs[n:])
        out_avals = self.abstract_eval(tuple(p.aval for p in primals))
        out_tangents: list[Tangent] = [
            next(tangent_iter) if nz else Zero(aval.to_tangent_aval()) for nz, aval in zip(out_nonzero, out_avals)
        ]
        return tuple(outs[:n]), tuple(out_tangents)

    @override
    def partial_eval_split(self, unknowns: tuple[bool, ...]) -> PartialEvalSplit | None:
        split = cached_value(("shard_map partial_eval", self.jaxpr, unknowns), lambda: _split_body(self.jaxpr, unknowns))
        known_jaxpr, unknown_jaxpr, out_unknowns, num_res = split
        # Each residual's new leading axis is split over the mesh axes it
        # varies along (all of them without check_vma, where vma is unknown);
        # an invariant residual is passed replicated, without a gather.
        res_avals = unknown_jaxpr.in_avals[:num_res]
        res_specs = [
            PartitionSpec(order_axes(a.vma) if a.vma else None) if self.check_vma
            else PartitionSpec(tuple(self.mesh.axis_names))
            for a in res_avals
        ]  # fmt: skip
        known_in = [s for s, u in zip(self.in_specs, unknowns) if not u]
        unknown_in = [s for s, u in zip(self.in_specs, unknowns) if u]
        known_out = [s for s, u in zip(self.out_specs, out_unknowns) if not u]
        unknown_out = [s for s, u in zip(self.out_specs, out_unknowns) if u]
        known = self._with(known_jaxpr, known_in, [*known_out, *res_specs])
        unknown = self._with(unknown_jaxpr, [*res_specs, *unknown_in], unknown_out)
        return PartialEvalSplit(known, unknown, out_unknowns, num_res)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        linear = tuple(isinstance(a, UndefinedPrimal) for a in args)
        ct_nonzero = tuple(not isinstance(ct, Zero) for ct in cts)
        closed, nonzero = cached_transform(
            ("shard_map transpose", self.jaxpr, linear, ct_nonzero), lambda: transpose_jaxpr(self.jaxpr, linear, ct_nonzero)
        )
        in_specs = [s for s, lin in zip(self.in_specs, linear) if not lin]
        in_specs += [s for s, nz in zip(self.out_specs, ct_nonzero) if nz]
        linear_specs = [s for s, lin in zip(self.in_specs, linear) if lin]
        out_specs = [s for s, nz in zip(linear_specs, nonzero) if nz]
        if not self.check_vma:
            n_nonlinear = len(args) - sum(linear)
            ct_specs = [s for s, nz in zip(self.out_specs, ct_nonzero) if nz]
            closed = cached_value(
                ("shard_map unchecked transpose", closed.jaxpr, tuple(ct_specs), tuple(out_specs)),
                lambda: self._rescaled(closed, n_nonlinear, ct_specs, out_specs),
            )
        return run_transposed(lambda operands: self._bind_closed(closed, in_specs, out_specs, operands), cts, args, nonzero)

    def _rescaled(
        self, closed: ClosedJaxpr[Array], n_nonlinear: int, ct_specs: Sequence[PartitionSpec], out_specs: Sequence[PartitionSpec]
    ) -> ClosedJaxpr[Array]:
        """Without check_vma invariance is unknown, so the transposed body is
        made correct for any body (JEP 17111's "current" transpose): the
        cotangent of an output a spec leaves replicated along some axes is
        divided by their size (every device's copy receives it), and the
        cotangent of an input replicated along some axes is summed over them."""
        staging = StagingInterpreter(current_interpreter(), f"transpose of shard_map of {self.fun_name}", "shard_map")
        with transformation_scope(staging):
            ins: list[Array] = [staging.new_arg(aval) for aval in closed.jaxpr.in_avals]
            cts = ins[n_nonlinear:]
            for k, spec in enumerate(ct_specs):
                copies = math.prod(self.mesh.shape[a] for a in self.mesh.axis_names if a not in spec.used_axes())
                if copies > 1 and dtypes.is_inexact(cts[k].dtype):
                    cts[k] = div(cts[k], constant_like_scalar(cts[k], copies))
            outs = list(eval_jaxpr(closed.jaxpr, closed.consts, *ins[:n_nonlinear], *cts))
            for k, spec in enumerate(out_specs):
                replicated = tuple(a for a in self.mesh.axis_names if a not in spec.used_axes())
                if replicated and dtypes.is_inexact(outs[k].dtype):
                    outs[k] = bind1(Psum(replicated), outs[k])
            return staging.build(outs)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        # The batch axis comes first and is not split: each device's block
        # holds every example of it.
        moved = [x if d is None else bdim_to_front(x, d, axis.size) for x, d in zip(args, dims)]
        front = tuple(None if d is None else 0 for d in dims)
        block_avals = tuple(
            a if d is None else a.update(shape=(axis.size, *a.shape)) for a, d in zip(self.jaxpr.in_avals, front)
        )
        key = ("shard_map vmap", self.jaxpr, front, block_avals, axis.size, hashable_or_id(axis.name))
        closed, _ = cached_transform(
            key, lambda: batch_jaxpr(self.jaxpr, axis, block_avals, front, (True,) * len(self.out_specs))
        )
        in_specs = [
            s if d is None else PartitionSpec(None, *_padded(s, a.ndim)) for s, d, a in zip(self.in_specs, front, self.jaxpr.in_avals)
        ]
        out_specs = [PartitionSpec(None, *_padded(s, a.ndim)) for s, a in zip(self.out_specs, self.jaxpr.out_avals)]
        outs = self._bind_closed(closed, in_specs, out_specs, moved)
        return outs, (0,) * len(outs)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        program_mesh = spmd_lowering_mesh()
        if program_mesh is not None and self.mesh.size > 1 and program_mesh.device_list == self.mesh.device_list:
            return self._lower_manual(ctx, args, out_avals)
        # On one device the blocks are the emulation's array operations.
        emulation = self.emulation()
        consts: list[HloValue] = []
        for c in emulation.consts:
            if type(c) is not ArrayImpl:
                raise AssertionError("internal error: a shard_map lowered with traced constants")
            consts.append(ctx.constant(host_buffer(c), c.aval))
        return lower_jaxpr_inline(ctx, emulation.jaxpr, consts, args)

    def _lower_manual(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        """The body as a Shardy manual-sharding region over every mesh axis
        (as JAX lowers shard_map): the operands enter as their blocks, the
        collectives become StableHLO collectives over the mesh's devices."""
        mesh = ManualMesh(self.mesh.axis_names, tuple(self.mesh.shape[a] for a in self.mesh.axis_names))
        with ctx.region(self.jaxpr.in_avals) as (blocks, body):
            with manual_lowering(mesh):
                outs = lower_jaxpr_inline(ctx, self.jaxpr, (), blocks)
            ctx.ret(outs, "sdy.return")
        attrs = {
            "in_shardings": _sharding_per_value(self.in_specs, [a.aval.ndim for a in args]),
            "manual_axes": "#sdy<manual_axes{" + ", ".join(f'"{a}"' for a in self.mesh.axis_names) + "}>",
            "out_shardings": _sharding_per_value(self.out_specs, [a.ndim for a in out_avals]),
        }
        return ctx.op("sdy.manual_computation", args, out_avals, attrs, body)

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (
            ("check_vma", self.check_vma),
            ("in_specs", self.in_specs),
            ("jaxpr", self.jaxpr),
            ("mesh", self.mesh),
            ("newly_manual_axes", frozenset(self.mesh.axis_names)),
            ("out_specs", self.out_specs),
        )


def _sharding_per_value(specs: Sequence[PartitionSpec], ranks: Sequence[int]) -> str:
    items: list[str] = []
    for spec, ndim in zip(specs, ranks, strict=True):
        dims = ", ".join("{" + ", ".join(f'"{a}"' for a in spec.axes_of(d)) + "}" for d in range(ndim))
        items.append(f"<@mesh, [{dims}]>")
    return "#sdy.sharding_per_value<[" + ", ".join(items) + "]>"


# Eager evaluation compiles the equation for the mesh's devices: the SPMD
# runner lives in a higher layer (api_sharding), which registers it.
_eager_runner: "Callable[[ShardMap, tuple[ArrayImpl, ...]], tuple[ArrayImpl, ...]] | None" = None


def set_eager_runner(run: "Callable[[ShardMap, tuple[ArrayImpl, ...]], tuple[ArrayImpl, ...]]") -> None:
    """Register how an eager shard_map runs over its mesh (api_sharding)."""
    global _eager_runner
    _eager_runner = run


def _constrain(x: Array, mesh: Mesh, spec: PartitionSpec) -> Array:
    return bind1(ShardingConstraint(NamedSharding(mesh, spec)), x)


def _split_body(jaxpr: Jaxpr, unknowns: tuple[bool, ...]) -> tuple[Jaxpr, Jaxpr, tuple[bool, ...], int]:
    """The body split by partial evaluation, each residual given a leading
    axis of size 1 (split between the two shard_maps over the mesh axes it
    varies along, so that each device gets back its own block, scalars
    included)."""
    split = partial_eval_jaxpr(jaxpr, unknowns)
    n_known_out = len(split.known.outvars) - split.num_res
    staging = StagingInterpreter(current_interpreter(), "shard_map residuals", "shard_map")
    with transformation_scope(staging):
        args = [staging.new_arg(aval) for aval in split.known.in_avals]
        outs = list(eval_jaxpr(split.known, (), *args))
        outs[n_known_out:] = [reshape(r, (1, *r.shape)) for r in outs[n_known_out:]]
        known = consts_as_invars(staging.build(outs).jaxpr) if not staging.build(outs).consts else None
    if known is None:
        raise AssertionError("internal error: a shard_map's known part closed over constants")
    res_avals = split.unknown.in_avals[: split.num_res]
    staging = StagingInterpreter(current_interpreter(), "shard_map residuals", "shard_map")
    with transformation_scope(staging):
        res = [staging.new_arg(aval.update(shape=(1, *aval.shape))) for aval in res_avals]
        rest = [staging.new_arg(aval) for aval in split.unknown.in_avals[split.num_res :]]
        flat = [reshape(r, aval.shape) for r, aval in zip(res, res_avals)]
        closed = staging.build(list(eval_jaxpr(split.unknown, (), *flat, *rest)))
    if closed.consts:
        raise AssertionError("internal error: a shard_map's unknown part closed over constants")
    return known, closed.jaxpr, split.out_unknowns, split.num_res
