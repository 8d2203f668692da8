"""Types of the ref API (seed 003): refs are Ref[Array], reads are Arrays,
swap returns the old value, addupdate and writes return None, freeze
gives the final Array."""

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


def check(x: Array) -> None:
    ref = jt.new_ref(x)
    assert_type(ref, jt.Ref[Array])
    assert_type(jt.ref.new_ref(1.0), jt.Ref[Array])
    assert_type(ref[...], Array)
    assert_type(ref[0], Array)
    assert_type(ref[jnp.array([0, 1]), 1:], Array)
    assert_type(jt.ref.get(ref, ...), Array)
    assert_type(jt.ref.swap(ref, 0, 1.0), Array)
    assert_type(jt.ref.addupdate(ref, (), x), None)
    assert_type(jt.freeze(ref), Array)
    assert_type(ref.shape, tuple[int, ...])
    assert_type(ref.ndim, int)
    assert_type(ref.unsafe_buffer_pointer(), int)
