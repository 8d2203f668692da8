"""Mutable array references (seed 003): the ``Ref`` type and its accesses
(layer L4).

Note [refs are threaded at trace time]: a :class:`Ref` is a box holding an
``Array`` value of some interpreter (its *level*). Reads index the value;
writes replace it with an updated value (``value.at[idx].set(v)``). Under
interpreters that run the function once as it is traced (evaluation, jvp,
vmap, partial evaluation), that *is* mutation with the right semantics, so
``grad``, ``jvp``, ``vmap`` and ``linearize`` of functions that use refs
internally need nothing more. A function that is *staged* (``jit``,
``scan``/``while_loop``/``cond`` bodies) must not bake a ref's value in as a
constant or leak its tracers into the box: touching a ref of an outer
level from inside a staging interpreter raises :class:`RefsTouched`, which
the staging API catches, and it traces again with that ref's value as an
extra input and its final value as an extra output (the ref is *threaded*
through, as a loop carry or a jit argument donated to its result). See
:mod:`jaxtyped._src.state.threading`.

Under ``make_jaxpr`` and ``jit`` a ref is *staged* instead: see Note
[staged refs] in :mod:`jaxtyped._src.state.primitives`.

Writing a value of a transformation that is not the ref's own (a batched
value into an unbatched ref under ``vmap``; a differentiated value into a
plumbing ref under ``grad``) is an error, raised before the box changes.

Note [ref += is an accumulation]: Python runs ``ref[idx] += v`` as
``t = ref[idx]; s = t.__iadd__(v); ref[idx] = s``. For a staged ref (issue
16 item 1; JAX 0.10.2 stages a get, an add and a swap) it becomes one
``addupdate``: each staged read ``ref[idx]`` is remembered (per staging
interpreter, by its var); ``Array.__iadd__`` of such a read adds as ``+``
does (same promotion, same errors) and remembers that the sum is the read
plus the add's other operand; writing that sum back to the same ref, at an
index that is the same object or equal, with no equation but reads using
the ref since the read, binds ``addupdate(ref, idx, addend)`` instead of
``swap`` and lets the staging interpreter drop the read and the add at
``build`` if nothing else uses them (``y = r[0]; y += 1; r[0] = y; return
y`` keeps both). Anything else (another index, ref or interpreter, a write
in between, a sum of another dtype or shape, index arrays that may name an
element twice: ``x[[0, 0]] += 1`` adds once) is the usual swap. Eagerly,
and inside transformations nested in a staging, ``+=`` is ``+`` as before.
"""

import functools
import weakref
from collections.abc import Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, cast, final, runtime_checkable

from typing_extensions import TypeIs

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike, Index
from jaxtyped._src.core.array import Slice as DsSlice
from jaxtyped._src.core.array_impl import ArrayImpl, array_from_numpy, is_python_scalar, to_array, with_weak_type
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.jaxpr import Atom, Eqn, Jaxpr, JaxprBuilder, Literal, Var
from jaxtyped._src.core.interpreter import Interpreter, Tracer, bind, bind1, compile_time_eval, current_interpreter
from jaxtyped._src.errors import JaxtypedIndexError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.interpreters.partial_eval import PartialEvalInterpreter
from jaxtyped._src.interpreters.staging import StagingInterpreter, StagingTracer
from jaxtyped._src.lax.arithmetic import Add
from jaxtyped._src.lax.elementwise_base import ConvertElementType, convert_to
from jaxtyped._src.lax.structural import broadcast_in_dim
from jaxtyped._src.state.primitives import (
    AbstractRef,
    AddUpdate,
    DynamicIndex,
    DynamicSlice,
    Freeze,
    Get,
    NewRef,
    NDIndexer,
    Swap,
    indexed_shape,
    normalize_index,
    read_indexed,
    stages_refs,
    update_indexed,
)

__all__ = [
    "Ref",
    "RefsTouched",
    "Indexer",
    "new_ref",
    "freeze",
    "get",
    "swap",
    "addupdate",
    "set",
    "empty_ref",
    "free_ref",
    "ShapedLike",
    "ref_type_str",
    "bound_refs",
    "staging_between",
    "is_ref",
    "current_values",
    "sees_directly",
    "staged_ref_here",
    "accumulating_add",
]

# A NumPy-style indexer of a ref (as of an Array).
Indexer = Index

V = TypeVar("V", bound=Array, covariant=True)


@runtime_checkable
class ShapedLike(Protocol):
    """What ``empty_ref`` reads of its type argument (a ``ShapeDtypeStruct``
    or an array): a shape and a dtype."""

    @property
    def shape(self) -> tuple[int, ...]: ...

    @property
    def dtype(self) -> np.dtype[Any]: ...


