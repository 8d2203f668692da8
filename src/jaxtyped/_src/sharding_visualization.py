"""Which device holds which block of an array (layer L5): JAX's
``jax.debug.inspect_array_sharding``, ``visualize_sharding`` and
``visualize_array_sharding``.

``inspect_array_sharding(value, callback=f)`` calls ``f`` with the sharding
of every array of ``value``: at once for concrete arrays; under ``jit`` as
soon as the layout is known, as JAX does (see Note [when the callback
runs]). ``visualize_sharding(shape, sharding)`` prints a grid of the
array's blocks, each labelled with the devices holding it (``CPU 0``;
``CPU 0,1`` for a block two devices hold), and ``visualize_array_sharding``
draws an array's own layout through ``inspect_array_sharding``, so it works
under ``jit`` too.

The grid is plain text, without the ``rich`` package JAX draws it with: the
picture JAX prints where the console has no colours (output captured or
redirected): a box-drawn table whose cells are sized from the array's
aspect ratio (``scale``, ``min_width``, ``max_width`` as in JAX) and, when
it is wider than ``max_width``, narrowed and wrapped as rich narrows it.
``use_color`` and ``color_map`` are accepted and have no effect: the grid
is never coloured.

Note [when the callback runs]: eagerly, at the call. Under ``jit`` the
layout is known when the program is lowered or compiled, and the callback
runs then (once per compilation, not per call, as in JAX):

- a program on one device: at lowering, with that device's
  ``SingleDeviceSharding`` (JAX passes an equivalent replicated sharding);
- a program over a mesh: while XLA's SPMD partitioner compiles it, with a
  ``NamedSharding`` on the mesh naming the layout the partitioner chose
  for the value (through jaxlib's ``InspectSharding`` custom call, as JAX);
  ``P()`` inside ``shard_map``. A layout no ``PartitionSpec`` on the mesh
  names raises :class:`JaxtypedNotImplementedError` rather than passing a
  wrong sharding.
"""

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import ClassVar, Final, final

from typing_extensions import override

from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.effects import UNORDERED_IO, Effects
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.primitive import Primitive, Tangent
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.runtime import xla
from jaxtyped._src.sharding import (
    Mesh,
    NamedSharding,
    PartitionSpec,
    Sharding,
    SingleDeviceSharding,
    spec_from_tiling,
    spmd_lowering_mesh,
)
from jaxtyped._src.tree_util import tree_leaves

__all__ = [
    "ColorMap",
    "InspectSharding",
    "inspect_array_sharding",
    "visualize_sharding",
    "visualize_array_sharding",
    "sharding_grid",
]

ColorMap = Callable[[float], tuple[float, float, float, float]]
"""A colour map (as matplotlib's): a value in [0, 1] to RGBA. Accepted by
the visualizers for JAX's signature; the plain-text grid has no colours."""


# === the grid ===

# How JAX sizes a cell: its share of the array times a base size (10 rows
# for the whole array at scale 1, its width scaled by the aspect ratio), a
# character being about 2.5 times as tall as it is wide.
_BASE_ROWS: Final = 10
_CHAR_ASPECT: Final = 2.5


@final
@dataclass(frozen=True, slots=True)
class _Cell:
    """One block of the grid: its label and the blank space around it."""

    label: str
    top: int
    right: int
    bottom: int
    left: int


def _chunk_index(size: int, index: slice) -> int:
    """Which block along a dimension of ``size`` the slice ``index`` is."""
    if index.start is None and index.stop is None:
        return 0
    start, stop = int(index.start or 0), int(size if index.stop is None else index.stop)
    return start // (stop - start)


