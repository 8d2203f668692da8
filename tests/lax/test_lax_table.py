"""Table-driven numerical tests of every ``jaxtyped.lax`` function.

Each row of ``ROWS`` is one use of a primitive: a function written once
against a ``lax`` module (called with ``jaxtyped.lax`` and with the oracle
``jax.lax``), generators for its operands (shapes, value domains, fixed
dtypes), the dtypes to try, an optional NumPy reference, and flags saying
which checks apply. The tests are parametrised over the table:

1. eager vs reference: shape, dtype and weak type equal JAX's; values equal
   the NumPy reference (float64) or JAX's, within a tolerance set by dtype;
2. jvp vs central finite differences in float64 (zero / ``float0`` tangents
   for non-differentiable rows), and vs ``jax.jvp`` in float32;
3. vmap vs a Python loop over examples, for several ``in_axes``/``out_axes``;
4. staged (``make_jaxpr`` + ``check_closed_jaxpr`` + ``eval_jaxpr``) vs eager;
5. second order (jvp of jvp vs finite differences of jvp), elementwise rows;

plus compositions (jvp in one operand, whose other tangents are symbolic
zeros; vmap of jvp; staged jvp) and a check that every name in
``jaxtyped.lax.__all__`` has a row. Known bugs are strict xfails whose
reason starts with "BUG:". Edge cases, error messages and hypothesis
properties over random shapes are in ``test_lax_edge_cases.py``.

Speed: JAX compiles every (primitive, shape, dtype) it runs, so the JAX
values are computed once per dtype in one jitted program over all rows
(float16/bfloat16 rows in float32 on the same values, rounded back), and
rows with a NumPy reference need JAX only for ``eval_shape``.
"""

import functools
import math
import zlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
import jaxtyped.numpy as jtnp
from jaxtyped import lax

jax: Any = pytest.importorskip("jax")
from oracle import mesh_shard_map, mesh_sharding  # noqa: E402  # sharding family (issue 17)

NDArray = np.ndarray[Any, Any]
Fn = Callable[..., Any]  # fn(lax_module, *operands)
Ref = Callable[..., Any]  # a NumPy reference
B = 5  # the vmap batch size; no example dimension is 5
BF16 = np.dtype(jtnp.bfloat16)
FLOAT0 = np.dtype(jtnp.float0)


# === the table ===


@dataclass(frozen=True)
class Arg:
    """How to generate one operand: a shape, a value range ``lo``..``hi``
    (with ``signs`` each value gets a random sign, so ``lo > 0`` keeps values
    away from zero), a fixed dtype (None: the row's dtype), or fixed values."""

    shape: tuple[int, ...]
    lo: float = -2.0
    hi: float = 2.0
    signs: bool = False
    dtype: str | None = None
    fixed: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Row:
    """One use of a ``lax`` function: ``fn(lax_module, *operands)``."""

    id: str
    fn: Fn
    args: tuple[Arg, ...]
    dtypes: tuple[str, ...]
    diff: bool = True  # differentiable in its inexact operands
    elementwise: bool = False  # the second-order check applies
    np_ref: Ref | None = None  # NumPy reference (float64 for floats)
    finite_differences: bool = True  # real outputs: the finite-difference jvp checks apply


def f0(fn: Callable[[Any], Any]) -> Fn:
    return fn


def f1(fn: Callable[[Any, Any], Any]) -> Fn:
    return fn


def f2(fn: Callable[[Any, Any, Any], Any]) -> Fn:
    return fn


def f3(fn: Callable[[Any, Any, Any, Any], Any]) -> Fn:
    return fn


def f4(fn: Callable[[Any, Any, Any, Any, Any], Any]) -> Fn:
    return fn


def _named(name: str, module: Any, *args: Any) -> Any:
    return getattr(module, name)(*args)


def named(name: str) -> Fn:
    """``module.<name>(*operands)``."""
    return functools.partial(_named, name)


def _erf(x: float) -> float:
    return math.erf(x)


def _choose(which: NDArray, *cases: NDArray) -> NDArray:
    return np.choose(which, cases)


# Typed wrappers, so that the table's lambdas get typed parameters.


def r0(fn: Callable[[], Any]) -> Ref:
    return fn


def r1(fn: Callable[[NDArray], Any]) -> Ref:
    return fn


def r2(fn: Callable[[NDArray, NDArray], Any]) -> Ref:
    return fn


def r3(fn: Callable[[NDArray, NDArray, NDArray], Any]) -> Ref:
    return fn


F = ("float32", "float16", "bfloat16")
FI = (*F, "int32")
NUM = (*FI, "uint8")
ALL = (*NUM, "bool")
INTS = ("int32", "uint8")
BITS = (*INTS, "bool")
S23 = (2, 3)
I32 = "int32"
DIVISOR = Arg(S23, 0.5, 2.0, signs=True)


def _unary_rows() -> list[Row]:
    # name, lo, hi, NumPy reference, extra dtypes
    table: list[tuple[str, float, float, Callable[..., Any], tuple[str, ...]]] = [
        ("sqrt", 0.5, 3.0, np.sqrt, ("complex64",)),
        ("rsqrt", 0.5, 3.0, r1(lambda x: 1.0 / np.sqrt(x)), ()),
        ("exp", -2.0, 2.0, np.exp, ("complex64",)),
        ("log", 0.5, 3.0, np.log, ("complex64",)),
        ("log1p", -0.5, 2.0, np.log1p, ()),
        ("expm1", -2.0, 2.0, np.expm1, ()),
        ("sin", -3.0, 3.0, np.sin, ("complex64",)),
        ("cos", -3.0, 3.0, np.cos, ()),
        ("tan", -1.2, 1.2, np.tan, ()),
        ("tanh", -3.0, 3.0, np.tanh, ("complex64",)),
        ("logistic", -4.0, 4.0, r1(lambda x: 1.0 / (1.0 + np.exp(-x))), ()),
        ("erf", -2.0, 2.0, np.vectorize(_erf, otypes=[np.float64]), ()),
        ("asin", -0.9, 0.9, np.arcsin, ()),
        ("acos", -0.9, 0.9, np.arccos, ()),
        ("atan", -3.0, 3.0, np.arctan, ()),
        ("sinh", -2.0, 2.0, np.sinh, ()),
        ("cosh", -2.0, 2.0, np.cosh, ()),
        ("asinh", -3.0, 3.0, np.arcsinh, ()),
        ("acosh", 1.2, 3.0, np.arccosh, ()),
        ("atanh", -0.9, 0.9, np.arctanh, ()),
    ]
    return [
        Row(name, named(name), (Arg(S23, lo, hi),), (*F, *extra), elementwise=True, np_ref=ref)
        for name, lo, hi, ref, extra in table
    ]


def _arith_rows() -> list[Row]:
    x, y, r3 = Arg(S23), Arg(S23), Arg(S23, -3, 3)
    int_args = (Arg(S23, -9, 9), Arg(S23, 1, 4, signs=True))
    return [
        Row("neg", named("neg"), (x,), (*NUM, "complex64"), elementwise=True, np_ref=np.negative),
        Row("sign", named("sign"), (x,), (*NUM, "complex64"), diff=False, np_ref=np.sign),
        Row("abs", named("abs"), (Arg(S23, 0.1, 2.0, signs=True),), (*FI, "complex64"), elementwise=True, np_ref=np.abs),
        Row("floor", named("floor"), (r3,), F, diff=False, np_ref=np.floor),
        Row("ceil", named("ceil"), (r3,), F, diff=False, np_ref=np.ceil),
        Row("round_away", f1(lambda m, a: m.round(a, m.RoundingMethod.AWAY_FROM_ZERO)), (r3,), F, diff=False,
            np_ref=r1(lambda a: np.sign(a) * np.floor(np.abs(a) + 0.5))),
        Row("round_even", f1(lambda m, a: m.round(a, m.RoundingMethod.TO_NEAREST_EVEN)), (r3,), F, diff=False, np_ref=np.rint),
        Row("is_finite", named("is_finite"), (x,), F, diff=False, np_ref=np.isfinite),
        Row("stop_gradient", named("stop_gradient"), (x,), ALL, diff=False, np_ref=np.asarray),
        Row("integer_pow_3", f1(lambda m, a: m.integer_pow(a, 3)), (x,), (*FI, "complex64"), elementwise=True, np_ref=r1(lambda a: a**3)),
        Row("integer_pow_m2", f1(lambda m, a: m.integer_pow(a, -2)), (DIVISOR,), F, elementwise=True, np_ref=r1(lambda a: a**-2.0)),
        Row("integer_pow_0", f1(lambda m, a: m.integer_pow(a, 0)), (x,), FI, np_ref=r1(lambda a: a**0)),
        Row("integer_pow_1", f1(lambda m, a: m.integer_pow(a, 1)), (x,), FI, elementwise=True, np_ref=r1(lambda a: a**1)),
        Row("add", named("add"), (x, y), (*NUM, "complex64"), elementwise=True, np_ref=np.add),
        Row("add_scalar_rhs", named("add"), (x, Arg(())), NUM, elementwise=True, np_ref=np.add),
        Row("sub", named("sub"), (x, y), (*NUM, "complex64"), elementwise=True, np_ref=np.subtract),
        Row("mul", named("mul"), (x, y), (*NUM, "complex64"), elementwise=True, np_ref=np.multiply),
        Row("mul_scalar_lhs", named("mul"), (Arg(()), Arg((3,))), NUM, elementwise=True, np_ref=np.multiply),
        Row("div", named("div"), (x, DIVISOR), (*F, "complex64"), elementwise=True, np_ref=np.divide),
        Row("div_int", named("div"), int_args, INTS, diff=False),
        Row("div_scalar_rhs", named("div"), (x, Arg((), 0.5, 2.0, signs=True)), F, elementwise=True, np_ref=np.divide),
        Row("rem", named("rem"), (r3, DIVISOR), F, elementwise=True, np_ref=np.fmod),
        Row("rem_int", named("rem"), int_args, INTS, diff=False),
        Row("max", named("max"), (x, y), ALL, elementwise=True, np_ref=np.maximum),
        Row("max_scalar_rhs", named("max"), (x, Arg(())), FI, elementwise=True, np_ref=np.maximum),
        Row("min", named("min"), (x, y), ALL, elementwise=True, np_ref=np.minimum),
        Row("pow", named("pow"), (Arg(S23, 0.5, 2.0), y), (*F, "complex64"), elementwise=True, np_ref=np.power),
        Row("pow_int_exponent", named("pow"), (Arg(S23, 0.5, 2.0), Arg(S23, -3, 3, dtype=I32)), F,
            elementwise=True, np_ref=r2(lambda a, b: np.power(a, b.astype(a.dtype)))),
        Row("pow_scalar_exponent", named("pow"), (Arg(S23, 0.5, 2.0), Arg(())), F, elementwise=True, np_ref=np.power),
        Row("atan2", named("atan2"), (x, y), F, elementwise=True, np_ref=np.arctan2),
        # Complex outputs do not fit the finite-difference harness: their
        # (linear) jvps are checked in test_lax_edge_cases.py.
        Row("real", named("real"), (x,), ("complex64",), np_ref=np.real, finite_differences=False),
        Row("imag", named("imag"), (x,), ("complex64",), np_ref=np.imag, finite_differences=False),
        Row("conj", named("conj"), (x,), ("complex64",), np_ref=np.conj, finite_differences=False),
        Row("complex", named("complex"), (x, y), ("float32",), np_ref=r2(lambda a, b: a + 1j * b),
            finite_differences=False),
    ]  # fmt: skip


