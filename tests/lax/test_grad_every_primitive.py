"""Every primitive of ``jaxtyped._src.lax`` is differentiable to second
order in both modes, or is listed as non-differentiable with the reason.

The census walks every ``Primitive`` subclass defined in ``jaxtyped._src.lax``
(as the lowering census does): a primitive added without a row here, or
without a reason for having no derivative, fails
``test_every_lax_primitive_is_accounted_for``.

For each differentiable primitive, at points away from its singularities:

1. ``check_grads(..., order=2, modes=("fwd", "rev"))`` in float32 and in
   float64 (complex dtypes too where the primitive is complex-analytic or
   complex-only), so jvp, the transposes, and the derivatives of both agree
   with finite differences;
2. ``jt.grad`` of a weighted scalar reduction of it equals real JAX's
   ``jax.grad`` of the same program (computed for all rows of one dtype
   in one jitted JAX program, so the oracle compiles once per dtype).

Non-differentiable primitives that take floating operands have a zero
derivative under ``jt.grad``, as in JAX.
"""

import functools
import inspect
import warnings
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
from jaxtyped import lax
from jaxtyped._src.core.primitive import Primitive
from jaxtyped.test_util import check_grads

jax: Any = pytest.importorskip("jax")
from oracle import mesh_shard_map, mesh_sharding  # noqa: E402  # sharding family (issue 17)

NDArray = np.ndarray[Any, Any]


@dataclass(frozen=True)
class Ops:
    """What a row is written against: jaxtyped's ``lax`` or JAX's."""

    lax: Any


OURS = Ops(lax)
THEIRS = Ops(jax.lax)


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
    """One operand: a shape and a value range (``signs``: each value also
    gets a random sign, so ``lo > 0`` keeps it away from zero), or fixed
    values; ``dtype`` fixes the dtype (None: the row's dtype). Integer and
    boolean operands are closed over, not differentiated."""

    shape: tuple[int, ...]
    lo: float = -2.0
    hi: float = 2.0
    signs: bool = False
    dtype: str | None = None
    values: tuple[float, ...] | None = None


@dataclass(frozen=True)
class Row:
    """``fn(ops, *operands)`` exercising primitive ``prim``."""

    id: str
    prim: str
    fn: Callable[..., Any]
    ins: tuple[In, ...]
    dtypes: tuple[str, ...] = ("float32", "float64")
    atol: float | None = None  # check_grads tolerances, where the defaults are too tight in float32
    rtol: float | None = None


F = ("float32", "float64")
FC = (*F, "complex64", "complex128")
CPLX = ("complex64", "complex128")
S23 = (2, 3)
I = "int32"
B = "bool"


def _named(name: str) -> Callable[..., Any]:
    def fn(o: Ops, *args: Any) -> Any:
        return getattr(o.lax, name)(*args)

    return fn


def _unary_rows() -> list[Row]:
    # name, lo, hi, signs, dtypes
    table: list[tuple[str, float, float, bool, tuple[str, ...]]] = [
        ("sqrt", 0.5, 2.0, False, FC),
        ("rsqrt", 0.8, 2.0, False, F),
        ("exp", -1.5, 1.5, False, FC),
        ("log", 0.8, 2.0, False, FC),
        ("log1p", -0.4, 1.5, False, F),
        ("expm1", -1.5, 1.5, False, F),
        ("sin", -2.0, 2.0, False, FC),
        ("cos", -2.0, 2.0, False, FC),
        ("tan", -1.0, 1.0, False, F),
        ("tanh", -1.5, 1.5, False, FC),
        ("logistic", -3.0, 3.0, False, F),
        ("erf", -1.5, 1.5, False, F),
        ("asin", -0.6, 0.6, False, F),
        ("acos", -0.6, 0.6, False, F),
        ("atan", -2.0, 2.0, False, F),
        ("sinh", -1.5, 1.5, False, F),
        ("cosh", -1.5, 1.5, False, F),
        ("asinh", -2.0, 2.0, False, F),
        ("acosh", 1.5, 3.0, False, F),
        ("atanh", -0.6, 0.6, False, F),
        ("neg", -2.0, 2.0, False, FC),
        ("abs", 0.5, 2.0, True, FC),
    ]
    return [Row(name, name, _named(name), (In(S23, lo, hi, signs),), dtypes) for name, lo, hi, signs, dtypes in table]


