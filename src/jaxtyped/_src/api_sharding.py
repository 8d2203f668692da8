"""Programs over several devices (layer L5, issue 17): ``make_mesh`` and the
SPMD path of ``jit``.

A jitted call runs over a mesh when it is given ``in_shardings`` or
``out_shardings``, when an argument is sharded over several devices, or
when the traced program holds a sharding constraint. Then the jaxpr is
lowered with a Shardy mesh and a ``sdy.sharding`` per parameter (each
argument's layout: the requested one, the array's own, or replicated) and
per requested result, compiled for the mesh's devices (one partition each,
XLA's Shardy partitioner), and run on buffers spanning them. Results keep
the layout the partitioner chose, named back as a ``PartitionSpec`` on the
mesh.

Note [donation over a mesh]: a donated argument (``donate_argnums``) is a
buffer donor of the program (``jax.buffer_donor``) and is consumed by the
call when it already has its parameter's layout and XLA reuses its buffer
for a result (JAX deletes such an argument too); one no result can reuse
stays alive, and when every result's layout is known (asked for, or on an
Explicit mesh) the first call warns as JAX does ("Some donated buffers
were not usable", naming the per-device shard); one that has another
layout (an array on one device, say) is copied to that layout, the copy
is what the program consumes, and the argument stays alive, as JAX keeps
it.
"""

import math
import re
import threading
from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final, TypeVar, cast, final, overload

import numpy as np

from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import (
    ArrayImpl,
    DeviceBuffer,
    array_from_sharded,
    device_buffer,
    host_buffer,
)
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.core.interpreter import (
    EVAL,
    EvalInterpreter,
    Tracer,
    bind,
    bind1,
    current_interpreter,
    set_sharded_evaluator,
    transformation_scope,
)
from jaxtyped._src.api_device import device_put
from jaxtyped._src.api_util import ShapeDtypeStruct
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.interpreters.staging import StagingInterpreter
from jaxtyped._src.lax.parallel import ShardingConstraint
from jaxtyped._src.shard_map import ShardMap, set_eager_runner
from jaxtyped._src.lowering import lower_jaxpr, warn_unusable_donation
from jaxtyped._src.monitoring import JAXPR_TO_MLIR_MODULE_EVENT, compiling, timed_event
from jaxtyped._src.pjit import check_donated_once, consts_as_invars, consume_donated
from jaxtyped._src.runtime import xla
from jaxtyped._src.tree_util import PyTreeDef, broadcast_prefix, tree_flatten, tree_unflatten
from jaxtyped._src.sharding import (
    AxisType,
    ContextMeshState,
    Mesh,
    NamedSharding,
    PartitionSpec,
    Sharding,
    SingleDeviceSharding,
    context_mesh,
    named_on_current_mesh,
    normalize_axis_types,
    restore_context_mesh,
    sdy_mesh,
    spec_for_rank,
    spec_from_tiling,
    spmd_lowering,
    swap_context_mesh,
)

__all__ = [
    "make_mesh",
    "set_mesh",
    "get_mesh",
    "reshard",
    "create_device_mesh",
    "ShardingLike",
    "ShardingsArg",
    "SpmdRequest",
    "spmd_request",
    "find_constraint_mesh",
    "execute_spmd",
    "lower_spmd_text",
    "SpmdPlan",
    "SpmdProgram",
    "plan_spmd",
]

ShardingLike = Sharding | PartitionSpec
"""A sharding, or a ``PartitionSpec`` on the mesh of the enclosing ``with mesh:``."""

ShardingsArg = ShardingLike | Sequence[ShardingLike | None] | None
"""``jit``'s ``in_shardings``/``out_shardings``: one for everything, or one per
positional argument (per element of a tuple output), or None."""


