"""Callbacks family (issue 16): debug.print and debug.callback under jit,
pure_callback with a shape struct (and pytrees of them), io_callback
ordered and not, effects_barrier; every call type-checks and runs."""

from typing import Any

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.experimental import io_callback
from jaxtyped.typing import Array, ArrayLike

HostArray = np.ndarray[Any, np.dtype[np.float32]]


def host_sin(x: Array) -> HostArray:
    return np.sin(np.asarray(x, dtype=np.float32))


def host_pair(x: Array) -> tuple[HostArray, HostArray]:
    return host_sin(x), host_sin(x)


def host_named(x: Array) -> dict[str, HostArray]:
    return {"a": host_sin(x)}


def tagged(v: Array, tag: str) -> None:
    assert tag == "tag"


def show(x: ArrayLike) -> Array:
    jt.debug.print("x = {}", x)
    jt.debug.print("{a} and {b:.2f}", a=x, b=1.5, ordered=True)
    jt.debug.callback(tagged, x, "tag")
    return jnp.sin(x)


def per_element(x: Array) -> Array:
    return jt.pure_callback(host_sin, jt.ShapeDtypeStruct((), jnp.float32), x, vmap_method="sequential")


def logged_sin(x: Array) -> Array:
    return io_callback(host_sin, jt.ShapeDtypeStruct((), jnp.float32), x)


y: Array = jt.jit(show)(jnp.arange(3.0))
s: Array = jt.pure_callback(host_sin, jt.ShapeDtypeStruct((3,), jnp.float32), jnp.arange(3.0))
v: Array = jt.vmap(per_element)(jnp.arange(3.0))
pair: tuple[Array, ...] = jt.pure_callback(host_pair, (jt.ShapeDtypeStruct((3,), jnp.float32),) * 2, jnp.arange(3.0))
named: dict[str, Array] = jt.pure_callback(host_named, {"a": jt.ShapeDtypeStruct((3,), jnp.float32)}, jnp.arange(3.0))
logged: list[float] = []


def log(x: Array) -> None:
    logged.append(float(np.asarray(x)))


io_callback(log, None, 1.0, ordered=True)
r: Array = jt.jit(logged_sin)(jnp.float32(2.0))
jt.effects_barrier()
assert logged == [1.0] and pair[0].shape == (3,) and named["a"].shape == (3,)
