"""Dtypes and JAX's type-promotion semantics (layer L0).

jaxtyped reproduces JAX 0.10's dtype rules:

* 32-bit by default: unless ``config.jax_enable_x64`` is set, 64-bit dtypes
  *canonicalize* to their 32-bit counterparts (``float64`` -> ``float32``,
  ``int64`` -> ``int32``, ``uint64`` -> ``uint32``, ``complex128`` ->
  ``complex64``). The flag is read at every call, never cached.
* Python scalars are *weakly typed*: ``int``, ``float`` and ``complex`` take
  the default dtype of their kind but yield to the dtype of a strongly typed
  operand (``uint8 + 1`` is ``uint8``). ``bool`` is not weak.
* Binary operations promote along JAX's type-promotion lattice (see
  ``_LATTICE_EDGES``); the result is the least upper bound of the operands,
  where a weak operand sits at the weak node (``i*``, ``f*``, ``c*``) of its
  kind.

Dtypes are plain ``np.dtype`` objects; ``bfloat16`` comes from ml_dtypes and
``float0`` is JAX's zero-size tangent dtype for integer and boolean primals.
"""

import builtins
import functools
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, Protocol, cast, final, runtime_checkable

import ml_dtypes
import numpy as np
from typing_extensions import TypeIs

from jaxtyped._src.config import config
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, TypePromotionError

__all__ = [
    "extended",
    "prng_key",
    "extended_scalar_type",
    "ExtendedDType",
    "float0",
    "bfloat16",
    "SupportsDType",
    "DTypeLike",
    "dtype",
    "canonicalize_dtype",
    "check_supported",
    "supported_dtypes",
    "default_int_dtype",
    "default_uint_dtype",
    "default_float_dtype",
    "default_complex_dtype",
    "python_scalar_dtype",
    "promote_types",
    "result_dtype",
    "is_bool",
    "is_integer",
    "is_signed_integer",
    "is_unsigned_integer",
    "is_floating",
    "is_complex",
    "is_inexact",
    "is_float0",
    "narrow_types",
    "sub_byte_types",
    "integer_bounds",
    "issubdtype",
    "finfo",
    "iinfo",
    "short_dtype_name",
]

_ml_dtypes = ml_dtypes

float0: Final[np.dtype[Any]] = np.dtype([("float0", np.void, 0)])
"""JAX's dtype of tangents of integer and boolean primals: zero bytes a value."""

bfloat16: Final[type[np.generic]] = _ml_dtypes.bfloat16
"""The bfloat16 scalar type (ml_dtypes'); ``np.dtype(bfloat16)`` is its dtype."""


@runtime_checkable
class SupportsDType(Protocol):
    """An object with a NumPy ``dtype`` attribute, such as an array."""

    @property
    def dtype(self) -> np.dtype[Any]:
        """The object's dtype."""
        ...


@runtime_checkable
class ExtendedDType(Protocol):
    """A dtype that is not NumPy's (a key array's ``key<fry>``): its
    ``type`` is a subclass of :class:`extended`, which places it in
    ``issubdtype``'s hierarchy."""

    @property
    def name(self) -> str:
        """The dtype's name (``key<fry>``)."""
        ...

    @property
    def type(self) -> "builtins.type[extended]":
        """The dtype's scalar type (``prng_key`` for keys)."""
        ...


DTypeLike = str | type[object] | np.dtype[Any] | SupportsDType
"""What a ``dtype=`` argument accepts (JEP 12049): a name (``"float32"``), a
scalar type (``np.float32``, ``bfloat16``, ``float``), a dtype, or an object
with a ``.dtype`` (an array, a jnp-style scalar class)."""

_BOOL: Final = np.dtype(np.bool_)
_INT8: Final = np.dtype(np.int8)
_INT16: Final = np.dtype(np.int16)
_INT32: Final = np.dtype(np.int32)
_INT64: Final = np.dtype(np.int64)
_UINT8: Final = np.dtype(np.uint8)
_UINT16: Final = np.dtype(np.uint16)
_UINT32: Final = np.dtype(np.uint32)
_UINT64: Final = np.dtype(np.uint64)
_FLOAT16: Final = np.dtype(np.float16)
_BFLOAT16: Final[np.dtype[Any]] = np.dtype(bfloat16)
_FLOAT32: Final = np.dtype(np.float32)
_FLOAT64: Final = np.dtype(np.float64)
_COMPLEX64: Final = np.dtype(np.complex64)
_COMPLEX128: Final = np.dtype(np.complex128)

