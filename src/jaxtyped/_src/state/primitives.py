"""Refs in the IR: the ``Ref{f32[3]}`` type and the primitives ``get``,
``swap``, ``addupdate``, ``new_ref`` and ``freeze`` (issue 16; layer L4).

Note [staged refs]: under an interpreter that stages refs (``make_jaxpr``
and the trace of a ``jit`` call with refs, see :func:`stage_refs_in`), a
:class:`~jaxtyped._src.state.types.Ref` box holds a tracer of type
:class:`AbstractRef` instead of a value, and its reads and writes become
equations printed as JAX prints them (``c:f32[3] <- a[...]``,
``a[0] <- d``, ``a[2,:] += m``), each with its ref effect on operand 0.
A ``scan``/``while_loop``/``cond``/``switch`` body traced inside uses the
staged ref directly (it becomes a ref operand of the loop or branch, as in
JAX). Such a program is made pure by :func:`jaxtyped._src.state.discharge
.run_discharged` (a ref's value becomes an input and its final value an
output; a loop's ref operand a carry), which is what ``jit`` compiles.
Everywhere else (eager code, refs of jvp and vmap) boxes hold values: see
Note [refs are threaded at trace time] in :mod:`jaxtyped._src.state.types`.
Other transformations nested in the staging (vmap, grad, ...) read and
write a staged ref whole, and index the value themselves.

Note [ds on refs]: ``ref[jt.ds(i, n)]`` with a traced ``i`` is a
:class:`DynamicSlice` entry whose start is an index operand, printed as
JAX prints it (``c:f32[2] <- a[b:b+2]``; the stride is not shown). A
static start (a Python int, or a concrete array eagerly) is checked as
JAX's ``NDIndexer`` checks it (``Out of bound slice``, a ``ValueError``;
a negative one is JAX's read error, a ``TypeError``) and becomes a static
:class:`Slice`. A traced start is applied as JAX's discharge applies it
(:func:`read_indexed`, :func:`update_indexed`): with unit strides (and
scalar indices), a ``dynamic_slice``/``dynamic_update_slice``, the start
wrapped when negative and clamped into bounds; with a stride above 1,
index arrays ``start + stride * iota``, each wrapped when negative, reads
clamped and writes out of bounds dropped.

Ref primitives have no evaluation, differentiation, batching or lowering
rules: they only exist in staged programs, which are discharged before
they run or are transformed; a transformation nested inside a staging
interpreter sees a ref tracer as a constant of its parent and forwards
the primitive to it untouched.
"""

import operator
import weakref
from dataclasses import dataclass
from typing import Any, ClassVar, SupportsIndex, cast, final

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ds_size
from jaxtyped._src.core.array import Slice as DsSlice
from jaxtyped._src.core.array_impl import ArrayImpl, array_from_numpy, to_array
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.effects import AccumEffect, Effects, ReadEffect, WriteEffect, no_effects
from jaxtyped._src.core.interpreter import Interpreter
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.errors import JaxtypedIndexError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.lax import arithmetic as la
from jaxtyped._src.lax import structural as ls
from jaxtyped._src.lax.elementwise_base import convert_to
from jaxtyped._src.lax.slicing import dynamic_slice, dynamic_update_slice

__all__ = [
    "AbstractRef",
    "Slice",
    "DynamicIndex",
    "DynamicSlice",
    "IndexEntry",
    "read_indexed",
    "update_indexed",
    "NDIndexer",
    "normalize_index",
    "to_numpy_index",
    "indexed_shape",
    "Get",
    "Swap",
    "AddUpdate",
    "NewRef",
    "Freeze",
    "RefAccess",
    "stage_refs_in",
    "stages_refs",
    "is_ref_aval",
]