def _binary_rows() -> list[Row]:
    x, y = In(S23), In(S23)
    away = In(S23, 0.5, 2.0, signs=True)
    positive = In(S23, 0.8, 2.0)
    # Maxima without ties, remainders away from their jumps.
    first = In(S23, values=(0.5, -1.0, 2.0, -0.3, 1.2, 0.1))
    second = In(S23, values=(-0.5, 1.0, 1.0, 0.4, 1.9, -0.7))
    dividend = In(S23, values=(2.5, -3.7, 0.4, 5.1, -1.3, 0.9))
    divisor = In(S23, values=(1.1, 1.5, 0.7, 2.0, 0.8, 2.5))
    return [
        Row("add", "add", _named("add"), (x, y), FC),
        Row("add_0d_lhs", "add", _named("add"), (In(()), y)),
        Row("sub", "sub", _named("sub"), (x, y), FC),
        Row("sub_0d_rhs", "sub", _named("sub"), (x, In(()))),
        Row("mul", "mul", _named("mul"), (x, y), FC),
        Row("mul_0d_lhs", "mul", _named("mul"), (In(()), y)),
        Row("div", "div", _named("div"), (x, away), FC),
        Row("div_0d_rhs", "div", _named("div"), (x, In((), 0.5, 2.0))),
        Row("rem", "rem", _named("rem"), (dividend, divisor)),
        Row("max", "max", _named("max"), (first, second)),
        Row("min", "min", _named("min"), (first, second)),
        Row("pow", "pow", _named("pow"), (positive, In(S23, -1.5, 1.5)), (*F, "complex64")),
        Row("pow_int_exponent", "pow", _named("pow"), (positive, In(S23, values=(-2, 0, 1, 3, 2, -1), dtype=I))),
        Row("atan2", "atan2", _named("atan2"), (away, away)),
        Row("integer_pow_3", "integer_pow", k1(lambda o, a: o.lax.integer_pow(a, 3)), (x,), FC),
        Row("integer_pow_m2", "integer_pow", k1(lambda o, a: o.lax.integer_pow(a, -2)), (away,)),
        Row("complex", "complex", _named("complex"), (x, y)),
        Row("real", "real", _named("real"), (x,), CPLX),
        Row("imag", "imag", _named("imag"), (x,), CPLX),
        Row("conj", "conj", _named("conj"), (x,), CPLX),
        Row("convert_to_complex", "convert_element_type",
            k1(lambda o, a: o.lax.convert_element_type(a, np.result_type(a.dtype, np.complex64))), (x,)),
        Row("convert_complex_to_real", "convert_element_type",
            k1(lambda o, a: o.lax.convert_element_type(a, np.finfo(a.dtype).dtype)), (x,), CPLX),
    ]  # fmt: skip


def _gdn(m: Any) -> Any:
    return m.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))


def _sdn(m: Any) -> Any:
    return m.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))


def _structural_rows() -> list[Row]:
    x = In(S23)
    x45 = In((4, 5))
    rows_idx = In((3, 1), values=(1, 3, 0), dtype=I)
    repeated = In((3, 1), values=(1, 3, 1), dtype=I)
    i, j = In((), values=(2,), dtype=I), In((), values=(1,), dtype=I)
    distinct = In((2, 3, 4), values=tuple(np.random.default_rng(0).permutation(24) * 0.25 - 3.0))
    return [
        Row("broadcast_in_dim", "broadcast_in_dim", k1(lambda o, a: o.lax.broadcast_in_dim(a, (2, 3, 4), (0, 1))), (x,)),
        Row("reshape", "reshape", k1(lambda o, a: o.lax.reshape(a, (3, 2))), (x,)),
        Row("transpose", "transpose", k1(lambda o, a: o.lax.transpose(a, (1, 0))), (x,)),
        Row("squeeze", "squeeze", k1(lambda o, a: o.lax.squeeze(a, (1,))), (In((2, 1, 3)),)),
        Row("expand_dims", "expand_dims", k1(lambda o, a: o.lax.expand_dims(a, (0, 2))), (x,)),
        Row("rev", "rev", k1(lambda o, a: o.lax.rev(a, (1,))), (x,)),
        Row("concatenate", "concatenate", k2(lambda o, a, b: o.lax.concatenate([a, b], 1)), (x, In((2, 2)))),
        Row("pad", "pad", k2(lambda o, a, v: o.lax.pad(a, v, ((1, 2, 1), (-1, 1, 0)))), (x, In(()))),
        Row("select_n", "select_n", k3(lambda o, w, a, b: o.lax.select_n(w, a, b)),
            (In(S23, values=(1, 0, 0, 1, 1, 0), dtype=B), x, In(S23))),
        Row("slice", "slice", k1(lambda o, a: o.lax.slice(a, (0, 1), (4, 5), (3, 2))), (x45,)),
        Row("dynamic_slice", "dynamic_slice", k3(lambda o, a, s, t: o.lax.dynamic_slice(a, (s, t), (2, 3))), (x45, i, j)),
        Row("dynamic_update_slice", "dynamic_update_slice",
            k4(lambda o, a, u, s, t: o.lax.dynamic_update_slice(a, u, (s, t))), (x45, x, i, j)),
        Row("gather", "gather", k2(lambda o, a, k: o.lax.gather(a, k, _gdn(o.lax), (1, 5), mode="clip")), (x45, rows_idx)),
        Row("scatter", "scatter", k3(lambda o, a, k, u: o.lax.scatter(a, k, u, _sdn(o.lax), unique_indices=True)),
            (x45, rows_idx, In((3, 5)))),
        Row("scatter_repeated", "scatter", k3(lambda o, a, k, u: o.lax.scatter(a, k, u, _sdn(o.lax))),
            (x45, repeated, In((3, 5)))),
        Row("scatter_add", "scatter-add", k3(lambda o, a, k, u: o.lax.scatter_add(a, k, u, _sdn(o.lax))),
            (x45, repeated, In((3, 5)))),
        # advanced indexing family: repeated indices for the linear and extremal
        # combiners (ties between operand and updates share the gradient)
        Row("scatter_sub", "scatter-sub", k3(lambda o, a, k, u: o.lax.scatter_sub(a, k, u, _sdn(o.lax))),
            (x45, repeated, In((3, 5)))),
        Row("scatter_mul", "scatter-mul",
            k3(lambda o, a, k, u: o.lax.scatter_mul(a, k, u, _sdn(o.lax), unique_indices=True)), (x45, rows_idx, In((3, 5)))),
        Row("scatter_min", "scatter-min", k3(lambda o, a, k, u: o.lax.scatter_min(a, k, u, _sdn(o.lax))),
            (x45, repeated, In((3, 5)))),
        Row("scatter_max", "scatter-max", k3(lambda o, a, k, u: o.lax.scatter_max(a, k, u, _sdn(o.lax))),
            (x45, repeated, In((3, 5)))),
        Row("dot_general", "dot_general", k2(lambda o, a, b: o.lax.dot_general(a, b, (((1,), (0,)), ((), ())))),
            (In((3, 4)), In((4, 2))), FC),
        Row("dot_general_batch", "dot_general", k2(lambda o, a, b: o.lax.dot_general(a, b, (((2,), (0,)), ((1,), (1,))))),
            (In((3, 2, 4)), In((4, 2, 3)))),
        # grouped matmul: JAX transposes only a ragged non-contracting axis (grads of the other modes: test_ragged_dot.py)
        Row("ragged_dot", "ragged_dot_general", k3(lambda o, a, b, g: o.lax.ragged_dot(a, b, g)),
            (In((5, 3)), In((3, 3, 2)), In((3,), dtype=I, values=(2, 0, 2)))),
        Row("reduce_sum", "reduce_sum", k1(lambda o, a: o.lax.reduce_sum(a, (0, 2))), (In((2, 3, 4)),), FC),
        Row("reduce_prod", "reduce_prod", k1(lambda o, a: o.lax.reduce_prod(a, (1,))), (In((2, 3, 4), 0.6, 1.4, True),)),
        Row("reduce_max", "reduce_max", k1(lambda o, a: o.lax.reduce_max(a, (1,))), (distinct,)),
        Row("reduce_min", "reduce_min", k1(lambda o, a: o.lax.reduce_min(a, (0, 2))), (distinct,)),
    ]  # fmt: skip