_ALL_SUPPORTED: Final[tuple[np.dtype[Any], ...]] = (
    _BOOL,
    _INT8, _INT16, _INT32, _INT64,
    _UINT8, _UINT16, _UINT32, _UINT64,
    _FLOAT16, _BFLOAT16, _FLOAT32, _FLOAT64,
    _COMPLEX64, _COMPLEX128,
)  # fmt: skip

# ml_dtypes' narrow floats and integers (math/statistics family): arrays of
# them can be created, converted, printed and computed with, but they are
# not in supported_dtypes() (the 15 dtypes every operation is tested with),
# and, as in JAX, they promote only with weak scalars of their kind.
_NARROW_SUPPORTED: Final[tuple[np.dtype[Any], ...]] = tuple(
    np.dtype(getattr(_ml_dtypes, name))
    for name in (
        "float8_e4m3fn", "float8_e5m2", "float8_e4m3b11fnuz", "float8_e4m3fnuz", "float8_e5m2fnuz",
        "float8_e3m4", "float8_e4m3", "float8_e8m0fnu", "float4_e2m1fn", "float6_e2m3fn", "float6_e3m2fn",
        "int4", "uint4", "int2", "uint2", "int1", "uint1",
    )
    if hasattr(_ml_dtypes, name)
)  # fmt: skip

_SUPPORTED_SET: Final[frozenset[np.dtype[Any]]] = frozenset((*_ALL_SUPPORTED, *_NARROW_SUPPORTED, float0))
_NARROW_TYPES: Final[frozenset[type[np.generic]]] = frozenset(d.type for d in _NARROW_SUPPORTED)
_SUB_BYTE_TYPES: Final[frozenset[type[np.generic]]] = frozenset(
    d.type for d in _NARROW_SUPPORTED if d.name.startswith(("float4", "float6", "int", "uint"))
)

_TO_32BIT: Final[dict[np.dtype[Any], np.dtype[Any]]] = {
    _INT64: _INT32,
    _UINT64: _UINT32,
    _FLOAT64: _FLOAT32,
    _COMPLEX128: _COMPLEX64,
}

# ml_dtypes' narrow types are not numpy subclasses of np.floating/np.integer,
# so issubdtype and the kind predicates must know them by name (as JAX does).
_CUSTOM_FLOAT_TYPES: Final[frozenset[type[np.generic]]] = frozenset({
    _ml_dtypes.bfloat16,
    _ml_dtypes.float4_e2m1fn, _ml_dtypes.float6_e2m3fn, _ml_dtypes.float6_e3m2fn,
    _ml_dtypes.float8_e3m4, _ml_dtypes.float8_e4m3, _ml_dtypes.float8_e8m0fnu,
    _ml_dtypes.float8_e4m3b11fnuz, _ml_dtypes.float8_e4m3fn,
    _ml_dtypes.float8_e4m3fnuz, _ml_dtypes.float8_e5m2, _ml_dtypes.float8_e5m2fnuz,
})  # fmt: skip
_CUSTOM_SIGNED_TYPES: Final[frozenset[type[np.generic]]] = frozenset(
    {_ml_dtypes.int1, _ml_dtypes.int2, _ml_dtypes.int4}
)
_CUSTOM_UNSIGNED_TYPES: Final[frozenset[type[np.generic]]] = frozenset(
    {_ml_dtypes.uint1, _ml_dtypes.uint2, _ml_dtypes.uint4}
)


def narrow_types() -> frozenset[type[np.generic]]:
    """The scalar types of ml_dtypes' narrow dtypes jaxtyped arrays may have
    (float8s, float4/float6, int1-int4, uint1-uint4)."""
    return _NARROW_TYPES


def sub_byte_types() -> frozenset[type[np.generic]]:
    """The narrow types narrower than a byte (stored one per byte by NumPy)."""
    return _SUB_BYTE_TYPES


# --- extended dtypes --------------------------------------------------------


class extended(np.generic):  # noqa: N801  # JAX's name
    """The scalar type above every extended dtype: dtypes that are not
    NumPy's, such as the typed PRNG keys' ``key<fry>`` (JAX's
    ``jax.dtypes.extended``). ``issubdtype(key.dtype, extended)`` is True."""


