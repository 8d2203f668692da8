"""Transpose rules: for every primitive that has one, ``vjp`` is the
transpose of ``linearize`` and agrees with real JAX.

Each case is one program written once against a namespace (jaxtyped's
``lax``/``jit`` or JAX's), with operands of several shapes (0-d operands
mixed with arrays included) and dtypes. The tests:

1. ``<u, J v> == <J^T u, v>`` with ``J v`` from ``jt.linearize`` and
   ``J^T u`` from ``jt.vjp``, for random ``u`` and ``v``, in JAX's pairing
   ``Re(sum(a * b))`` (transposes are plain, not conjugate, transposes);
   each cotangent has its input's type;
2. ``jt.vjp`` against ``jax.vjp`` on the same program (values and dtypes);
3. the pullback (the backward pass, made of ordinary primitives) is
   batchable and stageable: ``vmap`` and ``jit`` of it agree with eager
   (all pullbacks are jitted in one program, so XLA compiles once);
4. a census: every primitive with a transpose rule is exercised by a case;
5. symbolic zeros: ``grad`` of a function that ignores an input
   materialises zeros for it only in the returned gradient.
"""

import functools
import warnings
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped import lax
from jaxtyped._src.core.avals import ShapedArray, UndefinedPrimal
from jaxtyped._src.core.jaxpr import Literal
from jaxtyped._src.core.primitive import Primitive
from jaxtyped._src.lax.gather import Scatter, ScatterDimensionNumbers

jax: Any = pytest.importorskip("jax")
from oracle import mesh_shard_map, mesh_sharding  # noqa: E402  # sharding family (issue 17)

NDArray = np.ndarray[Any, Any]


@dataclass(frozen=True)
class Ops:
    """What a case is written against: jaxtyped's namespaces or JAX's."""

    lax: Any
    jit: Callable[..., Any]


OURS = Ops(lax, jt.jit)
THEIRS = Ops(jax.lax, jax.jit)


# Typed wrappers, so that the tables' lambdas get typed parameters.
Fn = Callable[..., Any]


def k1(fn: Callable[[Ops, Any], Any]) -> Fn:
    return fn


def k2(fn: Callable[[Ops, Any, Any], Any]) -> Fn:
    return fn


def k3(fn: Callable[[Ops, Any, Any, Any], Any]) -> Fn:
    return fn


def k4(fn: Callable[[Ops, Any, Any, Any, Any], Any]) -> Fn:
    return fn


@dataclass(frozen=True)
class In:
    """One operand: its shape; a fixed dtype (None: the case's dtype);
    fixed integer values (then it is a closed-over constant, not a
    differentiated input); ``away``: values kept away from zero."""

    shape: tuple[int, ...]
    dtype: str | None = None
    values: tuple[int, ...] | None = None
    away: bool = False


@dataclass(frozen=True)
class Case:
    """``fn(ops, *operands)``; ``prims``: the transpose rules it exercises."""

    id: str
    fn: Callable[..., Any]
    ins: tuple[In, ...]
    dtypes: tuple[str, ...]
    prims: tuple[str, ...]
    jax_compare: bool = True  # False where JAX's result is unspecified (out-of-bounds promises)
    x64: bool = False  # needs 64-bit types whatever the dtype


F = ("float32", "float64")
C = (*F, "complex64")
CPLX = ("complex64", "complex128")
S23 = (2, 3)
I = "int32"
B = "bool"


def _gdn(m: Any, offset: tuple[int, ...] = (1,), collapsed: tuple[int, ...] = (0,), index_map: tuple[int, ...] = (0,),
         operand_batching: tuple[int, ...] = (), indices_batching: tuple[int, ...] = ()) -> Any:
    return m.GatherDimensionNumbers(
        offset_dims=offset, collapsed_slice_dims=collapsed, start_index_map=index_map,
        operand_batching_dims=operand_batching, start_indices_batching_dims=indices_batching,
    )  # fmt: skip


def _sdn(m: Any) -> Any:
    return m.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))


def _elementwise_cases() -> list[Case]:
    shapes2 = [(S23, S23), ((), S23), (S23, ()), ((), ())]
    cases = [
        Case("neg", k1(lambda o, x: o.lax.neg(x)), (In(S23),), C, ("neg",)),
        Case("neg_0d", k1(lambda o, x: o.lax.neg(x)), (In(()),), C, ("neg",)),
    ]
    for name in ("add", "sub", "mul"):
        for a, b in shapes2:
            cases.append(Case(f"{name}_{len(a)}d_{len(b)}d", _binary(name), (In(a), In(b)), C, (name,)))
    for a, b in shapes2:
        cases.append(Case(f"div_{len(a)}d_{len(b)}d", _binary("div"), (In(a), In(b, away=True)), C, ("div",)))
    cases += [
        Case("mul_by_constant", k1(lambda o, x: o.lax.mul(x, 3.0)), (In(S23),), F, ("mul",)),
        Case("div_constant_divisor", k1(lambda o, x: o.lax.div(x, 4.0)), (In(S23),), F, ("div",)),
        Case("convert_to_complex", k1(lambda o, x: o.lax.convert_element_type(x, np.complex64)), (In(S23),), ("float32",),
             ("convert_element_type",)),
        Case("convert_complex_to_real", k1(lambda o, x: o.lax.convert_element_type(x, np.float32)), (In(S23),), ("complex64",),
             ("convert_element_type",)),
        Case("convert_widen", k1(lambda o, x: o.lax.convert_element_type(x, np.float64)), (In(S23),), ("float32",),
             ("convert_element_type",), x64=True),
        Case("convert_narrow", k1(lambda o, x: o.lax.convert_element_type(x, np.float32)), (In(S23),), ("float64",),
             ("convert_element_type",)),
        Case("convert_to_float16", k1(lambda o, x: o.lax.convert_element_type(x, np.float16)), (In(S23),), ("float32",),
             ("convert_element_type",)),
        Case("real", k1(lambda o, x: o.lax.real(x)), (In(S23),), CPLX, ("real",)),
        Case("imag", k1(lambda o, x: o.lax.imag(x)), (In(S23),), CPLX, ("imag",)),
        Case("conj", k1(lambda o, x: o.lax.conj(x)), (In(S23),), CPLX, ("conj",)),
        Case("complex", k2(lambda o, x, y: o.lax.complex(x, y)), (In(S23), In(S23)), F, ("complex",)),
        Case("complex_0d_real", k2(lambda o, x, y: o.lax.complex(x, y)), (In(()), In(S23)), F, ("complex",)),
        Case("complex_0d_imag", k2(lambda o, x, y: o.lax.complex(x, y)), (In(S23), In(())), F, ("complex",)),
        Case("complex_constant_imag", k1(lambda o, x: o.lax.complex(x, 2.0)), (In(S23),), ("float32",), ("complex",)),
    ]  # fmt: skip
    return cases


