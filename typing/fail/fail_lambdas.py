"""What the checkers cannot infer for unannotated lambdas (issue 20), kept
as known divergences so that a change is noticed: pyright gives a lambda
passed to jacfwd/jacrev an Array-bound parameter, so passing it to
a function annotated with a pytree type (or indexing it with a str) is
reported there (grad, value_and_grad and hessian give a lambda Any parameters); mypy
types the parameter Any and reports nothing. Write such code with ``def``
and annotations, or through a function taking ``Any``."""

from typing import Any

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array

params = {"w": jnp.ones(3), "b": jnp.zeros(())}


def loss(p: dict[str, Array]) -> Array:
    return jnp.sum(p["w"] ** 2) + p["b"]


jt.jacrev(lambda p: loss(p))(params)  # expect: pyright[reportArgumentType]
jt.jacfwd(lambda p: jnp.sum(p["w"] ** 2))(params)  # expect: pyright[reportArgumentType]


def any_loss(p: Any) -> Any:
    return jnp.sum(p["w"] ** 2)


# A derivative function takes any ArrayLike for the argument it
# differentiates; nested again, pyright solves that union to arrays, so a
# pytree argument of a twice-transformed Any/lambda function is reported.
jt.jacfwd(jt.jacrev(any_loss))(params)  # expect: pyright[reportArgumentType]