class prng_key(extended):  # noqa: N801  # JAX's name
    """The scalar type of typed PRNG key dtypes (JAX's
    ``jax.dtypes.prng_key``): ``issubdtype(key.dtype, prng_key)`` is True."""


def extended_scalar_type(x: object) -> type[extended] | None:
    """The scalar type of an extended dtype (one whose ``type`` is below
    :class:`extended`, as key arrays' dtypes are), else None."""
    scalar = getattr(x, "type", None)
    if isinstance(x, type) or not isinstance(scalar, type) or not issubclass(scalar, extended):
        return None
    return scalar


# --- dtype conversion and canonicalization ---------------------------------


def default_int_dtype() -> np.dtype[Any]:
    """The dtype of Python ``int`` values: int64 with x64 enabled, else int32."""
    return _INT64 if config.jax_enable_x64 else _INT32


def default_uint_dtype() -> np.dtype[Any]:
    """The default unsigned dtype: uint64 with x64 enabled, else uint32."""
    return _UINT64 if config.jax_enable_x64 else _UINT32


def default_float_dtype() -> np.dtype[Any]:
    """The dtype of Python ``float`` values: float64 with x64, else float32."""
    return _FLOAT64 if config.jax_enable_x64 else _FLOAT32


def default_complex_dtype() -> np.dtype[Any]:
    """The dtype of Python ``complex`` values: complex128 with x64, else complex64."""
    return _COMPLEX128 if config.jax_enable_x64 else _COMPLEX64


def _python_type_dtype(x: object) -> np.dtype[Any] | None:
    """The (canonical) default dtype for the Python scalar *types*, else None."""
    # Identity, not equality: np.dtype.__eq__ would accept the string "int".
    if x is bool:
        return _BOOL
    if x is int:
        return default_int_dtype()
    if x is float:
        return default_float_dtype()
    if x is complex:
        return default_complex_dtype()
    return None


def _is_dtype(x: object) -> TypeIs[np.dtype[Any]]:
    return isinstance(x, np.dtype)


def _is_scalar_type(x: object) -> TypeIs[type[np.generic]]:
    return isinstance(x, type) and issubclass(x, np.generic)


def _is_tuple(x: object) -> TypeIs[tuple[object, ...]]:
    return isinstance(x, tuple)


def _as_numpy_dtype(x: object, where: str) -> np.dtype[Any]:
    """``np.dtype(x)`` restricted to DTypeLike inputs, with jaxtyped errors."""
    if _is_dtype(x):
        return x
    # jnp-style scalar classes and arrays carry their dtype in `.dtype`; for
    # numpy scalar classes `.dtype` is a descriptor, so the check fails.
    attribute: object = getattr(x, "dtype", None)
    if _is_dtype(attribute):
        return attribute
    if not isinstance(x, (str, type)):
        raise JaxtypedTypeError(
            f"{where}: cannot interpret {x!r} (of type {type(x).__name__}) as a "
            "dtype; pass a dtype name, a scalar type, a dtype or an array"
        )
    try:
        return np.dtype(x)
    except (TypeError, ValueError) as error:
        raise JaxtypedTypeError(f"{where}: cannot interpret {x!r} as a dtype") from error


def dtype(x: DTypeLike) -> np.dtype[Any]:
    """Convert a dtype specifier to a supported ``np.dtype``.

    Python's ``int``, ``float`` and ``complex`` map to the canonical default
    dtype of their kind (``bool`` to bool); every other specifier is taken as
    written, so ``dtype("float64")`` is float64 even with x64 disabled (use
    :func:`canonicalize_dtype` for the dtype an array would get).

    Raises:
        JaxtypedTypeError: ``x`` is not a dtype specifier, or names a dtype
            jaxtyped does not support (object, str, datetime, int4, ...).
    """
    default = _python_type_dtype(x)
    if default is not None:
        return default
    result = _as_numpy_dtype(x, "dtype()")
    if result not in _SUPPORTED_SET:
        check_supported(result, f"dtype({x!r})")
    return result


def canonicalize_dtype(d: DTypeLike) -> np.dtype[Any]:
    """The dtype an array of dtype ``d`` has under the current x64 setting.

    With ``config.jax_enable_x64`` off, 64-bit dtypes map to their 32-bit
    counterparts; everything else is unchanged.

    Raises:
        JaxtypedTypeError: as :func:`dtype`.
    """
    result = d if isinstance(d, np.dtype) and d in _SUPPORTED_SET else dtype(d)
    if config.jax_enable_x64:
        return result
    return _TO_32BIT.get(result, result)


