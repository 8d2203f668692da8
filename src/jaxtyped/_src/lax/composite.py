"""``composite``: an operation named for the compiler, defined by its
decomposition (JAX's ``lax.composite``; layer L4).

``composite(decomposition, name, version)`` returns a function whose call
traces ``decomposition`` into a jaxpr and binds one :class:`Composite`
equation holding it, with the name, the version and the keyword arguments
as attributes. Under ``jit`` it lowers to a ``stablehlo.composite`` op whose
``decomposition`` is a private function of the module: a compiler that
knows the name may replace it, XLA's CPU compiler inlines it, so values are
the decomposition's. Eagerly the jaxpr runs op by op.

Note [a composite survives only on its own operands]: the name and the
attributes describe the operation on the operands it was traced for. JAX
has no derivative, transpose or batching rule for it; here

- ``jvp`` keeps the composite for the primal outputs and computes the
  tangents with the decomposition's jvp, inlined (so ``grad``'s forward
  pass still holds the composite);
- ``vmap`` and the transpose inline the decomposition's batched or
  transposed jaxpr: the attributes (an ``axis``, say) may mean something
  else for batched or transposed operands.

Closed-over values the decomposition reads are leading operands, as in JAX
(a closed-over tracer of an enclosing transformation is refused, as in JAX:
it would add an operand the composite's signature does not show).
"""

import functools
import re
import struct
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Final, TypeVar, cast, final

import numpy as np
from typing_extensions import ParamSpec, override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray, Zero
from jaxtyped._src.core.effects import has_ordered_effects
from jaxtyped._src.core.hlo import HloValue, LoweringContext, dense_constant, element_type, tensor_type
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.jaxpr import ClosedJaxpr, Jaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import LinearArg, Primitive, Tangent
from jaxtyped._src.errors import (
    JaxtypedNotImplementedError,
    JaxtypedTypeError,
    JaxtypedValueError,
    UnexpectedTracerError,
)
from jaxtyped._src.interpreters.partial_eval import dce_jaxpr
from jaxtyped._src.lax.control_flow.common import trace_user_fun
from jaxtyped._src.lax.util import leaf_as_array, named_leaves
from jaxtyped._src.lowering import lower_jaxpr_inline
from jaxtyped._src.pjit import (
    cached_transform,
    call_batch,
    call_transpose,
    check_operand_types,
    consts_as_invars,
    evaluate_eagerly,
    hashable_or_id,
    jvp_jaxpr,
)
from jaxtyped._src.tree_util import PyTreeDef, tree_flatten, tree_unflatten
from jaxtyped._src.util import arg_names, describe_function

__all__ = ["Composite", "HashableArray", "composite"]

P = ParamSpec("P")
R = TypeVar("R")

# The names StableHLO's verifier accepts: a namespace, a dot, an op name.
_NAME_PATTERN: Final = re.compile(r"[a-zA-Z][a-zA-Z0-9_]*([.][a-zA-Z0-9_$]+)+")
_BARE_KEY: Final = re.compile(r"[a-zA-Z_][a-zA-Z0-9_$.]*")
_INT32: Final = (-(2**31), 2**31)
_INT64: Final = (-(2**63), 2**63)