# AbstractRef shares ShapedArray's fields (the referenced array's type) and
# only differs in kind: ShapedArray is final for the rest of the code base,
# refs are the one deliberate subtype (the IR's vars and tracers hold avals
# typed ShapedArray, so a ref-typed var needs no change to them).
@final
@dataclass(frozen=True, slots=True)
class AbstractRef(ShapedArray):  # type: ignore[misc]  # pyright: ignore[reportGeneralTypeIssues]  # see the comment above
    """The type of a mutable array reference to arrays of one shape and
    dtype; prints as JAX's ``Ref{f32[3]}``."""

    is_ref: ClassVar[bool] = True

    def __hash__(self) -> int:
        return hash(("Ref", self._hash))

    def str_short(self) -> str:
        """JAX's short form, e.g. ``Ref{f32[3]}``."""
        return "Ref{" + ShapedArray.str_short(self) + "}"

    def __str__(self) -> str:
        return self.str_short()

    @property
    def inner(self) -> ShapedArray:
        """The type of the referenced array."""
        return ShapedArray(self.shape, self.dtype, self.weak_type)

    @staticmethod
    def of(aval: ShapedArray) -> "AbstractRef":
        """The type of refs to arrays of type ``aval``."""
        return AbstractRef(aval.shape, aval.dtype, aval.weak_type)


def is_ref_aval(aval: ShapedArray) -> bool:
    """Whether ``aval`` is the type of a ref."""
    return aval.is_ref


# Interpreters under which new_ref makes a staged ref (Note [staged refs]).
_REF_STAGING: "weakref.WeakSet[Interpreter]" = weakref.WeakSet()


def stage_refs_in(interp: Interpreter) -> None:
    """Make refs created under ``interp`` staged refs (``new_ref`` and
    ``freeze`` equations): only for interpreters whose jaxpr is printed or
    discharged."""
    _REF_STAGING.add(interp)


def stages_refs(interp: Interpreter) -> bool:
    """Whether refs created under ``interp`` are staged."""
    return interp in _REF_STAGING


# === indexers ===


@final
@dataclass(frozen=True, slots=True)
class Slice:
    """A static slice ``start, start+stride, ...`` (``size`` entries) of a
    dimension of size ``dim``."""

    start: int
    size: int
    stride: int
    dim: int

    def __str__(self) -> str:
        # As JAX prints it: the bounds, each omitted when it is the dimension's.
        end = self.start + self.size
        return f"{self.start if self.start else ''}:{end if end != self.dim else ''}"

    def as_slice(self) -> slice:
        """The Python slice selecting the same entries."""
        return slice(self.start, self.start + self.size * self.stride, self.stride)


@final
@dataclass(frozen=True, slots=True)
class DynamicIndex:
    """An integer index array (or scalar) given as an operand."""

    shape: tuple[int, ...]


@final
@dataclass(frozen=True, slots=True)
class DynamicSlice:
    """``size`` entries every ``stride`` from a start given as an integer
    scalar operand (``jt.ds`` with a traced start: Note [ds on refs])."""

    size: int
    stride: int


IndexEntry = int | Slice | DynamicIndex | DynamicSlice
# One entry per dimension of the ref; None: the whole ref (``ref[...]``).
NDIndexer = tuple[IndexEntry, ...] | None


def normalize_index(index: object, shape: tuple[int, ...]) -> tuple[NDIndexer, list[Array]] | None:
    """``index`` of a ref of ``shape`` as a static indexer and its dynamic
    index operands; ``None`` for an index this form does not express (a
    new axis, a boolean mask, a list, an out-of-range int, a negative
    stride): the caller reads the whole ref and indexes the value."""
    items: tuple[object, ...] = index if isinstance(index, tuple) else (index,)  # pyright: ignore[reportUnknownVariableType]
    if index is None or index is Ellipsis or len(items) == 0 or (len(items) == 1 and items[0] is Ellipsis):
        return None, []
    ellipses = [k for k, item in enumerate(items) if item is Ellipsis]
    if len(ellipses) > 1:
        return None
    if ellipses:
        k = ellipses[0]
        fill = len(shape) - (len(items) - 1)
        if fill < 0:
            return None
        items = items[:k] + (slice(None),) * fill + items[k + 1 :]
    if len(items) > len(shape):
        return None
    items = items + (slice(None),) * (len(shape) - len(items))
    entries: list[IndexEntry] = []
    dynamic: list[Array] = []
    for axis, (item, dim) in enumerate(zip(items, shape)):
        entry = _ds_entry(item, axis, shape, dynamic) if isinstance(item, DsSlice) else _entry(item, dim, dynamic)
        if entry is None:
            return None
        entries.append(entry)
    if any(isinstance(e, DynamicSlice) for e in entries) and any(isinstance(e, DynamicIndex) and e.shape for e in entries):
        raise JaxtypedIndexError(
            f"a Ref of shape {shape} indexed by a ds slice with a traced start and an index array: only "
            "integers, slices and integer scalars may be combined with it (index the value read instead)"
        )
    return tuple(entries), dynamic