def _cond(o: Ops, p: Any, a: Any, b: Any) -> Any:
    def true_fun(x: Any, y: Any) -> Any:
        return o.lax.mul(o.lax.sin(x), y)

    def false_fun(x: Any, y: Any) -> Any:
        return o.lax.sub(o.lax.mul(x, x), o.lax.tanh(y))

    return o.lax.cond(p, true_fun, false_fun, a, b)


def _switch(o: Ops, i: Any, a: Any) -> Any:
    def square(x: Any) -> Any:
        return o.lax.mul(x, x)

    return o.lax.switch(i, [o.lax.sin, square, o.lax.exp], a)


def _scan(o: Ops, a: Any, xs: Any) -> Any:
    def f(c: Any, x: Any) -> tuple[Any, Any]:
        return o.lax.mul(o.lax.sin(c), x), o.lax.mul(c, x)

    carry, ys = o.lax.scan(f, a, xs)
    return o.lax.concatenate([ys, o.lax.expand_dims(carry, (0,))], 0)


def _control_flow_rows() -> list[Row]:
    x, y = In(S23), In(S23)
    return [
        Row("cond_true", "cond", k3(_cond), (In((), values=(1,), dtype=B), x, y)),
        Row("cond_false", "cond", k3(_cond), (In((), values=(0,), dtype=B), x, y)),
        Row("switch_clamped", "cond", k2(_switch), (In((), values=(7,), dtype=I), x)),
        Row("scan", "scan", k2(_scan), (In((2,)), In((3, 2)))),
    ]


# sorting family: distinct values, so that no tie or crossing lies within
# the finite differences' step (ties are tested against JAX in test_lax_sorting.py).
def _sorting_rows() -> list[Row]:
    distinct = In((3, 4), values=tuple(np.random.default_rng(1).permutation(12) * 0.3 - 1.7))
    keys = In((3, 4), values=(1, 0, 1, 0, 2, 2, 0, 1, 1, 1, 0, 0), dtype=I)
    positive = In((3, 4), 0.6, 1.4, True)
    return [
        Row("sort", "sort", k1(lambda o, a: o.lax.sort(a)), (distinct,)),
        Row("sort_values", "sort", k2(lambda o, k, a: o.lax.sort((k, a), num_keys=1)[1]), (keys, distinct)),
        Row("top_k", "top_k", k1(lambda o, a: o.lax.top_k(a, 2)[0]), (distinct,)),
        Row("cumsum", "cumsum", k1(lambda o, a: o.lax.cumsum(a, axis=1, reverse=True)), (In((3, 4)),)),
        Row("cumprod", "cumprod", k1(lambda o, a: o.lax.cumprod(a, axis=1)), (positive,)),
        Row("cummax", "cummax", k1(lambda o, a: o.lax.cummax(a, axis=1)), (distinct,)),
        Row("cummin", "cummin", k1(lambda o, a: o.lax.cummin(a, axis=0, reverse=True)), (distinct,)),
        Row("cumlogsumexp", "cumlogsumexp", k1(lambda o, a: o.lax.cumlogsumexp(a, axis=1)), (In((3, 4)),)),
    ]



