"""jit's options are type-checked (issue 20), and the decorator-factory
form ``@jit(static_argnames=...)`` keeps the signature in both checkers: a
wrong call of the decorated function is reported (more forms in
fail_jit_forms.py)."""

import jaxtyped as jt
from jaxtyped.typing import Array


def add(x: Array, y: Array) -> Array:
    return x + y


jt.jit(add, donate_argnames=1)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(add, keep_unused="yes")  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(add, inline=None)  # expect: mypy[arg-type] pyright[reportArgumentType]
jt.jit(add, compiler_options={"xla_cpu_enable_fast_math": [1]})  # expect: mypy[dict-item] pyright[reportArgumentType]
jt.jit(add, compiler_options=["a"])  # expect: mypy[arg-type] pyright[reportArgumentType]


@jt.jit(static_argnames="n")
def times(x: Array, n: int) -> Array:
    return x * n


times("x", 2)  # expect: mypy[arg-type] pyright[reportArgumentType]
times(jt.numpy.ones(2), 2, 3)  # expect: mypy[call-arg] pyright[reportCallIssue]
