# pyright: reportUnknownLambdaType=false, reportUnknownArgumentType=false, reportUnknownMemberType=false
# (JAX-form impl and abstract-eval rules are untyped lambdas, as JAX users write them.)
"""The ``mlir.hlo`` op builders: a primitive lowered with each builder
gives under ``jit`` what its NumPy impl gives eagerly."""

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import jaxtyped as jt
from jaxtyped import errors
from jaxtyped.extend import core
from jaxtyped.extend.interpreters import mlir
from jaxtyped.extend.interpreters.mlir import LoweringRuleContext, hlo

F32 = np.dtype(np.float32)
X = np.arange(-3.0, 3.0, dtype=np.float32).reshape(2, 3)
Y = np.arange(12.0, dtype=np.float32).reshape(3, 4) / 7


def primitive(
    name: str,
    impl: Callable[..., Any],
    out: Callable[..., core.ShapedArray],
    lowering: Callable[..., Any],
) -> core.Primitive:
    p = core.Primitive(name)
    p.def_impl(impl)
    p.def_abstract_eval(out)
    mlir.register_lowering(p, lowering)
    return p


def same(x: core.ShapedArray, *_: core.ShapedArray) -> core.ShapedArray:
    return core.ShapedArray(x.shape, x.dtype)


def _relu(ctx: LoweringRuleContext, x: hlo.HloValue) -> list[hlo.HloValue]:
    zero = hlo.BroadcastInDimOp(mlir.aval_to_ir_type(ctx.avals_out[0]), hlo.ConstantOp(np.float32(0.0)), [])
    return hlo.SelectOp(hlo.CompareOp(x, zero, hlo.ComparisonDirectionAttr.get("GT")), x, zero).results


def _sum0(ctx: LoweringRuleContext, x: hlo.HloValue) -> list[hlo.HloValue]:
    return hlo.ReduceOp([x], [mlir.ir_constant(np.float32(0.0))], [0], lambda acc, el: [hlo.AddOp(acc[0], el[0])]).results


def _matmul(ctx: LoweringRuleContext, x: hlo.HloValue, y: hlo.HloValue) -> list[hlo.HloValue]:
    dn = hlo.DotDimensionNumbers.get(lhs_contracting_dimensions=[1], rhs_contracting_dimensions=[0])
    return hlo.DotGeneralOp(ctx.avals_out[0], x, y, dn).results


def _misc(ctx: LoweringRuleContext, x: hlo.HloValue) -> list[hlo.HloValue]:
    # transpose (3, 2), reshape (6,), slice [1:5:2], concatenate with an iota (2,), convert to int32.
    t = hlo.TransposeOp(x, [1, 0])
    r = hlo.ReshapeOp(core.ShapedArray((6,), F32), t)
    s = hlo.SliceOp(r, [1], [5], [2])
    i = hlo.IotaOp(core.ShapedArray((2,), F32), 0)
    c = hlo.ConcatenateOp([s, hlo.ExpOp(i)], 0)
    return hlo.ConvertOp(core.ShapedArray((4,), np.dtype(np.int32)), hlo.MulOp(c, hlo.ConstantOp(np.full(4, 10, np.float32)))).results


def _lowercase(ctx: LoweringRuleContext, x: hlo.HloValue) -> list[hlo.HloValue]:
    # JAX's lower-case forms: relu(x) * 2 + exp(x) - tanh(x), as values.
    zero = hlo.broadcast_in_dim(mlir.aval_to_ir_type(ctx.avals_out[0]), hlo.constant(np.float32(0.0)), [])
    relu = hlo.select(hlo.compare(x, zero, "GT"), x, zero)
    twice = hlo.add(relu, relu)
    return [hlo.subtract(hlo.add(twice, hlo.exponential(x)), hlo.tanh(hlo.maximum(x, hlo.negate(hlo.abs(x)))))]


def _while(ctx: LoweringRuleContext, x: hlo.HloValue) -> list[hlo.HloValue]:
    # Doubles x three times: a counter and the value as the carry.
    def cond(carry: list[hlo.HloValue]) -> hlo.HloValue:
        return hlo.compare(carry[0], hlo.constant(np.int32(3)), "LT")

    def body(carry: list[hlo.HloValue]) -> list[hlo.HloValue]:
        return [hlo.add(carry[0], hlo.constant(np.int32(1))), hlo.add(carry[1], carry[1])]

    return hlo.while_([hlo.constant(np.int32(0)), x], cond, body)[1:]