def check_supported(d: np.dtype[Any], where: str) -> None:
    """Raise unless ``d`` is a dtype jaxtyped arrays may have.

    Supported: the dtypes of :func:`supported_dtypes` and ``float0``, in
    native byte order.

    Args:
        d: the dtype to check.
        where: the function and argument to name in the error message.

    Raises:
        JaxtypedTypeError: ``d`` is not supported.
    """
    if d in _SUPPORTED_SET:
        return
    names = ", ".join(str(s) for s in _ALL_SUPPORTED)
    if d.byteorder not in "=|" and d.newbyteorder("=") in _SUPPORTED_SET:
        hint = f"; convert to native byte order with .astype({d.newbyteorder('=')!s})"
    else:
        hint = ""
    raise JaxtypedTypeError(
        f"{where}: dtype {d} is not supported by jaxtyped{hint}; supported "
        f"dtypes are {names} (and float0 for tangents)"
    )


def supported_dtypes(*, canonical_only: bool = False) -> tuple[np.dtype[Any], ...]:
    """The dtypes jaxtyped arrays may have (``float0`` excepted).

    Args:
        canonical_only: if False (the default), all 15 dtypes, whatever the
            x64 setting: bool, int8-int64, uint8-uint64, float16, bfloat16,
            float32, float64, complex64, complex128. If True, only those that
            are canonical under the current x64 setting (with x64 off, the
            eleven without 64-bit ones).
    """
    if not canonical_only or config.jax_enable_x64:
        return _ALL_SUPPORTED
    return tuple(d for d in _ALL_SUPPORTED if d not in _TO_32BIT)


def python_scalar_dtype(x: bool | int | float | complex) -> np.dtype[Any]:
    """The canonical dtype of a Python scalar: bool for ``bool``, else the
    default dtype of its kind (the value is weakly typed unless ``bool``).

    Raises:
        JaxtypedTypeError: ``x`` is a NumPy scalar (``np.float64`` subclasses
            ``float`` but is strongly typed: use its ``.dtype``).
    """
    if isinstance(x, np.generic):
        raise JaxtypedTypeError(
            f"python_scalar_dtype: {x!r} is a NumPy scalar of dtype {x.dtype}, "
            "not a Python scalar; NumPy scalars are strongly typed, use x.dtype"
        )
    # bool before int: bool subclasses int.
    if isinstance(x, bool):
        return _BOOL
    if isinstance(x, int):
        return default_int_dtype()
    if isinstance(x, float):
        return default_float_dtype()
    if isinstance(x, complex):  # pyright: ignore[reportUnnecessaryIsInstance]  # runtime guard for untyped callers
        return default_complex_dtype()
    raise JaxtypedTypeError(
        f"python_scalar_dtype: {x!r} of type {type(x).__name__} is not a Python scalar"
    )


# --- the type-promotion lattice --------------------------------------------

_WEAK_INT: Final = "i*"
_WEAK_FLOAT: Final = "f*"
_WEAK_COMPLEX: Final = "c*"

# Each node's immediate successors, as in JAX's _type_promotion_lattice (the
# "standard" mode; jaxtyped has no "strict" mode nor sub-byte/fp8 types).
_LATTICE_EDGES: Final[dict[str, tuple[str, ...]]] = {
    "bool": (_WEAK_INT,),
    _WEAK_INT: ("uint8", "int8"),
    "uint8": ("int16", "uint16"),
    "uint16": ("int32", "uint32"),
    "uint32": ("int64", "uint64"),
    "uint64": (_WEAK_FLOAT,),
    "int8": ("int16",),
    "int16": ("int32",),
    "int32": ("int64",),
    "int64": (_WEAK_FLOAT,),
    _WEAK_FLOAT: ("bfloat16", "float16", _WEAK_COMPLEX),
    "bfloat16": ("float32",),
    "float16": ("float32",),
    "float32": ("float64", "complex64"),
    "float64": ("complex128",),
    _WEAK_COMPLEX: ("complex64",),
    "complex64": ("complex128",),
    "complex128": (),
    # Narrow types: reached from their kind's weak node only (no implicit
    # promotion with any other dtype, as in JAX).
    **{d.name: () for d in _NARROW_SUPPORTED},
}
for _narrow in _NARROW_SUPPORTED:
    _weak_parent = _WEAK_FLOAT if _narrow.type in _CUSTOM_FLOAT_TYPES else _WEAK_INT
    _LATTICE_EDGES[_weak_parent] = (*_LATTICE_EDGES[_weak_parent], _narrow.name)