def _ds_entry(item: DsSlice, axis: int, shape: tuple[int, ...], dynamic: list[Array]) -> IndexEntry:
    """A ``ds`` slice of a ref (Note [ds on refs]), checked as JAX checks it."""
    dim = shape[axis]
    where = f"ds({item.start!r}, {item.size!r}, {item.stride}) on axis {axis} of a Ref of shape {shape}"
    size = ds_size(item.size, where)
    if size < 0:
        raise JaxtypedTypeError(f"{where}: the size must be >= 0, got {size}")
    if item.stride == 0:
        raise JaxtypedValueError(f"{where}: a stride of 0 is not supported when indexing a Ref")
    start = cast(object, item.start)  # checked: any object may have been passed
    if isinstance(start, (bool, np.bool_)) or not isinstance(start, (int, np.integer, Array)):
        raise JaxtypedTypeError(f"{where}: the start must be an integer or an integer scalar array, got {type(item.start).__name__}")
    if isinstance(start, Array) and (start.ndim != 0 or not dtypes.is_integer(start.dtype) or dtypes.is_bool(start.dtype)):
        raise JaxtypedTypeError(f"{where}: the start must be an integer scalar, got {start.aval.str_short()}")
    if item.stride == 1 and size > dim:
        raise JaxtypedTypeError(f"{where}: the size {size} is larger than the axis ({dim})")
    if isinstance(start, Array) and type(start) is not ArrayImpl:
        dynamic.append(start)
        return DynamicSlice(size, item.stride)
    first = int(cast(SupportsIndex, start))  # static, or concrete: checked now, as JAX's NDIndexer checks it
    if first < 0:
        raise JaxtypedTypeError(f"{where}: a static start must be >= 0 (slice start_indices must be nonnegative)")
    if first >= dim or first + (size - 1) * item.stride >= dim:
        # JAX skips its check for a start of 0, and lax.slice then raises a TypeError.
        kind = JaxtypedTypeError if first == 0 else JaxtypedValueError
        raise kind(f"{where}: Out of bound slice: start={first}, size={size}, stride={item.stride}, dim={dim}.")
    return Slice(first, size, item.stride, dim)


def _entry(item: object, dim: int, dynamic: list[Array]) -> IndexEntry | None:
    if isinstance(item, bool) or isinstance(item, np.bool_):
        return None
    if isinstance(item, int) or isinstance(item, np.integer):
        i = operator.index(cast(int, item))
        return i if -dim <= i < dim else None
    if isinstance(item, slice):
        bounds = cast(tuple[object, object, object], (item.start, item.stop, item.step))  # pyright: ignore[reportUnknownMemberType]  # slice's bounds are untyped
        if not all(b is None or (isinstance(b, (int, np.integer)) and not isinstance(b, bool)) for b in bounds):
            return None
        start, stop, step = item.indices(dim)
        if step <= 0:
            return None
        return Slice(start, len(range(start, stop, step)), step, dim)
    if isinstance(item, Array) or isinstance(item, np.ndarray):
        array = to_array(cast(object, item), "Ref index")
        if not dtypes.is_integer(array.dtype):
            return None
        dynamic.append(array)
        return DynamicIndex(array.shape)
    return None


def to_numpy_index(indexer: tuple[IndexEntry, ...], dynamic: tuple[Any, ...]) -> tuple[Any, ...]:
    """The NumPy-style index meaning ``indexer`` with ``dynamic`` for its
    dynamic entries (arrays, or NumPy arrays for shape computations)."""
    operands = iter(dynamic)
    out: list[Any] = []
    for entry in indexer:
        if isinstance(entry, Slice):
            out.append(entry.as_slice())
        elif isinstance(entry, DynamicIndex):
            out.append(next(operands))
        elif isinstance(entry, DynamicSlice):
            raise AssertionError("a dynamic slice has no NumPy index: use read_indexed/update_indexed")
        else:
            out.append(entry)
    return tuple(out)


