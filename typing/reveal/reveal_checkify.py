"""Result types of ``jaxtyped.experimental.checkify``: ``checkify(f)`` keeps
``f``'s parameters and returns ``tuple[Error, R]`` for ``f`` returning ``R``;
``Error.get()`` is a message or None; the category sets are frozensets of
error categories."""

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.experimental import checkify
from jaxtyped.typing import Array


def step(x: Array, k: float) -> tuple[Array, dict[str, Array]]:
    checkify.check(x.sum() > 0, "x must be positive, got {}", x)
    return x * k, {"x": x}


def check(x: Array) -> None:
    checked = checkify.checkify(step, errors=checkify.all_checks)
    err, out = checked(x, 2.0)
    assert_type(err, checkify.Error)
    assert_type(out, tuple[Array, dict[str, Array]])
    assert_type(checkify.checkify(jnp.sin)(x)[1], Array)
    assert_type(jt.jit(checkify.checkify(step))(x, 1.0), tuple[checkify.Error, tuple[Array, dict[str, Array]]])
    assert_type(err.get(), str | None)
    assert_type(err.throw(), None)
    assert_type(checkify.check_error(err), None)
    assert_type(checkify.debug_check(x > 0, "msg"), None)
    assert_type(checkify.nan_checks | checkify.div_checks, frozenset[checkify.ErrorCategory])
    assert_type(checkify.init_error, checkify.Error)