def make_mesh(
    axis_shapes: Sequence[int],
    axis_names: Sequence[str],
    axis_types: Sequence[AxisType] | None = None,
    *,
    devices: Sequence[xla.Device] | None = None,
) -> Mesh:
    """A mesh of the given shape over the first ``prod(axis_shapes)``
    devices, in device order (JAX's ``jax.make_mesh``; its axes are
    ``Explicit`` unless ``axis_types`` says otherwise)."""
    shape = tuple(int(s) for s in axis_shapes)
    names = tuple(axis_names)
    if len(shape) != len(names):
        raise JaxtypedValueError(f"make_mesh: {len(shape)} axis sizes but {len(names)} axis names")
    pool = list(devices) if devices is not None else xla.devices()
    size = math.prod(shape)
    if size > len(pool):
        raise JaxtypedValueError(
            f"make_mesh: a mesh of shape {shape} needs {size} devices, but there are {len(pool)}; "
            'set jt.config.update("jax_num_cpu_devices", N) before the first use'
        )
    grid = np.empty(size, dtype=object)
    for i, device in enumerate(pool[:size]):
        grid[i] = device
    types = normalize_axis_types(names, axis_types, "make_mesh", AxisType.Explicit)
    return Mesh(grid.reshape(shape), names, types)


def create_device_mesh(
    mesh_shape: Sequence[int],
    devices: Sequence[xla.Device] | None = None,
    *,
    contiguous_submeshes: bool = False,
    allow_split_physical_axes: bool = False,
) -> "np.ndarray[tuple[int, ...], np.dtype[np.object_]]":
    """The devices laid out in the shape ``mesh_shape``, for ``Mesh`` (JAX's
    ``jax.experimental.mesh_utils.create_device_mesh``): a NumPy object
    array of ``devices`` (default: all devices) in their order, as JAX
    builds it on CPU. ``contiguous_submeshes`` and
    ``allow_split_physical_axes`` are accepted for JAX's signature; they
    concern TPU topologies and change nothing on CPU.

    Raises:
        JaxtypedValueError: ``mesh_shape`` is not a sequence of ints, or its
            product is not the number of devices.

    Example:
        >>> import jaxtyped as jt
        >>> from jaxtyped.experimental import mesh_utils
        >>> mesh_utils.create_device_mesh((1,), jt.devices()[:1]).shape
        (1,)
    """
    del contiguous_submeshes, allow_split_physical_axes  # TPU topology options
    pool: list[xla.Device] = list(devices) if devices is not None else xla.devices()
    shape: list[int] = []
    for size in mesh_shape:
        try:
            shape.append(int(size))
        except (TypeError, ValueError):
            raise JaxtypedValueError(
                f"`mesh_shape` passed to `create_device_mesh` should be a sequence of ints. Got {mesh_shape}"
            ) from None
    if math.prod(shape) != len(pool):
        raise JaxtypedValueError(
            f"create_device_mesh: number of devices {len(pool)} must equal the product of mesh_shape {tuple(shape)}"
        )
    grid: np.ndarray[tuple[int, ...], np.dtype[np.object_]] = np.empty(len(pool), dtype=np.object_)
    for i, device in enumerate(pool):
        grid[i] = device
    return grid.reshape(tuple(shape))


@final
class set_mesh:  # noqa: N801 - JAX's name
    """Make ``mesh`` the context's mesh (JAX's ``jax.set_mesh``), as a
    global setter or as a context manager: bare ``PartitionSpec``\\ s
    (``jit``'s shardings, ``with_sharding_constraint``, ``reshard``) refer
    to it, ``get_abstract_mesh()`` returns ``mesh.abstract_mesh`` and
    ``jaxtyped.sharding.get_mesh()`` returns it. ``set_mesh(None)`` clears
    it; leaving a ``with set_mesh(mesh):`` block restores the previous one.
    Only outside ``jit`` (and other transformations).

    Example:
        >>> import jaxtyped as jt
        >>> mesh = jt.make_mesh((1,), ("x",))
        >>> with jt.set_mesh(mesh):
        ...     print(jt.sharding.get_abstract_mesh().axis_names)
        ('x',)
        >>> jt.sharding.get_abstract_mesh().empty
        True
    """

    __slots__ = ("_previous",)

    def __init__(self, mesh: Mesh | None) -> None:
        if mesh is not None and not isinstance(mesh, Mesh):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
            raise JaxtypedValueError(f"set_mesh: expected mesh of type `jaxtyped.sharding.Mesh`. Got {type(mesh)}")
        if not isinstance(current_interpreter(), EvalInterpreter):
            raise JaxtypedValueError("`set_mesh` can only be used outside of `jaxtyped.jit`.")
        if mesh is not None and AxisType.Manual in mesh.axis_types:
            raise JaxtypedValueError(
                f"set_mesh: mesh {mesh} contains manual axes which is not allowed when using `set_mesh`. Please use "
                "`jaxtyped.shard_map` to enter into `Manual` mode instead."
            )
        self._previous: ContextMeshState = swap_context_mesh(mesh)

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        restore_context_mesh(self._previous)