def indexed_shape(indexer: NDIndexer, shape: tuple[int, ...]) -> tuple[int, ...]:
    """The shape of ``ref[indexer]`` for a ref of ``shape`` (NumPy's rules)."""
    if indexer is None:
        return shape
    # A dynamic slice's shape is that of its first `size` entries.
    static = tuple(Slice(0, e.size, 1, e.size) if isinstance(e, DynamicSlice) else e for e in indexer)
    stand_ins = tuple(np.zeros(e.shape, np.intp) for e in indexer if isinstance(e, DynamicIndex))
    padded = tuple(max(d, e.size) if isinstance(e, DynamicSlice) else d for d, e in zip(shape, indexer))
    probe = np.broadcast_to(np.zeros((), np.int8), padded)
    return tuple(int(d) for d in probe[to_numpy_index(static, stand_ins)].shape)


def _is_dynamic(entry: IndexEntry) -> bool:
    """Whether the entry takes an index operand."""
    return isinstance(entry, (DynamicIndex, DynamicSlice))


def read_indexed(value: Array, indexer: NDIndexer, dynamic: tuple[Array, ...]) -> Array:
    """``value[indexer]`` as a ref read applies it (Note [ds on refs])."""
    if indexer is None:
        return value
    if not any(isinstance(e, DynamicSlice) for e in indexer):
        return value[to_numpy_index(indexer, dynamic)]
    windows = _windows(value, indexer, dynamic)
    if windows is not None:
        starts, sizes, squeezed = windows
        return ls.squeeze(dynamic_slice(value, starts, sizes), squeezed)
    return value[_index_arrays(value, indexer, dynamic)]


def update_indexed(value: Array, indexer: NDIndexer, dynamic: tuple[Array, ...], new: Array, *, add: bool) -> Array:
    """``value`` with ``value[indexer]`` replaced by ``new`` (``add``: plus
    ``new``), as a ref write applies it (Note [ds on refs]); ``new`` has the
    indexed shape (or broadcasts to it, without a dynamic slice)."""
    if indexer is None:
        return value + new if add else new
    if not any(isinstance(e, DynamicSlice) for e in indexer):
        at = value.at[to_numpy_index(indexer, dynamic)]
        return at.add(new) if add else at.set(new)
    windows = _windows(value, indexer, dynamic)
    if windows is not None:
        starts, sizes, squeezed = windows
        block = ls.expand_dims(new, squeezed)
        if add:
            block = dynamic_slice(value, starts, sizes) + block
        return dynamic_update_slice(value, block, starts)
    at = value.at[_index_arrays(value, indexer, dynamic)]
    return at.add(new) if add else at.set(new)


def _int32(index: Array | int) -> Array:
    if isinstance(index, int):
        return array_from_numpy(np.array(index, np.int32))
    return index if index.dtype == np.int32 else convert_to(index, np.dtype(np.int32), weak_type=False)


def _windows(value: Array, indexer: tuple[IndexEntry, ...], dynamic: tuple[Array, ...]) -> tuple[list[Array], list[int], list[int]] | None:
    """The starts, sizes and squeezed axes of the ``dynamic_slice`` an
    indexer of unit strides and scalar indices is; ``None`` for others."""
    operands = iter(dynamic)
    starts: list[Array] = []
    sizes: list[int] = []
    squeezed: list[int] = []
    for axis, (entry, dim) in enumerate(zip(indexer, value.shape)):
        if isinstance(entry, (Slice, DynamicSlice)) and entry.stride != 1:
            return None
        if isinstance(entry, DynamicIndex) and entry.shape:
            return None
        if isinstance(entry, int):
            starts.append(_int32(entry + dim if entry < 0 else entry))
        elif isinstance(entry, Slice):
            starts.append(_int32(entry.start))
        else:
            starts.append(_int32(next(operands)))
        sizes.append(entry.size if isinstance(entry, (Slice, DynamicSlice)) else 1)
        if isinstance(entry, (int, DynamicIndex)):
            squeezed.append(axis)
    return starts, sizes, squeezed


