"""make_jaxpr of a function closing over a ref (issue 16 item 5): the
result is a ClosedJaxpr (a plain annotation takes it) whose consts hold
the Ref itself; narrowing a const to a Ref or an Array; evaluating the
closed jaxpr, which updates the ref."""

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.core import ClosedJaxpr
from jaxtyped.typing import Array

x_ref = jt.new_ref(jnp.zeros(3))


def write(v: Array) -> Array:
    x_ref[1] = v
    return x_ref[...] * 2


closed: ClosedJaxpr = jt.make_jaxpr(write)(jnp.float32(1.0))
precise: ClosedJaxpr[Array | jt.Ref[Array]] = jt.make_jaxpr(write)(jnp.float32(1.0))
for const in precise.consts:
    if isinstance(const, jt.Ref):
        value: Array = const[...]
    else:
        shape: tuple[int, ...] = const.shape
outs = jt.core.eval_jaxpr(closed.jaxpr, closed.consts, 5.0)
doubled: Array = outs[0]
again = jt.core.jaxpr_as_fun(closed)(6.0)