def _binary(name: str) -> Callable[..., Any]:
    def fn(o: Ops, x: Any, y: Any) -> Any:
        return getattr(o.lax, name)(x, y)

    return fn


def _structural_cases() -> list[Case]:
    return [
        Case("broadcast_in_dim", k1(lambda o, x: o.lax.broadcast_in_dim(x, (2, 3, 4), (1,))), (In((3,)),), C, ("broadcast_in_dim",)),
        Case("broadcast_in_dim_size1", k1(lambda o, x: o.lax.broadcast_in_dim(x, (3, 4), (0, 1))), (In((3, 1)),), C,
             ("broadcast_in_dim",)),
        Case("broadcast_in_dim_0d", k1(lambda o, x: o.lax.broadcast_in_dim(x, S23, ())), (In(()),), C, ("broadcast_in_dim",)),
        Case("reduce_sum", k1(lambda o, x: o.lax.reduce_sum(x, (0, 2))), (In((2, 3, 4)),), C, ("reduce_sum",)),
        Case("reduce_sum_all", k1(lambda o, x: o.lax.reduce_sum(x, (0, 1))), (In(S23),), C, ("reduce_sum",)),
        Case("reshape", k1(lambda o, x: o.lax.reshape(x, (3, 2))), (In(S23),), C, ("reshape",)),
        Case("reshape_dimensions", k1(lambda o, x: o.lax.reshape(x, (4, 6), (1, 0, 2))), (In((2, 3, 4)),), C, ("reshape",)),
        Case("reshape_to_0d", k1(lambda o, x: o.lax.reshape(x, ())), (In((1, 1)),), C, ("reshape",)),
        Case("reshape_from_0d", k1(lambda o, x: o.lax.reshape(x, (1, 1))), (In(()),), C, ("reshape",)),
        Case("transpose", k1(lambda o, x: o.lax.transpose(x, (2, 0, 1))), (In((2, 3, 4)),), C, ("transpose",)),
        Case("squeeze", k1(lambda o, x: o.lax.squeeze(x, (0, 2))), (In((1, 3, 1)),), C, ("squeeze",)),
        Case("expand_dims", k1(lambda o, x: o.lax.expand_dims(x, (0, 2))), (In(S23),), C, ("expand_dims",)),
        Case("expand_dims_0d", k1(lambda o, x: o.lax.expand_dims(x, (0,))), (In(()),), C, ("expand_dims",)),
        Case("rev", k1(lambda o, x: o.lax.rev(x, (0, 1))), (In(S23),), C, ("rev",)),
        Case("rev_middle", k1(lambda o, x: o.lax.rev(x, (1,))), (In((2, 3, 4)),), F, ("rev",)),
        Case("concatenate", k2(lambda o, x, y: o.lax.concatenate([x, y], 1)), (In(S23), In((2, 2))), C, ("concatenate",)),
        Case("concatenate_3", k3(lambda o, x, y, z: o.lax.concatenate([x, y, z], 0)), (In((1, 3)), In(S23), In((1, 3))), F,
             ("concatenate",)),
        Case("concatenate_constant", k1(lambda o, x: o.lax.concatenate([x, np.ones((2, 2), np.float32)], 1)), (In(S23),),
             ("float32",), ("concatenate",)),
        Case("pad_interior", k2(lambda o, x, v: o.lax.pad(x, v, ((1, 2, 1), (0, 1, 0)))), (In(S23), In(())), C, ("pad",)),
        Case("pad_negative", k2(lambda o, x, v: o.lax.pad(x, v, ((-1, 1, 0), (1, -1, 2)))), (In(S23), In(())), C, ("pad",)),
        Case("pad_constant_value", k1(lambda o, x: o.lax.pad(x, 0.0, ((1, 0, 2), (2, -1, 0)))), (In(S23),), F, ("pad",)),
        # JAX's pad transpose fails when only the padding value is linear.
        Case("pad_constant_operand", k1(lambda o, v: o.lax.pad(np.ones(S23, np.float32), v, ((1, 1, 1), (0, 0, 0)))),
             (In(()),), ("float32",), ("pad",), jax_compare=False),
        Case("pad_0d", k2(lambda o, x, v: o.lax.pad(x, v, ())), (In(()), In(())), F, ("pad",)),
        Case("select_n_bool", k3(lambda o, w, a, b: o.lax.select_n(w, a, b)), (In(S23, B), In(S23), In(S23)), C, ("select_n",)),
        Case("select_n_int_3", k4(lambda o, w, a, b, c: o.lax.select_n(w, a, b, c)),
             (In(S23, I, (0, 1, 2, 2, 1, 0)), In(S23), In(S23), In(S23)), C, ("select_n",)),
        Case("select_n_0d_which", k3(lambda o, w, a, b: o.lax.select_n(w, a, b)), (In((), B), In(S23), In(S23)), F, ("select_n",)),
        Case("select_n_0d_cases", k3(lambda o, w, a, b: o.lax.select_n(w, a, b)), (In((), B), In(()), In(())), F, ("select_n",)),
        # JAX's select_n transpose fails for a single case.
        Case("select_n_one_case", k2(lambda o, w, a: o.lax.select_n(w, a)), (In(S23, B), In(S23)), F, ("select_n",),
             jax_compare=False),
        Case("select_n_constant_case", k2(lambda o, w, a: o.lax.select_n(w, np.zeros(S23, np.float32), a)),
             (In(S23, B), In(S23)), ("float32",), ("select_n",)),
        # Out-of-range indices pick the first or last case; JAX leaves it unspecified.
        Case("select_n_out_of_range", k4(lambda o, w, a, b, c: o.lax.select_n(w, a, b, c)),
             (In(S23, I, (-1, 0, 5, 2, 3, 1)), In(S23), In(S23), In(S23)), F, ("select_n",), jax_compare=False),
    ]  # fmt: skip