def _comparison_and_bit_rows() -> list[Row]:
    small = (Arg(S23, -2, 2), Arg(S23, -2, 2))  # integer ties are likely
    rows = [
        Row(name, named(name), small, ALL, diff=False, np_ref=ref)
        for name, ref in (
            ("eq", np.equal), ("ne", np.not_equal), ("lt", np.less),
            ("le", np.less_equal), ("gt", np.greater), ("ge", np.greater_equal),
        )
    ]  # fmt: skip
    rows += [
        Row("lt_scalar_lhs", named("lt"), (Arg(()), Arg((3,))), FI, diff=False, np_ref=np.less),
        Row("bitwise_and", named("bitwise_and"), (Arg(S23, 0, 9), Arg(S23, 0, 9)), BITS, diff=False, np_ref=np.bitwise_and),
        Row("bitwise_or", named("bitwise_or"), (Arg(S23, 0, 9), Arg(S23, -9, 9)), BITS, diff=False, np_ref=np.bitwise_or),
        Row("bitwise_xor", named("bitwise_xor"), (Arg(S23, -9, 9), Arg(S23, 0, 9)), BITS, diff=False, np_ref=np.bitwise_xor),
        Row("bitwise_not", named("bitwise_not"), (Arg(S23, -9, 9),), BITS, diff=False, np_ref=np.invert),
    ]  # fmt: skip
    shift_args = (Arg(S23, -100, 100), Arg(S23, 0, 7))
    rows += [
        Row(name, named(name), shift_args, INTS, diff=False)
        for name in ("shift_left", "shift_right_arithmetic", "shift_right_logical")
    ]
    return rows


def _reduction_rows() -> list[Row]:
    x = Arg((2, 3, 4))
    return [
        Row("reduce_sum", f1(lambda m, a: m.reduce_sum(a, (0, 2))), (x,), (*FI, "complex64"),
            np_ref=r1(lambda a: np.sum(a, (0, 2), a.dtype))),
        Row("reduce_sum_all", f1(lambda m, a: m.reduce_sum(a, (0, 1, 2))), (x,), FI, np_ref=r1(lambda a: np.sum(a, dtype=a.dtype))),
        Row("reduce_sum_none", f1(lambda m, a: m.reduce_sum(a, ())), (x,), FI, np_ref=np.asarray),
        Row("reduce_prod", f1(lambda m, a: m.reduce_prod(a, (1,))), (Arg((2, 3, 4), 0.5, 1.5),), F, np_ref=r1(lambda a: np.prod(a, 1))),
        Row("reduce_prod_int", f1(lambda m, a: m.reduce_prod(a, (0, 1))), (Arg(S23, -2, 2),), INTS, diff=False,
            np_ref=r1(lambda a: np.prod(a, (0, 1), a.dtype))),
        Row("reduce_max", f1(lambda m, a: m.reduce_max(a, (1,))), (x,), ALL, np_ref=r1(lambda a: np.max(a, 1))),
        Row("reduce_min", f1(lambda m, a: m.reduce_min(a, (0, 2))), (x,), ALL, np_ref=r1(lambda a: np.min(a, (0, 2)))),
        Row("argmax", f1(lambda m, a: m.argmax(a, 1, np.int32)), (x,), ALL, diff=False, np_ref=r1(lambda a: np.argmax(a, 1))),
        Row("argmin", f1(lambda m, a: m.argmin(a, 0, np.int32)), (x,), ALL, diff=False, np_ref=r1(lambda a: np.argmin(a, 0))),
        Row("argmax_uint8_index", f1(lambda m, a: m.argmax(a, 2, np.uint8)), (x,), F, diff=False,
            np_ref=r1(lambda a: np.argmax(a, 2))),
    ]


def _dot_rows() -> list[Row]:
    mm = (((1,), (0,)), ((), ()))
    batch = (((2,), (1,)), ((0,), (0,)))
    return [
        Row("dot_general_matmul", f2(lambda m, a, b: m.dot_general(a, b, mm)),
            (Arg((3, 4)), Arg((4, 2))), (*FI, "complex64"), np_ref=np.matmul),
        Row("dot_general_batch", f2(lambda m, a, b: m.dot_general(a, b, batch)),
            (Arg((2, 3, 4)), Arg((2, 4, 3))), FI, np_ref=np.matmul),
        Row("dot_general_outer", f2(lambda m, a, b: m.dot_general(a, b, (((), ()), ((), ())))),
            (Arg((3,)), Arg((4,))), FI, np_ref=np.multiply.outer),
        Row("dot_general_contract_lhs0", f2(lambda m, a, b: m.dot_general(a, b, (((0,), (1,)), ((), ())))),
            (Arg((4, 3)), Arg((2, 4))), FI, np_ref=r2(lambda a, b: a.T @ b.T)),
        Row("dot_general_preferred", f2(lambda m, a, b: m.dot_general(a, b, mm, preferred_element_type=np.float32)),
            (Arg((3, 4)), Arg((4, 2))), ("float16", "bfloat16", "int32"), np_ref=np.matmul),
        Row("dot_general_batch_middle", f2(lambda m, a, b: m.dot_general(a, b, (((2,), (0,)), ((1,), (1,))))),
            (Arg((3, 2, 4)), Arg((4, 2, 3))), FI, np_ref=r2(lambda a, b: np.einsum("ibk,kbj->bij", a, b))),
        Row("dot", f2(lambda m, a, b: m.dot(a, b)), (Arg((3, 4)), Arg((4,))), FI, np_ref=np.matmul),
        # grouped matmul (tests/lax/test_ragged_dot.py has the rest): an empty group, rows past the groups' total
        Row("ragged_dot", f3(lambda m, a, b, g: m.ragged_dot(a, b, g)),
            (Arg((6, 3)), Arg((3, 3, 4)), Arg((3,), dtype="int32", fixed=(2, 0, 3))), FI),
        Row("ragged_dot_general_contracting", f3(lambda m, a, b, g: m.ragged_dot_general(
            a, b, g, m.RaggedDotDimensionNumbers((((1,), (0,)), ((), ())), [1], []))),
            (Arg((3, 5)), Arg((5, 2)), Arg((2,), dtype="int32", fixed=(1, 3))), FI),
    ]  # fmt: skip


