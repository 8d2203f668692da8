"""``jaxtyped.export``: staged functions as self-contained, serialisable
programs (JAX's ``jax.export``; layer L5).

``export(jit(f))(*args)`` traces and lowers ``f`` for the arguments' types
into an :class:`Exported`: the StableHLO module (constants written into
it, unused arguments left out) with the input and output trees and types.
``Exported.serialize()`` writes it as bytes that :func:`deserialize` reads
back, in this or another process; ``Exported.call`` runs it eagerly or
inside a traced function (its module is embedded in the caller's module),
and ``grad`` of a call uses the VJP exported with it.

Note [export blobs]: the bytes are jaxtyped's own format, not JAX's
flatbuffers: a magic line, a JSON header (names, trees, types, version
numbers), the module's text, then the VJP's blob when ``vjp_order > 0``.
The module is kept as the text jaxtyped's lowering writes (not a versioned
StableHLO portable artifact), so a blob is read by the same jaxtyped
release that wrote it; :func:`deserialize` refuses another format version.
"""

import base64
import json
import re
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Final, Generic, TypeVar, cast, final

import numpy as np
from typing_extensions import ParamSpec, override

from jaxtyped._src.api_grad import vjp as _vjp
from jaxtyped._src.api_jit import Jitted, Traced, jit
from jaxtyped._src.api_util import ShapeDtypeStruct
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl, host_buffer, to_array
from jaxtyped._src.core.avals import ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.jaxpr import ClosedJaxpr, eval_jaxpr
from jaxtyped._src.core.primitive import Primitive, Tangent
from jaxtyped._src.custom_derivatives import custom_vjp
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.interpreters.partial_eval import dce_jaxpr
from jaxtyped._src.lowering import lower_jaxpr
from jaxtyped._src.pjit import check_operand_types, run_executable
from jaxtyped._src.runtime import xla
from jaxtyped._src.tree_util import (
    KeyPath,
    PyTreeDef,
    keystr,
    tree_flatten_with_path,
    tree_unflatten,
    treedef_from_node_data,
)

__all__ = [
    "CallExported",
    "DisabledSafetyCheck",
    "Exported",
    "default_export_platform",
    "deserialize",
    "export",
    "is_symbolic_dim",
    "maximum_supported_calling_convention_version",
    "minimum_supported_calling_convention_version",
    "register_namedtuple_serialization",
    "register_pytree_node_serialization",
]

P = ParamSpec("P")
R = TypeVar("R")
R_co = TypeVar("R_co", covariant=True)
T = TypeVar("T")

# JAX 0.10.2's range; an Exported records the newest.
minimum_supported_calling_convention_version: Final = 9
maximum_supported_calling_convention_version: Final = 10

_MAGIC: Final = b"jaxtyped.export\n"
_FORMAT_VERSION: Final = 1
_PLATFORM: Final = "cpu"


def default_export_platform() -> str:
    """The platform exported functions are lowered for by default (``'cpu'``)."""
    return _PLATFORM


def is_symbolic_dim(p: object) -> bool:
    """Whether ``p`` is a symbolic dimension: never, jaxtyped's shapes are
    all static (JAX's shape polymorphism is not implemented)."""
    return False


@final
@dataclass(frozen=True)
class DisabledSafetyCheck:
    """A safety check of ``Exported.call`` to skip (JAX's): recorded in the
    Exported; jaxtyped lowers for the CPU only and writes no custom calls
    those checks concern."""

    _impl: str

    @classmethod
    def platform(cls) -> "DisabledSafetyCheck":
        """Allow calling on a platform the function was not exported for."""
        return cls("platform")

    @classmethod
    def custom_call(cls, target_name: str) -> "DisabledSafetyCheck":
        """Allow a custom call without compatibility guarantees."""
        return cls(f"custom_call:{target_name}")

    def is_custom_call(self) -> str | None:
        """The custom call's target name, if this disables one."""
        return self._impl[len("custom_call:") :] if self._impl.startswith("custom_call:") else None

    def __str__(self) -> str:
        return self._impl


