"""Calling foreign functions through XLA's FFI (``jaxtyped.ffi``; JAX's
``jax.ffi``).

A C or C++ function written against XLA's FFI (``xla/ffi/api/c_api.h`` or
``ffi.h``, shipped with jaxlib: :func:`include_dir`) is registered under a
name with :func:`register_ffi_target` and called from compiled code by
:func:`ffi_call`: an :class:`FfiCall` primitive that lowers to
``stablehlo.custom_call`` (API version 4, keyword attributes in
``backend_config``). Eagerly the call is compiled and run as a one-op
program; under ``vmap`` the ``vmap_method`` says how (see
:func:`ffi_call`); there is no derivative (wrap the call in
``custom_jvp``/``custom_vjp``).
"""

import ctypes
import importlib.util
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, TypeAlias, cast, final

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array, ArrayLike
from jaxtyped._src.core.array_impl import ArrayImpl, to_array
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext, element_type
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.jaxpr import JaxprBuilder
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.errors import JaxtypedNotImplementedError, JaxtypedTypeError, JaxtypedValueError
from jaxtyped._src.extend.mlir import LoweringRuleContext
from jaxtyped._src.lax.control_flow.scan import map as lax_map
from jaxtyped._src.lax.structural import bdim_to_front, broadcast_in_dim, concatenate, expand_dims, moveaxis
from jaxtyped._src.pjit import executable_for, run_executable

__all__ = [
    "FfiCall",
    "VmapMethod",
    "ffi_call",
    "ffi_lowering",
    "include_dir",
    "pycapsule",
    "register_ffi_target",
    "attribute_text",
]

VmapMethod: TypeAlias = Literal["sequential", "sequential_unrolled", "expand_dims", "broadcast_all"]
_VMAP_METHODS: Final = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all")


def include_dir() -> str:
    """The directory of XLA's FFI headers shipped with jaxlib (pass it to
    the compiler: ``cc -I$(python -c ...) ...``)."""
    spec = importlib.util.find_spec("jaxlib")
    if spec is None or not spec.submodule_search_locations:
        raise JaxtypedValueError("jaxlib is not installed: XLA's FFI headers ship with it")
    return os.path.join(list(spec.submodule_search_locations)[0], "include")


def pycapsule(funcptr: object) -> object:
    """Wrap a ``ctypes`` function pointer (``ctypes.CDLL(path).handler``)
    in the ``PyCapsule`` :func:`register_ffi_target` takes."""
    new_capsule = ctypes.pythonapi.PyCapsule_New
    new_capsule.restype = ctypes.py_object
    new_capsule.argtypes = (ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p)
    try:
        address = ctypes.cast(funcptr, ctypes.c_void_p).value  # type: ignore[arg-type]  # pyright: ignore[reportArgumentType]  # any ctypes pointer; checked at run time
    except ctypes.ArgumentError:
        raise JaxtypedTypeError(f"pycapsule expects a ctypes function pointer, got {type(funcptr).__name__}") from None
    if not address:
        raise JaxtypedValueError("pycapsule: the function pointer is null")
    capsule: object = new_capsule(address, None, None)
    return capsule


def register_ffi_target(name: str, fn: object, platform: str = "cpu", api_version: int = 1) -> None:
    """Register ``fn`` (a ``PyCapsule`` of an XLA FFI handler, see
    :func:`pycapsule`) as custom-call target ``name``; ``api_version=1`` is
    the typed FFI (``0``: the legacy untyped custom-call API)."""
    if platform.lower() not in ("cpu", "host"):
        raise JaxtypedValueError(f"register_ffi_target: platform {platform!r} is not available (jaxtyped runs on cpu)")
    # Imported here: only the FFI needs jaxlib outside the runtime.
    import jaxlib.xla_client as xc

    xc.register_custom_call_target(name, fn, platform="cpu", api_version=api_version)


def _scalar_text(value: "np.ndarray[Any, np.dtype[Any]]") -> str:
    """A 0-d array as a typed MLIR scalar attribute."""
    dtype = value.dtype
    if dtype == np.bool_:
        return "true" if value.item() else "false"
    if dtypes.is_integer(dtype):
        return f"{int(value.item())} : {element_type(dtype)}"
    if dtypes.is_floating(dtype):
        return _hex_float(value)
    raise JaxtypedTypeError(f"ffi attribute of dtype {dtype} is not supported")