# Without x64, JAX avoids forming a 64-bit type from 32-bit inputs: the one
# such promotion, uint32 x int32 -> int64, becomes uint32 x int32 -> int32.
_LATTICE_EDGES_X32: Final[dict[str, tuple[str, ...]]] = {
    **_LATTICE_EDGES,
    "uint32": ("int32", "uint64"),
}

# The weak node of each kind; "b" maps to bool because bool is never weak.
_WEAK_NODE_OF_KIND: Final[dict[str, str]] = {
    "b": "bool", "i": _WEAK_INT, "u": _WEAK_INT, "f": _WEAK_FLOAT, "c": _WEAK_COMPLEX,
}  # fmt: skip


@final
@dataclass(frozen=True, slots=True)
class _Lattice:
    """A promotion lattice with upper sets as bitmasks, nodes in topological
    order (so a set's least upper bound is its lowest common upper bound)."""

    names: tuple[str, ...]
    index: dict[str, int]
    upper: tuple[int, ...]

    def join(self, nodes: set[str]) -> str:
        """The least upper bound of ``nodes``."""
        common = -1
        for node in nodes:
            common &= self.upper[self.index[node]]
        lowest = (common & -common).bit_length() - 1
        if common == 0 or self.upper[lowest] != common:
            # Only the narrow (ml_dtypes) types lack a common bound.
            raise TypePromotionError(
                f"no implicit dtype promotion path for {sorted(nodes)}: narrow dtypes (float8, int4, ...) "
                "promote only with Python scalars; convert explicitly with .astype(...)"
            )
        return self.names[lowest]


def _build_lattice(edges: dict[str, tuple[str, ...]]) -> _Lattice:
    """Close ``edges`` transitively and number the nodes bottom-up."""
    upper_sets = {node: {node} for node in edges}
    changed = True
    while changed:
        changed = False
        for node, ups in upper_sets.items():
            grown = ups.union(*(upper_sets[succ] for succ in edges[node]))
            if grown != ups:
                upper_sets[node] = grown
                changed = True
    # a < b implies UB(a) strictly contains UB(b): a linear extension.
    names = tuple(sorted(edges, key=lambda node: -len(upper_sets[node])))
    index = {name: i for i, name in enumerate(names)}
    upper = tuple(sum(1 << index[u] for u in upper_sets[name]) for name in names)
    return _Lattice(names, index, upper)


# Precomputed once; JAX, too, uses the x32 lattice whenever x64 is off.
_LATTICES: Final[dict[bool, _Lattice]] = {
    False: _build_lattice(_LATTICE_EDGES_X32),
    True: _build_lattice(_LATTICE_EDGES),
}

_STRONG_NODE: Final[dict[np.dtype[Any], str]] = {d: d.name for d in (*_ALL_SUPPORTED, *_NARROW_SUPPORTED)}
_NODE_DTYPE: Final[dict[str, np.dtype[Any]]] = {d.name: d for d in (*_ALL_SUPPORTED, *_NARROW_SUPPORTED)}


def _node(d: np.dtype[Any], where: str) -> str:
    node = _STRONG_NODE.get(d)
    if node is None:
        check_supported(d, where)
        # Supported but not in the lattice: d is float0.
        raise JaxtypedTypeError(
            f"{where}: dtype float0 does not take part in type promotion; it "
            "only combines with float0"
        )
    return node


# --- promote_types ----------------------------------------------------------


def promote_types(a: DTypeLike, b: DTypeLike) -> np.dtype[Any]:
    """The dtype a binary operation casts ``a`` and ``b`` to: exactly
    ``jax.numpy.promote_types``.

    Dtypes are strongly typed and taken as written: like JAX, the result is
    not canonicalized (``promote_types("float64", "float32")`` is float64 even
    with x64 off; apply :func:`canonicalize_dtype` for an array dtype). The
    Python types ``int``, ``float`` and ``complex`` are weak, and a weak
    result is, as in JAX, int64, float64 or complex128
    (``promote_types(int, "uint8")`` is uint8, ``promote_types(int, float)``
    is float64).

    Raises:
        JaxtypedTypeError: an argument is not a promotable dtype.
    """
    return _promote_nodes(
        config.jax_enable_x64,
        _promotion_node(a, "promote_types"),
        _promotion_node(b, "promote_types"),
    )


