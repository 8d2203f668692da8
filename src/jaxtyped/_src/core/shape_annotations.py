"""Shape-and-dtype annotations for user code: ``Float[Array, "batch n"]``.

Note [static and run-time meaning]: for type checkers every annotation here
is ``Annotated[Array, "batch n"]``, which is plain ``Array`` (the names are
aliases of ``typing.Annotated`` under ``TYPE_CHECKING``, as jaxtyping does),
so annotated code type-checks exactly as with ``Array``. At run time
``Float[Array, "batch n"]`` is a class: ``isinstance`` on it checks the dtype
kind, the rank and the fixed sizes (so beartype can use it anywhere, nested
in containers too), and :class:`SignatureChecker` checks a whole call,
binding each named dimension on first use and requiring the same size
everywhere else in the call. ``jit`` runs that check once per trace (on the
abstract arguments, so compiled code pays nothing); :func:`typechecked` runs
it at every call in debug mode and is the identity otherwise.

Dimension syntax (space separated): ``n`` a named size, ``3`` a fixed size,
``_`` any size, ``...`` any number of dimensions, ``*batch`` a named run of
dimensions (the same run everywhere in the call); ``""`` is a scalar.
"""

import functools
import inspect
import re
import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Final, TypeVar, Union

import numpy as np

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.debug_flag import DEBUG
from jaxtyped._src.errors import AnnotationMismatchError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.util import describe_function

__all__ = [
    "ArrayAnnotation",
    "BFloat16",
    "Bool",
    "Complex",
    "Complex64",
    "Complex128",
    "DTypeKind",
    "Float",
    "Float16",
    "Float32",
    "Float64",
    "Inexact",
    "Int",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "Integer",
    "Num",
    "Shaped",
    "SignatureChecker",
    "UInt",
    "UInt8",
    "UInt16",
    "UInt32",
    "UInt64",
    "checker_for",
    "typechecked",
]

F = TypeVar("F", bound=Callable[..., Any])

# === dimensions ===


@dataclass(frozen=True, slots=True)
class FixedDim:
    """A dimension of exactly ``size`` (written ``3``)."""

    size: int


@dataclass(frozen=True, slots=True)
class NamedDim:
    """A dimension named ``name`` (written ``n``); ``name=None`` is ``_``."""

    name: str | None


@dataclass(frozen=True, slots=True)
class VariadicDims:
    """Any number of dimensions (``...``), named when written ``*name``."""

    name: str | None


Dim = FixedDim | NamedDim | VariadicDims

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


def parse_dims(text: str, where: str) -> tuple[Dim, ...]:
    """The dimensions of a shape string such as ``"batch *rest 3"``.

    Raises:
        JaxtypedValueError: a token is not a size, a name, ``_``, ``...`` or
            ``*name``, or more than one token stands for many dimensions.
    """
    dims: list[Dim] = []
    for token in text.split():
        dim: Dim
        if token.isdigit():
            dim = FixedDim(int(token))
        elif token == "_":
            dim = NamedDim(None)
        elif token in ("...", "*_"):
            dim = VariadicDims(None)
        elif token.startswith("*") and _NAME.match(token[1:]):
            dim = VariadicDims(token[1:])
        elif _NAME.match(token):
            dim = NamedDim(token)
        else:
            raise JaxtypedValueError(
                f"{where}: dimension {token!r} is not a size (3), a name (n), '_', '...' or '*name'"
            )
        dims.append(dim)
    if sum(isinstance(d, VariadicDims) for d in dims) > 1:
        raise JaxtypedValueError(f"{where}: at most one '...' or '*name' per shape")
    return tuple(dims)


# A named size and where it was first seen, e.g. (4, "argument 'x' (f32[3,4])").
Binding = tuple[int | tuple[int, ...], str]
Memo = dict[str, Binding]


def _bind(memo: Memo, name: str, size: int | tuple[int, ...], origin: str) -> str | None:
    bound = memo.get(name)
    if bound is None:
        memo[name] = (size, origin)
        return None
    if bound[0] == size:
        return None
    shown = "x".join(map(str, size)) if isinstance(size, tuple) else str(size)
    before = "x".join(map(str, bound[0])) if isinstance(bound[0], tuple) else str(bound[0])
    what = "dimensions" if isinstance(size, tuple) else "dimension"
    return f"{what} {name} is {shown or '()'} here but {before or '()'} in {bound[1]}"