# windowed reductions and convolutions family: max/min pooling on distinct
# values (ties are compared with JAX in test_lax_windowed.py).
def _windowed_rows() -> list[Row]:
    distinct = In((4, 5), values=tuple(np.random.default_rng(2).permutation(20) * 0.2 - 1.9))

    def conv(o: Ops, a: Any, b: Any) -> Any:
        return o.lax.conv_general_dilated(a, b, (1, 2), [(1, 0), (0, 1)], (1, 2), (2, 1), feature_group_count=2)

    return [
        Row("conv_general_dilated", "conv_general_dilated", k2(conv), (In((1, 4, 3, 3)), In((2, 2, 2, 2)))),
        Row("reduce_window_sum", "reduce_window_sum",
            k1(lambda o, a: o.lax.reduce_window(a, 0.0, o.lax.add, (2, 2), (1, 2), "SAME")), (In((4, 5)),)),
        Row("reduce_window_max", "reduce_window_max",
            k1(lambda o, a: o.lax.reduce_window(a, -np.inf, o.lax.max, (2, 3), (2, 1), [(1, 0), (0, 1)])), (distinct,)),
        Row("reduce_window_min", "reduce_window_min",
            k1(lambda o, a: o.lax.reduce_window(a, np.inf, o.lax.min, (3, 2), (1, 1), "VALID")), (distinct,)),
    ]  # fmt: skip

# special-function family: away from the poles (gradients at special points
# are compared with JAX in test_lax_special.py).
def _special_rows() -> list[Row]:
    positive = In(S23, 0.5, 3.0)
    unit = In(S23, 0.1, 0.9)

    def const(o: Ops, value: int, like: Any) -> Any:
        return o.lax.convert_element_type(value, like.dtype)

    return [
        Row("lgamma", "lgamma", k1(lambda o, a: o.lax.lgamma(a)), (positive,)),
        Row("digamma", "digamma", k1(lambda o, a: o.lax.digamma(a)), (positive,)),
        Row("polygamma", "polygamma", k1(lambda o, a: o.lax.polygamma(const(o, 1, a), a)), (positive,)),
        Row("erf_inv", "erf_inv", k1(lambda o, a: o.lax.erf_inv(a)), (In(S23, -0.8, 0.8),)),
        Row("erfc", "erfc", k1(lambda o, a: o.lax.erfc(a)), (In(S23, -1.5, 1.5),)),
        Row("bessel_i0e", "bessel_i0e", k1(lambda o, a: o.lax.bessel_i0e(a)), (In(S23, 0.2, 3.0, True),)),
        Row("bessel_i1e", "bessel_i1e", k1(lambda o, a: o.lax.bessel_i1e(a)), (In(S23, 0.2, 3.0, True),)),
        Row("igamma", "igamma", k1(lambda o, x: o.lax.igamma(const(o, 2, x), x)), (positive,)),
        Row("igammac", "igammac", k1(lambda o, x: o.lax.igammac(const(o, 3, x), x)), (positive,)),
        Row("betainc", "regularized_incomplete_beta",
            k1(lambda o, x: o.lax.betainc(const(o, 2, x), const(o, 3, x), x)), (unit,)),
        Row("cbrt", "cbrt", k1(lambda o, a: o.lax.cbrt(a)), (In(S23, 0.5, 2.0, True),)),
        Row("exp2", "exp2", k1(lambda o, a: o.lax.exp2(a)), (In(S23),)),
        Row("square", "square", k1(lambda o, a: o.lax.square(a)), (In(S23),)),
        Row("clamp", "clamp", k3(lambda o, lo, a, hi: o.lax.clamp(lo, a, hi)),
            (In(S23, values=(-1.0, -1.0, -1.0, 0.0, 0.0, 0.0)), In(S23, values=(-1.5, -0.5, 0.5, 0.4, 1.5, -2.0)),
             In(S23, values=(1.0, 1.0, 1.0, 0.2, 1.0, 1.0)))),
        Row("reduce_precision", "reduce_precision", k1(lambda o, a: o.lax.reduce_precision(a, 8, 23)), (In(S23),),
            dtypes=("float32",)),
    ]  # fmt: skip


# lax extras family: the general reduce (an associative computation, so
# that its tree-shaped jvp agrees with finite differences) and the barrier.
def _extras_rows() -> list[Row]:
    x = In((3, 4))

    def reduce_custom(o: Ops, a: Any) -> Any:
        def add_times_one(u: Any, v: Any) -> Any:
            return o.lax.add(u, o.lax.mul(v, o.lax.full_like(v, 1)))

        return o.lax.reduce(a, np.array(0, a.dtype), add_times_one, (1,))

    def reduce_pairs(o: Ops, a: Any, b: Any) -> Any:
        zero = np.array(0, a.dtype)
        def add_pairs(u: Any, v: Any) -> Any:
            return (o.lax.add(u[0], v[0]), o.lax.add(u[1], v[1]))

        return o.lax.mul(*o.lax.reduce((a, b), (zero, zero), add_pairs, (0,)))

    return [
        Row("reduce", "reduce", k1(reduce_custom), (x,)),
        Row("reduce_pairs", "reduce", k2(reduce_pairs), (x, x)),
        Row("optimization_barrier", "optimization_barrier", k2(lambda o, a, b: o.lax.mul(*o.lax.optimization_barrier((a, b)))), (x, x)),
    ]