def _structural_rows() -> list[Row]:
    return [
        Row("broadcast_in_dim", f1(lambda m, a: m.broadcast_in_dim(a, (2, 3, 4), (1,))), (Arg((3,)),), ALL,
            np_ref=r1(lambda a: np.broadcast_to(a[:, None], (2, 3, 4)))),
        Row("broadcast_in_dim_size1", f1(lambda m, a: m.broadcast_in_dim(a, (3, 4), (0, 1))), (Arg((3, 1)),), ALL,
            np_ref=r1(lambda a: np.broadcast_to(a, (3, 4)))),
        Row("broadcast_in_dim_scalar", f1(lambda m, a: m.broadcast_in_dim(a, S23, ())), (Arg(()),), ALL,
            np_ref=r1(lambda a: np.broadcast_to(a, S23))),
        Row("broadcast", f1(lambda m, a: m.broadcast(a, (2,))), (Arg((3, 4)),), ALL,
            np_ref=r1(lambda a: np.broadcast_to(a, (2, 3, 4)))),
        Row("reshape", f1(lambda m, a: m.reshape(a, (3, 2))), (Arg(S23),), ALL, np_ref=r1(lambda a: a.reshape(3, 2))),
        Row("reshape_dimensions", f1(lambda m, a: m.reshape(a, (4, 6), (1, 0, 2))), (Arg((2, 3, 4)),), ALL,
            np_ref=r1(lambda a: a.transpose(1, 0, 2).reshape(4, 6))),
        Row("reshape_to_scalar", f1(lambda m, a: m.reshape(a, ())), (Arg((1, 1)),), FI, np_ref=r1(lambda a: a.reshape(()))),
        Row("transpose", f1(lambda m, a: m.transpose(a, (2, 0, 1))), (Arg((2, 3, 4)),), ALL,
            np_ref=r1(lambda a: a.transpose(2, 0, 1))),
        Row("squeeze", f1(lambda m, a: m.squeeze(a, (1,))), (Arg((2, 1, 3)),), ALL, np_ref=r1(lambda a: a[:, 0])),
        Row("squeeze_negative", f1(lambda m, a: m.squeeze(a, (-1, 0))), (Arg((1, 3, 1)),), FI, np_ref=r1(lambda a: a[0, :, 0])),
        Row("expand_dims", f1(lambda m, a: m.expand_dims(a, (0, 2))), (Arg(S23),), ALL, np_ref=r1(lambda a: a[None, :, None])),
        Row("expand_dims_negative", f1(lambda m, a: m.expand_dims(a, (-1,))), (Arg(S23),), FI, np_ref=r1(lambda a: a[..., None])),
        Row("rev", f1(lambda m, a: m.rev(a, (0, 1))), (Arg(S23),), ALL, np_ref=r1(lambda a: a[::-1, ::-1])),
        Row("rev_middle", f1(lambda m, a: m.rev(a, (1,))), (Arg((2, 3, 4)),), FI, np_ref=r1(lambda a: a[:, ::-1])),
        Row("concatenate", f2(lambda m, a, b: m.concatenate([a, b], 1)), (Arg(S23), Arg((2, 2))), ALL,
            np_ref=r2(lambda a, b: np.concatenate([a, b], 1))),
        Row("concatenate_3", f3(lambda m, a, b, c: m.concatenate([a, b, c], 0)), (Arg((1, 3)), Arg(S23), Arg((1, 3))), FI,
            np_ref=r3(lambda a, b, c: np.concatenate([a, b, c]))),
        Row("pad_interior", f2(lambda m, a, v: m.pad(a, v, ((1, 2, 1), (0, 1, 0)))), (Arg(S23), Arg(())), ALL),
        Row("pad_negative", f2(lambda m, a, v: m.pad(a, v, ((-1, 1, 0), (1, -1, 2)))), (Arg(S23), Arg(())), FI),
        Row("select_n_bool", f3(lambda m, w, a, b: m.select_n(w, a, b)),
            (Arg(S23, dtype="bool"), Arg(S23), Arg(S23)), ALL, np_ref=r3(lambda w, a, b: np.where(w, b, a))),
        Row("select_n_int32_3_cases", f4(lambda m, w, a, b, c: m.select_n(w, a, b, c)),
            (Arg(S23, 0, 2, dtype=I32), Arg(S23), Arg(S23), Arg(S23)), FI, np_ref=_choose),
        Row("select_n_scalar_which", f3(lambda m, w, a, b: m.select_n(w, a, b)),
            (Arg((), dtype="bool"), Arg(S23), Arg(S23)), FI, np_ref=r3(lambda w, a, b: np.where(w, b, a))),
        Row("iota", f0(lambda m: m.iota(np.int32, 4)), (), ("int32",), diff=False, np_ref=r0(lambda: np.arange(4))),
        # XLA's bit generator: the bits and the next key are JAX's (tests/lax/test_rng_bit_generator.py has the rest)
        Row("rng_bit_generator", f1(lambda m, k: m.rng_bit_generator(k, (2, 3))[1]), (Arg((4,), 0, 1000, dtype="uint32"),),
            ("uint32",), diff=False),
        Row("rng_bit_generator_next_key", f1(lambda m, k: m.rng_bit_generator(k, (5,), np.uint8, m.RandomAlgorithm.RNG_PHILOX)[0]),
            (Arg((4,), 0, 1000, dtype="uint32"),), ("uint32",), diff=False),
        Row("broadcasted_iota", f0(lambda m: m.broadcasted_iota(np.float32, S23, 1)), (), ("float32",), diff=False,
            np_ref=r0(lambda: np.broadcast_to(np.arange(3), S23))),
        Row("broadcasted_iota_uint8", f0(lambda m: m.broadcasted_iota(np.uint8, (2, 3, 4), 0)), (), ("uint8",), diff=False,
            np_ref=r0(lambda: np.broadcast_to(np.arange(2)[:, None, None], (2, 3, 4)))),
    ]  # fmt: skip


def _conversion_rows() -> list[Row]:
    wide = Arg(S23, -100, 100)
    return [
        Row("convert_to_int32", f1(lambda m, a: m.convert_element_type(a, np.int32)), (wide,), (*F, "uint8", "bool"), diff=False),
        Row("convert_to_uint8", f1(lambda m, a: m.convert_element_type(a, np.uint8)), (Arg(S23, 0, 200),), ("float32", "int32"), diff=False),
        Row("convert_to_float32", f1(lambda m, a: m.convert_element_type(a, np.float32)), (wide,), ALL, np_ref=np.asarray),
        Row("convert_to_float16", f1(lambda m, a: m.convert_element_type(a, np.float16)), (Arg(S23),),
            ("float32", "bfloat16", "int32"), np_ref=np.asarray),
        Row("convert_to_bool", f1(lambda m, a: m.convert_element_type(a, np.bool_)), (Arg(S23, -1, 1),), FI, diff=False),
    ]  # fmt: skip


def _sdn(m: Any) -> Any:
    """Scatter rows of a (4, 5) operand (advanced indexing family)."""
    return m.ScatterDimensionNumbers(update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,))


def _slicing_rows() -> list[Row]:
    x = Arg((4, 5))
    index = Arg((), -5, 5, dtype=I32)  # negative starts count from the end; too large ones are clamped

    def gather(m: Any, a: Any, i: Any, mode: Any) -> Any:
        dn = m.GatherDimensionNumbers(offset_dims=(1,), collapsed_slice_dims=(0,), start_index_map=(0,))
        return m.gather(a, i, dn, (1, 5), mode=mode)

    def scatter(m: Any, name: str, a: Any, i: Any, u: Any) -> Any:
        dn = m.ScatterDimensionNumbers(
            update_window_dims=(1,), inserted_window_dims=(0,), scatter_dims_to_operand_dims=(0,)
        )
        return getattr(m, name)(a, i, u, dn)

    return [
        Row("gather_clip_mode_enum", f2(lambda m, a, i: gather(m, a, i, m.GatherScatterMode.CLIP)),
            (x, Arg((3, 1), -2, 6, dtype=I32)), ("float32",)),
        Row("slice", f1(lambda m, a: m.slice(a, (1, 0), (3, 5))), (x,), ALL, np_ref=r1(lambda a: a[1:3])),
        Row("slice_strided", f1(lambda m, a: m.slice(a, (0, 1), (4, 5), (3, 2))), (x,), ALL, np_ref=r1(lambda a: a[::3, 1::2])),
        Row("slice_in_dim", f1(lambda m, a: m.slice_in_dim(a, 1, 4, 2, 1)), (x,), FI, np_ref=r1(lambda a: a[:, 1:4:2])),
        Row("dynamic_slice", f3(lambda m, a, i, j: m.dynamic_slice(a, (i, j), (2, 3))), (x, index, index), ALL),
        Row("dynamic_update_slice", f4(lambda m, a, u, i, j: m.dynamic_update_slice(a, u, (i, j))),
            (x, Arg(S23), index, index), ALL),
        Row("dynamic_slice_in_dim", f2(lambda m, a, i: m.dynamic_slice_in_dim(a, i, 2, 1)), (x, index), FI),
        Row("dynamic_index_in_dim", f2(lambda m, a, i: m.dynamic_index_in_dim(a, i, 0, False)), (x, index), FI),
        Row("gather_clip", f2(lambda m, a, i: gather(m, a, i, "clip")), (x, Arg((3, 1), 0, 6, dtype=I32)), FI),
        Row("gather_fill", f2(lambda m, a, i: gather(m, a, i, "fill")), (x, Arg((3, 1), 0, 6, dtype=I32)), F),
        Row("scatter", f3(lambda m, a, i, u: scatter(m, "scatter", a, i, u)),
            (x, Arg((2, 1), dtype=I32, fixed=(3, 0)), Arg((2, 5))), FI),
        Row("scatter_add", f3(lambda m, a, i, u: scatter(m, "scatter_add", a, i, u)),
            (x, Arg((3, 1), dtype=I32, fixed=(1, 3, 1)), Arg((3, 5))), FI),
        # advanced indexing family: the other scatter combiners
        Row("scatter_sub", f3(lambda m, a, i, u: scatter(m, "scatter_sub", a, i, u)),
            (x, Arg((3, 1), dtype=I32, fixed=(1, 3, 1)), Arg((3, 5))), FI),
        Row("scatter_mul", f3(lambda m, a, i, u: m.scatter_mul(a, i, u, _sdn(m), unique_indices=True)),
            (x, Arg((3, 1), dtype=I32, fixed=(1, 3, 0)), Arg((3, 5))), FI),
        Row("scatter_min", f3(lambda m, a, i, u: scatter(m, "scatter_min", a, i, u)),
            (x, Arg((3, 1), dtype=I32, fixed=(1, 3, 0)), Arg((3, 5))), FI),
        Row("scatter_max", f3(lambda m, a, i, u: scatter(m, "scatter_max", a, i, u)),
            (x, Arg((3, 1), dtype=I32, fixed=(1, 3, 0)), Arg((3, 5))), FI),
        Row("scatter_apply", f2(lambda m, a, i: m.scatter_apply(a, i, m.sin, _sdn(m), update_shape=(3, 5), unique_indices=True)),
            (x, Arg((3, 1), dtype=I32, fixed=(1, 3, 0))), ("float32",)),
    ]  # fmt: skip


def _cond(m: Any, p: Any, a: Any, b: Any) -> Any:
    def true_fun(x: Any, y: Any) -> Any:
        return m.mul(m.sin(x), y)

    def false_fun(x: Any, y: Any) -> Any:
        return m.sub(x, m.mul(y, y))

    return m.cond(p, true_fun, false_fun, a, b)