def get_mesh() -> Mesh | None:
    """The mesh ``set_mesh`` set (JAX's ``jax.sharding.get_mesh``), or None
    when none is set (JAX returns an empty ``Mesh`` there: jaxtyped has no
    empty mesh). ``with mesh:`` does not set it. Only outside ``jit``."""
    if not isinstance(current_interpreter(), EvalInterpreter):
        raise JaxtypedValueError(
            "`get_mesh` can only be used outside of `jaxtyped.jit`. Maybe you want "
            "`jaxtyped.sharding.get_abstract_mesh()`?"
        )
    return context_mesh()


T = TypeVar("T")


def _is_sharding_leaf(x: object) -> bool:
    return isinstance(x, (Sharding, PartitionSpec))


def _reshard_target(sharding: object, ndim: int) -> NamedSharding:
    """The ``NamedSharding`` ``reshard`` lays a value of rank ``ndim`` out as."""
    if sharding is None:
        raise JaxtypedValueError(
            "reshard: out_shardings must be non-None shardings with a non-empty mesh. Got sharding None."
        )
    if isinstance(sharding, PartitionSpec):
        mesh = context_mesh()
        if mesh is None:
            raise JaxtypedValueError(
                "reshard: using a PartitionSpec when you are not under a mesh context is not allowed. Please pass a "
                f"NamedSharding instance or enter into a mesh context via `jaxtyped.set_mesh`. Got {sharding!r}"
            )
        named = NamedSharding(mesh, sharding)
    elif isinstance(sharding, NamedSharding):
        named = sharding
    else:
        raise JaxtypedTypeError(
            "reshard: the `out_shardings` argument only supports instances of `NamedSharding` or `PartitionSpec`. "
            f"Got {sharding!r} of type: {type(sharding).__name__}"
        )
    mesh, spec = named.mesh, named.spec
    for name in spec.used_axes():
        kind = mesh.axis_types[mesh.axis_names.index(name)]
        if kind is not AxisType.Explicit:
            raise JaxtypedValueError(
                "PartitionSpec passed to reshard cannot contain axis names that are of type Auto or Manual. "
                f"Got PartitionSpec: {spec!r} with axis name: {name} of type: {kind}"
            )
    if len(spec) > ndim:
        raise JaxtypedValueError(
            f"reshard: {spec!r} has {len(spec)} entries, but the array has rank {ndim}"
        )
    return named.with_spec(spec_for_rank(spec, ndim))  # as JAX: the spec names every dimension


@overload
def reshard(xs: ArrayLike, out_shardings: object) -> Array: ...
@overload
def reshard(xs: T, out_shardings: object) -> T: ...
def reshard(xs: object, out_shardings: object) -> object:
    """Lay out every array of pytree ``xs`` as ``out_shardings`` says (JAX's
    ``jax.sharding.reshard``): a ``NamedSharding`` or a ``PartitionSpec``
    on the mesh of ``set_mesh``, one for every leaf or a tree prefix of
    ``xs``. Eagerly the arrays are moved (a ``device_put``); under ``jit``
    it is a sharding constraint (JAX also needs ``set_mesh`` around such a
    ``jit`` when the sharding is a ``NamedSharding``; jaxtyped does not).
    The mesh axes the specs name must be ``Explicit`` (``make_mesh``'s
    default), as in JAX. Values are unchanged.

    Raises:
        JaxtypedValueError: a spec without a mesh (no ``set_mesh``), a
            sharding None, an axis that is not Explicit, a spec longer than
            the array's rank or a dimension the mesh axes do not divide, or
            ``out_shardings`` not a tree prefix of ``xs``.
        JaxtypedTypeError: a sharding that is not a ``NamedSharding``.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> from jaxtyped.sharding import P
        >>> with jt.set_mesh(jt.make_mesh((1,), ("x",))):
        ...     jt.sharding.reshard({"w": jnp.arange(4.0)}, {"w": P("x")})
        {'w': Array([0., 1., 2., 3.], dtype=float32)}
    """
    leaves, tree = tree_flatten(xs)
    if out_shardings is None or _is_sharding_leaf(out_shardings):
        targets: list[object] = [out_shardings] * len(leaves)
    else:
        targets = broadcast_prefix(
            out_shardings, xs, _is_sharding_leaf, what="reshard", prefix_name="out_shardings", full_name="xs"
        )
    outs: list[object] = []
    for leaf, target in zip(leaves, targets, strict=True):
        if isinstance(leaf, Array):
            shape = leaf.shape
        else:
            host: np.ndarray[tuple[int, ...], np.dtype[np.generic]] = np.asarray(leaf)
            shape = tuple(int(d) for d in host.shape)
        sharding = _reshard_target(target, len(shape))
        sharding.check_shape(shape, "reshard")
        if isinstance(leaf, Tracer) and isinstance(leaf, Array):
            outs.append(bind1(ShardingConstraint(sharding), leaf))  # under a transformation: a constraint
        else:
            outs.append(device_put(leaf, sharding))
    return tree_unflatten(tree, outs)