class RefsTouched(JaxtypedTypeError):
    """A staged function touched a ref of an outer level (see Note [refs
    are threaded at trace time]). The staging API that created ``staging``
    catches it and threads ``ref`` through; uncaught (a staging API that
    cannot thread refs, such as ``make_jaxpr``) it is the user's error."""

    def __init__(self, ref: "Ref[Array]", staging: Interpreter) -> None:
        super().__init__(
            f"a mutable array reference of type {ref_type_str(ref)} created outside "
            f"{staging.describe()} was used inside it; {staging.transformation} cannot "
            "thread closed-over refs: pass the ref's value ([...]) in, or use jit"
        )
        self.ref = ref
        self.staging = staging


def _is_staging(interp: Interpreter) -> bool:
    return isinstance(interp, StagingInterpreter) and not isinstance(interp, PartialEvalInterpreter)


# The staging APIs whose bodies take a staged ref as an operand (a const of
# the body, as JAX shows it) instead of threading its value; their
# primitives are discharged by jaxtyped._src.state.discharge.
_REF_BODIES = frozenset({"scan", "while_loop", "cond", "switch"})


def _ref_body(interp: Interpreter) -> bool:
    return _is_staging(interp) and interp.transformation in _REF_BODIES


def _path_to_level(ref: "Ref[Array]", start: Interpreter) -> list[Interpreter] | None:
    """The interpreters from ``start`` up to (not including) the ref's
    level; ``None`` when the level is not ``start`` or an ancestor."""
    path: list[Interpreter] = []
    node: Interpreter | None = start
    while node is not None and node is not ref._level:  # pyright: ignore[reportPrivateUsage]  # same module family
        path.append(node)
        node = node.parent
    return None if node is None else path


def sees_directly(ref: "Ref[Array]", start: Interpreter) -> bool:
    """Whether accesses at ``start`` are staged on the ref itself: at its
    own level, or inside loop and branch bodies of it when it is a staged
    ref (Note [staged refs])."""
    path = _path_to_level(ref, start)
    return path is not None and (not path or (_is_staged(ref._value) and all(_ref_body(n) for n in path)))  # pyright: ignore[reportPrivateUsage]


def staged_ref_here(ref: "Ref[Array]", start: Interpreter) -> Array | None:
    """The staged ref (a ``Ref``-typed tracer) ``ref`` holds, when
    accesses at ``start`` use it directly (a jit called there may take it
    as a ref operand); else ``None``."""
    return ref._value if _is_staged(ref._value) and sees_directly(ref, start) else None  # pyright: ignore[reportPrivateUsage]


def staging_between(ref: "Ref[Array]", start: Interpreter) -> Interpreter | None:
    """The outermost staging interpreter between ``start`` and the ref's
    level (``None``: the ref may be used directly at ``start``).

    Raises:
        JaxtypedValueError: the ref's level is not ``start`` or one of its
            ancestors (the ref escaped the transformation that made it).
    """
    path = _path_to_level(ref, start)
    if path is not None and path and sees_directly(ref, start):
        return None
    outermost: Interpreter | None = None
    for node in path or ():
        if _is_staging(node):
            outermost = node
    if path is None:
        raise JaxtypedValueError(
            f"a mutable array reference of type {ref_type_str(ref)} created inside "
            f"{ref._level.describe()} was used outside it; refs cannot escape the "  # pyright: ignore[reportPrivateUsage]
            "function that creates them (return ref[...] instead)"
        )
    return outermost


def ref_type_str(ref: "Ref[Any]") -> str:
    """JAX's name of a ref's type, e.g. ``Ref{float32[3]}``."""
    value = ref._value  # pyright: ignore[reportPrivateUsage]  # same module family
    dims = ",".join(str(d) for d in value.shape)
    return f"Ref{{{value.dtype.name}[{dims}]}}"