def _switch(m: Any, i: Any, a: Any) -> Any:
    def square(x: Any) -> Any:
        return m.mul(x, x)

    return m.switch(i, [m.sin, square, m.neg], a)  # i outside 0..2 is clamped


def _while(m: Any, n: Any, a: Any) -> Any:
    # Counts n down (so batching n batches the predicate); int32 literals,
    # as a Python int would be int64 under x64 and lax does not promote.
    def cond_fun(c: tuple[Any, Any]) -> Any:
        return m.gt(c[0], np.int32(0))

    def body_fun(c: tuple[Any, Any]) -> tuple[Any, Any]:
        return m.sub(c[0], np.int32(1)), m.mul(m.sin(c[1]), 1.5)

    return m.while_loop(cond_fun, body_fun, (n, a))[1]


def _fori(m: Any, a: Any, b: Any) -> Any:
    def body_fun(i: Any, c: Any) -> Any:
        return m.add(m.sin(c), m.dynamic_index_in_dim(b, i, 0, False))

    return m.fori_loop(0, 3, body_fun, a)


def _scan(m: Any, a: Any, xs: Any) -> Any:
    def f(c: Any, x: Any) -> tuple[Any, Any]:
        return m.mul(m.sin(c), x), m.add(c, x)

    carry, ys = m.scan(f, a, xs)
    return m.concatenate([ys, m.expand_dims(carry, (0,))], 0)


def _map(m: Any, xs: Any) -> Any:
    def f(x: Any) -> Any:
        return m.mul(m.sin(x), x)

    return m.map(f, xs)


def _np_while(n: NDArray, a: NDArray) -> NDArray:
    for _ in range(int(n)):
        a = np.sin(a) * 1.5
    return a


def _np_fori(a: NDArray, b: NDArray) -> NDArray:
    for i in range(3):
        a = np.sin(a) + b[i]
    return a


def _np_scan(a: NDArray, xs: NDArray) -> NDArray:
    ys: list[NDArray] = []
    for x in xs:
        a, y = np.sin(a) * x, a + x
        ys.append(y)
    return np.stack([*ys, a])


def _composite_tangent(m: Any, a: Any) -> Any:
    def decomposition(v: Any) -> Any:
        return m.sin(v) / m.cos(v)

    return m.composite(decomposition, "my.tangent")(a)


def _control_flow_rows() -> list[Row]:
    # Small: the loops compile through XLA even eagerly. Their own tests
    # are in test_control_flow_{cond,loops,scan}.py.
    f32 = ("float32",)
    return [
        Row("cond", f3(_cond), (Arg((), dtype="bool"), Arg(S23), Arg(S23)), f32,
            np_ref=r3(lambda p, a, b: np.sin(a) * b if p else a - b * b)),
        Row("switch", f2(_switch), (Arg((), -2, 4, dtype=I32), Arg(S23)), f32,
            np_ref=r2(lambda i, a: (np.sin, np.square, np.negative)[int(np.clip(i, 0, 2))](a))),
        Row("while_loop", f2(_while), (Arg((), -1, 3, dtype=I32), Arg((3,))), f32, np_ref=_np_while),
        Row("fori_loop", f2(_fori), (Arg((3,)), Arg((3, 3))), f32, np_ref=_np_fori),
        Row("scan", f2(_scan), (Arg((2,)), Arg((3, 2))), f32, np_ref=_np_scan),
        Row("map", f1(_map), (Arg((4, 3)),), f32, np_ref=r1(lambda xs: np.sin(xs) * xs)),
        Row("platform_dependent", f1(lambda m, a: m.platform_dependent(a, cpu=m.sin, default=m.cos)), (Arg(S23),), f32,
            np_ref=r1(np.sin)),
        # an op named for the compiler; its derivative and batching are the decomposition's (tests/lax/test_composite.py)
        Row("composite", f1(_composite_tangent), (Arg(S23, -1, 1),), f32,
            np_ref=r1(np.tan)),
    ]  # fmt: skip


# sorting family: sort, sort_key_val, top_k and the cumulative reductions
# (more cases, ties and NaNs in test_lax_sorting.py).
def _sorting_rows() -> list[Row]:
    x = Arg((3, 4))
    positive = Arg((3, 4), 0.5, 1.5)
    rows = [
        Row("sort", f1(lambda m, a: m.sort(a)), (x,), NUM, np_ref=r1(lambda a: np.sort(a, -1))),
        Row("sort_dim0", f1(lambda m, a: m.sort(a, dimension=0)), (x,), FI, np_ref=r1(lambda a: np.sort(a, 0))),
        Row("sort_two_keys", f2(lambda m, a, b: m.sort((a, b), num_keys=2)[1]), (Arg((3, 4), -2, 2, dtype=I32), x), F),
        Row("sort_key_val", f2(lambda m, a, b: m.sort_key_val(a, b)[1]), (x, Arg((3, 4))), F),
        Row("top_k", f1(lambda m, a: m.top_k(a, 2)[0]), (x,), FI, np_ref=r1(lambda a: -np.sort(-a, -1)[..., :2])),
        Row("top_k_indices", f1(lambda m, a: m.top_k(a, 3, axis=0)[1]), (x,), FI, diff=False),
    ]
    f32 = ("float32",)
    return [
        *rows,
        Row("cumsum", f1(lambda m, a: m.cumsum(a, axis=1)), (x,), F, np_ref=r1(lambda a: np.cumsum(a, 1))),
        Row("cumsum_reverse", f1(lambda m, a: m.cumsum(a, 0, True)), (x,), f32),
        Row("cumprod", f1(lambda m, a: m.cumprod(a, axis=1)), (positive,), F, np_ref=r1(lambda a: np.cumprod(a, 1))),
        Row("cumprod_reverse", f1(lambda m, a: m.cumprod(a, 0, True)), (positive,), f32),
        Row("cummax", f1(lambda m, a: m.cummax(a, axis=1)), (x,), F, np_ref=r1(lambda a: np.maximum.accumulate(a, 1))),
        Row("cummax_reverse", f1(lambda m, a: m.cummax(a, 0, True)), (x,), f32),
        Row("cummin", f1(lambda m, a: m.cummin(a, axis=1)), (x,), F, np_ref=r1(lambda a: np.minimum.accumulate(a, 1))),
        Row("cummin_reverse", f1(lambda m, a: m.cummin(a, 0, True)), (x,), f32),
        Row("cumlogsumexp", f1(lambda m, a: m.cumlogsumexp(a, axis=1)), (x,), F,
            np_ref=r1(lambda a: np.logaddexp.accumulate(a, 1))),
        Row("cumlogsumexp_reverse", f1(lambda m, a: m.cumlogsumexp(a, 0, True)), (x,), f32),
    ]  # fmt: skip


# windowed reductions and convolutions family (more cases, ties, groups and
# errors in test_lax_convolution.py and test_lax_windowed.py).
def _conv_numbers(m: Any) -> Any:
    numbers: Any = m.ConvGeneralDilatedDimensionNumbers
    assert numbers is not None
    return m.ConvDimensionNumbers((0, 3, 1, 2), (3, 2, 0, 1), (0, 3, 1, 2))


def _windowed_rows() -> list[Row]:
    x, k = Arg((2, 3, 5, 4)), Arg((4, 3, 2, 2))
    nhwc, hwio = Arg((2, 5, 4, 6)), Arg((3, 2, 3, 4))
    image = Arg((2, 6, 5))
    pool = ((2, 2, 1), (2, 1, 1), "SAME")
    return [
        Row("conv_general_dilated", f2(lambda m, a, b: m.conv_general_dilated(a, b, (1, 2), [(1, 0), (1, 2)], (1, 2), (2, 1))),
            (x, k), FI),
        Row("conv_general_dilated_grouped", f2(lambda m, a, b: m.conv_general_dilated(
            a, b, (1, 1), m.padtype_to_pads((5, 4), (3, 2), (1, 1), "SAME"),
            dimension_numbers=m.conv_dimension_numbers(a.shape, b.shape, ("NHWC", "HWIO", "NHWC")), feature_group_count=2)),
            (nhwc, hwio), F),
        Row("conv_general_dilated_numbers", f2(lambda m, a, b: m.conv_general_dilated(
            a, b, (2, 1), "VALID", dimension_numbers=_conv_numbers(m), batch_group_count=2)),
            (nhwc, Arg((2, 2, 6, 4))), F),
        Row("conv", f2(lambda m, a, b: m.conv(a, b, (1, 1), "SAME")), (x, k), FI),
        Row("conv_with_general_padding", f2(lambda m, a, b: m.conv_with_general_padding(a, b, (2, 1), [(0, 1), (1, 1)], (1, 1), (1, 2))),
            (x, k), F),
        Row("conv_transpose", f2(lambda m, a, b: m.conv_transpose(a, b, (2, 2), "SAME")), (Arg((2, 5, 4, 3)), Arg((3, 2, 3, 4))), F),
        Row("conv_general_dilated_patches", f1(lambda m, a: m.conv_general_dilated_patches(a, (2, 3), (1, 1), "VALID")), (x,), F),
        Row("conv_general_dilated_local", f2(lambda m, a, b: m.conv_general_dilated_local(a, b, (1, 1), "VALID", (2, 2))),
            (x, Arg((4, 12, 4, 3))), F),
        Row("conv_shape_helpers", f2(lambda m, a, b: m.reshape(m.conv_transpose(
            m.transpose(a, m.conv_general_permutations(("NCHW", "OIHW", "NCHW"))[0]), b, (2, 1), "VALID",
            dimension_numbers=("NCHW", "OIHW", "NCHW")),
            m.conv_transpose_shape_tuple(a.shape, b.shape, (2, 1), "VALID", ("NCHW", "OIHW", "NCHW")))),
            (x, Arg((4, 3, 2, 2))), F),
        Row("conv_shape_tuples", f2(lambda m, a, b: m.add(
            m.reshape(m.conv(a, b, (1, 2), "SAME"), m.conv_shape_tuple(a.shape, b.shape, (1, 2), "SAME")),
            m.reshape(m.conv(a, b, (1, 2), "SAME"), m.conv_general_shape_tuple(a.shape, b.shape, (1, 2), "SAME", ("NCHW", "OIHW", "NCHW"))))),
            (x, k), F),
        Row("reduce_window_sum", f1(lambda m, a: m.reduce_window(a, 0.0, m.add, *pool)), (image,), F),
        Row("reduce_window_max", f1(lambda m, a: m.reduce_window(a, -np.inf, m.max, *pool)), (image,), FI),
        Row("reduce_window_min", f1(lambda m, a: m.reshape(m.reduce_window(a, np.inf, m.min, (2, 2, 1), (1, 2, 1), "VALID"),
                                                         m.reduce_window_shape_tuple(a.shape, (2, 2, 1), (1, 2, 1), [(0, 0)] * 3))),
            (image,), FI),
    ]  # fmt: skip