@final
@dataclass(frozen=True, eq=True, repr=False)
class Exported(Generic[P, R_co]):
    """A function lowered for given argument types, self-contained and
    serialisable (JAX's ``jax.export.Exported``).

    Attributes:
        fun_name: the exported function's name.
        in_tree: the structure of ``(args, kwargs)``.
        in_avals: the types of the arguments' leaves.
        out_tree: the structure of the results.
        out_avals: the types of the results' leaves.
        in_shardings_hlo: per argument leaf, its sharding (None: one device).
        out_shardings_hlo: per result leaf, its sharding (None: one device).
        nr_devices: the number of devices the module runs on.
        platforms: the platforms the module was lowered for.
        ordered_effects: effects of the module (always empty: functions
            with effects are refused).
        unordered_effects: likewise.
        disabled_safety_checks: the checks disabled when exporting.
        mlir_module_serialized: the module (see Note [export blobs]).
        calling_convention_version: the calling convention's version.
        module_kept_var_idx: the argument leaves the module takes (others
            are unused and left out).
        uses_global_constants: whether the module uses shape variables
            (never: shapes are static).
    """

    fun_name: str
    in_tree: PyTreeDef
    in_avals: tuple[ShapedArray, ...]
    out_tree: PyTreeDef
    out_avals: tuple[ShapedArray, ...]
    in_shardings_hlo: tuple[None, ...]
    out_shardings_hlo: tuple[None, ...]
    nr_devices: int
    platforms: tuple[str, ...]
    ordered_effects: tuple[()]
    unordered_effects: tuple[()]
    disabled_safety_checks: tuple[DisabledSafetyCheck, ...]
    mlir_module_serialized: bytes
    calling_convention_version: int
    module_kept_var_idx: tuple[int, ...]
    uses_global_constants: bool
    # The VJP, exported when first asked for (in the exporting process)
    # or read from the blob; None when there is none.
    _get_vjp: "Callable[[], Exported[..., object]] | None" = field(default=None, compare=False)

    def __repr__(self) -> str:
        return f"Exported(fun_name={self.fun_name}, ...)"

    def mlir_module(self) -> str:
        """The module in MLIR's readable syntax."""
        return xla.pretty_module(self._module_text)

    @property
    def _module_text(self) -> str:
        return self.mlir_module_serialized.decode()

    def has_vjp(self) -> bool:
        """Whether the VJP is available (to differentiate calls)."""
        return self._get_vjp is not None

    def vjp(self) -> "Exported[..., object]":
        """The exported VJP: a function of the primal arguments' leaves then
        the results' cotangents, giving the arguments' cotangents.

        Raises:
            JaxtypedValueError: no VJP is available (deserialized with
                ``vjp_order=0``).
        """
        if self._get_vjp is None:
            raise JaxtypedValueError(f"Exported.vjp: no VJP is available for '{self.fun_name}'")
        return self._get_vjp()

    def in_shardings_jax(self, mesh: object) -> tuple[None, ...]:
        """The arguments' shardings (None each: one device)."""
        return self.in_shardings_hlo

    def out_shardings_jax(self, mesh: object) -> tuple[None, ...]:
        """The results' shardings (None each: one device)."""
        return self.out_shardings_hlo

    def serialize(self, vjp_order: int = 0) -> bytearray:
        """The bytes :func:`deserialize` reads back, with the VJPs up to
        ``vjp_order`` (1: the first derivative can be taken after reading).

        Raises:
            JaxtypedValueError: a tree node type has no serialization
                registered (:func:`register_pytree_node_serialization`).
        """
        if type(vjp_order) is not int or vjp_order < 0:
            raise JaxtypedValueError(f"Exported.serialize: vjp_order must be an int >= 0, got {vjp_order!r}")
        vjp_blob = bytes(self.vjp().serialize(vjp_order - 1)) if vjp_order > 0 else b""
        header = {
            "format": _FORMAT_VERSION,
            "fun_name": self.fun_name,
            "in_tree": _encode_tree(self.in_tree),
            "out_tree": _encode_tree(self.out_tree),
            "in_avals": [_encode_aval(a) for a in self.in_avals],
            "out_avals": [_encode_aval(a) for a in self.out_avals],
            "nr_devices": self.nr_devices,
            "platforms": list(self.platforms),
            "disabled_safety_checks": [str(c) for c in self.disabled_safety_checks],
            "calling_convention_version": self.calling_convention_version,
            "module_kept_var_idx": list(self.module_kept_var_idx),
            "module_bytes": len(self.mlir_module_serialized),
            "vjp_bytes": len(vjp_blob),
        }
        head = json.dumps(header, sort_keys=True).encode()
        return bytearray(_MAGIC + struct.pack("<I", len(head)) + head + self.mlir_module_serialized + vjp_blob)

    def call(self, *args: P.args, **kwargs: P.kwargs) -> R_co:
        """Run the exported function: eagerly, or, inside a traced
        function, as its module embedded in the caller's. Arguments must
        have the exported structure, shapes and dtypes. ``grad`` uses the
        exported VJP; ``vmap`` and forward mode are not available (as JAX).

        Raises:
            JaxtypedValueError: the arguments' structure, shapes or dtypes
                differ from the exported ones.
        """
        pairs, tree = tree_flatten_with_path((args, kwargs))
        if tree != self.in_tree:
            raise JaxtypedValueError(
                f"Exported.call of '{self.fun_name}': the arguments must have the structure the function was "
                f"exported with, {self.in_tree}, but have {tree}"
            )
        arrays: list[Array] = []
        for (path, leaf), aval in zip(pairs, self.in_avals, strict=True):
            name = _argument_name(path)
            array = to_array(leaf, f"Exported.call {name}")
            if array.aval.dtype != aval.dtype:
                raise JaxtypedValueError(
                    f"Exported.call of '{self.fun_name}': dtype mismatch for {name}: expected {aval.dtype} "
                    f"and called with {array.aval.dtype}"
                )
            if array.aval.shape != aval.shape:
                raise JaxtypedValueError(
                    f"Exported.call of '{self.fun_name}': shape mismatch for {name}: expected {aval.shape} "
                    f"and called with {array.aval.shape}"
                )
            arrays.append(array)
        outs = _differentiable_call(self)(*arrays) if self.has_vjp() else bind(CallExported(self), *arrays)
        result: R_co = tree_unflatten(self.out_tree, list(outs))
        return result