def _index_arrays(value: Array, indexer: tuple[IndexEntry, ...], dynamic: tuple[Array, ...]) -> tuple[Array | int, ...]:
    """The indexer as index arrays (JAX's ``_convert_to_gather_arrays``):
    each slice ``start + stride * iota`` along its own result axis, scalar
    indices as they are; indexing with them wraps negative entries."""
    operands = iter(dynamic)
    sliced = [k for k, e in enumerate(indexer) if isinstance(e, (Slice, DynamicSlice))]
    out: list[Array | int] = []
    for k, entry in enumerate(indexer):
        if isinstance(entry, int):
            out.append(entry)
        elif isinstance(entry, DynamicIndex):
            out.append(next(operands))
        else:
            start = _int32(entry.start if isinstance(entry, Slice) else next(operands))
            steps = la.mul(ls.iota(np.dtype(np.int32), entry.size), _int32(entry.stride))
            later = sum(1 for j in sliced if j > k)
            out.append(ls.broadcast_in_dim(la.add(steps, start), (entry.size, *(1,) * later), (0,)))
    return tuple(out)


def _format_index(indexer: NDIndexer, names: tuple[str, ...]) -> str:
    if indexer is None:
        return "..."
    operands = iter(names)
    parts: list[str] = []
    for entry in indexer:
        if isinstance(entry, DynamicSlice):
            start = next(operands)
            parts.append(f"{start}:{start}+{entry.size}")  # JAX's form; the stride is not shown
        else:
            parts.append(next(operands) if isinstance(entry, DynamicIndex) else str(entry))
    return ",".join(parts)


def _ref_operand(name: str, aval: ShapedArray) -> AbstractRef:
    if not isinstance(aval, AbstractRef):
        raise JaxtypedTypeError(f"{name}: the first operand must be a Ref, got {aval.str_short()}")
    return aval


def _check_dynamic(name: str, indexer: NDIndexer, avals: tuple[ShapedArray, ...]) -> None:
    expected = [e.shape if isinstance(e, DynamicIndex) else () for e in indexer or () if _is_dynamic(e)]
    if len(expected) != len(avals):
        raise JaxtypedTypeError(f"{name}: the indexer takes {len(expected)} index operands, got {len(avals)}")
    for shape, aval in zip(expected, avals):
        if aval.shape != shape or not dtypes.is_integer(aval.dtype):
            raise JaxtypedTypeError(f"{name}: index operand {aval.str_short()} does not match the indexer (int[{shape}])")


class RefAccess(Primitive):
    """What ``get``, ``swap`` and ``addupdate`` share: an indexer, the ref
    as operand 0, and :meth:`discharge` (the access on the ref's value)."""

    __slots__ = ()
    indexer: NDIndexer

    def discharge(self, value: Array, operands: tuple[Array, ...]) -> tuple[Array, tuple[Array, ...]]:
        """The ref's new value and the outputs, given its value and the
        other operands."""
        raise NotImplementedError


def _check_value(name: str, ref: AbstractRef, indexer: NDIndexer, value: ShapedArray) -> None:
    expected = indexed_shape(indexer, ref.shape)
    if value.dtype != ref.dtype:
        raise JaxtypedValueError(f"Invalid dtype for `{name}`. Ref dtype: {ref.dtype.name}. Value dtype: {value.dtype.name}.")
    if value.shape != expected:
        raise JaxtypedValueError(
            f"Invalid shape for `{name}`. Ref shape: {ref.shape}. Expected shape: {expected}. Value shape: {value.shape}."
        )


