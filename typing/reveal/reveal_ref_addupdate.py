"""Types around ``ref[idx] += v``: the read is an Array and stays one
after ``+=`` (``Array.__iadd__``); the ref keeps its type."""

from typing_extensions import assert_type

import jaxtyped as jt
from jaxtyped.typing import Array


def check(ref: jt.Ref[Array], v: Array) -> None:
    ref[0] += v
    assert_type(ref, jt.Ref[Array])
    y = ref[1]
    y += 2.0
    assert_type(y, Array)
    assert_type(v.__iadd__(1), Array)