@final
class Ref(Generic[V]):
    """A mutable array reference (JAX's ``jax.Ref``), created by
    :func:`new_ref`. Not an ``Array``: read it with ``ref[...]`` (or
    ``ref[idx]``), write it with ``ref[idx] = v`` and ``ref[idx] += v``.

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> x_ref = jt.new_ref(jnp.zeros(3))
        >>> x_ref[1] += 1.0
        >>> x_ref
        Ref([0., 1., 0.], dtype=float32)
    """

    __slots__ = ("_value", "_level", "_freezable", "_frozen", "_reads_weak", "__weakref__")

    _value: Array
    _level: Interpreter
    _freezable: bool
    _frozen: bool
    # The weak type of the ref's type, fixed when it is made: JAX types a
    # read by the ref (``new_ref(0.)[...]`` stays weakly typed after any
    # write), while the stored value, shown by repr, is what was written.
    _reads_weak: bool

    def __init__(self, value: Array, level: Interpreter, *, freezable: bool = True) -> None:
        self._value = value
        self._reads_weak = value.weak_type
        self._level = level
        self._freezable = freezable
        self._frozen = False

    # --- what a ref knows without reading it ---

    @property
    def shape(self) -> tuple[int, ...]:
        """The shape of the referenced array."""
        return self._value.shape

    @property
    def dtype(self) -> np.dtype[Any]:
        """The dtype of the referenced array."""
        return self._value.dtype

    @property
    def ndim(self) -> int:
        """The rank of the referenced array."""
        return self._value.ndim

    @property
    def size(self) -> int:
        """The number of elements of the referenced array."""
        return self._value.size

    @property
    def weak_type(self) -> bool:
        """Whether the current value is weakly typed."""
        return self._value.weak_type

    def __len__(self) -> int:
        if not self._value.shape:
            raise JaxtypedTypeError("len() of a 0-d Ref")
        return self._value.shape[0]

    # --- reads and writes ---

    def _checked(self) -> Array:
        if self._frozen:
            raise JaxtypedValueError(f"the mutable array reference of type {ref_type_str(self)} was frozen; it cannot be used after jt.freeze")
        staging = staging_between(self, current_interpreter())
        if staging is not None:
            raise RefsTouched(self, staging)
        return self._value

    def read(self) -> Array:
        """The whole current value itself, for staging APIs that thread the
        ref (a later in-place update may consume it: ``ref[...]`` is the
        user's read, a copy)."""
        value = self._checked()
        return bind1(Get(None), value) if _is_staged(value) else value

    def write(self, value: Array) -> None:
        """Replace the whole value by ``value`` itself (checked as ``ref[...]
        = value``, but not copied), for staging APIs writing back a
        threaded ref's result."""
        current = self._checked()
        value = _coerce(value, current, "swap")
        if value.shape != current.shape:
            raise JaxtypedValueError(
                f"Invalid shape for `swap`. Ref shape: {current.shape}. Value shape: {value.shape}."
            )
        _check_owner(self, value)
        if _is_staged(current):
            bind(Swap(None, False), current, value)
            return
        self._value = value

    def __getitem__(self, index: Indexer) -> V:
        value = self._checked()
        if _is_staged(value):
            return _staged_get(self, value, index)  # type: ignore[return-value]  # pyright: ignore[reportReturnType]  # the value type V
        read = _detached(value) if _is_whole(index) else _index_value(value, index)
        if type(read) is ArrayImpl:  # a fresh array: retyped in place
            read = with_weak_type(read, self._reads_weak)
        return read  # type: ignore[return-value]  # pyright: ignore[reportReturnType]  # the value type V

    def __setitem__(self, index: Indexer, value: ArrayLike) -> None:
        if not _accumulated(self, index, value):
            _store(self, index, value, "swap")

    def unsafe_buffer_pointer(self) -> int:
        """The address of the device buffer holding the value (the seed's
        check that jit updates a ref in place)."""
        value = self._checked()
        if type(value) is not ArrayImpl:
            raise JaxtypedTypeError(f"unsafe_buffer_pointer of a traced {ref_type_str(self)}")
        return value.unsafe_buffer_pointer()

    def __repr__(self) -> str:
        if self._frozen:
            return f"Ref(<frozen {ref_type_str(self)}>)"
        text = _host_view_free_repr(self._value)
        # Array(...) -> Ref(...), as JAX (continuation lines keep their indent).
        return "Ref" + text[len("Array") :] if text.startswith("Array") else f"Ref({text})"

    def __bool__(self) -> bool:
        raise JaxtypedTypeError(f"the truth value of a mutable array reference ({ref_type_str(self)}) is ambiguous; read it with ref[...]")


def _detached(value: Array) -> Array:
    """A concrete value's copy in a device buffer of its own. Refs hand
    their buffers to jit as donations: a buffer that a user's array, a
    NumPy view (a printed value) or host memory (a transfer that aliases
    it) also refers to could not be reused in place, and a user's array
    must not be consumed."""
    if type(value) is not ArrayImpl:
        return value
    # Deferred: the call machinery imports lax, whose control flow imports this module.
    from jaxtyped._src.pjit import executable_for, run_executable

    jaxpr = _identity_jaxpr(value.aval)
    executable = executable_for(jaxpr, "ref_copy", (False,))
    (copy,) = run_executable(executable, (value,), (False,), (value.aval,), "ref_copy")
    return copy


@functools.lru_cache(maxsize=256)
def _identity_jaxpr(aval: ShapedArray) -> Jaxpr:
    """``{ lambda ; a. let  in (a,) }``: compiled, XLA writes its output to a
    new buffer (a parameter that is not donated is never aliased)."""
    builder = JaxprBuilder()
    var = builder.new_var(aval)
    return builder.build((), (var,), (var,))