def match_shape(dims: tuple[Dim, ...], shape: tuple[int, ...], memo: Memo, origin: str) -> str | None:
    """Match ``shape`` against ``dims``, binding names in ``memo``; the
    reason for a mismatch, or None."""
    variadic = next((i for i, d in enumerate(dims) if isinstance(d, VariadicDims)), None)
    if variadic is None:
        if len(shape) != len(dims):
            return f"the annotation has {len(dims)} dimension(s), the value {len(shape)}"
        pairs = list(zip(dims, shape))
    else:
        fixed = len(dims) - 1
        if len(shape) < fixed:
            return f"the annotation has at least {fixed} dimension(s), the value {len(shape)}"
        tail = len(dims) - variadic - 1
        run = shape[variadic : len(shape) - tail]
        pairs = list(zip(dims[:variadic], shape[:variadic])) + list(zip(dims[variadic + 1 :], shape[len(shape) - tail :]))
        marker = dims[variadic]
        if isinstance(marker, VariadicDims) and marker.name is not None:
            reason = _bind(memo, marker.name, run, origin)
            if reason is not None:
                return reason
    for dim, size in pairs:
        if isinstance(dim, FixedDim):
            if dim.size != size:
                return f"a dimension is {size} where the annotation fixes it to {dim.size}"
        elif isinstance(dim, NamedDim) and dim.name is not None:
            reason = _bind(memo, dim.name, size, origin)
            if reason is not None:
                return reason
    return None


# === dtype kinds and annotation classes ===


class _AnnotationMeta(type):
    # isinstance(x, Float[Array, "n"]) checks the value alone: dtype kind,
    # rank, fixed sizes, and names repeated within this one value.
    def __instancecheck__(cls, instance: object) -> bool:
        spec: ArraySpec | None = getattr(cls, "spec", None)
        if spec is None:
            return False
        return spec.mismatch(instance, {}, "") is None

    # No custom __repr__: beartype takes a repr ending in "]" for a
    # subscripted generic. The class's name is the annotation's text.


class ArrayAnnotation(metaclass=_AnnotationMeta):
    """Base of the run-time classes that ``Float[Array, "n"]`` and friends
    create; ``spec`` describes the annotation."""

    spec: ClassVar["ArraySpec"]


def _describe(value: object) -> str:
    if isinstance(value, Array):
        return value.aval.str_short()
    if isinstance(value, (np.ndarray, np.generic)):
        host = _as_numpy(typing.cast(object, value))
        dims = ",".join(str(d) for d in host.shape)
        return f"numpy {dtypes.short_dtype_name(host.dtype)}[{dims}]"
    return type(value).__name__


def _as_numpy(value: object) -> np.ndarray[Any, np.dtype[Any]]:
    return np.asarray(value)


def _array_like_type(value: object) -> tuple[tuple[int, ...], np.dtype[Any]] | None:
    if isinstance(value, Array):
        return value.shape, value.dtype
    if isinstance(value, (np.ndarray, np.generic)):
        host = _as_numpy(typing.cast(object, value))
        return host.shape, host.dtype
    if isinstance(value, (bool, int, float, complex)):
        return (), dtypes.python_scalar_dtype(value)
    return None


@dataclass(frozen=True, slots=True)
class ArraySpec:
    """What one annotation requires: a base (``Array`` or ``ArrayLike``), a
    dtype kind and dimensions."""

    kind: "DTypeKind"
    base_is_array: bool
    dims: tuple[Dim, ...]
    text: str

    def mismatch(self, value: object, memo: Memo, origin: str) -> str | None:
        """Why ``value`` does not match (binding names in ``memo``), or None."""
        if self.base_is_array and not isinstance(value, Array):
            return f"expected an Array, got {_describe(value)}"
        typed = _array_like_type(value)
        if typed is None:
            return f"expected an array or a scalar, got {_describe(value)}"
        shape, dtype = typed
        if not self.kind.accepts(dtype):
            return f"its dtype {dtype.name} is not {self.kind.description}"
        return match_shape(self.dims, shape, memo, f"{origin} ({_describe(value)})")