# special-function family (more values, edges, dtypes and gradients at
# special points in test_lax_special.py).
def _special_rows() -> list[Row]:
    x, positive = Arg(S23), Arg(S23, 0.3, 4.0)
    unit = Arg(S23, 0.05, 0.95)
    return [
        Row("lgamma", named("lgamma"), (positive,), F, elementwise=True),
        Row("lgamma_negative", named("lgamma"), (Arg(S23, -2.9, -2.1),), F, elementwise=True),
        Row("digamma", named("digamma"), (positive,), F, elementwise=True),
        Row("polygamma", f1(lambda m, a: m.polygamma(m.convert_element_type(2, a.dtype), a)), (positive,), F, elementwise=True),
        Row("zeta", named("zeta"), (Arg(S23, 1.5, 4.0), Arg(S23, 0.5, 3.0)), F, diff=False, finite_differences=False),
        Row("erf_inv", named("erf_inv"), (Arg(S23, -0.9, 0.9),), F, elementwise=True),
        Row("erfc", named("erfc"), (Arg(S23, -2.0, 3.0),), F, elementwise=True),
        Row("bessel_i0e", named("bessel_i0e"), (Arg(S23, -4.0, 4.0),), F, elementwise=True),
        Row("bessel_i1e", named("bessel_i1e"), (Arg(S23, -4.0, 4.0),), F, elementwise=True),
        Row("igamma", named("igamma"), (Arg(S23, 0.5, 4.0), Arg(S23, 0.1, 6.0)), F),
        Row("igammac", named("igammac"), (Arg(S23, 0.5, 4.0), Arg(S23, 0.1, 6.0)), F),
        Row("igamma_grad_a", named("igamma_grad_a"), (Arg(S23, 0.5, 4.0), Arg(S23, 0.1, 6.0)), F, diff=False, finite_differences=False),
        Row("random_gamma_grad", named("random_gamma_grad"), (Arg(S23, 0.5, 4.0), Arg(S23, 0.1, 6.0)), F, diff=False, finite_differences=False),
        Row("betainc", named("betainc"), (positive, positive, unit), F, diff=False, finite_differences=False),
        Row("betainc_x", f1(lambda m, a: m.betainc(m.convert_element_type(2, a.dtype), m.convert_element_type(3, a.dtype), a)),
            (unit,), F, elementwise=True),
        Row("cbrt", named("cbrt"), (Arg(S23, 0.2, 3.0, signs=True),), F, elementwise=True),
        Row("exp2", named("exp2"), (x,), F, elementwise=True),
        Row("square", named("square"), (x,), FI, elementwise=True),
        Row("reciprocal", named("reciprocal"), (Arg(S23, 0.5, 2.0, signs=True),), F, elementwise=True),
        Row("clamp", f3(lambda m, lo, a, hi: m.clamp(lo, a, hi)), (Arg((), -1.0, -0.5), x, Arg((), 0.5, 1.0)), F),
        Row("clamp_arrays", named("clamp"), (Arg(S23, -1.0, -0.5), x, Arg(S23, 0.5, 1.0)), ("float32", "int32")),
        Row("nextafter", named("nextafter"), (x, x), F, diff=False),
        Row("population_count", named("population_count"), (Arg(S23, -100, 100),), INTS, diff=False),
        Row("clz", named("clz"), (Arg(S23, -100, 100),), INTS, diff=False),
        Row("reduce_precision", f1(lambda m, a: m.reduce_precision(a, 5, 10)), (x,), F, finite_differences=False),
    ]  # fmt: skip


# lax extras family: convenience functions, logical and general reduce,
# bitcasts, barriers, solvers (more cases and errors in test_lax_convenience.py).
def _dot_with_precision(m: Any, a: Any, b: Any) -> Any:
    assert m.PrecisionLike is not None and m.DotDimensionNumbers is not None
    return m.add(m.dot(a, b, precision=m.Precision.HIGHEST), m.dot_general(a, b, (((1,), (0,)), ((), ())), precision="high"))


def _newton_sqrt(m: Any, a: Any) -> Any:
    def solve(f: Any, y0: Any) -> Any:
        def step(i: Any, y: Any) -> Any:
            return m.sub(y, m.div(f(y), m.mul(y, m.full_like(y, 2))))

        return m.fori_loop(0, 12, step, y0)

    def tangent_solve(g: Any, y: Any) -> Any:
        return m.div(y, g(m.full_like(y, 1)))

    def f(y: Any) -> Any:
        return m.sub(m.mul(y, y), a)

    return m.custom_root(f, m.full_like(a, 1), solve, tangent_solve)


def _diagonal_solve(m: Any, a: Any, b: Any) -> Any:
    def matvec(x: Any) -> Any:
        return m.mul(a, x)

    def solve(mv: Any, y: Any) -> Any:
        return m.div(y, a)

    return m.custom_linear_solve(matvec, b, solve, symmetric=True)


def _affine_scan(m: Any, a: Any, b: Any) -> Any:
    def compose(u: Any, v: Any) -> Any:
        return (m.mul(u[0], v[0]), m.add(m.mul(u[1], v[0]), v[1]))

    return m.associative_scan(compose, (a, b), axis=1)[1]


def _sum_by_lambda(m: Any, a: Any) -> Any:
    def combine(u: Any, v: Any) -> Any:
        return m.add(u, v)

    return m.reduce(a, np.array(0, a.dtype), combine, (1,))


def _extras_rows() -> list[Row]:
    x, positive = Arg(S23), Arg(S23, 0.5, 2.0)
    f32 = ("float32",)
    pairs = f2(_affine_scan)
    return [
        Row("select", f3(lambda m, p, a, b: m.select(p, a, b)), (Arg(S23, dtype="bool"), x, x), FI),
        Row("full", f1(lambda m, a: m.mul(a, m.full((2, 3), 2, a.dtype))), (x,), FI),
        Row("full_like", f1(lambda m, a: m.mul(a, m.full_like(a, 3, shape=(3,)))), (Arg((3,)),), FI),
        Row("broadcast_shapes", f1(lambda m, a: m.broadcast(a, m.broadcast_shapes((2, 1), (3,))[:1])), (x,), FI),
        Row("broadcast_like", f2(lambda m, a, b: m.broadcast_like(a, b)), (Arg((3,)), Arg((2, 3))), FI),
        Row("broadcast_to_rank", f1(lambda m, a: m.broadcast_to_rank(a, 4)), (x,), FI),
        Row("collapse", f1(lambda m, a: m.collapse(a, 0)), (Arg((2, 3, 2)),), FI),
        Row("index_in_dim", f1(lambda m, a: m.index_in_dim(a, -1, 1, False)), (x,), FI),
        Row("dynamic_update_index_in_dim", f2(lambda m, a, b: m.dynamic_update_index_in_dim(a, b, 1, 0)), (x, Arg((3,))), FI),
        Row("dynamic_update_slice_in_dim", f2(lambda m, a, b: m.dynamic_update_slice_in_dim(a, b, -1, 1)), (x, Arg((2, 2))), FI),
        Row("index_take", f1(lambda m, a: m.index_take(a, (np.array([0, 1, 1]), np.array([2, 0, 1])), (0, 1))), (x,), FI),
        Row("batch_matmul", f2(lambda m, a, b: m.batch_matmul(a, b, precision="highest")), (Arg((2, 3, 4)), Arg((2, 4, 2))), ("float32", "int32")),
        Row("dot_precision", f2(_dot_with_precision), (Arg((3, 4)), Arg((4, 2))), f32),
        Row("split", f1(lambda m, a: m.split(a, (1, 2), 1)[1]), (x,), FI),
        Row("tile", f1(lambda m, a: m.tile(a, (2, 1))), (x,), FI),
        Row("stack", f2(lambda m, a, b: m.stack([a, b], 1)), (x, x), FI),
        Row("unstack", f1(lambda m, a: m.unstack(a, 1)[2]), (x,), FI),
        Row("empty", f1(lambda m, a: m.add(a, m.empty(a.shape, m.dtype(a)))), (x,), FI),
        Row("associative_scan", f1(lambda m, a: m.associative_scan(m.add, a, axis=1)), (Arg((2, 5)),), FI),
        Row("associative_scan_reverse_max", f1(lambda m, a: m.associative_scan(m.max, a, reverse=True)), (Arg((4, 3)),), f32),
        Row("associative_scan_pairs", pairs, (Arg((2, 5), 0.5, 1.5), Arg((2, 5))), f32),
        Row("custom_root", f1(_newton_sqrt), (positive,), f32),
        Row("custom_linear_solve", f2(_diagonal_solve), (positive, x), f32),
        Row("reduce_add", f1(lambda m, a: m.reduce(a, np.array(0, a.dtype), m.add, (1,))), (x,), FI),
        Row("reduce_custom", f1(_sum_by_lambda), (Arg((2, 5)),), f32),
        Row("reduce_and", f1(lambda m, a: m.reduce_and(a, (1,))), (Arg(S23, -9, 9),), BITS, diff=False),
        Row("reduce_or", f1(lambda m, a: m.reduce_or(a, (0,))), (Arg(S23, -9, 9),), BITS, diff=False),
        Row("reduce_xor", f1(lambda m, a: m.reduce_xor(a, (0, 1))), (Arg(S23, -9, 9),), BITS, diff=False),
        Row("bitcast_convert_type", f1(lambda m, a: m.bitcast_convert_type(a, np.int32)), (x,), f32, diff=False),
        Row("bitcast_convert_type_narrow", f1(lambda m, a: m.bitcast_convert_type(a, np.uint8)), (x,), f32, diff=False),
        Row("optimization_barrier", f2(lambda m, a, b: m.mul(*m.optimization_barrier((a, b)))), (x, x), FI),
        Row("approx_max_k", f1(lambda m, a: m.approx_max_k(a, 2)[0]), (Arg((3, 4)),), F),
        Row("approx_max_k_indices", f1(lambda m, a: m.approx_max_k(a, 1, reduction_dimension=0)[1]), (Arg((3, 4)),), f32, diff=False),
        Row("approx_min_k", f1(lambda m, a: m.approx_min_k(a, 3, reduction_dimension=0)[0]), (Arg((3, 4)),), F),
        Row("mulhi", named("mulhi"), (Arg(S23, -100, 100), Arg(S23, -100, 100)), INTS, diff=False),
    ]  # fmt: skip