def _host_view_free_repr(value: Array) -> str:
    """``repr`` of a value through a copy, so that no NumPy view of the
    ref's own buffer outlives the call (it would block in-place updates)."""
    return repr(_detached(value))


def _is_whole(index: Indexer | None) -> bool:
    # None: the whole ref, as in jax.ref.get/swap/addupdate (not a new axis).
    return index is None or index is Ellipsis or (isinstance(index, tuple) and (len(index) == 0 or (len(index) == 1 and index[0] is Ellipsis)))


def _has_ds(index: object) -> bool:
    items = cast(tuple[object, ...], index) if isinstance(index, tuple) else (index,)
    return any(isinstance(item, DsSlice) for item in items)


def _ds_index(index: object, shape: tuple[int, ...]) -> "tuple[NDIndexer, tuple[Array, ...]] | None":
    """The normal form of an index with ``ds`` slices (``None``: the index
    has none, and indexes the value as NumPy does)."""
    if not _has_ds(index):
        return None
    precise = normalize_index(index, shape)
    if precise is None:
        raise JaxtypedIndexError(
            f"a Ref of shape {shape} indexed by {index!r}: ds slices may only be combined with integers, "
            "slices, integer arrays and one Ellipsis"
        )
    return precise[0], tuple(precise[1])


def _index_value(value: Array, index: Indexer) -> Array:
    """``value[index]`` as a read of a ref holding ``value`` (ds slices:
    Note [ds on refs])."""
    precise = _ds_index(index, value.shape)
    return value[index] if precise is None else read_indexed(value, *precise)


def _update_value(ref: "Ref[Array]", value: Array, index: Indexer, new: Array, op: str) -> Array:
    """``value`` with ``value[index]`` set to ``new`` (``op`` "addupdate":
    plus ``new``), as a write of ``ref`` (ds slices: Note [ds on refs])."""
    precise = _ds_index(index, value.shape)
    if precise is None:
        at = value.at[index]
        return at.add(new) if op == "addupdate" else at.set(new)
    indexer, dynamic = precise
    return update_indexed(value, indexer, dynamic, _fit(new, indexed_shape(indexer, ref.shape), ref, op), add=op == "addupdate")


def _coerce(value: object, current: Array, op: str) -> Array:
    """``value`` as an array of the ref's dtype: Python scalars adopt it (as
    JAX's), and so do integer arrays written (not added) into an integer
    ref (JAX 0.10.2's swap converts them); arrays of another dtype are an
    error, as JAX's.
    What a write stores is strongly typed, as in JAX (only ``new_ref`` of a
    Python scalar makes a weakly typed ref)."""
    if isinstance(value, Ref):
        raise JaxtypedTypeError("a Ref cannot be stored in a Ref (no ref-to-ref)")
    python_scalar = is_python_scalar(value)
    array = to_array(value, f"Ref {op} value")
    integers = op == "swap" and dtypes.is_integer(array.dtype) and dtypes.is_integer(current.dtype)
    if array.dtype != current.dtype and not python_scalar and not integers:
        raise JaxtypedValueError(
            f"Invalid dtype for `{op}`. Ref dtype: {current.dtype.name}. Value dtype: {array.dtype.name}."
        )
    if python_scalar:
        # A constant: converted now, not staged (a staged write shows the
        # literal, as JAX's ``a[1] <- 5.0:f32[]``).
        with compile_time_eval():
            return convert_to(array, current.dtype, weak_type=False)
    return convert_to(array, current.dtype, weak_type=False)


def _check_owner(ref: Ref[Array], value: Array) -> None:
    """Reject writing a value of a transformation the ref is outside of."""
    if not isinstance(value, Tracer):
        return
    owner = value.interpreter
    if owner.is_ancestor_of(ref._level) or (_is_staged(ref._value) and sees_directly(ref, owner)):  # pyright: ignore[reportPrivateUsage]
        return
    if owner.transformation == "vmap":
        raise JaxtypedValueError(
            f"performing a set/swap operation with vmapped value on an unbatched array reference of "
            f"type {ref_type_str(ref)}. Move the array reference to be an argument to the vmapped function?"
        )
    if owner.transformation in {"jvp", "grad", "linearize", "vjp", "value_and_grad", "jacfwd", "jacrev"}:
        raise JaxtypedValueError(
            f"{owner.describe()} writes a value that depends on the differentiated inputs into a mutable "
            f"array reference of type {ref_type_str(ref)} created outside it; only plumbing refs (written "
            "with values that are not differentiated, e.g. through lax.stop_gradient) may be used with "
            "differentiation"
        )
    raise JaxtypedValueError(
        f"{owner.describe()} writes one of its traced values into a mutable array reference of type "
        f"{ref_type_str(ref)} created outside it; pass the ref as an argument instead"
    )