@final
@dataclass(frozen=True, slots=True)
class SpmdRequest:
    """What a jitted function asked for: per dynamic argument leaf and per
    output leaf a sharding, or None (unspecified)."""

    in_shardings: tuple[Sharding | None, ...] | None
    out_shardings: tuple[Sharding | None, ...] | None
    constraint_mesh: Mesh | None


def _resolve(sharding: object, where: str) -> Sharding | None:
    if sharding is None:
        return None
    if isinstance(sharding, PartitionSpec):
        return named_on_current_mesh(sharding, where)
    if isinstance(sharding, Sharding):
        return sharding
    raise JaxtypedTypeError(f"{where}: expected a Sharding, a PartitionSpec or None, got {type(sharding).__name__}")


def _per_leaf(spec: object, groups: Sequence[int], where: str) -> tuple[Sharding | None, ...] | None:
    """One sharding per leaf from ``spec``, given the leaf count of each
    top-level group (positional argument, tuple element)."""
    if spec is None:
        return None
    total = sum(groups)
    if isinstance(spec, (Sharding, PartitionSpec)):
        return (_resolve(spec, where),) * total
    if not isinstance(spec, (tuple, list)):
        raise JaxtypedTypeError(f"{where}: expected a Sharding, a sequence of them or None, got {type(spec).__name__}")
    items: list[object] = list(cast(Sequence[object], spec))
    if len(items) != len(groups):
        raise JaxtypedValueError(f"{where}: {len(items)} shardings for {len(groups)} values")
    result: list[Sharding | None] = []
    for item, count in zip(items, groups):
        result += [_resolve(item, where)] * count
    return tuple(result)


def spmd_request(
    desc: str,
    shardings: tuple[ShardingsArg, ShardingsArg],
    closed: ClosedJaxpr,
    tree: PyTreeDef,
    leaves: Sequence[object],
    out_leaves: Sequence[object],
    out: object,
) -> SpmdRequest | None:
    """What a traced jit entry needs to run over a mesh, or None when it
    runs on one device (no shardings given, no constraint inside)."""
    in_spec, out_spec = shardings
    constraint_mesh = find_constraint_mesh(closed.jaxpr)
    if in_spec is None and out_spec is None and constraint_mesh is None:
        return None
    dyn_args, dyn_kwargs = tree_unflatten(tree, list(leaves))
    in_groups = [len(tree_flatten(a)[0]) for a in dyn_args]
    kw_leaves = len(leaves) - sum(in_groups)
    in_shardings = _per_leaf(in_spec, in_groups, f"jit of {desc}: in_shardings")
    if in_shardings is not None and kw_leaves:
        in_shardings = in_shardings + (None,) * kw_leaves
    if isinstance(out, (tuple, list)) and not isinstance(out_spec, (Sharding, PartitionSpec)):
        out_groups = [len(tree_flatten(o)[0]) for o in cast(Sequence[object], out)]
    else:
        out_groups = [len(out_leaves)]
    out_shardings = _per_leaf(out_spec, out_groups, f"jit of {desc}: out_shardings")
    del dyn_kwargs
    return SpmdRequest(in_shardings, out_shardings, constraint_mesh)