def _slicing_cases() -> list[Case]:
    x45 = In((4, 5))
    i, j = In((), I, (3,)), In((), I, (1,))
    far = In((), I, (7,))  # clamped
    idx = In((4, 1), I, (1, 3, 7, -1))  # two out of bounds
    inside = In((4, 1), I, (1, 3, 0, 3))
    batch_idx = In((2, 3, 1), I, (0, 3, 1, 2, 2, 0))
    return [
        Case("slice", k1(lambda o, x: o.lax.slice(x, (1, 0), (3, 5))), (x45,), C, ("slice",)),
        Case("slice_strided", k1(lambda o, x: o.lax.slice(x, (0, 1), (4, 5), (3, 2))), (x45,), C, ("slice",)),
        Case("slice_empty", k1(lambda o, x: o.lax.slice(x, (1, 2), (1, 5))), (x45,), F, ("slice",)),
        Case("dynamic_slice", k3(lambda o, x, a, b: o.lax.dynamic_slice(x, (a, b), (2, 3))), (x45, i, j), C, ("dynamic_slice",)),
        Case("dynamic_slice_clamped", k3(lambda o, x, a, b: o.lax.dynamic_slice(x, (a, b), (2, 3))), (x45, far, far), F,
             ("dynamic_slice",)),
        Case("dynamic_update_slice", k4(lambda o, x, u, a, b: o.lax.dynamic_update_slice(x, u, (a, b))), (x45, In(S23), i, j), C,
             ("dynamic_update_slice",)),
        Case("dynamic_update_slice_clamped", k4(lambda o, x, u, a, b: o.lax.dynamic_update_slice(x, u, (a, b))),
             (x45, In(S23), far, j), F, ("dynamic_update_slice",)),
        Case("dynamic_update_slice_update_only",
             k3(lambda o, u, a, b: o.lax.dynamic_update_slice(np.ones((4, 5), np.float32), u, (a, b))), (In(S23), i, j),
             ("float32",), ("dynamic_update_slice",)),
        Case("dynamic_update_slice_operand_only",
             k3(lambda o, x, a, b: o.lax.dynamic_update_slice(x, np.ones(S23, np.float32), (a, b))), (x45, i, j),
             ("float32",), ("dynamic_update_slice",)),
        Case("gather_clip", k2(lambda o, x, k: o.lax.gather(x, k, _gdn(o.lax), (1, 5), mode="clip")), (x45, idx), C, ("gather",)),
        Case("gather_fill", k2(lambda o, x, k: o.lax.gather(x, k, _gdn(o.lax), (1, 5), mode="fill")), (x45, idx), C, ("gather",)),
        Case("gather_promise", k2(lambda o, x, k: o.lax.gather(x, k, _gdn(o.lax), (1, 5), mode="promise_in_bounds")),
             (x45, inside), F, ("gather",)),
        # Out of bounds a promise_in_bounds gather clamps but its transpose,
        # as JAX's, drops: no exact transpose there (JAX's out-of-bounds
        # gradient is compared in tests/numpy/test_jnp_advanced_indexing.py).
        Case("gather_window", k2(lambda o, x, k: o.lax.gather(x, k, _gdn(o.lax, (1, 2), (), (0,)), (2, 3), mode="clip")),
             (x45, idx), F, ("gather",)),
        Case("gather_batching_dims",
             k2(lambda o, x, k: o.lax.gather(x, k, _gdn(o.lax, (2,), (1,), (1,), (0,), (0,)), (1, 1, 5), mode="clip")),
             (In((2, 4, 5)), batch_idx), F, ("gather",)),
        Case("scatter_add", k3(lambda o, x, k, u: o.lax.scatter_add(x, k, u, _sdn(o.lax))), (x45, idx, In((4, 5))), C,
             ("scatter-add",)),
        Case("scatter_add_clip", k3(lambda o, x, k, u: o.lax.scatter_add(x, k, u, _sdn(o.lax), mode="clip")),
             (x45, idx, In((4, 5))), F, ("scatter-add",)),
        # advanced indexing family: scatter-sub is linear; scatter-mul in its operand
        Case("scatter_sub", k3(lambda o, x, k, u: o.lax.scatter_sub(x, k, u, _sdn(o.lax))), (x45, idx, In((4, 5))), F,
             ("scatter-sub",)),
        Case("scatter_mul_operand",
             k2(lambda o, x, k: o.lax.scatter_mul(x, k, np.full((4, 5), 1.5, np.float32), _sdn(o.lax))), (x45, idx), ("float32",),
             ("scatter-mul",)),
        Case("scatter_add_updates_only",
             k2(lambda o, k, u: o.lax.scatter_add(np.ones((4, 5), np.float32), k, u, _sdn(o.lax))), (idx, In((4, 5))),
             ("float32",), ("scatter-add",)),
        Case("scatter_unique", k3(lambda o, x, k, u: o.lax.scatter(x, k, u, _sdn(o.lax), unique_indices=True)),
             (x45, In((2, 1), I, (3, 0)), In((2, 5))), C, ("scatter",)),
        Case("scatter_unique_clip", k3(lambda o, x, k, u: o.lax.scatter(x, k, u, _sdn(o.lax), unique_indices=True, mode="clip")),
             (x45, In((2, 1), I, (9, 0)), In((2, 5))), F, ("scatter",)),
        Case("scatter_repeated", k3(lambda o, x, k, u: o.lax.scatter(x, k, u, _sdn(o.lax))),
             (x45, In((3, 1), I, (1, 3, 1)), In((3, 5))), F, ("scatter-add", "select_n")),
    ]  # fmt: skip