# FFT family: every transform kind, odd and even lengths (more in test_lax_fft.py).
def _fft_rows() -> list[Row]:
    return [
        Row("fft", "fft", k1(lambda o, a: o.lax.fft(a, "fft", (3, 4))), (In((2, 3, 4)),), CPLX),
        Row("fft_ifft", "fft", k1(lambda o, a: o.lax.fft(a, "ifft", (5,))), (In((2, 5)),), CPLX),
        Row("fft_rfft", "fft", k1(lambda o, a: o.lax.fft(a, "rfft", (3, 6))), (In((2, 3, 6)),), F),
        Row("fft_irfft", "fft", k1(lambda o, a: o.lax.fft(a, "irfft", (7,))), (In((2, 4)),), CPLX),
    ]


# LU and QR family: lu's packed factors (square, tall, wide, batched) and
# qr's factors, reduced and full, tall and wide (more in test_lax_linalg_lu_qr.py).
def _lu_qr_rows() -> list[Row]:
    def lu0(o: Ops, a: Any) -> Any:
        return o.lax.linalg.lu(a)[0]

    def qr_part(index: int, full_matrices: bool) -> Fn:
        return k1(lambda o, a: o.lax.linalg.qr(a, full_matrices=full_matrices)[index])

    return [
        Row("lu", "lu", k1(lu0), (In((2, 3, 3)),), FC),
        Row("lu_tall", "lu", k1(lu0), (In((4, 3)),)),
        Row("lu_wide", "lu", k1(lu0), (In((3, 4)),)),
        Row("qr_q", "qr", qr_part(0, False), (In((4, 3)),), FC),
        Row("qr_r", "qr", qr_part(1, False), (In((4, 3)),), FC),
        Row("qr_full_q", "qr", qr_part(0, True), (In((4, 2)),)),
        # float64 only: float32 finite differences of its second order are noise-sized.
        Row("qr_wide_q", "qr", qr_part(0, True), (In((2, 3)),), ("float64",)),
        Row("qr_wide_r", "qr", qr_part(1, False), (In((2, 3)),), FC),
    ]

# Cholesky and triangular_solve family: cholesky of a positive-definite
# Gram matrix, triangular_solve (dominant diagonal) in both operands under
# several flags, tridiagonal_solve in all four operands (more in
# test_lax_linalg_cholesky.py and test_lax_linalg_tridiagonal_solve.py).
def _cholesky_rows() -> list[Row]:
    def spd(o: Ops, a: Any) -> Any:
        gram = o.lax.dot_general(a, a, (((1,), (1,)), ((), ())))
        return o.lax.add(gram, np.asarray(4 * np.eye(a.shape[0]), a.dtype))

    def solve(**flags: bool) -> Fn:
        def fn(o: Ops, a: Any, b: Any) -> Any:
            dominant = o.lax.add(a, np.asarray(np.broadcast_to(6 * np.eye(a.shape[-1]), a.shape), a.dtype))
            return o.lax.linalg.triangular_solve(dominant, b, **flags)

        return k2(fn)

    def tridiagonal(o: Ops, dl: Any, d: Any, du: Any, b: Any) -> Any:
        return o.lax.linalg.tridiagonal_solve(dl, o.lax.add(d, np.full(d.shape, 6, d.dtype)), du, b)

    square, tall, wide = In((3, 3)), In((3, 2)), In((2, 3))
    return [
        Row("cholesky", "cholesky", k1(lambda o, a: o.lax.linalg.cholesky(spd(o, a))), (square,)),
        Row("triangular_solve_left_lower", "triangular_solve", solve(left_side=True, lower=True), (square, tall), FC),
        Row("triangular_solve_right_adjoint", "triangular_solve", solve(transpose_a=True, conjugate_a=True),
            (square, wide), FC),
        Row("triangular_solve_unit_transposed", "triangular_solve",
            solve(left_side=True, transpose_a=True, unit_diagonal=True), (In((2, 3, 3)), In((2, 3, 2)))),
        Row("tridiagonal_solve", "tridiagonal_solve", k4(tridiagonal), (In((4,)), In((4,)), In((4,)), In((4, 2))), FC),
    ]  # fmt: skip


# eig, schur and tridiagonal family: eig's eigenvalues and its (opt-in)
# right and left eigenvectors; schur, hessenberg and tridiagonal have no
# derivative, as in JAX (more in test_lax_linalg_eig_schur.py).
def _eig_rows() -> list[Row]:
    def eig_output(index: int, **flags: bool) -> Fn:
        return k1(lambda o, a: o.lax.linalg.eig(a, enable_eigvec_derivs=True, **flags)[index])

    no_vectors = {"compute_left_eigenvectors": False, "compute_right_eigenvectors": False}
    return [
        # Not complex64: its second-order finite differences are noise-sized.
        Row("eig_eigenvalues", "eig", eig_output(0, **no_vectors), (In((2, 3, 3)),), ("float32", "float64", "complex128")),
        Row("eig_left_vectors", "eig", eig_output(1, compute_right_eigenvectors=False), (In((3, 3)),), ("float64", "complex128")),
        Row("eig_right_vectors", "eig", eig_output(2), (In((3, 3)),), ("float64", "complex128")),
    ]  # fmt: skip


