"""Result types of ``jaxtyped.ds``: ``ds(None)`` is a plain ``slice``, any
other start a ``Slice`` (the class is JAX's private ``Slice``, reached here
through its module); arrays and refs accept it, alone or in a tuple, and
give ``Array``."""

from typing_extensions import assert_type

import numpy as np

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped._src.core.array import Slice
from jaxtyped.typing import Array


def check(x: Array, i: Array, r: jt.Ref[Array]) -> None:
    assert_type(jt.ds(None), slice)
    assert_type(jt.ds(3), Slice)
    assert_type(jt.ds(i, 2), Slice)
    assert_type(jt.ds(np.int32(1), 2, 3), Slice)
    assert_type(jt.ds(i, 2).stride, int)
    assert_type(x[jt.ds(i, 2)], Array)
    assert_type(x[jt.ds(i, 2), 1:, None], Array)
    assert_type(x.at[jt.ds(i, 2)].set(0.0), Array)
    assert_type(r[jt.ds(i, 2)], Array)
    assert_type(r[1, jt.ds(i, 2)], Array)
    r[jt.ds(i, 2)] = jnp.zeros(2)
    r[jt.ds(i, 2)] += 1.0
    assert_type(jt.ref.swap(r, jt.ds(i, 2), jnp.zeros(2)), Array)
    assert_type(jt.jit(step)(x, i), Array)


def step(x: Array, i: Array) -> Array:
    ref = jt.new_ref(x)
    ref[jt.ds(i, 2)] += ref[jt.ds(i + 1, 2)]
    return jt.freeze(ref)