def _dot_cases() -> list[Case]:
    def dot(dims: Any, preferred: Any = None) -> Callable[..., Any]:
        def fn(o: Ops, x: Any, y: Any) -> Any:
            return o.lax.dot_general(x, y, dims, preferred_element_type=preferred)

        return fn

    mm = (((1,), (0,)), ((), ()))
    return [
        Case("dot_matmul", dot(mm), (In((3, 4)), In((4, 2))), C, ("dot_general",)),
        Case("dot_batch", dot((((2,), (1,)), ((0,), (0,)))), (In((2, 3, 4)), In((2, 4, 3))), C, ("dot_general",)),
        Case("dot_batch_middle", dot((((2,), (0,)), ((1,), (1,)))), (In((3, 2, 4)), In((4, 2, 3))), F, ("dot_general",)),
        Case("dot_outer", dot((((), ()), ((), ()))), (In((3,)), In((4,))), F, ("dot_general",)),
        Case("dot_contract_lhs0", dot((((0,), (1,)), ((), ()))), (In((4, 3)), In((2, 4))), F, ("dot_general",)),
        Case("dot_two_contractions", dot((((2, 0), (0, 3)), ((1,), (2,)))), (In((3, 2, 4, 5)), In((4, 6, 2, 3))), F,
             ("dot_general",)),
        Case("dot_vectors_to_0d", dot((((0,), (0,)), ((), ()))), (In((3,)), In((3,))), C, ("dot_general",)),
        Case("dot_preferred", dot(mm, np.float64), (In((3, 4)), In((4, 2))), ("float32",), ("dot_general",), x64=True),
        Case("dot_real_complex", dot(mm), (In((3, 4)), In((4, 2), "complex64")), ("float32",), ("dot_general",)),
        Case("dot_constant_rhs", k1(lambda o, x: o.lax.dot_general(x, np.ones((4, 2), np.float32), mm)), (In((3, 4)),),
             ("float32",), ("dot_general",)),
        # grouped matmul, a ragged row axis (JAX transposes only that mode; the others: tests/lax/test_ragged_dot.py)
        Case("ragged_dot", k3(lambda o, x, y, g: o.lax.ragged_dot(x, y, g)), (In((5, 3)), In((3, 3, 2)), In((3,), I, (2, 0, 2))),
             F, ("ragged_dot_general",)),
    ]  # fmt: skip


def _jit_cases() -> list[Case]:
    def fn(o: Ops, x: Any, y: Any) -> Any:
        def body(a: Any, b: Any) -> Any:
            return o.lax.mul(o.lax.sin(a), b)

        return o.jit(body)(x, y)

    def ignores_second(o: Ops, x: Any, y: Any) -> Any:
        def body(a: Any, b: Any) -> tuple[Any, Any]:
            return o.lax.sin(a), b

        return o.jit(body)(x, y)[0]

    return [
        Case("jit", fn, (In(S23), In(S23)), C, ("jit",)),
        Case("jit_0d_operand", fn, (In(()), In(S23)), F, ("jit",)),
        Case("jit_unused_input", ignores_second, (In(S23), In(S23)), ("float32",), ("jit",)),
    ]



# windowed reductions and convolutions family
def _windowed_cases() -> list[Case]:
    def conv(**kwargs: Any) -> Fn:
        return k2(lambda o, x, w: o.lax.conv_general_dilated(x, w, (2, 1), [(1, 0), (0, 2)], (1, 2), (2, 1), **kwargs))

    return [
        Case("conv", conv(), (In((2, 2, 4, 3)), In((3, 2, 2, 2))), F, ("conv_general_dilated",)),
        Case("conv_feature_groups", conv(feature_group_count=2), (In((1, 4, 4, 3)), In((4, 2, 2, 2))), F,
             ("conv_general_dilated",)),
        Case("conv_batch_groups", conv(batch_group_count=2), (In((4, 2, 4, 3)), In((4, 2, 2, 2))), F,
             ("conv_general_dilated",)),
        Case("conv_nhwc_constant_kernel", k1(lambda o, x: o.lax.conv_general_dilated(
            x, np.ones((2, 2, 3, 2), np.float32), (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))),
            (In((1, 4, 3, 3)),), ("float32",), ("conv_general_dilated",)),
        Case("reduce_window_sum", k1(lambda o, x: o.lax.reduce_window(x, 0.0, o.lax.add, (2, 3), (2, 1), [(1, 0), (1, 1)],
                                                                       (1, 2), (2, 1))),
             (In((4, 5)),), F, ("reduce_window_sum",)),
    ]  # fmt: skip

# lax extras family: the barrier is transposed through a barrier on the cotangents
def _extras_cases() -> list[Case]:
    def barrier(o: Ops, x: Any, y: Any) -> Any:
        a, b = o.lax.optimization_barrier((x, o.lax.mul(y, 2.0)))
        return o.lax.add(a, b)

    return [
        Case("optimization_barrier", k2(barrier), (In(S23), In(S23)), F, ("optimization_barrier",)),
        Case("optimization_barrier_0d", k2(barrier), (In(()), In(())), ("float32",), ("optimization_barrier",)),
    ]