def _case(ctx: LoweringRuleContext, i: hlo.HloValue, x: hlo.HloValue) -> list[hlo.HloValue]:
    branches = [lambda: [hlo.add(x, x)], lambda: [hlo.multiply(x, x)], lambda: [hlo.negate(x)]]
    return hlo.CaseOp(ctx.avals_out, i, branches).results


def _case_impl(i: Any, x: Any) -> Any:
    k = int(i)
    k = k if 0 <= k < 3 else 2  # StableHLO runs the last branch for an out-of-range index
    return [x + x, x * x, -x][k]


ROWS_DNUMS = hlo.GatherDimensionNumbers.get(offset_dims=[1], collapsed_slice_dims=[0], start_index_map=[0], index_vector_dim=1)


def _gather_rows(ctx: LoweringRuleContext, x: hlo.HloValue, idx: hlo.HloValue) -> list[hlo.HloValue]:
    return [hlo.gather(x, idx, ROWS_DNUMS, [1, 3])]


def _gather_windows(ctx: LoweringRuleContext, x: hlo.HloValue, idx: hlo.HloValue) -> list[hlo.HloValue]:
    # 2x2 windows of x at the (row, col) starts in idx: result (n, 2, 2).
    dn = hlo.GatherDimensionNumbers.get(offset_dims=[1, 2], collapsed_slice_dims=[], start_index_map=[0, 1], index_vector_dim=1)
    return hlo.GatherOp(x, idx, dn, [2, 2]).results


ROW_IDX = np.array([[1], [0], [1]], np.int32)
WIN_IDX = np.array([[0, 0], [0, 1]], np.int32)

PRIMS = {
    "lowercase": (
        primitive(
            "lowercase_h",
            lambda x: np.maximum(x, 0) * 2 + np.exp(x) - np.tanh(np.maximum(x, -np.abs(x))),
            same,
            _lowercase,
        ),
        (X,),
    ),
    "while": (primitive("while_h", lambda x: x * 8, same, _while), (X,)),
    "case-1": (primitive("case_h", _case_impl, lambda i, x: core.ShapedArray(x.shape, x.dtype), _case), (np.int32(1), X)),
    "case-out-of-range": (primitive("case_h2", _case_impl, lambda i, x: core.ShapedArray(x.shape, x.dtype), _case), (np.int32(7), X)),
    "gather-rows": (
        primitive("gather_rows_h", lambda x, i: x[i[:, 0]], lambda x, i: core.ShapedArray((3, 3), x.dtype), _gather_rows),
        (X, ROW_IDX),
    ),
    "gather-windows": (
        primitive(
            "gather_windows_h",
            lambda x, i: np.stack([x[r : r + 2, c : c + 2] for r, c in np.asarray(i)]),
            lambda x, i: core.ShapedArray((2, 2, 2), x.dtype),
            _gather_windows,
        ),
        (X, WIN_IDX),
    ),
    "relu": (primitive("relu_h", lambda x: np.maximum(x, 0), same, _relu), (X,)),
    "sum0": (primitive("sum0_h", lambda x: x.sum(0), lambda x: core.ShapedArray(x.shape[1:], x.dtype), _sum0), (X,)),
    "matmul": (
        primitive("matmul_h", lambda x, y: x @ y, lambda x, y: core.ShapedArray((x.shape[0], y.shape[1]), x.dtype), _matmul),
        (X, Y),
    ),
    "misc": (
        primitive(
            "misc_h",
            lambda x: (np.concatenate([x.T.reshape(6)[1:5:2], np.exp(np.arange(2, dtype=np.float32))]) * 10).astype(np.int32),
            lambda x: core.ShapedArray((4,), np.dtype(np.int32)),
            _misc,
        ),
        (X,),
    ),
}


