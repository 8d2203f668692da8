"""Misuse of jaxtyped.extend both checkers reject: a native primitive's
rule with the wrong signature, a wrong result of a JAX-form bind, bad
arguments to the registries and to ffi_call."""

from dataclasses import dataclass
from typing import final

import numpy as np

import jaxtyped as jt
from jaxtyped import ffi
from jaxtyped.extend import core
from jaxtyped.extend import random as xrandom
from jaxtyped.extend.interpreters import mlir


@final
@dataclass(frozen=True, slots=True)
class WrongAbstractEval(core.TypedPrimitive):
    name = "wrong_abstract_eval"

    def abstract_eval(self, avals: list[core.ShapedArray]) -> core.ShapedArray:  # expect: mypy[override] pyright[reportIncompatibleMethodOverride]
        return avals[0]


@final
@dataclass(frozen=True, slots=True)
class WrongJvp(core.TypedPrimitive):
    name = "wrong_jvp"

    def abstract_eval(self, avals: tuple[core.ShapedArray, ...]) -> tuple[core.ShapedArray, ...]:
        return avals

    def jvp(self, primals: tuple[core.Array, ...]) -> tuple[core.Array, ...]:  # expect: mypy[override] pyright[reportIncompatibleMethodOverride]
        return primals


@final
@dataclass(frozen=True, slots=True)
class WrongLower(core.TypedPrimitive):
    name = "wrong_lower"

    def abstract_eval(self, avals: tuple[core.ShapedArray, ...]) -> tuple[core.ShapedArray, ...]:
        return avals

    def lower(self, ctx: core.LoweringContext, args: tuple[core.HloValue, ...], out_avals: tuple[core.ShapedArray, ...]) -> str:  # expect: mypy[override] pyright[reportIncompatibleMethodOverride]
        return ""


p = core.Primitive("fail_p")
single: jt.Array = p.bind(1.0)  # expect: mypy[assignment] pyright[reportAssignmentType]
core.Primitive(3)  # expect: mypy[arg-type] pyright[reportArgumentType]


def rule(ctx: mlir.LoweringRuleContext, x: core.HloValue) -> list[core.HloValue]:
    return [x]


mlir.register_lowering("fail_p", rule)  # expect: mypy[arg-type] pyright[reportArgumentType]
mlir.register_lowering(p, rule, platform=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
core.ShapedArray((3,), np.dtype(np.float32)).shape = (2,)  # expect: mypy[misc] pyright[reportAttributeAccessIssue]
ffi.ffi_call("t", jt.ShapeDtypeStruct((), np.float32), vmap_method="loop")  # expect: mypy[arg-type] pyright[reportArgumentType]
ffi.register_ffi_target(3, object())  # expect: mypy[arg-type] pyright[reportArgumentType]

xrandom.random_wrap(np.zeros((2,), np.uint32), impl=3)  # expect: mypy[arg-type] pyright[reportArgumentType]
xrandom.define_prng_impl(key_shape=2, seed=None, split=None, random_bits=None, fold_in=None)  # expect: mypy[arg-type] pyright[reportArgumentType]

from jaxtyped.extend import sharding as xsharding

xsharding.hlo_sharding_of("{replicated}", 1)  # expect: mypy[arg-type] pyright[reportArgumentType]
xsharding.GSPMDSharding(jt.devices(), "{replicated}")  # expect: mypy[arg-type] pyright[reportArgumentType]
xsharding.get_hlo_sharding_from_serialized_proto("{replicated}")  # expect: mypy[arg-type] pyright[reportArgumentType]
mlir.hlo.add(1.0, 2.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
mlir.hlo.GatherDimensionNumbers.get(offset_dims=[1], collapsed_slice_dims=[0], start_index_map=[0])  # expect: mypy[call-arg] pyright[reportCallIssue]