# FFT family: one row per transform kind (more cases, norms, errors and
# gradients in test_lax_fft.py and tests/numpy/test_jnp_fft.py).
def _fft_rows() -> list[Row]:
    c64, f32 = ("complex64",), ("float32",)
    return [
        Row("fft", f1(lambda m, a: m.fft(a, m.FftType.FFT, (3, 4))), (Arg((2, 3, 4)),), c64, finite_differences=False,
            np_ref=r1(lambda a: np.fft.fftn(a, axes=(1, 2)))),
        Row("fft_ifft", f1(lambda m, a: m.fft(a, "ifft", (5,))), (Arg((3, 5)),), c64, finite_differences=False,
            np_ref=r1(lambda a: np.fft.ifft(a))),
        Row("fft_rfft", f1(lambda m, a: m.fft(a, "rfft", (3, 5))), (Arg((2, 3, 5)),), f32, finite_differences=False,
            np_ref=r1(lambda a: np.fft.rfftn(a, axes=(1, 2)))),
        Row("fft_irfft", f1(lambda m, a: m.fft(a, m.FftType.IRFFT, (6,))), (Arg((3, 4)),), c64, finite_differences=False),
    ]  # fmt: skip


# sharding family (issue 17): the constraint is the identity on values.
def _sharding_rows() -> list[Row]:
    def constrain(m: Any, a: Any) -> Any:
        ours = m is not jax.lax  # jaxtyped's lax, or the census's recorder of it
        return m.with_sharding_constraint(m.mul(a, a), mesh_sharding(ours, "a"))

    def vm(m: Any, f: Callable[[Any], Any]) -> Callable[[Any], Any]:
        mapped: Callable[[Any], Any] = (jax if m is jax.lax else jt).vmap(f, axis_name="i")
        return mapped

    def varying(m: Any) -> Callable[[Any], Any]:
        return lambda r: m.pcast(r, "a", to="varying")

    def broadcast_from(m: Any, r: Any, source: int) -> Any:
        if m is jax.lax:
            return m.psum(jax.numpy.where(m.axis_index("i") == source, r, 0), "i")
        return m.pbroadcast(r, "i", source)

    swap = [(0, 1), (1, 0)]
    return [
        Row("with_sharding_constraint", f1(constrain), (Arg(S23),), F),
        # collectives over the axis a vmap names (issue 17); S23's leading axis has 2 members
        Row("psum", f1(lambda m, a: vm(m, lambda r: m.psum(r, "i"))(a)), (Arg(S23),), F),
        Row("pmean", f1(lambda m, a: vm(m, lambda r: m.pmean(r, "i"))(a)), (Arg(S23),), F),
        Row("pmax", f1(lambda m, a: vm(m, lambda r: m.pmax(r, "i"))(a)), (Arg(S23),), F, diff=False,
            finite_differences=False),  # no derivative rule, as in JAX
        Row("pmin", f1(lambda m, a: vm(m, lambda r: m.pmin(r, "i"))(a)), (Arg(S23),), F, diff=False,
            finite_differences=False),  # no derivative rule, as in JAX
        Row("all_gather", f1(lambda m, a: vm(m, lambda r: m.all_gather(r, "i", axis=1))(a)), (Arg(S23),), F),
        Row("psum_scatter", f1(lambda m, a: vm(m, lambda r: m.psum_scatter(r, "i", tiled=True))(a)), (Arg((2, 4)),), F),
        Row("ppermute", f1(lambda m, a: vm(m, lambda r: m.ppermute(r, "i", swap))(a)), (Arg(S23),), F),
        Row("all_to_all", f1(lambda m, a: vm(m, lambda r: m.all_to_all(r, "i", 0, 0))(a)), (Arg((2, 2)),), F),
        Row("pshuffle", f1(lambda m, a: vm(m, lambda r: m.pshuffle(r, "i", [1, 0]))(a)), (Arg(S23),), F),
        Row("pswapaxes", f1(lambda m, a: vm(m, lambda r: m.pswapaxes(r, "i", 0))(a)), (Arg((2, 2)),), F),
        Row("axis_index", f1(lambda m, a: vm(m, lambda r: r * m.axis_index("i"))(a)), (Arg(S23),), F),
        Row("axis_size", f1(lambda m, a: vm(m, lambda r: r * m.axis_size("i"))(a)), (Arg(S23),), F),
        # pcast(to='varying') marks a shard_map block varying (JEP 17111): the 2 devices' copies, stacked
        Row("pcast", f1(lambda m, a: mesh_shard_map(m is not jax.lax, varying(m), ((),), ("a",))(a)), (Arg(S23),), F),
        # pbroadcast (issue 17 item 4, H17b): JAX's batching rule fails on tracers, so
        # JAX computes it as its documented equivalent, a psum of the masked value
        Row("pbroadcast", f1(lambda m, a: vm(m, lambda r: broadcast_from(m, r, 1))(a)), (Arg(S23),), F),
    ]


ROWS: list[Row] = [
    *_sharding_rows(),  # sharding family (issue 17)
    *_unary_rows(),
    *_arith_rows(),
    *_comparison_and_bit_rows(),
    *_reduction_rows(),
    *_dot_rows(),
    *_structural_rows(),
    *_conversion_rows(),
    *_slicing_rows(),
    *_control_flow_rows(),
    *_windowed_rows(),
    *_sorting_rows(),
    *_special_rows(),
    *_extras_rows(),  # lax extras family
    *_fft_rows(),  # FFT family
]
BY_ID = {r.id: r for r in ROWS}


# === operands, tolerances, oracles ===


def ours(row: Row) -> Fn:
    return functools.partial(row.fn, lax)


def theirs(row: Row) -> Fn:
    return functools.partial(row.fn, jax.lax)


def rng_for(*keys: object) -> np.random.Generator:
    return np.random.default_rng(zlib.crc32(repr(keys).encode()))


def make_value(rng: np.random.Generator, arg: Arg, row_dtype: str) -> NDArray:
    dtype = np.dtype(arg.dtype or row_dtype)
    shape = arg.shape
    if arg.fixed is not None:
        return np.array(arg.fixed, dtype).reshape(shape)
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    signs: NDArray = rng.choice(np.array([-1, 1]), shape) if arg.signs else np.ones(shape, np.int64)
    if dtype.kind in "iu":
        lo = max(math.ceil(arg.lo), 0) if dtype.kind == "u" else math.ceil(arg.lo)
        integers: NDArray = rng.integers(lo, math.floor(arg.hi) + 1, shape)
        return (integers * (signs if dtype.kind == "i" else 1)).astype(dtype)
    values: NDArray = rng.uniform(arg.lo, arg.hi, shape) * signs
    if dtype.kind == "c":
        values = values + 1j * rng.uniform(-1.0, 1.0, shape)
    return np.asarray(values).astype(dtype)  # a 0-d array, not a NumPy scalar, for shape ()


def make_args(rng: np.random.Generator, row: Row, dtype: str) -> tuple[NDArray, ...]:
    return tuple(make_value(rng, arg, dtype) for arg in row.args)


def eager_args(row: Row, dtype: str) -> tuple[NDArray, ...]:
    return make_args(rng_for(row.id, dtype), row, dtype)


def is_inexact(x: NDArray) -> bool:
    """Floating or complex (NumPy's kind of ``bfloat16`` is "V", like ``float0``'s)."""
    return x.dtype.kind in "fc" or x.dtype == BF16


RTOL: dict[str, float] = {
    "float16": 2e-3, "bfloat16": 1.6e-2, "float32": 1e-5, "complex64": 1e-5,
    "float64": 1e-12, "complex128": 1e-12,
}  # fmt: skip


def assert_matches(actual: object, expected: object, rtol: float | None = None) -> None:
    """Same shape and dtype; exact for integers, booleans and ``float0``,
    else within ``rtol`` (default: by dtype), scaled by the magnitude."""
    a, e = np.asarray(actual), np.asarray(expected)
    assert a.shape == e.shape, f"shape {a.shape} != {e.shape}"
    assert a.dtype == e.dtype, f"dtype {a.dtype} != {e.dtype}"
    if not is_inexact(a):
        np.testing.assert_array_equal(a, e)
        return
    tol = RTOL[a.dtype.name] if rtol is None else rtol
    wide = np.complex128 if a.dtype.kind == "c" else np.float64
    a64, e64 = a.astype(wide), e.astype(wide)
    finite = np.abs(e64[np.isfinite(e64)])
    scale = max(1.0, float(finite.max())) if finite.size else 1.0
    np.testing.assert_allclose(a64, e64, rtol=tol, atol=tol * scale, equal_nan=True)


