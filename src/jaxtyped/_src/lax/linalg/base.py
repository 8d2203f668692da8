"""What the linear-algebra primitives share (layer L4).

Note [LAPACK custom calls]: on CPU, XLA runs decompositions through the
LAPACK kernels jaxlib ships as typed-FFI custom-call targets
(``lapack_sgetrf_ffi``...; ``shared/notes/jaxlib-0.10-facts.md``, section 12).
A lowering rule emits ``stablehlo.custom_call`` with :func:`lapack_call`;
the runtime registers the targets the first time a module calls one.
LAPACK is column-major, so matrix operands and results carry the layout
``[r-2, r-1, r-3, ..., 0]`` and XLA inserts the transposing copies; every
leading dimension is a batch dimension the kernel loops over. The kernels
leave garbage where they fail (``info != 0``): rules replace those batch
entries by NaN with :func:`where_ok`, as JAX does.

Note [eager linalg]: eager evaluation of these primitives runs their own
lowering, compiled as a one-equation program (:class:`DeviceEvaluated`),
instead of a NumPy ``impl``. NumPy's LAPACK is another build with other
blocking, so its eigenvectors, signs and last bits differ from what ``jit``
(and JAX, eager or not) computes; running the same kernel keeps eager,
jit and JAX in agreement.
"""

from collections.abc import Mapping, Sequence
from typing import Any, Final, Literal

import numpy as np
from typing_extensions import override

from jaxtyped._src import dtypes
from jaxtyped._src.core.array import Array
from jaxtyped._src.core.array_impl import ArrayImpl
from jaxtyped._src.core.avals import BatchAxis, BatchDim, ShapedArray
from jaxtyped._src.core.hlo import HloValue, LoweringContext
from jaxtyped._src.core.interpreter import bind
from jaxtyped._src.core.jaxpr import JaxprBuilder
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.errors import JaxtypedTypeError, JaxtypedValueError, MissingRuleError
from jaxtyped._src.lax.structural import bdim_to_front
from jaxtyped._src.pjit import executable_for, run_executable

__all__ = [
    "DeviceEvaluated",
    "BatchedOverLeadingDims",
    "Layout",
    "lapack_prefix",
    "lapack_call",
    "char_attr",
    "info_ok",
    "where_ok",
    "check_inexact",
    "check_matrix",
    "check_square",
]

# How a custom call's operand or result is laid out: ``"matrix"`` is
# column-major in its last two dimensions, ``"vector"`` row-major (pivots,
# eigenvalues, singular values, ``info``).
Layout = Literal["matrix", "vector"]

_LAPACK_PREFIX: Final[dict[np.dtype[Any], str]] = {
    np.dtype(np.float32): "s",
    np.dtype(np.float64): "d",
    np.dtype(np.complex64): "c",
    np.dtype(np.complex128): "z",
}


class DeviceEvaluated(Primitive):
    """Family base: eager evaluation compiles the primitive's own lowering
    as a one-equation program and runs it (see Note [eager linalg])."""

    __slots__ = ()

    @override
    def evaluate(self, args: tuple[ArrayImpl, ...], out_avals: tuple[ShapedArray, ...]) -> tuple[ArrayImpl, ...]:
        builder = JaxprBuilder()
        invars = tuple(builder.new_var(arg.aval) for arg in args)
        outvars = builder.add_eqn(self, invars, out_avals)
        executable = executable_for(builder.build((), invars, outvars), self.name, ())
        return run_executable(executable, args, (), out_avals, self.name)


class BatchedOverLeadingDims(Primitive):
    """Family base of primitives that already treat every leading dimension
    as a batch dimension: ``vmap`` moves the batch axis of every operand to
    the front (broadcasting unbatched ones) and binds the same primitive."""

    __slots__ = ()

    @override
    def batch(
        self, axis: BatchAxis, args: tuple[Array, ...], dims: tuple[BatchDim, ...]
    ) -> tuple[tuple[Array, ...], tuple[BatchDim, ...]]:
        moved = [bdim_to_front(x, d, axis.size) for x, d in zip(args, dims, strict=True)]
        outs = bind(self, *moved)
        return outs, (0,) * len(outs)


def lapack_prefix(dtype: np.dtype[Any], name: str) -> str:
    """LAPACK's type letter for ``dtype`` (``s``, ``d``, ``c``, ``z``).

    Raises:
        MissingRuleError: a floating type LAPACK has no kernel for (float16,
            bfloat16): a ``NotImplementedError``, as JAX's.
        JaxtypedTypeError: ``dtype`` is not floating or complex.
    """
    try:
        return _LAPACK_PREFIX[dtype]
    except KeyError:
        message = f"{name}: LAPACK supports float32, float64, complex64 and complex128, got {dtype}"
        if dtypes.is_inexact(dtype):
            raise MissingRuleError(message) from None
        raise JaxtypedTypeError(message) from None