# cumulative sums transpose to sums in the other direction; reduce_precision
# transposes to itself (as JAX's): exact only where it rounds nothing away,
# so the pairing test uses float32's own precision (rounding itself is
# compared with JAX in test_lax_special.py).
def _cumulative_and_rounding_cases() -> list[Case]:
    return [
        Case("cumsum", k1(lambda o, x: o.lax.cumsum(x, axis=1)), (In(S23),), C, ("cumsum",)),
        Case("cumsum_reverse", k1(lambda o, x: o.lax.cumsum(x, axis=0, reverse=True)), (In(S23),), F, ("cumsum",)),
        Case("reduce_precision", k1(lambda o, x: o.lax.reduce_precision(x, 8, 23)), (In(S23),), ("float32",), ("reduce_precision",)),
    ]


# FFT family: FFT and IFFT transpose to themselves; RFFT to a padded FFT's
# real part, IRFFT to a weighted, conjugated RFFT (odd and even lengths).
def _fft_cases() -> list[Case]:
    return [
        Case("fft", k1(lambda o, x: o.lax.fft(x, "fft", (3, 4))), (In((2, 3, 4)),), CPLX, ("fft",)),
        Case("fft_ifft", k1(lambda o, x: o.lax.fft(x, "ifft", (5,))), (In((2, 5)),), CPLX, ("fft",)),
        Case("fft_rfft", k1(lambda o, x: o.lax.fft(x, "rfft", (3, 6))), (In((2, 3, 6)),), F, ("fft",)),
        Case("fft_rfft_odd", k1(lambda o, x: o.lax.fft(x, "rfft", (7,))), (In((2, 7)),), F, ("fft",)),
        Case("fft_irfft", k1(lambda o, x: o.lax.fft(x, "irfft", (3, 6))), (In((2, 3, 4)),), CPLX, ("fft",)),
        Case("fft_irfft_odd", k1(lambda o, x: o.lax.fft(x, "irfft", (7,))), (In((2, 4)),), CPLX, ("fft",)),
    ]


# Cholesky and triangular_solve family: the solves are linear in b (the
# matrix a closed-over, well-conditioned constant): b's cotangent solves
# with the transpose flag flipped, or with the transposed tridiagonal.
def _cholesky_family_cases() -> list[Case]:
    rng = np.random.default_rng(14)
    base = rng.standard_normal((2, 3, 3)) + 1j * rng.standard_normal((2, 3, 3)) + 6 * np.eye(3)
    diagonals = rng.standard_normal((3, 4)) + 1j * rng.standard_normal((3, 4)) + np.array([[0.0], [6.0], [0.0]])

    def like(value: NDArray, x: Any) -> NDArray:
        return np.asarray(value if np.dtype(x.dtype).kind == "c" else value.real, x.dtype)

    def solve(batched: bool, **flags: bool) -> Fn:
        return k1(lambda o, b: o.lax.linalg.triangular_solve(like(base if batched else base[0], b), b, **flags))

    def tridiagonal(o: Ops, b: Any) -> Any:
        dl, d, du = like(diagonals, b)
        return o.lax.linalg.tridiagonal_solve(dl, d, du, b)

    return [
        Case("triangular_solve_left_lower", solve(False, left_side=True, lower=True), (In((3, 2)),), C, ("triangular_solve",)),
        Case("triangular_solve_right_adjoint", solve(False, transpose_a=True, conjugate_a=True), (In((2, 3)),), CPLX,
             ("triangular_solve",)),
        Case("triangular_solve_conjugate_unit", solve(True, left_side=True, conjugate_a=True, unit_diagonal=True),
             (In((2, 3, 2)),), C, ("triangular_solve",)),
        Case("tridiagonal_solve", k1(tridiagonal), (In((4, 2)),), C, ("tridiagonal_solve",)),
    ]  # fmt: skip


# sharding family (issue 17): a sharding constraint transposes to the same
# constraint on the cotangent (2-device mesh, Auto axes, either library).
def _sharding_cases() -> list[Case]:
    def constrain(o: Ops, x: Any) -> Any:
        return o.lax.with_sharding_constraint(o.lax.mul(x, 3.0), mesh_sharding(o is OURS, "a"))

    def vm(o: Ops, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
        mapped: Callable[[Any], Any] = (jt if o is OURS else jax).vmap(f, axis_name="i")
        return mapped

    def broadcast_from(o: Ops, r: Any) -> Any:
        # pbroadcast (issue 17 item 4, H17b): JAX has no CPU lowering for it,
        # so JAX computes its documented equivalent, a psum of the masked value.
        if o is OURS:
            return o.lax.pbroadcast(r, "a", 1)
        mask = o.lax.convert_element_type(o.lax.eq(o.lax.axis_index("a"), np.int32(1)), r.dtype)
        return o.lax.psum(r * mask, "a")

    swap = [(0, 1), (1, 0)]
    return [
        Case("sharding_constraint", k1(constrain), (In(S23),), F, ("sharding_constraint",)),
        # collectives over the axis a vmap names (issue 17): 2 members
        Case("psum", k1(lambda o, x: vm(o, lambda r: o.lax.psum(r, "i"))(x)), (In(S23),), F, ("psum",)),
        Case("all_gather", k1(lambda o, x: vm(o, lambda r: o.lax.all_gather(r, "i", axis=1))(x)), (In(S23),), F,
             ("all_gather",)),
        Case("psum_scatter", k1(lambda o, x: vm(o, lambda r: o.lax.psum_scatter(r, "i", tiled=True))(x)),
             (In((2, 4)),), F, ("reduce_scatter",)),
        Case("ppermute", k1(lambda o, x: vm(o, lambda r: o.lax.ppermute(r, "i", swap))(x)), (In(S23),), F,
             ("ppermute",)),
        Case("all_to_all", k1(lambda o, x: vm(o, lambda r: o.lax.all_to_all(r, "i", 0, 0))(x)), (In((2, 2)),), F,
             ("all_to_all",)),
        # JEP 17111's primitives inside shard_map with check_vma: each is the other's transpose
        Case("psum_invariant", k1(lambda o, x: mesh_shard_map(o is OURS, lambda r: o.lax.psum(r, "a"), (("a",),), ())(x)),
             (In((4, 3)),), F, ("psum_invariant", "pvary")),
        Case("pbroadcast", k1(lambda o, x: mesh_shard_map(o is OURS, lambda r: broadcast_from(o, r), (("a",),), ("a",))(x)),
             (In((4, 3)),), F, ("pbroadcast",)),
    ]  # fmt: skip


CASES = [
    *_sharding_cases(),  # sharding family (issue 17)
    *_elementwise_cases(), *_structural_cases(), *_slicing_cases(), *_dot_cases(), *_jit_cases(),
    *_windowed_cases(), *_extras_cases(), *_cumulative_and_rounding_cases(),
    *_cholesky_family_cases(),  # Cholesky and triangular_solve family
    *_fft_cases(),  # FFT family
]  # fmt: skip
PARAMS = [pytest.param(case, dtype, id=f"{case.id}-{dtype}") for case in CASES for dtype in case.dtypes]
COMPARED = [pytest.param(case, dtype, id=f"{case.id}-{dtype}") for case in CASES if case.jax_compare for dtype in case.dtypes]
FLOAT32 = [pytest.param(case, id=case.id) for case in CASES if "float32" in case.dtypes]


# === operands ===


def _rng(*keys: object) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(repr(keys).encode()))