def find_constraint_mesh(jaxpr: Jaxpr) -> Mesh | None:
    """The mesh of the first sharding constraint in ``jaxpr`` (nested
    jaxprs included), if any."""
    for eqn in jaxpr.eqns:
        prim = eqn.primitive
        if isinstance(prim, ShardingConstraint) and not isinstance(prim.sharding, SingleDeviceSharding):
            return prim.sharding.mesh_of
        if isinstance(prim, ShardMap) and prim.mesh.size > 1:
            return prim.mesh
        for _, value in prim.params():
            inner = value.jaxpr if isinstance(value, ClosedJaxpr) else value
            if isinstance(inner, Jaxpr):
                found = find_constraint_mesh(inner)
                if found is not None:
                    return found
    return None


def _program_mesh(
    request: SpmdRequest | None, layouts: Sequence[Sharding | None], name: str, avals: Sequence[ShapedArray]
) -> Mesh:
    """The one mesh a call runs over: the requested shardings' and the
    laid-out arguments' (``avals`` are the arguments' types, for the error
    when they disagree, as JAX's "incompatible devices")."""
    candidates: list[tuple[Mesh, str]] = []
    if request is not None:
        for s in (*(request.in_shardings or ()), *(request.out_shardings or ())):
            if s is not None and not isinstance(s, SingleDeviceSharding):
                candidates.append((s.mesh_of, "a requested sharding"))
        if request.constraint_mesh is not None:
            candidates.append((request.constraint_mesh, "a sharding constraint"))
    for i, layout in enumerate(layouts):
        if layout is not None:
            candidates.append((layout.mesh_of, f"argument {i} ({avals[i].str_short()})"))
    if not candidates:
        raise AssertionError("internal error: an SPMD call without a mesh")
    mesh, source = candidates[0]
    for other, other_source in candidates[1:]:
        if other.device_list != mesh.device_list:
            raise JaxtypedValueError(
                f"jit of {name}: incompatible devices: {source} is on devices "
                f"{[d.id for d in mesh.device_list]} and {other_source} on devices "
                f"{[d.id for d in other.device_list]}; move them to the same devices with device_put"
            )
    return mesh


def _target(requested: Sharding | None, own: Sharding | None, mesh: Mesh) -> NamedSharding:
    if isinstance(requested, NamedSharding):
        return requested
    if requested is None and isinstance(own, NamedSharding) and own.mesh == mesh:
        return own
    return NamedSharding(mesh, PartitionSpec())


def _layout(arg: object) -> Sharding | None:
    """A multi-device array's layout, or the one a ``ShapeDtypeStruct``'s
    sharding asks for; None for anything else (one device, Python
    scalars)."""
    if type(arg) is ArrayImpl:
        layout: Sharding | None = arg._sharding  # pyright: ignore[reportPrivateUsage]  # set only for multi-device arrays
        return layout
    if isinstance(arg, ShapeDtypeStruct) and arg.sharding is not None and not isinstance(arg.sharding, SingleDeviceSharding):
        return arg.sharding
    return None


_HEADER: Final = re.compile(r"^(  func\.func public @main\()(.*)(\) -> \()(.*)(\) \{)$")


def _split_top_level(text: str) -> list[str]:
    parts: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in text:
        if ch in "<({[":
            depth += 1
        elif ch in ">)}]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if current and "".join(current).strip():
        parts.append("".join(current).strip())
    return parts


def _with_attr(item: str, attr: str) -> str:
    if item.endswith("}") and " {" in item:
        return item[:-1] + ", " + attr + "}"
    return f"{item} {{{attr}}}"


def lower_spmd_text(
    jaxpr: Jaxpr,
    name: str,
    mesh: Mesh,
    arg_shardings: Sequence[NamedSharding],
    result_shardings: Sequence[Sharding | None],
    donated: Sequence[bool] = (),
) -> str:
    """StableHLO text of ``jaxpr`` for a program over ``mesh``: the Shardy
    mesh, an ``sdy.sharding`` on every parameter and on each requested
    result (the single-device lowering, annotated; ``donated[i]`` marks
    parameter ``i`` as a buffer donor, see Note [donation over a mesh])."""
    with spmd_lowering(mesh):
        lowered = lower_jaxpr(jaxpr, name=name, donated=donated, match_donated=False)
    lines = lowered.text.split("\n")
    lines[0] = lines[0].replace("mhlo.num_partitions = 1 : i32", f"mhlo.num_partitions = {mesh.size} : i32")
    for i, line in enumerate(lines):
        match = _HEADER.match(line)
        if match is None:
            continue
        params = _split_top_level(match.group(2))
        results = _split_top_level(match.group(4))
        arg_iter = iter(arg_shardings)
        for k, param in enumerate(params):
            if param.startswith("%arg"):
                aval_ndim = _rank_of(param)
                params[k] = _with_attr(param, f"sdy.sharding = {next(arg_iter).sdy_sharding(aval_ndim)}")
        offset = len(results) - len(result_shardings)  # a leading token, when the program has one
        for k, sharding in enumerate(result_shardings):
            if sharding is not None:
                ndim = _rank_of(results[offset + k])
                results[offset + k] = _with_attr(results[offset + k], f"sdy.sharding = {sharding.sdy_sharding(ndim)}")
        lines[i] = match.group(1) + ", ".join(params) + match.group(3) + ", ".join(results) + match.group(5)
        break
    lines.insert(1, f"  {sdy_mesh(mesh)}")
    return "\n".join(lines)