def _cells(
    shape: tuple[int, ...], sharding: Sharding, scale: float, min_width: int, max_width: int
) -> list[list[_Cell]]:
    """The grid's cells, row by row, as JAX's visualize_sharding lays them out."""
    platform = sharding.device_list[0].platform.upper()
    base_rows = int(_BASE_ROWS * scale)
    aspect = (shape[1] if len(shape) == 2 else 1) / shape[0]
    base_cols = int(base_rows * aspect)
    holders: dict[tuple[int, int], set[int]] = {}
    heights: dict[tuple[int, int], float | None] = {}
    widths: dict[tuple[int, int], float] = {}
    for device, index in sharding.devices_indices_map(shape).items():
        spans = [
            (int(s.stop if s.stop is not None else size) - int(s.start or 0)) for s, size in zip(index, shape)
        ]
        chunk = tuple(_chunk_index(size, s) for s, size in zip(index, shape))
        if len(shape) == 2:
            key = (chunk[0], chunk[1])
            heights[key] = spans[0] / shape[0]
            widths[key] = spans[1] / shape[1]
        else:  # one row; its height is one line
            key = (0, chunk[0])
            heights[key] = None
            widths[key] = spans[0] / shape[0]
        holders.setdefault(key, set()).add(device.id)
    n_rows = max(r for r, _ in holders) + 1
    n_cols = max(c for _, c in holders) + 1
    grid: list[list[_Cell]] = []
    for i in range(n_rows):
        row: list[_Cell] = []
        for j in range(n_cols):
            label = f"{platform} " + ",".join(str(d) for d in sorted(holders[i, j]))
            share = heights[i, j]
            height = 1 if share is None else int(share * base_rows)
            width = min(max(int(widths[i, j] * base_cols * _CHAR_ASPECT), min_width), max_width)
            # The intended width and height include the cell's borders.
            left, extra = divmod(width - len(label) - 2, 2)
            top, extra_rows = divmod(height - 2, 2)
            row.append(_Cell(label, max(top, 0), max(left + extra, 0), max(top + extra_rows, 0), max(left, 0)))
        grid.append(row)
    return grid


# The table is laid out as the rich package lays out JAX's (a cell's width
# is its label's plus its padding; a table too wide for ``max_width`` has
# its widest columns narrowed first, then all evenly, and labels wrap at
# spaces, a word longer than the line being cut), so the pictures agree.

_WORD: Final = re.compile(r"\s*\S+\s*")


def _measure(cell: _Cell, width: int) -> tuple[int, int]:
    """The least and the most width ``cell`` takes when at most ``width`` is free."""
    if width < 1:
        return (0, 0)
    pad = cell.left + cell.right
    if width - pad < 1:
        return (width, width)
    words = cell.label.split()
    least = min(max((len(w) for w in words), default=len(cell.label)), width)
    most = min(len(cell.label), width)
    least, most = min(least + pad, width), min(most + pad, width)
    return (min(least, most), most) if most >= 1 else (0, 0)


def _column_width(column: Sequence[_Cell], width: int) -> int:
    if width < 1:
        return 0
    return min(max(_measure(cell, width)[1] for cell in column), width)


def _reduce(total: int, weights: Sequence[int], limits: Sequence[int], values: Sequence[int]) -> list[int]:
    """Take ``total`` off ``values`` in proportion to ``weights``, at most
    ``limits[i]`` off each."""
    weights = [w if limit else 0 for w, limit in zip(weights, limits)]
    weight_left = sum(weights)
    if not weight_left:
        return list(values)
    left = total
    out: list[int] = []
    for weight, limit, value in zip(weights, limits, values):
        if weight and weight_left > 0:
            taken = min(limit, round(weight * left / weight_left))
            out.append(value - taken)
            left -= taken
            weight_left -= weight
        else:
            out.append(value)
    return out


def _fit(widths: list[int], room: int) -> list[int]:
    """Narrow ``widths`` to sum to at most ``room``: the widest columns
    first, down to the next widest, then all evenly."""
    excess = sum(widths) - room
    while sum(widths) and excess > 0:
        widest = max(widths)
        next_widest = max((w for w in widths if w != widest), default=0)
        if widest == next_widest:
            break
        weights = [1 if w == widest else 0 for w in widths]
        widths = _reduce(excess, weights, [min(excess, widest - next_widest)] * len(widths), widths)
        excess = sum(widths) - room
    if sum(widths) > room:
        widths = _reduce(sum(widths) - room, [1] * len(widths), widths, widths)
    return widths


