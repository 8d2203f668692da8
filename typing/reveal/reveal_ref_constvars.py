"""Types of make_jaxpr's result when the function closes over refs (issue
16 item 5): consts are Arrays or Refs; evaluation gives Arrays."""

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.core import ClosedJaxpr
from jaxtyped.typing import Array


def check(x: Array) -> None:
    x_ref = jt.new_ref(jnp.zeros(3))

    def write(v: Array) -> None:
        x_ref[0] = v

    closed = jt.make_jaxpr(write)(x)
    assert_type(closed, ClosedJaxpr[Array | jt.Ref[Array]])
    assert_type(closed.consts, tuple[Array | jt.Ref[Array], ...])
    assert_type(closed.literals, tuple[Array | jt.Ref[Array], ...])
    assert_type(jt.core.eval_jaxpr(closed.jaxpr, closed.consts, x), tuple[Array, ...])
    const = closed.consts[0]
    if isinstance(const, jt.Ref):
        assert_type(const, jt.Ref[Array])
    else:
        assert_type(const, Array)