def _random(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype[Any], away: bool = False) -> NDArray:
    if dtype == np.bool_:
        flags: NDArray = rng.random(shape) < 0.5
        return flags
    values: NDArray = rng.uniform(0.5, 2.0, shape) * rng.choice([-1.0, 1.0], shape) if away else rng.standard_normal(shape)
    if dtype.kind == "c":
        values = values + 1j * rng.uniform(0.1, 1.0, shape)
    return np.asarray(values, dtype)


def _operands(case: Case, dtype: str) -> list[NDArray]:
    rng = _rng(case.id, dtype)
    result: list[NDArray] = []
    for spec in case.ins:
        d = np.dtype(spec.dtype or dtype)
        result.append(np.array(spec.values, d).reshape(spec.shape) if spec.values is not None else _random(rng, spec.shape, d, spec.away))
    return result


def _program(ops: Ops, case: Case, operands: list[NDArray]) -> tuple[Callable[..., Any], list[NDArray]]:
    """The case as a function of its inexact operands (the others closed over)."""
    differentiable = [i for i, x in enumerate(operands) if x.dtype.kind in "fc"]

    def f(*args: Any) -> Any:
        full: list[Any] = list(operands)
        for i, a in zip(differentiable, args, strict=True):
            full[i] = a
        return case.fn(ops, *full)

    return f, [operands[i] for i in differentiable]


def _types_for(case: Case, dtype: str, request: pytest.FixtureRequest) -> None:
    """Turn 64-bit types on for this test where needed (conftest's x64
    fixture restores the setting after the test)."""
    if _wide(case, dtype):
        request.getfixturevalue("x64")


def _pairing(a: Any, b: Any) -> float:
    """JAX's pairing of cotangents with tangents: ``Re(sum(a * b))``."""
    return float(np.real(np.sum(np.asarray(a).astype(np.complex128) * np.asarray(b).astype(np.complex128))))


def _norm(a: Any) -> float:
    return float(np.linalg.norm(np.asarray(a).astype(np.complex128).ravel()))


def _rel_tol(dtypes_: Sequence[np.dtype[Any]]) -> float:
    """A few roundings of the narrowest dtype involved."""
    return max(50 * float(np.finfo(d).eps) for d in dtypes_)


# === 1. vjp is the transpose of linearize ===


@pytest.mark.parametrize(("case", "dtype"), PARAMS)
def test_vjp_is_the_transpose_of_linearize(case: Case, dtype: str, request: pytest.FixtureRequest) -> None:
    _types_for(case, dtype, request)
    f, args = _program(OURS, case, _operands(case, dtype))
    out, f_jvp = jt.linearize(f, *args)
    _, f_vjp = jt.vjp(f, *args)
    rng = _rng("directions", case.id, dtype)
    v = [_random(rng, a.shape, a.dtype) for a in args]
    u = _random(rng, out.shape, out.dtype)
    jv = f_jvp(*v)
    jtu = f_vjp(u)
    for ct, a in zip(jtu, args, strict=True):
        assert (ct.shape, ct.dtype) == (a.shape, a.dtype), f"cotangent {ct.dtype}{ct.shape} for input {a.dtype}{a.shape}"
    lhs = _pairing(u, jv)
    rhs = sum(_pairing(c, t) for c, t in zip(jtu, v))
    scale = _norm(u) * _norm(jv) + sum(_norm(c) * _norm(t) for c, t in zip(jtu, v))
    tol = _rel_tol([out.dtype, *(a.dtype for a in args)])
    assert abs(lhs - rhs) <= tol * max(scale, 1.0), f"<u, J v> = {lhs} but <J^T u, v> = {rhs}"


# === 2. vjp agrees with JAX ===


def _wide(case: Case, dtype: str) -> bool:
    return case.x64 or dtype in ("float64", "complex128")


def _cotangent(case: Case, dtype: str, out: Any) -> NDArray:
    return _random(_rng("cotangent", case.id, dtype), tuple(np.shape(out)), np.asarray(out).dtype)