def _wrap(text: str, width: int) -> list[str]:
    """``text`` in lines of exactly ``width`` characters: broken before a
    word that does not fit; a word longer than a line gets a line of its
    own, cut short with an ellipsis."""
    lines: list[str] = [""]
    for word in _WORD.findall(text):
        used, length = len(lines[-1]), len(word.rstrip())
        if width - used >= length:
            lines[-1] += word
        elif used:  # on a line of its own (cut below if longer than one)
            lines.append(word)
        else:
            lines[-1] += word
    out: list[str] = []
    for line in lines:
        if len(line) > width:  # trailing spaces past the width go
            line = line[: max(width, len(line.rstrip()))]
        if len(line) > width:
            line = line[: width - 1] + "\u2026"
        out.append(line.ljust(width))
    return out


def _render(cell: _Cell, width: int) -> list[str]:
    """The lines of ``cell`` in a column ``width`` wide (not yet padded to it)."""
    text_width = min(len(cell.label), width) if width >= 1 else 0
    own = min(text_width + cell.left + cell.right, width)
    inner = own - cell.left - cell.right
    text: list[str] = []
    if inner >= 1:
        block = min(len(cell.label), inner)
        before = (inner - block) // 2
        text = [" " * before + line + " " * (inner - block - before) for line in _wrap(cell.label, block)]
    blank = " " * max(own, 0)
    return (
        [blank] * cell.top
        + [" " * cell.left + line + " " * cell.right for line in text]
        + [blank] * cell.bottom
    )


def _table(grid: list[list[_Cell]], max_width: int) -> str:
    n_cols = len(grid[0])
    room = max_width - (n_cols + 1)  # the borders take a column each
    columns = [[row[j] for row in grid] for j in range(n_cols)]
    widths = [_column_width(column, room) or 1 for column in columns]
    if sum(widths) > room:
        widths = _fit(widths, room)
        widths = [_column_width(column, w) for column, w in zip(columns, widths)]
    lines = ["┌" + "┬".join("─" * w for w in widths) + "┐"]
    for i, row in enumerate(grid):
        rendered = [_render(cell, w) for cell, w in zip(row, widths)]
        height = max(1, *(len(r) for r in rendered))
        for k in range(height):
            parts = [(r[k] if k < len(r) else "")[:w].ljust(w) for r, w in zip(rendered, widths)]
            lines.append("│" + "│".join(parts) + "│")
        if i < len(grid) - 1:
            lines.append("├" + "┼".join("─" * w for w in widths) + "┤")
    lines.append("└" + "┴".join("─" * w for w in widths) + "┘")
    return "\n".join(lines) + "\n"


def _check_shape(shape: Sequence[int], where: str) -> tuple[int, ...]:
    dims = tuple(int(d) for d in shape)
    if not 1 <= len(dims) <= 2:
        raise JaxtypedValueError(
            f"`visualize_sharding` only works for shapes with 1 and 2 dimensions. ({where}: got shape {dims})"
        )
    if 0 in dims:
        raise JaxtypedValueError(f"{where}: cannot draw an array with a dimension of size 0 (shape {dims})")
    return dims


def sharding_grid(
    shape: Sequence[int],
    sharding: Sharding,
    *,
    scale: float = 1.0,
    min_width: int = 9,
    max_width: int = 80,
) -> str:
    """The text :func:`visualize_sharding` prints (ending in a newline)."""
    dims = _check_shape(shape, "visualize_sharding")
    if not isinstance(sharding, Sharding):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise JaxtypedTypeError(f"visualize_sharding: sharding must be a Sharding, got {type(sharding).__name__}")
    if isinstance(sharding, NamedSharding):
        sharding.check_shape(dims, "visualize_sharding")  # as JAX: the mesh axes must divide the dimensions
    return _table(_cells(dims, sharding, scale, min_width, max_width), max_width)