def _argument_name(path: KeyPath) -> str:
    # ((args, kwargs)) paths start with the pair's index: 0 -> args, 1 -> kwargs.
    head, *rest = path
    return ("args" if keystr((head,)) == "[0]" else "kwargs") + keystr(tuple(rest))


def _differentiable_call(exp: Exported[..., object]) -> Callable[..., tuple[Array, ...]]:
    """The flat call as a ``custom_vjp`` function whose backward pass calls
    the exported VJP (JAX's ``call`` does the same; the rules have JAX's
    names, as a printed jaxpr shows them)."""

    def f_flat(*arrays: Array) -> tuple[Array, ...]:
        return bind(CallExported(exp), *arrays)

    def f_flat_vjp_fwd(*arrays: Array) -> tuple[tuple[Array, ...], tuple[Array, ...]]:
        # Through the custom_vjp function again: differentiating the
        # backward pass (grad of grad) meets this call under jvp.
        return wrapped(*arrays), arrays

    def f_flat_vjp_bwd(residuals: tuple[Array, ...], cts: tuple[Array, ...]) -> tuple[Array, ...]:
        outs: object = exp.vjp().call(*residuals, *cts)
        return cast("tuple[Array, ...]", outs)  # the VJP returns one cotangent per primal leaf

    wrapped: custom_vjp[..., tuple[Array, ...]] = custom_vjp(f_flat)
    wrapped.defvjp(f_flat_vjp_fwd, f_flat_vjp_bwd)
    return wrapped


