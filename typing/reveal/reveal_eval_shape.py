"""jt.eval_shape's result follows the function's: one ShapeDtypeStruct for
an array-valued function, a tuple of them for a tuple, a dict for a dict,
object for other pytrees, Any for a function returning Any (a dict of
parameters built by an unannotated function, say)."""

from typing import Any

from typing_extensions import assert_type

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

spec = jt.ShapeDtypeStruct((2, 3), "float32")


def one(x: Array) -> Array:
    return jnp.sin(x)


def two(x: Array) -> tuple[Array, Array]:
    return x, x.sum()


def named(x: Array) -> dict[str, Array]:
    return {"x": x}


def nested(x: Array) -> list[list[Array]]:
    return [[x]]


def of_any(x: Any) -> Any:
    return {"w": x}


assert_type(jt.eval_shape(one, spec), jt.ShapeDtypeStruct)
assert_type(jt.eval_shape(two, spec), tuple[jt.ShapeDtypeStruct, ...])
assert_type(jt.eval_shape(named, spec), dict[str, jt.ShapeDtypeStruct])
assert_type(jt.eval_shape(nested, spec), object)
assert_type(jt.eval_shape(of_any, spec), Any)
assert_type(jt.eval_shape(one, spec).shape, tuple[int, ...])

# ensure_compile_time_eval is a context manager whose value is None.
with jt.ensure_compile_time_eval() as nothing:
    assert_type(nothing, None)
assert_type(jt.ensure_compile_time_eval().__enter__(), None)