def visualize_sharding(
    shape: Sequence[int],
    sharding: Sharding,
    *,
    use_color: bool = True,
    scale: float = 1.0,
    min_width: int = 9,
    max_width: int = 80,
    color_map: ColorMap | None = None,
) -> None:
    """Print which devices hold which block of an array of ``shape`` laid
    out as ``sharding`` says (JAX's ``jax.debug.visualize_sharding``), for
    arrays of rank 1 or 2: a grid of the blocks, each labelled with the
    devices holding it (``CPU 0``; ``CPU 0,1`` for a block held twice).
    ``scale`` sizes the cells (1: the whole array about 10 lines high),
    ``min_width``/``max_width`` bound a cell's and the table's width, as in
    JAX. ``use_color`` and ``color_map`` are accepted but the grid is never
    coloured: it is the picture JAX prints on a console without colours.

    Raises:
        JaxtypedValueError: ``shape`` has a rank other than 1 or 2, a
            dimension of size 0, or a dimension the sharding's mesh axes
            do not divide.

    Example:
        >>> import jaxtyped as jt
        >>> from jaxtyped.sharding import SingleDeviceSharding
        >>> jt.debug.visualize_sharding((8,), SingleDeviceSharding(jt.devices()[0]))
        ┌───────┐
        │ CPU 0 │
        └───────┘
    """
    del use_color, color_map  # never coloured (module docstring)
    print(sharding_grid(shape, sharding, scale=scale, min_width=min_width, max_width=max_width), end="")


# === inspecting a value's sharding ===


@final
class _ShardingCallback:
    """The user's callback, compared by equality where it hashes and by
    identity otherwise (so the primitive holding it hashes)."""

    __slots__ = ("fun", "_hashable")

    def __init__(self, fun: Callable[[Sharding], object]) -> None:
        self.fun = fun
        try:
            hash(fun)
        except TypeError:
            self._hashable = False
        else:
            self._hashable = True

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, _ShardingCallback):
            return False
        if self.fun is other.fun:
            return True
        return self._hashable and other._hashable and bool(self.fun == other.fun)

    def __hash__(self) -> int:
        return hash(self.fun) if self._hashable else id(self.fun)

    def __repr__(self) -> str:
        return repr(self.fun)


# Per (callback, mesh, rank): the key of the custom call that calls it back
# (so that lowering a program again gives the same text).
_keys: dict[tuple[_ShardingCallback, Mesh, int], bytes] = {}


def _on_tiling(callback: _ShardingCallback, mesh: Mesh, ndim: int) -> Callable[[xla.HloTiling], None]:
    # As JAX: the sharding is named on the program's devices and axis names
    # (axis types not carried: Auto) by its shortest spec.
    auto_mesh = Mesh(mesh.devices, mesh.axis_names)

    def call(tiling: xla.HloTiling) -> None:
        if tiling.manual:
            spec: PartitionSpec | None = PartitionSpec()
        else:
            spec = spec_from_tiling(mesh, ndim, tiling.dims, tiling.devices, tiling.replicated)
        if spec is None:
            raise JaxtypedNotImplementedError(
                f"inspect_array_sharding: the partitioner laid a value of rank {ndim} out as tiles {list(tiling.dims)} "
                f"over devices {list(tiling.devices)}, which no PartitionSpec on {mesh} names"
            )
        entries = list(spec)
        while entries and entries[-1] is None:
            entries.pop()
        callback.fun(NamedSharding(auto_mesh, PartitionSpec(*entries)))

    return call


def _mlir_bytes(data: bytes) -> str:
    """``data`` as an MLIR string literal (every byte escaped)."""
    return '"' + "".join(f"\\{b:02X}" for b in data) + '"'