def _layout_attr(aval: ShapedArray, layout: Layout) -> str:
    rank = aval.ndim
    if rank == 0:
        return "dense<> : tensor<0xindex>"
    if layout == "matrix":
        order = [rank - 2, rank - 1, *range(rank - 3, -1, -1)]
    else:
        order = list(range(rank - 1, -1, -1))
    return f"dense<[{', '.join(map(str, order))}]> : tensor<{rank}xindex>"


def char_attr(char: str) -> str:
    """A LAPACK character flag (``'L'``, ``'N'``) as the ``ui8`` attribute
    the kernels read."""
    return f"{ord(char)} : ui8"


def lapack_call(
    ctx: LoweringContext,
    kernel: str,
    operands: Sequence[tuple[HloValue, Layout]],
    results: Sequence[tuple[ShapedArray, Layout]],
    attrs: Mapping[str, str] | None = None,
    *,
    dtype: np.dtype[Any] | None = None,
    aliases: Mapping[int, int] | None = None,
) -> tuple[HloValue, ...]:
    """Emit a call of jaxlib's LAPACK kernel ``kernel`` (``"getrf"``) for
    the element type of the first operand (or ``dtype``).

    ``attrs`` are the kernel's attributes as attribute text (see
    :func:`char_attr`); ``aliases`` maps a result index to the operand
    index whose buffer it may reuse (LAPACK factors in place).
    """
    element = dtype if dtype is not None else operands[0][0].aval.dtype
    target = f"lapack_{lapack_prefix(element, kernel)}{kernel}_ffi"
    config = ", ".join(f"{k} = {v}" for k, v in (attrs or {}).items())
    text: dict[str, str] = {
        "call_target_name": f'"{target}"',
        "api_version": "4 : i32",
        "backend_config": f"{{{config}}}",
        "operand_layouts": "[" + ", ".join(_layout_attr(v.aval, lay) for v, lay in operands) + "]",
        "result_layouts": "[" + ", ".join(_layout_attr(a, lay) for a, lay in results) + "]",
    }
    if aliases:
        # A one-result call's result is not a tuple: its index path is empty.
        pairs = ", ".join(
            f"#stablehlo.output_operand_alias<output_tuple_indices = [{r if len(results) > 1 else ''}], "
            f"operand_index = {o}, operand_tuple_indices = []>"
            for r, o in aliases.items()
        )
        text["output_operand_aliases"] = f"[{pairs}]"
    return ctx.op("stablehlo.custom_call", [v for v, _ in operands], [a for a, _ in results], text)


def info_ok(ctx: LoweringContext, info: HloValue) -> HloValue:
    """``info == 0`` (LAPACK's success code), one boolean per batch entry."""
    return ctx.compare(info, ctx.full_like(0, info), "EQ")


def where_ok(ctx: LoweringContext, ok: HloValue, value: HloValue) -> HloValue:
    """``value`` where the batch entry succeeded, NaN elsewhere. ``ok`` has
    the batch shape, a prefix of ``value``'s shape."""
    shape = value.aval.shape
    mask = ctx.broadcast_in_dim(ok, shape, tuple(range(ok.aval.ndim)))
    # A complex entry is NaN in both parts, as JAX's.
    fill = complex(np.nan, np.nan) if dtypes.is_complex(value.aval.dtype) else np.nan
    nan = ctx.broadcast_in_dim(ctx.scalar(fill, value.aval.dtype), shape, ())
    return ctx.select(mask, value, nan)


def check_inexact(name: str, aval: ShapedArray, what: str = "a") -> None:
    """Raise unless ``aval`` is floating or complex (LAPACK's types)."""
    if not dtypes.is_inexact(aval.dtype):
        raise JaxtypedTypeError(f"{name}: argument {what} must be floating or complex, got {aval.str_short()}")


def check_matrix(name: str, aval: ShapedArray, what: str = "a") -> None:
    """Raise unless ``aval`` has at least two dimensions."""
    if aval.ndim < 2:
        raise JaxtypedValueError(
            f"{name}: argument {what} must have at least 2 dimensions (a batch of matrices), got {aval.str_short()}"
        )


def check_square(name: str, aval: ShapedArray, what: str = "a") -> None:
    """Raise unless ``aval`` is a (batch of) square matrices."""
    check_matrix(name, aval, what)
    if aval.shape[-1] != aval.shape[-2]:
        raise JaxtypedValueError(
            f"{name}: argument {what} must be a (batch of) square matrices, got {aval.str_short()}"
        )