@functools.lru_cache(maxsize=None)
def _jax_pullbacks(dtype: str, wide: bool) -> dict[str, list[NDArray]]:
    """JAX's vjp of every compared case of ``dtype`` (and of this x64
    need), in one jitted program so that the oracle compiles once."""
    programs: dict[str, Callable[..., Any]] = {}
    inputs: dict[str, tuple[list[NDArray], NDArray]] = {}
    for case in CASES:
        if case.jax_compare and dtype in case.dtypes and _wide(case, dtype) == wide:
            operands = _operands(case, dtype)
            f, args = _program(OURS, case, operands)
            programs[case.id] = _program(THEIRS, case, operands)[0]
            inputs[case.id] = (args, _cotangent(case, dtype, f(*args)))

    def pullbacks(inputs: dict[str, tuple[list[Any], Any]]) -> dict[str, Any]:
        return {key: jax.vjp(programs[key], *args)[1](ct) for key, (args, ct) in inputs.items()}

    with warnings.catch_warnings():
        # JAX warns when a complex value is converted to a real one.
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
        results = jax.jit(pullbacks)(inputs)
    return {key: [np.asarray(x) for x in value] for key, value in results.items()}


@pytest.mark.parametrize(("case", "dtype"), COMPARED)
def test_vjp_matches_jax(case: Case, dtype: str, request: pytest.FixtureRequest) -> None:
    _types_for(case, dtype, request)
    f, args = _program(OURS, case, _operands(case, dtype))
    out, f_vjp = jt.vjp(f, *args)
    got = f_vjp(_cotangent(case, dtype, out))
    want = _jax_pullbacks(dtype, _wide(case, dtype))[case.id]
    for ours, expected in zip(got, want, strict=True):
        assert np.asarray(ours).dtype == expected.dtype
        tol = 1e-12 if expected.dtype in (np.dtype(np.float64), np.dtype(np.complex128)) else 1e-5
        np.testing.assert_allclose(np.asarray(ours), expected, rtol=tol, atol=tol)


# === 3. the backward pass batches and stages ===


def _pullback_and_cotangents(case: Case) -> tuple[Callable[..., Any], NDArray]:
    """The float32 pullback of ``case`` and two random cotangents, stacked."""
    f, args = _program(OURS, case, _operands(case, "float32"))
    out, f_vjp = jt.vjp(f, *args)
    rng = _rng("batch", case.id)
    return f_vjp, np.stack([_random(rng, out.shape, out.dtype) for _ in range(2)])


def _assert_same(got: Sequence[Any], want: Sequence[Any]) -> None:
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(g), np.asarray(w), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("case", FLOAT32)
def test_pullback_batches(case: Case, request: pytest.FixtureRequest) -> None:
    _types_for(case, "float32", request)
    f_vjp, us = _pullback_and_cotangents(case)
    batched = jt.vmap(f_vjp)(us)
    for k in range(2):
        _assert_same([b[k] for b in batched], f_vjp(us[k]))
    if case.x64:  # not in the joint program below, which runs without x64
        _assert_same(jt.jit(f_vjp)(us[1]), f_vjp(us[1]))


def test_pullbacks_stage_and_lower() -> None:
    """Every float32 pullback, staged and compiled in one jitted program
    (one compile), equals its eager evaluation."""
    cases = [case for case in CASES if "float32" in case.dtypes and not case.x64]
    pullbacks = {case.id: _pullback_and_cotangents(case) for case in cases}

    def all_pullbacks(cts: dict[str, NDArray]) -> dict[str, Any]:
        return {key: pullbacks[key][0](ct) for key, ct in cts.items()}

    staged = jt.jit(all_pullbacks)({key: us[1] for key, (_, us) in pullbacks.items()})
    wrong: list[str] = []
    for key, (f_vjp, us) in pullbacks.items():
        eager = f_vjp(us[1])
        close = all(np.allclose(np.asarray(g), np.asarray(w), rtol=1e-5, atol=1e-6) for g, w in zip(staged[key], eager))
        if not close:
            wrong.append(key)
    assert wrong == []


# === 4. census ===