def _specs(row: Row, dtype: str) -> list[Any]:
    return [jax.ShapeDtypeStruct(a.shape, np.dtype(a.dtype or dtype)) for a in row.args]


@functools.cache
def jax_out_type(row_id: str, dtype: str) -> tuple[tuple[int, ...], np.dtype[Any], bool]:
    """JAX's output shape, dtype and weak type for the row (no compilation)."""
    row = BY_ID[row_id]
    out = jax.eval_shape(theirs(row), *_specs(row, dtype))
    return tuple(out.shape), np.dtype(out.dtype), bool(out.weak_type)


def _compute_dtype(dtype: str) -> str:
    return "float32" if dtype in F else dtype


@functools.cache
def _jax_program(compute: str) -> tuple[tuple[Row, ...], Any]:
    """One jitted program evaluating every row without a NumPy reference
    that accepts a dtype computed as ``compute``."""
    rows = tuple(r for r in ROWS if r.np_ref is None and any(_compute_dtype(d) == compute for d in r.dtypes))

    def program(inputs: list[tuple[Any, ...]]) -> list[Any]:
        return [theirs(r)(*args) for r, args in zip(rows, inputs)]

    return rows, jax.jit(program)


@functools.cache
def jax_values(dtype: str) -> dict[str, NDArray]:
    """JAX's outputs on ``eager_args(row, dtype)`` for the rows without a
    NumPy reference; float16/bfloat16 operands are computed in float32."""
    compute = _compute_dtype(dtype)
    rows, program = _jax_program(compute)
    inputs: list[tuple[NDArray, ...]] = []
    for r in rows:
        d = dtype if dtype in r.dtypes else next(d for d in r.dtypes if _compute_dtype(d) == compute)
        inputs.append(tuple(a.astype(compute) if a.dtype == np.dtype(d) else a for a in eager_args(r, d)))
    return {r.id: np.asarray(out) for r, out in zip(rows, program(inputs))}


def reference(row: Row, dtype: str, args: Sequence[NDArray]) -> NDArray:
    """The expected eager output, in JAX's output dtype."""
    _, out_dtype, _ = jax_out_type(row.id, dtype)
    if row.np_ref is None:
        return jax_values(dtype)[row.id].astype(out_dtype)
    wide = [a.astype(np.complex128 if a.dtype.kind == "c" else np.float64) if is_inexact(a) else a for a in args]
    with np.errstate(all="ignore"):
        return np.asarray(row.np_ref(*wide)).astype(out_dtype)


def param(row: Row, *rest: object, marks: Sequence[pytest.MarkDecorator] = ()) -> Any:
    ident = "-".join([row.id, *(str(r) for r in rest)])
    return pytest.param(row, *rest, id=ident, marks=tuple(marks))


def bug(reason: str) -> pytest.MarkDecorator:
    return pytest.mark.xfail(strict=True, reason=f"BUG: {reason}")


# (check, row id) -> known bug, as ``bug("...")``; none is open.
KNOWN_BUGS: dict[tuple[str, str], pytest.MarkDecorator] = {}


def marks_for(check: str, row: Row) -> list[pytest.MarkDecorator]:
    return [KNOWN_BUGS[(check, row.id)]] if (check, row.id) in KNOWN_BUGS else []


# === 1. eager vs reference ===


@pytest.mark.parametrize(("row", "dtype"), [param(r, d) for r in ROWS for d in r.dtypes])
def test_eager_matches_reference(row: Row, dtype: str) -> None:
    args = eager_args(row, dtype)
    got = ours(row)(*args)
    shape, out_dtype, weak_type = jax_out_type(row.id, dtype)
    assert (got.shape, got.dtype, got.weak_type) == (shape, out_dtype, weak_type)
    assert_matches(got, reference(row, dtype, args))


# === 2. jvp ===


def float_dtype(row: Row) -> str:
    """float64 for rows with a float dtype, else the row's first dtype."""
    return "float64" if any(d in F for d in row.dtypes) else row.dtypes[0]


def make_tangents(rng: np.random.Generator, args: Sequence[NDArray]) -> tuple[NDArray, ...]:
    """Random tangents (``float0`` zeros for integer and boolean operands)."""
    return tuple(_normal(rng, a) if is_inexact(a) else np.zeros(a.shape, FLOAT0) for a in args)


def _normal(rng: np.random.Generator, like: NDArray) -> NDArray:
    shape: tuple[int, ...] = like.shape
    values: NDArray = rng.standard_normal(shape)
    return values.astype(like.dtype)


def central_difference(f: Fn, args: Sequence[NDArray], tangents: Sequence[NDArray], eps: float) -> NDArray:
    plus = [a + eps * t if is_inexact(a) else a for a, t in zip(args, tangents)]
    minus = [a - eps * t if is_inexact(a) else a for a, t in zip(args, tangents)]
    return (np.asarray(f(*plus), np.float64) - np.asarray(f(*minus), np.float64)) / (2 * eps)


def assert_matches_finite_differences(tangent: object, f: Fn, args: Sequence[NDArray], tangents: Sequence[NDArray]) -> None:
    """``tangent`` equals central differences of ``f`` (float64 operands)."""
    out_dtype = np.asarray(tangent).dtype
    if out_dtype == np.float64:
        eps, rtol = 1e-6, 1e-5
    else:  # a float32/float16 output (conversions, preferred_element_type): linear rows, big steps
        eps, rtol = 0.1, 10 * RTOL[out_dtype.name] / 0.1
    assert_matches(np.asarray(tangent, np.float64), central_difference(f, args, tangents, eps), rtol=rtol)


@pytest.mark.parametrize(
    ("row", "dtype"),
    [param(r, float_dtype(r), marks=marks_for("jvp", r)) for r in ROWS if r.args and r.finite_differences],
)
@pytest.mark.usefixtures("x64")
def test_jvp_matches_finite_differences(row: Row, dtype: str) -> None:
    rng = rng_for(row.id, "jvp")
    args = make_args(rng, row, dtype)
    tangents = make_tangents(rng, args)
    f = ours(row)
    primal, tangent = jt.jvp(f, args, tangents)
    assert_matches(primal, f(*args), rtol=0.0)
    out = np.asarray(primal)
    if row.np_ref is not None and dtype == "float64":
        assert_matches(out, np.asarray(row.np_ref(*args)).astype(out.dtype))
    if not row.diff:
        assert_matches(tangent, np.zeros(out.shape, FLOAT0 if out.dtype.kind in "biu" else out.dtype))
        return
    assert np.asarray(tangent).dtype == out.dtype
    assert_matches_finite_differences(tangent, f, args, tangents)


def jvp_dtype(row: Row) -> str:
    return "float32" if "float32" in row.dtypes else row.dtypes[0]


# Rows whose derivative involves a convention that finite differences at
# random points do not pin down (kinks, ties, zero and float0 tangents,
# integer operands, dtype changes) or a structural rule; comparing every row
# with jax.jvp would cost a JAX compilation per row (~50 ms each).
JAX_JVP_IDS = (
    "abs", "sign", "max", "min", "max_scalar_rhs", "add_scalar_rhs", "mul_scalar_lhs",
    "div_scalar_rhs", "pow", "pow_int_exponent", "pow_scalar_exponent", "integer_pow_0",
    "integer_pow_m2", "rem", "atan2", "logistic", "round_even", "floor", "stop_gradient",
    "eq", "shift_left", "reduce_max", "reduce_min", "reduce_prod", "argmax",
    "dot_general_preferred", "select_n_bool", "select_n_int32_3_cases", "select_n_scalar_which",
    "convert_to_int32", "convert_to_float32", "convert_to_float16", "concatenate",
    "pad_interior", "dynamic_slice", "dynamic_update_slice", "gather_fill", "scatter",
    "scatter_add", "iota",
    "scatter_sub", "scatter_mul", "scatter_min", "scatter_max",  # advanced indexing family
)  # fmt: skip
JAX_JVP_ROWS = tuple(BY_ID[i] for i in JAX_JVP_IDS)


JaxJvp = tuple[NDArray, NDArray, tuple[NDArray, ...], tuple[NDArray, ...]]


@functools.cache
def jax_jvps() -> dict[str, JaxJvp]:
    """``jax.jvp`` of the ``JAX_JVP_ROWS`` in one jitted program: primal and
    tangent outputs with the operands and tangents used."""
    inputs: list[tuple[tuple[NDArray, ...], tuple[NDArray, ...]]] = []
    for r in JAX_JVP_ROWS:
        rng = rng_for(r.id, "jvp-jax")
        args = make_args(rng, r, jvp_dtype(r))
        inputs.append((args, make_tangents(rng, args)))

    def program(operands: list[tuple[Any, ...]], float_tangents: list[tuple[Any, ...]]) -> list[Any]:
        # float0 tangents cannot be jit arguments: they are constants.
        outs: list[Any] = []
        for r, args, (_, tangents), ts in zip(JAX_JVP_ROWS, operands, inputs, float_tangents):
            merged = tuple(t if t.dtype == FLOAT0 else traced for t, traced in zip(tangents, ts))
            outs.append(jax.jvp(theirs(r), args, merged))
        return outs

    operands = [args for args, _ in inputs]
    float_tangents = [tuple(t if t.dtype != FLOAT0 else np.zeros((), np.float32) for t in ts) for _, ts in inputs]
    outs = jax.jit(program)(operands, float_tangents)
    return {
        r.id: (np.asarray(p), np.asarray(t), args, tangents)
        for r, (p, t), (args, tangents) in zip(JAX_JVP_ROWS, outs, inputs)
    }