# eigh and svd family: eigenvalues and singular values, and matrix functions
# v diag(sin w) v^T, u diag(sin s) vh of the reduced factors, which do not
# depend on the vectors' signs (more in test_lax_linalg_eigh_svd.py).
def _eigh_svd_rows() -> list[Row]:
    def eigh_function(o: Ops, a: Any) -> Any:
        v, w = o.lax.linalg.eigh(a)
        scaled = o.lax.mul(v, o.lax.broadcast_in_dim(o.lax.sin(w), v.shape, (0, 2)))
        return o.lax.batch_matmul(scaled, o.lax.transpose(v, (0, 2, 1)))

    def svd_function(o: Ops, a: Any) -> Any:
        u, s, vh = o.lax.linalg.svd(a, full_matrices=False)
        return o.lax.dot(o.lax.mul(u, o.lax.broadcast_in_dim(o.lax.sin(s), u.shape, (1,))), vh)

    return [
        Row("eigh_eigenvalues", "eigh", k1(lambda o, a: o.lax.linalg.eigh(a)[1]), (In((2, 3, 3)),), ("float32", "float64", "complex128")),
        Row("eigh_function", "eigh", k1(eigh_function), (In((2, 3, 3)),), ("float64",)),
        Row("svd_values", "svd", k1(lambda o, a: o.lax.linalg.svd(a, compute_uv=False)), (In((2, 4, 3)),), ("float32", "float64", "complex128")),
        Row("svd_function_tall", "svd", k1(svd_function), (In((4, 3)),), ("float64",)),
        Row("svd_function_wide", "svd", k1(svd_function), (In((3, 4)),), ("float64",)),
    ]  # fmt: skip

# sharding family (issue 17): the constraint is the identity on values and
# on derivatives; a 2-device mesh with Auto axes in either library.
def _sharding_rows() -> list[Row]:
    def constrain(o: Ops, a: Any) -> Any:
        return o.lax.with_sharding_constraint(o.lax.sin(a), mesh_sharding(o is OURS, "a"))

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
        Row("sharding_constraint", "sharding_constraint", k1(constrain), (In(S23),)),
        # collectives over the axis a vmap names (issue 17); S23's leading axis has 2 members
        Row("psum", "psum", k1(lambda o, a: vm(o, lambda r: o.lax.psum(r * r, "i"))(a)), (In(S23),)),
        Row("all_gather", "all_gather", k1(lambda o, a: vm(o, lambda r: o.lax.all_gather(o.lax.sin(r), "i"))(a)), (In(S23),)),
        Row("psum_scatter", "reduce_scatter",
            k1(lambda o, a: vm(o, lambda r: o.lax.psum_scatter(r * r, "i", scatter_dimension=1, tiled=True))(a)),
            (In((2, 3, 4)),)),
        Row("ppermute", "ppermute", k1(lambda o, a: vm(o, lambda r: o.lax.ppermute(r * r, "i", swap))(a)), (In(S23),)),
        Row("all_to_all", "all_to_all", k1(lambda o, a: vm(o, lambda r: o.lax.all_to_all(r * r, "i", 0, 1))(a)),
            (In((2, 2, 3)),)),
        # JEP 17111's primitives, bound inside shard_map with check_vma (2 devices)
        Row("psum_invariant", "psum_invariant",
            k1(lambda o, a: mesh_shard_map(o is OURS, lambda r: o.lax.psum(r * r, "a"), (("a",),), ())(a)), (In((4, 3)),)),
        Row("pvary", "pvary",
            k2(lambda o, a, b: mesh_shard_map(o is OURS, lambda x, y: o.lax.mul(o.lax.sin(x), y), ((), ("a",)), ("a",))(a, b)),
            (In((2, 3)), In((4, 3)))),
        Row("pbroadcast", "pbroadcast",
            k1(lambda o, a: mesh_shard_map(o is OURS, lambda r: broadcast_from(o, r * r), (("a",),), ("a",))(a)), (In((4, 3)),)),
    ]  # fmt: skip


ROWS = [
    *_sharding_rows(),  # sharding family (issue 17)
    *_unary_rows(), *_binary_rows(), *_structural_rows(), *_control_flow_rows(), *_sorting_rows(),
    *_windowed_rows(), *_extras_rows(), *_special_rows(),
    *_lu_qr_rows(),  # LU and QR family
    *_cholesky_rows(),  # Cholesky and triangular_solve family
    *_fft_rows(),  # FFT family
    *_eig_rows(),  # eig, schur and tridiagonal family
    *_eigh_svd_rows(),  # eigh and svd family
]  # fmt: skip
PARAMS = [pytest.param(row, dtype, id=f"{row.id}-{dtype}") for row in ROWS for dtype in row.dtypes]