def _hex_float(value: "np.ndarray[Any, np.dtype[Any]]") -> str:
    # Hexadecimal bits: exact for every value (MLIR's decimal floats need a
    # point and cannot spell NaN payloads).
    dtype = value.dtype
    bits = np.asarray(value, dtype=dtype.newbyteorder(">")).tobytes().hex().upper()
    return f"0x{bits} : {element_type(dtype)}"


def attribute_text(name: str, value: object) -> str:
    """One FFI attribute as MLIR text (``n = 3 : i64``), typed as JAX types
    it: Python ints are ``i64``, floats ``f64``, bools ``i1``; NumPy scalars
    keep their dtype."""
    if not name.isidentifier():
        raise JaxtypedValueError(f"ffi attribute name {name!r} is not an identifier")
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int):
        text = f"{value} : i64"
    elif isinstance(value, float):
        text = _scalar_text(np.asarray(value, dtype=np.float64))
    elif isinstance(value, str):
        text = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    elif isinstance(value, np.generic):
        text = _scalar_text(np.asarray(cast(object, value)))
    else:
        raise JaxtypedTypeError(
            f"ffi attribute {name}={value!r}: expected a bool, int, float, str or NumPy scalar "
            "(array attributes are not supported)"
        )
    return f"{name} = {text}"


def _attributes(items: tuple[tuple[str, object], ...]) -> str:
    return "{" + ", ".join(attribute_text(k, v) for k, v in items) + "}"


def _custom_call(
    ctx: LoweringContext,
    target_name: str,
    args: Sequence[HloValue],
    out_avals: Sequence[ShapedArray],
    attributes: tuple[tuple[str, object], ...],
    has_side_effect: bool,
) -> tuple[HloValue, ...]:
    attrs = {
        "call_target_name": f'"{target_name}"',
        "api_version": "4 : i32",
        "backend_config": _attributes(attributes),
    }
    if has_side_effect:
        attrs["has_side_effect"] = "true"
    return ctx.op("stablehlo.custom_call", args, [a.strip_weak_type() for a in out_avals], attrs)