@dataclass(frozen=True, slots=True)
class DTypeKind:
    """A dtype family usable as ``Kind[Array, "dims"]`` (``Float``, ``Int``...)."""

    name: str
    accepts: Callable[[np.dtype[Any]], bool]
    description: str

    def __getitem__(self, item: object) -> type[ArrayAnnotation]:
        if not (isinstance(item, tuple) and len(item) == 2):  # pyright: ignore[reportUnknownArgumentType]  # any tuple
            raise JaxtypedTypeError(f'{self.name}[...] takes two arguments, as in {self.name}[Array, "batch n"]; got {item!r}')
        base, text = typing.cast(tuple[object, object], item)
        return _annotation_class(self, base, text)


@functools.lru_cache(maxsize=None)
def _annotation_class(kind: DTypeKind, base: object, text: object) -> type[ArrayAnnotation]:
    # Cached so that the same annotation is the same class (beartype caches
    # its checks per hint object).
    if base is not Array and base is not ArrayLike:
        raise JaxtypedTypeError(f"{kind.name}[...]: the first argument must be Array or ArrayLike, got {base!r}")
    if not isinstance(text, str):
        raise JaxtypedTypeError(f'{kind.name}[...]: the shape must be a string such as "batch n", got {text!r}')
    shown = f"{kind.name}[{'Array' if base is Array else 'ArrayLike'}, {text!r}]"
    spec = ArraySpec(kind, base is Array, parse_dims(text, shown), shown)
    cls = _AnnotationMeta(shown, (ArrayAnnotation,), {"spec": spec, "__module__": "jaxtyped.typing"})
    return typing.cast(type[ArrayAnnotation], cls)


def _is_exactly(name: str) -> Callable[[np.dtype[Any]], bool]:
    target = dtypes.dtype(name)
    return lambda d: d == target


if TYPE_CHECKING:
    # For type checkers, Float[Array, "n"] is Annotated[Array, "n"]: Array.
    from typing import Annotated as BFloat16
    from typing import Annotated as Bool
    from typing import Annotated as Complex
    from typing import Annotated as Complex64
    from typing import Annotated as Complex128
    from typing import Annotated as Float
    from typing import Annotated as Float16
    from typing import Annotated as Float32
    from typing import Annotated as Float64
    from typing import Annotated as Inexact
    from typing import Annotated as Int
    from typing import Annotated as Int8
    from typing import Annotated as Int16
    from typing import Annotated as Int32
    from typing import Annotated as Int64
    from typing import Annotated as Integer
    from typing import Annotated as Num
    from typing import Annotated as Shaped
    from typing import Annotated as UInt
    from typing import Annotated as UInt8
    from typing import Annotated as UInt16
    from typing import Annotated as UInt32
    from typing import Annotated as UInt64
else:
    Shaped = DTypeKind("Shaped", lambda d: True, "any dtype")
    Bool = DTypeKind("Bool", dtypes.is_bool, "bool")
    Num = DTypeKind("Num", lambda d: not dtypes.is_bool(d) and not dtypes.is_float0(d), "a numeric dtype")
    Inexact = DTypeKind("Inexact", dtypes.is_inexact, "a floating or complex dtype")
    Float = DTypeKind("Float", dtypes.is_floating, "a floating dtype")
    Complex = DTypeKind("Complex", dtypes.is_complex, "a complex dtype")
    Integer = DTypeKind("Integer", dtypes.is_integer, "an integer dtype")
    Int = DTypeKind("Int", dtypes.is_signed_integer, "a signed integer dtype")
    UInt = DTypeKind("UInt", dtypes.is_unsigned_integer, "an unsigned integer dtype")
    BFloat16 = DTypeKind("BFloat16", _is_exactly("bfloat16"), "bfloat16")
    Float16 = DTypeKind("Float16", _is_exactly("float16"), "float16")
    Float32 = DTypeKind("Float32", _is_exactly("float32"), "float32")
    Float64 = DTypeKind("Float64", _is_exactly("float64"), "float64")
    Int8 = DTypeKind("Int8", _is_exactly("int8"), "int8")
    Int16 = DTypeKind("Int16", _is_exactly("int16"), "int16")
    Int32 = DTypeKind("Int32", _is_exactly("int32"), "int32")
    Int64 = DTypeKind("Int64", _is_exactly("int64"), "int64")
    UInt8 = DTypeKind("UInt8", _is_exactly("uint8"), "uint8")
    UInt16 = DTypeKind("UInt16", _is_exactly("uint16"), "uint16")
    UInt32 = DTypeKind("UInt32", _is_exactly("uint32"), "uint32")
    UInt64 = DTypeKind("UInt64", _is_exactly("uint64"), "uint64")
    Complex64 = DTypeKind("Complex64", _is_exactly("complex64"), "complex64")
    Complex128 = DTypeKind("Complex128", _is_exactly("complex128"), "complex128")