NON_DIFFERENTIABLE: dict[str, str] = {
    "pmax": "no derivative rule, as in JAX (sharding family)",
    "pmin": "no derivative rule, as in JAX (sharding family)",
    "axis_index": "integer output, no operands (sharding family)",
    "sign": "piecewise constant: zero derivative",
    "floor": "piecewise constant: zero derivative",
    "ceil": "piecewise constant: zero derivative",
    "round": "piecewise constant: zero derivative",
    "is_finite": "boolean output",
    "stop_gradient": "zero derivative by definition",
    "eq": "comparison: boolean output",
    "ne": "comparison: boolean output",
    "lt": "comparison: boolean output",
    "le": "comparison: boolean output",
    "gt": "comparison: boolean output",
    "ge": "comparison: boolean output",
    "and": "integer/boolean operands only",
    "or": "integer/boolean operands only",
    "xor": "integer/boolean operands only",
    "not": "integer/boolean operands only",
    "shift_left": "integer operands only",
    "shift_right_arithmetic": "integer operands only",
    "shift_right_logical": "integer operands only",
    "argmax": "integer (index) output",
    "argmin": "integer (index) output",
    "iota": "no operands",
    "while": "reverse mode unsupported, as in JAX (forward mode: test_control_flow_loops.py)",
    # lax extras family
    "reduce_and": "integer/boolean operands only",
    "reduce_or": "integer/boolean operands only",
    "reduce_xor": "integer/boolean operands only",
    "bitcast_convert_type": "reinterprets bits: zero derivative, as in JAX",
    "mulhi": "integer operands only",
    # special-function family
    "zeta": "no derivative rule, as in JAX",
    "igamma_grad_a": "no derivative rule, as in JAX",
    "nextafter": "piecewise constant: zero derivative",
    "population_count": "integer operands only",
    "clz": "integer operands only",
    # eig, schur and tridiagonal family
    "schur": "no derivative rule, as in JAX",
    "hessenberg": "no derivative rule, as in JAX",
    "tridiagonal": "no derivative rule, as in JAX",
    # LU and QR family
    "lu_pivots_to_permutation": "integer operands only",
    "geqrf": "no derivative rule, as in JAX",
    "householder_product": "no derivative rule, as in JAX",
    "ormqr": "no derivative rule, as in JAX",
    # random family (R1): tests/lax/test_lax_threefry.py checks the float0 tangents
    "threefry2x32": "integer operands only: float0 tangents, as in JAX",
    "rng_bit_generator": "an unsigned-integer key in, integer bits out: float0 tangents (JAX has no rule; none is needed)",
    "composite": "JAX has no rule (it raises ValueError): ours differentiates the decomposition, checked against finite differences in test_composite.py",
}


# === operands and programs ===


def _rng(*keys: object) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(repr(keys).encode()))


def _value(rng: np.random.Generator, spec: In, dtype: np.dtype[Any]) -> NDArray:
    if spec.values is not None:
        return np.array(spec.values).astype(dtype).reshape(spec.shape)
    values: NDArray = rng.uniform(spec.lo, spec.hi, spec.shape)
    if spec.signs:
        values = values * rng.choice([-1.0, 1.0], spec.shape)
    if dtype.kind == "c":
        values = values + 1j * rng.uniform(-0.3, 0.3, spec.shape)
    return np.asarray(values, dtype)


def _operands(row: Row, dtype: str) -> list[NDArray]:
    rng = _rng(row.id, dtype)
    return [_value(rng, spec, np.dtype(spec.dtype or dtype)) for spec in row.ins]


def _program(ops: Ops, row: Row, operands: list[NDArray]) -> tuple[Callable[..., Any], list[NDArray]]:
    """The row as a function of its inexact operands (the others closed over)."""
    differentiable = [i for i, x in enumerate(operands) if x.dtype.kind in "fc"]

    def f(*args: Any) -> Any:
        full: list[Any] = list(operands)
        for i, a in zip(differentiable, args, strict=True):
            full[i] = a
        return row.fn(ops, *full)

    return f, [operands[i] for i in differentiable]


def _weights(row: Row, dtype: str, out: Any) -> NDArray:
    """Fixed random weights for the scalar reduction (a plain sum would
    hide permuted cotangents)."""
    rng = _rng("weights", row.id, dtype)
    return _value(rng, In(tuple(np.shape(out))), np.asarray(out).dtype)


def _scalarised(ops: Ops, f: Callable[..., Any], weights: NDArray) -> Callable[..., Any]:
    """``x -> sum(Re(f(x) * weights))``."""

    def loss(*args: Any) -> Any:
        weighted = ops.lax.mul(f(*args), weights)
        if weights.dtype.kind == "c":
            weighted = ops.lax.real(weighted)
        return ops.lax.reduce_sum(weighted, tuple(range(weights.ndim)))

    return loss


def _types_for(dtype: str, request: pytest.FixtureRequest) -> None:
    """Turn 64-bit types on for this test where needed (conftest's x64
    fixture restores the setting after the test)."""
    if dtype in ("float64", "complex128"):
        request.getfixturevalue("x64")  # conftest: 64-bit types on, restored after the test


# === census ===


