"""``shard_map``: per-device code over a mesh (layer L4, JEP 14273).

``shard_map(f, mesh=m, in_specs=..., out_specs=...)`` splits each input into
blocks along the mesh axes its ``PartitionSpec`` names (an input is
replicated along the axes it does not name), applies ``f`` to every block
(one application per mesh position), and concatenates the results along the
axes each output spec names. Inside ``f`` the mesh axis names are bound, so
collectives (``psum``, ``all_gather``, ``ppermute``, ...) communicate over
them.

Note [shard_map as nested vmaps]: the mesh positions are enumerated by one
``vmap`` per mesh axis (outermost: the mesh's first axis), each binding its
axis name, on the blocked inputs. So ``f`` runs once on abstract blocks, the
collectives take their meaning from their batching rules, and every
transformation (``jit``, ``jvp``, ``grad``, ``vmap``, ``make_jaxpr``) applies
to the result as to any other array program. Inputs and outputs carry
sharding constraints of their specs, so under ``jit`` the program runs over
the mesh's devices (the SPMD path of ``jit``) with the layouts the specs
name; the blocks are not lowered as a manual-sharding region (no
``sdy.manual_computation``), so XLA's partitioner decides the communication.

An output spec that leaves out a mesh axis claims that the value is the
same on every device along it; with ``check_vma`` (the default) an output
that varies along such an axis is an error naming the output and the axis
(JEP 17111); without it, the block of the first device along the axis is
returned.
"""

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, TypeVar, cast

from typing_extensions import ParamSpec

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import to_array
from jaxtyped._src.core.avals import BatchAxis
from jaxtyped._src.core.interpreter import current_interpreter, transformation_scope
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.interpreters.batching import BatchInterpreter
from jaxtyped._src.lax.convenience import index_in_dim
from jaxtyped._src.lax.structural import bdim_to_front, reshape, transpose
from jaxtyped._src.core.interpreter import bind1
from jaxtyped._src.lax.parallel import ShardingConstraint
from jaxtyped._src.sharding import Mesh, NamedSharding, PartitionSpec, current_mesh
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten
from jaxtyped._src.util import describe_function

__all__ = ["shard_map", "Specs"]

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
        if the_mesh.size > 1:
            # Under jit, the partitioner lays the inputs out as the specs say.
            for i, (x, s) in enumerate(zip(arrays, arg_specs)):
                _check_blocks(x.shape, s, the_mesh, f"in_specs entry {i}")
            arrays = [_constrain(x, the_mesh, s) for x, s in zip(arrays, arg_specs)]
        blocked = [_block(x, s, the_mesh, f"in_specs entry {i}") for i, (x, s) in enumerate(zip(arrays, arg_specs))]
        result = _run(f, desc, the_mesh, tree, blocked, arg_specs, out_specs, check_vma)
        return cast(R, result)

    return mapped


def _run(
    f: Callable[..., Any],
    desc: str,
    mesh: Mesh,
    tree: PyTreeDef,
    blocked: list[Array],
    arg_specs: list[PartitionSpec],
    out_specs: Specs,
    check_vma: bool,
) -> object:
    names = mesh.axis_names
    out_cell: list[tuple[PyTreeDef, list[PartitionSpec]]] = []

    def level(i: int, values: list[Array]) -> list[Array]:
        if i == len(names):
            out = f(*tree_unflatten(tree, values))
            out_leaves, out_tree = tree_flatten(out)
            out_cell.append((out_tree, _broadcast_specs(out_specs, out, "out_specs")))
            return [to_array(o, f"shard_map of {desc} output") for o in out_leaves]
        name = names[i]
        size = mesh.shape[name]
        interp = BatchInterpreter(current_interpreter(), BatchAxis(size, name), desc)
        with transformation_scope(interp):
            boxed = [interp.box(v, 0 if name in s.used_axes() else None) for v, s in zip(values, arg_specs)]
            outs = level(i + 1, boxed)
            pairs = [interp.unbox(o) for o in outs]
        _, specs = out_cell[0]
        results: list[Array] = []
        for k, ((v, d), spec) in enumerate(zip(pairs, specs, strict=True)):
            if name in spec.used_axes():
                results.append(bdim_to_front(v, d, size))
            elif d is None:
                results.append(v)
            elif check_vma:
                raise JaxtypedValueError(
                    f"shard_map of {desc}: out_specs {spec!r} for output {k} does not name mesh axis {name!r}, "
                    f"so the output must be the same on every device along {name!r}, but it varies along "
                    f"{name!r}; name the axis in out_specs, reduce over it (lax.psum), or pass check_vma=False"
                )
            else:
                results.append(index_in_dim(v, 0, d, keepdims=False))
        return results

    outs = level(0, blocked)
    out_tree, specs = out_cell[0]
    for k, (o, spec) in enumerate(zip(outs, specs)):
        _check_spec(spec, mesh, o.shape[len([a for a in names if a in spec.used_axes()]) :], f"out_specs entry {k}")
    results = [_unblock(o, s, mesh) for o, s in zip(outs, specs)]
    if mesh.size > 1:
        # The outputs are laid out as out_specs say (replicated where they name no axis).
        results = [_constrain(r, mesh, s) for r, s in zip(results, specs)]
    return tree_unflatten(out_tree, results)


def _constrain(x: Array, mesh: Mesh, spec: PartitionSpec) -> Array:
    return bind1(ShardingConstraint(NamedSharding(mesh, spec)), x)
