"""Vectorisation (``vmap``) as an interpreter (layer L2).

A :class:`BatchTracer` holds a value with one extra axis, at ``batch_dim``;
its ``aval`` is the per-example type the user's function sees. Values the
interpreter does not own are unbatched constants, and applications with no
batched argument go straight to the parent interpreter.
"""

from abc import abstractmethod
from typing import final

from jaxtyped._src.config import config
from jaxtyped._src.core.array import Array, Conversion
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.interpreter import (
    ArrayTracer,
    Interpreter,
    bind,
    concretization_error,
    current_interpreter,
    interpreting,
)
from jaxtyped._src.core.primitive import NDArray, Primitive
from jaxtyped._src.errors import JaxtypedTypeError

__all__ = ["BatchTracer", "BatchInterpreter", "unbatched_aval", "NamedAxisPrimitive", "find_axis", "bound_axis_names"]


def unbatched_aval(aval: ShapedArray, batch_dim: int) -> ShapedArray:
    """``aval`` without its batch dimension."""
    shape = aval.shape[:batch_dim] + aval.shape[batch_dim + 1 :]
    return ShapedArray(shape, aval.dtype, aval.weak_type, aval.vma)


@final
class BatchTracer(ArrayTracer):
    """A batched value: ``val`` has the batch axis at ``batch_dim``."""

    __slots__ = ("val", "batch_dim", "_aval")

    val: Array
    batch_dim: int
    _aval: ShapedArray

    def __init__(self, interpreter: "BatchInterpreter", val: Array, batch_dim: int) -> None:
        super().__init__(interpreter)
        self.val = val
        self.batch_dim = batch_dim
        self._aval = unbatched_aval(val.aval, batch_dim)

    @property
    def aval(self) -> ShapedArray:
        return self._aval


@final
class BatchInterpreter(Interpreter):
    """Applies primitives' ``batch`` rules to batched values."""

    axis: BatchAxis

    def __init__(self, parent: Interpreter, axis: BatchAxis, fun_desc: str) -> None:
        super().__init__(parent, "vmap", fun_desc)
        self.axis = axis

    def box(self, val: Array, batch_dim: BatchDim) -> Array:
        """The value for a (value, batch dimension) pair; unbatched values
        stay unboxed."""
        if batch_dim is None:
            return val
        return BatchTracer(self, val, batch_dim)

    def unbox(self, x: Array) -> tuple[Array, BatchDim]:
        """The batched value and batch dimension of ``x`` (None if unbatched)."""
        if type(x) is BatchTracer and x.interpreter is self:
            return x.val, x.batch_dim
        return x, None

    def process(self, prim: Primitive, args: tuple[Array, ...]) -> tuple[Array, ...]:
        vals: list[Array] = []
        dims: list[BatchDim] = []
        for arg in args:
            val, dim = self.unbox(arg)
            vals.append(val)
            dims.append(dim)
        if all(dim is None for dim in dims) and not (
            # A collective over this vmap's axis name applies here even to
            # values that do not vary along it (issue 17).
            isinstance(prim, NamedAxisPrimitive) and self.axis.name is not None and self.axis.name in prim.axis_names()
        ):
            with interpreting(self.require_parent()):
                return bind(prim, *vals)
        # Type-check in the user's per-example view, so errors show the
        # shapes the user wrote, not the batched ones.
        out_avals = prim.abstract_eval(tuple(arg.aval for arg in args))
        with interpreting(self.require_parent()):
            outs, out_dims = prim.batch(self.axis, tuple(vals), tuple(dims))
        results = tuple(self.box(out, dim) for out, dim in zip(outs, out_dims, strict=True))
        if config.jax_enable_checks:
            _check_batched(prim, out_avals, results)
        return results

    def concretize(self, tracer: ArrayTracer, conversion: Conversion) -> NDArray:
        raise concretization_error(
            tracer,
            conversion,
            "Under vmap a value has one entry per batch element, so it has no "
            "single Python value.",
        )


class NamedAxisPrimitive(Primitive):
    """A primitive over named axes (a collective such as ``psum``): every
    ``vmap`` binding one of its names applies its batching rule, even when
    no operand is batched there."""

    __slots__ = ()

    @abstractmethod
    def axis_names(self) -> tuple[object, ...]:
        """The axis names the primitive communicates over."""


def find_axis(name: object) -> BatchAxis | None:
    """The axis a ``vmap(..., axis_name=name)`` around the current point of
    tracing binds, or None."""
    interp: Interpreter | None = current_interpreter()
    while interp is not None:
        if isinstance(interp, BatchInterpreter) and interp.axis.name == name:
            return interp.axis
        interp = interp.parent
    return None


def bound_axis_names() -> list[object]:
    """The axis names bound at the current point of tracing, innermost first."""
    names: list[object] = []
    interp: Interpreter | None = current_interpreter()
    while interp is not None:
        if isinstance(interp, BatchInterpreter) and interp.axis.name is not None:
            names.append(interp.axis.name)
        interp = interp.parent
    return names


def _check_batched(
    prim: Primitive, expected: tuple[ShapedArray, ...], results: tuple[Array, ...]
) -> None:
    """Under ``jax_enable_checks``: a batching rule must produce values whose
    per-example types are what ``abstract_eval`` promised."""
    for want, got in zip(expected, results, strict=True):
        if not want.same_type(got.aval):
            raise JaxtypedTypeError(
                f"batching rule of '{prim.name}' produced per-example type "
                f"{got.aval.str_short()}, but the primitive's type is {want.str_short()}"
            )