@final
@dataclass(frozen=True, slots=True)
class CallExported(Primitive):
    """A call of an exported function (JAX's ``call_exported``): runs its
    compiled module eagerly; lowers to a call of the module's functions,
    embedded in the caller's module.

    Attributes:
        exported: the function called.
    """

    name: ClassVar[str] = "call_exported"
    several_results = True
    exported: Exported[..., object]

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        check_operand_types(f"call_exported of {self.exported.fun_name}", avals, self.exported.in_avals, "exported for")
        return self.exported.out_avals

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        exp = self.exported
        kept = tuple(args[i] for i in exp.module_kept_var_idx)
        kept_avals = tuple(exp.in_avals[i] for i in exp.module_kept_var_idx)
        executable = xla.compile_module(exp._module_text, kept_avals, exp.out_avals)  # pyright: ignore[reportPrivateUsage]  # this module's
        return run_executable(executable, kept, (False,) * len(kept), out_avals, exp.fun_name)

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        exp = self.exported
        symbol = _embed_module(ctx, exp, exp._module_text)  # pyright: ignore[reportPrivateUsage]  # this module's
        return ctx.call(symbol, [args[i] for i in exp.module_kept_var_idx], out_avals)

    @override
    def jvp(self, primals: tuple[Array, ...], tangents: tuple[Tangent, ...]) -> tuple[tuple[Array, ...], tuple[Tangent, ...]]:
        # Bound directly only when there is no VJP to differentiate with.
        raise JaxtypedValueError(
            f"Exported.call of '{self.exported.fun_name}': cannot differentiate, no VJP is available "
            "(serialize(vjp_order=k) keeps k orders of derivatives)"
        )

    @override
    def printed_params(self) -> tuple[tuple[str, object], ...]:
        return (("exported", self.exported),)


# A function of a module as lower_jaxpr writes it: a header line at
# indentation 2 ("  func.func public @main(...) -> (...) {"), its body, "  }".
_FUNCTION_HEADER: Final = re.compile(r"^  func\.func (public|private) @([\w$.\-]+)\(")
_SYMBOL: Final = re.compile(r"@([\w$.\-]+)")


def _embed_module(ctx: LoweringContext, key: object, text: str) -> str:
    """The symbol ``main`` of the module ``text`` (written by
    :func:`lower_jaxpr`) has in ``ctx``'s module, whose private functions
    its functions become (renamed apart, once per ``key``)."""
    functions: list[tuple[str, list[str]]] = []
    for line in text.splitlines():
        header = _FUNCTION_HEADER.match(line)
        if header is not None:
            functions.append((header.group(2), [line]))
        elif functions and (len(functions[-1][1]) == 1 or functions[-1][1][-1] != "  }"):
            functions[-1][1].append(line)
    renamed: dict[str, str] = {}
    new: list[str] = []
    for name, _ in functions:
        symbol, fresh = ctx.claim_symbol((key, name), f"exported_{name}")
        renamed[name] = symbol
        if fresh:
            new.append(name)
    for name, lines in functions:
        if name not in new:
            continue
        body = [_SYMBOL.sub(lambda m: renamed.get(m.group(1), m.group(0)), line) for line in lines]
        body[0] = body[0].replace("func.func public ", "func.func private ", 1)
        ctx.functions.append("\n".join(body))
    if "main" not in renamed:
        raise JaxtypedValueError("call_exported: the exported module has no main function")
    return renamed["main"]


# --- export ---


