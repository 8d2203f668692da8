"""jaxtyped.extend and jaxtyped.ffi used as documented: a native typed
primitive (rules as typed methods), a JAX-form primitive with its
registries, built-in primitive handles and a hand-built jaxpr."""

from dataclasses import dataclass
from typing import final

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import ffi
from jaxtyped.extend import backend, core
from jaxtyped.extend import random as xrandom
from jaxtyped.extend.core import primitives
from jaxtyped.extend.interpreters import ad, batching, mlir


@final
@dataclass(frozen=True, slots=True)
class Double(core.TypedPrimitive):
    """2 * x."""

    name = "double_pass"

    def abstract_eval(self, avals: tuple[core.ShapedArray, ...]) -> tuple[core.ShapedArray, ...]:
        return avals

    def impl(self, args: tuple[core.NDArray, ...]) -> tuple[core.HostValue, ...]:
        return (args[0] * 2,)

    def jvp(
        self, primals: tuple[core.Array, ...], tangents: tuple[core.Tangent, ...]
    ) -> tuple[tuple[core.Array, ...], tuple[core.Tangent, ...]]:
        (t,) = tangents
        return (core.bind1(self, *primals),), (t if isinstance(t, core.Zero) else core.bind1(self, t),)

    def transpose(
        self, cts: tuple[core.Tangent, ...], args: tuple[core.LinearArg, ...]
    ) -> tuple[core.Tangent | None, ...]:
        (ct,) = cts
        return (ct if isinstance(ct, core.Zero) else core.bind1(self, ct),)

    def batch(
        self, axis: core.BatchAxis, args: tuple[core.Array, ...], dims: tuple[core.BatchDim, ...]
    ) -> tuple[tuple[core.Array, ...], tuple[core.BatchDim, ...]]:
        return core.bind(self, *args), dims

    def lower(
        self, ctx: core.LoweringContext, args: tuple[core.HloValue, ...], out_avals: tuple[core.ShapedArray, ...]
    ) -> tuple[core.HloValue, ...]:
        (x,) = args
        return (ctx.op1("stablehlo.add", (x, x), out_avals[0]),)


def double(x: jt.Array) -> jt.Array:
    return core.bind1(Double(), x)


def loss(v: jt.Array) -> jt.Array:
    return jnp.sum(double(v))


y: jt.Array = jt.grad(loss)(jnp.ones(3))

p = core.Primitive("pass_mul_add")
p.multiple_results = False


def mul_add_impl(a: core.NDArray, b: core.NDArray, c: core.NDArray) -> core.NDArray:
    return a * b + c


def mul_add_abstract(a: core.ShapedArray, b: core.ShapedArray, c: core.ShapedArray) -> core.ShapedArray:
    return core.ShapedArray(a.shape, a.dtype)


def mul_add_lowering(ctx: mlir.LoweringRuleContext, a: core.HloValue, b: core.HloValue, c: core.HloValue) -> list[core.HloValue]:
    return mlir.hlo.AddOp(mlir.hlo.MulOp(a, b), c).results


def tangent_of_c(t: core.Array, a: core.Array, b: core.Array, c: core.Array) -> core.Array:
    return t


p.def_impl(mul_add_impl)
p.def_abstract_eval(mul_add_abstract)
mlir.register_lowering(p, mul_add_lowering, platform="cpu")
ad.defjvp(p, None, None, tangent_of_c)
batching.defvectorized(p)
out: jt.Array | list[jt.Array] = p.bind(2, 3, 4)
same: bool = primitives.sin_p.matches(jt.make_jaxpr(jnp.sin)(1.0).eqns[0].primitive)

vec = core.ShapedArray((3,), np.dtype(np.float32))
a, b = core.Var(0, vec), core.Var(1, vec)
jaxpr = core.Jaxpr((), (a,), (b,), (core.new_jaxpr_eqn([a], [b], primitives.neg_p, {}),))
core.check_jaxpr(jaxpr)
values: list[jt.Array] = core.eval_jaxpr(jaxpr, (), np.ones(3, np.float32))
call = ffi.ffi_call("some_target", jt.ShapeDtypeStruct((3,), np.float32), vmap_method="sequential")
include: str = ffi.include_dir()


# A custom PRNG implementation (extend.random) and the backend.
def toy_seed(seed: jt.Array) -> jt.Array:
    return jnp.stack([seed.astype(jnp.uint32), seed.astype(jnp.uint32)])


def toy_split(key: jt.Array, shape: tuple[int, ...]) -> jt.Array:
    return jnp.broadcast_to(key, (*shape, 2))


def toy_bits(key: jt.Array, bit_width: int, shape: tuple[int, ...]) -> jt.Array:
    return jnp.zeros(shape, jnp.uint32)


def toy_fold_in(key: jt.Array, data: jt.Array) -> jt.Array:
    return key ^ data


toy = xrandom.define_prng_impl(key_shape=(2,), seed=toy_seed, split=toy_split, random_bits=toy_bits, fold_in=toy_fold_in, name="toy")
toy_key = jt.random.key(0, impl=toy)
toy_keys = jt.random.split(toy_key, 3)
wrapped = xrandom.random_wrap(xrandom.random_unwrap(toy_keys), impl=toy)
platform: str = backend.get_backend().platform
backend.clear_backends()

# extend.sharding: XLA's sharding protos and a jaxtyped sharding built from one.
from jaxtyped.extend import sharding as xsharding

tiled = xsharding.xla_client.HloSharding.from_string("{replicated}")  # runs on one device
proto_bytes: bytes = xsharding.get_serialized_proto_from_hlo_sharding(tiled)
gspmd = xsharding.GSPMDSharding(jt.devices()[:1], xsharding.get_op_sharding_from_serialized_proto(proto_bytes))
placed = jt.device_put(jnp.zeros((4, 3)), gspmd)
same = xsharding.hlo_sharding_of(gspmd, 2) == xsharding.get_hlo_sharding_from_serialized_proto(proto_bytes)