def _rank_of(typed: str) -> int:
    # Count the leading ``<size>x`` dimensions only: element types such as
    # ``complex<f32>`` contain an "x" themselves.
    match = re.search(r"tensor<((?:\d+x)*)", typed)
    if match is None:
        return 0
    return match.group(1).count("x")


@final
@dataclass(frozen=True, slots=True)
class SpmdProgram:
    """A compiled SPMD program and the layouts of its results."""

    executable: xla.SpmdExecutable
    out_shardings: tuple[NamedSharding, ...]
    # Not empty once a call warned that donated buffers were not usable
    # (once per program, as JAX warns once per lowering).
    warned: list[bool] = field(default_factory=list[bool], compare=False)


_PROGRAMS_MAX: Final = 256
_programs: "OrderedDict[tuple[object, ...], SpmdProgram]" = OrderedDict()
_programs_lock = threading.Lock()


def clear_program_cache() -> None:
    """Drop every compiled mesh program (``jt.clear_caches``)."""
    with _programs_lock:
        _programs.clear()


def _program(
    jaxpr: Jaxpr,
    name: str,
    mesh: Mesh,
    targets: tuple[NamedSharding, ...],
    outs: tuple[Sharding | None, ...],
    donated: tuple[bool, ...],
) -> SpmdProgram:
    key = (jaxpr, name, mesh, targets, outs, donated)
    with _programs_lock:
        hit = _programs.get(key)
        if hit is not None:
            _programs.move_to_end(key)
            return hit
    with timed_event(JAXPR_TO_MLIR_MODULE_EVENT, f"jit({name})"):
        text = lower_spmd_text(jaxpr, name, mesh, targets, outs, donated)
    in_avals = tuple(v.aval for v in jaxpr.invars)
    with compiling(f"jit({name})"):
        executable = xla.compile_spmd_module(text, in_avals, jaxpr.out_avals, mesh.device_list)
    out_shardings: list[NamedSharding] = []
    for aval, requested, (dims, devices, replicated) in zip(jaxpr.out_avals, outs, executable.out_tilings, strict=True):
        if isinstance(requested, NamedSharding):
            out_shardings.append(requested)
            continue
        spec = spec_from_tiling(mesh, aval.ndim, dims, devices, replicated) or PartitionSpec()
        if AxisType.Explicit not in mesh.axis_types:
            # JAX names a result on Auto axes by its shortest spec.
            entries = list(spec)
            while entries and entries[-1] is None:
                entries.pop()
            spec = PartitionSpec(*entries)
        out_shardings.append(NamedSharding(mesh, spec))
    program = SpmdProgram(executable, tuple(out_shardings))
    with _programs_lock:
        _programs[key] = program
        while len(_programs) > _PROGRAMS_MAX:
            _programs.popitem(last=False)
    return program


