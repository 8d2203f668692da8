"""``pmap``, JAX's parallel map, built as JAX 0.10.2 builds it: a ``jit`` of
a ``shard_map`` over a one-axis mesh of the first ``n`` devices, ``n`` the
size of the mapped axis.

Note [pmap as jit of shard_map]: every mapped argument has its mapped axis
moved to the front and is split over the mesh axis (``P(axis_name)``), so
each device gets a block of size 1 there, which the per-device function
squeezes away before calling ``fun``; unmapped arguments (``in_axes``
None) are replicated (``P()``). ``fun``'s outputs get a leading axis of
size 1 back and are concatenated over the devices; an output whose
``out_axes`` is None takes the first device's value (JAX's shard_map with
``check_vma=False`` returns that block too), and one with ``out_axes=k``
has the mapped axis moved to ``k``. The output structure and its
``out_axes`` are only known once ``fun`` is traced, inside the
``shard_map``, so the per-device function records them for the code after
it. Static arguments are closed over: each static value has its own
jitted program (a new compile, as in JAX).
"""

import functools
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable, Sequence
from typing import Final, TypeVar, cast

import numpy as np
from typing_extensions import ParamSpec

from jaxtyped._src import api_device
from jaxtyped._src.api import AxisSpec, in_axes_prefix
from jaxtyped._src.api_jit import Jitted, jit
from jaxtyped._src.api_util import check_callable
from jaxtyped._src.core.array import Array
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import structural as lax_shapes
from jaxtyped._src.numpy.creation import asarray
from jaxtyped._src.numpy.shape_ops import moveaxis
from jaxtyped._src.runtime import xla
from jaxtyped._src.shard_map import shard_map
from jaxtyped._src.sharding import Mesh, PartitionSpec
from jaxtyped._src.tree_util import PyTreeDef, broadcast_prefix, tree_flatten, tree_leaves, tree_unflatten
from jaxtyped._src.util import describe_function

__all__ = ["pmap"]

P = ParamSpec("P")
R = TypeVar("R")

# JAX's name for the mesh axis of a pmap without an axis_name (visible in
# the results' sharding).
_DEFAULT_AXIS_NAME: Final = "_internal_pmap_axis_name"
# Jitted programs kept per pmapped function: one per static values,
# argument structure, mapped axes and devices (least recently used dropped).
_PROGRAMS_PER_FUNCTION: Final = 64

_ProgramKey = tuple[tuple[int, ...], PyTreeDef, tuple[int | None, ...], Hashable, tuple[int, ...]]