@pytest.mark.parametrize("name", sorted(PRIMS))
def test_builder_lowering_matches_impl(name: str) -> None:
    prim, args = PRIMS[name]
    eager = prim.bind(*args)
    jitted = jt.jit(prim.bind)(*args)
    assert isinstance(eager, jt.Array) and isinstance(jitted, jt.Array)
    assert eager.dtype == jitted.dtype and eager.shape == jitted.shape
    np.testing.assert_allclose(np.asarray(jitted), np.asarray(eager), rtol=1e-6)


def test_builders_check_their_operands() -> None:
    def bad_add(ctx: LoweringRuleContext, x: hlo.HloValue) -> list[hlo.HloValue]:
        return hlo.AddOp(x, hlo.ConstantOp(np.float32(1.0))).results

    p = primitive("bad_add_h", lambda x: x + 1, same, bad_add)
    with pytest.raises(errors.JaxtypedTypeError, match=r"hlo.AddOp: operands must have one type, got f32\[2,3\] vs f32\[\]"):
        jt.jit(p.bind)(X)

    def bad_transpose(ctx: LoweringRuleContext, x: hlo.HloValue) -> list[hlo.HloValue]:
        return hlo.TransposeOp(x, [0, 0]).results

    q = primitive("bad_transpose_h", lambda x: x, same, bad_transpose)
    with pytest.raises(errors.JaxtypedValueError, match="not a permutation"):
        jt.jit(q.bind)(X)
    with pytest.raises(errors.JaxtypedValueError, match="ComparisonDirection|comparison direction"):
        hlo.ComparisonDirectionAttr.get("LTE")


def test_gather_builder_matches_jax_gather() -> None:
    """The dimension numbers mean what ``jax.lax.gather``'s mean."""
    from oracle import jax

    prim, args = PRIMS["gather-windows"]
    theirs = jax.lax.gather(
        X, WIN_IDX,
        jax.lax.GatherDimensionNumbers(offset_dims=(1, 2), collapsed_slice_dims=(), start_index_map=(0, 1)),
        slice_sizes=(2, 2),
    )  # fmt: skip
    np.testing.assert_array_equal(np.asarray(jt.jit(prim.bind)(*args)), np.asarray(theirs))


def test_lowercase_names_are_jaxs() -> None:
    """Every lower-case builder has JAX's ``hlo`` name."""
    import importlib

    theirs = importlib.import_module("jax._src.lib.mlir.dialects").hlo
    ours = [n for n in hlo.__all__ if n[0].islower() and n != "constant"]
    assert len(ours) >= 50
    assert [n for n in ours if not hasattr(theirs, n)] == []


def test_control_flow_builders_check_regions() -> None:
    def bad_body(ctx: LoweringRuleContext, x: hlo.HloValue) -> list[hlo.HloValue]:
        return hlo.while_([x], lambda c: hlo.compare(c[0], c[0], "LT"), lambda c: [hlo.convert(core.ShapedArray((2, 3), np.dtype(np.int32)), c[0])])

    p = primitive("bad_while_h", lambda x: x, same, bad_body)
    with pytest.raises(errors.JaxtypedTypeError, match=r"hlo.WhileOp (cond|body): a region returned"):
        jt.jit(p.bind)(X)

    def bad_index(ctx: LoweringRuleContext, x: hlo.HloValue) -> list[hlo.HloValue]:
        return hlo.case(ctx.avals_out, x, [lambda: [x]])

    q = primitive("bad_case_h", lambda x: x, same, bad_index)
    with pytest.raises(errors.JaxtypedTypeError, match=r"hlo.CaseOp: index must be a 0-d int32, got f32\[2,3\]"):
        jt.jit(q.bind)(X)

    def bad_sizes(ctx: LoweringRuleContext, x: hlo.HloValue, i: hlo.HloValue) -> list[hlo.HloValue]:
        return [hlo.gather(x, i, ROWS_DNUMS, [1, 4])]

    r = primitive("bad_gather_h", lambda x, i: x, lambda x, i: core.ShapedArray((3, 3), x.dtype), bad_sizes)
    with pytest.raises(errors.JaxtypedValueError, match=r"slice_sizes \[1, 4\] do not fit operand f32\[2,3\]"):
        jt.jit(r.bind)(X, ROW_IDX)