def _promotion_node(x: DTypeLike, where: str) -> str:
    # Identity checks: these Python types are weak, bool is not.
    if x is int:
        return _WEAK_INT
    if x is float:
        return _WEAK_FLOAT
    if x is complex:
        return _WEAK_COMPLEX
    if x is bool:
        return "bool"
    return _node(_as_numpy_dtype(x, where), where)


_WEAK_NODE_AS_NUMPY: Final[dict[str, np.dtype[Any]]] = {
    _WEAK_INT: _INT64, _WEAK_FLOAT: _FLOAT64, _WEAK_COMPLEX: _COMPLEX128,
}  # fmt: skip


@functools.lru_cache(maxsize=1024)
def _promote_nodes(x64: bool, a: str, b: str) -> np.dtype[Any]:
    joined = _LATTICES[x64].join({a, b})
    weak = _WEAK_NODE_AS_NUMPY.get(joined)
    return _NODE_DTYPE[joined] if weak is None else weak


# --- result_dtype -----------------------------------------------------------

_Operand = tuple[np.dtype[Any], bool]

# The cache of result_dtype, one per x64 setting. Keys are the operand tuples;
# the bound only guards against unbounded growth from huge variadic calls.
_RESULT_CACHE_X32: Final[dict[tuple[_Operand, ...], _Operand]] = {}
_RESULT_CACHE_X64: Final[dict[tuple[_Operand, ...], _Operand]] = {}
_RESULT_CACHE_LIMIT: Final = 8192


def result_dtype(*operands: tuple[np.dtype[Any], bool]) -> tuple[np.dtype[Any], bool]:
    """The promoted ``(dtype, weak_type)`` of operands of one operation.

    Each operand is a ``(dtype, is_weak)`` pair; a Python scalar operand is
    ``(python_scalar_dtype(x), not isinstance(x, bool))``. The result equals
    ``jax.dtypes.result_type(..., return_weak_type_flag=True)``, with the
    dtype canonicalized for the current x64 setting: for example
    ``result_dtype((uint8, False), (int32, True))`` is ``(uint8, False)`` and
    ``result_dtype((int32, True), (float32, True))`` is ``(float32, True)``.

    Results are cached per x64 setting.

    Raises:
        JaxtypedValueError: no operands.
        JaxtypedTypeError: an operand is not a (supported dtype, bool) pair,
            or ``float0`` is mixed with another dtype.
    """
    x64 = config.jax_enable_x64
    cache = _RESULT_CACHE_X64 if x64 else _RESULT_CACHE_X32
    try:
        return cache[operands]
    except (KeyError, TypeError):
        # TypeError: an unhashable operand, which _compute_result reports.
        pass
    result = _compute_result(operands, x64)
    if len(cache) >= _RESULT_CACHE_LIMIT:
        cache.clear()
    cache[operands] = result
    return result


def _compute_result(operands: tuple[_Operand, ...], x64: bool) -> _Operand:
    if not operands:
        raise JaxtypedValueError("result_dtype: at least one operand is required")
    canonical = tuple(_canonical_operand(operand, x64) for operand in operands)
    dtypes = {d for d, _ in canonical}
    all_weak = all(weak for _, weak in canonical)
    if len(dtypes) == 1 and not all_weak:
        # As in JAX, equal dtypes need no lattice, which lets float0 through.
        return canonical[0][0], False
    lattice = _LATTICES[x64]
    if all_weak:
        # JAX joins weak operands' strong dtypes and re-weakens the result
        # to the default dtype of its kind (so weak uint8 stays unsigned).
        return _weak_result(lattice.join({_node(d, "result_dtype") for d in dtypes}))
    joined = lattice.join(
        {_weak_node(d) if weak else _node(d, "result_dtype") for d, weak in canonical}
    )
    if joined in _WEAK_NODE_AS_NUMPY:
        return _weak_result(joined)
    return _NODE_DTYPE[joined], False


