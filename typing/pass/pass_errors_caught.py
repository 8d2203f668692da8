"""jaxtyped.errors exceptions are ordinary exception classes: they can be
caught with except, by their own class or by the builtin they extend."""

from collections.abc import Callable

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped import errors
from jaxtyped.typing import Array


def branchy(x: Array) -> Array:
    if x > 0:  # Python control flow on a traced value
        return x
    return -x


seen: dict[str, str] = {}


def expect_error(kind: type[Exception], label: str) -> None:
    seen[label] = kind.__name__


x = jnp.ones(3)

try:
    jt.jvp(jnp.sin, (x,), (jnp.ones(4),))
except errors.JaxtypedValueError as e:
    assert "shape" in str(e)
    expect_error(type(e), "jvp shapes")
else:
    raise AssertionError("expected JaxtypedValueError")

try:
    jt.make_jaxpr(branchy)(jnp.asarray(1.0))
except errors.ConcretizationTypeError as e:
    assert isinstance(e, errors.JaxtypedError)
    assert isinstance(e, TypeError)  # also a builtin TypeError
    expect_error(type(e), "concretization")
else:
    raise AssertionError("expected ConcretizationTypeError")

try:
    jt.vmap(jnp.add)(jnp.ones(2), jnp.ones(3))
except ValueError as e:  # JaxtypedValueError is a ValueError
    assert isinstance(e, errors.JaxtypedValueError)
    expect_error(type(e), "vmap sizes")

try:
    # An unknown name is also a static error; reach the run-time check anyway.
    update_any_name: Callable[[str, bool], None] = getattr(jt.config, "update")
    update_any_name("no_such_option", True)
except errors.JaxtypedError as e:
    expect_error(type(e), "config")
except Exception as e:  # in debug mode beartype rejects the name first
    assert jt.DEBUG, e
    seen["config"] = type(e).__name__

caught: list[type[errors.JaxtypedError]] = []
bad_calls: list[Callable[[], Array]] = [
    lambda: jnp.zeros(-1),
    lambda: jnp.ones(3).reshape(2, 2),
    lambda: jnp.ones(3) + jnp.ones(4),
]
for bad in bad_calls:
    try:
        bad()
    except (errors.JaxtypedTypeError, errors.JaxtypedValueError) as e:
        caught.append(type(e))
assert len(caught) == 3
assert seen["concretization"] == "TracerBoolConversionError"
assert set(seen) == {"jvp shapes", "concretization", "vmap sizes", "config"}