@final
class HashableArray:
    """A NumPy attribute value as a primitive parameter (JAX's
    ``HashableArray``): a read-only copy, hashed and compared by type and
    bytes."""

    __slots__ = ("val",)

    def __init__(self, val: np.ndarray[Any, np.dtype[Any]]) -> None:
        self.val = np.array(val, copy=True)
        self.val.setflags(write=False)

    def __repr__(self) -> str:
        return f"HashableArray({self.val!r})"

    def __hash__(self) -> int:
        return hash((self.val.shape, self.val.dtype, self.val.tobytes()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, HashableArray):
            return False
        return (self.val.shape, self.val.dtype, self.val.tobytes()) == (other.val.shape, other.val.dtype, other.val.tobytes())


# One leaf of an attribute value, as stored in the equation.
AttributeLeaf = bool | int | float | str | bytes | np.generic | np.dtype[Any] | HashableArray
# One keyword attribute as JAX stores it: its name, its leaves and its structure.
Attribute = tuple[str, tuple[AttributeLeaf, ...], PyTreeDef]


@final
@dataclass(frozen=True, slots=True)
class Composite(Primitive):
    """A composite operation (JAX's ``composite`` primitive).

    Attributes:
        jaxpr: the decomposition, without constvars (closed-over values are
            leading operands).
        composite_name: the operation's name (``my.tangent``), ``name`` in
            ``eqn.params`` and the printed jaxpr.
        attributes: the keyword attributes as ``(name, leaves, treedef)``,
            in the order they were given (JAX's form).
        version: the operation's version.
    """

    name: ClassVar[str] = "composite"
    several_results = True
    memoize_abstract_eval: ClassVar[bool] = False  # hashing a jaxpr costs O(size)
    jaxpr: Jaxpr
    composite_name: str
    attributes: tuple[Attribute, ...]
    version: int

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_operand_types(f"composite '{self.composite_name}'", avals, self.jaxpr.in_avals)
        return self.jaxpr.out_avals

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        return evaluate_eagerly(lambda: eval_jaxpr(self.jaxpr, (), *args))

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # See Note [a composite survives only on its own operands].
        nonzero = tuple(not isinstance(t, Zero) for t in tangents)
        closed, out_nonzero = cached_transform(("composite_tangents", self.jaxpr, nonzero), lambda: _tangent_jaxpr(self.jaxpr, nonzero))
        primal_outs = bind(self, *primals)
        computed = iter(eval_jaxpr(closed.jaxpr, closed.consts, *primals, *(t for t in tangents if not isinstance(t, Zero))))
        tangent_outs: list[Tangent] = [
            next(computed) if nz else Zero(aval.to_tangent_aval())
            for nz, aval in zip(out_nonzero, self.jaxpr.out_avals, strict=True)
        ]
        return primal_outs, tuple(tangent_outs)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        return call_batch(self.jaxpr, axis, args, dims, _inline)

    @override
    def transpose(self, cts: tuple[Tangent, ...], args: tuple[LinearArg, ...]) -> tuple[Tangent | None, ...]:
        return call_transpose(self.jaxpr, cts, args, _inline)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        if has_ordered_effects(self.jaxpr.effects):
            # The decomposition is a function of its own, which cannot
            # continue the caller's chain of ordered effects.
            raise JaxtypedNotImplementedError(
                f"composite '{self.composite_name}': its decomposition has ordered effects "
                "(an ordered debug.print or io_callback), which jit cannot lower inside a composite "
                "(JAX cannot either); make the callback unordered or call it outside the composite"
            )
        body, _ = dce_jaxpr(self.jaxpr, (True,) * len(self.jaxpr.outvars), into_loops=True)
        symbol = ctx.function(
            ("composite", hashable_or_id(self)),
            self.composite_name,
            [a.aval for a in args],
            lambda block: lower_jaxpr_inline(ctx, body, (), block),
        )
        attrs = {
            "name": _string_text(self.composite_name),
            "composite_attributes": _attributes_text(self.attributes),
            "decomposition": symbol,
            "version": f"{self.version} : i32",
        }
        return ctx.op("stablehlo.composite", args, out_avals, attrs)

    @override
    def params(self) -> tuple[tuple[str, object], ...]:
        # JAX's names: ``eqn.params["name"]`` is the composite's name.
        return (
            ("attributes", self.attributes),
            ("jaxpr", self.jaxpr),
            ("name", self.composite_name),
            ("version", self.version),
        )


def _inline(closed: ClosedJaxpr[Array], args: Sequence[Array]) -> tuple[Array, ...]:
    """Apply a transformed decomposition inline (no composite around it)."""
    return eval_jaxpr(closed.jaxpr, closed.consts, *args)


def _tangent_jaxpr(jaxpr: Jaxpr, nonzero: tuple[bool, ...]) -> tuple[ClosedJaxpr[Array], tuple[bool, ...]]:
    """(primals, non-zero tangents) -> non-zero output tangents: the jvp of
    the decomposition without the primal outputs, which the composite
    itself computes."""
    closed, out_nonzero = jvp_jaxpr(jaxpr, nonzero)
    used = (False,) * len(jaxpr.outvars) + (True,) * sum(out_nonzero)
    tangents_only, _ = dce_jaxpr(closed.jaxpr, used)
    return ClosedJaxpr(tangents_only, closed.consts), out_nonzero


# === the user-facing function ===


def composite(decomposition: Callable[P, R], name: str, version: int = 0) -> Callable[P, R]:
    """An operation the compiler may recognise by ``name``, whose meaning is
    ``decomposition`` (JAX's ``lax.composite``).

    Calling the result applies ``decomposition``: positional arguments
    (pytrees of arrays) are the operation's operands, keyword arguments its
    attributes (``None`` ones are passed to ``decomposition`` but left out
    of the attributes). Under ``jit`` it lowers to one
    ``stablehlo.composite`` op with ``name``, ``version`` and the
    attributes, whose decomposition is a function of the module; XLA's CPU
    compiler inlines it, so the values are the decomposition's.

    Args:
        decomposition: the operation's meaning, a function of arrays.
        name: a namespaced name, ``namespace.op`` (as StableHLO requires).
        version: an int32 marking semantic changes of the operation.

    Raises:
        JaxtypedTypeError: ``decomposition`` is not callable, ``name`` is
            not a string, ``version`` not an int; or, at the call, an
            attribute of another type than bool, int, float, str, bytes,
            NumPy scalar, array or dtype, or lists, tuples and dicts (with
            string keys) of those.
        JaxtypedValueError: ``name`` is not ``namespace.op``, or
            ``version`` is outside int32.
        UnexpectedTracerError: an attribute, or a value ``decomposition``
            closes over, is a tracer of an enclosing transformation (pass
            it as an operand).

    Example:
        >>> import jaxtyped.numpy as jnp
        >>> from jaxtyped import lax
        >>> tangent = lax.composite(lambda x: lax.sin(x) / lax.cos(x), name="my.tangent")
        >>> tangent(jnp.array([0.0, 0.5]))
        Array([0.       , 0.5463025], dtype=float32)
    """
    if not callable(decomposition):
        raise JaxtypedTypeError(f"composite: decomposition must be callable, got {type(decomposition).__name__} {decomposition!r}")
    if not isinstance(name, str):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise JaxtypedTypeError(f"composite: name must be a str, got {type(name).__name__} {name!r}")
    if _NAME_PATTERN.fullmatch(name) is None:
        raise JaxtypedValueError(
            f"composite: name {name!r} is not a namespaced op name: StableHLO requires one matching "
            f"{_NAME_PATTERN.pattern!r}, e.g. 'my_namespace.my_op'"
        )
    if isinstance(version, bool) or not isinstance(version, (int, np.integer)):  # pyright: ignore[reportUnnecessaryIsInstance]  # callers may pass anything
        raise JaxtypedTypeError(f"composite '{name}': version must be an int, got {type(version).__name__} {version!r}")
    if not _INT32[0] <= int(version) < _INT32[1]:
        raise JaxtypedValueError(f"composite '{name}': version must fit in int32, got {version}")
    return _wrap(decomposition, name, int(version))


def _wrap(decomposition: Callable[P, R], name: str, version: int) -> Callable[P, R]:
    @functools.wraps(decomposition)
    def composite_fun(*args: P.args, **kwargs: P.kwargs) -> R:
        return cast(R, _apply(decomposition, name, version, args, kwargs))

    return composite_fun


def _apply(decomposition: Callable[..., object], name: str, version: int, args: tuple[object, ...], kwargs: Mapping[str, object]) -> object:
    attributes = tuple(_attribute(name, key, value) for key, value in kwargs.items())
    where = f"composite '{name}'"
    named: list[tuple[object, str]] = list(zip(args, arg_names(decomposition, len(args)), strict=True))
    leaves: list[object] = []
    names: list[str] = []
    for arg, arg_name in named:
        arg_leaves, arg_leaf_names, _ = named_leaves(arg, arg_name)
        leaves += arg_leaves
        names += arg_leaf_names
    _, args_tree = tree_flatten(args)
    arrays = [leaf_as_array(leaf, f"{where}: argument {n}") for leaf, n in zip(leaves, names, strict=True)]
    fun = functools.partial(decomposition, **kwargs) if kwargs else decomposition
    desc = f"'{name}' (decomposition {describe_function(decomposition)})"
    traced = trace_user_fun(fun, args_tree, [a.aval for a in arrays], names, desc=desc, transformation="composite")
    for const in traced.closed.consts:
        if not isinstance(const, ArrayImpl):
            raise UnexpectedTracerError(
                f"{where}: the decomposition closes over a traced value {const.aval.str_short()} of an enclosing "
                "transformation; values that are not known when the program is compiled must be passed "
                "to the composite as arguments (as JAX requires)"
            )
    prim = Composite(consts_as_invars(traced.closed.jaxpr), name, attributes, version)
    outs = bind(prim, *traced.closed.consts, *arrays)
    return tree_unflatten(traced.out_tree, list(outs))


# === attributes ===


def _attribute(name: str, key: str, value: object) -> Attribute:
    """A keyword argument as a stored attribute, checked so that it lowers."""
    if value is not None:
        _check_attribute_value(name, key, value)
    leaves, treedef = tree_flatten(value)
    stored = tuple(
        HashableArray(np.asarray(cast(object, leaf))) if isinstance(leaf, np.ndarray) else cast(AttributeLeaf, leaf)
        for leaf in leaves
    )
    return (key, stored, treedef)


def _check_attribute_value(name: str, key: str, value: object) -> None:
    where = f"composite '{name}': attribute {key}"
    if isinstance(value, Array):
        if not isinstance(value, ArrayImpl):
            raise UnexpectedTracerError(
                f"{where} is a traced value {value.aval.str_short()}; attributes must be known when the program "
                "is compiled: pass traced values as arguments of the composite"
            )
        raise JaxtypedTypeError(f"{where} is a jaxtyped Array {value.aval.str_short()}; pass a NumPy array instead")
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(cast(Sequence[object], value)):
            _check_attribute_value(name, f"{key}[{i}]", item)
        return
    if isinstance(value, dict):
        for item_key, item in cast(dict[object, object], value).items():
            if not isinstance(item_key, str) or not item_key:
                # MLIR's text form has no empty attribute name.
                raise JaxtypedTypeError(f"{where} has the key {item_key!r}; attribute dicts need non-empty string keys")
            _check_attribute_value(name, f"{key}[{item_key!r}]", item)
        return
    problem = _leaf_problem(value)
    if problem is not None:
        raise JaxtypedTypeError(
            f"{where} is {problem}; attributes are bools, ints, floats, strings, bytes, NumPy scalars, "
            "arrays and dtypes, or lists, tuples and string-keyed dicts of those"
        )


def _leaf_problem(value: object) -> str | None:
    """Why ``value`` cannot be an attribute leaf, or None if it can."""
    if isinstance(value, (bool, float, str, bytes)):
        return None
    if isinstance(value, int):
        if not _INT64[0] <= value < _INT64[1]:
            return f"the int {value}, outside int64"
        return None
    if isinstance(value, np.ndarray):
        array = cast(np.ndarray[Any, np.dtype[Any]], value)
        if not _has_element_type(array.dtype) or dtypes.is_float0(array.dtype):
            return f"an array of dtype {array.dtype}, which has no StableHLO element type"
        return None
    if isinstance(value, np.generic):
        dtype = _scalar_dtype(cast(object, value))
        if not _has_element_type(dtype) or dtypes.is_complex(dtype):
            return f"a NumPy scalar of dtype {dtype} (complex and non-numeric scalars have no attribute form)"
        return None
    if isinstance(value, np.dtype):
        dtype = _as_dtype(cast(object, value))
        if not _has_element_type(dtype) or dtypes.is_float0(dtype):
            return f"the dtype {dtype}, which has no StableHLO element type"
        return None
    if value is None:
        return "None inside a list, tuple or dict"
    return f"of type {type(value).__name__}"


def _scalar_dtype(value: object) -> np.dtype[Any]:
    """The dtype of a NumPy scalar."""
    return np.asarray(value).dtype


def _as_dtype(value: object) -> np.dtype[Any]:
    """A NumPy dtype object, typed as one."""
    return np.dtype(cast(np.dtype[Any], value))


def _has_element_type(dtype: np.dtype[Any]) -> bool:
    try:
        element_type(dtype)
    except TypeError:
        return False
    return True


def _attributes_text(attributes: tuple[Attribute, ...]) -> str:
    """The ``composite_attributes`` dictionary (``None`` ones left out)."""
    items: list[str] = []
    for key, leaves, treedef in attributes:
        value = treedef.unflatten(list(leaves))
        if value is not None:
            items.append(f"{_key_text(key)} = {_value_text(value)}")
    return "{" + ", ".join(items) + "}"


def _key_text(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string_text(key)


def _string_text(text: str | bytes) -> str:
    """An MLIR string literal; bytes outside printable ASCII, quotes and
    backslashes are written as ``\\XX``."""
    data = text.encode() if isinstance(text, str) else text
    return '"' + "".join(chr(b) if 0x20 <= b < 0x7F and b not in (0x22, 0x5C) else f"\\{b:02X}" for b in data) + '"'


def _value_text(value: object) -> str:
    """The MLIR attribute of one (checked) attribute value."""
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, int):
        return f"{value} : i64"
    if isinstance(value, float):
        return f"0x{struct.pack('>d', value).hex().upper()} : f64"
    if isinstance(value, (str, bytes)):
        return _string_text(value)
    if isinstance(value, HashableArray):
        return _dense_text(value.val)
    if isinstance(value, np.generic):
        scalar = np.asarray(cast(object, value))
        if dtypes.is_integer(scalar.dtype):
            return f"{int(scalar)} : {element_type(scalar.dtype)}"
        # Floating scalars by their bits, so every value (NaN, -0.0) is exact.
        bits = scalar.astype(scalar.dtype.newbyteorder("<")).tobytes()[::-1].hex().upper()
        return f"0x{bits} : {element_type(scalar.dtype)}"
    if isinstance(value, np.dtype):
        return element_type(_as_dtype(cast(object, value)))
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_value_text(item) for item in cast(Sequence[object], value)) + "]"
    if isinstance(value, dict):
        items = cast(dict[str, object], value)
        return "{" + ", ".join(f"{_key_text(k)} = {_value_text(v)}" for k, v in items.items()) + "}"
    raise AssertionError(f"internal error: unchecked composite attribute {value!r}")


def _dense_text(array: np.ndarray[Any, np.dtype[Any]]) -> str:
    aval = ShapedArray(array.shape, array.dtype)
    if array.size == 0:
        return f"dense<> : {tensor_type(aval)}"
    if dtypes.is_integer(array.dtype):
        # Decimal, so that narrow types (int4) need no packed bit layout.
        return f"dense<{_nested(array.tolist())}> : {tensor_type(aval)}"
    return f"{dense_constant(array, aval)} : {tensor_type(aval)}"


def _nested(values: object) -> str:
    """Nested lists of ints (``ndarray.tolist()``) in MLIR's dense syntax."""
    if isinstance(values, list):
        return "[" + ", ".join(_nested(item) for item in cast(list[object], values)) + "]"
    return str(int(cast(int, values)))