# === the API (jax.new_ref, jax.freeze, jax.ref.get/swap/addupdate) ===


def new_ref(init_val: ArrayLike, *, memory_space: object = None, kind: str | None = None) -> Ref[Array]:
    """A new mutable array reference holding ``init_val`` (JAX's ``jax.new_ref``;
    ``memory_space`` and ``kind`` are accepted for JAX's signature, only
    their defaults).

    Example:
        >>> import jaxtyped as jt
        >>> jt.new_ref(0.0)
        Ref(0., dtype=float32, weak_type=True)
    """
    if is_ref(cast(object, init_val)):  # runtime check of user input
        raise JaxtypedTypeError("new_ref: the initial value is a Ref; refs of refs are not allowed (no ref-to-ref)")
    if memory_space is not None or kind is not None:
        raise JaxtypedValueError("new_ref: only the default memory_space and kind are supported")
    level = current_interpreter()
    if stages_refs(level):
        return Ref(bind1(NewRef(), to_array(init_val, "new_ref init_val")), level)
    return Ref(_detached(to_array(init_val, "new_ref init_val")), level)


def empty_ref(ty: ShapedLike, memory_space: object = None) -> Ref[Array]:
    """A new ref of ``ty``'s shape and dtype (JAX's ``jax.ref.empty_ref``;
    its initial value is zeros here, unspecified in JAX). ``memory_space``
    is accepted for JAX's signature, only its default."""
    return new_ref(array_from_numpy(np.zeros(ty.shape, ty.dtype)), memory_space=memory_space)


def freeze(ref: Ref[Array]) -> Array:
    """Invalidate ``ref`` and return its final value (JAX's ``jax.freeze``);
    only in the scope that created the ref."""
    if not is_ref(ref):  # runtime check of user input
        raise JaxtypedTypeError(f"freeze: expected a Ref, got {type(ref).__name__}")
    value = ref._checked()  # pyright: ignore[reportPrivateUsage]
    if not ref._freezable or ref._level is not current_interpreter():  # pyright: ignore[reportPrivateUsage]
        raise JaxtypedValueError(
            f"freeze: a mutable array reference of type {ref_type_str(ref)} can only be frozen in the "
            "scope that created it (not one passed into or closed over by a transformed function)"
        )
    ref._frozen = True  # pyright: ignore[reportPrivateUsage]
    return bind1(Freeze(), value) if _is_staged(value) else value


def free_ref(ref: Ref[Array]) -> None:
    """Invalidate ``ref`` (JAX's ``jax.ref.free_ref``): ``freeze`` without
    the value."""
    freeze(ref)


def get(ref: Ref[Array], idx: Indexer | None = None) -> Array:
    """``ref[idx]`` (JAX's ``jax.ref.get``; ``None``: the whole value)."""
    return ref[...] if idx is None else ref[idx]


def set(ref: Ref[Array], idx: Indexer | None, value: ArrayLike) -> None:  # noqa: A001 - JAX's name
    """``ref[idx] = value`` (JAX's ``jax.ref.set``; ``None``: the whole value)."""
    _store(ref, idx, value, "swap")


def swap(ref: Ref[Array], idx: Indexer | None, value: ArrayLike) -> Array:
    """``old, ref[idx] = ref[idx], value``; returns ``old`` (JAX's
    ``jax.ref.swap``; ``idx`` ``None``: the whole value)."""
    current = ref._checked()  # pyright: ignore[reportPrivateUsage]
    if _is_staged(current):
        old = _staged_write(ref, current, idx, value, "swap", returns_old=True)
        assert old is not None
        return old
    old = current if _is_whole(idx) else _index_value(current, idx)
    _store(ref, idx, value, "swap")
    return old


def _store(ref: Ref[Array], idx: Indexer | None, value: ArrayLike, op: str) -> None:
    """``ref[idx] = value``, checked as JAX's swap (same dtype; the whole
    value: the same shape; a part: ``.at[idx].set``'s broadcasting)."""
    current = ref._checked()  # pyright: ignore[reportPrivateUsage]
    if _is_staged(current):
        _staged_write(ref, current, idx, value, op, returns_old=False)
        return
    array = _coerce(value, current, op)
    if _is_whole(idx):
        if array.shape != current.shape:
            raise JaxtypedValueError(
                f"Invalid shape for `{op}`. Ref shape: {current.shape}. Expected shape: {current.shape}. "
                f"Value shape: {array.shape}."
            )
        _check_owner(ref, array)
        ref._value = _detached(array)  # pyright: ignore[reportPrivateUsage]
        return
    updated = convert_to(_update_value(ref, current, idx, array, op), current.dtype, weak_type=False)
    _check_owner(ref, updated)
    ref._value = updated  # pyright: ignore[reportPrivateUsage]