@final
@dataclass(frozen=True, slots=True)
class SpmdPlan:
    """A traced jit entry laid out over a mesh: its jaxpr (constants
    first, as parameters), the layout of every parameter and the requested
    layout of each result, and which parameters are donated (see Note
    [donation over a mesh]). ``jit(...).lower()`` shows its module and
    ``.compile()`` compiles it; calls run it."""

    name: str
    jaxpr: Jaxpr
    mesh: Mesh
    targets: tuple[NamedSharding, ...]
    outs: tuple[Sharding | None, ...]
    donated: tuple[bool, ...]  # per parameter (constants first)

    def text(self) -> str:
        """The annotated StableHLO module (generic syntax)."""
        return lower_spmd_text(self.jaxpr, self.name, self.mesh, self.targets, self.outs, self.donated)

    def compile(self) -> "SpmdProgram":
        """The program compiled for the mesh's devices (cached)."""
        return _program(self.jaxpr, self.name, self.mesh, self.targets, self.outs, self.donated)

    def results_laid_out(self) -> bool:
        """Whether every result's layout is known before compiling (asked
        for, or typed on an Explicit mesh): only then does JAX match donated
        shards to results and warn about those left over (else XLA takes
        every donated parameter as a buffer donor, silently)."""
        return AxisType.Explicit in self.mesh.axis_types or all(isinstance(o, NamedSharding) for o in self.outs)

    def run(self, program: "SpmdProgram", arrays: Sequence[ArrayImpl]) -> tuple[ArrayImpl, ...]:
        """Run ``program`` on concrete constants and arguments (moved to
        their parameter's layout when they have another one); donated
        arguments already laid out so are deleted afterwards (Note
        [donation over a mesh])."""
        buffers: list[DeviceBuffer] = []
        consumed: list[bool] = []
        for a, target, donate in zip(arrays, self.targets, self.donated, strict=True):
            if a._sharding == target:  # pyright: ignore[reportPrivateUsage]
                if donate and a._buffer is not None:  # pyright: ignore[reportPrivateUsage]  # this layer's array
                    # A cached host view of the buffer is an external
                    # reference: jaxlib would copy the buffer instead of
                    # reusing it (as on one device, pjit.run_executable).
                    a._value = None  # pyright: ignore[reportPrivateUsage]
                buffers.append(device_buffer(a))
                consumed.append(donate)
            else:  # a copy in the parameter's layout: the program consumes the copy
                buffers.append(xla.put_sharded(host_buffer(a), a.aval, target))
                consumed.append(False)
        if any(consumed):
            if len({id(a) for a in arrays}) != len(arrays):  # an array passed twice: refused if donated
                check_donated_once(arrays, consumed, self.name)
            results = program.executable.execute(buffers)
            unusable = consume_donated(arrays, consumed, buffers)
            if unusable is not None and not program.warned and self.results_laid_out():  # Note [donation over a mesh]
                program.warned.append(True)
                warn_unusable_donation(
                    [arrays[i].aval.update(shape=self.targets[i].shard_shape(arrays[i].aval.shape)) for i in unusable]
                )
        else:
            results = program.executable.execute(buffers)
        return tuple(
            array_from_sharded(buffer, aval, sharding)
            for buffer, aval, sharding in zip(results, self.jaxpr.out_avals, program.out_shardings, strict=True)
        )


def plan_spmd(
    name: str,
    closed: ClosedJaxpr,
    args: Sequence[object],
    request: SpmdRequest | None,
    donated: Sequence[bool] = (),
) -> SpmdPlan | None:
    """How a traced jit entry runs over a mesh for arguments ``args`` (its
    dynamic leaves: arrays, scalars or ``ShapeDtypeStruct``\\ s; ``donated``
    says which are donated, none when empty), or None when it runs on one
    device (nothing asked for a mesh, no argument spans several devices)."""
    layouts = [_layout(a) for a in args]
    if request is None and all(layout is None for layout in layouts):
        return None
    mesh = _program_mesh(request, layouts, name, closed.jaxpr.in_avals)
    requested_in = request.in_shardings if request is not None and request.in_shardings is not None else None
    targets: list[NamedSharding] = [NamedSharding(mesh, PartitionSpec()) for _ in closed.consts]
    for i, (layout, aval) in enumerate(zip(layouts, closed.jaxpr.in_avals, strict=True)):
        target = _target(requested_in[i] if requested_in is not None else None, layout, mesh)
        target.check_shape(aval.shape, f"jit of {name}")
        targets.append(target)
    n_out = len(closed.jaxpr.outvars)
    outs: tuple[Sharding | None, ...] = (
        request.out_shardings if request is not None and request.out_shardings is not None else (None,) * n_out
    )
    donated_params = (False,) * len(closed.consts) + (tuple(donated) if donated else (False,) * len(args))
    return SpmdPlan(name, consts_as_invars(closed.jaxpr), mesh, tuple(targets), outs, donated_params)