@final
@dataclass(frozen=True, slots=True)
class InspectSharding(Primitive):
    """Call ``callback`` with its operand's sharding when it is known (JAX's
    ``inspect_sharding``): eagerly at once, under ``jit`` at lowering or
    compile time (Note [when the callback runs]). No results; an IO effect
    keeps it from being dropped as dead code."""

    name: ClassVar[str] = "inspect_sharding"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False  # callbacks hash by identity; nothing to gain
    callback: _ShardingCallback

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        return ()

    @override
    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        return frozenset({UNORDERED_IO})

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        (value,) = args
        self.callback.fun(value.sharding)
        return ()

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        bind(self, *primals)
        return (), ()

    @override
    def batch(
        self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]
    ) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        bind(self, *args)  # the batched value's sharding, as JAX's rule
        return (), ()

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        (value,) = args
        mesh = spmd_lowering_mesh()
        if mesh is None:
            self.callback.fun(SingleDeviceSharding(xla.default_device()))
            return ()
        if mesh.size == 1:
            self.callback.fun(SingleDeviceSharding(mesh.device_list[0]))
            return ()
        slot = (self.callback, mesh, value.aval.ndim)
        key = _keys.get(slot)
        if key is None:
            key = _keys[slot] = xla.inspect_sharding_key(_on_tiling(self.callback, mesh, value.aval.ndim))
        attrs = {
            "call_target_name": '"InspectSharding"',
            "has_side_effect": "true",
            "backend_config": _mlir_bytes(key),
            "api_version": "1 : i32",
        }
        ctx.op("stablehlo.custom_call", [value], [value.aval], attrs)
        return ()

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("callback", self.callback),)


def inspect_array_sharding(value: object, *, callback: Callable[[Sharding], object]) -> None:
    """Call ``callback`` with the sharding of every array of pytree
    ``value`` (JAX's ``jax.debug.inspect_array_sharding``): at once for
    concrete arrays; under ``jit`` when the layout is known, at lowering
    (a program on one device) or while XLA partitions the program over a
    mesh, once per compilation (see the module's Note [when the callback
    runs]).

    Raises:
        JaxtypedTypeError: a leaf of ``value`` is not an array.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.debug.inspect_array_sharding(jnp.ones(3), callback=print)
        SingleDeviceSharding(device=CpuDevice(id=0), memory_kind=device)
    """
    primitive = InspectSharding(_ShardingCallback(callback))
    for leaf in tree_leaves(value):
        if not isinstance(leaf, Array):
            raise JaxtypedTypeError(
                f"inspect_array_sharding: expected a pytree of arrays, got a leaf of type {type(leaf).__name__}"
            )
        bind(primitive, leaf)


@final
@dataclass(frozen=True, slots=True)
class _Visualizer:
    """The callback :func:`visualize_array_sharding` inspects with (a value,
    so that tracing the same call again gives the same primitive)."""

    shape: tuple[int, ...]
    scale: float
    min_width: int
    max_width: int

    def __call__(self, sharding: Sharding) -> None:
        print(sharding_grid(self.shape, sharding, scale=self.scale, min_width=self.min_width, max_width=self.max_width), end="")


def visualize_array_sharding(
    arr: Array,
    *,
    use_color: bool = True,
    scale: float = 1.0,
    min_width: int = 9,
    max_width: int = 80,
    color_map: ColorMap | None = None,
) -> None:
    """Print the layout of array ``arr`` as :func:`visualize_sharding` does
    (JAX's ``jax.debug.visualize_array_sharding``), through
    :func:`inspect_array_sharding`: eagerly at once, under ``jit`` when the
    program is lowered or compiled. The keyword arguments are
    :func:`visualize_sharding`'s.

    Raises:
        JaxtypedValueError: ``arr`` has a rank other than 1 or 2 (at once,
            also under ``jit``).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> jt.debug.visualize_array_sharding(jnp.arange(4.0))
        ┌───────┐
        │ CPU 0 │
        └───────┘
    """
    del use_color, color_map  # never coloured (module docstring)
    if not isinstance(arr, Array):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise JaxtypedTypeError(f"visualize_array_sharding: expected an array, got {type(arr).__name__}")
    shape = _check_shape(arr.shape, "visualize_array_sharding")
    inspect_array_sharding(arr, callback=_Visualizer(shape, float(scale), int(min_width), int(max_width)))