def addupdate(ref: Ref[Array], idx: Indexer | None, x: ArrayLike) -> None:
    """``ref[idx] += x`` as one accumulation (JAX's ``jax.ref.addupdate``;
    ``idx`` ``None``: the whole value)."""
    current = ref._checked()  # pyright: ignore[reportPrivateUsage]
    if _is_staged(current):
        _staged_write(ref, current, idx, x, "addupdate", returns_old=False)
        return
    array = _coerce(x, current, "addupdate")
    updated = current + array if _is_whole(idx) else _update_value(ref, current, idx, array, "addupdate")
    if updated.shape != current.shape:
        raise JaxtypedValueError(
            f"Invalid shape for `addupdate`. Ref shape: {current.shape}. Value shape: {array.shape}."
        )
    _check_owner(ref, updated)
    ref._value = convert_to(updated, current.dtype, weak_type=False)  # pyright: ignore[reportPrivateUsage]


# === staged refs (Note [staged refs]) ===


def _is_staged(value: Array) -> bool:
    """Whether a box's content is a staged ref (else: the ref's value)."""
    return isinstance(value.aval, AbstractRef)


def _precise_index(ref: Ref[Array], index: Indexer | None) -> "tuple[NDIndexer, list[Array]] | None":
    """The access's indexer, when the access is staged as written: where
    the ref is seen directly (its level, or loop and branch bodies of it;
    inside another transformation nested in the staging the whole ref is
    read or written, and the transformation indexes the value), for an
    index the ``get``/``swap`` form expresses."""
    if not sees_directly(ref, current_interpreter()):
        return None
    return normalize_index(index, ref.shape)


def _staged_get(ref: Ref[Array], staged: Array, index: Indexer | None) -> Array:
    precise = _precise_index(ref, index)
    if precise is None:
        whole = bind1(Get(None), staged)
        return whole if _is_whole(index) else _index_value(whole, index)
    indexer, dynamic = precise
    read = bind1(Get(indexer), staged, *dynamic)
    _remember_read(ref, index, read)
    return read


def _fit(array: Array, shape: tuple[int, ...], ref: Ref[Array], op: str) -> Array:
    """``array`` broadcast to the indexed ``shape`` (as ``.at[idx].set``
    broadcasts, eagerly)."""
    if array.shape == shape:
        return array
    lead = len(shape) - array.ndim
    if lead < 0 or any(d not in {1, s} for d, s in zip(array.shape, shape[lead:])):
        raise JaxtypedValueError(
            f"Invalid shape for `{op}`. Ref shape: {ref.shape}. Expected shape: {shape}. Value shape: {array.shape}."
        )
    return broadcast_in_dim(array, shape, tuple(range(lead, len(shape))))


def _staged_write(ref: Ref[Array], staged: Array, idx: Indexer | None, value: ArrayLike, op: str, *, returns_old: bool) -> Array | None:
    """``ref[idx] = value`` (``op`` "swap") or ``ref[idx] += value``
    ("addupdate") as an equation; the old value for ``returns_old``."""
    array = _coerce(value, staged, op)
    precise = _precise_index(ref, idx)
    if precise is not None:
        indexer, dynamic = precise
        array = _fit(array, indexed_shape(indexer, ref.shape), ref, op)
        _check_owner(ref, array)
        if op == "addupdate":
            bind(AddUpdate(indexer), staged, array, *dynamic)
            return None
        # JAX drops a write's unused old value from the top-level jaxpr
        # only (``a[0] <- d``); in loop, branch and jit bodies it prints it.
        level = ref._level  # pyright: ignore[reportPrivateUsage]
        in_body = current_interpreter() is not level or not stages_refs(level)
        outs = bind(Swap(indexer, returns_old or in_body), staged, array, *dynamic)
        return outs[0] if returns_old else None
    # Inside a nested transformation, or an index get/swap cannot express:
    # update the whole value (the transformation sees the indexing).
    whole = bind1(Get(None), staged)
    if _is_whole(idx):
        updated = _fit(array, ref.shape, ref, op)
        updated = whole + updated if op == "addupdate" else updated
        old = whole
    else:
        updated = _update_value(ref, whole, idx, array, op)
        old = _index_value(whole, idx)
    updated = convert_to(updated, ref.dtype, weak_type=False)
    _check_owner(ref, updated)
    bind(Swap(None, False), staged, updated)
    return old if returns_old else None


# === ref[idx] += v (Note [ref += is an accumulation]) ===


@dataclass(frozen=True, slots=True)
class _Read:
    """A staged ``ref[index]``: ``eqn``, the get, is ``eqns[position]``."""

    ref: Ref[Array]
    index: Indexer | None
    eqn: Eqn
    position: int


