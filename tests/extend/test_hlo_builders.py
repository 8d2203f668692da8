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


PRIMS = {
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
