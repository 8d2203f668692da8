"""Result types of jaxtyped.extend and jaxtyped.ffi."""

from collections.abc import Callable

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
from jaxtyped import ffi
from jaxtyped.extend import backend, core
from jaxtyped.extend import random as xrandom
from jaxtyped.typing import KeyArray
from jaxtyped.extend.core import primitives
from jaxtyped.extend.interpreters import mlir


def check(x: jt.Array, closed: core.ClosedJaxpr, jaxpr: core.Jaxpr) -> None:
    p = core.Primitive("reveal_p")
    assert_type(p.bind(x, x), jt.Array | list[jt.Array])
    assert_type(p.name, str)
    assert_type(p.multiple_results, bool)
    assert_type(primitives.add_p.bind(x, x), jt.Array | list[jt.Array])
    assert_type(primitives.add_p.name, str)
    assert_type(core.eval_jaxpr(jaxpr, (), x), list[jt.Array])
    assert_type(core.jaxpr_as_fun(closed), Callable[..., list[jt.Array]])
    assert_type(core.check_jaxpr(jaxpr), None)
    assert_type(core.bind1(primitives.add_p.application(), x, x), jt.Array)
    # An equation's primitive applies itself as JAX's tutorial interpreter does.
    eqn = jaxpr.eqns[0]
    assert_type(eqn.primitive.bind(x, **eqn.params), jt.Array | list[jt.Array])
    assert_type(eqn.primitive.multiple_results, bool)
    assert_type(mlir.aval_to_ir_type(core.ShapedArray((), np.dtype(np.float32))), core.ShapedArray)
    assert_type(ffi.ffi_call("t", jt.ShapeDtypeStruct((), np.float32)), Callable[..., jt.Array | list[jt.Array]])
    assert_type(ffi.include_dir(), str)


def check_random(impl: xrandom.PRNGImpl, data: jt.Array) -> None:
    assert_type(jt.random.key(0, impl=impl), KeyArray)
    assert_type(xrandom.random_wrap(data, impl=impl), KeyArray)
    assert_type(xrandom.random_unwrap(jt.random.key(0)), jt.Array)
    assert_type(backend.get_backend(), backend.Backend)
    assert_type(backend.get_backend().platform, str)


def check_sharding(s: jt.sharding.Sharding, data: bytes) -> None:
    from jaxtyped.extend import sharding as xsharding

    hlo = xsharding.hlo_sharding_of(s, 2)
    assert_type(hlo, xsharding.HloShardingView)
    assert_type(xsharding.get_serialized_proto_from_hlo_sharding(hlo), bytes)
    assert_type(xsharding.get_hlo_sharding_from_serialized_proto(data), xsharding.HloShardingView)
    assert_type(xsharding.GSPMDSharding.get_replicated(jt.devices()), xsharding.GSPMDSharding)
    assert_type(xsharding.GSPMDSharding(jt.devices(), hlo).device_list, tuple[jt.sharding.Device, ...])


def check_hlo_builders(x: mlir.hlo.HloValue, i: mlir.hlo.HloValue) -> None:
    from jaxtyped.extend.interpreters.mlir import hlo

    assert_type(hlo.add(x, hlo.multiply(x, x)), hlo.HloValue)
    assert_type(hlo.while_([x], lambda c: hlo.compare(c[0], c[0], "LT"), lambda c: c), list[hlo.HloValue])
    assert_type(hlo.case([x.aval], i, [lambda: [x]]), list[hlo.HloValue])
    dn = hlo.GatherDimensionNumbers.get(offset_dims=[1], collapsed_slice_dims=[0], start_index_map=[0], index_vector_dim=1)
    assert_type(hlo.GatherOp(x, i, dn, [1, 3]).result, hlo.HloValue)