def _canonical_operand(operand: object, x64: bool) -> _Operand:
    # Checked at run time: untyped callers may pass anything.
    pair = operand if _is_tuple(operand) else ()
    if len(pair) != 2 or not _is_dtype(pair[0]) or type(pair[1]) not in (bool, np.bool_):
        raise JaxtypedTypeError(
            f"result_dtype: each operand must be a (dtype, is_weak) pair, got {operand!r}"
        )
    d = pair[0]
    check_supported(d, "result_dtype")
    if not x64:
        d = _TO_32BIT.get(d, d)
    return d, bool(pair[1])


def _weak_node(d: np.dtype[Any]) -> str:
    """The node of a weakly typed ``d``: its kind's weak node (bool: bool)."""
    if d == _BFLOAT16 or d.type in _CUSTOM_FLOAT_TYPES:
        return _WEAK_FLOAT
    if d.type in _CUSTOM_SIGNED_TYPES or d.type in _CUSTOM_UNSIGNED_TYPES:
        return _WEAK_INT
    node = _WEAK_NODE_OF_KIND.get(d.kind)
    if node is None:
        raise JaxtypedTypeError(f"result_dtype: dtype {d} cannot be weakly typed")
    return node


_DEFAULT_OF_KIND: Final[dict[str, Callable[[], np.dtype[Any]]]] = {
    "i": default_int_dtype,
    "u": default_uint_dtype,
    "f": default_float_dtype,
    "c": default_complex_dtype,
}


def _weak_result(node: str) -> _Operand:
    """The result at ``node`` of a weakly typed join: its kind's default
    dtype, weakly typed (bool is never weak)."""
    if node == "bool":
        return _BOOL, False
    if node in _WEAK_NODE_AS_NUMPY:
        kind = node[0]
    else:
        d = _NODE_DTYPE[node]
        kind = "f" if d.type in _CUSTOM_FLOAT_TYPES else "i" if d.type in _CUSTOM_SIGNED_TYPES else "u" if d.type in _CUSTOM_UNSIGNED_TYPES else d.kind
    return _DEFAULT_OF_KIND[kind](), True


# --- kind predicates --------------------------------------------------------


def is_bool(d: np.dtype[Any]) -> bool:
    """Whether ``d`` is the boolean dtype."""
    return d.kind == "b"


def is_signed_integer(d: np.dtype[Any]) -> bool:
    """Whether ``d`` is a signed integer dtype."""
    return d.kind == "i" or d.type in _CUSTOM_SIGNED_TYPES


def is_unsigned_integer(d: np.dtype[Any]) -> bool:
    """Whether ``d`` is an unsigned integer dtype."""
    return d.kind == "u" or d.type in _CUSTOM_UNSIGNED_TYPES


def is_integer(d: np.dtype[Any]) -> bool:
    """Whether ``d`` is a signed or unsigned integer dtype (not bool)."""
    return is_signed_integer(d) or is_unsigned_integer(d)


def is_floating(d: np.dtype[Any]) -> bool:
    """Whether ``d`` is a real floating dtype, bfloat16 and float16 included."""
    return d.kind == "f" or d.type in _CUSTOM_FLOAT_TYPES


def is_complex(d: np.dtype[Any]) -> bool:
    """Whether ``d`` is a complex dtype."""
    return d.kind == "c"


def is_inexact(d: np.dtype[Any]) -> bool:
    """Whether ``d`` is a floating or complex dtype."""
    return is_floating(d) or is_complex(d)


def is_float0(d: np.dtype[Any]) -> bool:
    """Whether ``d`` is :data:`float0`."""
    return d == float0


def issubdtype(arg1: DTypeLike | ExtendedDType, arg2: DTypeLike | ExtendedDType) -> bool:
    """``jax.numpy.issubdtype``: whether ``arg1`` is ``arg2`` or below it in NumPy's
    scalar-type hierarchy, with ml_dtypes' types placed where they belong
    (``issubdtype(bfloat16, np.floating)`` is True).

    ``arg2`` is usually an abstract scalar type (``np.floating``,
    ``np.integer``, ``np.number``...). As in NumPy and JAX, Python types
    mean NumPy's 64-bit types here (``issubdtype(np.int32, int)`` is False).

    Raises:
        JaxtypedTypeError: an argument is not a dtype specifier.
    """
    a_type = _scalar_type(arg1)
    b_type = _scalar_type(arg2)
    if a_type in _CUSTOM_FLOAT_TYPES:
        return b_type in (a_type, np.floating, np.inexact, np.number, np.generic)
    if a_type in _CUSTOM_SIGNED_TYPES:
        return b_type in (a_type, np.signedinteger, np.integer, np.number, np.generic)
    if a_type in _CUSTOM_UNSIGNED_TYPES:
        return b_type in (a_type, np.unsignedinteger, np.integer, np.number, np.generic)
    return bool(np.issubdtype(a_type, b_type))