@dataclass(frozen=True, slots=True)
class _Sum:
    """``read + addend``, staged as the equations defining ``staged``."""

    read: _Read
    staged: tuple[Var, ...]
    addend: Atom


@dataclass(slots=True)
class _Accesses:
    """What one staging interpreter remembers, by var."""

    reads: dict[Var, _Read] = field(default_factory=dict[Var, _Read])
    sums: dict[Var, _Sum] = field(default_factory=dict[Var, _Sum])


# Dies with its interpreter (no leak past a trace).
_ACCESSES: "weakref.WeakKeyDictionary[Interpreter, _Accesses]" = weakref.WeakKeyDictionary()


def _last_eqn_of(interp: StagingInterpreter, result: Array) -> Eqn | None:
    """The equation just staged by ``interp`` when it defines ``result``."""
    eqns = interp.builder.eqns
    if type(result) is StagingTracer and result.interpreter is interp and eqns and eqns[-1].outvars == (result.jaxpr_var,):
        return eqns[-1]
    return None


def _remember_read(ref: Ref[Array], index: Indexer | None, read: Array) -> None:
    interp = current_interpreter()
    if not isinstance(interp, StagingInterpreter) or not _is_staging(interp):
        return
    eqn = _last_eqn_of(interp, read)
    if eqn is not None and isinstance(read, StagingTracer):
        accesses = _ACCESSES.setdefault(interp, _Accesses())
        accesses.reads[read.jaxpr_var] = _Read(ref, index, eqn, len(interp.builder.eqns) - 1)


def accumulating_add(x: Array, other: object) -> Array | None:
    """``x + other`` for ``x += other`` when ``x`` is a staged read of a
    ref, remembering the sum as the read plus an addend; ``None`` for any
    other ``x`` (``+=`` is then ``+``)."""
    if type(x) is not StagingTracer:
        return None
    interp = x.interpreter
    accesses = _ACCESSES.get(interp)
    read = accesses.reads.get(x.jaxpr_var) if accesses is not None else None
    if read is None or accesses is None or not isinstance(interp, StagingInterpreter):
        return None
    start = len(interp.builder.eqns)
    total: Array = x + cast(ArrayLike, other)  # the operator's own checks reject non-arrays
    eqn = _last_eqn_of(interp, total)
    if eqn is None or not isinstance(total, StagingTracer) or not isinstance(eqn.primitive, Add):
        return total
    # The read itself an operand (no promotion or broadcasting of it), or
    # the read made strong (a weakly typed ref plus a strong value).
    dead = [eqn.outvars[0]]
    if eqn.invars[0] is not x.jaxpr_var:
        strong = next((e for e in interp.builder.eqns[start:] if e.outvars == (eqn.invars[0],)), None)
        if (
            strong is None
            or not isinstance(strong.primitive, ConvertElementType)
            or strong.invars[0] is not x.jaxpr_var
            or strong.primitive.new_dtype != x.dtype
        ):
            return total
        dead.append(strong.outvars[0])
    accesses.sums[total.jaxpr_var] = _Sum(read, tuple(dead), eqn.invars[1])
    return total


def _same_index(a: object, b: object) -> bool:
    """Whether two indexers are the same access: equal ints and slices,
    the same array objects (``ref[idx] += v`` passes one object twice)."""
    if a is b:
        return True
    if isinstance(a, slice) and isinstance(b, slice):
        bounds = cast(tuple[object, ...], (a.start, a.stop, a.step, b.start, b.stop, b.step))  # pyright: ignore[reportUnknownMemberType]  # slice bounds are untyped
        return all(_same_index(bounds[k], bounds[k + 3]) for k in range(3))
    if isinstance(a, DsSlice) and isinstance(b, DsSlice):
        return a.stride == b.stride and _same_index(a.start, b.start) and _same_index(a.size, b.size)
    if isinstance(a, tuple) and isinstance(b, tuple):
        items_a, items_b = cast(tuple[object, ...], a), cast(tuple[object, ...], b)
        return len(items_a) == len(items_b) and all(_same_index(p, q) for p, q in zip(items_a, items_b))
    if isinstance(a, (Array, np.ndarray, tuple, slice, DsSlice)) or isinstance(b, (Array, np.ndarray, tuple, slice, DsSlice)):
        return False
    return type(a) is type(b) and bool(a == b)


