"""Result types of the callbacks family (issue 16): debug.print, debug.log
and debug.callback return None (a DebugPrinter for the two-call form's
first call); pure_callback and io_callback return Array for
one shape struct, a tuple, list or dict of Arrays for those containers of
structs, None for None."""

import numpy as np
from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.experimental import io_callback
from jaxtyped.typing import Array


def host(x: Array) -> np.ndarray:
    return np.asarray(x)


def check(x: Array) -> None:
    spec = jt.ShapeDtypeStruct((3,), jnp.float32)
    assert_type(jt.debug.print("{}", x), None)
    assert_type(jt.debug.print("{}", x, skip_format_check=True, partitioned=False), None)
    assert_type(jt.debug.print(ordered=True), jt.debug.DebugPrinter)
    assert_type(jt.debug.print(ordered=True)("{x}", x=x), None)
    assert_type(jt.debug.log("{}", x), None)
    assert_type(jt.debug.log(ordered=True)("{}", x), None)
    assert_type(jt.debug.callback(host, x, ordered=True), None)
    assert_type(jt.pure_callback(host, spec, x), Array)
    assert_type(jt.pure_callback(host, (spec, spec), x, vmap_method="expand_dims"), tuple[Array, ...])
    assert_type(jt.pure_callback(host, [spec], x), list[Array])
    assert_type(jt.pure_callback(host, {"a": spec}, x), dict[str, Array])
    assert_type(jt.pure_callback(host, None, x), None)
    assert_type(io_callback(host, spec, x, ordered=True), Array)
    assert_type(io_callback(host, None, x), None)
    assert_type(jt.effects_barrier(), None)