def export(
    fun_jit: Jitted[P, R], *, platforms: Sequence[str] | None = None, disabled_checks: Sequence[DisabledSafetyCheck] = ()
) -> Callable[P, Exported[P, R]]:
    """Export a jitted function: the returned function takes arguments (or
    ``ShapeDtypeStruct``\\ s) as the jitted function does and gives the
    :class:`Exported` for their types (JAX's ``jax.export.export``).

    Example:
        >>> import jaxtyped as jt, jaxtyped.numpy as jnp
        >>> from jaxtyped import export
        >>> exp = export.export(jt.jit(lambda x: jnp.sin(x) * 2))(jt.ShapeDtypeStruct((3,), jnp.float32))
        >>> export.deserialize(exp.serialize()).call(jnp.zeros(3))
        Array([0., 0., 0.], dtype=float32)

    Raises:
        JaxtypedValueError: ``fun_jit`` is not the result of ``jit``.
        JaxtypedNotImplementedError: the function has effects (host
            callbacks, debug prints: as JAX, they cannot be serialised); a
            platform other than the CPU; a function over several devices.
    """
    if not isinstance(fun_jit, Jitted):  # pyright: ignore[reportUnnecessaryIsInstance]  # untyped callers
        raise JaxtypedValueError(f"export: the function to be exported must be the result of `jit` but is: {fun_jit!r}")
    chosen = (_PLATFORM,) if platforms is None else tuple(p.lower() for p in platforms)
    if chosen != (_PLATFORM,):
        raise JaxtypedNotImplementedError(f"export: only the 'cpu' platform is supported, got platforms={list(chosen)}")
    checks = tuple(disabled_checks)
    for check in checks:
        if not isinstance(check, DisabledSafetyCheck):  # pyright: ignore[reportUnnecessaryIsInstance]  # untyped callers
            raise JaxtypedTypeError(f"export: disabled_checks must hold DisabledSafetyCheck values, got {check!r}")

    def do_export(*args: P.args, **kwargs: P.kwargs) -> Exported[P, R]:
        traced = fun_jit.trace(*args, **kwargs)
        if traced.over_mesh:
            raise JaxtypedNotImplementedError(f"export of {traced.fun_name}: functions over several devices are not supported")
        return _exported(traced.jaxpr, traced.fun_name, traced.in_tree, traced.out_tree, checks)

    return do_export


def _exported(
    closed: ClosedJaxpr, fun_name: str, in_tree: PyTreeDef, out_tree: PyTreeDef, checks: tuple[DisabledSafetyCheck, ...]
) -> "Exported[Any, Any]":
    jaxpr = closed.jaxpr
    if jaxpr.effects:
        raise JaxtypedNotImplementedError(
            f"export of {fun_name}: a function with effects ({', '.join(sorted(map(str, jaxpr.effects)))}) cannot be "
            "serialised: its host callbacks or debug prints have no compatibility guarantees"
        )
    live, used = dce_jaxpr(jaxpr, (True,) * len(jaxpr.outvars), prune_invars=True)
    consts = [host_buffer(c) if isinstance(c, ArrayImpl) else np.asarray(c) for c in closed.consts]
    module = lower_jaxpr(live, name=fun_name, consts=consts)
    exp: Exported[Any, Any] = Exported(
        fun_name=fun_name,
        in_tree=in_tree,
        in_avals=jaxpr.in_avals,
        out_tree=out_tree,
        out_avals=jaxpr.out_avals,
        in_shardings_hlo=(None,) * len(jaxpr.invars),
        out_shardings_hlo=(None,) * len(jaxpr.outvars),
        nr_devices=1,
        platforms=(_PLATFORM,),
        ordered_effects=(),
        unordered_effects=(),
        disabled_safety_checks=checks,
        mlir_module_serialized=module.text.encode(),
        calling_convention_version=maximum_supported_calling_convention_version,
        module_kept_var_idx=tuple(i for i, u in enumerate(used) if u),
        uses_global_constants=False,
        _get_vjp=_vjp_exporter(closed, fun_name),
    )
    return exp


def _vjp_exporter(closed: ClosedJaxpr, fun_name: str) -> "Callable[[], Exported[..., object]]":
    """Exports, once and when first asked, the VJP of the flat function
    ``closed`` computes: primal leaves then output cotangents in, input
    cotangents out."""
    found: list[Exported[..., object]] = []
    n_in = len(closed.jaxpr.invars)

    def vjp_of_flat(*primals_and_cts: Array) -> tuple[Array, ...]:
        primals, cts = primals_and_cts[:n_in], primals_and_cts[n_in:]
        _, pullback = _vjp(lambda *xs: eval_jaxpr(closed.jaxpr, closed.consts, *xs), *primals)
        return pullback(tuple(cts))

    vjp_of_flat.__name__ = vjp_of_flat.__qualname__ = f"{fun_name}_vjp"

    def get() -> Exported[..., object]:
        if not found:
            avals = (*closed.jaxpr.in_avals, *closed.jaxpr.out_avals)
            specs = [ShapeDtypeStruct(a.shape, a.dtype, weak_type=a.weak_type) for a in avals]
            # trace takes shape structs where the function takes arrays
            trace = cast("Callable[..., Traced[..., object]]", jit(vjp_of_flat).trace)
            traced = trace(*specs)
            found.append(_exported(traced.jaxpr, f"{fun_name}_vjp", traced.in_tree, traced.out_tree, ()))
        return found[0]

    return get