@pytest.mark.parametrize(
    ("row", "dtype"), [param(r, jvp_dtype(r), marks=marks_for("jvp_jax", r)) for r in JAX_JVP_ROWS]
)
def test_jvp_matches_jax(row: Row, dtype: str) -> None:
    jax_primal, jax_tangent, args, tangents = jax_jvps()[row.id]
    assert all(a.dtype == np.dtype(arg.dtype or dtype) for a, arg in zip(args, row.args))
    primal, tangent = jt.jvp(ours(row), args, tangents)
    assert_matches(primal, jax_primal)
    assert_matches(tangent, jax_tangent, rtol=1e-4)


# === 3. vmap vs a Python loop ===


@dataclass(frozen=True)
class Variant:
    in_axes: tuple[int | None, ...]
    out_axes: int = 0
    axis_size: int | None = None

    def __str__(self) -> str:
        axes = ",".join("N" if a is None else str(a) for a in self.in_axes)
        size = "" if self.axis_size is None else f"-size{self.axis_size}"
        return f"in({axes})-out{self.out_axes}{size}"


def _fit_axis(axis: int, rank: int) -> int:
    # ``axis`` of the batched operand (rank + 1) if it exists, else -1.
    return axis if -(rank + 1) <= axis <= rank else -1


def variants(row: Row) -> list[Variant]:
    """All operands batched at 0, 1, -1; each operand alone batched (at 0 or
    -1, the others unbatched); the first two of three or more; out_axes=1;
    nothing batched, with axis_size."""
    ranks = [len(a.shape) for a in row.args]
    n = len(ranks)
    found = [Variant(tuple(_fit_axis(axis, r) for r in ranks)) for axis in (0, 1, -1)] if n else []
    if n > 1:
        found += [
            Variant(tuple(_fit_axis(-(i % 2), r) if i == j else None for j, r in enumerate(ranks)))
            for i in range(n)
        ]
    if n > 2:  # several, but not all
        found.append(Variant(tuple(_fit_axis(1 - 2 * j, r) if j < 2 else None for j, r in enumerate(ranks))))
    if n and len(jax_out_type(row.id, row.dtypes[0])[0]) >= 1:
        found.append(Variant((0,) * n, out_axes=1))
    found.append(Variant((None,) * n, axis_size=B))
    return list(dict.fromkeys(found))


def _loop(f: Fn, examples: list[list[NDArray]], v: Variant) -> NDArray:
    outs: list[NDArray] = []
    for b in range(B):
        call = [ex[b] if axis is not None else ex[0] for ex, axis in zip(examples, v.in_axes)]
        outs.append(np.asarray(f(*call)))
    return np.stack(outs, axis=v.out_axes)


@pytest.mark.parametrize(("row", "variant"), [param(r, v) for r in ROWS for v in variants(r)])
def test_vmap_matches_loop(row: Row, variant: Variant) -> None:
    rng = rng_for(row.id, "vmap", str(variant))
    examples = [[make_value(rng, arg, row.dtypes[0]) for _ in range(B)] for arg in row.args]
    batched = [np.stack(ex, axis) if axis is not None else ex[0] for ex, axis in zip(examples, variant.in_axes)]
    f = ours(row)
    got = jt.vmap(f, in_axes=variant.in_axes, out_axes=variant.out_axes, axis_size=variant.axis_size)(*batched)
    assert_matches(got, _loop(f, examples, variant))


# === 4. staged vs eager ===


def staged_dtypes(row: Row) -> list[str]:
    return list(dict.fromkeys((row.dtypes[0], row.dtypes[-1])))


@pytest.mark.parametrize(("row", "dtype"), [param(r, d) for r in ROWS for d in staged_dtypes(r)])
def test_staged_matches_eager(row: Row, dtype: str) -> None:
    args = make_args(rng_for(row.id, dtype, "staged"), row, dtype)
    f = ours(row)
    closed = jt.make_jaxpr(f)(*args)
    jt.core.check_closed_jaxpr(closed)
    (staged,) = jt.core.eval_jaxpr(closed.jaxpr, closed.consts, *(jtnp.asarray(a) for a in args))
    eager = f(*args)
    assert_matches(staged, eager, rtol=0.0)
    assert staged.weak_type == eager.weak_type


# === 5. second order ===


@pytest.mark.parametrize(
    "row", [param(r, marks=marks_for("second", r)) for r in ROWS if r.elementwise and r.diff]
)
@pytest.mark.usefixtures("x64")
def test_second_order_matches_finite_differences(row: Row) -> None:
    rng = rng_for(row.id, "second")
    args = make_args(rng, row, "float64")
    inner = make_tangents(rng, args)
    outer = make_tangents(rng, args)
    f = ours(row)

    def first(*xs: Any) -> Any:
        return jt.jvp(f, xs, inner)[1]

    _, second = jt.jvp(first, args, outer)
    assert_matches_finite_differences(second, first, args, outer)


# === compositions: symbolic zero tangents, vmap of jvp, staged jvp ===


def partial_params() -> list[Any]:
    """(row, i) for rows with two or more inexact operands: differentiate
    with respect to operand i alone (the others are constants)."""
    params: list[Any] = []
    for r in ROWS:
        inexact = [i for i, a in enumerate(r.args) if a.dtype is None or a.dtype.startswith("float")]
        if r.diff and r.finite_differences and float_dtype(r) == "float64" and len(inexact) > 1:
            params += [param(r, i, marks=marks_for("jvp", r)) for i in inexact]
    return params


@pytest.mark.parametrize(("row", "i"), partial_params())
@pytest.mark.usefixtures("x64")
def test_jvp_in_one_operand_matches_finite_differences(row: Row, i: int) -> None:
    rng = rng_for(row.id, "partial", i)
    args = make_args(rng, row, "float64")
    f = ours(row)

    def only_i(x: Any) -> Any:
        return f(*args[:i], x, *args[i + 1 :])

    (t,) = make_tangents(rng, args[i : i + 1])
    _, tangent = jt.jvp(only_i, (args[i],), (t,))
    assert_matches_finite_differences(tangent, only_i, (args[i],), (t,))


def _jvp_of(f: Fn, n: int) -> Fn:
    """``(primals..., tangents...) -> (primal_out, tangent_out)``."""

    def pushforward(*xs: Any) -> Any:
        return jt.jvp(f, tuple(xs[:n]), tuple(xs[n:]))

    return pushforward


COMPOSITION_ROWS = [r for r in ROWS if r.args and r.diff]


@pytest.mark.parametrize("row", [param(r, marks=marks_for("jvp", r)) for r in COMPOSITION_ROWS])
def test_vmap_of_jvp_matches_loop(row: Row) -> None:
    rng = rng_for(row.id, "vmap-jvp")
    dtype = "float32" if "float32" in row.dtypes else row.dtypes[0]
    examples = [make_args(rng, row, dtype) for _ in range(B)]
    tangents = [make_tangents(rng, ex) for ex in examples]
    n = len(row.args)
    # float0 tangents stay unbatched (one per operand), the rest are batched.
    stacked = [np.stack([ex[k] for ex in examples]) for k in range(n)]
    stacked_t = [tangents[0][k] if tangents[0][k].dtype == FLOAT0 else np.stack([t[k] for t in tangents]) for k in range(n)]
    in_axes = (0,) * n + tuple(None if t.dtype == FLOAT0 else 0 for t in stacked_t)
    pushforward = _jvp_of(ours(row), n)
    primal, tangent = jt.vmap(pushforward, in_axes=in_axes)(*stacked, *stacked_t)
    loop = [pushforward(*ex, *(t if t.dtype == FLOAT0 else tb for t, tb in zip(stacked_t, tangents[b]))) for b, ex in enumerate(examples)]
    assert_matches(primal, np.stack([np.asarray(p) for p, _ in loop]))
    assert_matches(tangent, np.stack([np.asarray(t) for _, t in loop]))


@pytest.mark.parametrize("row", [param(r, marks=marks_for("jvp", r)) for r in COMPOSITION_ROWS])
def test_staged_jvp_matches_eager_jvp(row: Row) -> None:
    rng = rng_for(row.id, "staged-jvp")
    args = make_args(rng, row, "float32" if "float32" in row.dtypes else row.dtypes[0])
    tangents = make_tangents(rng, args)
    float_positions = [k for k, t in enumerate(tangents) if t.dtype != FLOAT0]

    def pushforward(*xs: Any) -> Any:
        ts = list(tangents)
        for k, x in zip(float_positions, xs[len(args) :]):
            ts[k] = x
        return jt.jvp(ours(row), tuple(xs[: len(args)]), tuple(ts))

    inputs = [*args, *(tangents[k] for k in float_positions)]
    closed = jt.make_jaxpr(pushforward)(*inputs)
    jt.core.check_closed_jaxpr(closed)
    staged = jt.core.eval_jaxpr(closed.jaxpr, closed.consts, *(jtnp.asarray(x) for x in inputs))
    eager = pushforward(*inputs)
    assert len(staged) == 2
    for got, want in zip(staged, eager):
        assert_matches(got, want, rtol=0.0)


# === table coverage ===


class _Recorder:
    """A stand-in for the ``lax`` module that records the names used."""

    def __init__(self) -> None:
        self.seen: set[str] = set()

    def __getattr__(self, name: str) -> Any:
        self.seen.add(name)
        return getattr(lax, name)


def test_table_covers_every_lax_function() -> None:
    recorder = _Recorder()
    for row in ROWS:
        row.fn(recorder, *eager_args(row, row.dtypes[0]))
    # The primitive objects (add_p, ...) are handles, not operations: tests/extend/test_jaxprs.py checks them.
    missing = {name for name in lax.__all__ if not name.endswith("_p")} - recorder.seen
    assert not missing, f"lax names without a row: {sorted(missing)}"