@final
@dataclass(frozen=True, slots=True)
class FfiCall(Primitive):
    """A call of FFI target ``target_name`` returning ``results``, with
    keyword ``attributes`` (sorted by name) passed to the handler."""

    target_name: str
    results: tuple[ShapedArray, ...]
    attributes: tuple[tuple[str, object], ...]
    has_side_effect: bool
    vmap_method: str | None
    name = "ffi_call"
    several_results = True

    @override
    def abstract_eval(self, avals: tuple[ShapedArray, ...]) -> tuple[ShapedArray, ...]:
        return self.results

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        # The foreign function runs only inside a compiled program.
        builder = JaxprBuilder()
        invars = [builder.new_var(a.aval.strip_weak_type()) for a in args]
        outvars = builder.add_eqn(self, tuple(invars), out_avals)
        jaxpr = builder.build((), invars, outvars)
        executable = executable_for(jaxpr, f"ffi_{self.target_name}", (False,) * len(args))
        return run_executable(executable, args, (False,) * len(args), out_avals, f"ffi_call {self.target_name}")

    @override
    def lower(self, ctx: LoweringContext, args: tuple[HloValue, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[HloValue, ...]:
        return _custom_call(ctx, self.target_name, args, out_avals, self.attributes, self.has_side_effect)

    @override
    def batch(self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        method = self.vmap_method
        size = axis.size
        if method is None:
            raise JaxtypedNotImplementedError(
                f"vmap of ffi_call {self.target_name!r} needs a vmap_method: pass vmap_method= one of {list(_VMAP_METHODS)} to ffi_call"
            )
        if method in ("expand_dims", "broadcast_all"):
            moved: list[Array] = []
            for x, d in zip(args, dims, strict=True):
                if d is not None:
                    moved.append(moveaxis(x, d, 0))
                elif method == "broadcast_all":
                    moved.append(bdim_to_front(x, None, size))
                else:
                    moved.append(expand_dims(x, (0,)))
            batched = FfiCall(
                self.target_name,
                tuple(r.update(shape=(size, *r.shape)) for r in self.results),
                self.attributes,
                self.has_side_effect,
                method,
            )
            return bind(batched, *moved), (0,) * len(self.results)
        front = [moveaxis(x, d, 0) if d is not None else x for x, d in zip(args, dims, strict=True)]
        batched_positions = [i for i, d in enumerate(dims) if d is not None]

        def one(xs: Sequence[Array]) -> list[Array]:
            full = list(front)
            for i, x in zip(batched_positions, xs, strict=True):
                full[i] = x
            return list(bind(self, *full))

        if method == "sequential":
            outs = lax_map(one, [front[i] for i in batched_positions])
            return tuple(outs), (0,) * len(self.results)
        rows = [one([front[i][k] for i in batched_positions]) for k in range(size)]
        stacked = tuple(
            concatenate([expand_dims(row[j], (0,)) for row in rows], 0) if rows else broadcast_in_dim(front[0], (0,), ())
            for j in range(len(self.results))
        )
        return stacked, (0,) * len(self.results)


def _result_avals(result_shape_dtypes: object) -> tuple[tuple[ShapedArray, ...], bool]:
    """The results' types, and whether a single one was given (not a
    sequence)."""
    single = not isinstance(result_shape_dtypes, (list, tuple))
    items: list[object] = [result_shape_dtypes] if single else list(result_shape_dtypes)  # type: ignore[call-overload]  # pyright: ignore[reportUnknownArgumentType]  # a list or tuple
    avals: list[ShapedArray] = []
    for item in items:
        shape, dtype = getattr(item, "shape", None), getattr(item, "dtype", None)
        if not isinstance(shape, tuple) or dtype is None:
            raise JaxtypedTypeError(f"ffi_call: result_shape_dtypes must hold ShapeDtypeStructs or arrays, got {type(item).__name__}")
        avals.append(ShapedArray(tuple(int(d) for d in shape), dtypes.dtype(dtype)))  # pyright: ignore[reportUnknownArgumentType, reportUnknownVariableType]
    return tuple(avals), single


def ffi_call(
    target_name: str,
    result_shape_dtypes: object,
    *,
    has_side_effect: bool = False,
    vmap_method: VmapMethod | None = None,
) -> Callable[..., Array | list[Array]]:
    """A function calling FFI target ``target_name``: ``ffi_call(name,
    result_shape_dtypes)(*args, **attributes)``.

    Args:
        target_name: a name registered with :func:`register_ffi_target`.
        result_shape_dtypes: a ``ShapeDtypeStruct`` (or array) for one
            result, or a list/tuple of them (the call then returns a list).
        has_side_effect: keep the call even when its results are unused.
        vmap_method: how the call behaves under ``vmap``:
            ``"sequential"`` (a ``lax.map`` over the batch),
            ``"sequential_unrolled"`` (one call per element),
            ``"expand_dims"`` (unbatched operands get a leading axis of
            size 1 and the handler broadcasts), ``"broadcast_all"`` (every
            operand gets the full batch axis); ``None``: vmap raises.

    Keyword arguments of the returned function are attributes for the
    handler: bools, ints (``i64``), floats (``f64``), strings and NumPy
    scalars and arrays.
    """
    if vmap_method is not None and vmap_method not in _VMAP_METHODS:
        raise JaxtypedValueError(f"ffi_call: vmap_method must be one of {list(_VMAP_METHODS)}, got {vmap_method!r}")
    results, single = _result_avals(result_shape_dtypes)

    def call(*args: ArrayLike, **attributes: object) -> Array | list[Array]:
        items = tuple(sorted(attributes.items()))
        for key, value in items:
            attribute_text(key, value)  # reject bad attributes here, not at lowering
        arrays = tuple(to_array(a, f"ffi_call {target_name} argument {i}") for i, a in enumerate(args))
        outs = bind(FfiCall(target_name, results, items, has_side_effect, vmap_method), *arrays)
        return outs[0] if single else list(outs)

    return call


def ffi_lowering(call_target_name: str, *, has_side_effect: bool = False) -> Callable[..., list[HloValue]]:
    """A lowering rule (for ``mlir.register_lowering``) calling FFI target
    ``call_target_name`` with the primitive's operands, its parameters
    passed as attributes."""

    def rule(ctx: LoweringRuleContext, *args: HloValue, **params: object) -> list[HloValue]:
        return list(_custom_call(ctx.lowering, call_target_name, args, ctx.avals_out, tuple(sorted(params.items())), has_side_effect))

    return rule

