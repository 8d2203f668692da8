"""jit's options are type-checked (issue 20), and the decorator-factory
form ``@jit(static_argnames=...)`` keeps the signature in pyright -- a wrong
call of the decorated function is reported -- while mypy, which does not
solve type variables from a parameter's default, types the factory call
``Jitted[Never, Never]`` and rejects the decoration itself (a known
divergence: under mypy write ``functools.partial(jit, ...)``; api_jit's
Note [jit's decorator-factory form])."""

import jaxtyped as jt
from jaxtyped.typing import Array


def add(x: Array, y: Array) -> Array:
    return x + y


jt.jit(add, donate_argnames=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(add, keep_unused="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(add, inline=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(add, compiler_options={"xla_cpu_enable_fast_math": [1]})  # expect: mypy[dict-item] pyright[reportArgumentType]
jt.jit(add, compiler_options=["a"])  # expect: mypy[arg-type] pyright[reportArgumentType]


@jt.jit(static_argnames="n")  # expect: mypy[arg-type]
def times(x: Array, n: int) -> Array:
    return x * n


times("x", 2)  # expect: pyright[reportArgumentType]
times(jt.numpy.ones(2), 2, 3)  # expect: pyright[reportCallIssue]
