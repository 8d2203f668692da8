"""A jitted function keeps its parameters in both checkers: wrong argument
types, counts and keywords are rejected in every form of jt.jit (decorator,
``jit(f, static_argnums=...)``, ``functools.partial(jit, ...)``, methods via
an instance and through the class), as are its staging methods' misuse and
bad arguments to ``jit`` itself. A ``Jitted[Any, Any]`` (the mypy
degradation of an overloaded ``jit`` under ``partial``) would accept every
call below and fail this file."""

import functools
from collections.abc import Callable

import jaxtyped as jt
import jaxtyped.numpy as jnp
from jaxtyped.typing import Array


@jt.jit
def affine(x: Array, y: Array) -> Array:
    return x * y + x


def repeat_add(x: Array, n: int) -> Array:
    return x * n


repeat_jit = jt.jit(repeat_add, static_argnums=1)


@functools.partial(jt.jit, static_argnames="n")
def scaled_sin(x: Array, *, n: int = 2) -> Array:
    return jnp.sin(x) * n


@functools.partial(jt.jit, static_argnums=1)
def power(x: Array, n: int) -> Array:
    return x * n


@jt.jit
def stats(params: dict[str, Array], x: Array) -> dict[str, Array]:
    return {"out": params["w"] * x}


class Model:
    @jt.jit
    def apply(self, x: Array) -> Array:
        return x

    @functools.partial(jt.jit, static_argnums=0)
    def apply_static(self, x: Array, n: int) -> Array:
        return x * n


x = jnp.ones(3)
model = Model()

# Wrong argument types, in each form of jit.
affine("x", x)  # expect: mypy[arg-type] pyright[reportArgumentType]
affine(x, y=2.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
repeat_jit(x, "2")  # expect: mypy[arg-type] pyright[reportArgumentType]
repeat_jit(x, n=2.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
scaled_sin(x, n="3")  # expect: mypy[arg-type] pyright[reportArgumentType]
power(x, 2.5)  # expect: mypy[arg-type] pyright[reportArgumentType]
stats({"w": 1}, x)  # expect: mypy[dict-item] pyright[reportArgumentType]
model.apply("x")  # expect: mypy[arg-type] pyright[reportArgumentType]
model.apply_static(x, "2")  # expect: mypy[arg-type] pyright[reportArgumentType]
Model.apply(1, x)  # expect: mypy[arg-type] pyright[reportArgumentType]

# Wrong number of arguments and unknown keywords.
affine(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
affine(x, x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
affine(x, z=x)  # expect: mypy[call-arg] pyright[reportCallIssue]
scaled_sin(x, 3)  # expect: mypy[call-arg] pyright[reportCallIssue]
power(x)  # expect: mypy[call-arg] pyright[reportCallIssue]
model.apply(x, x)  # expect: mypy[call-arg] pyright[reportCallIssue]
model.apply()  # expect: mypy[call-arg] pyright[reportCallIssue]
Model.apply(x)  # expect: mypy[arg-type,call-arg] pyright[reportCallIssue]  # x is not a Model, and x is missing

# The result has the function's return type.
text: str = affine(x, x)  # expect: mypy[assignment] pyright[reportAssignmentType]
number: int = scaled_sin(x, n=2)  # expect: mypy[assignment] pyright[reportAssignmentType]
stats({"w": x}, x)[0]  # expect: mypy[index] pyright[reportArgumentType]
as_callable: Callable[[int], Array] = affine  # expect: mypy[assignment] pyright[reportAssignmentType]

# Staging methods take the same arguments; their results are typed.
affine.lower("bad", x)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]  # no argument is a ShapeDtypeStruct tree: fun's parameters apply
affine.trace(x)  # expect: mypy[call-overload] pyright[reportArgumentType]
model.apply.lower(x, x)  # expect: mypy[call-overload] pyright[reportArgumentType,reportCallIssue]
affine.lower(x, x).as_text(1)  # expect: mypy[arg-type] pyright[reportArgumentType]
affine.cache_info().bogus  # expect: mypy[attr-defined] pyright[reportAttributeAccessIssue,reportUnknownMemberType]
ready: str = jt.block_until_ready(affine(x, x))  # expect: mypy[assignment] pyright[reportAssignmentType]

# Bad arguments to jit itself.
jt.jit(42)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(repeat_add, static_argnums="1")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(repeat_add, static_argnums=1.0)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(repeat_add, static_argnames=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(repeat_add, donate_argnums="0")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(repeat_add, 1)  # expect: mypy[call-arg] pyright[reportCallIssue]  # the options are keyword-only
jt.jit(repeat_add, bogus=1)  # expect: mypy[call-arg] pyright[reportCallIssue]

# The stages keep the signature: a compiled function checks its arguments.
affine.lower(x, x).compile()("bad", x)  # expect: mypy[arg-type] pyright[reportArgumentType]
compiled_text: str = affine.trace(x, x).lower().compile()(x, x)  # expect: mypy[assignment] pyright[reportAssignmentType]