def dtypes_issubdtype(a: DTypeLike | ExtendedDType | None, b: DTypeLike | ExtendedDType | None) -> bool:
    """``jax.dtypes.issubdtype``: :func:`issubdtype` under that module's
    parameter names (``a``, ``b``; ``jnp.issubdtype`` has NumPy's ``arg1``,
    ``arg2``). ``None`` means float64, as ``np.dtype(None)`` does."""
    return issubdtype(np.float64 if a is None else a, np.float64 if b is None else b)


_to_dtype = dtype  # for functions whose JAX parameter name shadows dtype()


def _scalar_type(x: DTypeLike | ExtendedDType) -> type[np.generic]:
    # Abstract types (np.floating) have no dtype: keep them as they are.
    if _is_scalar_type(x):
        return x
    extended_type = extended_scalar_type(x)
    if extended_type is not None:
        return extended_type
    # Not extended (np.dtype matches the ExtendedDType protocol too, by its attributes).
    return _as_numpy_dtype(cast(DTypeLike, x), "issubdtype").type


def finfo(dtype: DTypeLike) -> np.finfo[np.floating[Any]]:
    """Machine limits of a floating or complex dtype (bfloat16 included).

    The limits (``eps``, ``max``, ``tiny``, ...) are typed as NumPy floating
    scalars, so ``x + jnp.finfo(x.dtype).eps`` is an ``Array`` to the
    checkers. For ml_dtypes' types (bfloat16, the float8 family) they are
    ml_dtypes scalars, which compute like floating ones but are not
    ``np.floating`` instances.

    Raises:
        JaxtypedValueError: ``dtype`` is not inexact.
    """
    dt = _to_dtype(dtype)
    if not is_inexact(dt):
        raise JaxtypedValueError(f"finfo: dtype {dt} is not a floating or complex dtype")
    # ml_dtypes' finfo subclasses NumPy's; its limits act as floating scalars.
    info: np.finfo[np.floating[Any]] = _ml_dtypes.finfo(dt)
    return info


def iinfo(int_type: DTypeLike) -> np.iinfo[Any]:
    """Machine limits of an integer dtype.

    Raises:
        JaxtypedValueError: ``int_type`` is not an integer dtype.
    """
    dt = _to_dtype(int_type)
    if not is_integer(dt):
        raise JaxtypedValueError(f"iinfo: dtype {dt} is not an integer dtype")
    return np.iinfo(dt)


def integer_bounds(d: np.dtype[Any]) -> tuple[int, int]:
    """(min, max) of an integer dtype, ml_dtypes' narrow ones (int4, ...)
    included, which NumPy's ``iinfo`` rejects."""
    info = _ml_dtypes.iinfo(d) if d.type in _NARROW_TYPES else np.iinfo(d)
    return int(info.min), int(info.max)


_SHORT_NAMES: Final[dict[np.dtype[Any], str]] = {
    _BOOL: "bool",
    _INT8: "i8", _INT16: "i16", _INT32: "i32", _INT64: "i64",
    _UINT8: "u8", _UINT16: "u16", _UINT32: "u32", _UINT64: "u64",
    _FLOAT16: "f16", _BFLOAT16: "bf16", _FLOAT32: "f32", _FLOAT64: "f64",
    _COMPLEX64: "c64", _COMPLEX128: "c128",
    float0: "float0",
}  # fmt: skip


def short_dtype_name(d: np.dtype[Any]) -> str:
    """JAX's short dtype name, as in jaxpr types (``f32[3]``): bool, i8-i64,
    u8-u64, f16, bf16, f32, f64, c64, c128, float0.

    Other dtypes get JAX's abbreviation of their name (``int4`` -> ``i4``).
    """
    short = _SHORT_NAMES.get(d)
    if short is not None:
        return short
    return (
        d.name.replace("float", "f")
        .replace("uint", "u")
        .replace("int", "i")
        .replace("complex", "c")
        .replace("void", "float0")
    )