def _lax_primitive_names() -> set[str]:
    names: set[str] = set()
    assert jt.lax is not None  # importing jaxtyped imports every primitive module
    pending: list[type[Primitive]] = list(Primitive.__subclasses__())
    while pending:
        cls = pending.pop()
        pending.extend(cls.__subclasses__())
        if cls.__module__.startswith("jaxtyped._src.lax.") and not inspect.isabstract(cls) and "name" in vars(cls):
            names.add(cls.name)
    return names


def test_every_lax_primitive_is_accounted_for() -> None:
    names = _lax_primitive_names()
    # A sample from every family, so that a broken census cannot pass vacuously.
    assert {"sin", "add", "dot_general", "gather", "scatter-add", "reduce_sum", "argmax", "iota", "pad"} <= names
    covered = {row.prim for row in ROWS}
    assert not covered & set(NON_DIFFERENTIABLE), "a primitive is both tested and listed as non-differentiable"
    assert sorted(names - covered - set(NON_DIFFERENTIABLE)) == [], "add a row (or a reason) for these primitives"
    assert sorted((covered | set(NON_DIFFERENTIABLE)) - names) == [], "rows or reasons for primitives that do not exist"


# === 1. check_grads to second order ===


@pytest.mark.parametrize(("row", "dtype"), PARAMS)
def test_check_grads_second_order(row: Row, dtype: str, request: pytest.FixtureRequest) -> None:
    _types_for(dtype, request)
    f, args = _program(OURS, row, _operands(row, dtype))
    check_grads(f, args, order=2, modes=("fwd", "rev"), atol=row.atol, rtol=row.rtol)


# === 2. grad against JAX ===


@functools.lru_cache(maxsize=None)
def _jax_grads(dtype: str) -> dict[str, list[NDArray]]:
    """JAX's gradients of every row's scalarised program for ``dtype``, in
    one jitted program (computed under the caller's x64 setting)."""
    programs: dict[str, tuple[Callable[..., Any], list[NDArray]]] = {}
    for row in ROWS:
        if dtype in row.dtypes:
            operands = _operands(row, dtype)
            g, args = _program(THEIRS, row, operands)
            out = _program(OURS, row, operands)[0](*args)
            programs[row.id] = (_scalarised(THEIRS, g, _weights(row, dtype, out)), args)

    def all_grads(args_by_row: dict[str, list[Any]]) -> dict[str, Any]:
        return {
            key: jax.grad(programs[key][0], argnums=tuple(range(len(args))))(*args)
            for key, args in args_by_row.items()
        }

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", np.exceptions.ComplexWarning)  # JAX warns on complex-to-real conversion
        grads = jax.jit(all_grads)({key: args for key, (_, args) in programs.items()})
    return {key: [np.asarray(g) for g in value] for key, value in grads.items()}


@pytest.mark.parametrize(("row", "dtype"), PARAMS)
def test_grad_matches_jax(row: Row, dtype: str, request: pytest.FixtureRequest) -> None:
    _types_for(dtype, request)
    f, args = _program(OURS, row, _operands(row, dtype))
    loss = _scalarised(OURS, f, _weights(row, dtype, f(*args)))
    got = jt.grad(loss, argnums=tuple(range(len(args))))(*args)
    want = _jax_grads(dtype)[row.id]
    tol = 1e-10 if dtype in ("float64", "complex128") else 2e-5
    for ours, theirs in zip(got, want, strict=True):
        assert np.asarray(ours).dtype == theirs.dtype
        np.testing.assert_allclose(np.asarray(ours), theirs, rtol=tol, atol=tol)


# === non-differentiable primitives ===


@pytest.mark.parametrize(
    "fn",
    [
        pytest.param(k1(lambda o, x: o.lax.sign(x)), id="sign"),
        pytest.param(k1(lambda o, x: o.lax.floor(x)), id="floor"),
        pytest.param(k1(lambda o, x: o.lax.ceil(x)), id="ceil"),
        pytest.param(k1(lambda o, x: o.lax.round(x)), id="round"),
        pytest.param(k1(lambda o, x: o.lax.stop_gradient(x)), id="stop_gradient"),
        pytest.param(k1(lambda o, x: o.lax.convert_element_type(o.lax.is_finite(x), np.float32)), id="is_finite"),
        pytest.param(k1(lambda o, x: o.lax.convert_element_type(o.lax.lt(x, o.lax.neg(x)), np.float32)), id="lt"),
        pytest.param(k1(lambda o, x: o.lax.convert_element_type(o.lax.eq(x, x), np.float32)), id="eq"),
        pytest.param(k1(lambda o, x: o.lax.convert_element_type(o.lax.argmax(x, 0, np.int32), np.float32)), id="argmax"),
    ],
)
def test_non_differentiable_primitives_have_zero_gradient(fn: Fn) -> None:
    x = np.array([0.3, -1.7, 2.2], np.float32)

    def loss(ops: Ops) -> Callable[[Any], Any]:
        return lambda v: ops.lax.reduce_sum(ops.lax.mul(fn(ops, v), ops.lax.sin(v)), (0,))

    got = jt.grad(loss(OURS))(x)
    want = jax.grad(loss(THEIRS))(x)
    np.testing.assert_allclose(np.asarray(got), np.asarray(want), rtol=1e-6)
    _, tangent = jt.jvp(lambda v: fn(OURS, v), (x,), (np.ones(3, np.float32),))
    assert not np.any(np.asarray(tangent))