# === checking a whole call ===

_NOT_FOUND: Final = object()


def _spec_of(hint: object) -> "ArraySpec | None":
    if isinstance(hint, type) and issubclass(hint, ArrayAnnotation) and hint is not ArrayAnnotation:
        return hint.spec
    return None


def mentions_spec(hint: object) -> bool:
    """Whether a type hint contains a shape annotation anywhere."""
    if _spec_of(hint) is not None:
        return True
    return any(mentions_spec(arg) for arg in typing.get_args(hint) if not isinstance(arg, (str, bytes)))


def _is_union(origin: object) -> bool:
    import types

    return origin is Union or origin is types.UnionType


class _Check:
    # One call's check: the memo of named sizes and the function's name.
    def __init__(self, fun: Callable[..., object]) -> None:
        self.fun = fun
        self.memo: Memo = {}

    def value(self, hint: object, value: object, label: str) -> None:
        reason = self._mismatch(hint, value, label)
        if reason is not None:
            # describe_function reads the source file: only on error.
            raise AnnotationMismatchError(f"{describe_function(self.fun)}: {reason}")

    def _mismatch(self, hint: object, value: object, label: str) -> str | None:
        spec = _spec_of(hint)
        if spec is not None:
            reason = spec.mismatch(value, self.memo, label)
            if reason is None:
                return None
            return f"{label} has type {_describe(value)}, which does not match its annotation {spec.text}: {reason}"
        origin = typing.get_origin(hint)
        args = typing.get_args(hint)
        if origin is typing.Annotated:
            return self._mismatch(args[0], value, label)
        if _is_union(origin):
            return self._union(args, value, label)
        if not any(mentions_spec(a) for a in args):
            return None  # nothing shape-annotated inside: other types are beartype's job
        if origin is tuple and isinstance(value, tuple):
            items = typing.cast(tuple[object, ...], value)
            if len(args) == 2 and args[1] is Ellipsis:
                return self._each([args[0]] * len(items), items, label)
            if len(args) == len(items):
                return self._each(list(args), items, label)
            return None
        if origin in (list, Sequence, typing.Sequence) and isinstance(value, (list, tuple)):
            seq = typing.cast(Sequence[object], value)
            return self._each([args[0]] * len(seq), seq, label)
        if origin in (dict, Mapping, typing.Mapping) and isinstance(value, Mapping) and len(args) == 2:
            mapping = typing.cast(Mapping[object, object], value)
            for key, item in mapping.items():
                reason = self._mismatch(args[1], item, f"{label}[{key!r}]")
                if reason is not None:
                    return reason
        return None

    def _each(self, hints: Sequence[object], values: Sequence[object], label: str) -> str | None:
        for i, (hint, item) in enumerate(zip(hints, values)):
            reason = self._mismatch(hint, item, f"{label}[{i}]")
            if reason is not None:
                return reason
        return None

    def _union(self, options: tuple[object, ...], value: object, label: str) -> str | None:
        # The first option that matches wins; names it binds are kept only then.
        first_reason: str | None = None
        for option in options:
            if option is type(None):
                if value is None:
                    return None
                continue
            if not mentions_spec(option):
                if isinstance(option, type) and isinstance(value, option):
                    return None
                continue
            saved = dict(self.memo)
            reason = self._mismatch(option, value, label)
            if reason is None:
                return None
            self.memo = saved
            first_reason = first_reason or reason
        return first_reason