@final
@dataclass(frozen=True, slots=True)
class Get(RefAccess):
    """``ref[indexer]``: a read of a ref (JAX's ``get``)."""

    indexer: NDIndexer
    name = "get"

    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        ref = _ref_operand("get", avals[0])
        _check_dynamic("get", self.indexer, avals[1:])
        return (ShapedArray(indexed_shape(self.indexer, ref.shape), ref.dtype, ref.weak_type),)

    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        return frozenset({ReadEffect(0)})

    def format_eqn(self, outs: tuple[str, ...], args: tuple[str, ...]) -> str | None:
        return f"{outs[0]} <- {args[0]}[{_format_index(self.indexer, args[1:])}]"

    def discharge(self, value: Array, operands: tuple[Array, ...]) -> tuple[Array, tuple[Array, ...]]:
        return value, (read_indexed(value, self.indexer, operands),)


@final
@dataclass(frozen=True, slots=True)
class Swap(RefAccess):
    """``old, ref[indexer] = ref[indexer], value`` (JAX's ``swap``);
    without ``returns_old``, a plain write (JAX prints its unused result
    away: ``a[0] <- d``)."""

    indexer: NDIndexer
    returns_old: bool
    name = "swap"

    @property
    def multiple_results(self) -> bool:
        """A plain write has no result: its ``bind`` returns an empty list
        (JAX's swap always returns the old value, unused)."""
        return not self.returns_old

    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        ref = _ref_operand("swap", avals[0])
        _check_dynamic("swap", self.indexer, avals[2:])
        _check_value("swap", ref, self.indexer, avals[1])
        if not self.returns_old:
            return ()
        return (ShapedArray(indexed_shape(self.indexer, ref.shape), ref.dtype, ref.weak_type),)

    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        return frozenset({WriteEffect(0)})

    def format_eqn(self, outs: tuple[str, ...], args: tuple[str, ...]) -> str | None:
        target = f"{args[0]}[{_format_index(self.indexer, args[2:])}]"
        if not outs or outs[0].startswith("_:"):  # no result, or one printed unused: a plain write, as JAX's
            return f"{target} <- {args[1]}"
        return f"{outs[0]}, {target} <- {target}, {args[1]}"

    def discharge(self, value: Array, operands: tuple[Array, ...]) -> tuple[Array, tuple[Array, ...]]:
        new, dynamic = operands[0], operands[1:]
        if self.indexer is None:
            return new, (value,) if self.returns_old else ()
        updated = convert_to(update_indexed(value, self.indexer, dynamic, new, add=False), value.dtype, weak_type=False)
        return updated, (read_indexed(value, self.indexer, dynamic),) if self.returns_old else ()


@final
@dataclass(frozen=True, slots=True)
class AddUpdate(RefAccess):
    """``ref[indexer] += value`` as one accumulation (JAX's ``addupdate``)."""

    indexer: NDIndexer
    name = "addupdate"
    several_results = True

    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        ref = _ref_operand("addupdate", avals[0])
        _check_dynamic("addupdate", self.indexer, avals[2:])
        _check_value("addupdate", ref, self.indexer, avals[1])
        return ()

    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        return frozenset({AccumEffect(0)})

    def format_eqn(self, outs: tuple[str, ...], args: tuple[str, ...]) -> str | None:
        return f"{args[0]}[{_format_index(self.indexer, args[2:])}] += {args[1]}"

    def discharge(self, value: Array, operands: tuple[Array, ...]) -> tuple[Array, tuple[Array, ...]]:
        delta, dynamic = operands[0], operands[1:]
        updated = update_indexed(value, self.indexer, dynamic, delta, add=True)
        return convert_to(updated, value.dtype, weak_type=False), ()


@final
@dataclass(frozen=True, slots=True)
class NewRef(Primitive):
    """A new ref holding the operand (JAX's ``new_ref``)."""

    kind: str | None = None
    memory_space: str | None = None
    name = "new_ref"

    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        (aval,) = avals
        if isinstance(aval, AbstractRef):
            raise JaxtypedTypeError("new_ref: the initial value is a Ref; refs of refs are not allowed (no ref-to-ref)")
        return (AbstractRef.of(aval),)

    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        return no_effects


@final
@dataclass(frozen=True, slots=True)
class Freeze(Primitive):
    """The final value of a ref, which is not used after (JAX's ``freeze``)."""

    name = "freeze"

    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        ref = _ref_operand("freeze", avals[0])
        return (ref.inner,)

    def effects(self, avals: tuple[ShapedArray, ...]) -> Effects:
        return no_effects