# --- serialization of trees and types ---

_NAMEDTUPLES: dict[type[Any], str] = {}
_CUSTOM_NODES: dict[type[Any], tuple[str, Callable[[Any], bytes], Callable[[bytes], Any]]] = {}
_BY_NAME: dict[str, type[Any]] = {}


def _claim_name(nodetype: type[Any], serialized_name: str) -> None:
    if nodetype in _NAMEDTUPLES or nodetype in _CUSTOM_NODES:
        raise JaxtypedValueError(f"Duplicate serialization registration for type {nodetype.__name__}")
    if serialized_name in _BY_NAME:
        raise JaxtypedValueError(
            f"Duplicate serialization registration for serialized_name {serialized_name!r} "
            f"(taken by {_BY_NAME[serialized_name].__name__})"
        )
    _BY_NAME[serialized_name] = nodetype


def register_namedtuple_serialization(nodetype: type[T], serialized_name: str) -> type[T]:
    """Let trees holding the namedtuple class ``nodetype`` be serialised,
    under ``serialized_name`` (the same in the reading process).

    Raises:
        JaxtypedValueError: ``nodetype`` or the name is registered already.
        JaxtypedTypeError: ``nodetype`` is not a namedtuple class.
    """
    fields: object = getattr(nodetype, "_fields", None)
    if not isinstance(fields, tuple) or tuple not in nodetype.__mro__:
        raise JaxtypedTypeError(f"register_namedtuple_serialization: {nodetype!r} is not a namedtuple class")
    _claim_name(nodetype, serialized_name)
    _NAMEDTUPLES[nodetype] = serialized_name
    return nodetype


def register_pytree_node_serialization(
    nodetype: type[T],
    *,
    serialized_name: str,
    serialize_auxdata: Callable[[Any], bytes],
    deserialize_auxdata: Callable[[bytes], Any],
) -> type[T]:
    """Let trees holding the registered pytree node type ``nodetype`` be
    serialised, under ``serialized_name``, its aux data written by
    ``serialize_auxdata`` and read back by ``deserialize_auxdata``.

    Raises:
        JaxtypedValueError: ``nodetype`` or the name is registered already.
    """
    _claim_name(nodetype, serialized_name)
    _CUSTOM_NODES[nodetype] = (serialized_name, serialize_auxdata, deserialize_auxdata)
    return nodetype


_JSON = dict[str, Any]


def _encode_tree(tree: PyTreeDef) -> _JSON:
    data = tree.node_data()
    children = [_encode_tree(c) for c in tree.children()]
    if data is None:
        return {"t": "leaf"}
    nodetype, aux = data
    if nodetype is type(None):
        return {"t": "none"}
    if nodetype is tuple or nodetype is list:
        return {"t": nodetype.__name__, "c": children}
    if nodetype is dict:
        keys = list(cast("tuple[object, ...]", aux))  # a dict node's aux is its sorted keys
        if not all(isinstance(k, str) for k in keys):
            raise JaxtypedValueError(f"Exported.serialize: only dicts with str keys can be serialised, got keys {keys}")
        return {"t": "dict", "k": keys, "c": children}
    if nodetype in _NAMEDTUPLES:
        return {"t": "namedtuple", "n": _NAMEDTUPLES[nodetype], "c": children}
    if nodetype in _CUSTOM_NODES:
        name, serialize_aux, _ = _CUSTOM_NODES[nodetype]
        return {"t": "custom", "n": name, "a": base64.b64encode(serialize_aux(aux)).decode(), "c": children}
    how = "register_namedtuple_serialization" if issubclass(nodetype, tuple) else "register_pytree_node_serialization"
    raise JaxtypedValueError(
        f"Exported.serialize: cannot serialize a tree with node type {nodetype.__module__}.{nodetype.__qualname__}; "
        f"register it with jaxtyped.export.{how}"
    )


