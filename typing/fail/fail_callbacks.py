"""Callbacks family misuse both checkers reject (issue 16): a format that
is not a string, a callback that is not callable, an unknown vmap_method,
an ordered flag that is not a bool, and results used at the wrong type."""

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.experimental import io_callback
from jaxtyped.typing import Array

x = jnp.arange(3.0)
spec = jt.ShapeDtypeStruct((3,), jnp.float32)


def host(v: Array) -> np.ndarray:
    return np.asarray(v)


jt.debug.print(42, x)  # expect: mypy[call-overload] pyright[reportArgumentType]
jt.debug.print("{}", x, ordered="yes")  # expect: mypy[call-overload] pyright[reportArgumentType]
jt.debug.callback("host", x)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.pure_callback(host, spec, x, vmap_method="vectorized")  # expect: mypy[call-overload] pyright[reportCallIssue, reportArgumentType]
jt.pure_callback(3, spec, x)  # expect: mypy[call-overload] pyright[reportCallIssue, reportArgumentType]
io_callback(host, spec, x, ordered="no")  # expect: mypy[call-overload] pyright[reportCallIssue, reportArgumentType]
y: int = jt.pure_callback(host, spec, x)  # expect: mypy[assignment] pyright[reportAssignmentType]
z: Array = jt.debug.print("{}", x)  # expect: mypy[assignment] pyright[reportAssignmentType]
w: Array = jt.pure_callback(host, (spec,), x)  # expect: mypy[assignment] pyright[reportAssignmentType]