def pmap(
    fun: Callable[P, R],
    axis_name: str | None = None,
    *,
    in_axes: AxisSpec = 0,
    out_axes: AxisSpec = 0,
    static_broadcasted_argnums: int | Iterable[int] = (),
    devices: Sequence[xla.Device] | None = None,
    backend: str | None = None,
    axis_size: int | None = None,
    donate_argnums: int | Iterable[int] = (),
) -> Callable[P, R]:
    """Map ``fun`` over an axis of its arguments, one application per device
    (JAX's ``jax.pmap``; JAX now recommends ``shard_map``, on which this is
    built, see Note [pmap as jit of shard_map]).

    The mapped axis's size ``n`` must be at most the number of devices
    (``jt.config.update("jax_num_cpu_devices", N)`` before the first use
    gives N CPU devices); the first ``n`` devices (or of ``devices``) run
    it. Inside ``fun``, ``axis_name`` names the mapped axis for collectives
    (``lax.psum(x, axis_name)``).

    Args:
        fun: the per-device function.
        axis_name: the mapped axis's name for collectives.
        in_axes: the mapped axis of each positional argument (an int, None
            for a replicated argument, or a tree prefix of the arguments);
            keyword arguments are mapped over axis 0.
        out_axes: where the mapped axis goes in each output (None: the
            output is the same on every device; the first device's is
            returned).
        static_broadcasted_argnums: positional arguments that are static
            (hashable; each value compiles its own program).
        devices: the devices to map over (default: ``jt.devices()``).
        backend: only ``"cpu"`` (or None).
        axis_size: the mapped axis's size, checked against the arguments'.
        donate_argnums: positional arguments whose buffers the program may
            reuse (they are deleted).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.pmap(lambda x: x ** 2)(jnp.arange(1.0))
        Array([0.], dtype=float32)
    """
    check_callable(fun, "pmap")
    if devices is not None:
        if not devices:
            raise JaxtypedValueError("'devices' argument to pmap must be non-empty, or None.")
        devices = tuple(devices)
    if backend is not None and backend != "cpu":
        raise JaxtypedValueError(f"pmap: backend {backend!r} is not available; jaxtyped runs on 'cpu'")
    _check_axes_type(in_axes, "in_axes")
    _check_axes_type(out_axes, "out_axes")
    name = _DEFAULT_AXIS_NAME if axis_name is None else axis_name
    static = _index_tuple(static_broadcasted_argnums, "static_broadcasted_argnums")
    donated = _index_tuple(donate_argnums, "donate_argnums")
    desc = describe_function(fun)
    call: Callable[..., object] = fun  # called with per-device blocks, not P's static types
    programs: OrderedDict[_ProgramKey, Jitted[..., object]] = OrderedDict()

    @functools.wraps(fun)
    def mapped(*args: P.args, **kwargs: P.kwargs) -> R:
        if xla.process_count() > 1:
            raise JaxtypedNotImplementedError(
                f"pmap of {desc}: several processes are not supported; use jit with shardings or shard_map"
            )
        if static and max(static) >= len(args):
            raise JaxtypedValueError(
                f"pmapped function has static_broadcasted_argnums={static} but was called with only "
                f"{len(args)} positional argument{'s' if len(args) != 1 else ''}. All static broadcasted "
                "arguments must be passed positionally."
            )
        dyn_positions = [i for i in range(len(args)) if i not in static]
        dyn_args = tuple(args[i] for i in dyn_positions)
        statics = tuple((i, type(args[i]), args[i]) for i in static)
        try:
            hash(statics)
        except TypeError:
            bad = next(i for i, _, v in statics if not _hashable(v))
            raise JaxtypedValueError(
                f"pmap of {desc}: static_broadcasted_argnums argument {bad} must be hashable, "
                f"got {type(args[bad]).__name__}"
            ) from None
        leaves, in_tree = tree_flatten((dyn_args, kwargs))
        axes = _flat_in_axes(in_axes, static, dyn_positions, len(args), dyn_args, kwargs)
        shapes = [np.shape(leaf) for leaf in leaves]
        axes = tuple(_normalized_axis(ax, shape, i) for i, (ax, shape) in enumerate(zip(axes, shapes)))
        sizes = {shape[ax] for ax, shape in zip(axes, shapes) if ax is not None}
        if not sizes:
            raise JaxtypedValueError("pmap requires at least one argument with a mapped axis.")
        if len(sizes) > 1:
            detail = ", ".join(
                f"leaf {i} of shape {shape} mapped over axis {ax}" for i, (ax, shape) in enumerate(zip(axes, shapes))
                if ax is not None
            )  # fmt: skip
            raise JaxtypedValueError(f"pmap of {desc}: the mapped axes have different sizes: {detail}")
        size = sizes.pop()
        if axis_size is not None and axis_size != size:
            raise JaxtypedValueError(f"Specified axis_size {axis_size} doesn't match received axis_size {size}.")
        pool = devices if devices is not None else tuple(api_device.devices())
        if size > len(pool):
            raise JaxtypedValueError(
                f"pmap of {desc}: the mapped axis has size {size} but only {len(pool)} devices are available "
                '(jt.config.update("jax_num_cpu_devices", N) before the first use gives N CPU devices)'
            )
        mesh_devices = tuple(pool[:size])
        donated_leaves = _donated_leaves(donated, dyn_positions, dyn_args)
        key: _ProgramKey = (tuple(d.id for d in mesh_devices), in_tree, axes, statics, donated_leaves)
        program = programs.get(key)
        if program is None:
            program = _program(call, desc, name, mesh_devices, in_tree, axes, out_axes, dict(
                (i, v) for i, _, v in statics), donated_leaves)  # fmt: skip
            programs[key] = program
            if len(programs) > _PROGRAMS_PER_FUNCTION:
                programs.popitem(last=False)
        else:
            programs.move_to_end(key)
        result: R = program(*leaves)  # type: ignore[assignment]  # the program returns fun's result tree, R  # pyright: ignore[reportAssignmentType]
        return result

    return mapped


