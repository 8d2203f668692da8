"""JAX's keywords and positions, as JAX programs pass them, keep precise
result types: ``operand=`` on lax functions, ``backend=`` on the device
queries, ``make_jaxpr``'s ``axis_env`` (third positional, as in JAX),
``checkpoint``'s ``static_argnames``, ``device_put``'s ``donate`` /
``may_alias`` / ``src``, ``lax.dot``'s ``dimension_numbers`` and the
renamed parameters of ``new_ref``, ``ref.addupdate`` and
``dtypes.issubdtype``, and ``ShapeDtypeStruct``'s ``sharding``."""

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.lax as lax
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


def repeated_sin(x: Array, n: int) -> Array:
    for _ in range(n):
        x = jnp.sin(x)
    return x


def summed_over_i(v: Array) -> Array:
    return lax.psum(v, "i")


def check(x: Array, xs: list[Array]) -> None:
    assert_type(lax.reshape(operand=x, new_sizes=(2, 3)), Array)
    assert_type(lax.dynamic_slice(operand=x, start_indices=(0,), slice_sizes=(2,)), Array)
    assert_type(lax.convert_element_type(operand=x, new_dtype=jnp.int32), Array)
    assert_type(lax.reduce_sum(operand=x, axes=(0,)), Array)
    assert_type(lax.top_k(operand=x, k=2), tuple[Array, Array])
    assert_type(lax.dot(x, x, dimension_numbers=(((1,), (0,)), ((), ()))), Array)
    assert_type(lax.dynamic_index_in_dim(x, 0, allow_negative_indices=False), Array)

    assert_type(jt.devices("cpu"), list[jt.Device])
    assert_type(jt.local_devices(process_index=0, backend="cpu"), list[jt.Device])
    assert_type(jt.device_count(backend="cpu"), int)
    assert_type(jt.process_index("cpu"), int)

    jaxpr = jt.make_jaxpr(summed_over_i, axis_env=[("i", 4)])(x)
    assert_type(jaxpr, jt.core.ClosedJaxpr[Array | jt.Ref[Array]])
    assert_type(jt.make_jaxpr(repeated_sin, 1, [("i", 2)], True)(x, 2)[0], jt.core.ClosedJaxpr[Array | jt.Ref[Array]])

    remat_sin = jt.checkpoint(repeated_sin, static_argnames="n")
    assert_type(remat_sin(x, n=3), Array)

    assert_type(jt.device_put(x, jt.devices()[0], donate=True, may_alias=False), Array)
    assert_type(jt.device_put(xs, src=jt.devices()[0]), list[Array])

    assert_type(jnp.stack(xs, 0, None, jnp.float32), Array)
    assert_type(jnp.reshape(x, (6,), copy=True), Array)
    assert_type(jnp.asarray(x, jnp.float32, copy=False), Array)

    ref = jt.new_ref(init_val=x)
    jt.ref.addupdate(ref, None, x=x)
    assert_type(jt.freeze(ref), Array)
    assert_type(jt.dtypes.issubdtype(a=np.float32, b=np.floating), bool)
    stand_in = jt.ShapeDtypeStruct((2,), jnp.float32, sharding=jt.sharding.SingleDeviceSharding(jt.devices()[0]))
    assert_type(stand_in.sharding, jt.sharding.Sharding | None)
    key = jt.random.key(0)
    assert_type(jt.random.key(1, dtype=key.dtype), jt.random.KeyArray)