def _each_element_once(ref: Ref[Array], index: Indexer | None) -> bool:
    """Whether ``ref[index]`` names no element twice. ``x[idx] += v`` reads,
    adds and writes, so a repeated element gets ``v`` once (NumPy's and
    JAX's ``x[[0, 0]] += 1``); an accumulation would add it twice. Index
    arrays must be concrete, in range and free of repeats (a single index,
    traced or not, cannot repeat)."""
    precise = normalize_index(index, ref.shape)
    if precise is None:
        return False
    indexer, operands = precise
    if indexer is not None and any(isinstance(e, DynamicSlice) and e.stride != 1 for e in indexer):
        return False  # wrapped negative entries may meet other entries (Note [ds on refs])
    kinds = [e for e in indexer or () if isinstance(e, (DynamicIndex, DynamicSlice))]
    dynamic = [d for d, e in zip(operands, kinds, strict=True) if isinstance(e, DynamicIndex)]
    if not dynamic:
        return True
    shape = np.broadcast_shapes(*(d.shape for d in dynamic))
    if int(np.prod(shape)) <= 1:
        return True
    if indexer is None or not all(type(d) is ArrayImpl for d in dynamic):
        return False
    dims = [dim for entry, dim in zip(indexer, ref.shape) if isinstance(entry, DynamicIndex)]
    columns: list[np.ndarray[Any, np.dtype[np.int64]]] = []
    for d, dim in zip(dynamic, dims, strict=True):
        values = np.broadcast_to(np.asarray(d), shape).reshape(-1).astype(np.int64)
        if bool(((values < -dim) | (values >= dim)).any()):
            return False
        columns.append(values % dim)
    rows = np.stack(columns, axis=1)
    return len(np.unique(rows, axis=0)) == len(rows)


def _operand(interp: StagingInterpreter, atom: Atom) -> Array:
    """The value standing for ``atom`` of ``interp``'s jaxpr."""
    return atom.array if isinstance(atom, Literal) else StagingTracer(interp, atom)


def _accumulated(ref: Ref[Array], index: Indexer, value: object) -> bool:
    """``ref[index] = value`` staged as ``ref[index] += addend`` when
    ``value`` is a remembered ``ref[index] + addend`` and the ref was not
    written since the read; ``False``: nothing staged."""
    if type(value) is not StagingTracer:
        return False
    interp = value.interpreter
    accesses = _ACCESSES.get(interp)
    total = accesses.sums.get(value.jaxpr_var) if accesses is not None else None
    if total is None or total.read.ref is not ref or interp is not current_interpreter() or not isinstance(interp, StagingInterpreter):
        return False
    read = total.read
    staged = ref._checked()  # pyright: ignore[reportPrivateUsage]
    eqns = interp.builder.eqns
    if not _same_index(read.index, index) or read.position >= len(eqns) or eqns[read.position] is not read.eqn:
        return False
    if not _each_element_once(ref, index):
        return False
    ref_atom = read.eqn.invars[0]
    if any(not isinstance(e.primitive, Get) and any(a is ref_atom for a in e.invars) for e in eqns[read.position + 1 :]):
        return False  # written (or passed to a loop, branch or call) since the read
    get = read.eqn.primitive
    assert isinstance(get, Get)
    shape = indexed_shape(get.indexer, ref.shape)
    if value.dtype != ref.dtype or value.shape != shape:
        return False  # the swap's own error (or a promoted sum)
    addend = _fit(_operand(interp, total.addend), shape, ref, "addupdate")
    _check_owner(ref, addend)
    bind(AddUpdate(get.indexer), staged, addend, *(_operand(interp, a) for a in read.eqn.invars[1:]))
    interp.drop_if_unused(*read.eqn.outvars, *total.staged)
    return True


# === threading support for staging APIs ===


@contextmanager
def bound_refs(refs: Sequence[Ref[Array]], values: Sequence[Array]) -> Generator[None, None, None]:
    """For the block, the boxes of ``refs`` hold ``values`` (tracers of the
    current, staging interpreter) at the current level; afterwards they hold
    what they held before (the staging API writes the results back)."""
    saved = [(r._value, r._level, r._freezable) for r in refs]  # pyright: ignore[reportPrivateUsage]
    level = current_interpreter()
    for ref, value in zip(refs, values, strict=True):
        ref._value, ref._level, ref._freezable = value, level, False  # pyright: ignore[reportPrivateUsage]
    try:
        yield
    finally:
        for ref, (value, old_level, freezable) in zip(refs, saved):
            ref._value, ref._level, ref._freezable = value, old_level, freezable  # pyright: ignore[reportPrivateUsage]


def current_values(refs: Sequence[Ref[Array]]) -> list[Array]:
    """The refs' values inside a :func:`bound_refs` block (no checks: the
    block's own staging interpreter reads them as outputs)."""
    return [r._value for r in refs]  # pyright: ignore[reportPrivateUsage]


def is_ref(x: object) -> TypeIs["Ref[Any]"]:
    """Whether ``x`` is a :class:`Ref` (of any value type)."""
    return isinstance(x, Ref)