def _program(
    fun: Callable[..., object],
    desc: str,
    name: str,
    mesh_devices: tuple[xla.Device, ...],
    in_tree: PyTreeDef,
    axes: tuple[int | None, ...],
    out_axes: AxisSpec,
    statics: dict[int, object],
    donated_leaves: tuple[int, ...],
) -> Jitted[..., object]:
    """The jitted program of one pmap signature (Note [pmap as jit of shard_map])."""
    mesh = Mesh(np.array(mesh_devices, dtype=object), (name,))
    in_specs = tuple(PartitionSpec() if ax is None else PartitionSpec(name) for ax in axes)
    outputs: list[tuple[PyTreeDef, list[int | None]]] = []  # fun's output tree and out_axes, from the trace

    def per_device(*blocks: Array) -> tuple[Array, ...]:
        values = [b if ax is None else lax_shapes.squeeze(b, (0,)) for b, ax in zip(blocks, axes)]
        dyn_args, kwargs = tree_unflatten(in_tree, values)
        positional = list(dyn_args)
        for i in sorted(statics):
            positional.insert(i, statics[i])
        out = fun(*positional, **kwargs)
        out_leaves, out_tree = tree_flatten(out)
        spec = broadcast_prefix(out_axes, out, what=f"pmap of {desc}", prefix_name="out_axes", full_name="output")
        outputs.append((out_tree, spec))
        return tuple(lax_shapes.expand_dims(asarray(leaf), (0,)) for leaf in out_leaves)

    def program(*leaves: object) -> object:
        moved = [asarray(leaf) if ax is None else moveaxis(asarray(leaf), ax, 0) for leaf, ax in zip(leaves, axes)]
        blocks = shard_map(per_device, mesh=mesh, in_specs=in_specs, out_specs=PartitionSpec(name), check_vma=False)(
            *moved
        )
        out_tree, spec = outputs[-1]
        results: list[Array] = []
        for block, ax in zip(blocks, spec):
            if ax is None:
                results.append(block[0])
            else:
                _check_out_axis(ax, block.ndim, desc)
                results.append(moveaxis(block, 0, ax))
        return tree_unflatten(out_tree, results)

    return jit(program, donate_argnums=donated_leaves)


def _check_axes_type(axes: object, what: str) -> None:
    """JAX's check: every leaf of ``in_axes``/``out_axes`` is an int (None is an empty node)."""
    if not all(type(leaf) is int for leaf in tree_leaves(axes)):
        raise JaxtypedTypeError(
            f"pmap {what} must be an int, None, or (nested) container with those types as leaves, but got {axes}."
        )


def _index_tuple(argnums: int | Iterable[int], what: str) -> tuple[int, ...]:
    """``argnums`` as a tuple of non-negative ints."""
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    for n in nums:
        if type(n) is not int or n < 0:
            raise JaxtypedTypeError(f"pmap {what} must be non-negative ints, got {argnums!r}")
    return nums


def _hashable(value: object) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _flat_in_axes(
    in_axes: AxisSpec,
    static: tuple[int, ...],
    dyn_positions: list[int],
    nargs: int,
    dyn_args: tuple[object, ...],
    kwargs: dict[str, object],
) -> tuple[int | None, ...]:
    """The mapped axis of every leaf of ``(dyn_args, kwargs)``: ``in_axes``
    covers all positional arguments (static ones' entries are dropped);
    keyword arguments are mapped over axis 0."""
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    prefix = in_axes_prefix(in_axes, nargs, "pmap")
    if static and isinstance(prefix, tuple):
        prefix = tuple(cast("tuple[object, ...]", prefix)[i] for i in dyn_positions)
    flat = broadcast_prefix(
        (prefix, dict.fromkeys(kwargs, 0)), (dyn_args, kwargs), what="pmap", prefix_name="in_axes", full_name="args"
    )
    return tuple(flat)


def _normalized_axis(axis: int | None, shape: tuple[int, ...], leaf: int) -> int | None:
    """``axis`` in ``[0, ndim)`` (a negative one counts from the end)."""
    if axis is None:
        return None
    if not -len(shape) <= axis < len(shape):
        raise JaxtypedValueError(
            f"pmap was requested to map argument leaf {leaf} along axis {axis}, which implies that its rank "
            f"should be at least {axis + 1 if axis >= 0 else -axis}, but its shape is {shape}"
        )
    return axis % len(shape)


def _check_out_axis(axis: int, ndim: int, desc: str) -> None:
    if not -ndim <= axis < ndim:
        raise JaxtypedValueError(
            f"pmap of {desc}: out_axes {axis} is out of bounds for an output of rank {ndim} (the mapped axis included)"
        )


def _donated_leaves(donated: tuple[int, ...], dyn_positions: list[int], dyn_args: tuple[object, ...]) -> tuple[int, ...]:
    """The flat indices of the leaves of the donated positional arguments
    (keyword arguments are never donated, as in JAX)."""
    if not donated:
        return ()
    indices: list[int] = []
    start = 0
    for position, arg in zip(dyn_positions, dyn_args):
        count = len(tree_leaves(arg))
        if position in donated:
            indices.extend(range(start, start + count))
        start += count
    return tuple(indices)