def _primitives_with_transpose() -> set[str]:
    """The lax primitives and the jit call with a transpose rule (the
    higher-order primitives of custom derivatives and remat have their own
    tests, as do the control-flow primitives: cond and scan in
    test_control_flow_*.py and the grad census; while's transpose only
    raises)."""
    names: set[str] = set()
    pending: list[type[Primitive]] = list(Primitive.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        control_flow = cls.__module__.startswith("jaxtyped._src.lax.control_flow.")
        ours = (cls.__module__.startswith("jaxtyped._src.lax.") and not control_flow) or cls.__module__ == "jaxtyped._src.pjit"
        if "name" not in vars(cls) or not ours:
            continue
        if any("transpose" in vars(k) for k in cls.__mro__ if k is not Primitive):
            names.add(cls.name)
    return names


# Transpose rules that vjp never reaches, each checked in its own test file.
TRANSPOSED_ELSEWHERE: dict[str, str] = {
    # A composite's jvp inlines the decomposition's tangents, so a vjp
    # transposes those, never the composite itself: linear_transpose of a
    # composite is compared with JAX's transpose of its decomposition there.
    "composite": "tests/lax/test_composite.py",
}


def test_every_transpose_rule_is_exercised() -> None:
    with_rule = _primitives_with_transpose()
    # A sample, so that a broken census cannot pass vacuously.
    assert {"add", "dot_general", "gather", "scatter-add", "pad", "select_n", "jit", "real"} <= with_rule
    exercised = {p for case in CASES for p in case.prims}
    assert set(TRANSPOSED_ELSEWHERE) <= with_rule
    assert sorted(with_rule - exercised - set(TRANSPOSED_ELSEWHERE)) == []
    assert sorted(exercised - with_rule) == []


# === 5. symbolic zeros stay symbolic ===


def _zero_fills(jaxpr: Any) -> list[Any]:
    """Equations that materialise zeros: broadcasts of a literal 0."""
    return [
        eqn for eqn in jaxpr.eqns
        if eqn.primitive.name == "broadcast_in_dim" and isinstance(eqn.invars[0], Literal)
        and not np.any(np.asarray(eqn.invars[0].array))
    ]  # fmt: skip


def test_ignored_input_gets_zeros_only_in_the_returned_gradient() -> None:
    def f(x: jt.Array, y: jt.Array, z: jt.Array) -> jt.Array:
        # y is ignored; z only passes through stop_gradient and an integer cast.
        used = lax.add(lax.stop_gradient(z), lax.convert_element_type(lax.convert_element_type(z, np.int32), np.float32))
        a = lax.concatenate([lax.sin(x), lax.mul(x, x)], 0)
        b = lax.select_n(lax.gt(x, 0.0), x, lax.neg(x))
        picked = lax.dynamic_slice(a, (np.int32(1),), (3,))
        return lax.reduce_sum(lax.add(lax.mul(picked, b), used), (0,))

    x = jtnp.array([0.5, -1.0, 2.0], np.float32)
    closed = jt.make_jaxpr(jt.grad(f, argnums=(0, 1, 2)))(x, x, x)
    jaxpr = closed.jaxpr
    fills = _zero_fills(jaxpr)
    outs = set(jaxpr.outvars)
    # Only the two returned gradients of y and z are zeros built at the end.
    assert len([e for e in fills if e.outvars[0] in outs]) == 2
    inner = {e.outvars[0] for e in fills if e.outvars[0] not in outs}
    # Zeros inside the backward pass come only from the transposes of x's
    # select_n and dynamic_slice, which write cotangents into zeros.
    users = {e.primitive.name for e in jaxpr.eqns if any(a in inner for a in e.invars)}
    assert users == {"select_n", "dynamic_update_slice"}, str(closed)
    _, gy, gz = jt.grad(f, argnums=(0, 1, 2))(x, x, x)
    assert not np.any(np.asarray(gy)) and not np.any(np.asarray(gz))


def test_unused_output_cotangent_is_never_materialised() -> None:
    def f(x: jt.Array) -> tuple[jt.Array, jt.Array]:
        return lax.reduce_sum(lax.sin(x), (0,)), lax.mul(x, 2.0)

    x = jtnp.array([0.5, -1.0], np.float32)

    def first_only(x: jt.Array) -> jt.Array:
        _, pullback = jt.vjp(f, x)
        return pullback((jtnp.ones((), np.float32), jtnp.zeros(2, np.float32)))[0]

    def first(x: jt.Array) -> jt.Array:
        return f(x)[0]

    # Through grad of the first output, the second output's cotangent is
    # symbolic: mul by 2 appears once (the primal), never transposed.
    closed = jt.make_jaxpr(jt.grad(first))(x)
    by_two = [
        e for e in closed.jaxpr.eqns
        if e.primitive.name == "mul" and any(isinstance(a, Literal) and float(np.asarray(a.array)) == 2.0 for a in e.invars)
    ]  # fmt: skip
    assert len(by_two) == 1 and not _zero_fills(closed.jaxpr), str(closed)
    np.testing.assert_allclose(np.asarray(first_only(x)), np.cos(np.asarray(x)), rtol=1e-6)


# === weak types ===


@pytest.mark.parametrize(
    "fn",
    [
        pytest.param(k2(lambda o, x, y: o.lax.add(x, y)), id="add"),
        pytest.param(k2(lambda o, x, y: o.lax.mul(x, y)), id="mul"),
        pytest.param(k2(lambda o, x, y: o.lax.div(x, y)), id="div"),
        pytest.param(k2(lambda o, x, y: o.lax.pad(o.lax.broadcast_in_dim(x, (2,), ()), y, ((1, 1, 1),))), id="pad"),
        pytest.param(k2(lambda o, x, y: o.lax.select_n(True, x, y)), id="select_n"),
        pytest.param(k2(lambda o, x, y: o.lax.complex(x, y)), id="complex"),
        pytest.param(k2(lambda o, x, y: o.lax.concatenate([o.lax.broadcast_in_dim(x, (2,), ()), o.lax.expand_dims(y, (0,))], 0)),
                     id="concatenate"),
        pytest.param(k2(lambda o, x, y: o.lax.dot_general(x, y, (((), ()), ((), ())))), id="dot_general"),
    ],
)
def test_weak_typed_operands_get_cotangents_of_their_type(fn: Callable[..., Any]) -> None:
    """Python scalars are weakly typed; their cotangents have their
    (weak) tangent type, as JAX's."""

    def ours_fn(x: Any, y: Any) -> Any:
        return fn(OURS, x, y)

    def theirs_fn(x: Any, y: Any) -> Any:
        return fn(THEIRS, x, y)

    out, pullback = jt.vjp(ours_fn, 1.5, 2.5)
    got: tuple[Any, ...] = pullback(jtnp.ones_like(out))
    out_jax, pullback_jax = jax.vjp(theirs_fn, 1.5, 2.5)
    assert out.weak_type == out_jax.weak_type
    want = pullback_jax(jax.numpy.ones_like(out_jax))
    for ours, theirs in zip(got, want, strict=True):
        assert isinstance(ours, jt.Array)
        assert ours.dtype == theirs.dtype and ours.weak_type == theirs.weak_type
        np.testing.assert_allclose(np.asarray(ours), np.asarray(theirs), rtol=1e-6)


def test_scatter_with_repeated_indices_has_no_transpose() -> None:
    """Only scatters with unique indices are linear in the updates (the jvp
    of the others goes through scatter-add), as in JAX."""
    prim = Scatter(ScatterDimensionNumbers((1,), (0,), (0,)))
    operand = UndefinedPrimal(ShapedArray((4, 5), np.dtype(np.float32)))
    updates = UndefinedPrimal(ShapedArray((2, 5), np.dtype(np.float32)))
    indices = jtnp.array([[1], [1]], np.int32)
    with pytest.raises(jt.errors.MissingRuleError, match="'scatter' with unique_indices=False"):
        prim.transpose((jtnp.ones((4, 5), np.float32),), (operand, indices, updates))