def execute_spmd(
    name: str, closed: ClosedJaxpr, args: Sequence[object], request: SpmdRequest | None, donated: Sequence[bool] = ()
) -> tuple[ArrayImpl, ...]:
    """Run a traced jit entry over a mesh (see the module docstring);
    ``donated`` (per argument, none when empty) as ``donate_argnums`` says
    (Note [donation over a mesh])."""
    consts = [c for c in closed.consts if isinstance(c, ArrayImpl)]
    if len(consts) != len(closed.consts):
        raise AssertionError("internal error: an SPMD call closing over traced values")
    arrays: list[ArrayImpl] = []
    for a in args:
        if type(a) is not ArrayImpl:
            raise JaxtypedTypeError(f"jit of {name}: expected a concrete array, got {type(a).__name__}")
        assert isinstance(a, ArrayImpl)
        arrays.append(a)
    # A jitted function called again with arguments laid out as before
    # reuses its plan and program: no re-planning, no hashing of the jaxpr.
    layouts = tuple([_layout(a) for a in arrays])
    donated_args = tuple(donated) if any(donated) else ()
    hit = _last_plans.get(id(closed))
    if hit is not None and hit[0] is closed and hit[1] is request and hit[2] == layouts and hit[3] == donated_args:
        plan, program = hit[4], hit[5]
    else:
        found = plan_spmd(name, closed, arrays, request, donated_args)
        if found is None:
            raise AssertionError("internal error: an SPMD call without a mesh")
        plan, program = found, found.compile()
        with _programs_lock:
            _last_plans[id(closed)] = (closed, request, layouts, donated_args, plan, program)
            while len(_last_plans) > _PROGRAMS_MAX:
                _last_plans.pop(next(iter(_last_plans)))
    return plan.run(program, [*consts, *arrays])


# Per traced jit entry (by identity; the entry is kept so its id stays its
# own): the latest (request, argument layouts, donated arguments, plan, program).
_last_plans: "dict[int, tuple[ClosedJaxpr, SpmdRequest | None, tuple[Sharding | None, ...], tuple[bool, ...], SpmdPlan, SpmdProgram]]" = {}


def _run_shard_map(prim: ShardMap, args: tuple[ArrayImpl, ...]) -> tuple[ArrayImpl, ...]:
    """An eager ``shard_map``: its one equation compiled as a program over
    the mesh (the body a manual-sharding region) and run there, as JAX's
    eager shard_map does; results keep the layouts the out_specs name."""
    staging = StagingInterpreter(EVAL, f"shard_map of {prim.fun_name}", "shard_map")
    with transformation_scope(staging):
        outs = bind(prim, *(staging.new_arg(a.aval) for a in args))
        closed = staging.build(list(outs))
    return execute_spmd(f"shard_map_{prim.fun_name}", closed, args, SpmdRequest(None, None, prim.mesh))


set_eager_runner(_run_shard_map)


# One-equation programs of eager primitives on multi-device arrays, by
# (primitive, operand types): the compiled programs are cached by jaxpr.
_EAGER_MAX: Final = 1024
_eager_jaxprs: "OrderedDict[tuple[Primitive, tuple[object, ...]], ClosedJaxpr]" = OrderedDict()


def _run_sharded(prim: Primitive, args: tuple[ArrayImpl, ...]) -> tuple[ArrayImpl, ...] | None:
    """An eager primitive with an operand spanning several devices, run as
    a program over them whose results keep the partitioner's layouts (as
    JAX's eager ops on sharded arrays do); None (evaluate on the host) for
    a primitive with effects or a shard_map (which runs itself)."""
    avals = tuple(a.aval for a in args)
    if isinstance(prim, ShardMap) or prim.effects(avals):
        return None
    key = (prim, avals)
    closed = _eager_jaxprs.get(key)
    if closed is None:
        staging = StagingInterpreter(EVAL, prim.name, "eager")
        with transformation_scope(staging):
            outs = bind(prim, *(staging.new_arg(aval) for aval in avals))
            closed = staging.build(list(outs))
        _eager_jaxprs[key] = closed
        while len(_eager_jaxprs) > _EAGER_MAX:
            _eager_jaxprs.popitem(last=False)
    return execute_spmd(prim.name, closed, args, None)


set_sharded_evaluator(_run_sharded)