@dataclass(frozen=True, slots=True)
class SignatureChecker:
    """The shape annotations of one function's parameters and result."""

    fun: Callable[..., object]
    signature: inspect.Signature
    params: tuple[tuple[str, object], ...]
    result: object

    def check_arguments(self, args: Sequence[object], kwargs: Mapping[str, object]) -> "_Check":
        """Check the annotated arguments of one call; the returned object
        carries the named sizes on to :meth:`check_result`.

        Raises:
            AnnotationMismatchError: an argument does not match.
        """
        check = _Check(self.fun)
        try:
            bound = self.signature.bind(*args, **kwargs)
        except TypeError:
            return check  # the call itself fails with Python's own message
        for name, hint in self.params:
            value = bound.arguments.get(name, _NOT_FOUND)
            if value is not _NOT_FOUND:
                check.value(hint, value, f"argument {name!r}")
        return check

    def check_result(self, check: "_Check", out: object) -> None:
        """Check the result against the return annotation, with the sizes
        bound by the arguments.

        Raises:
            AnnotationMismatchError: the result does not match.
        """
        if self.result is not _NOT_FOUND:
            check.value(self.result, out, "the result")

    def call(self, fun: Callable[..., object], args: Sequence[object], kwargs: Mapping[str, object]) -> object:
        """``fun(*args, **kwargs)`` with its arguments and result checked."""
        check = self.check_arguments(args, kwargs)
        out = fun(*args, **kwargs)
        self.check_result(check, out)
        return out


def checker_for(fun: Callable[..., object]) -> SignatureChecker | None:
    """The checker of ``fun``'s shape annotations; None when it has none
    (or they cannot be resolved, or :func:`typechecked` already checks it)."""
    if getattr(fun, "__jaxtyped_typechecked__", False):
        return None
    annotations = getattr(fun, "__annotations__", None)
    if not annotations:
        return None
    try:
        hints = typing.get_type_hints(fun, include_extras=True)
        signature = inspect.signature(fun)
    except Exception:  # noqa: BLE001 - unresolvable user annotations are not ours to report
        return None
    params = tuple((name, hints[name]) for name in signature.parameters if name in hints and mentions_spec(hints[name]))
    result = hints.get("return", _NOT_FOUND)
    if result is not _NOT_FOUND and not mentions_spec(result):
        result = _NOT_FOUND
    if not params and result is _NOT_FOUND:
        return None
    return SignatureChecker(fun, signature, params, result)


def typechecked(fun: F) -> F:
    """Check ``fun``'s annotations at every call in debug mode
    (``JAXTYPED_DEBUG=1``): types with beartype, and shape-and-dtype
    annotations with named dimensions consistent across the call. With debug
    mode off it returns ``fun`` itself (no cost); ``jit`` still checks shape
    annotations once per trace.

    Example:
        >>> from jaxtyped.typing import Array, Float, typechecked
        >>> @typechecked
        ... def matvec(a: Float[Array, "m n"], x: Float[Array, "n"]) -> Float[Array, "m"]:
        ...     return a @ x
    """
    if not DEBUG:
        return fun
    from beartype import BeartypeConf, beartype

    from jaxtyped._src.errors import DebugTypeError

    types_checked = beartype(conf=BeartypeConf(violation_type=DebugTypeError))(fun)
    shapes = checker_for(fun)

    # no_type_check: in debug mode the package's beartype hook would decorate
    # this wrapper too, and beartype reads the annotations functools.wraps
    # copies from fun, checking types before the shapes' clearer messages.
    @functools.wraps(fun)
    @typing.no_type_check
    def checked(*args: object, **kwargs: object) -> object:
        if shapes is None:
            return types_checked(*args, **kwargs)
        return shapes.call(types_checked, args, kwargs)

    setattr(typing.cast(object, checked), "__jaxtyped_typechecked__", True)  # noqa: B010 - a marker read by checker_for
    return typing.cast(F, checked)