def _decode_tree(node: _JSON) -> PyTreeDef:
    kind = node["t"]
    children = [_decode_tree(c) for c in node.get("c", [])]
    if kind == "leaf":
        return treedef_from_node_data(None, ())
    if kind == "none":
        return treedef_from_node_data((type(None), None), ())
    if kind in ("tuple", "list"):
        return treedef_from_node_data((tuple if kind == "tuple" else list, None), children)
    if kind == "dict":
        return treedef_from_node_data((dict, tuple(node["k"])), children)
    name = node["n"]
    nodetype = _BY_NAME.get(name)
    if nodetype is None:
        raise JaxtypedValueError(
            f"deserialize: no node type is registered for serialization under {name!r} in this process"
        )
    if kind == "namedtuple":
        return treedef_from_node_data((nodetype, None), children)
    _, _, deserialize_aux = _CUSTOM_NODES[nodetype]
    return treedef_from_node_data((nodetype, deserialize_aux(base64.b64decode(node["a"]))), children)


def _encode_aval(aval: ShapedArray) -> _JSON:
    return {"shape": list(aval.shape), "dtype": aval.dtype.name, "weak_type": aval.weak_type}


def _decode_aval(node: _JSON) -> ShapedArray:
    return ShapedArray(tuple(node["shape"]), np.dtype(node["dtype"]), bool(node["weak_type"]))


def deserialize(blob: bytes | bytearray) -> "Exported[..., object]":
    """The :class:`Exported` that :meth:`Exported.serialize` wrote.

    Raises:
        JaxtypedValueError: ``blob`` is not a jaxtyped export blob (JAX's
            serialised Exported are another format), or of another format
            version.
    """
    data = bytes(blob)
    if not data.startswith(_MAGIC):
        raise JaxtypedValueError(
            "deserialize: not a jaxtyped export blob (JAX's serialized Exported are flatbuffers, which jaxtyped cannot read)"
        )
    (head_len,) = struct.unpack_from("<I", data, len(_MAGIC))
    start = len(_MAGIC) + 4
    header: _JSON = json.loads(data[start : start + head_len])
    if header.get("format") != _FORMAT_VERSION:
        raise JaxtypedValueError(
            f"deserialize: the blob has format version {header.get('format')}; this jaxtyped reads {_FORMAT_VERSION}"
        )
    module_start = start + head_len
    module = data[module_start : module_start + header["module_bytes"]]
    vjp_blob = data[module_start + header["module_bytes"] :]
    if len(vjp_blob) != header["vjp_bytes"]:
        raise JaxtypedValueError("deserialize: the blob is truncated")
    vjp_exp = deserialize(vjp_blob) if vjp_blob else None
    n_out = len(header["out_avals"])
    return Exported(
        fun_name=header["fun_name"],
        in_tree=_decode_tree(header["in_tree"]),
        in_avals=tuple(_decode_aval(a) for a in header["in_avals"]),
        out_tree=_decode_tree(header["out_tree"]),
        out_avals=tuple(_decode_aval(a) for a in header["out_avals"]),
        in_shardings_hlo=(None,) * len(header["in_avals"]),
        out_shardings_hlo=(None,) * n_out,
        nr_devices=header["nr_devices"],
        platforms=tuple(header["platforms"]),
        ordered_effects=(),
        unordered_effects=(),
        disabled_safety_checks=tuple(DisabledSafetyCheck(c) for c in header["disabled_safety_checks"]),
        mlir_module_serialized=module,
        calling_convention_version=header["calling_convention_version"],
        module_kept_var_idx=tuple(header["module_kept_var_idx"]),
        uses_global_constants=False,
        _get_vjp=None if vjp_exp is None else (lambda: vjp_exp),
    )

